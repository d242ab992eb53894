"""The classifier: symptoms in, verdict out.

The rules are tried in order; the first that decides wins, and every rule that fires adds
its evidence. Occupancy is reported and never decides (drill, Rule 4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from regime_core.levers import advice, by_id, fits, recognise
from regime_core.quantity import Dim, format_quantity, number
from regime_core.roofline import Placement, place
from regime_core.symptoms import Symptoms

GAP_SHARE = 0.5  # idle share of the timeline at which launches, not kernels, set the pace
SHRINK_FLAT = 1.5  # full-size time ÷ quarter-size time at or under this: time did not follow size
SHRINK_SCALES = 2.5  # at or over this: time followed the work
NEAR_ROOF = 0.5  # a measured fraction of a peak at or over this puts the kernel on that roof
LAUNCH_SCALE = 50e-6  # seconds: a handful of kernel launches
FLOOR_SHARE = 0.1  # the work explains under this share of the measured time
ABOVE_ROOF = 1.05  # measured beyond the roof by more than this: an anomaly

_f = format_quantity


@dataclass(frozen=True)
class Verdict:
    """The regime, why, what to do and what not to do."""

    regime: str | None
    evidence: list[str]
    lever: str
    waste: str
    anomalies: list[str] = field(default_factory=list)
    needs: str = ""
    placement: Placement | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``classify``/``incident`` JSON contract."""
        out: dict[str, Any] = {
            "regime": self.regime,
            "regime_name": advice(self.regime).name if self.regime else "undecided",
            "evidence": self.evidence,
            "lever": self.lever,
            "waste": self.waste,
            "anomalies": self.anomalies,
            "needs": self.needs,
        }
        if self.placement is not None:
            out["placement"] = self.placement.to_json()
        return out


def _placement(s: Symptoms) -> Placement | None:
    if s.work is None or s.hardware is None:
        return None
    return place(s.work, s.hardware, s.dtype)


def step_time(s: Symptoms) -> float | None:
    """Measured seconds for one run of the work: the time, or tokens per run ÷ tokens/s."""
    if s.observed.time is not None:
        return s.observed.time
    if s.observed.tokens_per_s is not None and s.work is not None and s.work.tokens_per_run:
        return s.work.tokens_per_run / s.observed.tokens_per_s
    return None


def _above_roof(s: Symptoms, p: Placement, step: float) -> str:
    """The anomaly line for a measurement faster than the roofline floor."""
    if s.observed.time is None and s.observed.tokens_per_s is not None and s.work is not None:
        cap = s.work.tokens_per_run / p.floor_seconds
        return (f"{number(s.observed.tokens_per_s)} tok/s means {_f(step, Dim.SECOND)} per step, under the"
                f" roofline floor of {_f(p.floor_seconds, Dim.SECOND)}: {_f(s.work.bytes, Dim.BYTE)} at"
                f" {_f(p.bandwidth, Dim.BYTE_RATE)} caps it at {_f(cap, Dim.TOKEN_RATE)}. The measurement must"
                " include batching, quantisation or speculative decoding; either way no compute kernel will 2× it")
    return (f"{_f(step, Dim.SECOND)} measured, under the roofline floor of {_f(p.floor_seconds, Dim.SECOND)}:"
            " the measurement or the work model is off (batching, quantisation, caching?)")


def _fractions(s: Symptoms, p: Placement | None, anomalies: list[str]) -> tuple[float | None, float | None]:
    """Fractions of peak FLOP/s and of peak bandwidth: measured, or derived from time and work."""
    o = s.observed
    flops_frac, bw_frac = o.flops_fraction, o.bandwidth_fraction
    if o.bandwidth is not None and s.hardware is not None and bw_frac is None:
        bw_frac = o.bandwidth / s.hardware.bandwidth.value
    step = step_time(s)
    if p is not None and step is not None:
        if flops_frac is None:
            flops_frac = p.work.flops / step / p.peak_flops
        if bw_frac is None:
            bw_frac = p.work.bytes / step / p.bandwidth
        if p.floor_seconds > step * ABOVE_ROOF:
            anomalies.append(_above_roof(s, p, step))
    elif bw_frac is not None and bw_frac > ABOVE_ROOF:
        anomalies.append(f"achieved bandwidth is {number(bw_frac * 100)}% of the card's peak: impossible;"
                         " check the byte count or the measurement")
    return flops_frac, bw_frac


def _roofline_line(p: Placement) -> str:
    return (f"roofline: {_f(p.intensity, Dim.INTENSITY)} is {number(p.factor)}× {p.side} the ridge of"
            f" {_f(p.ridge, Dim.INTENSITY)}; floor {_f(p.floor_seconds, Dim.SECOND)}")


def _decide(s: Symptoms, p: Placement | None, evidence: list[str], anomalies: list[str]) -> tuple[str | None, str]:
    """Apply the rules in order; return (regime, sub-kind) and fill the evidence."""
    o = s.observed
    step = step_time(s)
    if o.host_sync_in_loop:
        cost = f"; the step now takes {_f(o.time, Dim.SECOND)}" if o.time else ""
        evidence.append(f"a host sync sits in the loop: the CPU waits for the GPU every step{cost}")
        return "overhead", "host"
    if o.kernel_time is not None and o.gap_time is not None:
        share = o.gap_time / (o.kernel_time + o.gap_time)
        line = (f"timeline: {_f(o.kernel_time, Dim.SECOND)} of kernel, {_f(o.gap_time, Dim.SECOND)} of gap:"
                f" the GPU idles {number(share * 100, 2)}% of the time")
        if o.launches:
            total = o.launches * (o.kernel_time + o.gap_time)
            line += f"; {o.launches:,} launches × {_f(o.kernel_time + o.gap_time, Dim.SECOND)} = {_f(total, Dim.SECOND)}"
        evidence.append(line)
        if share >= GAP_SHARE:
            return "overhead", "launch"
    if o.shrink_4x_ratio is not None:
        if o.shrink_4x_ratio <= SHRINK_FLAT:
            evidence.append(f"shrinking the input 4× changed the time only {number(o.shrink_4x_ratio)}×:"
                            " the time is not the work (Rule 3)")
            return "overhead", "launch"
        if o.shrink_4x_ratio >= SHRINK_SCALES:
            evidence.append(f"shrinking the input 4× made it {number(o.shrink_4x_ratio)}× faster: time follows the work")
    if p is not None and step is not None and o.time is not None:
        share = p.floor_seconds / step
        if share < FLOOR_SHARE and step <= LAUNCH_SCALE:
            evidence.append(f"{_f(step, Dim.SECOND)} measured against a roofline floor of"
                            f" {_f(p.floor_seconds, Dim.SECOND)}: the work explains {number(share * 100, 2)}%"
                            " of the time, and the rest is launch-scale")
            if o.fused_speedup is not None:
                evidence.append(f"fusing bought only {number(o.fused_speedup)}×: there was never much traffic to cut")
            return "overhead", "launch"
    flops_frac, bw_frac = _fractions(s, p, anomalies)
    at_compute = flops_frac is not None and flops_frac >= NEAR_ROOF
    at_memory = bw_frac is not None and bw_frac >= NEAR_ROOF
    if at_compute and (not at_memory or (flops_frac or 0) >= (bw_frac or 0)):
        evidence.append(f"{number((flops_frac or 0) * 100, 2)}% of peak FLOP/s: on the compute roof")
        return "compute", ""
    if at_memory:
        if (bw_frac or 0) > ABOVE_ROOF and p is not None and step is not None:
            evidence.append(f"{_f(p.work.bytes, Dim.BYTE)} per step at {_f(step, Dim.SECOND)} would need"
                            f" {_f(p.work.bytes / step, Dim.BYTE_RATE)}, more than the card's"
                            f" {_f(p.bandwidth, Dim.BYTE_RATE)}: bandwidth, not math, is the limit")
        elif o.bandwidth is not None and s.hardware is not None:
            evidence.append(f"{_f(o.bandwidth, Dim.BYTE_RATE)} of {_f(s.hardware.bandwidth.value, Dim.BYTE_RATE)}"
                            f" = {number((bw_frac or 0) * 100, 2)}% of peak bandwidth: on the memory roof")
        else:
            evidence.append(f"{number((bw_frac or 0) * 100, 3)}% of peak bandwidth: on the memory roof")
        if o.fused_speedup is not None:
            evidence.append(f"fusing made it {number(o.fused_speedup)}× faster: deleting round trips paid")
        return "memory", ""
    if p is not None:
        evidence.append(_roofline_line(p))
        if p.factor >= 2 and not (step is not None and p.floor_seconds / step < FLOOR_SHARE):
            return p.bound, ""
    return None, ""


_SUB_LEVERS = {
    "host": ("remove the per-step host read (.item(), .cpu(), printing a tensor): keep the loop on the GPU",
             "rewriting the matmul or attention kernels: they did not change, the host wait did"),
    "launch": ("launch less: fuse, capture the loop in a CUDA graph, or launch fewer, bigger grids",
               "micro-optimising the kernels themselves: the GPU is idle between them"),
}


def classify(s: Symptoms) -> Verdict:
    """Read the regime from the symptoms."""
    p = _placement(s)
    evidence: list[str] = []
    anomalies: list[str] = []
    regime, sub = _decide(s, p, evidence, anomalies)
    if p is not None and _roofline_line(p) not in evidence:
        evidence.append(_roofline_line(p))
    elif p is None and s.work is not None:
        evidence.append(f"work: {_f(s.work.intensity, Dim.INTENSITY)} ({number(s.work.flops)} FLOPs over"
                        f" {_f(s.work.bytes, Dim.BYTE)}); no card is named to place it against a ridge")
    if s.observed.occupancy is not None:
        evidence.append(f"{number(s.observed.occupancy * 100, 2)}% occupancy is noted and decides nothing:"
                        " occupancy is not a regime (Rule 4)")
    if regime is None:
        return Verdict(None, evidence or ["nothing measured here decides the regime"], "", "", anomalies,
                       _needs(s), p)
    helps, wastes = _SUB_LEVERS.get(sub, (advice(regime).helps, advice(regime).wastes))
    proposed = recognise(s.proposal) if s.proposal else []
    if proposed and not fits(proposed, regime):
        names = ", ".join(by_id(i).label.lower() for i in proposed)
        wastes = f"{s.proposal.strip()} ({names}): it does not help a {advice(regime).name} kernel"
    elif proposed:
        helps = f"{s.proposal.strip()}, as proposed — it fits; more broadly: {helps}"
    return Verdict(regime, evidence, helps, wastes, anomalies, "", p)


def _needs(s: Symptoms) -> str:
    if s.observed.shrink_4x_ratio is None:
        return ("run the shrink test: time it at a quarter of the size. Flat time means overhead; time that"
                " falls about 4× means the work sets it, and intensity against the ridge says which roof")
    if s.work is None or s.hardware is None:
        return "give the work (a shape, or FLOPs and bytes) and the card, so intensity can be placed against the ridge"
    return "measure achieved FLOP/s or bandwidth against the card's peaks"

