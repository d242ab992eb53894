"""Symptoms: what an engineer has before opening a profiler, read from a JSON object, and what they establish.

Measurements then get one normal form (``achieved``): a run can be reported as its time, tokens/s,
ms/token, achieved bandwidth, achieved FLOP/s, a fraction of a peak or MFU; every one becomes step time
and achieved rates. The classifier's rules read only the facts computed here, so the same run given
in any of those units gets the same verdict.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from regime_core.catalogue import hardware as hw
from regime_core.catalogue.quantity import Dim, parse, parse_count
from regime_core.errors import RegimeError
from regime_core.model import work as wk
from regime_core.model.roofline import Placement, place

#: observed field -> (dimension, allow zero). Booleans, counts and ``shrunk`` are handled apart.
OBSERVED_FIELDS: dict[str, tuple[Dim, bool]] = {
    "time": (Dim.SECOND, False),  # one run of the work
    "time_before": (Dim.SECOND, False),  # the same run before the change the incident describes
    "tokens_per_s": (Dim.TOKEN_RATE, False),  # all sequences together
    "time_per_token": (Dim.SECOND, False),  # ms/token of one sequence (decode: the step, ITL)
    "flops_fraction": (Dim.FRACTION, True),
    "mfu": (Dim.FRACTION, True),  # model FLOPs utilisation: the work's FLOPs ÷ time ÷ peak
    "achieved_flops": (Dim.FLOP_RATE, False),
    "bandwidth": (Dim.BYTE_RATE, False),
    "bandwidth_fraction": (Dim.FRACTION, True),
    "gpu_utilization": (Dim.FRACTION, True),  # nvidia-smi GPU-Util: share of time any kernel ran
    "sm_active": (Dim.FRACTION, True),
    "kernel_time": (Dim.SECOND, False),
    "gap_time": (Dim.SECOND, True),
    "gap_median": (Dim.SECOND, True),  # a timeline's gaps unequal: gap_time is then their mean, this their median
    "long_gap_share": (Dim.FRACTION, True),  # the share of the idle time in gaps longer than a launch
    "shrink_4x_ratio": (Dim.COUNT, False),
    "shrink_2x_ratio": (Dim.COUNT, False),
    "fused_speedup": (Dim.COUNT, False),
    "graph_speedup": (Dim.COUNT, False),  # without ÷ with CUDA graphs (or compile's reduce-overhead)
    "loader_time": (Dim.SECOND, True),  # per step, waiting on the input pipeline
    "comm_time": (Dim.SECOND, True),  # per step, collective time no compute overlaps (exposed communication)
    "comm_share": (Dim.FRACTION, True),  # the same, as a share of the step
    "occupancy": (Dim.FRACTION, True),
}
#: Shares of a peak that may be measured beyond it (104% MFU against the wrong card's peak): read, then flagged as
#: an anomaly. Other shares (GPU-Util, occupancy, SM activity) cannot pass 100%.
BEYOND_PEAK = ("flops_fraction", "mfu", "bandwidth_fraction")
#: What a shrink test can shrink; the classifier works out whether that moves the FLOPs or bytes.
SHRINKABLE = ("size", "batch", "context", "tokens")
TOP_FIELDS = ("hardware", "dtype", "work", "observed", "proposal", "notes")
_MAX_TEXT = 2000


@dataclass(frozen=True)
class Observed:
    """Measurements, in base units; None where not measured."""

    time: float | None = None
    time_before: float | None = None
    flops_fraction: float | None = None
    bandwidth: float | None = None
    bandwidth_fraction: float | None = None
    tokens_per_s: float | None = None
    time_per_token: float | None = None
    mfu: float | None = None
    achieved_flops: float | None = None
    gpu_utilization: float | None = None
    sm_active: float | None = None
    kernel_time: float | None = None
    gap_time: float | None = None
    gap_median: float | None = None
    long_gap_share: float | None = None
    launches: int | None = None
    #: Devices that run the model's layers one after another, with no micro-batches to overlap them (a naive
    #: pipeline or a device_map split): each works about 1/count of the time by construction.
    pipeline_stages: int | None = None
    shrink_4x_ratio: float | None = None
    shrink_2x_ratio: float | None = None
    shrunk: str = "size"
    fused_speedup: float | None = None
    graph_speedup: float | None = None
    loader_time: float | None = None
    comm_time: float | None = None
    comm_share: float | None = None
    occupancy: float | None = None
    host_sync_in_loop: bool = False
    timed_without_sync: bool = False  # the time was taken around the call with no synchronize: the launch, not the run
    time_on_gpu: bool = False  # the time is a kernel's own span on the GPU (a trace, CUDA events): no launch inside it


@dataclass(frozen=True)
class Symptoms:
    """Everything the classifier reads."""

    hardware: hw.Hardware | None = None
    dtype: str | None = None
    work: wk.Work | None = None
    observed: Observed = Observed()
    proposal: str = ""
    notes: str = ""
    #: The ``work`` object as given, so a rule can rebuild the work at another batch or size.
    work_spec: Mapping[str, object] | None = field(default=None, compare=False)


def _mapping(value: object, field: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise RegimeError(field, f"expected a JSON object, got {type(value).__name__}")
    return value


def parse_observed(raw: object, field: str = "observed") -> Observed:
    """Parse the ``observed`` object."""
    data = _mapping(raw, field)
    values: dict[str, object] = {}
    for key, value in data.items():
        where = f"{field}.{key}"
        if value is None:
            continue
        if key in ("host_sync_in_loop", "timed_without_sync", "time_on_gpu"):
            if not isinstance(value, bool):
                raise RegimeError(where, "expected true or false")
            values[key] = value
        elif key in ("launches", "pipeline_stages"):
            values[key] = parse_count(value, where)
        elif key == "shrunk":
            if not isinstance(value, str) or value.strip().lower() not in SHRINKABLE:
                raise RegimeError(where, f"expected what the shrink test shrank: one of {', '.join(SHRINKABLE)}")
            values[key] = value.strip().lower()
        elif key in OBSERVED_FIELDS:
            dim, zero = OBSERVED_FIELDS[key]
            values[key] = parse(value, where, dim, allow_zero=zero, beyond_one=key in BEYOND_PEAK)
        else:
            known = ", ".join([*OBSERVED_FIELDS, "launches", "pipeline_stages", "shrunk", "host_sync_in_loop",
                               "timed_without_sync", "time_on_gpu"])
            raise RegimeError(where, f"unknown measurement; expected one of {known}")
    return Observed(**values)  # type: ignore[arg-type]


def parse_symptoms(raw: object) -> Symptoms:
    """Parse a symptoms file's JSON object into :class:`Symptoms`."""
    data = _mapping(raw, "symptoms")
    extra = sorted(set(data) - set(TOP_FIELDS))
    if extra:
        raise RegimeError(str(extra[0])[:40], f"unknown field; expected {', '.join(TOP_FIELDS)}")
    card = hw.resolve(data["hardware"]) if data.get("hardware") is not None else None
    dtype = hw.check_dtype(data["dtype"]) if data.get("dtype") is not None else None
    if card is not None and dtype is not None:
        card.peak(dtype)  # a dtype the card lacks is an input error, said here
    spec = dict(_mapping(data["work"], "work")) if data.get("work") is not None else None
    work = wk.from_spec(spec, dtype) if spec is not None else None
    observed = parse_observed(data["observed"]) if data.get("observed") is not None else Observed()
    return Symptoms(card, dtype, work, observed, _text(data, "proposal"), _text(data, "notes"), spec)


def _text(data: Mapping[str, object], key: str) -> str:
    value = data.get(key) or ""
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        raise RegimeError(key, f"expected text of at most {_MAX_TEXT} characters")
    return value

@dataclass(frozen=True)
class Achieved:
    """The facts one run establishes; None where the symptoms do not give them."""

    step: float | None  # seconds for one run of the work
    step_from: str  # which measurement the step was read from ("" when none)
    flop_rate: float | None  # achieved FLOP/s
    byte_rate: float | None  # achieved bytes/s
    flops_fraction: float | None  # of the card's dense peak for the dtype
    bandwidth_fraction: float | None  # of the card's peak bandwidth
    peak_flops: float | None  # the card's dense peak for the dtype, the fractions' denominator


@dataclass(frozen=True)
class Picket:
    """A timeline of one kernel then one gap, repeated ``launches`` times: what its figures add up to."""

    kernel: float  # seconds of kernel per cycle
    gap: float  # seconds of gap per cycle
    launches: int | None = None

    @classmethod
    def of(cls, o: Observed) -> Picket | None:
        """The picket fence the measurements give, if they give its kernel and its gap."""
        if o.kernel_time is None or o.gap_time is None:
            return None
        return cls(o.kernel_time, o.gap_time, o.launches)

    @property
    def cycle(self) -> float:
        """One kernel and one gap."""
        return self.kernel + self.gap

    @property
    def idle(self) -> float:
        """The share of the time the GPU waits (0..1)."""
        return self.gap / self.cycle if self.cycle > 0 else 0.0

    @property
    def total(self) -> float | None:
        """What all the launches take, where their number is given."""
        return self.launches * self.cycle if self.launches else None

    def figures(self) -> dict[str, tuple[float, Dim]]:
        """The figures a hint may quote, by name: each cycle, its busy share, and what the launches add up to."""
        out = {"cycle": (self.cycle, Dim.SECOND), "busy": (1 - self.idle, Dim.FRACTION)}
        if self.launches and self.total is not None:
            out |= {"total": (self.total, Dim.SECOND), "gaps": (self.launches * self.gap, Dim.SECOND),
                    "kernels": (self.launches * self.kernel, Dim.SECOND)}
        return out


def placement(s: Symptoms) -> Placement | None:
    """The work against the card's roofline, when both are given."""
    if s.work is None or s.hardware is None:
        return None
    return place(s.work, s.hardware, s.dtype)


def _peaks(s: Symptoms, p: Placement | None) -> tuple[float | None, float | None]:
    if p is not None:
        return p.peak_flops, p.bandwidth
    if s.hardware is None:
        return None, None
    return s.hardware.peak(s.dtype or s.hardware.default_dtype()), s.hardware.bandwidth.value


def _given_step(s: Symptoms) -> tuple[float | None, str]:
    o, w = s.observed, s.work
    if o.time is not None:
        return o.time, "time"
    if o.time_per_token is not None and w is not None and w.tokens_per_sequence:
        return o.time_per_token * w.tokens_per_sequence, "time per token"
    if o.time_per_token is not None and w is None:
        return o.time_per_token, "time per token"
    if o.tokens_per_s is not None and w is not None and w.tokens_per_run:
        return w.tokens_per_run / o.tokens_per_s, "tokens/s"
    return None, ""


def achieved(s: Symptoms, p: Placement | None = None) -> Achieved:
    """Step time, achieved FLOP/s and bandwidth, and fractions of the peaks, from any of their units."""
    p = p if p is not None else placement(s)
    o, w = s.observed, s.work
    peak, bandwidth = _peaks(s, p)
    flop_rate = o.achieved_flops
    if flop_rate is None and peak is not None:
        fraction = o.flops_fraction if o.flops_fraction is not None else o.mfu
        flop_rate = fraction * peak if fraction is not None else None
    byte_rate = o.bandwidth
    if byte_rate is None and bandwidth is not None and o.bandwidth_fraction is not None:
        byte_rate = o.bandwidth_fraction * bandwidth
    step, step_from = _given_step(s)
    if step is None and w is not None:  # a rate over a known amount of work is a time
        if byte_rate:
            step, step_from = w.bytes / byte_rate, "bandwidth"
        elif flop_rate and w.flops:
            step, step_from = w.flops / flop_rate, "FLOP/s"
    if step is not None and w is not None:
        flop_rate = flop_rate if flop_rate is not None else w.flops / step
        byte_rate = byte_rate if byte_rate is not None else w.bytes / step
    flops_fraction = o.flops_fraction if o.flops_fraction is not None else o.mfu
    if flops_fraction is None and flop_rate is not None and peak:
        flops_fraction = flop_rate / peak
    bandwidth_fraction = o.bandwidth_fraction
    if bandwidth_fraction is None and byte_rate is not None and bandwidth:
        bandwidth_fraction = byte_rate / bandwidth
    return Achieved(step, step_from, flop_rate, byte_rate, flops_fraction, bandwidth_fraction, peak)


@dataclass(frozen=True)
class Shrink:
    """A shrink test: how much the time moved, and how much the FLOPs and the bytes did."""

    factor: int  # 4 or 2
    time_ratio: float  # time at full size ÷ time shrunk
    what: str  # what was shrunk (symptoms.SHRINKABLE)
    flops_ratio: float
    bytes_ratio: float

    @property
    def work_ratio(self) -> float:
        """How much both FLOPs and bytes shrank at least: the time must follow this if the work sets it."""
        return min(self.flops_ratio, self.bytes_ratio)


def _shrunk_work_ratios(s: Symptoms, factor: int) -> tuple[float, float]:
    """FLOPs and bytes at full size ÷ shrunk, from the work model when the shrunk field is in it."""
    what, spec, w = s.observed.shrunk, s.work_spec, s.work
    if what == "size" or spec is None or w is None:
        return float(factor), float(factor)
    key = what  # batch, context or tokens: a field of the work's own spec
    if key not in spec and not (key == "batch" and spec.get("kernel") in ("decode", "attention", "matmul")):
        return float(factor), float(factor)
    smaller = dict(spec)
    smaller[key] = max(1, round(parse_count(spec.get(key, 1), f"work.{key}") / factor))
    small = wk.from_spec(smaller, s.dtype)
    return w.flops / small.flops if small.flops else float(factor), w.bytes / small.bytes


def shrink(s: Symptoms) -> Shrink | None:
    """The shrink test in the symptoms, if one was run (the 4× one when both are given)."""
    o = s.observed
    for factor, ratio in ((4, o.shrink_4x_ratio), (2, o.shrink_2x_ratio)):
        if ratio is not None:
            flops_ratio, bytes_ratio = _shrunk_work_ratios(s, factor)
            return Shrink(factor, ratio, o.shrunk, flops_ratio, bytes_ratio)
    return None
