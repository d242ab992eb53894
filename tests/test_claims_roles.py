"""What a line says of its numbers and its regime, held both ways: the role a figure plays, a reason that
argues another regime, numbers and units in words, and the arithmetic written around them.

Each kind comes from answers the grader had not seen (the two spent sets in ``bench/grading``): a right line
of the kind passes, or at least is not failed; a wrong one fails, naming why.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.grade import grade
from regime_core.grading.language import with_units

ANSWER = {"regime": "", "evidence": "", "helps": "", "wastes": ""}


def _check(item: str, field: str, text: str) -> dict[str, Any]:
    check: dict[str, Any] = grade({"part_a": {item: {**ANSWER, field: text}}})["items"][item]["checks"][field]
    return check


# (incident, field, a right line, a wrong line of the same kind, words the wrong line's feedback names)
PAIRS = [
    # a regime whose own reason argues another regime, or occupancy
    ("a1", "regime", "Compute-bound (tensor cores busy)", "Compute-bound, because the memory bus is full",
     "memory-bound kernel"),
    ("a2", "regime", "memory-bound: HBM is saturated", "# memory-bound: ALUs saturated by the 4 ops",
     "compute-bound kernel"),
    ("a3", "regime", "overhead-bound, not memory-bound", "Overhead-bound, because the DRAM bandwidth is saturated",
     "the regime and its reason must agree"),
    ("a8", "regime", "memory-bound (occupancy is not a regime)", "Memory-bound, because the occupancy is only 55%",
     "Rule 4"),
    # an evidence clause that says another regime sets the pace
    ("a4", "evidence", "14 GB / 300 GB/s ≈ 47 ms a token: the weights' bytes are the limit",
     "At 38 tokens a second the card's math units are the bottleneck.", "holds the time, not the math"),
    ("a6", "evidence", "2 µs of kernel, 8 µs of gap: the GPU idles 80%",
     "The 8 µs gaps are the kernels waiting on HBM, which is why utilisation is only 2/10 = 20%.",
     "a memory-bound kernel"),
    # a time in the role of the other span of the timeline
    ("a6", "evidence", "gaps of 8 µs between 2 µs kernels", "picket fence of 8 µs kernels separated by 2 µs gaps",
     "gap (idle) time"),
    # the incident's "before" with another "after", and an arrow that is not a bound
    ("a7", "evidence", "ITL 8 -> 14 ms after .item()", "ITL 8 -> 12 ms after .item()", "not to 12 ms"),
    # a result written with its own power of ten
    ("a2", "evidence", "8 × 4096 × 4096 ≈ 1.34e8 elements; 1.7e12 of 2.0e12 B/s",
     "8 × 4096 × 4096 ≈ 1.34e10 elements; 1.7e12 of 2.0e12 B/s", "power of ten"),
    # a unit spelt out after a number in words
    ("a8", "evidence", "seventy billion int8 weights is seventy gigabytes read every step",
     "seventy billion int8 weights is seventy terabytes read every step", "power of ten"),
    # headroom is a most, not a least
    ("a1", "evidence", "70% of peak: tuning can give at most another 1.43×",
     "At 70 per cent of peak, further tuning is guaranteed to yield at least another 1.43×.", "not the least"),
    # occupancy's complement is not idle SMs
    ("a8", "evidence", "HBM is saturated; the 55% occupancy decides nothing",
     "HBM is saturated, and at 55 per cent occupancy some 45 per cent of the SMs sit idle.", "warps resident"),
    # a side of the ridge said as "more than" or "less than" it
    ("a4", "evidence", "about 1 FLOP per byte, far less than the ridge",
     "about 1 FLOP per byte, much more than the ridge of the L4", "below the ridge"),
    # a ridge the learner names, on the incident's card
    ("a1", "evidence", "1365 FLOP/byte vs a ridge of 156", "1365 FLOP/byte vs a ridge of 15.6", "card's ridge is 156"),
    # the kernels' share of the time, said as what the kernels are, or busy in another language
    ("a6", "evidence", "2 µs kernel, 8 µs gap: the kernels are 20% of the wall time",
     "2 µs kernel, 8 µs gap: the kernels are 80% of the wall time", "busy 20%"),
    ("a6", "evidence", "2 µs de kernel, 8 µs de hueco: la GPU está ocupada el 20% del tiempo",
     "2 µs de kernel, 8 µs de hueco: la GPU está ocupada el 80% del tiempo", "busy 20%"),
    # a speed-up said of taking the gaps away: the whole time over the kernels' time
    ("a6", "evidence", "2 µs on, 8 µs off: removing the gaps entirely gives a 5× speed-up",
     "2 µs on, 8 µs off: removing the gaps entirely gives a 4× speed-up", "÷ 2 µs = 5×, not 4×"),
    ("a6", "evidence", "Busy 20% of the time; with no gaps the request would run 5 times faster",
     "Busy 20% of the time; with no gaps the request would run 4 times faster", "= 5×, not 4×"),
    # a time said to be saved is what the incident's speed-up saves
    ("a3", "evidence", "~12 µs both ways; compile's 1.08× saves about 0.9 µs a call",
     "~12 µs both ways; compile's 1.08× saves about 8 µs a call", "= 889 ns, not 8 µs"),
    # a slipped figure stated before a what-if in its sentence is still the incident's, slipped
    ("a5", "evidence", "62% of peak; TTFT is 180 ms and needs to get to 80 ms",
     "62% of peak; TTFT is 180 µs and needs to get to 80 µs", "off the incident's 180 ms"),
    # a time a token turned into a rate keeps its number only by mistake: the rate is its inverse
    ("a4", "evidence", "14 GB / 300 GB/s ≈ 47 ms per token, so the max is ~21 tok/s",
     "14 GB / 300 GB/s ≈ 47 ms per token, so the max is ~47 tok/s", "= 21.4 tok/s, not 47 tok/s"),
    ("a7", "evidence", "ITL 8 → 14 ms: from 125 tok/s down to ~71 tok/s",
     "ITL 8 → 14 ms: from 125 tok/s down to 14 tok/s", "= 71.4 tok/s, not 14 tok/s"),
    # a share of the roof the incident measures, said as another share
    ("a2", "evidence", "1,7 of 2,0 TB/s = 85% of peak bandwidth, near the limit",
     "1,7 of 2,0 TB/s = 75% of peak bandwidth, near the limit", "measures 85% of peak bandwidth, not 75%"),
    # a percent said of the incident's speed-up is one of what it gives
    ("a2", "evidence", "1.7 of 2.0 TB/s; compile is 3.8× faster, so it needs about 26% of the eager time",
     "1.7 of 2.0 TB/s; compile is 3.8× faster, so it needs about 38% of the eager time", "leaves 26.3% of the time"),
    ("a3", "evidence", "~12 µs; compiling makes it 1.08× faster, which cuts the time by about 7%",
     "~12 µs; compiling makes it 1.08× faster, which cuts the time by about 80%", "not 80%"),
    # a side of a card's ridge named by the card
    ("a4", "evidence", "Intensity about 1 FLOP per byte, far below the L4 ridge",
     "Intensity about 1 FLOP per byte, comfortably above the L4 ridge", "below the ridge, not above"),
    # a multiplier that is the incident's before → after ratio, said the right way round
    ("a7", "evidence", "ITL 8 → 14 ms, so decode became 1.75× slower per token",
     "ITL 8 → 14 ms, so decode became 1.75× faster per token", "1.75× slower, not faster"),
    # a headroom written to its digits, and a bound on it
    ("a1", "evidence", "70% of peak, so at most a 1.4x speed-up is left", "70% of peak, so at most a 1.3x speed-up is left",
     "= 1.43×"),
    # two of the line's figures compared
    ("a4", "evidence", "Floor 14 GB / 300 GB/s ≈ 47 ms ≈ 21 tok/s; measured 38 tok/s is above that 21 tok/s",
     "Floor 14 GB / 300 GB/s ≈ 47 ms ≈ 21 tok/s; measured 38 tok/s is below that 21 tok/s",
     "38 tok/s is above 21 tok/s, not below it"),
    # what a time is, named by the words before it and not by the next figure's
    ("a6", "evidence", "Each car drives 2 µs then waits 8 µs at a light: the road is in use 20% of the time",
     "Each car drives 8 µs then waits 2 µs at a light: the road is in use 20% of the time", "gap (idle) time"),
    # a share worked in words from "a of b"
    ("a2", "evidence", "1.7 of 2.0 TB/s, so about 85% of the pipe in use", "1.7 of 2.0 TB/s, so about 70% of the pipe in use",
     "of peak bandwidth, not 70%"),
    # a rise worked out, said after its direction word: a change, held to the change
    ("a7", "evidence", "ITL 8 → 14 ms: a 6 ms stop, so ITL rose 6/8 = 75%", "ITL 8 → 14 ms: a 6 ms stop, so ITL rose 6/14 = 43%",
     "not a change of 43%"),
    # a bound on what compile can give that the incident's own speed-up beats
    # a percent of the speed-up in the role its words give it, with compile named and no figure
    ("a2", "evidence", "1.7 of 2.0 TB/s = 85%; compile cuts the time by about 74%",
     "1.7 of 2.0 TB/s = 85%; compile cuts the time by 38%", "not 38%"),
    ("a2", "evidence", "1.7 of 2.0 TB/s = 85%; 3.8×, so compile makes it 280% faster",
     "1.7 of 2.0 TB/s = 85%; 1/3.8 = 0.26, so compile makes it 26% faster", "not a change of 26%"),
    # a multiplier said of reaching the peak is a headroom
    ("a1", "evidence", "70% of peak: 1.43× faster if we reach the peak",
     "70% of peak: 3.3× faster if we reach the peak", "= 1.43×"),
    # a floor slipped by a millionfold
    ("a3", "evidence", "~12 µs; 16 KB at 2 TB/s is about 8 ns of transfer", "~12 µs; 16 KB at 2 TB/s is about 8 ms of"
     " transfer", "8 ns, not 8 ms"),
    # a config's keys carry their units
    ("a6", "evidence", "kernel_us: 2\ngap_us: 8\ngpu_busy_pct: 20", "kernel_us: 2\ngap_us: 8\ngpu_busy_pct: 80",
     "busy 20%"),
    # a share of one roof said of the other roof's units, in a lever line too; a share of the time said of a roof
    ("a2", "evidence", "1.7 of 2.0 TB/s: the memory bus is 85% loaded", "1.7 of 2.0 TB/s means the ALUs are 85% loaded",
     "not of peak FLOP/s"),
    ("a2", "wastes", "A tensor-core rewrite: the chain is at 85% of peak bandwidth, so faster math buys nothing",
     "A tensor-core rewrite: the multiplies already take 85% of the runtime, so there is nothing left to win",
     "not of peak FLOP/s"),
    ("a6", "evidence", "2 µs on, 8 µs off: the GPU is busy only 20% of the time",
     "2 µs on, 8 µs off: the kernel uses only 20% of the memory bandwidth", "a share of the time, not of peak bandwidth"),
    # a multiplier said to be above or below the ridge says the kernel's side; a side is denied only by the words
    # right before it, not by a "cannot" later in the clause
    ("a1", "evidence", "70% of peak TFLOP/s, about 8.7× above the ridge", "70% of peak TFLOP/s, about 8.7× below the ridge",
     "kernel is 8.7× above the ridge, not below"),
    ("a1", "evidence", "70% of peak; 1360 FLOP/byte sits above the ridge of 156 where memory cannot be the limit",
     "70% of peak; 1360 FLOP/byte sits below the ridge of 156 where the tensor cores cannot be fed", "not below"),
    # a speed-up the incident did not measure is one it derives only to its written digits
    ("a2", "evidence", "1.7 of 2.0 TB/s; compiled, the chain is 3.8× faster", "1.7 of 2.0 TB/s; compiled, the chain is"
     " only 1.08× faster", "it says 3.8×"),
    # a size said against the incident this one is set beside is held to their tensors' ratio (Rule 3's "shrinking
    # 4×" names no other incident and is the rule's)
    ("a3", "evidence", "~12 µs both ways, though the tensor is 16,384× smaller than A2's",
     "~12 µs both ways, though the tensor is 4× smaller than A2's", "16,384× smaller than A2's"),
    ("a3", "evidence", "The tensor shrank 16384x (from 8·4096·4096 to 8·32·32), yet time sits at ~12 µs",
     "The tensor shrank 4096x (from 8·4096·4096 to 8·32·32), yet time sits at ~12 µs", "not 4096×"),
    # a bound with its working between it and the multiplier, beaten by the measured speed-up
    ("a2", "evidence", "1.7 of 2.0 = 85% of peak bandwidth, leaving 15% headroom for faster eager kernels",
     r"$\frac{1.7}{2.0}=85\%$ of peak bandwidth, so fusion can gain at most $\frac{1}{0.85}\approx1.18\times$",
     "measured 3.8× from it"),
    # what is left under the roof, said beside its own number; the time at full rating is the measured time's
    ("a5", "evidence", "62% of peak; at full rating it'd run 180 × 0.62 ≈ 112 ms, over the 80 ms target",
     "62% of peak leaves 38% headroom; at full rating it'd run 180 × 0.38 ≈ 68 ms, under the 80 ms target",
     "180 ms × 62% = 112 ms, not 68 ms"),
    # a perfect kernel is the roof reached: a multiplier said of it is the headroom
    ("a1", "evidence", "70% of peak: a perfect GEMM would be about 1.43× faster",
     "70% of peak: a perfect GEMM would be only 1.3× faster", "= 1.43×, not 1.3×"),
    # a change said the other way round: the time rose 75%, its rate fell 43%
    ("a7", "evidence", "ITL rose 8 → 14 ms, kernels unchanged, so throughput fell by 43%",
     "ITL rose 8 → 14 ms, kernels unchanged, so throughput fell by 75%", "a rise of 75%, not a fall"),
    # read after the eleventh set's report: what the GPU does said before "a of every b"; "N% of the time" of a
    # roof's share; a kernel twice as fast and the request "from 400 to 320 ms"; taking the gaps away in a lever line
    ("a6", "evidence", "2 µs kernel, 8 µs gap: GPU busy 2 of every 10 µs, 20%",
     "2 µs kernel, 8 µs gap: GPU busy 8 of every 10 µs, 80%", "8 µs is the gap time"),
    ("a5", "evidence", "62% of the tensor peak: the math units are at 62% of their roof",
     "62% of the tensor peak, meaning 62% of the time the saw is sitting idle", "not of the time"),
    ("a6", "wastes", "Optimising the 2 µs kernel: even the kernel twice as fast brings the request only from 400 ms to"
     " 360 ms", "Optimising the 2 µs kernel: even the kernel twice as fast brings the request only from 400 ms to 320 ms",
     "= 1.11× faster, not 1.25×"),
    ("a6", "helps", "Fuse or CUDA-graph the launches; removing the gaps gives up to 10/2 = 5×",
     "Fuse or CUDA-graph the launches; the most removing the gaps gives is 1/0.8 = 1.25×", "= 5×, not 1.25×"),
    # what is left, said right beside its number; a headroom said to be sure, in a lever line too
    ("a1", "evidence", "70% of peak; only 30% left, so at most about 1.43×", "70% of peak; only 70% left, so at most about 1.43×",
     "what is left is 30%"),
    ("a1", "helps", "Retune the GEMM tiles: a win of at most 1/0.7 ≈ 1.43×",
     "Retune the GEMM tiles: a guaranteed win of exactly 1/0.7 ≈ 1.43×", "not exactly"),
    # what is left under the roof said as the share reached; said as left (before or after "of peak") it is right
    ("a2", "evidence", "1.7 TB/s on a 2.0 TB/s card, so only 15% of peak is left for faster kernels",
     "1.7 TB/s on a 2.0 TB/s card — only 15% of peak — so fusion has plenty of room", "15% is what is left"),
    ("a1", "evidence", "70% of peak TFLOP/s: at most 30% of rated power remains, about 1.43×",
     "70% of peak TFLOP/s reported, so the kernel reaches 30% of peak and has room", "30% is what is left"),
    # 1 ÷ what is left taken for the headroom, even said as a bound
    ("a1", "evidence", "70% of peak TFLOP/s, so 30% is left: up to 1.43× faster if we reach the peak",
     "70% of peak TFLOP/s, so 30% is left: up to 3.3× faster if we reach the peak", "1 ÷ what is left"),
    # the share used said as left, after its unit; occupancy said of empty slots
    ("a2", "evidence", "1.7 TB/s of 2.0 TB/s: 85% of the delivery rate is in use, 15% is left",
     "1.7 TB/s of 2.0 TB/s: 85% of the delivery rate is sitting unused", "what is left is 15%"),
    ("a8", "evidence", "HBM saturated at 55% occupancy: those warps are parked waiting on DRAM",
     "HBM saturated; 55% occupancy means 55% of the warp slots are sitting empty", "filled, not empty"),
    # a change is worked between a step's two ends only: 14 ms → 6 ms (the jump itself) is no "57% drop"
    ("a7", "evidence", "ITL 8 → 14 ms after .item(); from 125 to 71 tok/s, a 43% drop",
     "ITL 8 → 14 ms after .item(); from 125 to 71 tok/s, a 57% drop", "not 57%"),
    ("a2", "evidence", "1.7 of 2.0 TB/s = 85%: faster eager kernels can give at most ~1.18×, and compile gave 3.8×",
     "1.7 of 2.0 TB/s = 85%: only 15% headroom, so compile can give at most ~1.18×", "measured 3.8× from it"),
]


@pytest.mark.parametrize(("item", "text"), [
    # an amount saved by a what-if of the line's own is not a slip of the incident's total
    ("a6", "2 µs kernel + 8 µs gap = 10 µs; 40,000 × 10 µs = 400 ms; even a kernel 2x faster only saves 40 ms"),
    # a share of the ridge is not a share of a roof
    ("a8", "HBM ~100% used; 70 GB per step over 8 sequences ≈ 16 FLOP/byte, roughly 10% of a ~156 ridge"),
    # a dot for thousands
    ("a1", "70% of peak TFLOP/s; intensity ~1.360 FLOP/byte (4096/3), way above a ridge of ~156"),
    # a speed-up in words said of the incident set beside this one, near its figure
    ("a3", "~12 µs both; compile wins by only 1.08, so the threefold-and-more win of A2 is not on offer for this chain"),
])
def test_right_lines_of_these_shapes_are_not_failed(item: str, text: str) -> None:
    check = _check(item, "evidence", text)
    assert check["passed"] is not False, check




@pytest.mark.parametrize(("item", "text"), [
    ("a8", "≈ 16 FLOP/B, far below a ~156 FLOP/B ridge; HBM is reported saturated."),  # any card's ridge, no card named
    ("a5", "62% of peak tensor FLOP/s; even at 100% it's 180 x 0.62 ≈ 112 ms > 80 ms target"),  # a comparison
    ("a5", "62% of peak; 180 ms against a target of eighty"),  # a figure with its unit left to the sentence
    ("a5", "sixty-two percent of peak; one hundred eighty milliseconds to eighty needs two and a quarter times"),
    ("a6", "2 µs of work, then busy a fifth of the time: a request takes four tenths of a second"),
    ("a6", "# 40_000 * (2us + 8us) = 0.4 s per request; busy = 2/10 = 20%"),
    ("a1", "seventy percent of peak FLOP/s; two times 4096 cubed is about one hundred thirty-seven billion FLOPs"),
    ("a1", "FLOPs = 2·4096³ = 1.374×10¹¹. Intensity ≈ 1365 FLOP/B; 70% of peak FLOP/s"),
    ("a2", "• 1.7 TB/s achieved vs 2.0 TB/s peak → 85%\n• compile 3.8× faster on identical math"),  # a list's lines
    ("a2", "1.7 of 2.0 TB/s: at most a 1.18× gain from making eager kernels faster, yet compile delivers 3.8×"),
])
def test_right_lines_of_these_shapes_pass(item: str, text: str) -> None:
    check = _check(item, "evidence", text)
    assert check["passed"] is True, check


def test_a_what_if_reaches_the_end_of_its_sentence() -> None:
    # "int8 would halve the bytes to 7 GB, 23 ms": the 23 ms is the what-if's, not a slip off 46.7 ms.
    assert _check("a4", "evidence", "14 GB / 300 GB/s ≈ 47 ms; int8 would halve the bytes to 7 GB, 23 ms")["passed"] \
        is not False


@pytest.mark.parametrize(("text", "read"), [
    ("seventy terabytes", "70 TB"),
    ("one point seven gigabytes a second", "1.7 GB/s"),
    ("990 teraflops", "990 Tflop/s"),
    ("a hundred twenty-five", "125"),
    ("two and a quarter times", "2.25×"),
    ("one and three quarter times", "1.75×"),
    ("busy a fifth of the time", "busy 20% of the time"),
    ("four tenths of a second", "0.4 s"),
    ("4096 cubed", "4096³"),
    ("40_000 launches", "40000 launches"),
    ("one kernel", "one kernel"),  # "one" alone stays a word
    ("the kernels were waiting", "the kernels were waiting"),  # a real word is not "corrected" to "writing"
    # a speed-up in words
    ("a threefold win", "a 3× win"),
    ("compile doubled the speed", "compile 2× faster"),
    ("throughput tripled", "3× faster"),
    ("twice as fast", "2× faster"),
    ("doubling the batch", "doubling the batch"),  # said of a size, not of the speed
])
def test_numbers_and_units_in_words_are_read(text: str, read: str) -> None:
    assert with_units(text) == read


@pytest.mark.parametrize(("item", "wastes"), [
    ("a2", "Faster arithmetic"), ("a2", "Optimise the arithmetic (more FLOPs per second); the ALUs are not the limit"),
    ("a2", "Faster or lower-precision math: each element needs ~4 FLOPs; compute is not the limit."),
    ("a3", "bandwidth or math tuning"), ("a3", "Memory or math optimisation"), ("a3", "chasing DRAM throughput"),
    ("a6", "polishing the two-microsecond kernel"), ("a6", "Chasing SOL on the 2 µs kernels"),
])
def test_a_waste_said_in_other_words_is_read(item: str, wastes: str) -> None:
    assert _check(item, "wastes", wastes)["passed"] is True


@pytest.mark.parametrize(("item", "wastes"), [
    ("a1", "Faster arithmetic"),  # compute-bound: faster math is the lever, not the waste
    ("a2", "moving fewer bytes"),  # memory-bound: moving fewer bytes is the lever
])
def test_the_same_words_refusing_the_lever_that_fits_fail(item: str, wastes: str) -> None:
    assert _check(item, "wastes", wastes)["passed"] is False


def test_stopping_the_host_read_is_removing_it_and_a_bound_on_tuning_offers_nothing() -> None:
    assert _check("a7", "helps", "stop calling .item() every token")["passed"] is True
    assert _check("a7", "helps", "call .item() every token to check")["passed"] is False
    bounded = _check("a1", "helps", "FP8 tensor cores or more GPUs; kernel tuning has at most 1/0.7 ≈ 1.43× left.")
    assert bounded["passed"] is True, bounded
    assert _check("a1", "helps", "kernel tuning")["passed"] is False


def _part_c(paragraph: str) -> dict[str, Any]:
    checks: dict[str, Any] = grade({"part_c": paragraph})["items"]["part_c"]["checks"]
    return checks


def test_what_part_c_says_of_an_incident_is_checked_as_that_incident() -> None:
    right = ("A fused kernel is good when memory traffic or launches are the limit: for example A6, where the GPU is"
             " idle 80% of the time, and fusion removes the launches. When the math is the limit, fusion does not"
             " reduce the FLOPs and the week is wasted.")
    wrong = right.replace("idle 80%", "busy 80%")
    assert _part_c(right)["number"]["passed"] is True
    bad = _part_c(wrong)["number"]
    assert bad["passed"] is False
    assert bad["why"].startswith("Of A6:"), bad
    # Words before an incident's name are not said of it ("wasted on A1 at 70% of peak" is no idle share).
    assert _part_c("Fusion pays for A2 at 1.7 TB/s of 2.0 and is wasted on A1 at 70% of peak FLOP/s, where the"
                   " math sets the time.")["number"]["passed"] is True


@pytest.mark.parametrize(("item", "field", "text"), [
    ("a7", "helps", "Remove that per-token read."), ("a7", "helps", "move the stop check onto the GPU"),
    ("a4", "helps", "Move less data: compress the weights further, share attention key/value heads"),
    ("a3", "wastes", "memory-path tuning"), ("a6", "wastes", "Making each little job faster."),
    ("a2", "wastes", "Any effort on making the arithmetic faster."), ("a4", "wastes", "The proposed faster-math kernel"),
    ("a2", "wastes", "Try to make the multiply and add faster, the math is not the problem."),
    ("a6", "wastes", "Refining the kernels themselves, which are already well written"),
    ("a7", "wastes", "Re-engineering the matmul and attention kernels."), ("a7", "wastes", "Reworking matmul/attention."),
    ("a7", "wastes", "profiling the attention kernel and tuning it"),
    ("a7", "wastes", "to make matmul and attention kernel more fast"),
    ("a6", "wastes", "Optimising the 2 µs DSP routine."), ("a6", "wastes", "anti_levers: [kernel_micro_tuning]"),
    ("a6", "wastes", "Spending engineering hours on the 2 µs kernels."),
    ("a6", "wastes", "Die 2-µs-Kernel weiter optimieren."),
    ("a7", "helps", "read the value only every few steps"), ("a7", "helps", "take out the item call"),
    ("a7", "helps", "Take the scalar read out of the per-token path."), ("a7", "helps", "fix: remove_per_token_item"),
    ("a7", "helps", "Supprimer la lecture côté hôte à chaque token."),
    ("a4", "wastes", "The faster-math attention kernel."), ("a1", "helps", "Couldn't a second GPU split the work?"),
    ("a1", "helps", "Autotune tiles to squeeze out a bit more."),
    ("a7", "wastes", "Retuning the matmul or attention kernels."), ("a7", "wastes", "Re-planing the matmul/attention kernels."),
    ("a7", "wastes", "A new attention kernel is a blunder."), ("a7", "wastes", "Don't send crews to the matmul/attention kernels."),
    ("a6", "wastes", "Rewriting the already-good 2 µs kernel."), ("a6", "wastes", "Don't commit crews to the 2 µs kernel."),
    ("a2", "wastes", "Trying to make each separate kernel faster."), ("a3", "wastes", "Hand-cutting a bandwidth-perfect kernel."),
    ("a8", "wastes", "Cut register for more occupancy."),
])
def test_levers_in_these_words_are_read(item: str, field: str, text: str) -> None:
    assert _check(item, field, text)["passed"] is True


# Kinds read after the third set was spent (bench/grading/fresh-2026-12-04b.json): each both ways.
MORE_PAIRS = [
    # a complement written as arithmetic
    ("a2", "evidence", "85% of peak bandwidth; compile cuts run time by 1 − 1/3.8 ≈ 74%",
     "85% of peak bandwidth; compile cuts run time by 1 − 1/3.8 ≈ 50%", "73.7%"),
    # a fraction beside its percent is one share, not a unit shared
    ("a2", "evidence", "Bandwidth: 1.7 / 2.0 = 0.85 → 85% of peak.", "Bandwidth: 1.7 / 2.0 = 0.58 → 58% of peak.",
     "1.7 / 2.0"),
    # a bound under a negation turns over
    ("a1", "evidence", "70% of peak TFLOP/s; I wouldn't expect more than another ~1.4× even in theory.",
     "70% of peak TFLOP/s; I would expect at least another ~1.4× from tuning.", "not the least"),
    # headroom said as exact
    ("a1", "evidence", "70% of peak: at most 1.43× is left on the table",
     "At 70% of peak, a properly tuned kernel would run exactly 1.43× faster", "not exactly"),
    # a roof share called occupancy
    ("a2", "evidence", "The eager chain runs at 1.7 of 2.0 TB/s, i.e. 85% of peak bandwidth.",
     "The eager chain runs at 1.7 of 2.0 TB/s, i.e. 85% occupancy.", "not its occupancy"),
    # a change with its direction said before it
    ("a7", "evidence", "8 ms → 14 ms, so ITL is up 75%", "8 ms → 14 ms, so throughput is down 75%",
     "a rise of 75%, not a fall; its rate falls by 42.9%"),
    # a share's label before its arithmetic
    ("a6", "evidence", "Busy share = 2/10 = 20%.", "Busy share = 2/8 = 25%.", "2 µs ÷ (2 µs + 8 µs) = 20%"),
    # a card's memory size is not the bytes a kernel moves
    ("a8", "evidence", "70B int8 = 70e9 × 1 B = 70 GB of weights read per step, HBM saturated",
     "70B int8 = 70e9 × 2 B = 140 GB of weights read per step.", "factor of 2"),
    # sentences that deny the regime
    ("a6", "evidence", "2 µs of kernel, 8 µs of gap: the GPU idles 80%",
     "The GPU is mostly busy; the gaps are small next to the kernels.", "contradict"),
    ("a2", "evidence", "1.7 of 2.0 TB/s: the bandwidth is nearly saturated",
     "• card has lots of spare bandwidth; eager is nowhere near peak", "contradict"),
    ("a3", "evidence", "12 µs eager and compiled: launch-scale, the work is tiny",
     "• the GPU is busy computing for the whole 12 µs", "contradict"),
]


def test_a_learners_own_count_is_not_a_slip_off_another_way_to_count() -> None:
    # Read + write of the fp32 tensor is 64 KiB; the core's floor counts one pass. Their exact arithmetic stands.
    text = ("Elements = 8·32·32 = 8192. Even at 4 B each, read + write = 65,536 B; at 2 TB/s that takes"
            " 65,536 / 2e12 ≈ 3.3e-8 s. Measured ~12 µs is far longer, so it isn't memory.")
    assert _check("a3", "evidence", text)["passed"] is not False


@pytest.mark.parametrize(("side", "read"), [("• below", True), ("memory side, way down", True),
                                            ("much under the ridge", True), ("0.33 < 156 → memory side (470× below)", True),
                                            ("compute side", False), ("1 > 156 → compute side", False)])
def test_a_side_in_these_words_is_read(side: str, read: bool) -> None:
    rows = {"add": {"intensity": "• 0.33", "side": side, "optimisation": "fusion"}}
    check = grade({"part_b": {"ridge": "156", "kernels": rows}})["items"]["part_b"]["checks"]["add"]
    assert check["passed"] is read, check


@pytest.mark.parametrize(("paragraph", "passed"), [
    ("Fusion pays when bytes set the time, as for A2 at 1.7 of 2.0 TB/s; it cannot help A1's matmul at 70% of peak"
     " FLOP/s, since fusing the relu leaves its FLOPs untouched.", True),
    ("Fusion pays when bytes set the time, as for A2 at 1.7 of 2.0 TB/s; it is also right for big matmuls, because"
     " fusing a relu into a GEMM cuts the GEMM's FLOPs.", False),
    # fusion said to raise the bandwidth, not to cut the bytes
    ("Fusion raises effective bandwidth: A2's compiled chain is 3.8× faster, so it's right for memory-bound chains; for"
     " A1 at 70% of peak TFLOP/s it doesn't help, the math is the limit.", False),
    ("Fusion cuts the bytes moved: A2's compiled chain is 3.8× faster on the same 2.0 TB/s, so it's right for"
     " memory-bound chains; for A1 at 70% of peak TFLOP/s it doesn't help, the math is the limit.", True),
    ("Fusion raises the throughput by cutting the bytes moved, not by increasing the bandwidth: A2's chain is 3.8×"
     " faster; for A1 at 70% of peak TFLOP/s it doesn't help.", True),
])
def test_part_c_s_fusion_check_reads_what_fusion_is_said_to_do(paragraph: str, passed: bool) -> None:
    assert _part_c(paragraph)["fusion"]["passed"] is passed


# Kinds read after the fourth set was spent (bench/grading/fresh-2026-12-04c.json): each both ways.
FOURTH_PAIRS = [
    # a difference written as arithmetic ("x − a/b")
    ("a3", "evidence", "12 µs either way; compile 1.08× saves 12 - 12/1.08 ~ 0.9 µs",
     "12 µs either way; compile 1.08× saves 12 - 12/1.08 ~ 3 µs", "12 − 12 / 1.08"),
    # a decimal comma, and dots as thousands beside it
    ("a6", "evidence", "2 µs de kernel, 8 µs de hueco: 40.000 kernels × 10 µs ≈ 0,4 s por petición",
     "2 µs de kernel, 8 µs de hueco: 40.000 kernels × 10 µs ≈ 0,04 s por petición", "power of ten"),
    # "nowhere near" denies what follows
    ("a1", "evidence", "70% of peak TFLOP/s; ~1360 FLOP/B, nowhere near memory-limited",
     "70% of peak TFLOP/s; ~1360 FLOP/B, so memory-limited", "memory-bound kernel"),
    # an operand in the result's own unit: no prefix was left off ("40,000 × 8 µs = 320 µs")
    ("a6", "evidence", "40,000 × 8 µs = 320 ms of gaps per request, the GPU idles 80%",
     "40,000 × 8 µs = 320 µs of gaps per request, negligible.", "power of ten"),
    # 100% − a share of a roof is no time spent waiting
    ("a5", "evidence", "62% of peak: 38% of the FLOP/s is left unused", "62% of peak means 38% of the time its stalled on memory",
     "says nothing of how long"),
    # saturating the SMs is a compute-bound kernel
    ("a7", "evidence", "ITL 8 → 14 ms with the same kernels: 6 ms of host wait per token",
     "The 6 ms increase shows the matmuls are now saturating the SMs.", "compute-bound kernel"),
    # a model's size is billions of parameters ("7B × 2 bytes")
    ("a4", "evidence", "7B × 2 bytes = 14GB of weights per token at 300GB/s → ~47 ms/tok",
     "7B × 2 bytes = 14MB of weights per token at 300GB/s → ~47 ms/tok", "power of ten"),
]


def test_algebra_on_a_variable_is_not_arithmetic_on_its_coefficients() -> None:
    text = "intensity = 2n^3/(3·2n^2) = n/3 ≈ 1365 FLOP/byte at n=4096; 70% of peak tensor throughput"
    assert _check("a1", "evidence", text)["passed"] is True


def test_a_tab_ends_a_clause() -> None:
    # A row pasted from a spreadsheet: "TTFT now 180 ms" is not the what-if of the cells after it.
    text = "TTFT now\t180 ms\ttarget\t80 ms\tcurrent util\t62%\tmax speed-up at 100%\t1.61x\tbest TTFT same HW\t111.6 ms"
    assert _check("a5", "evidence", text)["passed"] is True


@pytest.mark.parametrize(("row", "fields", "passed"), [
    ("matmul", {"intensity": "1.37e11 / 1.01e8 ≈ 1356 FLOP/B", "side": "above", "optimisation": "tensor cores, tiling"},
     True),
    ("add", {"intensity": "0.33", "side": "below", "optimisation": "better tiling to reuse each byte"}, True),
    ("add", {"intensity": "≈ 0,33 FLOP/Byte", "side": "unterhalb des Ridge", "optimisation": "Bytes sparen: Fusion"}, True),
    ("matmul", {"intensity": "about thirteen fifty six flops per byte", "side": "muy por encima",
                "optimisation": "make the math faster tensor cores"}, True),
    ("matmul", {"intensity": "≈ 1356 FLOP/Byte", "side": "unterhalb des Ridge", "optimisation": "tensor cores"}, False),
    ("add", {"intensity": "≈ 3,3 FLOP/Byte", "side": "below", "optimisation": "fusion"}, False),
    # the arithmetic written in a row is checked, the intensity's and the optimisation's
    ("matmul", {"intensity": "about 1,356 FLOP/byte, namely 1,356 / 156 ≈ 8.7 times above the ridge", "side": "above",
                "optimisation": "To improve the compute."}, True),
    ("matmul", {"intensity": "about 1,356 FLOP/byte, namely 1,356 / 156 ≈ 87 times above the ridge", "side": "above",
                "optimisation": "To improve the compute."}, False),
    ("decode", {"intensity": "≈1 FLOP/byte", "side": "below", "optimisation": "Cut bytes: quantise weights. The floor is"
                " 1.4e10 B ÷ 2.0 TB/s = 7 ms per token"}, True),
    ("decode", {"intensity": "≈1 FLOP/byte", "side": "below", "optimisation": "Cut bytes: quantise weights. The floor is"
                " 1.4e10 B ÷ 2.0 TB/s = 0.7 ms per token"}, False),
])
def test_part_b_rows_in_these_words(row: str, fields: dict[str, str], passed: bool) -> None:
    rows = {row: fields}
    check = grade({"part_b": {"ridge": "156", "kernels": rows}})["items"]["part_b"]["checks"][row]
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("ridge", "passed"), [
    ("312e12 ÷ 2.0e12 = 156 FLOP/byte", True),
    ("312e12 ÷ 2.0e12 = 156 FLOP/byte, so 1356 / 156 ≈ 87× above it for the matmul", False),
])
def test_the_arithmetic_written_beside_the_ridge_is_checked(ridge: str, passed: bool) -> None:
    check = grade({"part_b": {"ridge": ridge}})["items"]["part_b"]["checks"]["ridge"]
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("text", "passed"), [
    ("# 0.62 * 989e12 ≈ 6.1e14 FLOP/s; 180 ms * 0.62 ≈ 112 ms at 100% peak -> still > 80 ms", True),
    ("62% of peak; even at 100% it's 180 × 0.62 ≈ 112 ms", True),
    ("62% of peak; even at 100% it's 180/0.62 ≈ 290 ms", False),  # the arithmetic holds, the what-if does not
])
def test_a_time_said_at_the_roof_is_checked_as_the_roof_s(text: str, passed: bool) -> None:
    assert _check("a5", "evidence", text)["passed"] is passed


# Kinds read after the ninth set was spent (bench/grading/fresh-2026-12-04h.json): each both ways.
NINTH_PAIRS = [
    # a value right after "key: " is that key's: a config line's headroom and its roof
    ("a2", "evidence", "bw_util: 0.85\nheadroom_at_peak_bw: 1.18x", "bw_util: 0.85\nheadroom_at_peak_bw: 1.85x",
     "The headroom is 1 ÷ 85% = 1.18×, not 1.85×"),
    ("a1", "evidence", "achieved_flops_pct: 70  # of peak tensor TFLOP/s", "achieved_bw_pct: 70  # from the 70% figure",
     "70% is of peak FLOP/s, not of bandwidth"),
    # "a of every b" of the cycle, with what the GPU does then: its kernels' time, or the gaps'
    ("a6", "evidence", "2 µs of the 10 µs cycle the GPU is working; 40,000 launches",
     "8 µs of the 10 µs cycle the GPU is working hard; 40,000 launches", "2 µs of every 10 µs is the time its kernels run"),
    ("a6", "evidence", "Two of every ten microseconds the GPU toils; eight it rests.",
     "Eight of every ten microseconds the GPU toils; two it rests.", "8 µs is the gap time"),
    ("a6", "evidence", "8 of every 10 µs the GPU waits on the next launch", "2 of every 10 µs the GPU waits on the next"
     " launch", "8 µs of every 10 µs is the time it waits in the gaps; 2 µs is the kernel time"),
    # a bound said of anything at all, beaten by the speed-up the incident measured (fusion moves fewer bytes)
    ("a2", "evidence", "1.7/2.0 = 85%, so tuning the eager kernel can give at most 1.18x",
     "1.7/2.0 = 85%, so the most we could ever get is like 15% faster", "more than the most said (15% faster)"),
    ("a2", "evidence", "85%: at most 1.18× is left for the eager chain as it is",
     "1.7/2.0 = 85%, so at most 1.18x faster is possible", "incident measured 3.8×, more than the most said (1.18×)"),
    # "a of b, only c%": a share set after a comma is still a ÷ b
    ("a2", "evidence", "1.7 of 2.0 TB/s, about 85% of peak", "1.7 of 2.0 TB/s, only 58% of peak", "is 85%, not 58%"),
    # a busy share worked as on ÷ off, said with the verbs people use for working ("works", "the shaft is turning")
    ("a6", "evidence", "2 µs of kernel against 8 µs of gap, so the GPU works 2/10 = 20% of the time",
     "2 µs of kernel against 8 µs of gap, so the GPU works 2/8 = 25% of the time", "2 µs ÷ (2 µs + 8 µs) = 20%"),
    ("a6", "evidence", "2 µs of kernel against 8 µs of gap, so the shaft is turning 2/10 = 20% of the time",
     "2 µs of kernel against 8 µs of gap, so the shaft is turning 2/8 = 25% of the time", "2 µs ÷ (2 µs + 8 µs) = 20%"),
    # "k times below the peak" is a share of that roof, 1 ÷ k
    ("a2", "evidence", "its bandwidth is 1.18 times below the card's peak: 85%",
     "its bandwidth must sit 3.8 times below the card's peak", "3.8× below the peak is 26.3% of it"),
    ("a1", "evidence", "70% of peak, about 1.4x below the peak", "70% of peak, 3x below the peak",
     "the incident's figure is 70% of peak FLOP/s, 1.43× below it"),
    # a time said to be reached on the same card, faster than its roof allows (A5: 112 ms at 100% of peak)
    ("a5", "evidence", "62% of peak, so 180/1.61 ≈ 112 ms at best: no tuning can reach 80 ms on this one H100",
     "62% of peak, so 180/1.61 ≈ 112 ms, and with better kernels we reach 80 ms on this one H100",
     "At 100% of the roof it takes 180 ms × 62% = 112 ms: 80 ms is faster than this card's peak allows"),
    ("a5", "evidence", "62% of peak: with better kernels we reach about 120 ms on this H100, never 80",
     "62% of peak: tuning gets TTFT down to 70 ms on this H100", "70 ms is faster than this card's peak allows"),
    # a multiplier is no small count of the incident's (A2's "x * 2"): 1.85× is not taken for the 2
    ("a2", "evidence", "85% of 2.0 TB/s used; headroom 1.18×", "85% of 2.0 TB/s used; headroom 1.85×",
     "The headroom is 1 ÷ 85% = 1.18×, not 1.85×"),
]
# Kinds read after the eleventh set was spent (bench/grading/fresh-2026-12-04j.json): each both ways.
ELEVENTH_PAIRS = [
    # one end of a before → after said as what the change costs: the cost is their difference
    ("a7", "evidence", "ITL went from 8 to 14 ms; the .item() synchronisation therefore costs 6 ms per token",
     "ITL went from 8 to 14 ms; the .item() synchronisation therefore costs 14 ms per token",
     "the change costs 14 ms − 8 ms = 6 ms"),
    ("a7", "evidence", "8 → 14 ms a token: each token now costs 14 ms, an extra 6 ms from the host sync",
     "8 → 14 ms a token: an extra 14 ms per token from the host sync", "14 ms is the whole time after the change"),
    ("a7", "evidence", "ITL 8 ms → 14 ms, so 6 ms of added latency from the sync",
     "ITL 8 ms → 14 ms: the sync adds 8 ms a token", "8 ms is the whole time before the change"),
    # a bound the incident's reading gives (at most 21.4 tok/s) said as exact, or as the rate it runs at
    ("a4", "evidence", "Floor = 14 GB ÷ 300 GB/s ≈ 47 ms per token, so at most 21 tok/s; 38 tok/s is past it",
     "Floor = 14 GB ÷ 300 GB/s ≈ 47 ms per token, hence decode runs at exactly 21 tok/s",
     "not what it runs at: the incident measured 38 tok/s"),
    ("a4", "evidence", "14 GB / 300 GB/s: decode can reach 21 tok/s at best, and it reports 38",
     "14 GB / 300 GB/s ≈ 47 ms a token, so decode runs at 21 tok/s", "21 tok/s is a bound (at most 21.4 tok/s)"),
    # a token rate past its weights' floor is measured of more (batching, quantised weights), not an error
    ("a4", "evidence", "47 ms a token at bf16, so 38 tok/s is impossible unless the weights are quantised or batched",
     "Floor 14 GB / 300 GB/s ≈ 47 ms a token; the 38 tok/s figure is impossible and should be discarded",
     "a real measurement of more than the incident says"),
    # a time said to be reached by tuning on the same card, in a lever line too, is held to the card's roof
    ("a5", "helps", "Tune the GEMM kernels: at best TTFT reaches about 112 ms on this H100, never 80 ms",
     "Tune the GEMM kernels; that alone gets TTFT under 80 ms.", "80 ms is faster than this card's peak allows"),
    ("a5", "evidence", "62% of peak; FP8 or a second GPU gets TTFT under 80 ms",
     "62% of peak. Better kernels bring TTFT down to 80 ms on this H100", "faster than this card's peak allows"),
    # a clause after "so" that names what the kernel is
    ("a3", "evidence", "12 µs both ways and 1.08× from compile, so it's launches, not memory",
     "12 µs is way faster than a2 so its memory, smaller tensor = less time", "describes a memory-bound kernel"),
    # the cycle over the kernels' time (1 ÷ busy) is what removing the gaps gives, not what tuning the kernels can
    ("a6", "evidence", "busy 20% of the time, so removing the gaps would make it 5× faster; the kernels are fine",
     "The device is busy 20 per cent of the time, so the kernels could be made five times faster by tuning them.",
     "what the request gains with every gap gone"),
    ("a6", "evidence", "2 µs on, 8 µs off: kernels made 5 times faster give only 1.19× on the request",
     "busy 2/10 = 20%, so tuning could make the kernels 5× faster", "what the request gains with every gap gone"),
    # a speed-up said of this incident again, beside the one it measured, is held to it
    ("a3", "evidence", "~12 µs both. Compiled 1.08× faster, nowhere near the threefold win of A2",
     "~12 µs both. Compiled 1.08× faster means compile doubled speed here too, like in A2.",
     "2× is not this incident's figure: it says 1.08×"),
    # a byte count shared over a count the incident gives, written as the operand: per token, not bits for bytes
    ("a8", "evidence", "HBM saturated. 70 GB of weights, batch 8, so each token still costs 70/8 = 8.75 GB",
     "HBM saturated; 70B int8 weights = 70 GB / 8 = 8.75 GB read per step", "by a factor of 8"),
    # "a 30% gap to the peak" is what is left under the roof, not idle time; "left from 70%" starts from it
    ("a1", "evidence", "70% of peak TFLOP/s; 30% gap to the frontier.", "70% of peak TFLOP/s; 70% gap to the frontier.",
     "what is left is 30%"),
    ("a1", "evidence", ">>> 1/0.70   # max speed-up left from 70% of peak TFLOP/s\n1.4285714285714286",
     "70% of peak TFLOP/s, so 70% of the flops are left unused", "what is left is 30%"),
]
FOURTEENTH_PAIRS = [
    # a time named as saved after it ("4 µs saved") is what the speed-up saves
    ("a3", "evidence", "~12 µs both; compile 1.08× faster, so about 0.9 µs saved a call",
     "~12 µs both; compile 1.08× faster, so about 4 µs saved a call", "= 889 ns, not 4 µs"),
    ("a3", "evidence", "12 µs; compile 1.08x, 0.9 µs shaved off per call", "12 µs; compile 1.08x, 3 µs shaved off per call",
     "= 889 ns, not 3 µs"),
    # what a share is of, after its copula and far off
    ("a5", "evidence", "62% is roughly how much of the peak tensor throughput is in use",
     "62% is like how much of the memory bandwidth is being used", "62% is of peak FLOP/s, not of bandwidth"),
    # a rate past its roof said in words to sit under it, or to have room left
    ("a4", "evidence", "14 GB / 300 GB/s ≈ 47 ms a token: 38 tok/s is past what bandwidth allows at bf16, no headroom",
     "The floor is 14 GB / 300 GB/s ≈ 47 ms per token, so 38 tok/s is far below what bandwidth allows",
     "no room is left under it"),
    ("a4", "evidence", "47 ms a token at bf16 would cap it at 21 tok/s; 38 is past it, so if there were headroom left it"
     " would be after quantising", "47 ms a token at bf16; 38 tok/s leaves large headroom", "no room is left under it"),
    # a bound on what taking the gaps away gives holds only on its side of (on + off) ÷ on
    ("a6", "evidence", "t_k = 2 µs, t_g = 8 µs; eliminating the gaps yields ≤ 5×, whereas optimising the kernels yields"
     " ≤ 1.25×", "t_k = 2 µs, t_g = 8 µs; eliminating the gaps yields ≤ 1.25×, whereas optimising the kernels yields"
     " ≤ 5×", "= 5×, not at most 1.25×"),
    ("a6", "evidence", "2 µs on, 8 µs off: removing the gaps gives at least 3×",
     "2 µs on, 8 µs off: removing the gaps gives at most 3×", "not at most 3×"),
    # A7's 6 ms said to be an extra kernel, or the conversion of the number read
    ("a7", "evidence", "8 → 14 ms with the kernels unchanged: .item() adds no extra kernel, the host waits 6 ms a token",
     "8 → 14 ms: .item() launches an extra reduction kernel that costs 6 ms per token", "neither an extra kernel"),
    ("a7", "evidence", "8 → 14 ms: the conversion to a Python float takes nanoseconds; the 6 ms is the host waiting",
     "8 → 14 ms: that conversion on the CPU is what takes the extra 6 ms", "nor the conversion"),
    # a rate said to be reached past the card's roof, stated rather than worked
    ("a2", "evidence", "eager at 1.7 TB/s of 2.0, compiled 3.8× faster on the same roof: it moves fewer bytes",
     "eager at 1.7 TB/s, compiled 3.8× faster, so the compiled kernel runs at 6.5 TB/s", "beyond the card's"),
    # a time said at a share of the roof is the measured one, not the time at the roof
    ("a5", "evidence", "180 ms at 62% → at 100% about 112 ms, still above 80 ms",
     "180 ms at 62% → at 100% it would be 290 ms", "not 290 ms"),
    # what is left under a roof said as the time spent on the math
    ("a1", "evidence", "70% of peak FLOP/s; 30% of peak is left unused", "70% of peak FLOP/s, so only 30% of the time is"
     " spent on math", "100% − a share of a roof"),
    # a total of the kernels' time said of the gaps
    ("a6", "evidence", "40,000 × 10 µs = 400 ms per request, 320 ms of it gaps",
     "40,000 × 10 µs = 400 ms per request, 80 ms of it gaps", "the kernels' time (40k × 2 µs)"),
    # a memory-bound speed-up put on the math in other words
    ("a2", "evidence", "1.7 of 2.0 TB/s; compile 3.8× faster because it deletes the intermediates' round trips",
     "1.7 of 2.0 TB/s; compile 3.8× faster because it runs the math on tensor cores", "puts the time on the math"),
    # a share "of peak" with no roof named is of the one roof the incident measures
    ("a1", "evidence", "the matmul at 70% of peak, where the math sets the time",
     "the matmul at 90% of peak, where the math sets the time", "measures 70% of peak FLOP/s, not 90%"),
    ("a2", "evidence", "eager at 85% of peak; only 15% of peak is left", "eager at 75% of peak, a bandwidth kernel",
     "measures 85% of peak bandwidth, not 75%"),
    # read after the fourteenth set was spent (bench/grading/fresh-2026-12-05c.json)
    # the .item() named as what costs the whole time after the change
    ("a7", "evidence", "ITL went 8 → 14 ms, so the .item() itself costs 6 ms per token. Kernels unchanged.",
     "ITL went 8 → 14 ms, so the .item() itself costs 14 ms per token. Kernels unchanged.", "the change costs"),
    # occupancy given as the regime's cause, with a verb denied further on
    ("a8", "regime", "Memory-bound: HBM saturated; the 55% occupancy is not telling us the regime",
     "Memory-bound, because at 55% occupancy the SMs can't issue enough loads to pull the bytes in.", "Rule 4"),
    # A7's kernels said to be made heavier
    ("a7", "regime", "Host / sync: .item() makes the host wait each token; the kernels are unchanged",
     "Host / sync, because .item() makes the matmul kernels themselves heavier per token.", "kernels are unchanged"),
    # the card said to beat its own rated bandwidth, where the rate past the floor was measured of more
    ("a4", "evidence", "14 GB / 300 GB/s ≈ 47 ms a token; 38 tok/s is past that floor and no card beats its rated"
     " bandwidth",
     "14 GB / 300 GB/s ≈ 47 ms; at 38 tok/s the L4 delivers 14 × 38 ≈ 532 GB/s, beating its rated bandwidth",
     "no card moves bytes faster"),
    # a speed-up said to take one time to another it cannot reach
    ("a5", "helps", "FP8: doubling the tensor peak takes 180 ms to about 90 ms, and chunked prefill the rest",
     "FP8 alone will do it: doubling the tensor peak takes 180 ms to 80 ms.", "180 ms → 80 ms needs 2.25×"),
    # a count of things before an x is a product's operand; the learner's own count of tokens times the incident's time
    ("a1", "evidence", "2x4096^3 = 1.37x10^11 FLOP over 3 matrices x 4096^2 x 2 B ~ 1.0x10^8 B: ~1,365 FLOP/B",
     "2x4096^3 = 1.37x10^11 FLOP over 3 matrices x 4096^2 x 2 B ~ 1.0x10^9 B: ~1,365 FLOP/B", "not 1.0e9"),
    ("a7", "evidence", "8 → 14 ms a token; over a 1,000-token reply that's 8 s → 14 s",
     "8 → 14 ms a token; over a 1,000-token reply that's 8 s → 1.4 s", "power of ten"),
    # the matmul's output matrix in bytes is the incident's (a relu over it reads and writes it)
    ("a1", "evidence", "70% of peak TFLOP/s; the relu in front moves 4096x4096x2 B ≈ 34 MB each way",
     "70% of peak TFLOP/s; the relu in front moves 4096x4096x2 B ~ 33 GB each way", "power of ten"),
]
# Read in the fifteenth session, before its blind set was opened
FIFTEENTH_PAIRS = [
    # a time per token and the rate it is said to come to after "so", "or" or a comma
    ("a4", "helps", "int4 quantisation: 3.5 GB / 300 GB/s ~ 11.7 ms, so about 85 tokens per second ceiling.",
     "int4 quantisation: 3.5 GB / 300 GB/s ~ 11.7 ms, so about 43 tokens per second ceiling.",
     "1 ÷ 11.7 ms is 85.5 tok/s, not 43 tok/s (a factor of 2)."),
    ("a4", "helps", "int4 weights: 3.5 GB, so 11.7 ms/token, about 85 tok/s.",
     "int4 weights: 3.5 GB, so 11.7 ms/token, about 43 tok/s.", "not 43 tok/s"),
    ("a4", "evidence", "14 GB / 300 GB/s ≈ 47 ms, or about 21 tok/s at most; 38 tok/s is past it",
     "14 GB / 300 GB/s ≈ 47 ms, or about 30 tok/s at most; 38 tok/s is past it", "1 ÷ 47 ms"),
    # the roof reached said to take the measured time below what the roof allows
    ("a5", "helps", "Tune the GEMM toward 100% of peak: 180 ms → 112 ms at best; the rest needs FP8 or more GPUs",
     "Tune the GEMM up to 100% of peak, then 180 ms -> 80 ms can already lah.", "needs more than the roof"),
    ("a5", "evidence", "62% of peak; even at 100% of peak 180 ms only gets to 112 ms, so 80 ms needs more",
     "62% of peak; tune the GEMM up to 100% of peak, then 180 ms -> 80 ms", "180 ms × 62% = 112 ms, not 80 ms"),
    ("a5", "evidence", "62% of peak: at 100% of peak the 180 ms would drop to 112 ms",
     "62% of peak: at 100% of peak the 180 ms would drop to 80 ms", "= 112 ms, not 80 ms"),
    # a perfect kernel said to take away more than the kernels' part of the time
    ("a6", "evidence", "40,000 × 10 µs = 400 ms per request. A perfect kernel removes only 20% of that time",
     "40,000 × 10 µs = 400 ms per request. A perfect kernel removes 80% of that time", "20% of the time, not 80%"),
    ("a6", "wastes", "Micro-optimising the kernel: a perfect kernel can give at most 1.25×.",
     "Micro-optimising the kernel: a faster kernel can give at most 5×, but the gaps are the problem.",
     "= 1.25×, not 5×"),
    # compile offered for a big win, or another incident's, where it was measured near 1×
    ("a3", "helps", "torch.compile with CUDA graphs: fewer launches; fusion helps a little",
     "torch.compile gives us the big win again, as in A2.", "measured only 1.08× faster here"),
    ("a3", "helps", "Fusion still helps a little (fewer launches) but the 3.8× traffic win of A2 is gone.",
     "torch.compile to delete the intermediates, the same as A2.", "no big win to repeat"),
    # a speed-up said to be the change between two rates it is not the ratio of
    ("a2", "evidence", "The eager chain is at 1.7 TB/s of 2.0 TB/s; the 3.8x speed-up comes from deleting round trips.",
     "The eager chain is at 1.7 TB/s and the compiled one reaches the full 2.0 TB/s; that difference in bandwidth is"
     " the 3.8x speed-up.", "is 1.18×, not 3.8×"),
    ("a2", "evidence", "Eager at 1.7 of 2.0 TB/s is 85%; that gap to the roof is only 1.18×, so the 3.8× is fewer bytes.",
     "Eager at 1.7 of 2.0 TB/s, the gap to the roof explains the 3.8× compile gets.", "not the same bytes moved"),
    # a regime given with another regime's resource said to set the pace
    ("a1", "regime", "Compute-bound; the tensor cores are the limit, the relu's bytes are small next to the math",
     "Compute-bound, though really the memory traffic of the relu is what's holding it back.", "puts the time on moving"),
    ("a2", "regime", "Memory-bound: each op streams the whole tensor through HBM.",
     "Memory-bound — the launches between the four kernels eat the time.", "launches or the host"),
    ("a3", "regime", "Overhead-bound; 12 µs is the cost of launching, not of the work.",
     "Overhead: the math on 8k elements is what takes the 12 µs.", "puts the time on the math"),
    ("a5", "regime", "Compute-bound: prefill is one big batch of matmuls.",
     "Compute-bound, because the KV cache reads dominate prefill.", "moving bytes"),
    ("a5", "regime", "Compute-bound: the tensor cores are busy, prefill is one big GEMM.",
     "Compute-bound: the CPU can't feed the GPU fast enough.", "launches or the host"),
    ("a8", "regime", "Memory-bound: HBM is saturated.", "Memory-bound: the registers are the bottleneck.", "Rule 4"),
    # what the incident itself contradicts, in words
    ("a7", "evidence", "8 → 14 ms per token; the 6 ms is the host waiting for the GPU before it can read the value",
     "8 → 14 ms per token; the 6 ms is the PCIe copy of the logits back to the host.", "takes microseconds"),
    ("a7", "evidence", "8 → 14 ms per token, a 75% jump, all of it the CPU waiting on the GPU.",
     "8 → 14 ms per token, a 75% jump, all of it spent in the matmul waiting for the CPU.", "kernels are unchanged"),
    ("a8", "evidence", "HBM is saturated, so raising occupancy won't pull more bytes per second.",
     "HBM is saturated, so raising occupancy will pull more bytes per second.", "more resident warps"),
    ("a4", "evidence", "14 GB/300 GB/s = 47 ms a token floor; the weights' bytes take most of each token.",
     "14 GB/300 GB/s = 47 ms a token floor; 38 tok/s means the attention math takes most of each token.",
     "puts the time on the math"),
    ("a4", "evidence", "38 tok/s at batch 1: every token streams 14 GB of weights at 300 GB/s.",
     "38 tok/s at batch 1 is far below 300 GB/s, so the card is idle most of the time.", "launches or the host"),
    # arithmetic as people write it: a share of a figure, a size per step at a rate, a change named before its figure
    ("a1", "evidence", "70% of 312 TFLOP/s is 218 TFLOP/s achieved", "70% of 312 TFLOP/s is 281 TFLOP/s achieved",
     "is 218 TFLOP/s, not 281"),
    ("a8", "evidence", "HBM saturated: 70 GB per step at 3.35 TB/s is about 21 ms per step.",
     "HBM saturated: 70 GB per step at 3.35 TB/s is 2.1 ms per step.", "a power of ten"),
    ("a7", "evidence", "ITL 8 → 14 ms; throughput fell from 125 to 71 tok/s, a drop of 43%.",
     "ITL 8 → 14 ms; throughput fell from 125 to 71 tok/s, a drop of 75%.", "not a fall"),
    ("a5", "evidence", "62% of peak; going 180 → 80 ms is a 2.25x speedup, and we only have 1.6x left.",
     "62% of peak; going 180 → 80 ms is a 2.5x speedup, and we only have 1.6x left.", "2.5"),
    ("a5", "evidence", "62% of peak; 180 ms down to 80 ms means cutting 56% of the time.",
     "62% of peak; 180 ms down to 80 ms means cutting 125% of the time.", "is a cut of 55.6%"),
    # a time said to be reached on the same card by perfect kernels, past what its roof allows
    ("a5", "evidence", "62% of peak: at 100% the prefill would take 62% of 180 ms = 112 ms, still short of 80 ms",
     "At 100% the prefill would take 62% of 180 ms = 112 ms, so perfect kernels reach the 80 ms target",
     "faster than this card's peak allows"),
    # a rate and the time per token it is said to come to; a rate past its floor said to be slower than it
    ("a4", "evidence", "38 tok/s, so each token's 26 ms, under the 47 ms floor.",
     "38 tok/s, so each token's 38 ms, right at the 47 ms floor.", "1 ÷ 38 tok/s is 26.3 ms, not 38 ms"),
    ("a4", "evidence", "14 GB/300 GB/s = 47 ms; 38 tok/s is 26 ms, so we're 1.8× faster than the floor allows.",
     "14 GB/300 GB/s = 47 ms; 38 tok/s is 26 ms, so we're 1.8× slower than the floor.", "not slower"),
    # a part of the time called the whole of it
    ("a6", "evidence", "40,000 launches at 8 µs each = 320 ms, most of the request.",
     "40,000 launches at 8 µs each = 320 ms, that's the whole request.", "not the whole"),
    # the kernels said to slow down, occupancy said to double the bandwidth, compile said to cut FLOPs
    ("a7", "evidence", "8 → 14 ms, +6 ms, which is the host waiting on .item(); the kernels are unchanged.",
     "8 → 14 ms, +6 ms, which is the kernels slowing down by 75%.", "kernels are unchanged"),
    ("a8", "evidence", "Saturated HBM, 55% occupancy: doubling occupancy would change nothing.",
     "Saturated HBM, 55% occupancy: doubling occupancy would double the bandwidth.", "more resident warps"),
    ("a2", "helps", "torch.compile to delete the round trips.", "torch.compile to bring the FLOPs down.", "FLOP"),
    # an intensity is a quotient, never a bare count of the incident's (a batch of 8, 2 FLOPs a weight)
    ("a8", "evidence", "70 GB of int8 weights per step at batch 8 = 16 FLOP per byte, far under any ridge.",
     "70 GB of int8 weights per step at batch 8 = 8 FLOP per byte, far under any ridge.", "16 FLOP/byte"),
    ("a4", "evidence", "At batch 1 decode does 2 FLOPs per 2-byte weight: 1 FLOP/byte, far under the L4's ridge.",
     "At batch 1 decode does 2 FLOPs per 2-byte weight: 2 FLOP/byte, far under the L4's ridge.", "1 FLOP/byte"),
    # terms added up
    ("a6", "evidence", "Each cycle is 2 + 8 = 10 µs, busy 2/10 = 20%.", "Each cycle is 2 + 8 = 12 µs, busy 2/12 = 17%.",
     "2 + 8 is 10, not 12 µs"),
    ("a6", "evidence", "2 µs + 8 µs = 10 µs a cycle; 40,000 × 10 µs = 400 ms.", "2 µs + 8 µs = 12 µs a cycle.",
     "is 10 µs, not 12 µs"),
    # compile said to slow down what it was measured to speed up
    ("a3", "evidence", "Eager 12 µs, compiled 11 µs: compile is 1.08× faster, barely.",
     "Eager 12 µs, compiled 11 µs, so compile made it 8% slower.", "measured 1.08× faster here"),
    # a sum whose operand is named before its "=" ("8 µs of gap = 320 ms")
    ("a6", "evidence", "40,000 launches × 8 µs of gap = 320 ms of gaps per request.",
     "40,000 launches × 8 µs of gap = 320 µs of gaps per request.", "is 320 ms, not 320 µs"),
    # read after the fifteenth set was spent (bench/grading/fresh-2026-12-05d.json)
    # a time and the rate an arrow takes it to
    ("a4", "evidence", "14 GB of weights a token; 14 GB / 300 GB/s ≈ 47 ms → about 21 tok/s. Reported 38 tok/s.",
     "14 GB of weights a token; 14 GB / 300 GB/s ≈ 47 ms → about 2.1 tok/s. Reported 38 tok/s.", "not 2.1 tok/s"),
    # the math called the slow part of a memory-bound chain
    ("a2", "evidence", "Compile gives 3.8×: the intermediates' round trips were the slow part; 1.7 of 2.0 TB/s.",
     "Compile gives 3.8x, which means the maths was the slow part. 1.7 TB/s is just the number it reports.",
     "puts the time on the math"),
    # tuning said to clear a time past the roof
    ("a5", "helps", "Tune the kernels toward peak; that gets about 112 ms at best, so add FP8 for 80 ms.",
     "Tune the kernels toward peak; that clears 80 ms.", "faster than this card's peak allows"),
    # A7's time said to be spent inside a kernel
    ("a7", "evidence", "ITL rises 8 → 14 ms: +6 ms per token, all of it the host waiting at .item().",
     "ITL rises 8 → 14 ms: +6 ms per token, all of it now spent inside the attention kernel.", "kernels are unchanged"),
    # the ceiling with every gap gone said to be what a lever is sure to give
    ("a6", "helps", "CUDA graphs: with the gaps gone the request could approach 80 ms, at most 5× faster.",
     "CUDA graphs. They will take the request from 0.4 s to exactly 0.08 s, a guaranteed 5×.", "the ceiling"),
    ("a6", "evidence", "2 µs on, 8 µs off: removing the gaps gives at most 5×.",
     "2 µs on, 8 µs off: removing the gaps will make it exactly 5× faster, guaranteed.", "5× is the ceiling"),
    # "times" said "time"
    ("a3", "evidence", "Di tensor 16,384 time smaller dan A2 an' di time stay 12 µs, suh Rule 3 seh a overhead.",
     "Di tensor 4,096 time smaller dan A2 an' di time stay 12 µs, suh Rule 3 seh a overhead.", "not 4,096×"),
    # a figure in the regime line is read as the evidence's figures are
    ("a6", "regime", "Overhead-bound, even though the kernels are well written: the GPU is busy 20% of the time.",
     "Overhead-bound, even though GPU is busy 80% of the time with the kernels.", "not busy 80%"),
]
ALL_PAIRS = [*PAIRS, *MORE_PAIRS, *FOURTH_PAIRS, *NINTH_PAIRS, *ELEVENTH_PAIRS, *FOURTEENTH_PAIRS, *FIFTEENTH_PAIRS]


@pytest.mark.parametrize("text", ["8 of every 40 µs the GPU toils", "5 of every 10 µs the GPU toils"])
def test_a_of_every_b_is_read_only_against_the_incident_s_own_cycle_and_times(text: str) -> None:
    """40 µs is no cycle of A6's and 5 µs neither of its times: the reading says nothing of them."""
    assert "is the time its kernels run" not in _check("a6", "evidence", text)["why"]


@pytest.mark.parametrize("text", [
    "We're at 62% of the chip's peak math rate; hitting 80 ms means 2.25x faster, and one GPU running flat-out would"
    " still take ~112 ms",
    "If 100% of peak would still leave TTFT at 0.62 × 180 ≈ 112 ms, how can kernel tuning alone reach 80 ms?",
    "At 62% of peak, could we reach 80 ms on this one H100 with better kernels?",  # asked
    "62% of peak: with FP8 we reach 80 ms on this H100",  # FP8 moves the roof
    "62% of peak; we reach 80 ms",  # on what, not said: more GPUs would
])
def test_a_time_named_as_a_goal_or_asked_about_is_not_said_to_be_reached(text: str) -> None:
    assert _check("a5", "evidence", text)["passed"] is True


def test_a_time_reached_with_a_lever_that_moves_the_roof_is_not_held_to_it() -> None:
    """More GPUs or FP8 raise the roof: 80 ms is within reach of them."""
    assert "peak allows" not in _check("a5", "evidence", "62% of peak: 112 ms at 100%; to reach 80 ms on this H100 we"
                                                          " need FP8")["why"]


def test_a_percent_faster_bound_is_one_plus_the_percent() -> None:
    """"At most 10% faster" is 1.10×: A3's measured 1.08× does not beat it."""
    assert "more than the most said" not in _check("a3", "evidence", "~12 µs both: the most we could ever get is about"
                                                                      " 10% faster")["why"]


@pytest.mark.parametrize(("item", "right", "wrong", "named"), [
    # bytes twice a figure the line states are another quantity (read once and written once), not a format's slip
    ("a2", "1.7 of 2.0 TB/s. If fp32, the tensor is 134M × 4 B ≈ 537 MB; four eager ops move ~8 × 537 MB ≈ 4.3 GB."
           " Fused: ~1.07 GB.",
     "1.7 of 2.0 TB/s; the fp32 tensor is 134M × 4 B = 1.07 GB", "off the incident's 537 MB by a factor of 2"),
    # ... but a power of ten off a figure the line states is still a slip
    ("a2", "1.7 of 2.0 TB/s; 134M elements in fp32 is 537 MB = 0.537 GB per pass",
     "1.7 of 2.0 TB/s; 134M elements in fp32 is 537 MB = 0.537 TB per pass", "off the incident's 537 MB by a power"),
    # a time said of the bytes is no slip of the FLOPs' floor
    ("a3", "12 µs both; 8192 elements, 32 KB at fp32: the bandwidth time for the whole chain is ~0.1 µs",
     "12 µs both; its 32.8 kFLOP at 312 TFLOP/s take 0.1 µs", "off 32.8 kFLOP ÷ 312 TFLOP/s, 0.105 ns, by a power"),
])
def test_a_figure_beside_what_it_was_worked_from_is_no_slip(item: str, right: str, wrong: str, named: str) -> None:
    assert _check(item, "evidence", right)["passed"] is not False
    bad = _check(item, "evidence", wrong)
    assert bad["passed"] is False
    assert named in bad["why"]


def test_a_multiplier_said_of_the_size_is_not_held_to_the_speed_up() -> None:
    said_of_size = _check("a3", "evidence", "~12 µs both, 1.08x apart; the size dropped 16384x from A2 and the time hit"
                                            " a floor")
    assert said_of_size["passed"] is not False, said_of_size
    said_of_time = _check("a3", "evidence", "~12 µs both; compile dropped it 3.8x, as in A2")  # held to A3's 1.08×
    assert said_of_time["passed"] is False


def test_a_change_to_nearly_nothing_is_no_figure_a_share_slipped_from() -> None:
    """400 ms → 2 µs pairs a request with a kernel: "a 10% gain" (400 → 360 ms) is not that change slipped."""
    text = "2 µs kernel, 8 µs gap; make the kernels twice as fast and you go 400 -> 360 ms, a 10% gain"
    assert _check("a6", "evidence", text)["passed"] is not False


def test_a_multiplier_is_not_checked_out_as_a_small_count_of_the_incident_s() -> None:
    """2.1× fewer passes is no figure of A2's; the 2 of "x * 2 + 1" does not vouch for it."""
    check = _check("a2", "evidence", "85% of 2.0 TB/s; fusing would cut the passes 2.1×")
    assert check["passed"] is None
    assert "not checked: “2.1”" in check["why"]


def test_an_operand_of_a_product_is_still_the_incident_s_figure() -> None:
    """"7B × 2 bytes": the × makes 7B an operand, not a multiplier said of something."""
    assert _check("a4", "evidence", "14 GB (7B × bf16) per token over 300 GB/s: 14/300 ≈ 47 ms/tok")["passed"] is True


@pytest.mark.parametrize(("item", "field", "right", "wrong", "named"), ALL_PAIRS, ids=[p[3][:40] for p in ALL_PAIRS])
def test_a_kind_passes_right_and_fails_wrong(item: str, field: str, right: str, wrong: str, named: str) -> None:
    good, bad = _check(item, field, right), _check(item, field, wrong)
    assert good["passed"] is True, good
    assert bad["passed"] is False, bad
    assert named in bad["why"], bad["why"]


@pytest.mark.parametrize(("item", "field", "text", "passed"), [
    ("a2", "helps", "Ship the compiled/fused version.", True),  # adopting the compiled version offers compile
    ("a1", "helps", "Use the compiled version.", False),  # ... which does not help a compute-bound matmul
    ("a3", "wastes", "Tuning memory access patterns.", True), ("a3", "wastes", "BW-opt kernel; no traffic to save", True),
    ("a3", "wastes", "Optimizar el acceso a memoria: casi no hay bytes.", True),
    # memory-bound, but at 85% of peak bandwidth: access patterns can give 1.18× at most (test_grading_near_the_roof.py)
    ("a2", "wastes", "Tuning memory access patterns.", True),
    ("a6", "wastes", "kernel micro-opts; they're fine already", True),
    ("a2", "wastes", "compute opt / TCs", True), ("a1", "wastes", "compute opt / TCs", False),
])
def test_levers_by_their_side_in_short_and_other_words(item: str, field: str, text: str, passed: bool) -> None:
    assert _check(item, field, text)["passed"] is passed


def test_a_share_of_the_time_given_a_cause_is_not_confirmed_as_the_speed_ups() -> None:
    """92% is what 1.08× leaves of the time, but "92% of the time is data movement" says something else of it."""
    check = _check("a3", "evidence", "~12 µs; the 1.08× speed-up shows that some 92% of the remaining time is data"
                                     " movement")
    assert check["passed"] is not True, check


@pytest.mark.parametrize(("item", "text", "passed"), [
    ("a8", "HBM saturated; 55% occupancy proves it's memory-bound.", False),
    ("a3", "~12 µs both; the relu and multiplies cost the time.", False),
    ("a3", "~12 µs both; the launches cost the time.", True),
    ("a1", "70% of peak: at most 1.3× headroom", False),  # a bound below what is left
    ("a1", "70% of peak: at most 1.5× headroom", True),
    ("a6", "the GPU is working 8 µs of every 10 µs", False),  # the 8 µs is the gap
    ("a6", "the GPU is working 2 µs of every 10 µs", True),
    ("a2", "1.7 of a 2.0 TB/s card, so about 85% of the pipe", True),  # a bare number beside a unit-ful one
    # a what-if that speeds the kernels up, and what it says the request does
    ("a6", "2 µs of kernel, 8 µs of gap: halving each kernel's time would halve the request time", False),
    # right, and never failed; its 1.11× is not yet confirmed as derived (could not tell)
    ("a6", "2 µs of kernel, 8 µs of gap: halving each kernel's time makes a request only 1.11× faster", None),
    ("a6", "Busy 20%; since T is proportional to the kernel duration k, halving k halves T", False),
    ("a1", "70% of peak; even a perfect kernel cuts the time by at most 30%", True),  # the time at the roof
    ("a1", "70% of peak TFLOP/s, so 30 bps of headroom left to peak", None),  # a bare number is no change
    ("a3", "elements: 8192\ntime_us: 12\ncompile_speedup: 1.08\ntime_saved_pct: 108", False),  # 108% is no 1.08×
    # "31.6 ms over the target" is a difference (not derived: could not tell), never a comparison found false
    ("a5", "62% of peak; at 100% it would take 180 ms × 0.62 = 111.6 ms, still 31.6 ms over the 80 ms target", None),
])
def test_these_lines_read_as_said(item: str, text: str, passed: bool | None) -> None:
    """Occupancy said to prove a regime; the math said to cost an overhead-bound kernel's time; "over" as a
    difference, not a comparison."""
    check = _check(item, "evidence", text)
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("text", "passed"), [
    ("62% of peak; 180 → 80 ms needs 2.25×, and even 100% of peak gives only ~112 ms", True),
    ("62% of peak tensor TFLOP/s; 180 ms, and a perfect 100% would still be about 112 ms", True),
    ("62% of peak tensor TFLOP/s; the prefill is at 100% of peak", None),
    ("62% of peak tensor TFLOP/s. At 100%: 180 × 0.62 ≈ 112 ms, still over 80.", True),
])
def test_100_percent_is_the_roof_only_in_a_what_if(text: str, passed: bool | None) -> None:
    assert _check("a5", "evidence", text)["passed"] is passed


def test_a_word_of_what_is_left_belongs_to_the_number_beside_it() -> None:
    # "headroom" after an arrow is the next number's, not the measured share's
    assert _check("a1", "evidence", "70% of peak → 30% headroom, so at most 1.43×")["passed"] is True
    assert _check("a1", "evidence", "70% of peak, a 30% shortfall, so at most 1.43×")["passed"] is True
    assert _check("a1", "evidence", "70% of peak, a 20% shortfall, so at most 1.43×")["passed"] is None


@pytest.mark.parametrize(("item", "text"), [
    ("a5", "62% of peak: a perfect kernel gives 180 × 0.62 ≈ 112 ms, still over 80 ms"),
    ("a2", "1.7 of 2.0 TB/s; compile, a near-perfect fusion, gave 3.8×"),
    ("a2", "0.85 of HBM peak; 8 passes vs 2 fused → 4× bytes; measured 3.8× ≈ 95% of the ideal traffic win"),
])
def test_a_product_or_the_measured_speed_up_beside_perfect_is_no_headroom(item: str, text: str) -> None:
    assert _check(item, "evidence", text)["passed"] is not False


@pytest.mark.parametrize(("item", "field", "text"), [
    # read after the eleventh set's report: "on the clock" is no time on; a share denied only by the words before
    # it; a share of the peak named beside a time is not the roof reached
    ("a6", "evidence", "2 µs thinking, 8 µs on the clock between moves: 20% busy."),
    ("a2", "wastes", "Optimising each eager kernel separately, since each kernel is already at 85% of the bandwidth"
                     " and the FLOPs are trivial."),
    ("a5", "evidence", "62% of peak; 180/80 = 2.25×, so hitting 80 ms would need 0.62 × 2.25 ≈ 140% of peak."),
])
def test_right_lines_read_after_the_eleventh_set_are_not_failed(item: str, field: str, text: str) -> None:
    assert _check(item, field, text)["passed"] is True


@pytest.mark.parametrize(("item", "field", "text", "named"), [
    ("a6", "evidence", "8 µs on, 2 µs off: busy 20%", "gap (idle) time"),
    ("a6", "evidence", "2 µs of kernel, 8 µs of gap: the GPU is not busy 20% of the time", "busy 20%"),
    ("a5", "evidence", "62% of peak; at 100% of peak it would take 80 ms", "not 80 ms"),
    # the wrong counterparts of right lines the twelfth set found
    ("a3", "evidence", "8·32·32 = 2¹⁵ elements; 12 µs both ways", "not 2¹⁵"),  # a power read whole, and checked
    ("a8", "regime", "Memory-bound, because occupancy is only 55%", "Rule 4"),
    ("a3", "evidence", "12 µs both ways; the traffic is the bottleneck, so memory-bound", "memory-bound kernel"),
    ("a6", "evidence", "2 µs kernels and 8 µs gaps; 1 µs kernels", "factor of 2"),  # no what-if says the 1 µs
])
def test_the_same_words_still_fail_where_they_say_something_wrong(item: str, field: str, text: str, named: str) -> None:
    check = _check(item, field, text)
    assert check["passed"] is False, check["why"]
    assert named in check["why"]


def test_a_sync_put_in_before_the_host_read_is_no_cure() -> None:
    check = _check("a7", "helps", "Precede the .item() with an explicit torch.cuda.synchronize() so the stall is"
                                  " predictable.")
    assert check["passed"] is False
    assert "puts the problem in" in check["why"]


@pytest.mark.parametrize(("text", "passed"), [
    ("70% of peak; 2·4096³/(3·4096²·2) = 1365 FLOP/byte, far above the 156 ridge", True),
    ("70% of peak; 1.37e11 / 1.01e8 ≈ 1356 FLOP/B against a ridge of 312/2 = 156 FLOP/B", True),
    # the sum holds, but it is not the incident's FLOPs over its bytes: named, not passed
    ("70% of peak tflops, intensity = 4096/2 = 2048 flop/byte which is above the ridge (156)", None),
])
def test_an_intensity_worked_another_way_is_not_checked(text: str, passed: bool | None) -> None:
    check = _check("a1", "evidence", text)
    assert check["passed"] is passed, check["why"]
    if passed is None:
        assert "2048" in check["why"]


# Read after the twelfth set was spent (bench/grading/fresh-2026-12-05.json): right lines its first grading failed.
TWELFTH_RIGHT = [
    ("a2", "evidence", "Eager chain pulls 1.7 TB/s out of 2.0 → 85% of peak bandwidth."),  # the arrow gives the result
    ("a2", "evidence", "1.7 of 2.0 TB/s = 0.85; N = 8·4096·4096 = 2²⁷ elements, 8N transfers eager, 2N fused: 4 ≈ 3.8"),
    ("a3", "evidence", "12 µs both ways; the ~4× traffic cut from compiling barely moves the time ⇒ neither memory- nor"
                       " compute-bound"),
    ("a4", "evidence", "Plancher: 14/300 ≈ 0,047 s ≈ 47 ms/token ≈ 21 tok/s; on mesure 38 tok/s"),
    ("a6", "evidence", "Work share 2/(2+8) = 20%. Making the kernels twice as fast (2 → 1 µs) only takes each cycle"
                       " from 10 to 9 µs."),
    ("a7", "evidence", "In [2]: (14-8)/8\nOut[2]: 0.75   # ITL +75%\nkernels unchanged => the 6 ms lives on the host"),
    ("a8", "regime", "Memory-bound, shame; occupancy is a red herring."),
    ("a8", "regime", "Memory-bound: the limiter is cardiac output (HBM), not the muscle fibres recruited (occupancy)."),
    ("a3", "evidence", "Line 1: 8·32·32 = 8,192 elements. Line 2: ~12 µs eager and compiled, 1.08×. Line 3: launch scale."),
    # a cell's expression on a name is no sum of its numbers ("w/300e9*1e3" is not "300e9*1e3 = 46.67")
    ("a4", "evidence", "In [1]: w = 7e9*2; w/1e9\nOut[1]: 14.0   # GB\nIn [2]: w/300e9*1e3\nOut[2]: 46.67  # ms/token"
                       " floor\n→ ceiling ≈ 21 tok/s; measured 38 tok/s, same neighbourhood"),
]


@pytest.mark.parametrize(("item", "field", "text"), TWELFTH_RIGHT)
def test_right_lines_the_twelfth_set_found_are_not_failed(item: str, field: str, text: str) -> None:
    check = _check(item, field, text)
    assert check["passed"] is not False, check["why"]


def test_a_power_written_as_a_result_is_the_powers_value_in_the_claims_too() -> None:
    """"8·32·32 = 2¹³" marks 2¹³ as the incident's 8,192, not the bare 2 as some other figure."""
    claims = _check("a3", "evidence", "8·32·32 = 2¹³ elements; ~12 µs both ways")["claims"]
    assert {"claim": "2¹³ elements", "passed": True, "why": "the incident's own figure"} in claims, claims


def test_a_number_that_numbers_the_line_is_a_label() -> None:
    """"Line 3: …" and "In [3]:" number the learner's lines: no figure to check."""
    check = _check("a3", "evidence", "Line 1: 8·32·32 = 8,192 elements. Line 2: ~12 µs eager and compiled, 1.08×."
                                     " Line 3: launch scale.")
    assert check["passed"] is True, check["why"]


def test_a_waste_refused_for_the_small_bound_it_works_out_is_could_not_tell() -> None:
    """"Moving fewer bytes, bounded by ≤ 1.18×" fits A2, but the line says how little it gives: not checked.

    (A2's bandwidth tuning, bounded by 1.18×, is now right: A2 is at 85% of its roof, test_grading_near_the_roof.py.)
    """
    bounded = _check("a2", "wastes", "Per-kernel bandwidth tuning, bounded by ≤ 2.0/1.7 ≈ 1.18.")
    assert bounded["passed"] is True, bounded
    assert "1.18" in bounded["why"], bounded
    assert _check("a2", "wastes", "Moving fewer bytes, bounded by ≤ 2.0/1.7 ≈ 1.18.")["passed"] is None
    assert _check("a2", "wastes", "Moving fewer bytes.")["passed"] is False


def test_a_decimal_comma_after_a_lone_zero_is_a_decimal_comma() -> None:
    assert with_units("≈ 0,047 s, 0,334") == "≈ 0.047 s, 0.334"
    row = grade({"part_b": {"kernels": {"add": {"intensity": "0,334", "side": "below", "optimisation": "fusion"}}}})
    assert row["items"]["part_b"]["checks"]["add"]["passed"] is True


@pytest.mark.parametrize("paragraph", [
    # a change undone on purpose ("brings ITL back from 14 to 8 ms") is no transition turned round
    "Fusion pays for A2 at 1.7 of 2.0 TB/s, 3.8× faster compiled; removing the .item() sync brings A7's ITL back from"
    " 14 ms to 8 ms; fusion is a waste on A1, compute-bound at 70% of peak.",
    # a figure set against the ridge after a colon is not said to be the ridge
    "Fusion pays for A2 (1.7 of 2.0 TB/s) and wastes the week on A1 at 70% of peak. What decides it is intensity"
    " against the ridge: 0.33 FLOP/byte (the add) says fuse, ~1360 FLOP/byte (the matmul) against a ridge of 156 does"
    " not.",
])
def test_part_c_numbers_the_twelfth_set_found_are_not_failed(paragraph: str) -> None:
    check = grade({"part_c": paragraph})["items"]["part_c"]["checks"]["number"]
    assert check["passed"] is not False, check["why"]


def test_a_could_not_tell_names_everything_not_checked_however_many_were() -> None:
    """The checked claims fill what room is left; what was not checked is never cut off the feedback."""
    text = ("1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 = 45; ~12 µs both ways at 1.08×, with 8,192 elements; 7.4% and 9.9%"
            " of something")
    check = _check("a3", "evidence", text)
    assert check["passed"] is None
    assert "“7.4%”" in check["why"], check["why"]
    assert "“9.9%" in check["why"], check["why"]


@pytest.mark.parametrize(("item", "right", "wrong", "named"), [
    # a notebook's cells are working: "In [2]: 12/1.08" over "Out[2]: 11.11  # µs compiled"
    ("a3", "In [1]: 8*32*32\nOut[1]: 8192\nIn [2]: 12/1.08\nOut[2]: 11.11  # µs compiled\n→ launch scale",
     "In [1]: 8*32*32\nOut[1]: 8192\nIn [2]: 12*1.08\nOut[2]: 12.96  # µs compiled\n→ launch scale",
     "a 1.08× speed-up takes it to 11.1 µs"),
    ("a6", "In [1]: n, on, off = 40_000, 2e-6, 8e-6\nIn [2]: on/(on+off)\nOut[2]: 0.2\nIn [3]: n*(on+off)\n"
           "Out[3]: 0.4   # s per request",
     "In [1]: n, on, off = 40_000, 2e-6, 8e-6\nIn [2]: on/(on+off)\nOut[2]: 0.2\nIn [3]: n*(on+off)\n"
     "Out[3]: 0.4   # ms per request", "power of ten"),
    # the kernels' time over the gaps' is no share of the time, whatever the words for it
    ("a6", "Log: 2 µs lit, 8 µs dark. Lit fraction 2/(2+8) = 20% of the watch.",
     "Log: 2 µs lit, 8 µs dark. Lit fraction 2/8 = 25% of the watch.", "2 µs ÷ (2 µs + 8 µs) = 20%"),
    # "the request halves" after halving the kernels, in that order too
    ("a6", "Kernels 80 ms, gaps 320 ms. Halve the kernel time to 1 µs and the request only drops to 360 ms.",
     "Kernels 80 ms, gaps 320 ms. Halve the kernel time to 1 µs and the request halves to 200 ms.", "1.11× faster"),
    # a speed-up worked out of occupancy
    ("a8", "HBM saturated; occupancy 55% is no roof, so raising it buys nothing.",
     "HBM saturated. Occupancy 55%: raising it to 100% would yield 100/55 ≈ 1.8× throughput.", "Rule 4"),
])
def test_kinds_read_after_the_twelfth_set_both_ways(item: str, right: str, wrong: str, named: str) -> None:
    assert _check(item, "evidence", right)["passed"] is not False, _check(item, "evidence", right)["why"]
    failed = _check(item, "evidence", wrong)
    assert failed["passed"] is False, failed["why"]
    assert named in failed["why"], failed["why"]


@pytest.mark.parametrize(("item", "wastes", "passed"), [
    # levers refused in more words
    ("a3", "A custom bandwidth kernel chasing A2's 3.8×.", True),
    ("a3", "Un kernel custom pour la bande passante.", True),
    ("a6", "Re-working the 2 µs kernels; the recipe is fine, the waiting is the problem.", True),
    ("a7", "Strengthening the matmul/attention kernels; they didn't change, the stall is on the host.", True),
    ("a2", "Tuning each eager kernel's bandwidth: at most 2.0/1.7 ≈ 1.18×.", True),  # A2 is near its roof
    # a right refusal beside bandwidth tuning, which A2 is too near its roof for: right, bounded or not
    ("a2", "Math tweaks; tuning each eager step for bandwidth caps out at 2.0/1.7 ≈ 1.18×.", True),
    ("a2", "Math tweaks, and tuning each eager step for bandwidth.", True),
])
def test_wastes_read_after_the_twelfth_set(item: str, wastes: str, passed: bool | None) -> None:
    check = _check(item, "wastes", wastes)
    assert check["passed"] is passed, check["why"]


@pytest.mark.parametrize(("fields", "passed"), [
    # a side concluded after its working, French bytes and thousands spaced
    ({"intensity": "0,334 FLOP/octet", "side": "I_add ≪ R ⇒ below", "optimisation": "mémoire: fusion"}, True),
    ({"intensity": "≈ 0,334", "side": "I_add ≫ R ⇒ above", "optimisation": "fusion"}, False),
])
def test_part_b_rows_read_after_the_twelfth_set(fields: dict[str, str], passed: bool) -> None:
    check = grade({"part_b": {"ridge": "156", "kernels": {"add": fields}}})["items"]["part_b"]["checks"]["add"]
    assert check["passed"] is passed, check


def test_a_part_b_row_s_spaced_thousands_and_an_unread_side_say_what_was_expected() -> None:
    rows = {"matmul": {"intensity": "≈ 1 356 FLOP/octet", "side": "above", "optimisation": "tensor cores"},
            "decode": {"intensity": "1", "side": "sideways", "optimisation": "quantise the weights"}}
    checks = grade({"part_b": {"ridge": "156", "kernels": rows}})["items"]["part_b"]["checks"]
    assert checks["matmul"]["passed"] is True, checks["matmul"]
    assert checks["decode"]["passed"] is None
    assert "below or above the ridge" in checks["decode"]["why"]
    assert "a number like 156" not in checks["decode"]["why"]


@pytest.mark.parametrize(("said", "passed"), [("is 8.7× above it", True), ("is 8.7× below it", False),
                                              ("sits roughly 9× past the ridge", True), ("sits ~9× under it", False)])
def test_part_c_reads_the_side_an_intensity_is_given_with_how_far_off_it_is(said: str, passed: bool) -> None:
    paragraph = ("Fusion removes trips, so it is the right call for A2, where eager moves 1.7 TB/s and compile is 3.8×"
                 " faster, and wrong for A1, which already runs at 70% of peak. By the ridge, 156 FLOP/byte, the A1"
                 f" matmul at 1,360 FLOP/byte {said}, which is why fusing is pointless there.")
    assert _part_c(paragraph)["number"]["passed"] is passed


def test_part_c_holds_a_share_of_peak_said_of_an_incident_to_the_one_it_measures() -> None:
    said = ("Fusion pays where bytes set the time: A2 ran at 1.7 of 2.0 TB/s and compile made it 3.8× faster. It cannot"
            " help A1's matmul at {share} of peak, where the math sets the time.")
    assert _part_c(said.format(share="70%"))["number"]["passed"] is True
    failed = _part_c(said.format(share="90%"))["number"]
    assert failed["passed"] is False, failed["why"]
    assert "70% of peak FLOP/s, not 90%" in failed["why"]


def test_a_prefix_cache_reused_is_a_shorter_prompt_not_fewer_bytes() -> None:
    check = _check("a5", "helps", "More GPUs, FP8 tensor math, a shorter prompt (or reuse a cached prefix), chunked"
                                  " prefill across more compute.")
    assert check["passed"] is True, check["why"]


@pytest.mark.parametrize(("paragraph", "passed"), [
    ("Fusion cuts round trips: A2 at 1.7 of 2.0 TB/s got 3.8× from compile. For A4, fusing the decode kernels would"
     " cut the weight traffic and take it from 38 to 76 tok/s. For A1 at 70% of peak it changes nothing.", False),
    ("Fusion cuts round trips: A2 at 1.7 of 2.0 TB/s got 3.8× from compile. For A4 fusing won't cut the weight"
     " traffic, the weights are read once a token anyway; and for A1 at 70% of peak it changes nothing.", True),
])
def test_fusion_said_to_cut_the_weights_bytes_is_misstated(paragraph: str, passed: bool) -> None:
    assert _part_c(paragraph)["fusion"]["passed"] is passed


@pytest.mark.parametrize(("item", "field", "text"), [
    # the points of a numbered list are labels, not figures
    ("a8", "evidence", "1. HBM saturated. 2. 70 GB int8 weights per step. 3. ≤ 16 FLOP/byte."),
    ("a7", "evidence", "1. ITL before: 8 ms (125 tok/s). 2. ITL after: 14 ms. 3. Delta: +6 ms/token. 4. Kernels unchanged."),
    # a relu over A1's 4096×4096 fp16 output reads and writes ~34 MB (32 MiB)
    ("a1", "wastes", "Fusing the preceding relu: a relu over 16.8M fp16 values is ~34 MB in and ~34 MB out, tiny beside the"
                     " matmul's math."),
    ("a1", "evidence", "4096x4096 fp16 is 32 MiB per matrix; the matmul runs at 70% of peak TFLOP/s."),
])
def test_right_lines_read_after_the_fourteenth_set_pass(item: str, field: str, text: str) -> None:
    check = _check(item, field, text)
    assert check["passed"] is True, check["why"]


@pytest.mark.parametrize(("item", "wastes", "passed"), [
    # the drill's own waste for A1: a kernel written anew for a GEMM already on the tensor cores
    ("a1", "A new hand-rolled GEMM: cuBLAS is already on the tensor cores.", True),
    ("a1", "Writing our own tensor-core matmul; cuBLAS is already on the tensor cores.", True),
    # no reason: a rewrite can move a compute-bound kernel, by at most 1 ÷ 70% = 1.43× (three writers of the training
    # sets called such a line right, none wrong): could not tell, and the feedback asks for the reason
    ("a1", "Writing our own tensor-core matmul.", None),
    ("a1", "FP8 tensor math: it is already on the tensor cores", False),  # not a kernel written anew
    ("a2", "A hand-rolled GEMM: cuBLAS is already on the tensor cores.", True),  # no GEMM here: refused either way
])
def test_a_kernel_written_anew_for_one_already_on_the_tensor_cores_is_the_waste(item: str, wastes: str,
                                                                                  passed: bool) -> None:
    check = _check(item, "wastes", wastes)
    assert check["passed"] is passed, check["why"]


@pytest.mark.parametrize(("item", "helps", "passed"), [
    # A4's weights are 2 bytes a parameter (14 GB over 7B): int4 is a quarter of them, so the floor's 21.4 tok/s × 4
    ("a4", "Quantise the weights to int4: about 85 tok/s at the floor.", True),
    # 43 tok/s is the floor × 2: int4 over 1 byte a value, which A4's 14 GB read as a count of 14e9 would give
    ("a4", "Quantise the weights to int4: about 43 tok/s.", None),
    ("a8", "Quantise to int4: 70 GB of weights become 35 GB.", True),  # A8's 70B int8 model: 1 byte a parameter
])
def test_a_weight_format_scales_by_the_incident_s_own_bytes_per_parameter(item: str, helps: str,
                                                                         passed: bool | None) -> None:
    check = _check(item, "helps", helps)
    assert check["passed"] is passed, check["why"]


def _part_c(paragraph: str) -> dict[str, Any]:
    checks: dict[str, Any] = grade({"part_c": paragraph})["items"]["part_c"]["checks"]
    return checks


_PC_RIGHT = ("Fusion pays when bytes set the time: A2's eager chain sits at 1.7 of 2.0 TB/s and compile, by deleting"
             " round trips, makes it 3.8× faster. It is career-limiting on a compute-bound kernel, like the 4096 matmul"
             " at 1,360 FLOP/byte, far above the 156 ridge, where a fused relu changes nothing of the math.")


@pytest.mark.parametrize(("paragraph", "aspect", "named"), [
    # the drill's digits with a power of ten lost or gained
    (_PC_RIGHT.replace("1,360 FLOP/byte", "136 FLOP/byte"), "number", "off the drill's 1365 FLOP/byte by a power"),
    (_PC_RIGHT.replace("1,360 FLOP/byte", "13,600 FLOP/byte"), "number", "by a power of ten"),
    # fusion said to put the chain on the tensor cores
    (_PC_RIGHT.replace("by deleting round trips", "because it lets the chain use the tensor cores"), "fusion",
     "math units' speed"),
    # fusion credited with a large win on a decode, whose bytes are its weights
    (_PC_RIGHT + " It is also the right move for A4: fusing attention into one kernel would double decode.", "fusion",
     "each token reads every weight once"),
])
def test_part_c_reads_what_the_fifteenth_session_wrote(paragraph: str, aspect: str, named: str) -> None:
    assert _part_c(_PC_RIGHT)[aspect]["passed"] is True, _part_c(_PC_RIGHT)[aspect]
    check = _part_c(paragraph)[aspect]
    assert check["passed"] is False, check
    assert named in check["why"]


def test_part_c_a_number_from_nowhere_near_a_drill_figure_shifted_is_not_checked() -> None:
    """90 µs is no figure of the drill's: near 889 ns × 100 by chance, it is named as not checked, not called a slip."""
    check = _part_c(_PC_RIGHT + " On our A100 a fused LayerNorm went from 900 µs to 90 µs.")["number"]
    assert check["passed"] is None, check
    assert "90 µs" in check["why"]


@pytest.mark.parametrize("paragraph", [
    # a share of the ridge worked out is no slip of the drill's 20%; a what-if's doubling is no slip of 38 tok/s
    "Fusion removes round trips: below the 156 FLOP/byte ridge it helps (the add at 0.33 is 0.33/156 ≈ 0.2% of the"
    " ridge, A2 got 3.8×); above it, as the matmul at 1360 FLOP/byte, it cannot help A1's math.",
    _PC_RIGHT + " On A4 fusion helps a little at most: the weights are read once a token whatever is fused.",
])
def test_part_c_right_numbers_and_small_wins_pass(paragraph: str) -> None:
    checks = _part_c(paragraph)
    assert checks["number"]["passed"] is not False, checks["number"]
    assert checks["fusion"]["passed"] is True, checks["fusion"]


_PB_RIGHT = {"ridge": "312e12 / 2e12 = 156 FLOP/byte", "kernels": {
    "add": {"intensity": "1.68e7 / 5.03e7 = 0.33", "side": "below", "optimisation": "cut bytes: fuse"},
    "matmul": {"intensity": "1.37e11 / 1.01e8 ≈ 1356", "side": "above", "optimisation": "faster math: tensor cores"},
    "decode": {"intensity": "1.4e10 / 1.4e10 = 1", "side": "below", "optimisation": "fewer bytes: quantise weights"}}}


def _part_b(ridge: str | None = None, row: str = "", **fields: str) -> dict[str, Any]:
    answer: dict[str, Any] = {"ridge": ridge or _PB_RIGHT["ridge"],
                              "kernels": {k: dict(v) for k, v in _PB_RIGHT["kernels"].items()}}
    if row:
        answer["kernels"][row].update(fields)
    checks: dict[str, Any] = grade({"part_b": answer})["items"]["part_b"]["checks"]
    return checks


@pytest.mark.parametrize(("ridge", "passed"), [
    ("312 / 2 = 156 FLOP per byte, i.e. 156 bytes per FLOP", False),  # the ridge turned round in words
    ("156 bytes for every FLOP", False),
    ("312e12 / 2e12 = 156 FLOP/byte; 1/156 = 0.0064 bytes per FLOP", True),  # the inverse, rightly worked
])
def test_the_ridge_said_in_bytes_per_flop_is_turned_round(ridge: str, passed: bool) -> None:
    check = _part_b(ridge)["ridge"]
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("row", "field", "text", "passed"), [
    ("matmul", "intensity", "1.37e11 / 1.01e8 = 1356, so compute-bound (memory traffic dominates)", False),
    ("matmul", "intensity", "1.37e11 / 1.01e8 = 1356, memory-bound", False),
    ("matmul", "intensity", "1.37e11 / 1.01e8 = 1356, compute-bound: tensor cores busy", True),
    ("decode", "side", "below: compute-bound", False),
    ("decode", "side", "below: memory-bound, the weights stream", True),
    ("matmul", "side", "Above: CPU-bound.", True),  # a database writer's word for the processor: Part B has two roofs
    ("add", "intensity", "0.33 FLOP/B: DRAM-bound", True),  # FLOP in the unit names no regime
])
def test_a_part_b_row_s_words_agree_with_its_side(row: str, field: str, text: str, passed: bool) -> None:
    check = _part_b(None, row, **{field: text})[row]
    assert check["passed"] is passed, check


def test_a_shape_s_comma_separated_sizes_are_three_numbers_not_a_thousands_group() -> None:
    """(8,4096,4096) is 8, 4096 and 4096: "8,409" read as a thousands group dropped a digit and invented a figure."""
    check = _check("a3", "evidence", "Shrinking (8,4096,4096) to (8,32,32) barely changed the ~12 µs: launch-bound")
    assert "8,409" not in check["why"]
    assert check["passed"] is True, check


def test_a_line_of_the_incident_s_own_figures_that_decide_nothing_says_so() -> None:
    """180 ms and 80 ms are A5's, but its regime is decided by the 62% of peak: the line is could-not-tell, and says
    which figures it checked rather than that it names none."""
    check = _check("a5", "evidence", "180 ms down to 80 ms means cutting 56% of the time, a 2.25× speed-up.")
    assert check["passed"] is None
    assert "none of them decides the regime" in check["why"]
    assert "“180 ms”" in check["why"]


@pytest.mark.parametrize("helps", ["Page the KV cache to cut memory traffic.", "Paging the KV cache."])
def test_paging_the_kv_cache_in_words_is_kv_paging(helps: str) -> None:
    """A5's prefill is compute-bound: KV paging is read, and refused there."""
    check = _check("a5", "helps", helps)
    assert check["passed"] is False, check
    assert "KV paging" in check["why"]


@pytest.mark.parametrize("text", [
    "40,000 × 2 µs + 40,000 × 8 µs = 400 ms per request.",  # a product after "+" is one term of the sum
    "(2 + 8) µs × 40,000 = 400 ms.",  # brackets around a sum are not read as its order
])
def test_sums_of_products_are_not_read_as_their_last_term(text: str) -> None:
    check = _check("a6", "evidence", text)
    assert check["passed"] is True, check


def test_part_c_reads_a_side_of_the_ridge_given_with_its_figure() -> None:
    """"Below the 156 FLOP/byte ridge" is the bytes' side as "below the ridge" is: both sides argued, fusion placed."""
    checks = _part_c("Fusing is right when the kernel is below the 156 FLOP/byte ridge, as the elementwise chain of A2"
                     " (1.7 of 2.0 TB/s, 3.8× from compile); it is a career-limiting week when the kernel sits far"
                     " above it, like the 4096 matmul at ~1,360 FLOP/byte, where the relu's bytes are noise.")
    assert checks["fusion"]["passed"] is True, checks["fusion"]
    assert checks["both_sides"]["passed"] is True, checks["both_sides"]


def test_part_c_fusion_said_to_lift_a_compute_bound_kernel_is_a_win_it_cannot_give() -> None:
    checks = _part_c("Fusion pays where launches or bytes set the time (A2: 3.8× from compile; A6's 8 µs gaps), and is"
                     " wasted where the math does: A1 at 70% of peak, and A5's prefill at 62%, where fusing would lift"
                     " it to 100%.")
    assert checks["fusion"]["passed"] is False, checks["fusion"]
    assert "cannot help A5" in checks["fusion"]["why"]
    assert checks["number"]["passed"] is not False, checks["number"]  # A5's own 62% and the roof's 100%: one error


@pytest.mark.parametrize(("item", "field", "right", "wrong", "named"), [
    # a lever's reason that calls this kernel another regime's
    ("a1", "wastes", "Fusing the relu: the matmul is compute-bound and the relu's bytes are small.",
     "Fusing the relu — the matmul is memory-bound so the relu's bytes don't matter.", "this kernel is compute-bound"),
    ("a2", "wastes", "Tuning the math: the chain does under 1 FLOP per byte, it isn't compute-bound.",
     "Tuning the math, since the chain is launch-bound.", "this kernel is memory-bound"),
    ("a8", "wastes", "Cutting registers: HBM is already saturated, more warps can't move more bytes.",
     "Cutting registers: the kernel is compute-bound, occupancy won't help.", "this kernel is memory-bound"),
    ("a5", "wastes", "KV paging: it's a memory-side tool and prefill isn't memory-bound.",
     "KV paging: prefill is overhead-bound, so paging won't matter.", "this kernel is compute-bound"),
    # a lever given a mechanism it does not have
    ("a3", "helps", "CUDA graphs, because they cut the launches.", "CUDA graphs, because they cut the memory traffic.",
     "does not move fewer bytes"),
    ("a5", "helps", "Chunked prefill or more GPUs to spread the math.",
     "Chunked prefill, because it cuts the memory traffic of the KV cache.", "does not move fewer bytes"),
])
def test_a_lever_s_reason_is_read_against_the_kernel(item: str, field: str, right: str, wrong: str,
                                                      named: str) -> None:
    good = _check(item, field, right)
    assert good["passed"] is True, good
    bad = _check(item, field, wrong)
    assert bad["passed"] is False, bad
    assert named in bad["why"]


@pytest.mark.parametrize(("item", "wastes"), [
    ("a1", "Fusion: it pays on memory-bound chains, not on this matmul."),  # a regime said of a case
    ("a4", "the mma attention kernel, thats for compute and this isnt compute bound"),  # denied
    ("a4", "MMA-heavy attention — attn at ctx 512 is a sliver of the bytes and none of it is FLOP-limited"),
])
def test_a_regime_said_of_a_case_or_denied_in_a_lever_line_is_no_reason_against_it(item: str, wastes: str) -> None:
    assert _check(item, "wastes", wastes)["passed"] is True


@pytest.mark.parametrize(("ridge", "passed"), [
    ("one-fifty-six FLOP/byte", True),  # 156 said as a radio host says it, not 56
    ("one fifty six FLOPs per byte", True),
    ("312 TFLOP/s ÷ 2 TB/s = 156 FLOP per second", False),  # the quotient's unit turned into a rate
])
def test_the_ridge_said_in_words_or_in_the_wrong_unit(ridge: str, passed: bool) -> None:
    check = _part_b(ridge)["ridge"]
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("row", "intensity", "passed"), [
    ("decode", "1.4e10/1.4e10 = 1, ~15.6× below the ridge", False),  # it is 156× below
    ("decode", "1.4e10/1.4e10 = 1, ~156× below the ridge", True),
    ("matmul", "2 × 4096³ / (3 × 4096² × 2) ≈ 1365, 8.7× above the ridge", True),  # the working's × is no distance
])
def test_how_far_an_intensity_field_says_its_kernel_is_from_the_ridge(row: str, intensity: str, passed: bool) -> None:
    check = _part_b(None, row, intensity=intensity)[row]
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("item", "field", "text"), [
    # the words before a time after "then" are the earlier time's
    ("a6", "evidence", "Look you, 2 µs working then 8 µs sat there doing nothing, over and over: 20 per cent busy."),
    # "impossible" said of a target past the roof, not of the measurement
    ("a5", "evidence", "62% of peak tensor FLOP/s. Target ratio 180/80 = 2.25. 2.25 × 62% = 139.5% of peak: impossible"
                       " on one card."),
    # the weights shared over a batch, per generated token: no slip of bits for bytes
    ("a8", "evidence", "HBM is saturated. 70B params × 1 byte = 70 GB per step. Batch 8 → 70/8 = 8.75 GB per generated"
                       " token; 16 FLOP/byte, far below the ridge."),
])
def test_right_lines_read_after_the_fifteenth_set_are_not_failed(item: str, field: str, text: str) -> None:
    check = _check(item, field, text)
    assert check["passed"] is not False, check


def test_a_lever_refused_for_having_nothing_to_act_on_here_is_could_not_tell() -> None:
    """KV paging fits a memory-bound kernel; "nothing to page at batch 8" is a size A8 does not give.

    A4's grading gives its KV cache's size (``minor_levers``: ~0.27 GB against 14 GB of weights), so there the same
    refusal is right.
    """
    check = _check("a8", "wastes", "KV paging. At batch 8 there's nothing to page.")
    assert check["passed"] is None, check
    check = _check("a4", "wastes", "KV paging. At batch 1 and context 512 there's nothing to page.")
    assert check["passed"] is True, check


def test_part_b_a_side_said_near_the_ridge_of_a_kernel_far_from_it() -> None:
    check = _part_b(None, "decode", side="just below the ridge, nearly balanced")["decode"]
    assert check["passed"] is False, check
    assert "156× from the ridge" in check["why"]
    assert _part_b(None, "matmul", side="above, 8.7 time over di ridge")["matmul"]["passed"] is True
    assert _part_b(None, "matmul", side="above, 87 time over di ridge")["matmul"]["passed"] is False


def test_part_c_fusion_said_to_fix_a_decode() -> None:
    checks = _part_c(_PC_RIGHT + " Also A4: fusing attention into an MMA-heavy kernel will fix it.")
    assert checks["fusion"]["passed"] is False, checks["fusion"]


def test_part_c_a_win_denied_with_won_t_is_no_win() -> None:
    """"won't" is not "won": fusing A1's relu "won't shift anything" refuses fusion there."""
    checks = _part_c("Fusion pays on A2, 1.7 of 2.0 TB/s and 3.8× from compile. But A1's matmul is at 70% of peak,"
                     " compute-bound, so fusing a relu into it won't shift anything.")
    assert checks["fusion"]["passed"] is True, checks["fusion"]
    assert checks["both_sides"]["passed"] is True, checks["both_sides"]


def test_the_incident_s_batch_named_in_a_lever_line_is_not_batching_offered() -> None:
    """"At batch 1 and context 512" describes A4; the refusal names KV paging alone."""
    why = _check("a4", "wastes", "KV paging. At batch 1 and context 512 there's nothing to page.")["why"]
    assert "batching" not in why
    assert "KV paging" in why


def test_a_reason_s_bracket_is_quoted_whole_and_its_connective_left_out() -> None:
    why = _part_b(None, "matmul", intensity="1.37e11 / 1.01e8 = 1356, so compute-bound (memory traffic dominates)")[
        "matmul"]["why"]
    assert "“compute-bound (memory traffic dominates)”" in why


@pytest.mark.parametrize(("item", "field", "text", "passed"), [
    # a part of a whole and the share said of them, a bare side in the other's unit
    ("a6", "wastes", "polishing the kernel. halving it 2->1us saves 40k x 1us = 40 ms out of 400, i.e. 10%", True),
    ("a6", "wastes", "polishing the kernel. halving it 2->1us saves 40k x 1us = 40 ms out of 400, i.e. 25%", False),
    ("a7", "evidence", "8 → 14 ms a token: 6 of the 14 ms (43%) is the host waiting; kernels unchanged.", True),
    ("a7", "evidence", "8 → 14 ms a token: 6 of the 14 ms (75%) is the host waiting; kernels unchanged.", False),
    # a rise said with "up" after it is a change
    ("a7", "evidence", "8 ms → 14 ms a token, same kernels. 6 ms a token extra, that's 75% up.", True),
    ("a7", "evidence", "8 ms → 14 ms a token, same kernels. 6 ms a token extra, that's 43% up.", False),
    # Jamaican English, and kernels rebuilt, swapped or treated, read as the levers they are
    ("a7", "helps", "Tek out di .item(); keep di token pon device.", True),
    ("a7", "wastes", "Rebuilding the matmul and attention kernels.", True),
    ("a7", "wastes", "Swapping the matmul/attention kernels for 'faster' ones.", True),
    ("a6", "wastes", "Treating the kernel: halving it only gets 400 → 360 ms.", True),
])
def test_lines_read_after_the_fifteenth_set(item: str, field: str, text: str, passed: bool) -> None:
    check = _check(item, field, text)
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("item", "field", "text"), [
    # read after the sixteenth set was spent (bench/grading/fresh-2026-12-05e.json): right lines that were failed
    ("a5", "wastes", "KV cache pagin — memory fix, an prefill eh memory-bound."),  # Trinidadian "eh": is not
    ("a6", "evidence", "Its like a bus that drives 2 min then sits 8 min. 2us kernel + 8us gap, so GPU busy 20% / idle"
                       " 80%. 40,000 stops per request x 10us = 400ms total."),  # "idle" is the 80%'s
    ("a6", "evidence", "2 µs kernel : 8 µs gap → 20% of the timeline has content."),  # "gap" is the 8 µs's
    ("a1", "evidence", "70% of peak TFLOP/s → ≤1.43× left. ~1360 FLOP/B vs 156 ridge."),  # "left" is the 1.43×'s
    ("a1", "evidence", "70% of peak TFLOPs. bus is already full and moving, only 30% of seats empty. max gain ="
                       " 1 / 0.7 = 1.43x"),  # seats empty: the roof's spare capacity, not idle time
    ("a1", "helps", "faster math (fp8) or more GPUs. tuning the kernel can only chase the last 30% of peak"),
])
def test_right_lines_read_after_the_sixteenth_set_are_not_failed(item: str, field: str, text: str) -> None:
    check = _check(item, field, text)
    assert check["passed"] is not False, check


def test_a_share_of_the_time_after_another_figure_s_separator_is_still_read() -> None:
    """The cut keeps a share's own words: "busy 2/10 = 20%" is busy, "idle 80%" idle, and a wrong one still fails."""
    assert _check("a6", "evidence", "2 µs on, 8 µs off: busy 2/10 = 20%")["passed"] is True
    assert _check("a6", "evidence", "2 µs on, 8 µs off, so the GPU is busy 80% of the time")["passed"] is False


@pytest.mark.parametrize(("item", "field", "right", "wrong", "named"), [
    # read after the twenty-third set was spent (bench/grading/fresh-2026-12-05l.json): right lines that were failed,
    # each beside a wrong line of the same shape that still fails
    ("a1", "evidence", "70% of peak FLOP/s is reported. Remaining room is only the 30% of peak.",
     "70% of peak FLOP/s is reported. It reaches only the 30% of peak.", "30% is what is left"),
    ("a1", "evidence", "Reported utilisation: 70% of peak. Maximum recoverable: 30% of peak, i.e. ≤ 1.43× speed-up.",
     "Reported utilisation: 70% of peak. Maximum recoverable: 70% of peak.", "70%"),
    ("a7", "evidence", "ITL from 8 ms to 14 ms, the kernels unchanged. Remove it and you'd be back to 8 ms, 1.75× quicker.",
     "ITL from 8 ms to 14 ms, the kernels unchanged. Remove it and it goes back to 8 ms, 1.75× slower.",
     "14 ms → 8 ms is 1.75× faster, not slower"),
    ("a7", "evidence", "ITL went from 8 ms to 14 ms, 1.75× slower.", "ITL went from 8 ms to 14 ms, 1.75× quicker.",
     "8 ms → 14 ms is 1.75× slower, not quicker"),
    ("a2", "helps", "Fuse — torch.compile or one kernel that does the whole chain in registers.",
     "Cut registers to raise occupancy.", "Raising occupancy cannot move this kernel"),
    ("a4", "evidence", "7e9 × 2 = 1.4e10 B; floor 46.7 ms. 38 tok/s must include quantisation: consistent with int8"
                       " (7 GB → ≤ 42.9 tok/s).",
     "7e9 × 2 = 1.4e10 B; floor 46.7 ms. The weights are 7 GB, so 43 tok/s.", "off the incident's 14 GB"),
])
def test_lines_read_after_the_twenty_third_set(item: str, field: str, right: str, wrong: str, named: str) -> None:
    assert _check(item, field, right)["passed"] is not False
    failed = _check(item, field, wrong)
    assert failed["passed"] is False, failed
    assert named in failed["why"], failed["why"]
