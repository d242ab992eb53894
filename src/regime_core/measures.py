"""One normal form for measurements: whatever was given becomes step time and achieved rates.

A run can be reported as its time, tokens/s, ms/token, achieved bandwidth, achieved FLOP/s, a
fraction of a peak or MFU. The classifier's rules read only the facts computed here, so the same
run given in any of those units gets the same verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from regime_core.quantity import parse_count
from regime_core.roofline import Placement, place
from regime_core.symptoms import Symptoms
from regime_core.work import from_spec


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
    small = from_spec(smaller, s.dtype)
    return w.flops / small.flops if small.flops else float(factor), w.bytes / small.bytes


def shrink(s: Symptoms) -> Shrink | None:
    """The shrink test in the symptoms, if one was run (the 4× one when both are given)."""
    o = s.observed
    for factor, ratio in ((4, o.shrink_4x_ratio), (2, o.shrink_2x_ratio)):
        if ratio is not None:
            flops_ratio, bytes_ratio = _shrunk_work_ratios(s, factor)
            return Shrink(factor, ratio, o.shrunk, flops_ratio, bytes_ratio)
    return None
