"""Which profiler wrote a file, told from its content (never its name), and the readers of the formats besides Kineto.

Each reader writes what it reads as the events Kineto would have written (``ph``, ``cat``, ``name``, ``ts`` and
``dur`` in microseconds, ``args``), so that the one collector in ``events`` keeps every format by the same rules
and the verdict, the diff and the pages never know which profiler it was:

- **Nsight Systems**, its SQLite export (``nsys export --type sqlite``): kernels, copies and memsets
  (``CUPTI_ACTIVITY_KIND_KERNEL``, ``…_MEMCPY``, ``…_MEMSET``), runtime calls (``CUPTI_ACTIVITY_KIND_RUNTIME``,
  their names in ``StringIds`` without the ``_v7000`` version suffix), NVTX ranges (``NVTX_EVENTS``: steps named
  ``ProfilerStep#N``, or ``step``/``iteration`` and a number; data-loader ranges), and the card
  (``TARGET_INFO_GPU``). Read with the standard library's ``sqlite3``, in the browser too.
- **rocprofv3's JSON** (``--output-format json``): its kernel dispatches, memory copies and HIP calls, and its GPUs
  by their product names (``read_rocprof_json``). Kineto's own reader streams the records past a stretch at a time
  into :class:`RocprofRecords`, which keeps each as the few fields it is read for, and hands on the rest of each run.
- **CSV reports**, by their header row: ``nsys stats --report cuda_gpu_trace`` (the GPU's timeline), rocprofv3's
  ``kernel_trace.csv`` and ``hip_api_trace.csv``, and rocprof's ``results.csv``. A report that holds no timeline
  (``cuda_gpu_kern_sum``, ``results.stats.csv``, an NVTX range report) is named, with what it lacks and the
  export that has it. Nsight Compute's ``--csv`` holds kernels counted one at a time, no timeline: ``counters``
  reads it, and here, where a timeline is needed, it is named.

Files in these formats carry no op shapes: a reading of one rests on the timeline (busy share, gaps, syncs,
collectives), and its coverage says that the roofline covers none of the kernel time.
"""

from __future__ import annotations

import contextlib
import csv
import itertools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from regime_core.errors import RegimeError
from regime_core.trace import counters
from regime_core.trace.source import Pieces
from regime_core.trace.stream import STREAMED

if TYPE_CHECKING:
    import sqlite3

_FIELD = "trace"
SQLITE_MAGIC = b"SQLite format 3\x00"


class Sink(Protocol):
    """Where a reader puts what a file holds (``events._Collector``).

    Events as Kineto writes them, or, where the file has them in columns, GPU spans and runtime calls a block of
    rows at a time.
    """

    skipped: int

    def add(self, event: Any) -> None:
        """One event, as Kineto writes it (``ph``, ``cat``, ``name``, ``ts`` and ``dur`` in µs, ``args``)."""

    def gpu_columns(self, kind: str, columns: Sequence[Sequence[Any]]) -> None:
        """GPU spans as columns: names, starts and ends in seconds, devices, streams, correlation ids."""

    def call_columns(self, columns: Sequence[Sequence[Any]]) -> None:
        """Runtime calls as columns: names, starts and ends in seconds, correlation ids, threads."""


#: A reader of a file (its pieces): it puts the file's events in the sink and gives the names of its GPUs.
FormatReader = Callable[[Pieces, Sink], tuple[str, ...]]

_READABLE = ("a Kineto JSON trace (torch.profiler; .json or .json.gz), an Nsight Systems SQLite export"
             " (nsys export --type sqlite REPORT.nsys-rep), its GPU trace as CSV (nsys stats --report"
             " cuda_gpu_trace --format csv), an Nsight Compute CSV (ncu --csv), or a rocprof kernel trace"
             " (kernel_trace.csv, results.csv)")
_VERSION = re.compile(r"_v\d+$")  # nsys names runtime calls with their API version: cudaLaunchKernel_v7000
_NVTX_STEP = re.compile(r"^(?:ProfilerStep#|(?:train[ _-]?)?(?:step|iteration|iter)[ _#:-]*)(\d{1,12})$", re.I)
_NVTX_RANGES = (59, 60)  # NvtxPushPopRange, NvtxStartEndRange


def other_format(head: bytes) -> FormatReader | None:
    """The reader of a file that begins with ``head``, or None where it is JSON (Kineto's own reader reads it).

    Raises:
        RegimeError: The file is none of the formats read, said with what they are.

    """
    if head.startswith(SQLITE_MAGIC):
        return read_nsys_sqlite
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if not text or text[:1] in b"{[" or text[:2] in (b"\xff\xfe", b"\xfe\xff"):  # JSON (UTF-16's is said there)
        return None
    line = text.split(b"\n", 1)[0]
    if b"\x00" not in head and (text.startswith(b"==PROF==") or line.count(b",") >= 2):
        return read_csv_report
    shown = "".join(c if c.isprintable() else "." for c in text[:16].decode("latin-1"))
    raise RegimeError(_FIELD, f"expected {_READABLE}; this file is none of them (it begins '{shown}'). An .nsys-rep"
                              " is exported with nsys export --type sqlite; an .ncu-rep with ncu --import FILE --csv"
                              " --page details")


def _us(ns: float) -> float:
    return ns / 1000


# --- Nsight Systems: the SQLite export ---------------------------------------------------------------------------


@contextlib.contextmanager
def _database(raw: bytes) -> Iterator[sqlite3.Connection]:
    """The export opened from its bytes: in memory where SQLite can (deserialize), else from a temporary file."""
    import sqlite3  # noqa: PLC0415 - only where an export is read: the page's worker starts without it
    import tempfile  # noqa: PLC0415 - as sqlite3

    con = sqlite3.connect(":memory:")
    path = ""
    try:
        try:
            con.deserialize(raw)
        except (AttributeError, sqlite3.Error):  # an SQLite built without deserialize
            con.close()
            handle, path = tempfile.mkstemp(suffix=".sqlite")
            with os.fdopen(handle, "wb") as out:
                out.write(raw)
            con = sqlite3.connect(path)
        yield con
    except sqlite3.DatabaseError as exc:
        raise RegimeError(_FIELD, f"expected a whole Nsight Systems SQLite export; SQLite cannot read it ({exc})") \
            from None
    finally:
        con.close()
        if path:
            os.unlink(path)


def _columns(con: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in con.execute(f"PRAGMA table_info('{table}')")}  # table: one of ours, never the file's


def read_nsys_sqlite(pieces: Pieces, sink: Sink) -> tuple[str, ...]:
    """An ``nsys export --type sqlite`` database: its GPU work, runtime calls, NVTX ranges and GPUs, into ``sink``.

    Read whole: SQLite opens a database from all of its bytes.
    """
    with _database(pieces.whole()) as con:
        tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "StringIds" not in tables or not tables & {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"}:
            raise RegimeError(_FIELD, "expected an Nsight Systems export (tables StringIds and"
                                      " CUPTI_ACTIVITY_KIND_KERNEL); this SQLite database has neither: profile"
                                      " with nsys profile --trace cuda (and nvtx), then nsys export --type sqlite")
        strings = {key: str(value)[:500] for key, value in con.execute("SELECT id, value FROM StringIds")}
        _nsys_gpu(con, tables, strings, sink)
        _nsys_runtime(con, tables, strings, sink)
        for event in _nsys_nvtx(con, tables, strings):
            sink.add(event)
        names: tuple[str, ...] = ()
        for table in ("TARGET_INFO_GPU", "TARGET_INFO_CUDA_GPU"):
            if table in tables and "name" in _columns(con, table):
                names = tuple(str(n)[:100] for (n,) in con.execute(f"SELECT name FROM {table} ORDER BY id"))
                break
    return names


_BLOCK = 1 << 16  # rows read at a time: a million-kernel export is never held as rows whole
# Seconds as the Kineto reader makes them from µs (ts × 1e-6, then start + dur × 1e-6), worked in SQLite: the
# same doubles, without a Python step per row. Rows with a time missing or an end before the start are skipped.
_SECONDS = "start / 1000.0 * 1e-6, start / 1000.0 * 1e-6 + (end - start) / 1000.0 * 1e-6"
_WHOLE = "start IS NOT NULL AND end IS NOT NULL AND end >= start"


def _blocks(con: sqlite3.Connection, query: str, table: str, sink: Sink) -> Iterator[tuple[Sequence[Any], ...]]:
    """The query's rows (read from ``table``, those with whole times) as columns, a block at a time; the rest skipped."""
    cursor = con.execute(query)
    while rows := cursor.fetchmany(_BLOCK):
        yield tuple(zip(*rows, strict=True))
    (whole, every), = con.execute(f"SELECT count(CASE WHEN {_WHOLE} THEN 1 END), count(*) FROM {table}")
    sink.skipped += every - whole


def _nsys_gpu(con: sqlite3.Connection, tables: set[str], strings: dict[int, str], sink: Sink) -> None:
    if "CUPTI_ACTIVITY_KIND_KERNEL" in tables:
        named = "demangledName" if "demangledName" in _columns(con, "CUPTI_ACTIVITY_KIND_KERNEL") else "shortName"
        query = (f"SELECT {named}, {_SECONDS}, deviceId, streamId, correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL"
                 f" WHERE {_WHOLE}")
        for ids, *rest in _blocks(con, query, "CUPTI_ACTIVITY_KIND_KERNEL", sink):
            sink.gpu_columns("kernel", (list(map(strings.get, ids, itertools.repeat("kernel"))), *rest))
    for table, kind, name in (("CUPTI_ACTIVITY_KIND_MEMCPY", "memcpy", "Memcpy"),
                              ("CUPTI_ACTIVITY_KIND_MEMSET", "memset", "Memset")):
        if table in tables:
            query = f"SELECT {_SECONDS}, deviceId, streamId, correlationId FROM {table} WHERE {_WHOLE}"
            for columns in _blocks(con, query, table, sink):
                sink.gpu_columns(kind, ([name] * len(columns[0]), *columns))


def _nsys_runtime(con: sqlite3.Connection, tables: set[str], strings: dict[int, str], sink: Sink) -> None:
    if "CUPTI_ACTIVITY_KIND_RUNTIME" not in tables:
        return
    query = (f"SELECT nameId, {_SECONDS}, correlationId, globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE {_WHOLE}")
    names: dict[int, str] = {}
    for ids, *rest in _blocks(con, query, "CUPTI_ACTIVITY_KIND_RUNTIME", sink):
        for key in set(ids).difference(names):
            names[key] = _VERSION.sub("", strings.get(key, ""))
        sink.call_columns((list(map(names.__getitem__, ids)), *rest))


def _nsys_nvtx(con: sqlite3.Connection, tables: set[str], strings: dict[int, str]) -> Iterator[dict[str, Any]]:
    if "NVTX_EVENTS" not in tables:
        return
    has = _columns(con, "NVTX_EVENTS")
    text = "text" if "text" in has else "NULL"
    text_id = "textId" if "textId" in has else "NULL"
    for start, end, kind, said, said_id, thread in con.execute(
            f"SELECT start, end, eventType, {text}, {text_id}, globalTid FROM NVTX_EVENTS"):
        if kind not in _NVTX_RANGES or end is None or end < start:
            continue
        name = said if isinstance(said, str) else strings.get(said_id, "")
        step = _NVTX_STEP.match(name.strip())
        yield {"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{int(step.group(1))}" if step else name,
               "ts": _us(start), "dur": _us(end - start), "tid": thread, "args": {}}


# --- CSV reports: nsys stats, rocprof -----------------------------------------------------------------------------

#: Reports that hold no timeline: what each is, and the export that has one.
_NO_TIMELINE = (
    ({"Total Time (ns)", "Instances", "Name"}, "an nsys stats summary (per-kernel or per-call totals, such as"
     " cuda_gpu_kern_sum or cuda_api_sum): totals have no gaps between kernels, so they cannot say whether the GPU"
     " waited; export the timeline: nsys stats --report cuda_gpu_trace --format csv"),
    ({"Name", "Calls", "TotalDurationNs"}, "a rocprof summary (per-kernel or per-call totals: results.stats.csv, or"
     " rocprofv3's kernel_stats.csv or hip_api_stats.csv): totals have no gaps between kernels; read the timeline"
     " beside it (results.csv, or rocprofv3's kernel_trace.csv)"),
    ({"Start (ns)", "End (ns)", "Name"}, "an NVTX range report (nvtx_pushpop_trace): ranges, but no kernels;"
     " export the GPU's timeline: nsys stats --report cuda_gpu_trace --format csv"),
)


def read_csv_report(pieces: Pieces, sink: Sink) -> tuple[str, ...]:
    """A CSV report, by its header row: the GPU's timeline it holds (into ``sink``; no GPU named).

    Or, for a report with no timeline, what it is and what to export instead. Read a line at a time: a report of
    millions of rows is never held whole, as a JSON trace is not.
    """
    for event in _csv_events(pieces):
        sink.add(event)
    return ()


_NCU_NOT_A_TIMELINE = ("this is an Nsight Compute report (ncu --csv): each kernel's counters, replayed one at a time,"
                       " not a timeline. regime trace reads it kernel by kernel; comparing runs or ranks needs their"
                       " timelines (nsys or torch.profiler)")


def _csv_events(pieces: Pieces) -> Iterable[dict[str, Any]]:
    if counters.is_counters(counters.header_row(pieces.head)):
        raise RegimeError(_FIELD, _NCU_NOT_A_TIMELINE)
    lines = pieces.lines("expected a CSV report in UTF-8 text; this file is not")
    rows = csv.DictReader(line for line in lines if not line.startswith("==PROF=="))
    header = set(rows.fieldnames or ())
    if counters.is_counters(header):  # its header past more of ncu's own lines than the file's first bytes hold
        raise RegimeError(_FIELD, _NCU_NOT_A_TIMELINE)
    if {"Start (ns)", "Duration (ns)", "Name"} <= header and header & {"CorrId", "Strm"}:  # not an NVTX report
        return _nsys_gpu_trace(rows)
    if {"Kernel_Name", "Start_Timestamp", "End_Timestamp"} <= header:
        return _rocprof_v3_kernels(rows)
    if {"Function", "Start_Timestamp", "End_Timestamp"} <= header:
        return _rocprof_v3_api(rows)
    if {"KernelName", "BeginNs", "EndNs"} <= header:
        return _rocprof_v1(rows)
    for needs, said in _NO_TIMELINE:
        if needs <= header:
            raise RegimeError(_FIELD, f"this is {said}")
    shown = ", ".join(sorted(header)[:6]) or "none"
    raise RegimeError(_FIELD, f"expected {_READABLE}; this CSV's columns ({shown}) are none of them")


def _number(row: dict[str, Any], key: str) -> float | None:
    try:
        return float(str(row.get(key, "")).replace(",", ""))
    except ValueError:
        return None


def _whole(row: dict[str, Any], key: str) -> int | None:
    value = _number(row, key)
    return int(value) if value is not None and value.is_integer() else None


def _span(cat: str, name: str, start: float | None, end: float | None, args: dict[str, Any]) -> dict[str, Any]:
    """One event; a start or end that is not a number is left for the collector to count as skipped."""
    if start is None or end is None:
        return {"ph": "X", "cat": cat, "name": name, "ts": None, "dur": None, "args": args}
    return {"ph": "X", "cat": cat, "name": name, "ts": _us(start), "dur": _us(end - start), "args": args}


def _nsys_gpu_trace(rows: csv.DictReader[str]) -> Iterator[dict[str, Any]]:
    for row in rows:
        name = row.get("Name") or "kernel"
        start, took = _number(row, "Start (ns)"), _number(row, "Duration (ns)")
        cat = ("gpu_memcpy" if name.startswith("[CUDA memcpy") else "gpu_memset" if name.startswith("[CUDA memset")
               else "kernel")
        yield _span(cat, name, start, None if start is None or took is None else start + took,
                    {"device": row.get("Device", ""), "stream": row.get("Strm", ""),
                     "correlation": _whole(row, "CorrId")})


def _rocprof_v3_kernels(rows: csv.DictReader[str]) -> Iterator[dict[str, Any]]:
    for row in rows:
        yield _span("kernel", row.get("Kernel_Name") or "kernel", _number(row, "Start_Timestamp"),
                    _number(row, "End_Timestamp"),
                    {"device": row.get("Agent_Id", ""), "stream": row.get("Queue_Id", row.get("Stream_Id", "")),
                     "correlation": _whole(row, "Correlation_Id")})


def _rocprof_v3_api(rows: csv.DictReader[str]) -> Iterator[dict[str, Any]]:
    for row in rows:
        event = _span("cuda_runtime", row.get("Function") or "", _number(row, "Start_Timestamp"),
                      _number(row, "End_Timestamp"), {"correlation": _whole(row, "Correlation_Id")})
        event["tid"] = row.get("Thread_Id", "")
        yield event


def _rocprof_v1(rows: csv.DictReader[str]) -> Iterator[dict[str, Any]]:
    for row in rows:
        yield _span("kernel", row.get("KernelName") or "kernel", _number(row, "BeginNs"), _number(row, "EndNs"),
                    {"device": row.get("gpu-id", ""), "stream": row.get("queue-id", "")})


# --- rocprofv3: its JSON output ----------------------------------------------------------------------------------

_ROCPROF_GPU = 2  # an agent's type: 1 is a CPU, 2 a GPU


def _dispatch(record: Any) -> tuple[Any, ...]:
    """What a kernel dispatch is read for: its kernel, GPU, queue, times and correlation id."""
    fields = record if isinstance(record, dict) else {}
    info = fields.get("dispatch_info")
    info = info if isinstance(info, dict) else {}
    return (info.get("kernel_id"), _handle(info.get("agent_id")), _handle(info.get("queue_id")),
            _stamp(record, "start_timestamp"), _stamp(record, "end_timestamp"),
            _handle(fields.get("correlation_id"), "internal"))


def _copy(record: Any) -> tuple[Any, ...]:
    """What a memory copy is read for: the GPU it copied to, its times and correlation id."""
    fields = record if isinstance(record, dict) else {}
    return (_handle(fields.get("dst_agent_id")), _stamp(record, "start_timestamp"), _stamp(record, "end_timestamp"),
            _handle(fields.get("correlation_id"), "internal"))


def _hip_call(record: Any) -> tuple[Any, ...]:
    """What a HIP runtime call is read for: its operation, times, correlation id and thread."""
    fields = record if isinstance(record, dict) else {}
    return (fields.get("operation"), _stamp(record, "start_timestamp"), _stamp(record, "end_timestamp"),
            _handle(fields.get("correlation_id"), "internal"), fields.get("thread_id", ""))


#: The kinds of rocprofv3 record read, each kept as the few fields it is read for.
_KEPT_RECORDS: dict[str, Callable[[Any], tuple[Any, ...]]] = {
    "kernel_dispatch": _dispatch, "memory_copy": _copy, "hip_api": _hip_call}


class RocprofRecords:
    """rocprofv3's records as the reader streams them past: each kept as the fields it is read for, not its dicts.

    A dispatch as rocprofv3 writes it is five nested objects (some 2 KB once parsed); kept as one tuple it is a
    tenth of that, so the file's records never stand whole in memory. Other kinds of record are passed over.
    """

    def __init__(self) -> None:
        self.kept: dict[tuple[int, str], list[tuple[Any, ...]]] = {}

    def add(self, run: int, kind: str, records: list[Any]) -> None:
        """Keep a stretch of one run's records of one kind."""
        fields = _KEPT_RECORDS.get(kind)
        if fields is not None:
            self.kept.setdefault((run, kind), []).extend(map(fields, records))

    def of(self, runs: list[Any], index: int, kind: str) -> list[tuple[Any, ...]]:
        """Run ``index``'s records of ``kind``: as streamed, or read from a list kept whole in the run."""
        run = runs[index]
        found = run.get("buffer_records", {}).get(kind, []) if isinstance(run, dict) else []
        if found is STREAMED:
            return self.kept.get((index, kind), [])
        if not isinstance(found, list):
            raise RegimeError(_FIELD, f"expected rocprofv3's buffer_records.{kind} to be a list; this file's is not")
        return list(map(_KEPT_RECORDS[kind], found))


def _operations(run: dict[str, Any], kind: str) -> list[str]:
    """The names of one kind of record's operations (``strings.buffer_records``: HIP_RUNTIME_API's, …)."""
    for entry in run.get("strings", {}).get("buffer_records", []):
        if isinstance(entry, dict) and entry.get("kind") == kind and isinstance(entry.get("operations"), list):
            return [str(name) for name in entry["operations"]]
    return []


def read_rocprof_json(tool: Any, sink: Sink, records: RocprofRecords | None = None) -> tuple[str, ...]:
    """rocprofv3's JSON (``rocprofv3 --kernel-trace --memory-copy-trace --hip-trace --output-format json``).

    Kernel dispatches, memory copies and HIP runtime calls (``buffer_records``: streamed past into ``records`` by
    the reader, or kept whole in ``tool``) are written as Kineto's events, with their kernels' names from
    ``kernel_symbols`` and their GPUs (``agents`` of type 2, by ``gpu_index``) named by their ``product_name`` ("AMD
    Instinct MI350X"). Gives the GPUs' names, in ``gpu_index`` order.
    """
    runs = tool if isinstance(tool, list) else [tool]
    kept = records or RocprofRecords()
    names: dict[int, str] = {}
    if not any(isinstance(run, dict) and kept.of(runs, n, "kernel_dispatch") for n, run in enumerate(runs)):
        raise RegimeError(_FIELD, "this rocprofv3 JSON holds no kernel dispatches: run it with --kernel-trace (and"
                                  " --memory-copy-trace --hip-trace for copies and host calls)")
    for n, run in enumerate(runs):
        if not isinstance(run, dict) or "buffer_records" not in run:
            raise RegimeError(_FIELD, "expected rocprofv3's JSON to hold buffer_records (run it with --kernel-trace);"
                                      " this file's rocprofiler-sdk-tool entry has none")
        gpus = {agent["id"]["handle"]: agent for agent in run.get("agents", [])
                if isinstance(agent, dict) and agent.get("type") == _ROCPROF_GPU and isinstance(agent.get("id"), dict)}
        index = {handle: int(agent.get("gpu_index", i)) for i, (handle, agent) in enumerate(gpus.items())}
        names.update({index[h]: str(agent.get("product_name") or agent.get("name") or "")[:100]
                      for h, agent in gpus.items()})
        symbols = {s.get("kernel_id"): str(s.get("formatted_kernel_name") or s.get("kernel_name") or "kernel")
                   for s in run.get("kernel_symbols", []) if isinstance(s, dict)}
        for kernel, handle, queue, start, end, correlation in kept.of(runs, n, "kernel_dispatch"):
            sink.add(_span("kernel", symbols.get(kernel, "kernel"), start, end,
                           {"device": index.get(handle, handle), "stream": queue, "correlation": correlation}))
        for handle, start, end, correlation in kept.of(runs, n, "memory_copy"):
            sink.add(_span("gpu_memcpy", "Memcpy", start, end,
                           {"device": index.get(handle, 0), "correlation": correlation}))
        calls = _operations(run, "HIP_RUNTIME_API")
        for op, start, end, correlation, thread in kept.of(runs, n, "hip_api"):
            event = _span("cuda_runtime", calls[op] if isinstance(op, int) and 0 <= op < len(calls) else "", start, end,
                          {"correlation": correlation})
            event["tid"] = thread
            sink.add(event)
    return tuple(names.get(i, "") for i in range(max(names) + 1)) if names else ()


def _stamp(record: Any, key: str) -> float | None:
    value = record.get(key) if isinstance(record, dict) else None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _handle(value: Any, key: str = "handle") -> Any:
    return value.get(key) if isinstance(value, dict) else None
