"""Comparisons a line makes between its figures, and figures named for a role they do not play.

Read from the sixteenth blind set once it was spent (``bench/grading/fresh-2026-12-05e.json``): a time set
against a target or a floor ("112 ms, already under the 80 ms target"), the measurement called the floor, a
figure of one run given to the other, and a lever that slows every regime. Each kind is held both ways: the
right line passes, or at least is not failed, and the wrong one fails, naming why.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.grade import grade

ANSWER = {"regime": "", "evidence": "", "helps": "", "wastes": ""}


def _check(item: str, field: str, text: str) -> dict[str, Any]:
    check: dict[str, Any] = grade({"part_a": {item: {**ANSWER, field: text}}})["items"][item]["checks"][field]
    return check


# (incident, field, a right line, a wrong line of the same kind, words the wrong line's feedback names)
PAIRS = [
    # a time set against the target after a dash and an adverb
    ("a5", "evidence", "62% of peak. At 100% of peak TTFT = 180 × 0.62 ≈ 112 ms — still over the 80 ms target.",
     "62% of peak. At 100% of peak TTFT = 180 × 0.62 ≈ 112 ms — already under the 80 ms target.",
     "112 ms is above 80 ms, not under it"),
    # a target said to be met
    ("a5", "helps", "Split across 3 GPUs with tensor parallel: 180/3 = 60 ms, which hits the 80 ms target.",
     "Split across 2 GPUs with tensor parallel: 180/2 = 90 ms, which hits the 80 ms target.",
     "90 ms is slower than 80 ms: it does not meet it"),
    # a time per token set against the floor named in words
    ("a4", "evidence", "14 GB / 300 GB/s → floor ≈ 46.7 ms/token. The reported 38 tok/s is ~26 ms/token, which is"
                       " faster than that floor, so the run must batch or quantise.",
     "14 GB / 300 GB/s → floor ≈ 46.7 ms/token. The reported 38 tok/s is ~26 ms/token, which is slower than that"
     " floor, so there's headroom.", "26 ms is faster than the floor, 46.7 ms, not slower"),
    # the measurement named as the floor
    ("a4", "evidence", "14 GB of weights per token at 300 GB/s: the bandwidth floor works out at 21 tok/s, and it"
                       " measures 38 tok/s.",
     "14 GB of weights per token at 300 GB/s: the bandwidth floor works out at 38 tok/s, and it measures 21 tok/s.",
     "is what the incident measures"),
    # a figure of the eager chain given to the compiled one
    ("a2", "evidence", "Eager reaches 1.7 TB/s on the 2.0 TB/s card, 85%, and compile is 3.8× faster.",
     "Compiled version is reaching 1.7 TB/s on the 2.0 TB/s card, that is 85%, and it is 3.8× faster than eager.",
     "of the eager chain, not of the compiled chain"),
    # the inter-token latency given to the kernels
    ("a7", "evidence", "ITL went from 8 ms to 14 ms per token once .item() went in; the matmul and attention kernels"
                       " are unchanged.",
     "The matmul + attention kernels went from 8 ms to 14 ms per token once .item() went in.",
     "not the kernels' time"),
    # upcasting offered as a speed lever
    ("a1", "helps", "FP8 on the tensor cores, or more GPUs.",
     "Upcast to FP32 so the GEMM runs at full precision on the tensor cores: better throughput.",
     "Upcasting to a higher precision cannot move this kernel"),
    # a share near its roof said in words to be far from it
    ("a2", "evidence", "Eager gets 1.7 TB/s out of 2.0, so it runs near peak bandwidth.",
     "Eager only gets 1.7 TB/s out of 2.0, so it is nowhere near peak bandwidth.", "near the roof, not"),
    # what is left of the roof, or a share of the time, said as the share of the roof reached
    ("a2", "evidence", "1.7/2.0 = 0.85, so 85% of peak bandwidth used, 15% left.",
     "1.7/2.0 = 0.85, so 15% of peak bandwidth used.", "15% is what is left"),
    ("a2", "evidence", "Eager at 1.7 TB/s is 85% of peak; compile is 3.8× faster, so it takes 26% of eager's time.",
     "Eager at 1.7 TB/s is 85% of peak; compile being 3.8× faster means eager runs at 26% of peak.",
     "not 26%"),
    # a time comparison after a comma
    ("a4", "evidence", "38 tok/s × 14 GB = 532 GB/s, over the 300 GB/s the L4 allows: it must batch or quantise.",
     "38 tok/s × 14 GB = 532 GB/s, under the 300 GB/s the L4 allows.", "532 GB/s is above 300 GB/s"),
    # tuning said to reach a target past the roof
    ("a5", "evidence", "62% of peak; need 180/80 = 2.25× but at most 1/0.62 = 1.6×, so tuning alone won't get there.",
     "62% of peak; need 180/80 = 2.25× but at most 1/0.62 = 1.6×, so tuning alone will get there.",
     "Tuning alone cannot reach the target"),
    # a whole multiplier right after a change of time, off by more than its rounding
    ("a6", "evidence", "Busy 20%; with the gaps gone the request drops from 400 ms to 80 ms, 5× faster.",
     "Busy 20%; with the gaps gone the request drops from 400 ms to 80 ms, 4× faster.", "400 ms → 80 ms is 5×"),
    # a change said as a share of the step before it or after it
    ("a7", "evidence", "8 → 14 ms: +6 ms, the host sync costs 75% of the old step.",
     "8 → 14 ms: +6 ms, the host sync costs 43% of the old step.", "6 ms is 75% of the old 8 ms, not 43%"),
    ("a7", "evidence", "8 → 14 ms: +6 ms, the host sync is 43% of the new ITL.",
     "8 → 14 ms: +6 ms, the host sync is 75% of the new ITL.", "of the new 14 ms, not 75%"),
    # a quotient's result said as a multiplier is the whole quotient, not its denominator
    ("a3", "evidence", "8·32·32 = 8192 elements; A2's tensor is 4096²/32² = 16,384x bigger and ~12 µs either way.",
     "8·32·32 = 8192 elements; A2's tensor is 4096²/32² = 1,024x bigger and ~12 µs either way.",
     "4096² / 32² is 16.4k, not 1,024"),
    # a cut past the whole, with what is cut named
    ("a5", "evidence", "62% of peak tensor TFLOP/s. Going from 180 to 80 ms means cutting the time by 56%.",
     "62% of peak tensor TFLOP/s. Going from 180 to 80 ms means cutting the time by 125%.", "would take the time below"),
    # the share of the request a faster kernel saves
    ("a6", "evidence", "Gaps are 8 of every 10 µs, 80% of wall time: halving the kernel saves 1 µs in 10.",
     "Gaps are 8 of every 10 µs, 80% of wall time. Halving the 2 µs kernel time would save 40% of the request.",
     "save 1 µs of it, 10%, not 40%"),
    # the copy said in other words to cost A7's 6 ms
    ("a7", "evidence", ".item() makes the host wait for the queue to drain every token: that wait is the extra 6 ms.",
     ".item() copies the tensor back over PCIe every token, and moving those bytes is what costs the extra 6 ms.",
     "copying a few bytes over PCIe takes microseconds"),
    # tuning said to be enough, in a lever line
    ("a5", "helps", "FP8 tensor cores and a second GPU: tuning alone tops out near 112 ms.",
     "Better GEMM/attention tuning to close the gap to peak - that is enough for 80 ms.",
     "Tuning alone cannot reach the target"),
    # an intensity said to sit near the ridge
    ("a1", "evidence", "70% of peak, and 1365 FLOP/byte is far above the ridge.",
     "70% of peak, and 1365 FLOP/byte is just above the ridge.", "far from it, not near"),
    # a shorter prompt's time held to what its tokens allow
    ("a5", "helps", "Shorter prompts: halve it to 2,048 tokens, TTFT ≈ 90 ms.",
     "Shorter prompts: trim it to 3,500 tokens and TTFT come down to ~80 ms, job done.",
     "its prefill falls to between 131 ms"),
    # another regime's resource said in a cleft to set the pace
    ("a2", "evidence", "The eager chain at 1.7 TB/s of 2.0 is 85%, so is the memory that's slow, not the maths.",
     "The eager chain at 1.7 TB/s of 2.0 is 85%, so is the kernels' maths that slow, not the memory.",
     "puts the time on the math"),
    # the regime denied in words
    ("a4", "evidence", "38 tok/s is well past the ~21 tok/s memory ceiling (14 GB / 300 GB/s), so the run must batch or"
                       " quantise: memory still sets the pace.",
     "38 tok/s is well past the ~21 tok/s memory ceiling (14 GB / 300 GB/s), so memory isn't what's limiting it any"
     " more.", "contradict"),
    # a rewrite said to reach A5's target
    ("a5", "evidence", "62% of peak; 1/0.62 = 1.61× headroom → 111.6 ms at 100%. So no kernel rewrite gets us to the"
                       " 80 ms alone.",
     "62% of peak; 1/0.62 = 1.61× headroom → 111.6 ms at 100%. So a good kernel rewrite gets us to the 80 ms.",
     "Tuning alone cannot reach the target"),
    # the copy said to be the extra cost
    ("a7", "evidence", ".item() makes the host wait for the GPU every token: that's the extra 6 ms.",
     ".item() copies the tensor back over PCIe every token, that's the extra bandwidth.", "over PCIe takes microseconds"),
    # a result written with its own prefix slips by a power of ten
    ("a2", "evidence", "1.7 of 2.0 TB/s = 85% of the bus; the tensor is 8×4096×4096 ≈ 134M elements.",
     "1.7 of 2.0 TB/s = 85% of the bus; the tensor is 8×4096×4096 ≈ 134k elements.", "is 134M, not 134k"),
    # a bandwidth over a size is a rate, not a time
    ("a4", "evidence", "Every token drains the 14 GB through a 300 GB/s sluice: 14/300 ≈ 47 ms per token, so 38 tok/s is"
                       " past the floor.",
     "Every token drains the 14 GB through a 300 GB/s sluice: 300/14 ≈ 21 ms per token, so 38 tok/s is close to the"
     " limit.", "a rate, not a time"),
    # tuning said to get A5 its 80 ms
    ("a5", "helps", "FP8 and a second GPU; tuning the GEMMs alone tops out near 112 ms.",
     "Tune the attention / GEMM kernels until they run at full peak — that alone gets Product their 80 ms.",
     "Tuning alone cannot reach the target"),
    # a regime concluded after an arrow
    ("a3", "evidence", "time didn't budge with the bytes, so it's not memory → it's launches. compile only 1.08x.",
     "time didn't budge with the bytes, so it's not memory → it's the math units. compile only 1.08x.",
     "describes a compute-bound kernel"),
    # a roof share said to be idle time
    ("a5", "evidence", "62% of peak means about 1.6× of headroom at most: 180 × 0.62 ≈ 112 ms at 100%.",
     "62% of peak means 62% of the 180 ms is idle, ≈ 112 ms wasted.", "not of the time"),
    # the bytes said to decide an overhead-bound time
    ("a3", "evidence", "Compiled is only 1.08× faster: the launches still decide the time.",
     "Compiled is only 1.08× faster, so the fusion win is smaller because the tensor is smaller, but the bytes still"
     " decide the time.", "puts the time on moving bytes"),
    # a rate said to sit below the ceiling it is past
    ("a4", "evidence", "14 GB ÷ 300 GB/s ≈ 46.7 ms per token ≈ 21 tokens/s, and the reported 38 tokens/s sits above"
                       " that ceiling.",
     "14 GB ÷ 300 GB/s ≈ 46.7 ms per token ≈ 21 tokens/s, and the reported 38 tokens/s sits comfortably below that"
     " ceiling.", "38 tokens/s is above the floor"),
    # a whole multiplier after a change, in a lever line
    ("a6", "helps", "Fuse the pointwise kernels, or CUDA graph capture. If the gaps are removed, 400 ms → 80 ms, that"
                    " is 5× faster.",
     "Fuse the pointwise kernels, or CUDA graph capture. If the gaps are removed, 400 ms → 80 ms, that is 4× faster.",
     "400 ms → 80 ms is 5×, not 4×"),
    # another incident's win promised here
    ("a3", "helps", "CUDA graphs or fewer launches; fusion helps a little (that's the 1.08×), not 3.8×.",
     "Hand-write a fused, vectorised kernel to recover A2's 3.8×.", "the other incident's result"),
    # occupancy named as the regime
    ("a8", "regime", "Memory-bound: HBM is saturated; the 55% occupancy is not a regime.",
     "Occupancy-bound: 55% is too low to keep the memory system fed.", "Occupancy is not a regime"),
    # a lever's win promised exactly, off the incident's measurement
    ("a2", "helps", "Fusion by torch.compile: the incident measured 3.8× for it.",
     "Fusion by torch.compile, and one should expect it to run the full 2.0 TB/s and land exactly 4× faster.",
     "exactly 4× is a promise no lever keeps"),
    # eager said to be the quicker
    ("a2", "evidence", "85% o' peak bandwidth (1.7 of 2.0 TB/s), an' the compiled one's 3.8× quicker than eager.",
     "85% o' peak bandwidth (1.7 of 2.0 TB/s), an' eager's 3.8× quicker than the compiled one.", "the other way round"),
    # the headroom said to cover A5's target
    ("a5", "evidence", "62% of peak. Need 180/80 = 2.25×. Headroom 1/0.62 ≈ 1.61×, which falls short of it.",
     "62% of peak. Need 180/80 = 2.25×. Headroom 1/0.62 ≈ 1.61×, which covers it if we tune the kernels to 100%.",
     "Tuning alone cannot reach the target"),
    # A7's kernels said to do more math
    ("a7", "evidence", "ITL 8 → 14 ms with the same kernels: the host waits at .item() every token.",
     "ITL 8 → 14 ms means the GPU is doing 75% more math per token now.", "kernels are unchanged"),
    # a cut in time said as the rise in speed
    ("a5", "evidence", "62% of peak. TTFT 180 ms vs 80 ms target: 56% less time, a 125% speed-up.",
     "62% of peak. TTFT 180 ms vs 80 ms target: a 56% speed-up needed.", "in speed that is 125% faster"),
    # a rate said per second from a time, off by a power of ten (and not read as A3's 8,192 elements)
    ("a3", "evidence", "~12 µs per call ≈ 83k calls/s; compile barely moves it (1.08×).",
     "~12 µs per call ≈ 8.3k calls/s; compile barely moves it (1.08×).", "83.3k a second"),
    # a change said with a hedge between its direction and its figure ("up about 43%")
    ("a7", "evidence", "8 to 14 ms is 6 ms more a token, so ITL's up about 75%. Kernels unchanged.",
     "8 to 14 ms is 6 ms more a token, so ITL's up about 43%. Kernels unchanged.", "not a change of 43%"),
    # a floor from the sentence's own size and rate, a prefix slipped
    ("a8", "evidence", "HBM saturated. ~70 GB of weights per step; on a 2 TB/s card that's 35 ms a step minimum.",
     "HBM saturated. ~70 GB of weights per step; on a 2 TB/s card that's 3.5 ms a step minimum.",
     "70 GB ÷ 2 TB/s is 35 ms"),
    # a figure set under "that", the one said before it
    ("a4", "evidence", "Floor is 14 GB / 300 GB/s ≈ 47 ms, ~21 tok/s. 38 tok/s is above that: batching or int8 weights.",
     "Floor is 14 GB / 300 GB/s ≈ 47 ms, ~21 tok/s. 38 tok/s is under that, so there's nearly 2× still to find.",
     "38 tok/s is above 21 tok/s"),
    # a change of times said as its rates, the "after" hedged
    ("a7", "evidence", "ITL 8 → 14 ms so throughput fell from 125 to about 71 tok/s. Kernels unchanged.",
     "ITL 8 → 14 ms so throughput fell from 125 to about 114 tok/s. Kernels unchanged.", "= 71.4 tok/s, not 114"),
    # the regime left open where the symptoms decide it, or a profiler asked for first
    ("a1", "evidence", "70% of peak could look like compute or memory to a novice, but the FLOP roof's share decides it.",
     "70% of peak could be compute or memory, you'd have to get Nsight on it before calling it.", "the symptoms decide"),
    ("a1", "evidence", "70% of peak TFLOP/s: no profiler needed, the share of the FLOP roof decides it.",
     "70% of peak TFLOP/s; you'd have to get Nsight on it before calling it.", "the symptoms decide"),
    # compile's win said to be the same passes run faster
    ("a2", "evidence", "Eager's at 1.7 of 2.0 TB/s; compile gets its 3.8× by not running the same passes: one read, one"
                       " write.",
     "Eager's at 1.7 of 2.0 TB/s, and compile gets its 3.8× by running the same passes at full bandwidth.",
     "not by moving them faster"),
    # a headroom named and then promised; a time at 100% of the roof promised as what a fix will bring
    ("a1", "evidence", "70% of peak TFLOP/s. Headroom 1/0.7 = 1.43×, and that's the most tile tuning could deliver.",
     "70% of peak TFLOP/s. Headroom 1/0.7 = 1.43×, and that's exactly what tile tuning will deliver.", "not exactly"),
    ("a5", "evidence", "62% of peak; headroom 1/0.62 ≈ 1.61×, so even perfect kernels could at best bring it to 112 ms.",
     "62% of peak; headroom 1/0.62 ≈ 1.61×, so better kernels will bring it to 112 ms.", "a floor no kernel is sure"),
    # FLOPs over a FLOP rate, a prefix slipped; a share of a roof multiplied out wrong
    ("a1", "evidence", "70% of peak TFLOP/s; on the 312 TFLOP/s card that's ~218 TFLOP/s, so the 1.37e11 FLOPs take"
                       " about 0.63 ms a call.",
     "70% of peak TFLOP/s; on the 312 TFLOP/s card that's ~218 TFLOP/s, so the 1.37e11 FLOPs take about 0.63 µs a"
     " call.", "is 628 µs, not 0.63 µs"),
    ("a1", "evidence", "70% of a 312 TFLOP/s card is about 218 TFLOP/s achieved; intensity ≈ 1356 FLOP/B, far above 156.",
     "70% of a 312 TFLOP/s card is about 280 TFLOP/s achieved; intensity ≈ 1356 FLOP/B, far above 156.",
     "= 218 TFLOP/s, not 280"),
    # A3's lever promised a big win where compiling it bought 1.08×
    ("a3", "helps", "Fuse the chain or CUDA-graph it: fewer launches, a small win (1.08×), unlike A2's 3.8×.",
     "Fuse the four ops into one launch: 4 launches → 1, so ~4× faster, about 3 µs.", "measured only 1.08×"),
    ("a3", "helps", "torch.compile or a CUDA graph: fewer launches, a little faster.",
     "torch.compile is the big lever — 3.8× for free.", "measured only 1.08×"),
    # the roof said to be all spent where the incident measures a share under it
    ("a2", "evidence", "1.7 TB/s on a 2.0 TB/s card: 85%, near the roof, nothing left for faster math to win.",
     "1.7 TB/s on a 2.0 TB/s card: it's running at peak bandwidth, flat out, nothing left on the table.",
     "15% of the roof is left"),
    # Scots and Orcadian "o" for "of", "oot o" for "out of"
    ("a2", "evidence", "Hid's doin 1.7 TB/s oot o 2.0, that's 85% o peak. Fower passes eager, one fused.",
     "Hid's doin 1.7 TB/s oot o 2.0, that's 75% o peak. Fower passes eager, one fused.", "85%, not 75%"),
    # A4's KV cache is ~2% of its bytes: a help that only shrinks it moves little; beside int8 weights it is fine
    ("a4", "helps", "int8 weights and paged KV", "Page the KV cache (paged attention) to cut the bytes read.",
     "little here"),
    # A7's time said to be the bytes the copy moves over PCIe
    ("a7", "evidence", "ITL 8 → 14 ms with the kernels unchanged: .item() makes the host wait for the GPU every token.",
     "tensor.item() copies the tensor to host memory every token, so the extra bytes over PCIe push ITL from 8 ms to 14"
     " ms.", "puts the time on moving bytes"),
    # occupancy's what-if: denied, it is the reading; promising a win, it is Rule 4 broken
    ("a8", "evidence", "HBM is saturated: that decides it. Occupancy is 55% but is not a regime; with the bus full, 100%"
                       " occupancy wouldn't move more bytes.",
     "HBM saturated, occupancy 55%, so getting occupancy to 100% would nearly double the tokens/s.",
     "more occupancy adds no bandwidth"),
    # compile's mechanism misstated as a lever's reason, as in an evidence line
    ("a2", "helps", "torch.compile: it fuses the chain so the intermediates never touch HBM.",
     "torch.compile: it gets its 3.8× by running the same passes at full bandwidth.", "not by moving them faster"),
    # a better-tuned kernel beside faster math, on the compute roof; levers denied together ("no … GPUs or FP8")
    ("a1", "helps", "Make the math cheaper or add more of it: fp8 tensor-core paths, a better-tuned kernel, more GPUs.",
     "Micro-optimise the kernel and fuse the relu into it.", "cannot move this kernel"),
    ("a5", "helps", "More GPUs (tensor parallel) or FP8 matmuls.",
     "Kernel tuning alone closes it — no need for extra GPUs or FP8.", "cannot move this kernel"),
    # a unit prefix on the bytes that changes the claim
    ("a1", "evidence", "70% of peak TFLOP/s. Intensity = 1.37e11 FLOP / 1.01e8 B = 1,356,000 FLOP/kB, above the ridge.",
     "70% of peak TFLOP/s. Intensity = 1.37e11 FLOP / 1.01e8 B = 1.356 FLOP/kB, above the ridge.", "1356 FLOP/byte"),
    # the work's size is no card's memory, whatever is said after it
    ("a8", "evidence", "70B at int8 is 70 GB o' weights to drag through HBM every step, and HBM's saturated.",
     "70B at int8 is 140 GB o' weights to drag through HBM every step, and HBM's saturated.", "incident's 70 GB"),
]


@pytest.mark.parametrize(("item", "field", "right", "wrong", "named"), PAIRS, ids=[p[3][:40] for p in PAIRS])
def test_a_kind_passes_right_and_fails_wrong(item: str, field: str, right: str, wrong: str, named: str) -> None:
    good, bad = _check(item, field, right), _check(item, field, wrong)
    assert good["passed"] is True, good
    assert bad["passed"] is False, bad
    assert named in bad["why"], bad["why"]


@pytest.mark.parametrize(("item", "field", "text"), [
    # a bound on what was saved after a comma starts a figure of its own, not a comparison
    ("a3", "evidence", "Eager and compiled both ~12 µs, launch scale; compile moves it only 1.08× (~11.1 µs, under 1 µs"
                       " saved): time is not tracking bytes."),
    # "over" is a difference as often as a comparison
    ("a5", "evidence", "62% of peak; even at 100% it is about 112 ms, 32 ms over the 80 ms target."),
    # the floor said right, in its time and in its rate
    ("a4", "evidence", "Floor: 14 GB / 300 GB/s ≈ 47 ms a token, about 21 tok/s; 38 tok/s is above the floor."),
    # a regime named to set this kernel beside it is a contrast, not a reason
    ("a1", "evidence", "70% of peak TFLOP/s: that's well above the 50% you'd see from a memory-bound kernel, so the"
                       " math is the limit."),
    # the target compared with is no time at the roof
    ("a5", "evidence", "62% of peak. 112 ms at full peak is more than the 80 ms target, so tuning alone misses it."),
    # a variable's quotient is no sum on the last result
    ("a1", "evidence", "Already 70% of peak TFLOP/s, max 1/0.7 = 1.43x only. Intensity n/3 ≈ 1365 FLOP/byte, far above"
                       " the 156 ridge."),
    # a sum said in words: in and out
    ("a3", "evidence", "Even at fp32 that's 32 KiB in and 32 KiB out; 64 KiB / 2 TB/s ≈ 0.03 µs of real traffic. 12 µs"
                       " is launch-scale."),
    # a target denied to every amount of tuning
    ("a5", "evidence", "62% of peak tensor TFLOP/s. Perfect kernels at 100% would give 180 x 0.62 ≈ 112 ms. No amount"
                       " of trimming on this one card reaches 80 ms."),
    # a spaced dash between clauses is no minus sign, and no range
    ("a6", "evidence", "De GPU working 2 µs then liming 8 µs - 20% busy, 80% idle. 40,000 × 8 µs = 320 ms of gap a"
                       " request."),
    ("a2", "evidence", "1.7 TB/s out of 2.0 - 85% of the bandwidth, listeners, the pipe is nearly full."),
    # an analogy's own figures are not the incident's
    ("a3", "evidence", "12 µs for 8,192 elements is pure launch time - like a lineout taking twelve seconds to set for a"
                       " one-second throw. Compiled 1.08x: 12 → ~11.1 µs."),
    # a difference after a time at the roof, and the target it is set against
    ("a5", "evidence", "180 ms at 62% of peak; at 100% it would be 180 × 0.62 = 111.6 ms - still 31.6 ms late against"
                       " the 80 ms slot. Required: 2.25x."),
    # an analogy's own cause is not the incident's
    ("a1", "evidence", "70% of peak TFLOP/s. it's like an SNES game already running the CPU flat out, overclocking the"
                       " cart bus won't help. ~1.36k FLOP/B, way above the 156 ridge."),
    # a floor worked from the line's own size and rate
    ("a3", "evidence", "~12 µs either way is launch-scale: even in fp32 it's 8192·4·2 B ≈ 65 KB a pass, ~33 ns at 2 TB/s."),
    # "gaan": the 3.8× win gone, in Jamaican English
    ("a3", "evidence", "Di tensor only 8,192 elements, an both versions tek ~12 µs. Compile only 1.08×. Di big 3.8× win"
                       " gaan because no traffic deh fi delete."),
    # what is left of the roof, said as the room remaining
    ("a1", "evidence", "Intensity about 1356 FLOP/byte, far above the ridge of 156. Remaining room is only 30% of peak,"
                       " i.e. at best 1/0.7 = 1.43x."),
    # read and write: twice the tensor's bytes
    ("a3", "evidence", "8×32×32 = 8,192 numbers. Read + write in fp32 is ~64 KB, which at 2 TB/s is ~33 ns. Both"
                       " versions take ~12 µs."),
    # Scots: "naebody's FLOP-limited"
    ("a4", "evidence", "14 GB / 300 GB/s = 46.7 ms ⇒ ~21.4 tok/s floor. Measured 38 tok/s is past that floor, so the"
                       " number's got batching or quant baked in, but naebody's FLOP-limited."),
    # a kernel's and a gap's time in one sum
    ("a6", "evidence", "Kernel 2 µs + gap 8 µs = 10 µs per launch. Utilisation = 2/10 = 20%. 40,000 × 10 µs = 0.4 s per"
                       " request."),
    # the weights shared over the batch, per generated token
    ("a8", "evidence", "HBM saturated at batch 8. Weights ≈ 70 GB per step at int8, i.e. ≈ 8.75 GB per generated token"
                       " across the batch."),
    # a difference said with "better" is no comparison
    ("a3", "evidence", "8 × 32 × 32 = 8,192 elements, 32 KB fp32. At 2 TB/s, ~16 ns. But we measure ~12 µs: launch"
                       " time. Compile 1.08× → ~11.1 µs, less than 1 µs better."),
    # the kernels' share of the new step, which is right
    ("a7", "evidence", "8 → 14 ms per token with the same kernels: they still take 8 ms, the other 6 ms is the host"
                       " waiting on .item()."),
    # "on" in a phrasal verb is no time on; "the last 15%" of a roof is what is left of it
    ("a7", "evidence", "14 − 8 = 6 ms tacked on every token with no kernel changes. 14/8 = 1.75× the ITL it used to be."),
    ("a2", "evidence", "Eager's shifting 1.7 TB/s on a 2.0 TB/s card, 85% of peak. You can't get 3.8× out of the last 15%"
                       " of bandwidth (that's 1.18× tops), so compile wins by not writing the in-between tensors out."),
    # a time halved on purpose (two GPUs) is no slip of a format's bytes
    ("a5", "evidence", "62% of peak. 180/80 = 2.25× needed; at 100% it is 180 × 0.62 ≈ 112 ms. Two GPUs at the same 62%"
                       " is ~90 ms, still short of 80."),
    # a rate past the roof that the line itself calls past it: its reductio
    ("a2", "evidence", "1.7 TB/s vs 2.0 TB/s peak = 85%. Compile's 3.8× is impossible without cutting bytes: 1.7 × 3.8 ="
                       " 6.46 TB/s, more than 3× the card's peak. So bytes got deleted."),
    # a ridge said as a range is no intensity of the kernel
    ("a8", "evidence", "HBM saturated. 70 GB of int8 weights a step; batch 8 gives ~16 FLOP/byte, far below a ~150–300"
                       " FLOP/byte ridge. Occupancy 55% is no regime."),
    # "no room left for" a lever says what it cannot buy, not that the roof is spent; a tensor pipe is no bandwidth
    ("a1", "evidence", "70% of peak: the tensor cores are the limit, and there's no room left for fusion to help."),
    ("a5", "regime", "Compute-bound (tensor pipe at 62% of peak)"),
    # Spanish "de" for "of" between figures; Kriol "den" for "then"
    ("a2", "evidence", "1.7 TB/s de 2.0 → 85% of peak bandwidth: the eager kernels already run at the memory's speed."),
    ("a6", "evidence", "Di GPU da work 2 µs den wait 8 µs, so e only busy 2 outta 10 = 20%."),
    # a step's weights shared across a batch named a few words before
    ("a8", "evidence", "HBM saturated. 70 GB of weights per step shared across batch 8, so each sequence's share is"
                       " ~8.75 GB of weight reads. 55% occupancy is no regime."),
    # a floor of a size read and written, within 3× of size ÷ rate
    ("a3", "evidence", "8,192 elements (at fp32, 32 KiB each way); at 2 TB/s the transfer is ~0.03 µs, far under the"
                       " ~12 µs measured: launch-scale."),
    # a rate's "after" given as its working, not as a figure
    ("a7", "evidence", "Throughput: 1000/8 = 125 tok/s → 1000/14 ≈ 71 tok/s, with the kernels unchanged: .item() blocks."),
    # a floor said beside a measured time in other words
    ("a4", "evidence", "14 GB at 300 GB/s, yet each token takes 26 ms: faster than the floor, so batching or int8."),
])
def test_right_lines_of_these_kinds_are_not_failed(item: str, field: str, text: str) -> None:
    check = _check(item, field, text)
    assert check["passed"] is not False, check


def test_fp32_accumulation_is_not_upcasting() -> None:
    """Tensor cores accumulate in FP32: saying so offers no upcast."""
    assert _check("a1", "helps", "FP8 matmuls on the tensor cores (they accumulate in fp32).")["passed"] is True


def test_fussing_is_not_fusion() -> None:
    """"Fussing over .item()" offers no fusion: the typo fixer leaves a real word alone."""
    assert _check("a7", "wastes", "fussing over .item(), it's one scalar, nothing to fly back")["passed"] is not True


def test_an_operator_after_a_nearer_number_is_that_numbers_not_the_last_chains() -> None:
    """A product left without a result ("batch-8 × 2K-context KV") does not go on into the next sentence's ×."""
    line = ("Each decode step streams ~70 GB of int8 weights (70e9 × 1 B) plus batch-8 × 2K-context KV. Each weight"
            " byte does ~2 FLOPs per token × 8 tokens ≈ 16 FLOP/byte, well below a ~156 FLOP/byte ridge.")
    assert _check("a8", "evidence", line)["passed"] is True
    assert _check("a8", "evidence", line.replace("≈ 16", "≈ 32"))["passed"] is False  # its own sum is still held


@pytest.mark.parametrize(("line", "passed"), [
    ("ITL 8 ms → 14 ms with the same kernels, so decode throughput has fallen by 75%.", False),  # the time's rise
    ("ITL 8 ms → 14 ms with the same kernels, so decode throughput has fallen by 43%.", True),
    ("ITL 8 ms → 14 ms with the same kernels: latency has risen by 75%.", True),
])
def test_a_change_said_with_a_participle_keeps_its_direction(line: str, passed: bool) -> None:
    """ "has fallen by", "has risen by": the direction read as from "fell by" and "rose by"."""
    assert _check("a7", "evidence", line)["passed"] is passed


@pytest.mark.parametrize("said", ["it WILL come in 1.43× faster", "it is going to land 1.43× faster",
                                  "it will hit 1.43× faster for sure"])
def test_a_headroom_promised_in_other_words_is_a_bound_read_as_an_equality(said: str) -> None:
    line = f"70% of peak. Headroom 1/0.7 = 1.43×, so retune the tiles and {said}."
    check = _check("a1", "evidence", line)
    assert check["passed"] is False
    assert "at most that, not exactly" in check["why"]
    assert _check("a1", "evidence", line.replace(said, "it could come in up to 1.43× faster"))["passed"] is True


def test_a_name_from_code_keeps_its_case_at_the_start_of_feedback() -> None:
    assert _check("a2", "helps", "torch.compile")["why"].startswith("torch.compile: fits this kernel")
    assert _check("a2", "helps", "fusion")["why"].startswith("Fusion: fits this kernel")
