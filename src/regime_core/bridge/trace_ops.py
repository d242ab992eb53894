"""The bridge's trace op: a profiler trace's bytes in; its reading, text, strip and ops' roofline out.

The page reads the file in the browser and sends its bytes here, inside the worker, beside the request
(``api.handle``'s ``data``): nothing is uploaded, and nothing is base64-encoded. A request may also carry
them as base64 text in its ``data`` field (the parity tests under Node do).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from regime_core.bridge.protocol import Op
from regime_core.catalogue import hardware as hw
from regime_core.catalogue.levers import advice
from regime_core.catalogue.quantity import Dim, format_quantity
from regime_core.errors import RegimeError
from regime_core.grading.review import counter_review, trace_review
from regime_core.judgment.words import percent
from regime_core.resources import parse_json_text
from regime_core.trace.counters import NAME as COUNTERS
from regime_core.trace.counters import CounterReading
from regime_core.trace.counters import text as counter_text
from regime_core.trace.diff import OP_HEAD, ROW_HEAD, diff, headline, op_rows, rows
from regime_core.trace.diff import markdown as diff_markdown
from regime_core.trace.picture import LEGEND, caption, ops_roofline, strip_svg
from regime_core.trace.ranks import COLUMNS as RANK_COLUMNS
from regime_core.trace.ranks import digest as rank_digest
from regime_core.trace.ranks import looks_like_digest
from regime_core.trace.ranks import markdown as ranks_markdown
from regime_core.trace.ranks import merge as merge_ranks
from regime_core.trace.ranks import picture as ranks_picture
from regime_core.trace.ranks import reading_of as rank_reading_of
from regime_core.trace.ranks import shown_rows as shown_ranks
from regime_core.trace.reading import BEYOND_PEAK, facts_text, no_cycle_collection, read_profile, read_trace, verdict_of
from regime_core.trace.reading import text as trace_text
from regime_core.trace.source import MAX_TRACE_BYTES, Pieces

#: The largest trace the page reads, as stored (gzipped or not): the page says so before a file is chosen.
MAX_PAGE_TRACE_BYTES = 32 * 2**20
#: Its base64 text, with room for the request around it.
MAX_TRACE_REQUEST = MAX_PAGE_TRACE_BYTES * 4 // 3 + 4_096


_TOO_LARGE = (f"expected a trace of at most {MAX_PAGE_TRACE_BYTES // 2**20} MB on this page; the command line"
              " (regime trace) reads a trace of any size")


def file_bytes(data: object) -> bytes:
    """A file sent beside a request: bytes, or the Uint8Array a page sends (Pyodide's buffer proxy), copied once."""
    if isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
    else:
        # Pyodide's JsBuffer has to_bytes(); an int has one too, of another kind, and is no file.
        to_bytes, length = getattr(data, "to_bytes", None), getattr(data, "byteLength", None)
        if isinstance(data, int) or not callable(to_bytes) or not isinstance(length, int):
            raise RegimeError("data", "expected the trace file's bytes")
        if length > MAX_PAGE_TRACE_BYTES:  # refused before the copy
            raise RegimeError("data", _TOO_LARGE)
        raw = to_bytes()
    if len(raw) > MAX_PAGE_TRACE_BYTES:
        raise RegimeError("data", _TOO_LARGE)
    return raw


def op_trace(req: Mapping[str, Any]) -> dict[str, Any]:
    """A profiler trace read in the worker: its verdict, what it measured, its strip and its text."""
    with no_cycle_collection():  # until the reading is freed, as _trace_answer returns (see no_cycle_collection)
        return _trace_answer(req)


def _request_bytes(req: Mapping[str, Any]) -> bytes:
    """The file a request brings: beside it (api.handle's data), or base64 inside it."""
    data = req.get("data")
    if isinstance(data, bytes):
        return data
    if not isinstance(data, str) or not data:
        raise RegimeError("data", "expected the trace file's contents, base64-encoded")
    if len(data) > MAX_TRACE_REQUEST:
        raise RegimeError("data", _TOO_LARGE)
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise RegimeError("data", "expected the trace file's contents, base64-encoded") from None


_MAX_CARD_NAME = 60  # a catalogue id or alias; longer is not one


def _dtype_asked(req: Mapping[str, Any]) -> str | None:
    """The math's dtype a request asks every placed op to be held to (``dtype``), or None for the trace's own."""
    dtype = req.get("dtype")
    if dtype in (None, ""):
        return None
    if dtype not in hw.DTYPES:
        raise RegimeError("dtype", f"expected one of {', '.join(hw.DTYPES)}")
    return str(dtype)


def _card_asked(req: Mapping[str, Any]) -> str | None:
    """The card a request asks its trace to be read on (``gpu``: a catalogue id), or None for the trace's own."""
    gpu = req.get("gpu")
    if gpu not in (None, "") and (not isinstance(gpu, str) or len(gpu) > _MAX_CARD_NAME):
        raise RegimeError("gpu", "expected a card's id from the catalogue, such as h100-sxm")
    return gpu or None


def _trace_answer(req: Mapping[str, Any]) -> dict[str, Any]:
    raw = _request_bytes(req)
    step = req.get("step")
    if step not in (None, "") and (not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < 10**12):
        raise RegimeError("step", "expected a step number such as 3")
    if looks_like_digest(raw[:256]):
        return _digest_answer(raw, step, _card_asked(req) or _dtype_asked(req))
    reading = read_profile(Pieces(raw, MAX_TRACE_BYTES), step if isinstance(step, int) and not isinstance(step, bool)
                           else None, _card_asked(req), _dtype_asked(req))
    if isinstance(reading, CounterReading):
        return _counter_answer(reading)
    out = reading.to_json()
    roofline, roofline_caption = ops_roofline(reading.facts)
    return {"verdict": {k: v for k, v in out.items() if k != "trace"}, "trace": out["trace"],
            "svg": strip_svg(reading.events, reading.timeline), "caption": caption(reading.timeline),
            "legend": [{"kind": kind, "text": text} for kind, text in LEGEND], "text": trace_text(reading),
            "ops_head": list(_OPS_HEAD),
            "ops": [_op_text(op, carded=out["trace"]["card"] is not None) for op in out["trace"]["ops"]],
            # The page puts its own address where {url} stands.
            "roofline": roofline, "roofline_caption": roofline_caption,
            "review": trace_review(reading.verdict, out["trace"], "{url}")}


def _digest_answer(raw: bytes, step: object, asked: str | None) -> dict[str, Any]:
    """A rank's digest as the page shows a trace: the reading it holds, with no strip (it keeps no events).

    ``asked``: a card or dtype the request asks for, which a digest, read already, cannot take.
    """
    if step not in (None, "") or asked is not None:
        raise RegimeError("step" if step not in (None, "") else "data", "this file is a digest: it was read already,"
                          " on its own card, dtype and steps")
    out = rank_reading_of(parse_json_text(raw.decode("utf-8", errors="replace"), "data", limit=len(raw) + 1))
    facts = out["trace"]
    roofline, roofline_caption = ops_roofline(facts)
    return {"verdict": {k: v for k, v in out.items() if k != "trace"}, "trace": facts, "svg": "",
            "caption": "A digest keeps a rank's reading, not its events: the reading below is the one its trace gave,"
                       " and the strip of its timeline cannot be drawn from it (drop the trace itself to see it).",
            "legend": [],
            "text": facts_text(facts), "ops_head": list(_OPS_HEAD),
            "ops": [_op_text(op, carded=facts["card"] is not None) for op in facts["ops"]],
            "roofline": roofline, "roofline_caption": roofline_caption,
            "review": trace_review(verdict_of(out), facts, "{url}")}


#: The ops table's columns: an op's shapes and calls, then where the trace places it.
_OPS_HEAD = ("op and shapes", "calls", "GPU time", "intensity", "achieved FLOP/s · bandwidth", "regime")
#: The same table for Nsight Compute's counters: each kernel's launch, and its two throughputs.
_COUNTER_HEAD = ("kernel and launch", "launches", "replayed time", "SM throughput", "memory throughput (DRAM)",
                 "regime")


def _counter_answer(reading: CounterReading) -> dict[str, Any]:
    """Nsight Compute's counters as the page shows a trace: no strip and no roofline, since it has neither."""
    out = reading.to_json()
    rows = [{"name": op["name"], "calls": op["calls"], "shape_text": op["shape"], "time_text": _text(op["time"], Dim.SECOND),
             "intensity_text": percent(op["sm_throughput"]),
             "achieved_text": percent(op["memory_throughput"]) + (
                 f" ({percent(op['dram_throughput'])})" if op["dram_throughput"] is not None else ""),
             "regime_text": advice(op["regime"]).name if op["regime"] else "on neither roof"}
            for op in out["trace"]["ops"]]
    return {"verdict": {k: v for k, v in out.items() if k != "trace"}, "trace": out["trace"], "svg": "",
            "caption": "Nsight Compute counted each kernel alone, so there is no timeline to draw.", "legend": [],
            "text": counter_text(reading), "ops_head": list(_COUNTER_HEAD), "ops": rows, "roofline": "",
            "roofline_caption": "No roofline: Nsight Compute gives each kernel's throughput as a share of the card's"
                                " own peaks, in the table above, not its FLOPs and bytes per op.",
            "review": counter_review(reading.verdict, out["trace"], "{url}")}


def _text(value: float | None, dim: Dim) -> str:
    return "—" if value is None else format_quantity(value, dim)


def _op_text(op: Mapping[str, Any], *, carded: bool) -> dict[str, Any]:
    """One op's row as the page shows it, every number written by the core."""
    achieved = ("—" if op["achieved_flops"] is None else
                f"{format_quantity(op['achieved_flops'], Dim.FLOP_RATE)} · {format_quantity(op['bandwidth'], Dim.BYTE_RATE)}")
    return {"name": op["name"], "calls": op["calls"], "shape_text": op["shape"],
            "time_text": _text(op["time"], Dim.SECOND), "intensity_text": _text(op["intensity"], Dim.INTENSITY),
            "achieved_text": achieved,
            "regime_text": (advice(op["regime"]).name if op["regime"] else "not modelled" if op["intensity"] is None
                            else "undecided" if carded else "no card to place it on")
                           + (BEYOND_PEAK if op.get("beyond_peak") else "")}


def _reading(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or not isinstance(value.get("trace"), Mapping) or "regime" not in value:
        raise RegimeError(field, "expected the reading this page made of a trace (its verdict and trace)")
    return value


def op_trace_diff(req: Mapping[str, Any]) -> dict[str, Any]:
    """Two readings the page made, before and after a change: the verdict on the change, what moved, the comment."""
    before, after = _reading(req.get("before"), "before"), _reading(req.get("after"), "after")
    for field, reading in (("before", before), ("after", after)):
        if reading["trace"].get("format") == COUNTERS:
            raise RegimeError(field, "expected two traces with timelines; this one is an Nsight Compute report, whose"
                                     " kernels were counted one at a time: compare the runs' nsys or torch.profiler"
                                     " traces")
    try:
        result = diff(before, after)
        return {"verdict": result["change"]["verdict"], "headline": headline(result), "head": list(ROW_HEAD),
                "rows": [list(row) for row in rows(result)], "text": result["change"]["text"],
                "op_head": list(OP_HEAD), "op_rows": [list(row) for row in op_rows(result)],
                "markdown": diff_markdown(result)}
    except (KeyError, TypeError, AttributeError, ValueError, ZeroDivisionError):  # a reading changed on its way
        raise RegimeError("before", "expected the readings this page made of two traces, unchanged") from None


#: The most ranks the page merges at once (the command line takes any number).
MAX_PAGE_RANKS = 4096


def op_rank_digest(req: Mapping[str, Any]) -> dict[str, Any]:
    """One rank's file read in the worker into its digest, which the page keeps instead of the file (kilobytes).

    A digest given is checked and kept as it is, on its own card; a trace is read (every format with a timeline), on
    the card ``gpu`` where one is asked, as ``regime ranks --gpu`` reads it.
    """
    raw = _request_bytes(req)
    card = _card_asked(req)
    if looks_like_digest(raw[:256]):
        document = parse_json_text(raw.decode("utf-8", errors="replace"), "data", limit=len(raw) + 1)
        rank_reading_of(document)  # what is wrong with it, said now
        return {"digest": document}
    with no_cycle_collection():
        return {"digest": rank_digest(read_trace(Pieces(raw, MAX_TRACE_BYTES), gpu=card).to_json())}


def op_ranks(req: Mapping[str, Any]) -> dict[str, Any]:
    """The ranks' digests the page kept, merged: the job's verdict, the per-rank table, the picture, the comment."""
    digests, refused = req.get("digests"), req.get("refused", [])
    if not isinstance(digests, list) or not digests or len(digests) > MAX_PAGE_RANKS:
        raise RegimeError("digests", f"expected 1 to {MAX_PAGE_RANKS:,} ranks' digests, each with its file's name")
    if not isinstance(refused, list):
        raise RegimeError("refused", "expected the files not read, each with its name and why")
    readings: list[tuple[str, Mapping[str, Any]]] = []
    left_out: list[tuple[str, str]] = []
    for entry in refused:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("file"), str) or not isinstance(
                entry.get("reason"), str):
            raise RegimeError("refused", "expected each file not read as its name and why")
        left_out.append((entry["file"][:200], entry["reason"][:500]))
    for entry in digests:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("file"), str):
            raise RegimeError("digests", "expected each rank as its file's name and its digest")
        try:
            readings.append((entry["file"][:200], rank_reading_of(entry.get("digest"))))
        except RegimeError as exc:
            left_out.append((entry["file"][:200], exc.expected))
    try:
        merged = merge_ranks(readings, left_out)
    except RegimeError as exc:  # no rank read: each file named with why
        raise RegimeError("digests", exc.expected) from None
    except (KeyError, TypeError, AttributeError, ValueError, ZeroDivisionError):  # a digest changed on its way
        raise RegimeError("digests", "expected the digests this page made of the ranks' traces, unchanged") from None
    rows, shown = shown_ranks(merged)
    return {"result": merged, "text": merged["job"]["text"], "notes": merged["notes"], "head": list(RANK_COLUMNS),
            "rows": rows, "shown": shown, "svg": ranks_picture(merged), "markdown": ranks_markdown(merged)}


OPS = [Op("trace", ("data", "step", "gpu", "dtype"), op_trace, ("verdict", "trace", "svg", "caption", "legend", "text",
                                                       "ops_head", "ops", "roofline", "roofline_caption", "review")),
       Op("trace_diff", ("before", "after"), op_trace_diff, ("verdict", "headline", "head", "rows", "text", "op_head",
                                                                 "op_rows", "markdown")),
       Op("rank_digest", ("data", "gpu"), op_rank_digest, ("digest",)),
       Op("ranks", ("digests", "refused"), op_ranks, ("result", "text", "notes", "head", "rows", "shown", "svg",
                                                             "markdown"))]
