"""A pass means every claim was checked: each number in an evidence line accounted for, or the line not passed.

Each kind of claim the grader reads is held both ways: a right line of the kind passes (or, where nothing in
it decides, is at least not failed), a wrong one fails, and a claim the grader cannot check makes the line
"could not tell", naming it, never a pass.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading import claims
from regime_core.grading.grade import grade
from regime_core.grading.language import normalise

ANSWER = {"regime": "", "helps": "", "wastes": ""}


def _evidence(item: str, text: str) -> dict[str, Any]:
    check: dict[str, Any] = grade({"part_a": {item: {**ANSWER, "evidence": text}}})["items"][item]["checks"]["evidence"]
    return check


# (incident, a right line, a wrong line of the same kind, words the wrong line's feedback names)
PAIRS = [
    # a right deciding number beside a wrong claim about it
    ("a1", "70% of peak, so 30% of the FLOP/s is left on the table",
     "70% of peak, so the tensor cores are idle 70% of the time", "not of the time"),
    ("a2", "1.7 of 2.0 TB/s: 15% of the bandwidth left unused",
     "85% of the bandwidth left unused", "what is left is 15%"),
    # a hypothetical that states a result
    ("a5", "62% of peak; even at 100% the prefill would take ~112 ms",
     "62% of peak — at 100% the prefill would take 80 ms", "112 ms"),
    # speed-ups and percent changes, both ways
    ("a5", "62% of peak; 180 → 80 ms needs a 2.25× speed-up",
     "62% of peak; 180 → 80 ms is a 44% speed-up", "−55.6%"),
    ("a7", "ITL 8 → 14 ms, +75% per token", "ITL 8 → 14 ms, +175%", "+75%"),
    # rates and times
    ("a4", "38 tok/s is 26 ms per token, faster than the 47 ms floor", "38 tok/s is 38 ms per token, under the floor",
     "26.3 ms"),
    # headroom from a fraction of a roof
    ("a1", "70% of peak, so at most 1.43× headroom", "70% of peak, so 3.3× headroom left", "1.43×"),
    # room said to be left under a roof the measured rate is already past
    ("a4", "14 GB / 300 GB/s ≈ 47 ms ⇒ 21 tok/s; 38 tok/s runs 38/21 ≈ 1.8× past it with no headroom left",
     "14 GB / 300 GB/s ≈ 47 ms ⇒ 21 tok/s; at 38 tok/s, 38/21 ≈ 1.8× headroom is still left", "past what the roof"),
    ("a4", "floor 47 ms ≈ 21 tok/s, yet 38 tok/s measured; with int8 weights there is 2× to gain",
     "floor 14 GB / 300 GB/s ≈ 47 ms/tok ≈ 21 tok/s; at 38 tok/s a faster kernel has 2x to gain",
     "past what the roof allows"),
    # a config's key carries the unit of its value
    ("a4", "weight_bytes: 14GB\nfloor_ms_per_token: 47\nfloor_tok_per_s: 21",
     "weight_bytes: 14GB\nfloor_ms_per_token: 47\nfloor_tok_per_s: 47", "21.4 tok/s"),
    # a part of the time said to hold most of it, or to be the whole
    ("a6", "40,000 × 8 µs = 320 ms of gaps, most of the request",
     "40,000 kernels × 2 µs = 80 ms of compute per request; that is where the time goes", "hold most of it"),
    ("a7", "kernels unchanged, 8 → 14 ms, so 6 ms per token is the .item() sync",
     "kernels unchanged, so the whole 14 ms per token is the .item() sync", "the change costs"),
    # every fix bounded by the smaller part of the time
    ("a6", "2 + 8 = 10 µs a launch, 40,000 × 10 µs = 400 ms: at best any fix gives 5×, the gaps gone",
     "2 + 8 = 10 µs a launch, 40,000 × 10 µs = 400 ms: the best any fix can do is 400 → 320 ms, 1.25×",
     "not any fix"),
    # a measured speed-up said to come from the share of the roof left unused
    ("a2", "1.7 TB/s on 2.0 TB/s is 85%: the remaining 15% buys at most 1.18×, so compile's 3.8× comes from moving"
           " fewer bytes",
     "1.7 TB/s on 2.0 TB/s is 85%, so compile's 3.8× must come from using the remaining 15% of bandwidth",
     "not from using more of the roof"),
    # read after the thirteenth set was spent: the headroom's working in brackets; room said in the next clause;
    # a speed-up on the same roof past what is left under it (the target's need, or a lever that changes the work or
    # the roof, may go past it)
    ("a1", "70% of peak: remaining headroom 1/0.7 ≈ 1.43×", "70% of peak: remaining headroom 1/(1−0.7) ≈ 3.3×",
     "1 ÷ what is left"),
    ("a4", "14 GB / 300 GB/s = 46.7 ms → 21.4 tok/s ceiling; 38 tok/s is 1.8× past it, so no room is left",
     "14 GB / 300 GB/s = 46.7 ms → 21.4 tok/s ceiling. 38 tok/s is 1.8× off that ceiling, so there's room to double",
     "past what the roof allows"),
    ("a1", "70% of peak, ~1,360 FLOP/B, 8.7× the ridge of 156; tuning could make the GEMM at most 1.43× faster",
     "70% of peak, ~1,360 FLOP/B, 8.7× the ridge of 156, so the GEMM could yet be made 8.7× faster",
     "needs less work or another roof"),
    ("a5", "62% of peak; 180 → 80 ms needs 2.25× faster, past the 1.61× tuning can give",
     "62% of peak; a good GEMM tune could roughly triple it", "needs less work or another roof"),
    ("a6", "the kernels occupying 20% of the timeline (2 µs of every 10)",
     "the kernels occupying 80% of the timeline (8 µs of every 10)", "not busy 80%"),
    ("a3", "8×32×32 is 1/16,384 the size of the A2 tensor and the time hardly moves off ~12 µs",
     "8×32×32 is 1/4,096 the size of the A2 tensor and the time hardly moves off ~12 µs", "not 4,096×"),
    # a regime's cause set off by dashes; the idle part of the time blamed on memory; the 6 ms placed in kernels the
    # incident says are unchanged
    ("a5", "62% is well short of peak, yet the tensor cores — the math — set the time",
     "62% is well short of peak, so something other than the tensor cores — memory — is the limit",
     "describes a memory-bound kernel"),
    ("a3", "~12 µs, way faster than A2, and 1.08× from compile: launch-scale",
     "12 µs is way faster than A2 so it's memory-bound, smaller tensor = less time", "memory-bound"),
    ("a3", "12 µs against the 3.8× of A2 means it is launch-bound",
     "12 µs against the 3.8× of A2 means it is memory-bound", "memory-bound"),
    ("a6", "2 µs on, 8 µs off: the gaps are launch overhead, not HBM",
     "the 8 µs gaps are HBM recovering between launches; busy 2/10 = 20%", "puts the time on moving bytes"),
    ("a7", "kernels unchanged, so the added 6 ms lies in the host wait on .item(), not in the kernels",
     "kernels unchanged, so the added 6 ms must lie within the matmul and attention kernels", "unchanged"),
    # the headroom said to be enough for a change it cannot give; the memory roof said reached where launches set the
    # time; the regime said to be beyond telling where the symptoms decide it
    ("a5", "62% of peak; 1/0.62 ≈ 1.61× headroom, not enough to take 180 ms to 80 ms",
     "62% of peak; 1/0.62 ≈ 1.61× headroom, which is enough to take 180 ms to 80 ms", "needs 2.25×"),
    ("a3", "~12 µs both; bandwidth is nowhere near peak at 32 KB",
     "achieved bandwidth must still be near peak: ~12 µs for the tensor", "contradict"),
    ("a8", "HBM saturated decides it; 55% occupancy cannot decide anything (Rule 4)",
     "occupancy at 55% and a saturated HBM conflict; without a profiler we cannot say", "the symptoms decide"),
    # the same slip worked out, its × left off
    ("a1", "70% of peak ⇒ speed-up ≤ 1/0.7 ≈ 1.43", "70% of peak, headroom 0.3 ⇒ speed-up ≤ 1/0.3 ≈ 3.3",
     "1 ÷ what is left"),
    ("a5", "62% of peak ⇒ the speed-up is at most 1/0.62 ≈ 1.6",
     "62% of peak, 38% left ⇒ the speed-up is at most 1/0.38 ≈ 2.6", "1 ÷ what is left"),
    # a floor in its unit (a card the incident does not name, from the catalogue)
    ("a8", "70 GB at 3.35 TB/s is ~21 ms per step, saturating HBM",
     "70 GB at 3.35 TB/s is ~21 µs per step, saturating HBM", "power of ten"),
    # a busy share from on/off times
    ("a6", "2 µs on / 8 µs off = 80% idle", "2 µs on, 8 µs off: busy 2/8 = 25%", "they run is 2 µs ÷ (2 µs + 8 µs) = 20%"),
    ("a6", "2 µs on, 8 µs off: busy 2/10 = 20%", "2 µs on, 8 µs off: busy 2/8 = 25%", "they run is 2 µs ÷ (2 µs + 8 µs) = 20%"),
    # a unit prefix
    ("a5", "62% of an H100's 990 TFLOP/s", "62% of an H100's 990 GFLOP/s", "datasheet"),
    # an incident's figure attached to another quantity
    ("a8", "HBM saturated; the 55% is occupancy, which is not a regime", "55% of peak bandwidth, HBM saturated",
     "occupancy"),
    # products
    ("a6", "40,000 launches × 10 µs = 400 ms per request, GPU idle 80%",
     "40,000 launches × 10 µs = 40 ms per request, GPU idle 80%", "400 ms"),
    # an achieved rate from a share of the named card's peak
    ("a5", "0.62 × 989 ≈ 613 TFLOP/s achieved", "0.62 × 989 ≈ 613 GFLOP/s achieved", "power of ten"),
    # a speed multiplier as a change in time or in speed
    ("a2", "85% of peak bandwidth; compile 3.8× faster, i.e. −74% latency",
     "85% of peak bandwidth; compile 3.8× faster, i.e. −380% latency", "73.7% less time"),
    # a change said with its direction: 6 ms on 8 ms is 75% more time, and 43% is the share of the new step
    ("a7", "ITL 8 → 14 ms: 6 ms more, +75% time per token", "ITL 8 → 14 ms: 6/14 = 43% more time per token", "42.9% of the whole"),
    # LaTeX as people type it
    ("a7", r"ITL rises by $\frac{14-8}{8} = 75\%$ after the .item() was added",
     r"ITL rises by $\frac{14-8}{8} = 57\%$ after the .item() was added", "75%"),
    # a size said beside the memory's state is traffic, not a card's capacity (an H200 holds 141 GB)
    ("a8", "70B int8 = 70 GB per step, HBM saturated", "70B int8 = 140 GB per step, HBM saturated",
     "another format's bytes per value"),
    # a rate from the incident's own count over a time: no prefix was left off the count
    ("a5", "62% of peak; 4096 / 180 ms ≈ 22,756 tokens/s of prefill", "62% of peak; 4096 / 180 ms ≈ 22.8 tokens/s of prefill",
     "is 22756 tok/s"),
    # a percent change off the speed-up, named against what it gives in time and in speed
    ("a3", "~12 µs both ways; compile gives 1.08×, an 8% improvement", "~12 µs both ways; compile gives 1.08×, an 80%"
     " improvement", "+8% speed), not 80%"),
    # the same with the speed-up neither cited nor named: off the change it gives by a power of ten, the nearer of
    # speed and time
    ("a3", "~12 µs both ways; the change bought an 8% improvement", "~12 µs both ways; the change bought an 80%"
     " improvement", "in speed, 8%, by a power of ten"),
]


@pytest.mark.parametrize(("item", "right", "wrong", "named"), PAIRS, ids=[p[2][:40] for p in PAIRS])
def test_a_kind_of_claim_passes_right_and_fails_wrong(item: str, right: str, wrong: str, named: str) -> None:
    good, bad = _evidence(item, right), _evidence(item, wrong)
    assert good["passed"] is True, good
    assert bad["passed"] is False, bad
    assert named in bad["why"], bad["why"]


@pytest.mark.parametrize(("item", "text", "unchecked"), [
    # the learner's own estimate of the KV cache: nothing in the incident checks it
    ("a8", "70 GB of int8 weights plus ~5 GB of KV read per step, HBM saturated", "5 GB"),
    ("a3", "12 µs eager against ~3 µs compiled", "3 µs"),
    # a multiplier's own sign is not working: "10×" claims a speed-up (the gaps gone give 5×)
    ("a6", "2 µs on, 8 µs off: busy 20%. Removing the dry spells would give 10× more throughput", "“10”"),
    # a small plain number is a figure, not a count, unless it is one of the incident's shares or multipliers
    # (said "above the ridge" it is checked, and wrong: tests/test_grading_blind_kinds.py)
    ("a1", r"$I = \frac{bytes}{FLOPs} = \frac{1.01e8}{1.37e11} \approx 7.4e-4$, compute-bound at 70% of peak", "7.4e-4"),
    # a speed-up the target is said to need is no claim that tuning reaches it: not held to the roof, and not checked
    ("a5", "62% of peak; to hit 80 ms the prefill must get 3× faster, and tuning gives 1.61× at most", "“3”"),
    # a batch's tokens over a step's time is no time read as a rate (233 ms a token would be 4.3 tok/s): not a slip,
    # and not checked
    ("a8", "70 GB a step at 2.0 TB/s is at least 35 ms per step, so at most ~229 tok/s across the batch of 8",
     "“229 tok/s"),
    # the roof said to be where tuning takes the kernel is no what-if
    ("a5", "62% of peak: tune the GEMMs to 100% of peak", "100%"),
])
def test_a_claim_that_cannot_be_checked_is_named_and_never_passes(item: str, text: str, unchecked: str) -> None:
    check = _evidence(item, text)
    assert check["passed"] is None, check
    assert "not checked" in check["why"], check["why"]
    assert unchecked in check["why"], check["why"]
    marks = {m["passed"] for m in check["claims"]}
    assert None in marks, check["claims"]
    assert True in marks, check["claims"]


def test_each_claim_is_listed_with_its_mark() -> None:
    check = _evidence("a6", "2 µs on, 8 µs off: busy 2/10 = 20%")
    assert check["passed"] is True
    assert all(m["passed"] is True for m in check["claims"]), check["claims"]
    assert {"claim", "passed", "why"} <= set(check["claims"][0])
    wrong = _evidence("a1", "70% of peak, so the tensor cores are idle 70% of the time")
    assert [m["passed"] for m in wrong["claims"]] == [True, False]


@pytest.mark.parametrize(("item", "text"), [
    ("a3", "well under 1 µs of real work in 12 µs"),  # a bound, read as a bound
    ("a3", "on the big tensor compile won 3.8×, here only 1.08× at ~12 µs"),  # A2's figure, set beside A3's
    ("a4", "floor 46.7 ms a token; int8 would halve it to 23 ms"),  # a what-if with its result
    ("a1", "AI = 2*4096^3 / (3*4096^2*2) ≈ 1365, far above 156"),  # exponents and the arithmetic's counts
    ("a7", "ITL jumped 8→14 ms, nearly 2× slower, kernels the same"),  # a hedged multiplier
    ("a3", "12 µs for both; shrinking 4x wouldn't change it (rule 3)"),  # the drill's own rules
    ("a2", "85% of peak bandwidth, and compile made it 3.8× faster"),  # a change said of 3.8×, not of 85%
    ("a1", "tensor cores busy at 70% of peak"),  # busy at a share of the roof: no claim about the time
    # a bracket the reader does not evaluate is not taken for arithmetic on the last result (1 − 8/14 = 42.9%)
    ("a7", "ITL 8 → 14 ms: 125 → 71.4 tok/s, a drop of (125 − 71.4)/125 = 42.9%"),
    ("a5", "62% of peak. Needed speed-up = 180 / 80 = 2.25×. Time cut = (180 − 80) / 180 = 55.6%"),
    ("a2", "85% of peak bandwidth; compile 3.8× faster: +280% throughput"),
    # small plain numbers that are the incident's shares and multipliers, written without % or ×
    ("a6", "2 µs on, 8 µs off: busy 0.2 of the time"),
    # figures right but written plainly: millions of elements, the roof itself in a what-if, a unit conversion, a
    # ratio without its ×, a percent change said without its sign
    ("a2", "x.shape = (8, 4096, 4096) -> 134M elements; eager hits 1.7/2.0 = 0.85 of peak bandwidth"),
    ("a3", "tensor is 16,384x smaller than A2's (8,192 vs ~134M elements) but time is ~12 µs"),
    ("a5", "62% of peak tensor FLOP/s; even a perfect kernel (100% of peak) gets only to ~112 ms (180 × 0.62)"),
    ("a7", "In [1]: 1000/8, 1000/14 Out[1]: (125.0, 71.4) kernels unchanged"),
    ("a5", "62% of peak. required speed-up = 180/80 = 2.25, more than 1/0.62 ≈ 1.61"),
    ("a6", "busy = 2/(2+8) = 20%; ceiling if the gaps vanish: 5.0"),
    ("a1", "70% of peak: FP8 could make it 2× faster"),
    # read after the thirteenth set was spent: right lines its grading marked wrong
    ("a1", "70% of peak, ~1.36e3 FLOP/B against a ridge of 156: memory-bound ruled out by intensity"),
    ("a3", "~12 µs both, compile only 1.08×; the 3.8× traffic win is gone because there was never much traffic"),
    ("a3", "~12 µs on 8,192 elements; the same chain on 16,384× the data (A2) was memory-bound"),
    ("a2", "each op reads and writes the whole 134M-element buffer at 1.7 of 2.0 TB/s"),
    ("a3", "~12 µs both; compiled 12 / 1.08 = 11.1 µs, saving 0.9 µs (7.4%)"),
    ("a7", "a 6 ms penalty per token — 75 per cent — with the kernels unchanged"),
    # the other part named between a time and "most of the time", or a question, says nothing of that time
    ("a6", "every 2 µs of kernel is followed by 8 µs of nothing, 40,000 times (400 ms): what is the GPU doing most of"
           " the time?"),
    ("a6", "each 2 µs kernel is followed by an 8 µs idle gap, so launch cost dominates the request"),
    ("a6", "busy 20%: 2 µs of kernel, then nothing for most of the time"),
    ("a6", "2 µs on, 8 off: tuning the kernels, the best any fix of them can do is 1.25×"),
    ("a6", "busy 20% (40,000 × 2 µs = 80 ms). are the 80 ms of kernels where the time goes? no"),
    ("a1", "70% of peak; headroom 1/0.7 = 1.43 at most"),
    ("a2", "1.7 of 2.0 TB/s = 85%; compiled takes ~0.26 of the eager time"),
    ("a3", "~12 µs both; compile 1.08× faster, nowhere near the threefold win of A2"),  # A2's 3.8×, said roughly
    ("a6", "2 µs on, 8 µs off: busy 20%; with the gaps gone it runs 5× faster (10 µs → 2 µs)"),
])
def test_right_lines_of_every_shape_pass(item: str, text: str) -> None:
    check = _evidence(item, text)
    assert check["passed"] is True, check


def test_a_contrast_with_the_context_incident_is_not_this_incident_s_figure() -> None:
    assert _evidence("a3", "compile made it 3.8× faster here, so launches dominate")["passed"] is False


def test_a_speed_up_the_rest_of_the_roof_can_give_may_come_from_it() -> None:
    """At 85% of the roof the rest buys up to 1.18×: a 1.1× said to come from it is no slip; a 3.8× is."""
    facts = claims.Facts.read(["85% of peak bandwidth"], ["compile is 1.1× faster", "compile is 3.8× faster"])

    def wrong(text: str) -> str:
        lowered = normalise(text)
        return claims.judge(facts, claims.read(lowered), lowered).wrong

    assert wrong("85% of peak bandwidth, so the 1.1× must come from using the remaining 15%") == ""
    assert "at most 1 ÷ 85% = 1.18×" in wrong("85% of peak bandwidth, so the 3.8× must come from using the remaining 15%")
