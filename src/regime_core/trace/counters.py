"""Nsight Compute's per-kernel counters (``ncu --csv``) read to each kernel's regime, and the set's.

Nsight Compute replays each kernel alone, several times, to count it. Its Speed of Light section gives, per kernel,
the busiest SM unit's throughput ("Compute (SM) Throughput") and the busiest memory unit's ("Memory Throughput"), each
as a share of that unit's peak on the card it ran on, with the kernel's duration. Those two shares are the roofline
question already answered by the hardware: a kernel whose SM throughput is near its peak is compute-bound, one whose
memory throughput is, memory-bound. ncu's own rule draws the line at 60%: "Achieved compute throughput and/or memory
bandwidth below 60.0% of peak typically indicate latency issues" — a kernel on neither roof, too small or too poorly
shaped to fill the card, which this reading calls undecided with what to look at.

What a replay cannot say: the durations are the kernel's alone (by default with the clocks locked to base), not the
run's; and with no timeline there are no gaps between kernels, so launch overhead and a waiting host are out of its
sight. The reading says so.

Three layouts of the same counters are read, told by the header row:

- the details page (``ncu --csv``, ``--page details``), one row per kernel launch and metric (``ID``, ``Kernel Name``,
  ``Metric Name``, ``Metric Unit``, ``Metric Value``; ``Block Size``/``Grid Size`` where the version writes them);
- the per-kernel summary (``--print-summary per-kernel``): ``Invocations`` and ``Average`` in place of a value;
- the raw page (``--page raw``): one row per launch, one column per metric name (``gpu__time_duration.sum``,
  ``sm__throughput.avg.pct_of_peak_sustained_elapsed``, …), the units in the row under the header.

Numbers are read as ncu writes them, with thousands separators (``"853,984"``); ``n/a`` is not measured.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from regime_core.catalogue.levers import kind_advice
from regime_core.catalogue.quantity import Dim, counted, format_quantity
from regime_core.errors import RegimeError
from regime_core.judgment.classify import Verdict
from regime_core.judgment.words import percent

_FIELD = "trace"
#: ncu's own line (its SpeedOfLight rule): a unit under this share of its peak is not what limits the kernel.
NEAR_PEAK = 0.6
NAME = "Nsight Compute"
#: Each measure, by every name ncu gives it: the details page's label, older versions' label, the raw metric.
_DURATION = ("Duration", "gpu__time_duration.sum", "gpu__time_duration.avg")
_SM = ("Compute (SM) Throughput", "SM [%]", "Compute (SM) [%]", "sm__throughput.avg.pct_of_peak_sustained_elapsed")
_MEMORY = ("Memory Throughput", "Memory [%]", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")
_DRAM = ("DRAM Throughput", "dram__throughput.avg.pct_of_peak_sustained_elapsed")
_OCCUPANCY = ("Achieved Occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active")
_DRAM_RATE = ("dram__bytes.sum.per_second",)
_DEVICE = ("device__attribute_display_name",)
#: ncu's roofline (SpeedOfLight_RooflineChart) counts FLOPs as these instructions per elapsed cycle, times the clock.
_FLOP_OPS = {"fp32": (("fadd", 1), ("fmul", 1), ("ffma", 2)), "fp64": (("dadd", 1), ("dmul", 1), ("dfma", 2)),
             "fp16": (("hadd", 1), ("hmul", 1), ("hfma", 2))}
_CLOCK = "smsp__cycles_elapsed.avg.per_second"
_TIME_UNITS = {"nsecond": 1e-9, "ns": 1e-9, "usecond": 1e-6, "us": 1e-6, "µs": 1e-6, "msecond": 1e-3, "ms": 1e-3,
               "second": 1.0, "s": 1.0}
_PREFIX = {"": 1.0, "K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_RATE = re.compile(r"^([KkMGT]?)(byte|cycle|inst)/(second|msecond|usecond|nsecond|s)$")
_UNITS_ROW_KEY = "Kernel Name"
_HEADER_WITHIN = 1000  # lines of the program's own output looked past for the header


def is_counters(header: Iterable[str]) -> bool:
    """Whether a CSV header row is Nsight Compute's (any of the three layouts)."""
    names = set(header)
    return "Kernel Name" in names and ("Metric Name" in names or bool(names & {*_DURATION, *_SM, *_MEMORY}))


def _report_lines(text: str) -> Iterator[str]:
    """The report's lines, one at a time: ncu's ``==PROF==`` lines and blank ones dropped."""
    # newline=None: a lone "\r" ends a line too, as str.splitlines has it (csv refuses one inside a field)
    return (line.rstrip("\n") for line in io.StringIO(text, newline=None)
            if line.strip() and not line.startswith("==PROF=="))


def _is_header(line: str) -> bool:
    return "Kernel Name" in line and "Kernel Name" in next(csv.reader([line]), [])


def _table_lines(text: str) -> list[str]:
    """The CSV's lines from its header row on: ncu's ``==PROF==`` lines and the program's own output dropped.

    The header is the first line naming a ``Kernel Name`` column, or else the first line that is not ncu's.
    """
    lines = list(_report_lines(text))
    at = next((n for n, line in enumerate(lines[:_HEADER_WITHIN]) if _is_header(line)), 0)
    return lines[at:]


def header_of(text: str) -> list[str]:
    """The header row of a CSV report (as ``_table_lines`` finds it), read no further than it; empty where none."""
    first: list[str] | None = None
    for line in itertools.islice(_report_lines(text), _HEADER_WITHIN):
        if _is_header(line):
            return next(csv.reader([line]))
        first = first if first is not None else next(csv.reader([line]), [])
    return first or []


def header_row(raw: bytes) -> list[str]:
    """The header row of a CSV report's bytes, past ncu's ``==PROF==`` lines (empty where there is none)."""
    return header_of(raw.decode("utf-8-sig", errors="replace"))


@dataclass(frozen=True)
class Launch:
    """One kernel's counters: a launch (details, raw) or a kernel's average over its launches (summary)."""

    name: str
    shape: str  # grid × block, as ncu writes them, where it does
    calls: int
    seconds: float  # each call's replayed duration
    sm: float
    memory: float
    dram: float | None = None
    occupancy: float | None = None
    bandwidth: float | None = None  # DRAM bytes per second, where the raw counters were collected
    flops: float | None = None  # CUDA-core FLOP/s (ncu's roofline counters); tensor-core work is not in them

    @property
    def regime(self) -> str | None:
        """Compute or memory where that unit is near its peak (the busier of the two); None on neither roof."""
        if max(self.sm, self.memory) < NEAR_PEAK:
            return None
        return "compute" if self.sm >= self.memory else "memory"


def _value(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return float(text.strip().replace(",", ""))
    except ValueError:
        return None  # n/a, an empty cell


def _scaled(value: float | None, unit: str, metric: str) -> float | None:
    """A value in base units: seconds, a fraction for %, per second for rates."""
    if value is None:
        return None
    unit = unit.strip()
    if metric in _DURATION:
        if unit not in _TIME_UNITS:
            raise RegimeError(_FIELD, f"expected a kernel duration in ns, us, ms or s (ncu's nsecond, usecond, …);"
                                      f" this report gives '{unit[:20]}'")
        return value * _TIME_UNITS[unit]
    if unit == "%":
        return value / 100
    if metric in _SHARES:  # the same label in another section, in another unit (Memory Workload Analysis' GB/s)
        return None
    rate = _RATE.match(unit)
    if rate:
        prefix, _, per = rate.groups()
        return value * _PREFIX[prefix] / _TIME_UNITS[per]
    return value


_SHARES = frozenset({*_SM, *_MEMORY, *_DRAM, *_OCCUPANCY})
_WANTED = frozenset({*_DURATION, *_SM, *_MEMORY, *_DRAM, *_OCCUPANCY, *_DRAM_RATE, *_DEVICE, _CLOCK,
                     *(f"smsp__sass_thread_inst_executed_op_{op}_pred_on.sum.per_cycle_elapsed"
                       for ops in _FLOP_OPS.values() for op, _ in ops)})


def _pick(metrics: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    return next((metrics[n] for n in names if metrics.get(n) is not None), None)


def _flops(metrics: Mapping[str, Any]) -> float | None:
    """CUDA-core FLOP/s as ncu's roofline counts them, where every counter of one precision was collected."""
    clock = metrics.get(_CLOCK)
    total: float | None = None
    for ops in _FLOP_OPS.values():
        counts = [metrics.get(f"smsp__sass_thread_inst_executed_op_{op}_pred_on.sum.per_cycle_elapsed") for op, _ in ops]
        kept = [(c, weight) for c, (_, weight) in zip(counts, ops, strict=True) if isinstance(c, float)]
        if isinstance(clock, float) and len(kept) == len(ops):
            total = (total or 0.0) + sum(c * weight for c, weight in kept) * clock
    return total


class _Table:
    """Rows of one layout, gathered per launch: its name, shape, calls and metrics in base units."""

    def __init__(self) -> None:
        self.metrics: dict[tuple[str, ...], dict[str, Any]] = {}
        self.calls: dict[tuple[str, ...], int] = {}
        self.seen: set[tuple[str, ...]] = set()  # every launch named, with or without a metric read here
        self.device = ""

    def put(self, key: tuple[str, ...], metric: str, value: Any) -> None:
        """A launch's metric; a label ncu repeats in a later section does not replace the one read first."""
        metrics = self.metrics.setdefault(key, {})
        if metrics.get(metric) is None:
            metrics[metric] = value

    def launches(self) -> tuple[list[Launch], int]:
        """Every launch with its duration and both throughputs; how many lacked one of them."""
        out, lacking = [], 0
        for key, metrics in self.metrics.items():
            self.device = self.device or str(_pick(metrics, _DEVICE) or "")
            seconds, sm, memory = _pick(metrics, _DURATION), _pick(metrics, _SM), _pick(metrics, _MEMORY)
            if not all(isinstance(v, float) for v in (seconds, sm, memory)):
                lacking += 1
                continue
            name, shape = key[1], key[2]
            out.append(Launch(name, shape, self.calls.get(key, 1), seconds, sm, memory, _pick(metrics, _DRAM),
                              _pick(metrics, _OCCUPANCY), _pick(metrics, _DRAM_RATE), _flops(metrics)))
        return out, lacking


def _shape(row: Mapping[str, str | None]) -> str:
    grid, block = (row.get("Grid Size") or "").strip(), (row.get("Block Size") or "").strip()
    return f"grid {grid} × block {block}" if grid and block else ""


def _long(rows: csv.DictReader[str], table: _Table) -> None:
    """The details page or the per-kernel summary: one row per launch (or kernel) and metric."""
    summary = "Metric Value" not in (rows.fieldnames or ())
    for row in rows:
        name = row.get("Kernel Name") or "kernel"
        key = ("", name, _shape(row)) if summary else (row.get("ID") or "", name, _shape(row))
        table.seen.add(key)
        metric = (row.get("Metric Name") or "").strip()
        if metric not in _WANTED:
            continue
        if summary:
            table.calls[key] = int(_value(row.get("Invocations")) or 1)
        raw = row.get("Average" if summary else "Metric Value")
        table.put(key, metric, raw.strip() if metric in _DEVICE and raw else
                  _scaled(_value(raw), row.get("Metric Unit") or "", metric))


def _wide(rows: csv.DictReader[str], table: _Table) -> None:
    """The raw page: a row per launch, a column per metric; the row under the header gives the units."""
    units: Mapping[str, str | None] = {}
    for row in rows:
        if not (row.get(_UNITS_ROW_KEY) or "").strip() and not units:
            units = row
            continue
        key = (row.get("ID") or str(len(table.metrics)), row.get("Kernel Name") or "kernel", _shape(row))
        table.seen.add(key)
        for metric in _WANTED:
            if metric in row:
                raw = row[metric]
                table.put(key, metric, raw.strip() if metric in _DEVICE and raw else
                          _scaled(_value(raw), units.get(metric) or "", metric))


def read_counters(raw: bytes) -> CounterReading:
    """An ``ncu --csv`` report read to each kernel's regime and the set's verdict; a RegimeError names what is wrong."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RegimeError(_FIELD, "expected Nsight Compute's CSV in UTF-8 text; this file is not") from None
    rows = csv.DictReader(io.StringIO("\n".join(_table_lines(text))))
    fields = set(rows.fieldnames or ())
    if not is_counters(fields):
        raise RegimeError(_FIELD, "expected Nsight Compute's CSV (ncu --csv), with a Kernel Name column")
    table = _Table()
    if "Metric Name" in fields:
        if not fields & {"Metric Value", "Average"}:
            raise RegimeError(_FIELD, "expected ncu's Metric Value column (or Average, in a per-kernel summary);"
                                      " this report has neither")
        _long(rows, table)
    else:
        _wide(rows, table)
    launches, lacking = table.launches()
    if not launches and "Body Item Label" in fields:  # one section's body items (a chart's points), as a CSV
        raise RegimeError(_FIELD, "this is one section of an Nsight Compute report (its Body Item Label column: a"
                                  " chart's points, such as the roofline's), without each kernel's duration and Speed"
                                  " of Light shares; export the details page: ncu --import REPORT.ncu-rep --csv --page"
                                  " details")
    if not launches:
        raise RegimeError(_FIELD, "expected the Speed of Light section (Duration, Compute (SM) Throughput, Memory"
                                  " Throughput) for at least one kernel; this report has " +
                                  ("no kernel rows" if not table.seen else f"{counted(len(table.seen), 'kernel')}"
                                   " without all three") +
                                  ". Profile with ncu --section SpeedOfLight --csv (it is in ncu's default set)")
    return _judge(launches, lacking, table.device)


@dataclass(frozen=True)
class CounterReading:
    """The set's verdict and its facts: the same keys a trace's reading gives where they mean the same."""

    verdict: Verdict
    facts: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``regime trace --json`` of an ncu report: every key of ``regime classify --json``, and ``trace``."""
        return {**self.verdict.to_json(), "trace": self.facts}


def _row(group: list[Launch]) -> dict[str, Any]:
    """A kernel (its name and shape) over its launches: time-weighted shares, its regime."""
    weights = [g.seconds * g.calls for g in group]

    def mean(measure: str) -> float | None:
        """The launches' time-weighted mean of one measure, over those that have it."""
        kept = [(value, w) for g, w in zip(group, weights, strict=True) if (value := getattr(g, measure)) is not None]
        weight = sum(w for _, w in kept)
        return sum(v * w for v, w in kept) / weight if kept and weight > 0 else None

    merged = Launch(group[0].name, group[0].shape, sum(g.calls for g in group), sum(weights), mean("sm") or 0.0,
                    mean("memory") or 0.0, mean("dram"), mean("occupancy"), mean("bandwidth"), mean("flops"))
    return {"name": merged.name, "shape": merged.shape, "calls": merged.calls, "time": merged.seconds,
            "sm_throughput": merged.sm, "memory_throughput": merged.memory, "dram_throughput": merged.dram,
            "occupancy": merged.occupancy, "achieved_flops": merged.flops, "bandwidth": merged.bandwidth,
            "regime": merged.regime}


_REPLAYED = ("what this rests on: Nsight Compute replays each kernel alone (by default with its clocks locked to base): these durations"
             " are not the run's, and with no timeline it cannot see the gaps between kernels, so it cannot say"
             " whether launches or the host set the pace. For the run's regime, profile it with nsys or"
             " torch.profiler")


def _judge(launches: list[Launch], lacking: int, device: str) -> CounterReading:
    by_kernel: dict[tuple[str, str], list[Launch]] = defaultdict(list)
    by_regime: dict[str, float] = defaultdict(float)
    for launch in launches:
        by_kernel[launch.name, launch.shape].append(launch)
        by_regime[launch.regime or "undecided"] += launch.seconds * launch.calls
    total = sum(by_regime.values())
    share = {regime: seconds / total for regime, seconds in sorted(by_regime.items())} if total > 0 else {}
    rows = sorted((_row(group) for group in by_kernel.values()), key=lambda r: -r["time"])
    calls = sum(launch.calls for launch in launches)
    split = ", ".join(f"{'neither roof' if k == 'undecided' else k} {v:.0%}"
                      for k, v in sorted(share.items(), key=lambda kv: -kv[1]))
    evidence = [f"{counted(calls, 'kernel launch')} counted by Nsight Compute, {_f(total, Dim.SECOND)} of replayed"
                f" kernel time: {split}. A kernel is on a roof where the SM's or memory's throughput is at {NEAR_PEAK:.0%}"
                " of its peak or more (ncu's own line), the busier one deciding"]
    top = rows[0]
    evidence.append(f"the kernel with the most time, {top['name']}{' (' + top['shape'] + ')' if top['shape'] else ''}:"
                    f" {counted(top['calls'], 'launch')}, {_f(top['time'], Dim.SECOND)}; " + _throughputs(top)
                    + f" — {top['regime'] + '-bound' if top['regime'] else 'on neither roof'}")
    evidence.append(_REPLAYED)
    leader, held = max(share.items(), key=lambda kv: (kv[1], kv[0] != "undecided"))
    if leader != "undecided" and held > 0.5:
        _, said = kind_advice(leader, "raw")
        verdict = Verdict(leader, evidence, said.helps, said.wastes, kind=leader)
    else:
        needs = (f"kernels holding {share.get('undecided', 0.0):.0%} of the time are on neither roof (SM and memory"
                 f" throughput both under {NEAR_PEAK:.0%} of peak: ncu calls it latency): look at the grid against"
                 " the SMs (Launch Statistics: waves per SM), the achieved occupancy, and what the warps wait on"
                 " (Warp State Statistics)" if leader == "undecided" else
                 f"no regime holds most of the kernel time ({split}): take the kernels one at a time")
        verdict = Verdict(None, evidence, "", "", needs=needs)
    facts = {"format": NAME, "device": device, "kernels": len(rows), "launches": calls, "time": total,
             "time_share": share, "near_peak": NEAR_PEAK, "ops": rows[:20], "skipped_launches": lacking}
    return CounterReading(verdict, facts)


def _f(value: float, dim: Dim) -> str:
    return format_quantity(value, dim)


def _throughputs(row: Mapping[str, Any]) -> str:
    dram = f" (DRAM {percent(row['dram_throughput'])})" if row["dram_throughput"] is not None else ""
    return f"SM throughput {percent(row['sm_throughput'])}, memory throughput {percent(row['memory_throughput'])}{dram}"


def text(reading: CounterReading) -> str:
    """The report's facts in a few lines, for a terminal, under the verdict."""
    f = reading.facts
    lines = [f"{NAME}: {counted(f['launches'], 'kernel launch')} of {counted(f['kernels'], 'kernel')},"
             f" {_f(f['time'], Dim.SECOND)} of replayed kernel time" + (f"; device: {f['device']}" if f["device"] else ""),
             "kernel time by regime: " + ", ".join(f"{'neither roof' if k == 'undecided' else k} {v:.0%}"
                                                   for k, v in f["time_share"].items())]
    if f["skipped_launches"]:
        lines.append(f"left out: {counted(f['skipped_launches'], 'launch')} without a duration or both throughputs")
    lines.append("top kernels by replayed time:")
    for row in f["ops"][:8]:
        lines.append(f"  {row['name'][:80]} {row['shape']} ×{row['calls']}: {_f(row['time'], Dim.SECOND)};"
                     f" {_throughputs(row)}; {row['regime'] or 'neither roof'}")
    return "\n".join(lines)
