"""A trace's facts turned into a symptoms object, and the classifier's verdict on it.

The trace decides nothing the classifier would not: its timeline becomes ``gpu_utilization``,
``kernel_time``, ``gap_time`` and ``launches``; a busy GPU's verdict is that of the op holding the most
GPU time in the regime that holds most of it, given as that op's FLOPs, bytes and time on the card. No
regime holding most of the time, no card, or no shapes is "undecided", with what to re-profile.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import itertools
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, BinaryIO

from regime_core.catalogue import hardware as hw
from regime_core.catalogue.quantity import Dim, counted, format_quantity
from regime_core.errors import RegimeError
from regime_core.judgment.classify import (
    COMM_SHARE,
    GAP_SHARE,
    IDLE_UTILIZATION,
    LAUNCH_SCALE,
    LOADER_SHARE,
    Verdict,
    classify,
)
from regime_core.judgment.symptoms import parse_symptoms
from regime_core.judgment.words import percent
from regime_core.resources import load_json
from regime_core.trace.columns import values_of
from regime_core.trace.counters import CounterReading, header_row, is_counters, read_counters
from regime_core.trace.events import Events, Span, read_events
from regime_core.trace.ops import OpTotal, op_totals
from regime_core.trace.source import Pieces
from regime_core.trace.timeline import Intervals, Timeline, exposed_in, timeline
from regime_core.trace.timeline import coverage as covered_by

TOP_OPS = 20  # ops listed, most GPU time first


@cache
def _device_names() -> dict[str, str]:
    return {name.lower(): entry["id"] for name, entry in load_json("trace_devices.json")["names"].items()}


def card_of(names: tuple[str, ...]) -> tuple[hw.Hardware | None, str]:
    """The catalogue card the trace's device name names, or None; and the name as the trace gives it."""
    name = next((n for n in names if n), "")
    if not name:
        return None, ""
    known = _device_names().get(name.lower())
    try:
        return hw.get(known or name), name
    except RegimeError:
        return None, name


def _f(value: float, dim: Dim) -> str:
    return format_quantity(value, dim)


@dataclass(frozen=True)
class TraceReading:
    """The verdict, the symptoms it was derived from, and the trace's own facts."""

    verdict: Verdict
    symptoms: dict[str, Any]
    facts: dict[str, Any]
    events: Events = dataclasses.field(repr=False, compare=False)  # for the picture: not part of the JSON
    timeline: Timeline = dataclasses.field(repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """``regime trace --json``: every key of ``regime classify --json``, and ``trace``."""
        return {**self.verdict.to_json(), "trace": {**self.facts, "symptoms": self.symptoms, "kind": self.verdict.kind}}


def _window(events: Events, step: int | None) -> tuple[float, float] | None:
    if step is None:
        return None
    for number, span in events.steps:
        if number == step:
            return span.start, span.end
    have = ", ".join(str(n) for n, _ in events.steps[:8]) or "none"
    raise RegimeError("--step", f"no ProfilerStep#{step} in this trace; its steps: {have}")


def _op_row(total: OpTotal, card: hw.Hardware | None,
            math: str | None = None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    row: dict[str, Any] = {"name": total.name, "shape": total.shape, "calls": total.calls, "time": total.seconds,
                           "flops": None, "bytes": None, "intensity": None, "achieved_flops": None,
                           "bandwidth": None, "regime": None, "beyond_peak": False,
                           "dtype": (math or total.work.dtype) if total.work else None,
                           "source": total.work.source if total.work else ""}
    if total.work is None or total.calls == 0 or total.seconds <= 0:
        return row, None
    per_call = total.seconds / total.calls
    w = total.work
    row.update(flops=w.flops, bytes=w.bytes, intensity=w.flops / w.bytes, achieved_flops=w.flops / per_call,
               bandwidth=w.bytes / per_call)
    dtype = card.roof_dtype(math or w.dtype) if card is not None else None
    if card is None or dtype is None:
        return row, None
    symptoms = {"hardware": card.id, "dtype": dtype, "work": {"flops": w.flops, "bytes": w.bytes},
                "observed": {"time": per_call, "time_on_gpu": True}}
    placed = classify(parse_symptoms(symptoms))
    # Achieved past the card's peak: the shapes count more FLOPs than ran (cuDNN's Winograd and FFT convolutions do
    # fewer), or the trace's card is not the one named.
    row["regime"], row["beyond_peak"] = placed.regime, bool(placed.anomalies)
    return row, symptoms


def _op_rows(totals: list[OpTotal], card: hw.Hardware | None, math: str | None = None
             ) -> tuple[list[dict[str, Any]], dict[str, float], dict[str, dict[str, Any]], float]:
    """Each op's row, GPU time by regime, the longest op's symptoms per regime, and the placed ops read undecided.

    The symptoms are keyed by regime, "None" for ops placed on the roofline and read undecided (on neither
    roof); the last value is those ops' GPU time.
    """
    rows: list[dict[str, Any]] = []
    by_regime: dict[str, float] = defaultdict(float)
    chosen: dict[str, dict[str, Any]] = {}
    placed_undecided = 0.0
    for total in totals:
        row, symptoms = _op_row(total, card, math)
        by_regime[str(row["regime"])] += total.seconds
        if symptoms is not None and str(row["regime"]) not in chosen:
            chosen[str(row["regime"])] = symptoms  # totals come longest first
        if symptoms is not None and row["regime"] is None:
            placed_undecided += total.seconds
        rows.append(row)
    return rows, by_regime, chosen, placed_undecided


def _idle_symptoms(tl: Timeline, steps: int) -> dict[str, Any]:
    gaps = sum(1 for g in tl.gaps if g > 0)  # counted, not copied: a picket fence has millions
    busy_runs = max(1, gaps + 1)
    observed: dict[str, Any] = {"gpu_utilization": tl.busy_share, "kernel_time": tl.busy / busy_runs,
                                "gap_time": sum(g for g in tl.gaps if g > 0) / gaps if gaps else 0.0}
    if gaps:  # a trace's gaps are unequal: their median, and where the idle time lies, beside their mean
        ordered = sorted(g for g in tl.gaps if g > 0)
        idle = sum(ordered)
        observed["gap_median"] = ordered[len(ordered) // 2]
        observed["long_gap_share"] = sum(g for g in ordered if g > LAUNCH_SCALE) / idle if idle > 0 else 0.0
    if steps and tl.loader_idle / tl.length >= LOADER_SHARE * (1 - tl.busy_share):
        observed["loader_time"] = tl.loader_idle / steps
        observed["time"] = tl.length / steps
    return {"observed": observed}


def _card_text(facts: Mapping[str, Any]) -> str:
    """The card by its name, and the trace's own name for it (the learner sees what was read as what)."""
    math = f"; the ops' math held to {facts['dtype_given']} (as given)" if facts.get("dtype_given") else ""
    return _card_name_text(facts) + math


def _card_name_text(facts: Mapping[str, Any]) -> str:
    name, device = facts["card_name"], facts["device"]
    if name is None:
        return f"unknown ('{device}')" if device else "not named in the trace"
    if facts.get("card_given"):
        return f"{name} (as given; the trace " + (f"names '{device}')" if device else "names none)")
    return f"{name} (the trace's '{device}')"


def text(reading: TraceReading) -> str:
    """The trace's facts in a few lines, for a terminal, under the verdict."""
    return facts_text(reading.facts, reading.verdict.kind)


def verdict_of(reading: Mapping[str, Any]) -> Verdict:
    """The verdict a reading's JSON holds (a digest's), as the one it was written from shows it."""
    return Verdict(reading["regime"], list(reading["evidence"]), reading["lever"], reading["waste"],
                   list(reading["anomalies"]), reading["needs"], None, reading["leaning"], reading["notes"],
                   str(reading["trace"].get("kind", "")), notes_read=bool(reading["notes"]))


def facts_text(f: Mapping[str, Any], kind: str | None = None) -> str:
    """A reading's facts (``trace`` of its JSON) in a few lines.

    ``kind`` is the verdict's (an idle one says more): by default the one the JSON keeps.
    """
    kind = str(f.get("kind", "")) if kind is None else kind
    lines = [f"GPU busy {f['busy']:.1%} of a {_f(f['window'], Dim.SECOND)} window: {counted(f['kernels'], 'kernel')},"
             f" {counted(f['launches'], 'launch')} ({counted(f['graph_launches'], 'graph launch')}); card: "
             + _card_text(f),
             f"gaps: {f['gaps']['count']:,}, {f['gaps']['launch_sized']:,} launch-sized (≤ 50 µs); host syncs:"
             f" {f['syncs']['calls']:,}, holding {_f(f['syncs']['idle'], Dim.SECOND)} of idle; exposed collectives:"
             f" {f['comm_share']:.1%} of the window; data loader: {f['loader_share']:.1%}",
             "the kernels' time by their ops' regime: " + ", ".join(f"{k} {v:.0%}" for k, v in f["time_share"].items())
             + ("" if kind != "idle" else " (what the kernels do while they run; the verdict is the"
                " timeline's, on the time no kernel runs)"),
             coverage_text(f["coverage"])]
    if f["ops"]:
        lines.append("top ops by GPU time:")
    for op in f["ops"][:8]:
        placed = (f"{_f(op['intensity'], Dim.INTENSITY)}, {_f(op['achieved_flops'], Dim.FLOP_RATE)},"
                  f" {_f(op['bandwidth'], Dim.BYTE_RATE)}, {op['regime'] or 'undecided'}"
                  if op["intensity"] is not None else "not modelled") + (BEYOND_PEAK if op.get("beyond_peak") else "")
        lines.append(f"  {op['name']} {op['shape'][:60]} ×{op['calls']}: {_f(op['time'], Dim.SECOND)}; {placed}")
    return "\n".join(lines)


def read_trace(source: bytes | BinaryIO | Pieces, step: int | None = None, gpu: str | None = None,
               dtype: str | None = None) -> TraceReading:
    """Read a trace (JSON or gzipped; its bytes or its open file) into a verdict; a RegimeError names what is wrong.

    ``gpu`` names the card the run used (a catalogue id or alias), for a trace that names none the catalogue holds;
    the reading says that the card was given, and what the trace calls it. ``dtype`` names the math's dtype, whose
    dense peak every placed op is held to (fp32 matmuls that ran as TF32; a trace without its ops' types).
    """
    card = hw.get(gpu, "--gpu") if gpu is not None else None
    if dtype is not None and dtype not in hw.DTYPES:
        raise RegimeError("--dtype", f"expected one of {', '.join(hw.DTYPES)}")
    with no_cycle_collection():
        return _read_trace(source, step, card, dtype)


def read_profile(source: bytes | BinaryIO | Pieces, step: int | None = None,
                 gpu: str | None = None, dtype: str | None = None) -> TraceReading | CounterReading:
    """A trace's reading, or, for Nsight Compute's per-kernel counters (``ncu --csv``), theirs.

    What ``regime trace`` and the page read; commands that compare timelines (``diff``, ``ranks``) read
    ``read_trace``, which names an ncu report as what it is.
    """
    pieces = source if isinstance(source, Pieces) else Pieces(source)
    if pieces.zipped or not (pieces.head.lstrip().startswith(b"==PROF==") or is_counters(header_row(pieces.head))):
        return read_trace(pieces, step, gpu, dtype)
    raw = pieces.whole()  # ncu writes a line per kernel it profiles before its table: the header may lie far in
    if not is_counters(header_row(raw)):
        return read_trace(raw, step, gpu, dtype)
    if step is not None:
        raise RegimeError("--step", "an Nsight Compute report has no steps: each kernel was counted alone")
    if dtype is not None:
        raise RegimeError("--dtype", "an Nsight Compute report gives each kernel's throughput as a share of the"
                                     " card's own peaks: there is no dtype to choose; read it without --dtype")
    return read_counters(raw)


@contextlib.contextmanager
def no_cycle_collection() -> Iterator[None]:
    """The cycle collector off while a trace is read, as it was found after.

    Reading makes millions of small objects and no cycles: the collector would walk the growing heap again
    and again for nothing (a tenth of the time in the browser). Reference counting still frees them.
    A caller that goes on with the reading (the bridge, the CLI) holds it off until the reading is freed:
    the collector, back on beside millions of live objects made while it was off, walks them all.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _why_no_gpu(events: Events) -> str:
    """Why a trace holds no GPU activity, as far as it shows, and how to profile again."""
    again = "profile again with activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]"
    if events.profiled_kernels:
        return (f"it holds CUPTI range-profiler counters for {counted(events.profiled_kernels, 'kernel')}, not the"
                " kernels' times: each kernel was replayed alone to be counted; " + again +
                " and without the experimental profiler_metrics")
    if events.launches:
        return (f"it records {counted(len(events.launches), 'kernel launch')} on the host but no GPU activity (the"
                " GPU's side was not profiled): " + again)
    return "it holds no GPU activity (a CPU-only profile?): " + again


def _read_trace(source: bytes | BinaryIO | Pieces, step: int | None, given: hw.Hardware | None = None,
                math: str | None = None) -> TraceReading:
    events = read_events(source)
    if not events.gpu:
        raise RegimeError("trace", _why_no_gpu(events))
    window = _window(events, step)
    tl = timeline(events, window=window)
    if tl.length <= 0 or not tl.kernels:
        raise RegimeError("trace" if step is None else "--step", "no GPU kernel ran in the window read")
    card, device = card_of(events.device_names)
    card = given or card
    totals, kernel_time = op_totals(events, window)
    rows, by_regime, chosen, placed_undecided = _op_rows(totals, card, math)
    unlinked = max(0.0, kernel_time - sum(t.seconds for t in totals))
    share = {regime: t / kernel_time for regime, t in by_regime.items() if kernel_time > 0 and regime != "None"}
    share["undecided"] = (by_regime.get("None", 0.0) + unlinked) / kernel_time if kernel_time > 0 else 1.0
    steps = [s for s in events.steps if window is None or window[0] <= s[1].start < window[1]]
    comm_share = tl.comm_exposed / tl.length
    notes, needs = [], ""
    recorded = sorted({t.work.dtype for t in totals if t.work is not None} - {math}) if math else []
    if recorded:  # said beside the verdict: the roof it is read against is the one given, not the trace's
        notes.append(f"every placed op is held to {math}'s dense peak, as given, where the trace records"
                     f" {', '.join(recorded)}: the verdict is against {math}'s roof")
    if tl.busy_share <= IDLE_UTILIZATION and 1 - tl.busy_share >= GAP_SHARE:
        symptoms = _idle_symptoms(tl, len(steps))
        idle = tl.length - tl.busy
        if tl.sync_idle >= 0.5 * idle:
            notes.append(f"{_f(tl.sync_idle, Dim.SECOND)} of the {_f(idle, Dim.SECOND)} idle falls inside host syncs"
                         f" ({len(events.syncs)} in the trace): the CPU waits on the GPU, then the GPU on the CPU")
    elif comm_share >= COMM_SHARE:
        symptoms = {"observed": {"comm_share": comm_share, "gpu_utilization": tl.busy_share}}
    else:
        leader = max(share.items(), key=lambda kv: kv[1]) if share else ("undecided", 1.0)
        if leader[0] in chosen and leader[1] > 0.5:
            symptoms = chosen[leader[0]]
            notes.append(f"{leader[0]}-bound ops hold {leader[1]:.0%} of the GPU's kernel time; the verdict is the"
                         " op with the most time among them")
        elif "None" in chosen and kernel_time > 0 and placed_undecided / kernel_time > 0.5:
            # ops on the roofline but on neither roof: the one with the most time says why, and what to profile
            symptoms = chosen["None"]
            notes.append(f"ops placed on the roofline but on neither roof hold {percent(placed_undecided / kernel_time)}"
                         " of the GPU's kernel time; the verdict is the op with the most time among them")
        else:
            symptoms = {"observed": {"gpu_utilization": tl.busy_share}}
            needs = (_NO_OPS if not events.ops else
                     "the card: the trace names its GPU " + (f"'{device}', which the catalogue does not hold" if device
                                                             else "nowhere") + _NAME_THE_CARD if card is None else
                     "shapes: profile again with record_shapes=True (and with_flops=True), so each op's FLOPs and"
                     " bytes can be placed" if not any(t.work for t in totals) else
                     "no single regime holds most of the GPU time (" + ", ".join(
                         f"{k} {v:.0%}" for k, v in sorted(share.items(), key=lambda kv: -kv[1])) +
                     "): take the ops one at a time")
    verdict = classify(parse_symptoms(symptoms))
    longest = max(tl.gaps, default=0.0)
    if longest >= ONE_GAP * tl.length:  # AlexNet's 12.9 s window: a burst of kernels, one long wait, a burst
        notes.append(f"one gap of {_f(longest, Dim.SECOND)} holds {percent(longest / tl.length)} of the window: the"
                     " reading averages the work either side of one long wait, which may be no part of the run's"
                     " steady state; read one step (--step N) where the trace has steps, or profile a window of"
                     " steady work")
    if comm_share >= COMM_NOTE and verdict.regime != "communication":  # not the regime, but a quarter of the window
        notes.append(f"collectives no compute overlaps hold {percent(comm_share)} of the window: after what the"
                     " verdict names, the interconnect holds the most time (overlap the collectives with compute)")
    if needs and verdict.regime is None:
        verdict = dataclasses.replace(verdict, needs=needs)
    if notes:
        verdict = dataclasses.replace(verdict, notes="; ".join([*notes, verdict.notes] if verdict.notes else notes),
                                      notes_read=True)
    facts = {"busy": tl.busy_share, "window": tl.length, "kernels": tl.kernels,
             "launches": len(events.launches) if window is None else
                         sum(1 for c in events.launches if window[0] <= c.start < window[1]),
             "graph_launches": events.graph_launches, "card": card.id if card else None,
             "card_name": card.name if card else None, "device": device, "card_given": given is not None,
             "dtype_given": math,
             "steps": _steps(steps, tl),
             "syncs": {"calls": len(events.syncs), "idle": tl.sync_idle},
             "gaps": {"count": len(tl.gaps), "launch_sized": tl.launch_gaps,
                      "mean": sum(tl.gaps) / len(tl.gaps) if tl.gaps else 0.0},
             "comm_share": comm_share, "loader_share": tl.loader_idle / tl.length,
             "time_share": dict(sorted(share.items())), "ops": rows[:TOP_OPS], "skipped_events": events.skipped,
             "rank": events.rank, "world_size": events.world_size,
             "compute_time": sum(map(float.__sub__, tl.other_spans.ends, tl.other_spans.starts)), "collectives": collectives(events, window, tl.other_spans),
             "coverage": coverage(totals, kernel_time, card, events, math)}
    return TraceReading(verdict, symptoms, facts, events, tl)


_NAME_THE_CARD = (": name the card the run used ('The card it ran on' on the page; regime trace --gpu ID on the"
                  " command line)")
BEYOND_PEAK = (" (beyond the card's peak: the shapes count more FLOPs than ran, as cuDNN's Winograd convolutions do,"
               " or the card is not the one named)")
ONE_GAP = 0.5  # one gap holding this much of the window: the window is not the run's steady state
COMM_NOTE = 0.25  # exposed collectives this much of the window are said beside any verdict
# A timeline with no ops (an nsys or rocprof export): what would read a busy GPU's roof, whatever the card.
_NO_OPS = ("each kernel's counters: this profile is a timeline of kernels with no op shapes, so it cannot say which"
           " roof a busy GPU sits on. Nsight Compute reads it per kernel (ncu --set full --csv; regime trace reads the"
           " CSV); on AMD, rocprofv3 --pmc or omniperf; a PyTorch program, torch.profiler with record_shapes=True")


def _steps(steps: list[tuple[int, Span]], tl: Timeline) -> list[dict[str, Any]]:
    """Each step's time, and where collectives ran, the time each step spent in them exposed.

    A rank late one step and early the next shows there, where its averages hide it.
    """
    if not tl.comm_spans:
        return [{"step": n, "time": s.duration} for n, s in steps]
    order = sorted(range(len(steps)), key=lambda i: steps[i][1].start)
    windows, last = [], float("-inf")
    for i in order:  # steps that overlap (a nested annotation) are clipped to follow one another
        span = steps[i][1]
        start = max(span.start, last)
        windows.append((start, max(start, span.end)))
        last = max(last, span.end)
    exposed = dict(zip(order, exposed_in(tl, windows), strict=True))
    return [{"step": n, "time": s.duration, "collectives": exposed[i]} for i, (n, s) in enumerate(steps)]


#: A collective kernel's kind, from its name (NCCL's and RCCL's kernels name it).
_COLLECTIVE_KINDS = (("all-reduce", re.compile(r"all_?reduce", re.I)), ("all-gather", re.compile(r"all_?gather", re.I)),
                     ("reduce-scatter", re.compile(r"reduce_?scatter", re.I)),
                     ("all-to-all", re.compile(r"all_?to_?all", re.I)),
                     ("send/recv", re.compile(r"send|recv", re.I)), ("broadcast", re.compile(r"broadcast", re.I)))


#: Bytes per element of the dtype names PyTorch records on a collective's kernel ("Float", "BFloat16", ...).
_ELEMENT_BYTES = {"float": 4, "half": 2, "bfloat16": 2, "double": 8, "long": 8, "int": 4, "short": 2, "byte": 1,
                  "char": 1, "bool": 1, "float8_e4m3fn": 1, "float8_e5m2": 1}


def bus_factor(kind: str, group: int) -> float:
    """nccl-tests' bus bandwidth over algorithm bandwidth (bytes ÷ time) for a collective of ``group`` ranks.

    It makes a collective's speed comparable with the link whatever the group's size: an all-reduce moves
    2(n−1)/n of its bytes over each rank's link, an all-gather, reduce-scatter or all-to-all (n−1)/n, the rest once.
    """
    if group < 2:
        return 1.0
    if kind == "all-reduce":
        return 2 * (group - 1) / group
    return (group - 1) / group if kind in ("all-gather", "reduce-scatter", "all-to-all") else 1.0


def collectives(events: Events, window: tuple[float, float] | None, other: Intervals) -> dict[str, dict[str, Any]]:
    """Collective kernels by kind, in the window: how many, their GPU time, and what of it is exposed.

    ``exposed`` is the time no other GPU work overlaps. Where PyTorch recorded the kernels' messages, ``bytes`` moved
    and the ``bus_bandwidth`` reached (nccl-tests' measure, comparable with the link) over the ``sized`` kernels.
    """
    out: dict[str, dict[str, Any]] = {}
    gpu = events.gpu
    messages = {(m[0], m[1]): m for m in events.messages}
    moved: dict[str, list[float]] = {}  # per kind: bus bytes and time of the kernels with a message
    spans = [span for span in map(gpu.__getitem__, itertools.compress(range(len(gpu)), values_of(gpu, 8)))
             if window is None or window[0] <= span.start < window[1]]  # the collectives' rows alone, by start
    overlapped = covered_by(other, [(span.start, span.end) for span in spans])
    for span, other_work in zip(spans, overlapped, strict=True):
        kind = next((k for k, pattern in _COLLECTIVE_KINDS if pattern.search(span.name)), "other")
        entry = out.setdefault(kind, {"count": 0, "time": 0.0, "exposed": 0.0})
        entry["count"] += 1
        entry["time"] += span.end - span.start
        entry["exposed"] += span.end - span.start - other_work
        message = messages.get((span.start, span.end))
        size = _ELEMENT_BYTES.get(message[4].lower()) if message else None
        if message is not None and size is not None and span.end > span.start:
            elements = message[3] if kind == "all-gather" else message[2]  # the gathered whole; else what is sent
            tally = moved.setdefault(kind, [0.0, 0.0, 0.0, 0])
            tally[0] += elements * size
            tally[1] += elements * size * bus_factor(kind, message[5])
            tally[2] += span.end - span.start
            tally[3] += 1
    for kind, (data, bus, seconds, count) in moved.items():
        out[kind].update(bytes=data, bus_bandwidth=bus / seconds, sized=count)
    return out


def coverage(totals: list[OpTotal], kernel_time: float, card: hw.Hardware | None, events: Events,
             math: str | None = None) -> dict[str, Any]:
    """What a reading rests on: the share of the GPU's kernel time its roofline covers, and what it left out.

    ``placed``: kernel time of ops whose FLOPs and bytes were modelled from their shapes (or the trace's count)
    and set on a known card, over all kernel time. ``no_shapes``: ops recorded without shapes (profile with
    ``record_shapes=True``); ``not_modelled``: ops with shapes no work model reads (custom ops, a convolution without its stride);
    ``no_op``: kernels no recorded op launched (CUDA graph replays, collectives, kernels launched outside ops);
    ``graph_launches``; ``skipped_events``; the card and, per dtype the placed ops ran in, its dense peak.
    """
    def share(seconds: float) -> float:
        return seconds / kernel_time if kernel_time > 0 else 0.0

    modelled = [t for t in totals if t.work is not None and t.calls and t.seconds > 0]
    unshaped = [t for t in totals if t.work is None and not t.shape]
    unmodelled = [t for t in totals if t.work is None and t.shape]
    linked = sum(t.seconds for t in totals)
    dtypes = sorted({dt for t in modelled if card is not None and t.work is not None
                     and (dt := card.roof_dtype(math or t.work.dtype)) is not None})
    names: dict[str, float] = defaultdict(float)
    for t in unmodelled:
        names[t.name] += t.seconds
    return {"placed": share(sum(t.seconds for t in modelled)) if card is not None else 0.0,
            "modelled": share(sum(t.seconds for t in modelled)),
            "no_shapes": {"ops": len(unshaped), "share": share(sum(t.seconds for t in unshaped))},
            "not_modelled": {"ops": len(unmodelled), "share": share(sum(t.seconds for t in unmodelled)),
                             "names": [n for n, _ in sorted(names.items(), key=lambda kv: -kv[1])[:5]]},
            "no_op": share(max(0.0, kernel_time - linked)), "graph_launches": events.graph_launches,
            "skipped_events": events.skipped, "card": card.name if card is not None else None,
            "peaks": {dt: card.peak(dt) for dt in dtypes} if card is not None else {},
            "bandwidth": card.bandwidth.value if card is not None else None}


def coverage_text(cov: dict[str, Any]) -> str:
    """What the reading rests on, in one line."""
    parts = [f"the roofline covers {cov['placed']:.0%} of the GPU's kernel time"]
    if cov["card"] is None and cov["modelled"]:
        parts[0] += f" (ops modelled: {cov['modelled']:.0%}, but no known card to place them on)"
    if cov["no_shapes"]["ops"]:
        parts.append(f"{counted(cov['no_shapes']['ops'], 'op')} without shapes ({cov['no_shapes']['share']:.0%})")
    if cov["not_modelled"]["ops"]:
        parts.append(f"{counted(cov['not_modelled']['ops'], 'op')} not modelled ({cov['not_modelled']['share']:.0%}:"
                     f" {', '.join(cov['not_modelled']['names'][:3])})")
    if cov["no_op"] >= 0.005:
        parts.append(f"kernels no recorded op launched {cov['no_op']:.0%}" + (
            f" (among them the kernels of {counted(cov['graph_launches'], 'CUDA graph replay')}, recorded under one"
            " launch each: their ops ran at capture, not in the trace)" if cov["graph_launches"] else ""))
    if cov["skipped_events"]:
        parts.append(f"{counted(cov['skipped_events'], 'event')} left out (unreadable times)")
    if cov["peaks"]:
        parts.append("dense peaks: " + ", ".join(f"{dt} {_f(peak, Dim.FLOP_RATE)}" for dt, peak in cov["peaks"].items()))
    return "coverage: " + "; ".join(parts)
