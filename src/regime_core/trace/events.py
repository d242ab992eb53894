"""A Chrome/Kineto trace read into what the regime needs: GPU spans, host calls, CPU ops, steps and the card.

Times are kept in seconds. An event without a usable start or duration is counted and left out (a
trace of millions of events keeps what it can read); a trace with no readable GPU activity at all is
said by :mod:`regime_core.trace.reading`, not here.
"""

from __future__ import annotations

import dataclasses
import math
import re
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter
from typing import Any, BinaryIO, NamedTuple

from regime_core.errors import RegimeError
from regime_core.trace import formats
from regime_core.trace.columns import Columns, FlagColumn, IdColumn, LabelColumn, MaybeFloatColumn
from regime_core.trace.source import MAX_TRACE_BYTES, Pieces
from regime_core.trace.stream import ROCPROF_JSON, Reader

__all__ = ["MAX_TRACE_BYTES", "Events", "read_events"]

_FIELD = "trace"
# Kineto's categories as PyTorch has written them since 2022, and before (2021: "Kernel", "Memcpy", "Memset",
# "Runtime", "Operator"; a GPU event's op in "external id", an op's shapes in "Input dims" or "Input Dims").
_GPU_CATEGORIES = {"kernel": "kernel", "gpu_memcpy": "memcpy", "gpu_memset": "memset", "mtia_kernel": "kernel",
                   "Kernel": "kernel", "Memcpy": "memcpy", "Memset": "memset"}
_HOST_CATEGORIES = ("cuda_runtime", "cuda_driver", "cuda_sync", "mtia_runtime", "Runtime")
_CPU_OPS = ("cpu_op", "Operator")
LAUNCHES = re.compile(r"^(?:cuda|hip|cu)(?:Launch\w*|ExtModuleLaunchKernel|ModuleLaunchKernel|GraphLaunch)$"
                      r"|^cu(?:LaunchKernel\w*|GraphLaunch)$")
GRAPH_LAUNCHES = re.compile(r"GraphLaunch$")
SYNCS = re.compile(r"^(?:cuda|hip)(?:DeviceSynchronize|StreamSynchronize|EventSynchronize|Memcpy|MemcpyWithStream"
                   r"|MemcpyDtoH|MemcpyHtoD)$|^cu(?:CtxSynchronize|StreamSynchronize|EventSynchronize)$"
                   r"|^aten::(?:item|_local_scalar_dense)$")
COLLECTIVES = re.compile(r"nccl|rccl|AllReduce|AllGather|ReduceScatter|SendRecv|Broadcast|AllToAll", re.I)
LOADER = re.compile(r"enumerate\(DataLoader\).*__next__|DataLoader.*__next__|dataloader", re.I)
STEP = re.compile(r"^ProfilerStep#(\d+)$")


# Plain named tuples, not frozen dataclasses: a trace makes millions of these, and a tuple is built several
# times faster and stays smaller.
class Span(NamedTuple):
    """Something with a start and an end, in seconds."""

    name: str
    start: float
    end: float

    @property
    def duration(self) -> float:
        """End minus start."""
        return self.end - self.start


class GpuSpan(NamedTuple):
    """A kernel, copy or memset on a device's stream; ``correlation`` links it to the host call that launched it."""

    name: str
    start: float
    end: float
    kind: str = "kernel"
    device: str = ""
    stream: str = ""
    correlation: int | None = None
    external: int | None = None
    comm: bool = False

    @property
    def duration(self) -> float:
        """End minus start."""
        return self.end - self.start


class Call(NamedTuple):
    """A host call into the runtime (a launch), with the correlation id its GPU work carries."""

    name: str
    start: float
    end: float
    correlation: int | None = None
    thread: str = ""


class CpuOp(NamedTuple):
    """An operator on the host (``aten::mm``), with the shapes and types ``record_shapes=True`` records."""

    name: str
    start: float
    end: float
    thread: str = ""
    external: int | None = None
    dims: tuple[object, ...] = ()
    types: tuple[object, ...] = ()
    flops: float | None = None
    #: The values recorded for non-tensor arguments (``Concrete Inputs``: a convolution's stride, padding, groups).
    concrete: tuple[object, ...] = ()


@dataclass(frozen=True)
class Events:
    """A trace's events, sorted by start."""

    gpu: Sequence[GpuSpan]  # kept as columns by the reader (columns.py); a tuple where a test builds one
    launches: Sequence[Call]
    graph_launches: int
    syncs: tuple[Span, ...]
    ops: Sequence[CpuOp]
    steps: tuple[tuple[int, Span], ...]
    loader: tuple[Span, ...]
    device_names: tuple[str, ...]
    skipped: int = 0
    profiled_kernels: int = 0  # CUPTI range-profiler records: a kernel's counters, from a replay of it alone
    rank: int | None = None  # this process's rank and the job's size, from torch.distributed (distributedInfo)
    world_size: int | None = None
    #: Each collective kernel whose message PyTorch recorded on it: (start, end, elements in, elements out, its
    #: dtype's name, the group's size). Few (a collective a bucket), so kept as tuples.
    messages: tuple[tuple[float, float, int, int, str, int], ...] = ()


def _seconds(value: object) -> float | None:
    """Microseconds (Kineto's unit) as seconds; None for what is not a finite number."""
    if type(value) is str:
        try:
            value = float(value)
        except ValueError:
            return None
    elif type(value) is not float and type(value) is not int:
        return None
    try:
        seconds = value * 1e-6
    except OverflowError:  # an integer beyond any float
        return None
    return seconds if math.isfinite(seconds) else None


def _int(value: object) -> int | None:
    if type(value) is int:
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 20:
        return int(value)
    return None


class _Kinds(NamedTuple):
    """What a name is (unpacked in order on the hot path; read by field where columns are kept)."""

    name: str  # the first copy of the name, kept for every event that has it
    comm: bool  # a collective
    loads: bool  # a data-loader wait
    step: int | None  # a step's number
    launch: bool
    graph: bool  # a CUDA graph's launch
    sync: bool
_NUMBER = frozenset((int, float))
_HUGE = 1e300  # beyond it, a time in microseconds is no time (and an integer may not convert)
_INF = math.inf
_ABSENT = object()  # a key not there (None is a value an event may hold)
_FIELDS = itemgetter("ph", "ts", "dur", "cat", "name", "args")  # an event's fields in one call into C


class _Names:
    """What a name is (a collective, a loader wait, a step, a launch, a sync), worked out once per distinct name.

    A trace repeats a few thousand names over millions of events; the first copy of each is the one kept.
    """

    def __init__(self) -> None:
        self.seen: dict[str, _Kinds] = {}

    def classify(self, name: str) -> _Kinds:
        """The name's kinds, worked out (and remembered: look in ``seen`` first); a name is kept to 500 characters."""
        step = STEP.match(name)
        found = _Kinds(name[:500], bool(COLLECTIVES.search(name)), bool(LOADER.search(name)), int(step[1]) if step else None,
                       bool(LAUNCHES.match(name)), bool(GRAPH_LAUNCHES.search(name)), bool(SYNCS.match(name)))
        if len(self.seen) < 100_000:
            self.seen[name] = found
        return found

    def of_each(self, names: Sequence[str]) -> dict[str, _Kinds]:
        """Each distinct name's kinds (a column of names, read a block at a time)."""
        seen = self.seen
        return {name: seen.get(name) or self.classify(name) for name in dict.fromkeys(names)}


class _Labels(dict[object, str]):
    """Devices, streams and threads as one shared string each (a trace repeats a handful): ``labels[value]``."""

    def __missing__(self, value: object) -> str:
        text = self[value] = str(value)
        return text


_SHARED_SHAPES = 100_000  # a trace of ever new shapes (dynamic ones) keeps its own copies past this many


def _items(value: object, shared: dict[tuple[object, ...], tuple[object, ...]]) -> tuple[object, ...]:
    """A list's items as a tuple; equal lists (an op's types, or its shapes, equal as numbers) share one tuple.

    A trace records the same few shapes and types call after call: one copy of each is kept, and
    :func:`regime_core.trace.ops.op_totals` writes each shape's text once.
    """
    if type(value) is not list:
        return ()
    items = tuple(value)
    if items and type(items[0]) is list:  # shapes: a list of lists, shared by their values as tuples
        try:
            key = tuple(map(tuple, items))
            found = shared.get(key)
        except TypeError:  # a list of tensors' shapes, nested one deeper (aten::cat's): kept as it is
            return items
        if found is None and len(shared) < _SHARED_SHAPES:
            shared[key] = items
        return found or items
    try:
        return shared.setdefault(items, items)
    except TypeError:  # nested lists further in: kept as they are
        return items


def _label(labels: _Labels, value: object) -> str:
    try:
        return labels[value]
    except TypeError:  # a list where a number belongs
        return str(value)


def _gpu_columns() -> Columns[GpuSpan]:
    """GPU spans as columns (``columns.py``): what a trace of millions of kernels keeps."""
    return Columns(GpuSpan, [[], array("d"), array("d"), LabelColumn(), LabelColumn(), LabelColumn(), IdColumn(),
                             IdColumn(), FlagColumn()])


def _call_columns() -> Columns[Call]:
    """Host calls (launches) as columns."""
    return Columns(Call, [[], array("d"), array("d"), IdColumn(), LabelColumn()])


def _op_columns() -> Columns[CpuOp]:
    """CPU ops as columns; their shapes and types are shared tuples, kept as references."""
    return Columns(CpuOp, [[], array("d"), array("d"), LabelColumn(), IdColumn(), [], [], MaybeFloatColumn(), []])


class _Collector:
    """Keeps what the reader needs of each event as it streams past."""

    def __init__(self) -> None:
        self.gpu = _gpu_columns()
        self.launches = _call_columns()
        self.syncs: list[Span] = []
        self.ops = _op_columns()
        self.steps: list[tuple[int, Span]] = []
        self.loader: list[Span] = []
        self.graphs = self.skipped = self.profiled = 0
        self.kinds = _Names()
        self.labels = _Labels()
        self.type_lists: dict[tuple[object, ...], tuple[object, ...]] = {}
        self.messages: list[tuple[float, float, int, int, str, int]] = []

    # The hot path of a trace's millions of events. Most events are well formed: ``add_many`` reads those with
    # subscripts and type checks only, and keeps a kernel, a copy or a launch written as Kineto writes them in its
    # own loop, and a plain CPU op in one call (one call per stretch of events, not two or three per event: the
    # browser pays for each call); anything else goes to ``_keep``, and every odd case to ``_add``, which say what
    # to keep of it. All of them keep the same things from the same event, in the order the events came.
    def add(self, event: Any) -> None:
        """Keep one event, if it is one the reader needs."""
        self.add_many((event,))

    def add_many(self, events: Iterable[Any]) -> None:
        """Keep each of ``events`` the reader needs, in order."""
        seen, labels, keep, op = self.kinds.seen, self.labels, self._keep, self._op
        gpu_rows, launch_rows = self.gpu.waiting, self.launches.waiting
        graphs = 0
        for event in events:
            try:
                ph, ts, dur, cat, raw_name, args = _FIELDS(event)
            except (KeyError, TypeError, IndexError):
                self._add(event)
                continue
            if ph != "X":
                continue
            if type(ts) not in _NUMBER or type(dur) not in _NUMBER or type(cat) is not str \
                    or type(raw_name) is not str or type(args) is not dict or not -_HUGE < ts < _HUGE \
                    or not -_HUGE < dur < _HUGE:
                self._add(event)
                continue
            start, duration = ts * 1e-6, dur * 1e-6
            if not 0 <= duration < _INF or start - start != 0:  # negative, or not finite: counted as skipped there
                self._add(event)
                continue
            kinds = seen.get(raw_name)
            if kinds is not None:
                gpu_kind = _GPU_CATEGORIES.get(cat)
                if gpu_kind is not None and not kinds.comm:  # a collective's message is read in _keep
                    try:
                        device, stream, correlation, external = (labels[args["device"]], labels[args["stream"]],
                                                                 args["correlation"], args["External id"])
                    except (KeyError, TypeError):
                        device = None
                    if device is not None and type(correlation) is int and type(external) is int:
                        gpu_rows.append((kinds.name, start, start + duration, gpu_kind, device, stream, correlation,
                                         external, False))
                        continue
                elif cat in _HOST_CATEGORIES:  # a host category holds no step, op or loader wait
                    if kinds.launch:
                        try:
                            correlation, thread = args["correlation"], labels[event["tid"]]
                        except (KeyError, TypeError):
                            correlation = None
                        if type(correlation) is int:
                            launch_rows.append((kinds.name, start, start + duration, correlation, thread))
                            graphs += kinds.graph
                            continue
                    elif not kinds.sync:
                        continue  # a runtime call that neither launches nor waits: nothing of it is kept
                elif cat == "cpu_op" and kinds.step is None and not kinds.loads and not kinds.sync:
                    op(kinds.name, start, start + duration, args, event)  # an op, and nothing else
                    continue
            keep(start, start + duration, cat, raw_name, args, event)
        self.graphs += graphs
        self.gpu.settle()
        self.launches.settle()

    def _message(self, start: float, end: float, args: dict[str, Any]) -> None:
        sizes = [v for v in (args.get("In msg nelems"), args.get("Out msg nelems", args.get("In msg nelems")),
                             args.get("Group size")) if type(v) is int and 0 <= v < _HUGE]
        if len(sizes) == 3 and isinstance(args.get("dtype"), str):
            self.messages.append((start, end, sizes[0], sizes[1], str(args["dtype"])[:20], sizes[2]))

    def gpu_columns(self, kind: str, columns: Sequence[Sequence[Any]]) -> None:
        """GPU spans given as columns: names, starts and ends (seconds), devices, streams, correlation ids.

        A reader that has them so (an SQLite export's table, read a block of rows at a time) keeps them without an
        event dict each: each name is classified once, each column kept in one call into C. The same spans as
        :meth:`add` keeps from the same events; times must be finite, ends not before starts.
        """
        names, starts, ends, devices, streams, correlations = columns
        kinds = self.kinds.of_each(names)
        labels = self.labels
        rows = len(names)
        # Each column made by a lookup per row in C, from what each distinct name is
        kept = {raw: kinds_of.name for raw, kinds_of in kinds.items()}
        comm = {raw: kinds_of.comm for raw, kinds_of in kinds.items()}
        self.gpu.extend([list(map(kept.__getitem__, names)), starts, ends, [kind] * rows,
                         list(map(labels.__getitem__, devices)), list(map(labels.__getitem__, streams)), correlations,
                         [None] * rows,
                         list(map(comm.__getitem__, names)) if kind == "kernel" and any(comm.values()) else [False] * rows])

    def call_columns(self, columns: Sequence[Sequence[Any]]) -> None:
        """Host runtime calls given as columns: names, starts and ends (seconds), correlation ids, threads.

        The launches are kept, the syncs kept as spans, the rest left, as :meth:`add` does with ``cuda_runtime``
        events.
        """
        names, starts, ends, correlations, threads = columns
        kinds = self.kinds.of_each(names)
        # Which rows are launches, looked up in C from what each distinct name is; the columns picked by it
        launches = list(map({raw: kinds_of.launch for raw, kinds_of in kinds.items()}.__getitem__, names))
        kept = {raw: kinds_of.name for raw, kinds_of in kinds.items()}
        launched_names = list(compress(names, launches))
        self.launches.extend([list(map(kept.__getitem__, launched_names)), list(compress(starts, launches)),
                              list(compress(ends, launches)), list(compress(correlations, launches)),
                              list(map(self.labels.__getitem__, compress(threads, launches)))])
        self.graphs += sum(map({raw: kinds_of.graph for raw, kinds_of in kinds.items()}.__getitem__, launched_names))
        if any(kinds_of.sync and not kinds_of.launch for kinds_of in kinds.values()):
            self.syncs.extend(Span(kinds[raw].name, starts[n], ends[n]) for n, raw in enumerate(names)
                              if kinds[raw].sync and not kinds[raw].launch)

    def _add(self, event: Any) -> None:
        if type(event) is not dict:
            return
        get = event.get
        if get("ph") != "X":
            return
        start, duration = _seconds(get("ts")), _seconds(get("dur"))
        if start is None or duration is None or duration < 0:
            self.skipped += 1
            return
        cat = get("cat", "")
        if type(cat) is not str:
            cat = str(cat)
        raw_name = get("name", "")
        if type(raw_name) is not str:
            raw_name = str(raw_name)
        args = get("args")
        self._keep(start, start + duration, cat, raw_name[:500], args if type(args) is dict else {}, event)

    def _gpu(self, name: str, start: float, end: float, kind: str, comm: bool, args: dict[str, Any],  # noqa: PLR0917
             event: dict[str, Any]) -> None:
        """A GPU span whose args are not all there, or hold a list where a number belongs."""
        device, stream = args.get("device", _ABSENT), args.get("stream", _ABSENT)
        if device is _ABSENT:  # Kineto puts them in args; other writers in pid and tid
            device = event.get("pid", "")
        if stream is _ABSENT:
            stream = event.get("tid", "")
        labels = self.labels
        self.gpu.append((name, start, end, kind, _label(labels, device), _label(labels, stream),
                         _int(args.get("correlation")), _int(args.get("External id", args.get("external id"))), comm))

    def _op(self, name: str, start: float, end: float, args: dict[str, Any], event: dict[str, Any]) -> None:
        """A CPU op: its thread, its External id, its inputs' shapes, types and values, its FLOPs where recorded."""
        flops = args.get("flops")
        dims = args.get("Input Dims")
        if dims is None:  # older traces spell it in lower case
            dims = args.get("Input dims")
        external = args.get("External id")
        shared = self.type_lists
        self.ops.append((name, start, end, _label(self.labels, event.get("tid", "")),
                         external if type(external) is int else _int(external), _items(dims, shared),
                         _items(args.get("Input type"), shared),
                         float(flops) if type(flops) is float or (type(flops) is int and -_HUGE < flops < _HUGE)
                         else None,
                         _items(args.get("Concrete Inputs"), shared)))

    def _keep(self, start: float, end: float, cat: str, raw_name: str, args: dict[str, Any],  # noqa: PLR0917 (hot path: no keywords)
              event: dict[str, Any]) -> None:
        kinds = self.kinds.seen.get(raw_name) or self.kinds.classify(raw_name)
        name, comm, loads, step, launch, graph, sync = kinds
        labels = self.labels
        gpu_kind = _GPU_CATEGORIES.get(cat)
        if gpu_kind is not None:
            try:  # as Kineto writes them: subscripts, not four calls to get
                device, stream, correlation, external = (labels[args["device"]], labels[args["stream"]],
                                                         args["correlation"], args["External id"])
            except (KeyError, TypeError):
                self._gpu(name, start, end, gpu_kind, gpu_kind == "kernel" and comm, args, event)
                if gpu_kind == "kernel" and comm and "In msg nelems" in args:
                    self._message(start, end, args)
                return
            self.gpu.append((name, start, end, gpu_kind, device, stream,
                             correlation if type(correlation) is int else _int(correlation),
                             external if type(external) is int else _int(external), gpu_kind == "kernel" and comm))
            if gpu_kind == "kernel" and comm and "In msg nelems" in args:  # PyTorch records the message on it
                self._message(start, end, args)
            return
        if cat == "cuda_profiler_range":
            self.profiled += 1
            return
        if cat in _HOST_CATEGORIES or (cat in _CPU_OPS and sync):
            if launch:
                try:  # as Kineto writes them (subscripts, as for the GPU's spans)
                    correlation, thread = args["correlation"], labels[event["tid"]]
                except (KeyError, TypeError):
                    correlation, thread = args.get("correlation"), _label(labels, event.get("tid", ""))
                self.launches.append((name, start, end,
                                      correlation if type(correlation) is int else _int(correlation), thread))
                self.graphs += graph
            elif sync and cat != "cuda_sync":
                self.syncs.append(Span(name, start, end))
        if cat in _CPU_OPS:
            self._op(name, start, end, args, event)
        if step is not None and cat in ("user_annotation", "cpu_op", "python_function", "", "Operator"):
            self.steps.append((step, Span(name, start, end)))
        elif loads and cat in ("cpu_op", "user_annotation", "python_function", "Operator"):
            self.loader.append(Span(name, start, end))


_start = itemgetter(1)  # every span's start: Span, GpuSpan, Call and CpuOp all keep it second


def read_events(source: bytes | BinaryIO | Pieces) -> Events:
    """Read a trace (its bytes or its open file) into :class:`Events`, whatever wrote it.

    Kineto's JSON (plain or gzipped), rocprofv3's and a CSV report are read a piece at a time and never held whole; an
    Nsight Systems SQLite export is read whole (see ``formats``). Each other format is told by its content and written
    as the events Kineto would have written, so that every format is kept by the same rules. A RegimeError says what
    is wrong, or what the file is and how to export what can be read.
    """
    pieces = source if isinstance(source, Pieces) else Pieces(source)
    if not pieces.zipped:
        other = formats.other_format(pieces.head)
        if other is not None:
            collected = _Collector()
            gpus = other(pieces, collected)
            return _events(collected, gpus)
    records = formats.RocprofRecords()
    reader = Reader(pieces, records.add)
    kept = _Collector()
    reader.read(kept.add, kept.add_many)
    if ROCPROF_JSON in reader.header:
        return _events(kept, formats.read_rocprof_json(reader.header.pop(ROCPROF_JSON), kept, records))
    if reader.empty:
        raise RegimeError(_FIELD, "expected a JSON trace; the file is empty" + (" once unzipped" if pieces.zipped else ""))
    names: tuple[str, ...] = ()
    properties = reader.header.get("deviceProperties", reader.header.get("computeProperties"))
    if isinstance(properties, list):
        names = tuple(str(p.get("name", ""))[:100] for p in properties if isinstance(p, dict))
    events = _events(kept, names)
    distributed = reader.header.get("distributedInfo")
    if isinstance(distributed, dict):
        rank, size = _int(distributed.get("rank")), _int(distributed.get("world_size"))
        if rank is not None and size is not None and 0 <= rank < size:
            events = dataclasses.replace(events, rank=rank, world_size=size)
    return events


def from_dicts(events: Iterable[dict[str, Any]], device_names: tuple[str, ...] = ()) -> Events:
    """Events written as Kineto writes them (``ph``, ``cat``, ``name``, ``ts`` and ``dur`` in µs, ``args``), kept."""
    kept = _Collector()
    kept.add_many(events)
    return _events(kept, device_names)


def _events(kept: _Collector, names: tuple[str, ...]) -> Events:
    return Events(kept.gpu.sorted_by(1), kept.launches.sorted_by(1), kept.graphs,
                  tuple(sorted(kept.syncs, key=_start)), kept.ops.sorted_by(1),
                  tuple(sorted(kept.steps, key=lambda s: s[1].start)), tuple(sorted(kept.loader, key=_start)),
                  names, kept.skipped, kept.profiled, messages=tuple(sorted(kept.messages)))
