"""The classifier: symptoms in, verdict out.

Every measurement is first put in one normal form (``symptoms.achieved``: step time, achieved
FLOP/s and bandwidth). The rules then run in order; the first that decides wins, and every rule
that fires adds its evidence. A rule decides only on evidence that decides: the roofline side of a
kernel far from both roofs is a *leaning*, never a verdict, and the verdict then names the one
measurement that would decide. Occupancy, SM activity and a high GPU utilisation are reported and
never decide (drill, Rule 4).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from regime_core.catalogue.levers import a_kernel, advice, by_id, fits, kind_advice, phrases, recognise
from regime_core.catalogue.quantity import Dim, format_quantity, number
from regime_core.judgment import words
from regime_core.judgment.symptoms import Achieved, Observed, Picket, Symptoms, achieved, placement, shrink
from regime_core.model.roofline import Placement

__all__ = ["Verdict", "classify"]

# Thresholds: each is a judgment about what evidence decides; tests sit on both sides of each.
GAP_SHARE = 0.5  # the GPU idles at least half the timeline: launches or the host, not kernels, set the pace
IDLE_UTILIZATION = 0.5  # nvidia-smi GPU-Util at or under this: no kernel ran for half the time
LOADER_SHARE = 0.5  # at least half of each step waits on the input pipeline
COMM_SHARE = 0.5  # exposed collectives hold at least half the step: the time is on the interconnect
GRAPH_DECISIVE = 1.5  # CUDA graphs (or reduce-overhead) removed a third of the time or more: launches dominated
GRAPH_NO_GAIN = 1.1  # graphs bought under 10%: launch overhead is not what limits it
# A host sync timed in and out of the loop, in a graph capture's band: the wait a third of the step or more
# decides host-bound; under 1.05× it is noise.
SYNC_DECISIVE = GRAPH_DECISIVE
SYNC_NO_GAIN = 1.05
FUSION_NO_GAIN = 1.1  # fusing bought under 10%: the round trips it deleted were a small part of the time
SHRINK_INFORMATIVE = 2.0  # the shrink must cut both FLOPs and bytes at least this much to say anything
SHRINK_FLAT = 1 / 6  # time moved by at most this share of the work's cut: flat (4× → 1.5, drill Rule 3)
SHRINK_FOLLOWS = 0.5  # time moved by at least this share of the work's cut: time follows the work (4× → 2.5)
NEAR_ROOF = 0.5  # at or over this fraction of peak bandwidth, the kernel is on the memory roof
# At or over this fraction of dense peak FLOP/s, on the compute roof: whole training steps and prefills that
# are compute-bound sit at 40–60% (MFU 46–47% is state of the art at scale: Megatron, MosaicML), and no
# memory- or overhead-bound run delivers that much useful math.
NEAR_COMPUTE_ROOF = 0.4
FAR_FROM_ROOF = 0.25  # under this share of a roof a kernel is far from it; from here up to the roof, below it
LAUNCH_LATENCY = 5e-6  # seconds: one kernel launch, end to end, on current GPUs and drivers
LAUNCH_SCALE = 50e-6  # seconds: a handful of launches
EQUAL_GAPS = 0.1  # a median this close to the mean: the gaps are said as one length
LONG_GAPS = 0.5  # a timeline whose idle time lies this much in gaps longer than a launch waits on more than launches
FLOOR_SHARE = 0.1  # the work explains under this share of the measured time
LAUNCH_EACH = 2 * 5e-6  # seconds per launch at or under which a loop's time is its launches (two launch latencies)
PIPELINE_BAND = 1.5  # a utilisation up to 1.5/stages is what a serial split of that many devices gives
# Measured bandwidth beyond the datasheet's by more than this is an anomaly: real kernels reach 90–95% of
# it, and a figure typed as "2.0 TB/s" for 2,039 GB/s is rounded by 2%.
ABOVE_ROOF = 1.02
ABOVE_COMPUTE_ROOF = 1.01  # a FLOP peak is clock × units, exact: only its rounding is tolerated

_f = format_quantity


@dataclass(frozen=True)
class Verdict:
    """The regime (None: undecided), why, what to do and not to do, and what to measure next."""

    regime: str | None
    evidence: list[str]
    lever: str
    waste: str
    anomalies: list[str] = field(default_factory=list)
    needs: str = ""
    placement: Placement | None = None
    leaning: str | None = None  # the roofline side, when the regime is undecided
    notes: str = ""
    #: The kind of kernel the deciding rule saw: host, launch, loader, idle, decode (on the memory roof),
    #: memory or compute; "" when undecided. A lever may fit the regime and still not move this kind.
    kind: str = ""
    #: The notes are what a reading saw beside its verdict (a trace's), not notes the symptoms came with.
    notes_read: bool = False

    def lines(self) -> list[dict[str, Any]]:
        """The verdict as it is shown, line by line: ``{"label", "text"}`` or ``{"label", "items"}``.

        The command line, the pages and the widgets all render these, so the words are written once.
        """
        out: list[dict[str, Any]] = [
            {"label": words.LABEL["regime"], "text": advice(self.regime).name if self.regime
             else words.undecided(advice(self.leaning).name if self.leaning else None)},
            {"label": words.LABEL["evidence"], "items": list(self.evidence)},
        ]
        if self.regime is not None:
            out += [{"label": words.LABEL["helps"], "text": self.lever},
                    {"label": words.LABEL["wastes"], "text": self.waste}]
        else:
            out += [{"label": words.NEEDS, "text": self.needs}] if self.needs else []
            out += [{"label": words.PROPOSAL, "text": self.waste}] if self.waste else []
        if self.anomalies:
            out.append({"label": words.ANOMALY, "items": list(self.anomalies)})
        if self.notes:
            out.append({"label": words.NOTES_READ if self.notes_read else words.NOTES, "text": self.notes})
        return out

    def to_json(self) -> dict[str, Any]:
        """The ``classify``/``incident`` JSON contract."""
        out: dict[str, Any] = {
            "regime": self.regime,
            "regime_name": advice(self.regime).name if self.regime else "undecided",
            "lines": self.lines(),
            "evidence": self.evidence,
            "lever": self.lever,
            "waste": self.waste,
            "anomalies": self.anomalies,
            "needs": self.needs,
            "leaning": self.leaning,
            "notes": self.notes,
        }
        if self.placement is not None:
            out["placement"] = self.placement.to_json()
        return out


def _sync_beyond_serial(s: Symptoms) -> bool:
    """A step with a sync more than twice the step without it (plus a round trip): more than a sync can cost."""
    o = s.observed
    return bool(o.host_sync_in_loop and o.time and o.time_before and o.time > 2 * o.time_before + LAUNCH_SCALE)


def _waits_beyond_launches(fence: Picket, o: Observed) -> bool:
    """Whether most of the idle time lies in gaps longer than a launch.

    By that share where a timeline gives it (its gaps unequal, a mean says little), else by the one gap given.
    """
    return o.long_gap_share >= LONG_GAPS if o.long_gap_share is not None else fence.gap > LAUNCH_SCALE


def _fence_line(fence: Picket, o: Observed) -> str:
    """A picket fence's evidence: its kernel and gap (their mean and median where the gaps differ), and its sum."""
    unequal = o.gap_median is not None and abs(o.gap_median - fence.gap) > EQUAL_GAPS * fence.gap
    gap = (f"{_f(fence.gap, Dim.SECOND)} of gap on average (median {_f(o.gap_median, Dim.SECOND)})"
           if unequal and o.gap_median is not None else f"{_f(fence.gap, Dim.SECOND)} of gap")
    line = (f"timeline: {_f(fence.kernel, Dim.SECOND)} of kernel, {gap}: the GPU idles {number(fence.idle * 100, 2)}%"
            " of the time")
    if fence.launches and fence.total is not None:
        line += f"; {fence.launches:,} launches × {_f(fence.cycle, Dim.SECOND)} = {_f(fence.total, Dim.SECOND)}"
    if fence.idle < GAP_SHARE:
        return line
    if o.long_gap_share is not None:  # where the idle time lies, not what a mean of unequal gaps is
        return line + (f"; {words.percent(o.long_gap_share)} of the idle time is in gaps longer than a launch"
                       f" ({_f(LAUNCH_SCALE, Dim.SECOND)}), so the GPU waits on something else (the host, the input, a"
                       " sync)" if o.long_gap_share >= LONG_GAPS else
                       f"; {words.percent(1 - o.long_gap_share)} of the idle time is in launch-sized gaps"
                       f" ({_f(LAUNCH_SCALE, Dim.SECOND)} or less): the launches set the pace")
    if fence.gap > LAUNCH_SCALE:  # far longer than launches: the GPU waits on more
        line += (f"; gaps of {_f(fence.gap, Dim.SECOND)} are far longer than a launch, so the GPU waits on"
                 " something else (the host, the input, a sync)")
    return line


def _sync_gap(o: Observed) -> float | None:
    """The gap a step with a host sync leaves: measured, or its time less its kernel time.

    Only where no count of launches makes the kernel time a per-launch figure (14 ms with 8 ms of kernel leaves 6 ms).
    """
    if o.gap_time is not None:
        return o.gap_time
    if o.time and o.kernel_time and o.launches is None and o.time > o.kernel_time:
        return o.time - o.kernel_time
    return None


def _host_sync_rule(s: Symptoms, evidence: list[str]) -> bool:
    """A host sync in the loop decides only where its cost is measured and is most of the step.

    With a sync the CPU's work and the GPU's run one after the other; without it they overlap. So the
    step timed with and without it says what the wait costs (the smaller of the two sides), in the same
    bands as a graph capture; it can at most double the step, plus the sync's own round trip. Without
    that measurement a sync is said, and not blamed: a sync in a loop is common and often cheap.
    """
    o = s.observed
    line = "a host sync sits in the loop: the CPU waits for the GPU every step"
    if o.time and o.time_before:
        ratio = o.time / o.time_before
        went = (f"{line}; the step went from {_f(o.time_before, Dim.SECOND)} to {_f(o.time, Dim.SECOND)}"
                f" ({number(ratio)}×)")
        cost = _f(o.time - o.time_before, Dim.SECOND)
        if _sync_beyond_serial(s):
            evidence.append(f"{went}: more than a sync can cost (see the anomaly)")
        elif ratio >= SYNC_DECISIVE:
            evidence.append(f"{went}: the wait costs {cost} a step, {words.percent(1 - 1 / ratio)} of it")
            return True
        elif ratio >= SYNC_NO_GAIN:
            evidence.append(f"{went}: the wait costs {cost} a step, {words.percent(1 - 1 / ratio)} of it — real"
                            " overhead, but not most of the step")
        else:
            evidence.append(f"{went}: {'barely' if ratio > 1 else 'no'} slower with it, so the wait is not what"
                            " sets the pace")
        return False
    gap = _sync_gap(o)
    if o.kernel_time and gap is not None:
        # With a sync the CPU's and the GPU's work run one after the other: the timeline's gap is what the wait
        # costs, so kernel + gap against kernel alone reads like the step timed with and without the sync.
        ratio = (o.kernel_time + gap) / o.kernel_time
        shows = ("the timeline shows its cost" if o.gap_time is not None else
                 f"a step of {_f(o.time or 0, Dim.SECOND)} leaves a gap beside its kernels")
        went = (f"{line}, and {shows}: {_f(o.kernel_time, Dim.SECOND)} of kernel and"
                f" {_f(gap, Dim.SECOND)} of gap a step ({number(ratio)}× the kernels alone)")
        if ratio >= SYNC_DECISIVE:
            evidence.append(f"{went}: the wait is {words.percent(1 - 1 / ratio)} of the step")
            return True
        evidence.append(f"{went}: {'real overhead, but not most of the step' if ratio >= SYNC_NO_GAIN else 'it barely costs'}")
        return False
    if o.gpu_utilization is not None and o.gpu_utilization > IDLE_UTILIZATION:
        evidence.append(f"{line}, yet the GPU is busy {words.percent(o.gpu_utilization)} of the time: the wait can"
                        f" cost at most the {words.percent(1 - o.gpu_utilization)} it idles")
        return False
    now = f"; the step takes {_f(o.time, Dim.SECOND)}" if o.time else ""
    evidence.append(f"{line}{now}: a suspect, but what the wait costs is not measured")
    return False


def _idle_rules(s: Symptoms, a: Achieved, evidence: list[str]) -> str | None:
    """Host syncs, the input pipeline, timeline gaps, low utilisation, graph capture: the GPU waiting.

    Each that is measured adds its line; the first that decides names the kind of overhead.
    """
    o = s.observed
    decided: list[str] = []
    if o.host_sync_in_loop and _host_sync_rule(s, evidence):
        decided.append("host")
    if o.loader_time is not None and a.step:
        share = o.loader_time / a.step
        evidence.append(f"{_f(o.loader_time, Dim.SECOND)} of each {_f(a.step, Dim.SECOND)} step waits on the data"
                        f" loader: {words.percent(share)} of the time")
        if share >= LOADER_SHARE:
            decided.append("loader")
    if (fence := Picket.of(o)) is not None:
        share = fence.idle
        evidence.append(_fence_line(fence, o))
        if share >= GAP_SHARE:
            decided.append("idle" if _waits_beyond_launches(fence, o) else "launch")
    stages = o.pipeline_stages
    if o.gpu_utilization is not None and stages and stages >= 2 and o.gpu_utilization <= PIPELINE_BAND / stages:
        evidence.append(f"{stages} devices run the layers one after another with no micro-batches: each is busy about"
                        f" 1/{stages} of the time by construction, so a GPU utilisation of"
                        f" {words.percent(o.gpu_utilization)} is the split's serialisation, not host overhead")
    elif o.gpu_utilization is not None and o.gpu_utilization <= IDLE_UTILIZATION:
        evidence.append(f"GPU utilisation {words.percent(o.gpu_utilization)}: no kernel runs for"
                        f" {words.percent(1 - o.gpu_utilization)} of the time")
        decided.append("idle")
    if o.graph_speedup is not None:
        if o.graph_speedup >= GRAPH_DECISIVE:
            evidence.append(f"capturing the step in a CUDA graph made it {number(o.graph_speedup)}× faster:"
                            " launch overhead set the pace")
            decided.append("launch")
        elif o.graph_speedup <= GRAPH_NO_GAIN:
            evidence.append(f"a CUDA graph bought only {number(o.graph_speedup)}×: launch overhead is not the limit")
        else:  # between the two: a measurement that counts, though it decides nothing alone
            evidence.append(f"a CUDA graph made the step {number(o.graph_speedup)}× faster: launches took"
                            f" {words.percent(1 - 1 / o.graph_speedup)} of it — real overhead, but not most of the step")
    return decided[0] if decided else None


def _comm_rule(s: Symptoms, a: Achieved, evidence: list[str]) -> str | None:
    """Exposed communication: collective time no compute overlaps, most of the step or not."""
    o = s.observed
    share = o.comm_share
    if share is None and o.comm_time is not None and a.step:
        share = o.comm_time / a.step
    if share is None:
        return None
    if o.comm_time is not None and a.step:
        held = (f"{_f(o.comm_time, Dim.SECOND)} of each {_f(a.step, Dim.SECOND)} step is collectives no compute"
                f" overlaps ({words.percent(share)})")
    else:
        held = f"collectives no compute overlaps hold {words.percent(share)} of the step"
    if share >= COMM_SHARE:
        evidence.append(f"{held}: the step waits on the interconnect, not on the device")
        return "communication"
    evidence.append(f"{held}: real, but not what sets the pace")
    return None


def _shrink_rule(s: Symptoms, evidence: list[str]) -> str | None:
    test = shrink(s)
    if test is None:
        return None
    w, r = test.work_ratio, test.time_ratio
    what = "input" if test.what == "size" else test.what
    if w < SHRINK_INFORMATIVE:
        evidence.append(f"shrinking the {what} {test.factor}× cuts the FLOPs {number(test.flops_ratio)}× but the bytes"
                        f" only {number(test.bytes_ratio)}×; a time that moved {number(r)}× is what a memory-bound"
                        " kernel does too, so this shrink test cannot say overhead")
        return None
    if r <= 1 + (w - 1) * SHRINK_FLAT:
        evidence.append(f"shrinking the {what} {test.factor}× changed the time only {number(r)}×:"
                        " the time is not the work (Rule 3)")
        return "launch"
    if r >= 1 + (w - 1) * SHRINK_FOLLOWS:
        evidence.append(f"shrinking the {what} {test.factor}× made it {number(r)}× faster: time follows the work")
    return None


def _launch_count_rule(s: Symptoms, p: Placement | None, a: Achieved, evidence: list[str]) -> str | None:
    """A loop of many tiny launches: its time ÷ its launches is a few µs each, so launches set the pace.

    Only where no timeline gives each launch's kernel and gap (the picket fence reads those), and the work, where
    it is placed, explains little of the time (100,000 launches in 0.8 s is 8 µs each, whatever the roofs).
    """
    o = s.observed
    if not o.launches or o.launches < 2 or a.step is None or Picket.of(o) is not None:
        return None
    each = a.step / o.launches
    if each > LAUNCH_EACH or (p is not None and p.floor_seconds / a.step >= FLOOR_SHARE):
        return None
    evidence.append(f"{o.launches:,} launches in {_f(a.step, Dim.SECOND)}: {_f(each, Dim.SECOND)} each, the scale of a"
                    " kernel launch itself, so launches set the pace")
    return "launch"


def _launch_scale_rule(s: Symptoms, p: Placement | None, a: Achieved, evidence: list[str]) -> str | None:
    if p is None or a.step is None:
        return None
    share = p.floor_seconds / a.step
    tiny = a.step <= 2 * LAUNCH_LATENCY and share < NEAR_ROOF
    if not (tiny or (share < FLOOR_SHARE and a.step <= LAUNCH_SCALE)):
        return None
    if s.observed.time_on_gpu:  # a kernel's own span: its launch cost lies in the gap before it, never inside it
        evidence.append(f"{_f(a.step, Dim.SECOND)} on the GPU against a roofline floor of"
                        f" {_f(p.floor_seconds, Dim.SECOND)}: the work explains {number(share * 100, 2)}% of the"
                        " kernel's own time, and a launch's cost falls between kernels, never inside one, so this is"
                        " a kernel too small or too poorly shaped to fill the card (too few tiles for its SMs, low"
                        " occupancy), not launch overhead")
        return None
    evidence.append(f"{_f(a.step, Dim.SECOND)} measured against a roofline floor of {_f(p.floor_seconds, Dim.SECOND)}:"
                    f" the work explains {number(share * 100, 2)}% of the time, and the rest is launch-scale")
    if s.observed.fused_speedup is not None:
        evidence.append(f"fusing bought only {number(s.observed.fused_speedup)}×: there was never much traffic to cut")
    return "launch"


def _roof_rule(s: Symptoms, p: Placement | None, a: Achieved, evidence: list[str]) -> str | None:
    """Compute or memory, when a measured fraction puts the kernel on (or beyond) a roof."""
    ff, bf = a.flops_fraction, a.bandwidth_fraction
    at_compute = ff is not None and ff >= NEAR_COMPUTE_ROOF
    at_memory = bf is not None and bf >= NEAR_ROOF
    o = s.observed
    # On the compute roof only where the FLOP/s share is the larger one: a kernel at 42% of peak FLOP/s and 47% of
    # peak bandwidth sits below the ridge, nearer the memory roof, and on neither.
    if at_compute and (bf is None or (ff or 0) >= bf):
        given = (f"{_f(o.achieved_flops, Dim.FLOP_RATE)} of {_f(a.peak_flops, Dim.FLOP_RATE)} = "
                 if o.achieved_flops is not None and a.peak_flops else "")
        name = "MFU" if o.flops_fraction is None and o.mfu is not None else "of peak FLOP/s"
        where = ("beyond the compute roof, which no kernel passes (see the anomaly)" if (ff or 0) > ABOVE_COMPUTE_ROOF
                 else "on the compute roof")
        evidence.append(f"{given}{number((ff or 0) * 100, 2)}% {name}: {where}")
        return "compute"
    if not at_memory:
        return None
    if (bf or 0) > ABOVE_ROOF and p is not None and a.step is not None:
        cap = ""
        if s.work is not None and s.work.tokens_per_run:
            cap = f", at most {_f(s.work.tokens_per_run / p.memory_seconds, Dim.TOKEN_RATE)}"
        evidence.append(f"floor: {_f(p.work.bytes, Dim.BYTE)} at {_f(p.bandwidth, Dim.BYTE_RATE)} ="
                        f" {_f(p.memory_seconds, Dim.SECOND)} per step{cap}; {_measured(s, a.step, a.step_from)}"
                        " is beyond it: bandwidth, not math, is the limit")
    elif o.bandwidth is not None and s.hardware is not None:
        where = "beyond the memory roof (see the anomaly)" if (bf or 0) > ABOVE_ROOF else "on the memory roof"
        evidence.append(f"{_f(o.bandwidth, Dim.BYTE_RATE)} of {_f(s.hardware.bandwidth.value, Dim.BYTE_RATE)}"
                        f" = {number((bf or 0) * 100, 2)}% of peak bandwidth: {where}")
    else:
        where = ("beyond the memory roof, which DRAM traffic cannot pass (see the anomaly)" if (bf or 0) > ABOVE_ROOF
                 else "on the memory roof")
        evidence.append(f"{number((bf or 0) * 100, 3)}% of peak bandwidth: {where}")
    if o.fused_speedup is not None and o.fused_speedup >= FUSION_NO_GAIN:
        evidence.append(f"fusing made it {number(o.fused_speedup)}× faster: deleting round trips paid")
    elif o.fused_speedup is not None:
        evidence.append(f"fusing bought only {number(o.fused_speedup)}×: the round trips it deleted were a small part"
                        " of the bytes")
    return "decode" if s.work is not None and s.work.tokens_per_sequence == 1 else "memory"


def _measured(s: Symptoms, step: float, step_from: str) -> str:
    """The measurement as it was given, with the step time it means."""
    o = s.observed
    if step_from == "tokens/s" and o.tokens_per_s is not None:
        return f"{number(o.tokens_per_s)} tok/s ({_f(step, Dim.SECOND)} per step)"
    if step_from == "time":
        return f"the measured {_f(step, Dim.SECOND)}"
    return f"{_f(step, Dim.SECOND)} per step (from the {step_from} given)"


def _far_from_both(a: Achieved, p: Placement | None, evidence: list[str]) -> None:
    parts = []
    for fraction, roof in ((a.flops_fraction, "peak FLOP/s"), (a.bandwidth_fraction, "peak bandwidth")):
        if fraction is not None:
            # Under a quarter of a roof is far from it; from there up to the roof's threshold, below it, not on it.
            parts.append((fraction, f"{words.percent(fraction)} of {roof}"))
    if parts:
        if all(f < FAR_FROM_ROOF for f, _ in parts):
            how = f"far from {'both roofs' if len(parts) == 2 else 'that roof'}"
            said = " and ".join(text for _, text in parts)
        else:
            said = " and ".join(f"{text} ({'far from it' if f < FAR_FROM_ROOF else 'below it, not on it'})"
                                for f, text in parts) if len(parts) == 2 else parts[0][1]
            how = "on neither roof" if len(parts) == 2 else "below that roof, not on it"
        evidence.append(f"{said}: {how}, so neither roof is the limit yet")
    if p is not None:
        evidence.append(words.roofline_line(p) + f" — a leaning towards {p.bound}, not a verdict")


#: A proposal the symptoms already measured: its lever -> the speedup that measured it.
_MEASURED_BY = {"cuda_graphs": "graph_speedup", "fusion": "fused_speedup", "compile": "fused_speedup"}


def _already_measured(s: Symptoms, proposed: list[str]) -> float | None:
    """The speedup the symptoms give for the proposed change, if they measured it (a sync: timed with and without)."""
    o = s.observed
    found = [getattr(o, _MEASURED_BY[i]) for i in proposed if i in _MEASURED_BY]
    if "remove_host_sync" in proposed and o.host_sync_in_loop and o.time and o.time_before and not _sync_beyond_serial(s):
        found.append(o.time / o.time_before)
    return next((value for value in found if value is not None), None)


def _proposal_and_lever(proposal: str, proposed: list[str]) -> str:
    """The proposal, with the lever it was read as unless its own words already say it (no 'raise occupancy (raising occupancy)')."""
    lever = phrases(proposed)
    stems = {w[:3] for w in re.findall(r"[a-z0-9]+", proposal.lower())}
    said = all(w[:3] in stems for w in re.findall(r"[a-z0-9]+", lever.lower()) if w not in ("a", "an", "the", "and"))
    return proposal if said else f"{proposal} ({lever})"


def _needs(s: Symptoms, p: Placement | None, a: Achieved) -> str:
    """The one measurement that would decide: a host sync's own A/B first, in the bands that decide it."""
    o = s.observed
    if _sync_beyond_serial(s):
        return words.SYNC_RETIME
    if o.host_sync_in_loop and o.time_before is None and _sync_gap(o) is None:
        return (f"time the step without the host sync (or read a timeline for the GPU idling after it): a step"
                f" {number(SYNC_DECISIVE)}× or more slower with it is host-bound; one under {number(SYNC_NO_GAIN)}×"
                " is not")
    if o.pipeline_stages and o.pipeline_stages >= 2 and a.step is not None and p is None:
        return (f"give one stage's achieved FLOP/s or bandwidth (or the work, to place it on a card's roofline): each of"
                f" the {o.pipeline_stages} devices idles by the split's design, so only a rate can say what holds the"
                " stage that runs")
    return words.needs(s, p, a)


def _early_proposal(s: Symptoms) -> str:
    """What an undecided verdict says of the proposal: too early, unless the symptoms already measured it."""
    proposal = s.proposal.strip()
    if not proposal:
        return ""
    speedup = _already_measured(s, recognise(proposal))
    if speedup is not None:
        return (f"{proposal}: already measured at {number(speedup)}× — keep it, but it does not decide the regime;"
                " the measurement above does")
    return f"{proposal}: too early — until the measurement above decides the regime, any fix is a guess"


def _unsynced(s: Symptoms) -> Verdict | None:
    """The verdict where the one time was taken without a synchronize: the rest of the symptoms read without it.

    That time is the launch's, so it decides nothing (the rate it implies, often beyond a roof, is the anomaly);
    the placement gives at most a leaning, and what to measure next is the run re-timed with a synchronize.
    """
    o = s.observed
    if not o.timed_without_sync or o.time is None:
        return None
    p = placement(s)
    a = achieved(s, p)
    implied = ""
    if a.flops_fraction is not None and a.flops_fraction > ABOVE_COMPUTE_ROOF:
        implied = f" (read as the run's, it would be {a.flops_fraction:.0%} of the card's peak FLOP/s, which no kernel reaches)"
    elif a.bandwidth_fraction is not None and a.bandwidth_fraction > ABOVE_ROOF:
        implied = f" (read as the run's, it would be {a.bandwidth_fraction:.0%} of the card's bandwidth, which no kernel reaches)"
    rest = classify(replace(s, observed=replace(o, time=None, timed_without_sync=False)))
    anomalies = [words.unsynced_line(o.time, implied), *rest.anomalies]
    if rest.regime is not None:  # something else measured decides it
        return replace(rest, anomalies=anomalies)
    return replace(rest, anomalies=anomalies, needs=words.UNSYNCED_RETIME)


def tokens_beyond_floor(s: Symptoms) -> bool:
    """Whether the symptoms' token rate beats its weights' floor: an anomaly of what was measured, not an error."""
    p = placement(s)
    return words.tokens_beyond_floor(s, p, achieved(s, p), ABOVE_ROOF)


def classify(s: Symptoms) -> Verdict:
    """Read the regime from the symptoms."""
    unsynced = _unsynced(s)
    if unsynced is not None:
        return unsynced
    p = placement(s)
    a = achieved(s, p)
    evidence: list[str] = []
    anomalies = words.anomaly_lines(s, p, a, ABOVE_ROOF, ABOVE_COMPUTE_ROOF)
    if _sync_beyond_serial(s):
        anomalies.append(words.SYNC_BEYOND_SERIAL)
    sub = (_comm_rule(s, a, evidence) or _idle_rules(s, a, evidence) or _launch_count_rule(s, p, a, evidence)
           or _shrink_rule(s, evidence) or _launch_scale_rule(s, p, a, evidence) or _roof_rule(s, p, a, evidence))
    if sub is None:
        _far_from_both(a, p, evidence)
    if p is not None and not any(line.startswith(words.roofline_line(p)) for line in evidence):
        evidence.append(words.roofline_line(p))
    elif p is None and s.work is not None:
        evidence.append(f"work: {_f(s.work.intensity, Dim.INTENSITY)} ({number(s.work.flops)} FLOPs over"
                        f" {_f(s.work.bytes, Dim.BYTE)}); no card is named to place it against a ridge")
    evidence.extend(_noted(s))
    if sub is None:
        waste = _early_proposal(s)
        return Verdict(None, evidence or ["nothing measured here decides the regime"], "", waste, anomalies,
                       _needs(s, p, a), p, p.bound if p is not None else None, s.notes)
    work_kind = str((s.work_spec or {}).get("kernel", "raw")) if s.work is not None else None
    regime, said = kind_advice(sub, work_kind, s.dtype, s.observed.fused_speedup)
    helps, wastes = said.helps, said.wastes
    proposed = recognise(s.proposal) if s.proposal else []
    # A host sync is cured only by removing it, a starved loader only by feeding it (levers.json 'fits').
    kind = sub if sub in ("host", "loader") else regime
    measured = _already_measured(s, proposed)
    if measured is not None and not fits(proposed, kind):  # a gain on record is kept, not called a waste
        helps = (f"{helps}. The proposal, {s.proposal.strip()}, is already measured at {number(measured)}×: keep it,"
                 f" but it is not what limits {a_kernel(regime)}")
    elif proposed and not fits(proposed, kind):
        wastes = f"{_proposal_and_lever(s.proposal.strip(), proposed)}: it does not help {a_kernel(regime)}" + (
            {"loader": " whose GPU is starved of input", "host": " whose GPU idles while the CPU waits for it"}.get(kind, ""))
    elif proposed and (doubts := [by_id(i).doubt(sub) for i in proposed if by_id(i).doubt(sub)]):
        on_record = f" (measured: {number(measured)}×)" if measured is not None else ""
        helps = f"{helps}. The proposal, {s.proposal.strip()}, may not{on_record}: {doubts[0]}"
    elif proposed:
        on_record = f", already measured at {number(measured)}×" if measured is not None else ""
        helps = f"{s.proposal.strip()}, as proposed — it fits{on_record}; more broadly: {helps}"
    return Verdict(regime, evidence, helps, wastes, anomalies, "", p, None, s.notes, sub)


def _noted(s: Symptoms) -> list[str]:
    """Measurements people report that are not a regime: said, and said to decide nothing."""
    o, out = s.observed, []
    if o.occupancy is not None:
        out.append(f"{number(o.occupancy * 100, 2)}% occupancy is noted and decides nothing:"
                   " occupancy is not a regime (Rule 4)")
    if o.sm_active is not None:
        out.append(f"{words.percent(o.sm_active)} SM active is noted and decides nothing: busy SMs can be waiting on memory")
    if o.gpu_utilization is not None and o.gpu_utilization > IDLE_UTILIZATION:
        out.append(f"GPU utilisation {words.percent(o.gpu_utilization)} only says a kernel was running, not that the SMs or"
                   " memory were busy: it decides nothing")
    return out
