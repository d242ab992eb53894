"""Kinds of answer the blind sets found misread (issue 40), each held both ways.

Each kind comes from a set written by people who never saw the grader (``bench/grading/fresh-2026-12-05m.json``,
``…n.json``, ``…o.json``, the twenty-fourth to twenty-sixth, all spent): a right line of the kind passes, or at least
is not failed; a wrong line of the same kind fails, naming why. The lines are written anew, in the sets' kinds, not
copied from them.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.catalogue.levers import mentions
from regime_core.grading.answer_lines import read_levers
from regime_core.grading.claims import read
from regime_core.grading.grade import grade
from regime_core.grading.language import with_units

ANSWER = {"regime": "", "evidence": "", "helps": "", "wastes": ""}


def _check(item: str, field: str, text: str) -> dict[str, Any]:
    check: dict[str, Any] = grade({"part_a": {item: {**ANSWER, field: text}}})["items"][item]["checks"][field]
    return check


def _part_c(paragraph: str) -> dict[str, Any]:
    checks: dict[str, Any] = grade({"part_c": paragraph})["items"]["part_c"]["checks"]
    return checks


# (incident, field, a right line, a wrong line of the same kind, words the wrong line's feedback names)
PAIRS = [
    # --- from the twenty-fourth set ---
    # a share given as a fraction of small whole numbers ("= 1/5") is that one number, not the counts 1 and 5
    ("a6", "evidence", "2 µs on, 8 µs off: busy 2/(2+8) = 1/5, idle 4/5", "2 µs on, 8 µs off: busy 2/(2+8) = 1/4",
     "not 1/4"),
    ("a6", "evidence", "2 µs of kernel in every 10 µs: busy 2/10 = 1/5 of the time",
     "2 µs of kernel in every 10 µs: busy 2/10 = 1/4 of the time", "not 1/4"),
    # what is left under the roof, said as headroom with a hedge before its number
    ("a1", "evidence", "Already at 70% of peak FLOP/s, so remaining headroom is only ~30% of peak",
     "Already at 70% of peak FLOP/s; it reaches only ~30% of peak", "what is left"),
    # a percent said "higher" is a change: 8 → 14 ms is +75%, and 43% is the sync's share of the new step
    ("a7", "evidence", "ITL up from 8 ms to 14 ms, so the ITL is 75% higher, with the same kernels",
     "ITL up from 8 ms to 14 ms, so the ITL is 43% higher, with the same kernels", "not a change of 43%"),
    # another thing named the limit with this incident's limit set aside ("that's the bottleneck, not HBM")
    ("a8", "evidence", "HBM is saturated: bandwidth is the bottleneck, not occupancy",
     "55% occupancy means the SMs are half idle, that's the bottleneck, not HBM", "memory bandwidth"),
    # a headroom said to cover a target written with its times
    ("a5", "evidence", "62% of peak leaves 1/0.62 ≈ 1.6× headroom, short of the 180 → 80 ms target",
     "62% of peak leaves 1/0.62 ≈ 1.6× headroom, which covers the 180 → 80 ms target", "112 ms"),
    # the roof bounds the same work done faster, not every change: A2's compile, which cuts the bytes, gave 3.8×
    ("a2", "evidence", "1.7 of 2.0 TB/s = 85% of peak: moving the same bytes faster gives at most ~1.18x",
     "1.7 of 2.0 TB/s = 85% of peak, so only ~15% left — nothing can give more than ~1.18x here", "3.8× faster"),
    ("a2", "evidence", "1.7/2.0 = 85%, so tuning the kernel can make it at most 18% faster",
     "1.7/2.0 = 85%, so no change of any kind can make this chain more than 18% faster.", "3.8× faster"),
    # a time said at the roof, the roof named in the condition before it or reached by a move
    ("a5", "evidence", "62% of peak. If it ran at 100% of peak, TTFT would come down to about 112 ms.",
     "62% of peak. If it ran at 100% of peak, TTFT would come down to about 80 ms.", "112 ms"),
    ("a5", "evidence", "62% of peak, so 38% headroom — get kernels to 100% and TTFT is 180 × 0.62 ≈ 112 ms",
     "62% of peak, so 38% headroom — get kernels to 100% and TTFT is 180 × 0.38 ≈ 68 ms", "112 ms"),
    # most of the time said to be what does not hold it
    ("a5", "evidence", "62% of peak tensor TFLOP/s; most of the 180 ms is the math itself",
     "Most of the 180 ms is host-side tokenising and scheduling; the GPU only manages 62% of peak.",
     "not launch overhead"),
    # the weights' bytes said to be the KV cache
    ("a4", "evidence", "The 14 GB read every token is the weights; 14 GB / 300 GB/s ≈ 46.7 ms.",
     "At context 512 the 14 GB read every token is the KV cache; 14 GB / 300 GB/s ≈ 46.7 ms.", "weights"),
    # "into one custom kernel" is fusion, not a kernel rewrite
    ("a2", "helps", "Fuse the four operations into one custom kernel so that x is read once",
     "A custom kernel rewrite of the chain", "kernel rewrite"),
    # a fused kernel refused as the waste is fusion refused, whatever verb writes it
    ("a2", "wastes", "Hand-writing faster math for the chain", "Hand-writing a fused kernel to cut memory passes",
     "Fusion would actually help"),
    # one sync taken out and another put in every step is a sync put in
    ("a7", "helps", "Take .item() out and keep the token on the GPU",
     "Take .item() out and put a torch.cuda.synchronize() in each step instead, to be safe.", "puts the problem in"),
    # --- from the twenty-fifth set ---
    # "8×32×32 is 16,384× less data": a ratio said of two shapes, not the product's result
    ("a3", "evidence", "~12 µs either way; going from 8×4096×4096 to 8×32×32 is 16,384× less data",
     "~12 µs either way; going from 8×4096×4096 to 8×32×32 is 1,000× less data", "16,384×"),
    # a time said out of reach is not a time said at the roof
    ("a5", "evidence", "62% of tensor peak. Max from tuning = 1/0.62 ≈ 1.6×, that is ~112 ms at 100% peak - still no"
                       " reach 80 ms.",
     "62% of tensor peak. Max from tuning = 1/0.62 ≈ 1.6×, that is ~80 ms at 100% peak.", "112 ms"),
    # a wider format, said in words the upcast lever's synonyms do not hold, is the upcast: it slows every regime
    ("a1", "helps", "Use FP8 on the tensor cores instead of fp16",
     "Run it in fp32 instead so the tensor cores get more work per byte.", "higher precision cannot move"),
    ("a2", "helps", "Fuse the chain with torch.compile", "Switch the chain to fp64 for accuracy",
     "higher precision cannot move"),
    # the GPU said to be kept flat out, where it idles 80% of the time
    ("a6", "regime", "Overhead-bound: the launches can't keep the card flat out",
     "Overhead-bound, because the kernels are keeping the card flat out and the host can't feed it any quicker",
     "not saturated"),
    # the extra time said to be the unchanged kernels' own work
    ("a7", "evidence", "The extra 6 ms (8 → 14 ms) is the host waiting on .item(); the kernels are unchanged.",
     "The extra 6 ms (8 → 14 ms) is attention reading a bigger KV cache every token.", "unchanged"),
    # --- from the twenty-sixth set ---
    # a bound on a change that cuts the work, below what it was measured to give
    ("a2", "evidence", "85% of peak bandwidth, so better loads can't gain more than 1/0.85 ≈ 1.18×",
     "85% of peak bandwidth, so fusion can't gain more than 1/0.85 ≈ 1.18×", "3.8× faster"),
    # a product said of each of the items named before it counts them ("A, B, C at 4096² × 2 bytes each")
    ("a1", "evidence", "70% of peak. Data: A, B, C at 4096^2 × 2 bytes each ≈ 100.7 MB",
     "70% of peak. Data: A, B, C at 4096^2 × 2 bytes each ≈ 33.6 MB", "not 33.6 MB"),
    ("a1", "evidence", "70% of peak. Data: A, B and C at 4096^2 × 2 bytes each ≈ 100.7 MB",
     "70% of peak. Data: 4096^2 × 2 bytes each ≈ 100.7 MB", "not 100.7 MB"),
    # the side of the ridge said of the line's own quotient, checked against the ridge it names
    ("a1", "evidence", "Intensity = 1.37e11 / 1.01e8 ≈ 1356, which is far above the ridge of 156, so compute",
     "Intensity = 1.01e8 / 1.37e11 ≈ 0.0007, which is far above the ridge of 156, so compute", "below the ridge"),
    # a multiplier named as peak over achieved is 1 ÷ the share reached
    ("a2", "evidence", "1.18× is the ratio of peak to achieved bandwidth; 1.7 TB/s on 2.0 TB/s",
     "The 3.8x is the ratio of peak to achieved bandwidth; 1.7 TB/s on 2.0 TB/s", "1.18×, not 3.8×"),
    # a help that only brings the kernel nearer its roof promises no more than the roof allows
    ("a2", "helps", "Fuse the chain with torch.compile, as the 3.8× shows; vectorising the loads alone gives at most"
     " 1.18×", "Make each eager kernel faster on its own: vectorise the loads and the chain will catch up with"
     " compile's 3.8×", "1.18× at most"),
    # --- from the training set of 2026-12-06 (bench/grading/train-2026-12-06.json) ---
    # a time said at a bandwidth is a floor (bytes ÷ bandwidth), not the eager chain's measured time
    ("a3", "evidence", "~262 KB for all eight eager passes, which is ~0.13 µs at 2 TB/s — about 1% of the 12 µs",
     "~262 KB for all eight eager passes; eager takes ~0.13 µs, about 1% of the compiled time", "eager chain at 12 µs"),
    # a share said of the time is the time's, not a roof's
    ("a3", "evidence", "0.13 µs of bytes vs 12 µs measured, so ≥98% of the time isn't memory traffic",
     "0.13 µs of bytes vs 12 µs measured, so ≥98% of peak bandwidth sits unused", "not of peak bandwidth"),
    # a formula in words labels the working; the working is checked
    ("a3", "evidence", "Bytes ÷ bandwidth: even fp32 at 8 passes = 8 × 32 KiB ≈ 0.26 MB → ~0.13 µs at 2 TB/s, vs 12 µs"
     " measured.", "Bytes ÷ bandwidth: even fp32 at 8 passes = 8 × 32 KiB ≈ 2.6 MB → ~1.3 µs at 2 TB/s, vs 12 µs"
     " measured.", "not 2.6 MB"),
    # a bound on the size ratio ("way more dan 4×") is a bound
    ("a3", "evidence", "Rule 3: the tensor shrink way more dan 4× against A2 (16,384×), and the time stays ~12 µs",
     "Rule 3: the tensor is less than 4× smaller than A2's, and the time stays ~12 µs", "not at most 4×"),
    # how far an intensity is from the ridge, said roughly ("a thousand-odd times")
    ("a2", "evidence", "85% of peak; elementwise ops do ~0.125 FLOP/B, a thousand-odd times below a ridge of ~156",
     "85% of peak; elementwise ops do ~0.125 FLOP/B, some 100 times below a ridge of ~156", "1,248× below the ridge"),
    # a bare operand given with its unit before carries it: 2.5 ms ÷ 3.8 is 0.66 ms
    ("a2", "evidence", "85% of peak; eager ~2.5 ms in fp32; compiled ≈ 2.5/3.8 ≈ 0.66 ms",
     "85% of peak; eager ~2.5 ms in fp32; compiled ≈ 2.5/3.8 ≈ 0.66 µs", "658 µs, not 0.66 µs"),
    # a size said in a format is that format's width times the elements
    ("a2", "evidence", "85% of peak; 134M elements → about 537 MB per pass in fp32",
     "85% of peak; 134M elements → about 268 MB per pass in fp32", "(fp32) is 536 MB"),
    # fewer bytes for the same FLOPs raise the intensity
    ("a8", "helps", "int4 weights halve the bytes (70 → 35 GB), which doubles the intensity",
     "int4 weights halve the bytes (70 → 35 GB), which halves the intensity", "goes up, not down"),
    # another regime named in contrast ("nowhere near … a memory-bound time") is not this kernel's
    ("a3", "evidence", "Both take ~12 µs, nowhere near a proportional scale-down of a memory-bound time",
     "Both take ~12 µs, the scale-down of a memory-bound time", "describes a memory-bound kernel"),
    # a ridge said "near" or "like" its figure, for an incident that names no card
    ("a8", "evidence", "HBM saturated; 16 FLOP/B, well short of any ridge near 156",
     "HBM saturated; 16 FLOP/B, well above any ridge near 156", "below the ridge"),
    # British "maths" is the vocabulary's "math"
    ("a2", "wastes", "Faster maths.", "More memory bandwidth.", "would actually help"),
    # a value left on the GPU is the host read taken out
    ("a7", "helps", "Leave the token on the GPU and only bring it ashore every so many steps.",
     "Call torch.cuda.synchronize() before every .item().", "puts the problem in"),
    # new kernels for the work that did not change are a rewrite
    ("a7", "wastes", "New matmul or attention kernels.", "Taking the .item() out of the loop.", "would actually help"),
    # the work said to grow by the time the sync added
    ("a7", "evidence", "14/8 = 1.75× slower per token, kernels untouched, so GPU work didn't grow",
     "14/8 = 1.75× slower per token, and the GPU work grew by 6 ms", "unchanged"),
    # --- from the second training set of 2026-12-06 (bench/grading/train-2026-12-06b.json) ---
    # a quotient said to three figures is held to them ("2.0/1.7 ≈ 1.25×" is no prefix left off)
    ("a2", "evidence", "1.7/2.0 = 85% of peak. Bandwidth headroom for eager is only 2.0/1.7 ≈ 1.18×.",
     "1.7/2.0 = 85% of peak. Bandwidth headroom for eager is only 2.0/1.7 ≈ 1.25×.", "is 1.18, not 1.25"),
    # the incident's speed-up said to be roof left unused
    ("a2", "evidence", "Achieved 1.7 TB/s is 85% of peak, so only ~1.18× of bandwidth is left unused.",
     "Achieved 1.7 TB/s is 85% of peak, so there's still ~3.8× of bandwidth left unused in the eager kernels.",
     "1.18×, not 3.8×"),
    # a bound on what better kernels give, below the roof
    ("a5", "evidence", "62% of peak means 38% headroom, i.e. at most 1.61× from better kernels; 2.25× is needed.",
     "62% of peak means 38% headroom, i.e. at most 1.38× from better kernels; 2.25× is needed.", "more than at most 1.38×"),
    # a time said inside a budget it misses
    ("a5", "evidence", "62% of peak. FP8 at the same 62% would give 180/2 = 90 ms, still outside the 80 ms budget.",
     "62% of peak. FP8 at the same 62% would give 180/2 = 90 ms, inside the 80 ms budget.", "does not meet it"),
    # the step's change given to the kernels the incident says are unchanged
    ("a7", "evidence", "ITL went from 8 to 14 ms per token once the .item() was added; the kernels are unchanged.",
     "Matmul and attention time went from 8 to 14 ms per token once the .item() was added.", "unchanged"),
    # the time left with the gaps gone is the kernels', not the gaps' own total
    ("a6", "helps", "CUDA graphs: removing the 8 µs gaps takes a request from 400 ms down to 80 ms, a 5× win.",
     "CUDA graphs: removing the 8 µs gaps takes a request from 400 ms down to 320 ms, about a 20% win.",
     "the gaps' own total"),
    ("a6", "evidence", "2 µs on, 8 µs off: removing the gaps takes a request from 400 ms down to 80 ms",
     "2 µs on, 8 µs off: removing the gaps takes a request from 400 ms down to 320 ms", "the gaps' own total"),
    # levers in more words: "faster ALU math", "faster matmuls", "tuning loads and stores", "stop reading … back"
    ("a2", "wastes", "Faster ALU math.", "Fusing the chain.", "would actually help"),
    ("a7", "wastes", "Faster matmuls.", "Taking the .item() out.", "would actually help"),
    ("a3", "wastes", "Tuning loads and stores.", "Fewer launches.", "would actually help"),
    ("a7", "helps", "Stop reading a tensor back to the host each token.",
     "Stop reading a tensor back to the host each token, and call synchronize() every step.", "puts the problem in"),
    # an Eastern Caribbean "nutting in de kernels change" says the kernels did not change
    ("a7", "evidence", "ITL from 8 to 14 ms = 75% more. Nutting in de kernels change, so de 6 ms a token is CPU blocked"
     " on .item().", "ITL from 8 to 14 ms = 75% more. De kernels dem got slower by 6 ms a token.", "unchanged"),
    # --- from the twenty-seventh set (spent), its right lines marked wrong ---
    # what is left said "is the only slack" after its number is left, not reached
    ("a1", "evidence", "Running at 70% of peak TFLOP/s. So 30% of peak is the only slack: at most 1.43×.",
     "Running at 70% of peak TFLOP/s. So 70% of peak is the only slack.", "what is left is 30%"),
    # a count of values given as a size carries a width; a width named beside it is held to
    ("a2", "evidence", "85% of peak bandwidth. If it's fp32, each pass over 8×4096×4096 is ~537 MB.",
     "85% of peak bandwidth. Each pass over 8×4096×4096 is ~268 MB in fp32.", "537 MB"),
    # "impossible" said of the share a target would need, with its working in brackets after it
    ("a5", "evidence", "62% of peak; 180 ÷ 80 = 2.25× would mean 139.5% of peak on one GPU (0.62 × 2.25) — impossible."
     " Best case ≈ 112 ms.", "62% of peak; that 62% reading is impossible, a measurement error.", "beyond its card's"),
    # promises: "exactly 2× faster" where the incident measured no speed-up; a kernel said to end up at its roof
    ("a4", "helps", "int8 weights halve the bytes: exactly 2× fewer bytes, so up to ~2× faster.",
     "int8 weights halve the bytes, so it will go exactly 2× faster.", "a promise"),
    ("a1", "helps", "Autotune the tile sizes; at best 1.43× even if it reached 100% of peak.",
     "Autotune the tile sizes — that gives the full 1.43× back, so the matmul ends up at 100% of peak.",
     "no kernel reaches 100%"),
    ("a4", "helps", "int8 weights halve the bytes, so up to ~2× on the floor.",
     "int8 weights — halves the bytes, so it'll go to exactly 76 tok/s.", "a promise"),
    ("a8", "helps", "int4 quant halves the weight bytes: up to ~2× tokens/s on the same HBM.",
     "int4 quant halves the bytes so tokens/s doubles exactly.", "a promise"),
    ("a5", "helps", "FP8 and more GPUs; tuning the GEMMs alone tops out near 112 ms.",
     "Tune the GEMM and attention kernels up to 100 % of peak, that gives the 80 ms.", "112 ms"),
    # --- from training sets 2026-12-06d and e: promises past a roof or a format's width, misread right lines ---
    ("a2", "helps", "Fuse with torch.compile: the same bytes can't go past 2.0 TB/s, but fewer bytes is 3.8× less time.",
     "Fuse with torch.compile; that pushes the achieved bandwidth from 1.7 up to about 6.5 TB/s (3.8 × 1.7).",
     "past this card's roof"),
    ("a8", "helps", "int4 quantisation — halves the bytes, so up to 2× faster.",
     "int4 quantisation — halves the bytes, so tokens come 4× faster.", "at most 2× faster"),
    ("a5", "helps", "FP8 and more GPUs: tuning the kernels to 100% of peak would still land TTFT near 112 ms.",
     "Tune the attention and GEMM kernels up to 100% of peak — that lands TTFT at about 80 ms.", "112 ms"),
    ("a5", "evidence", "62 % of peak → ceiling ×1.61 (1/0.62). Target needs ×2.25 (180/80): impossible with kernel work"
     " alone; at 100 % we would still be at ~112 ms.", "62% of peak; the 62% reading is impossible.", "beyond its card's"),
    ("a1", "helps", "Tensor core efficiency: check the cuBLAS algo, maybe fp8. Nò fusion.",
     "Tensor core efficiency: fuse the relu into the matmul.", "cannot move this kernel"),
    ("a3", "helps", "Fewer launches: CUDA graphs, or batch many requests into one call.",
     "Pull the tensor to the host with .cpu(), run the chain in numpy and copy it back.", "host"),
    ("a1", "wastes", "Buying a card with more HBM bandwidth: bytes are not what limits this one.",
     "Buying more tensor-core throughput: the math is not what limits this one.", "would actually help"),
    ("a7", "helps", "Drop the per-token .item() and ITL comes back to about 8 ms.",
     "Drop the per-token .item() and ITL comes back well under 8 ms.", "what it was before"),
    # a time taken by the incident's own speed-up, held to it; a total named as the other part's
    ("a3", "evidence", "8,192 elements, ~12 µs. Compiled is 1.08× faster, so 12 → about 11.1 µs, small thing.",
     "8,192 elements, ~12 µs. Compiled is 1.08× faster, so 12 → about 11.9 µs, small thing.", "not 11.9"),
    ("a6", "evidence", "2 µs on, 8 µs off; per request 400 ms: the idle line is 320 ms and the kernel line is 80 ms.",
     "2 µs on, 8 µs off; per request 400 ms: the idle line is 80 ms and the kernel line is 320 ms.",
     "the kernels' (busy) total"),
    # --- from training sets 2026-12-06f and g ---
    ("a2", "helps", "torch.compile / fusion: that is where the measured 3.8× came from.",
     "torch.compile / fusion — and then a hand-written fused CUDA kernel will give roughly another 3.8× on top.",
     "already bought"),
    ("a5", "helps", "More GPUs: three H100s split the prompt, 180/3 = 60 ms, which reaches the 80 ms target.",
     "More GPUs: two H100 split the prompt, 180/2 = 90 ms, this reach the 80 ms target.", "does not meet"),
    ("a3", "evidence", "8192 elements, in fp32 that is 32 KB; at 2 TB/s that takes about 16 ns, so 12 µs is launches.",
     "8192 elements, in fp32 that is 32 KB, and read + write at 2 TB/s takes about 12 µs.", "not 12 µs"),
    ("a4", "helps", "int8 weights: halves the bytes, so up to ~76 tok/s at best.",
     "int8 weights: halves the bytes, so 38 tok/s becomes 76 tok/s for sure.", "a promise"),
    ("a5", "helps", "Switch to fp8 — doubles the peak, so TTFT drops to ~90 ms at the same 62%.",
     "Switch to fp8 — doubles the peak, so TTFT drops to 80 ms on its own, job done.", "90 ms"),
    ("a2", "evidence", "85% of peak bandwidth, so memory is what limits it.",
     "85% of peak bandwidth, so memory cannot be the limit.", "memory bandwidth"),
    ("a7", "evidence", "ITL 8 ms to 14 ms, that is 6 ms more, so ITL grow by 75 %. Kernels are the same.",
     "ITL 8 ms to 14 ms, that is 6 ms more, so ITL grow by 43 %. Kernels are the same.", "not a change of 43%"),
    ("a5", "evidence", "62% of peak. At 100% of peak TTFT is 180 × 0.62 ≈ 112 ms, and tuning can't get us down to 80.",
     "62% of peak. At 100% of peak TTFT is 180 × 0.62 ≈ 112 ms, and with more tuning on top we get down to 80.",
     "faster than this card's peak allows"),
    ("a3", "evidence", "~12 µs, launch scale. The same chain at (8, 4096, 4096) was bandwidth-limited; here there are"
     " 16,384× fewer elements.", "~12 µs. This chain is bandwidth-limited.", "overhead"),
    ("a7", "evidence", "ITL 8 ms → 14 ms is 125 tok/s → ~71 tok/s. kernels unchanged.",
     "ITL 8 ms → 14 ms is 125 tok/s → ~60 tok/s. kernels unchanged.", "not 60 tok/s"),
    # the most tokens a second the weights allow said as the least (set 27's spent lines)
    ("a4", "evidence", "14 GB / 300 GB/s ≈ 47 ms per token, so at most ~21 tok/s; 38 tok/s is past it, so batching or"
     " quant is in it.", "14 GB of weights / 300 GB/s ≈ 47 ms per token, so the card should manage at least ~21 tok/s;"
     " 38 tok/s is comfortably above that minimum.", "the most the bytes allow"),
    # --- from training sets 2026-12-06h and i ---
    ("a2", "evidence", "1.7 of 2.0 TB/s = 85%. Nothing much left to gain by pushing that number (1/0.85 ≈ 1.18x tops);"
     " compile's 3.8x comes from moving fewer bytes.", "85% of peak, so nothing can give more than ~1.18x here.",
     "not the most any change can give"),
    ("a5", "evidence", "62 % of peak. If kernels reach 100 % peak, time becomes 180 × 0.62 ≈ 112 ms, so tuning alone"
     " misses 80 ms.", "62 % of peak. If kernels reach 100 % peak, time becomes 180 × 0.38 ≈ 68 ms, so 80 ms is"
     " reachable by tuning.", "112 ms, not 68 ms"),
    ("a5", "evidence", "62% of peak; at 100% it would take 180 × 0.62 ≈ 112 ms, so kernel tuning alone could never meet"
     " the 80 ms.", "62% of peak; at 100% it would take 180 × 0.62 ≈ 112 ms, so kernel tuning alone could just about"
     " meet the 80 ms.", "faster than this card's peak allows"),
    ("a3", "evidence", "8×32×32 = 8,192 elements, 16,384x fewer than the (8,4096,4096) in A2, yet ~12 µs both ways.",
     "8×32×32 = 8,192 elements, 4096x fewer than the (8,4096,4096) in A2, yet ~12 µs both ways.", "not 4096×"),
    ("a1", "evidence", "70% pk TFLOP/s. int = 2n³/6n² = n/3 ≈ 1365 F/B. ridge (P-B card) 156. int above ridge → cmp.",
     "70% pk TFLOP/s. int = 2n³/6n² = n/3 ≈ 1365 F/B. ridge (P-B card) 156. int below ridge → cmp.",
     "above the ridge, not below"),
    # --- from training set 2026-12-06c: what is left under the roof, as a rate and restated in brackets ---
    ("a2", "evidence", "85% of peak bandwidth; what is left on the table is only 0.3 TB/s (15%).",
     "85% of peak bandwidth; what is left on the table is only 0.3 TB/s (85%).", "what is left is 15%"),
    # a side said with a Caribbean determiner before the ridge's figure ("above da 156 ridge")
    ("a8", "evidence", "HBM saturated; about 16 FLOP/byte, which is below da 156 ridge.",
     "HBM saturated; about 16 FLOP/byte, which is above da 156 ridge.", "below the ridge"),
    ("a1", "helps", "Lower precision or more GPUs; otherwise leave it, what remains is 30% of peak at most.",
     "Lower precision or more GPUs; otherwise leave it, what remains is 70% of peak.", "what is left is 30%"),
    # --- fifteenth session ---
    # a speed-up said as the most there is ("at best", "max", "ceiling") is the headroom 1 ÷ the share, even with
    # working shown for another sum ("1 + 0.38")
    ("a5", "evidence", "62% of peak → we could be 1.61× faster at best (1/0.62), so 180 → 112 ms.",
     "62% of peak → we could be 1.38× faster at best (1 + 0.38), so 180 → 130 ms.", "1 ÷ 62% = 1.61×"),
    ("a1", "evidence", "Running at 70% of peak TFLOP/s: at best 1.43x more in it.",
     "Running at 70% of peak TFLOP/s: at best 1.3x more in it.", "not 1.3×"),
    ("a1", "evidence", "70% of peak means a max speedup of 1.4x.", "70% of peak means a max speedup of 1.3x.",
     "not 1.3×"),
    ("a1", "evidence", "70% of peak: the ceiling is about 1.43× more.", "70% of peak: the ceiling is 3.3× more.",
     "1 ÷ what is left"),
    # a rate said after a time per token ("47 ms per token, which is 38 tok/s") is 1 ÷ that time
    ("a4", "evidence", "14 GB ÷ 300 GB/s ≈ 47 ms per token, which is 21 tok/s — under the 38 it reports.",
     "14 GB ÷ 300 GB/s ≈ 47 ms per token, which is 38 tok/s — exactly what it reports, so we're at 100 % of bandwidth.",
     "21.3 tok/s"),
    # a time a speed-up "removes" is what it saves, and a saving said as a bound holds of the measured time's
    ("a3", "evidence", "Both ~12 µs; compile removes about 0.9 µs per call.",
     "Both ~12 µs; compile removes 1.08 µs per call.", "889 ns"),
    ("a3", "evidence", "Both ~12 µs; compiled 1.08× faster saves not even 1 µs.",
     "Both ~12 µs; compiled 1.08× faster saves not even 0.5 µs.", "not under 0.5 µs"),
    ("a3", "evidence", "Both ~12 µs; compile saves well under 1 µs.", "Both ~12 µs; compile saves over 2 µs.",
     "not over 2 µs"),
    # a thin or narrow space between a number and its unit is a space: "1.08 µs" is a time, not the 1.08×
    ("a3", "evidence", "Both ~12\u2009µs; the compiled 1.08\u2009× saves about 0.9\u2009µs per call.",
     "Both ~12\u2009µs; the compiled 1.08\u2009× means compile removes 1.08\u2009µs per call.", "889 ns"),
    # A3's tensor dimension times its floor is no figure of the incident's ("8 × 131 ns")
    ("a3", "evidence", "Both ~12 µs; moving the data takes about 131 ns.", "Both ~12 µs; moving the data takes about"
     " 1.05 µs.", "factor of 8"),
    # A6's gaps are the host's launches, not the GPU's own work
    ("a6", "evidence", "Busy 2 ÷ 10 = 20%; the 320 ms of gaps are the GPU waiting on the host's launches.",
     "Busy 2 ÷ 10 = 20%; the 320 ms of gaps are the GPU's own scheduling between grids, not the host.",
     "not the GPU's own work"),
    ("a6", "evidence", "40,000 × 2 µs = 80 ms of kernel a request; in the 8 µs gaps the GPU waits for the CPU.",
     "40,000 × 2 µs = 80 ms of kernel a request, and the 8 µs gaps are the GPU still crunching between kernels.",
     "not the GPU's own work"),
    # a time said as saved ("took 0.9 µs less") is what the speed-up saves
    ("a3", "evidence", "Both about 12 µs; compiled took about 0.9 µs less.", "Both about 12 µs; compiled took 1.08 µs less.",
     "889 ns"),
    # a lever that fits, applied only to A4's small KV cache, moves little; applied to the weights it helps
    ("a4", "helps", "Quantise the weights to int8 and page the KV cache.", "Shrink the KV cache (paging / fp8 KV).",
     "applied to the KV cache"),
    ("a4", "helps", "Reduce bytes per token: quantisation, batching, a leaner KV cache (GQA).",
     "Page and compress the KV cache; that's where the bandwidth goes.", "applied to the KV cache"),
    # A2's 3.8× quoted in A3 passes set beside A2 (named, its size, its win gone); claimed for A3 it is wrong
    ("a3", "evidence", "8,192 elements, ~12 µs; the 3.8× of the big tensor is gone, compile gives only 1.08×.",
     "8,192 elements, ~12 µs. Compile still gets its 3.8× on the bandwidth, it just shows up as only 1.08× on the"
     " clock.", "A2's figure"),
    # A8's occupancy complement given to the bandwidth, which the incident says is saturated
    ("a8", "evidence", "HBM saturated; occupancy 55% means 45% of the warp slots are idle, but that is not a regime.",
     "HBM is saturated, but 55 % occupancy leaves about 45 % of the bandwidth unused.", "no bandwidth is left unused"),
    # an intensity on the wrong side of a ridge written "~156"
    ("a1", "evidence", "70 % of peak. intensity ≈ 1.37e11 / 1.01e8 ≈ 1360 FLOP/B, roughly 9× past a ~156 ridge.",
     "70 % of peak. intensity ≈ 1.37e11 / 1.01e8 ≈ 1360 FLOP/B, which is below the ~156 ridge, so the FLOPs are the"
     " limit", "above the ridge"),
    # a saving said roughly is still held to what the speed-up saves
    ("a3", "evidence", "Both ~12 µs. 1.08× faster compiled means it saves roughly 0.9 µs per call, peanuts.",
     "Both ~12 µs. 1.08× faster compiled means it saves roughly 1 ms per call, peanuts.", "889 ns"),
    # removing A6's gaps saves the gaps' total, not the kernels'
    ("a6", "evidence", "Busy 2/(2+8) = 20%. Removing every gap would save 320 ms per request.",
     "Busy 2/(2+8) = 20%. Removing every gap would save 80 ms per request.", "the kernels' total"),
    # A2's measured rate "N× slower than" the roof is peak ÷ achieved
    ("a2", "evidence", "the eager chain reaches 1.7 TB/s, which is 1.18x slower than the card's 2.0 TB/s",
     "the eager chain reaches 1.7 TB/s, which is 3.8x slower than the card's 2.0 TB/s", "1.18×, not 3.8×"),
    # a step "N× shorter" from a narrower weight format is held to the format's width
    ("a8", "helps", "int4 weights: 70 GB → 35 GB, so each step gets about 2× shorter",
     "int4 weights: 70 GB → 35 GB, so each step gets about 4× shorter", "at most 2× faster"),
]


@pytest.mark.parametrize(("item", "field", "right", "wrong", "named"), PAIRS, ids=[p[3][:40] for p in PAIRS])
def test_a_kind_passes_right_and_fails_wrong(item: str, field: str, right: str, wrong: str, named: str) -> None:
    good, bad = _check(item, field, right), _check(item, field, wrong)
    assert good["passed"] is True, good
    assert bad["passed"] is False, bad
    assert named in bad["why"], bad["why"]


# (a right paragraph, a wrong one of the same kind, the aspect, words the wrong one's feedback names)
PART_C_PAIRS = [
    # --- from the twenty-fourth set ---
    # fusion credited with a share of the roof won back where the math sets the time
    ("Fusion pays where bytes set the time: A2 got 3.8× from compile. A1's matmul at 70% of peak won't get the"
     " missing 30% back by fusing the relu: the math sets its time.",
     "Fusion pays where bytes set the time: A2 got 3.8× from compile, and even A1's matmul at 70% of peak would get"
     " the missing 30% back by fusing the relu.", "fusion", "fusion cannot help A1"),
    # fusion set aside where it is the fix ("…, not by fusion", "… rather than fusion")
    ("In A6 fusion fixes the launches, rather than faster kernels.",
     "In A6 faster kernels fix the launches rather than fusion.", "fusion", "fusion is the fix for A6"),
    ("In A6 the 40,000 launches are fixed by fusion, not by making each 2 µs kernel faster.",
     "In A6 the 40,000 launches are fixed by making each 2 µs kernel faster, not by fusion.", "fusion",
     "fusion is the fix for A6"),
    # a decode said to double under fusion
    ("In A4 fusing the attention would barely help decode: the weights are nearly all its bytes.",
     "In A4 fusing the attention would double decode speed.", "fusion", "cannot speed A4 up much"),
    # --- from the twenty-fifth and twenty-sixth sets ---
    # a share of the roof said to be won back by fusion where the math sets the time ("grab that back")
    ("Fusion pays when bytes are the bill: A2 is at 1.7 of 2.0 TB/s and compiled came out 3.8x faster. A1's matmul is"
     " at 70% of peak, and fusing the relu into it won't grab the last 30% back: the math sets its time.",
     "Fusion pays when bytes are the bill: A2 is at 1.7 of 2.0 TB/s and compiled came out 3.8x faster. A1's matmul is"
     " at 70% of peak, and fusing the relu into it is exactly how you grab the last 30% back.", "fusion",
     "fusion cannot help A1"),
    # fusion said to get a compute-bound kernel "the rest of the way to peak"
    ("Fusion pays where bytes set the time: A2 at 1.7 of 2.0 TB/s, compile 3.8× faster. For the A1 matmul at 70% of"
     " peak, putting the relu inside it won't get the rest of the way to peak: the math sets its time.",
     "Fusion pays where bytes set the time: A2 at 1.7 of 2.0 TB/s, compile 3.8× faster. Even the A1 matmul at 70% of"
     " peak should be fused — putting the relu inside it gets the rest of the way to peak.", "fusion",
     "fusion cannot help A1"),
    # a Part B row given the ridge's figure
    ("Fusion pays where bytes set the time: A2 at 1.7 of 2.0 TB/s, compile 3.8×. It can't help where the math does: A1"
     " at 70% of peak. Decode sits at about 1 FLOP/byte, far below the 156 ridge.",
     "Fusion pays where bytes set the time: A2 at 1.7 of 2.0 TB/s, compile 3.8×. It can't help where the math does: A1"
     " at 70% of peak. Decode sits at about 156 FLOP/byte, right on the ridge.", "number", "is the ridge"),
    # a decode said to go "to well over" twice its rate under fusion
    ("Fusion pays for A2 (1.7 of 2.0 TB/s, compile 3.8× faster), not for A1 at 70% of peak. In A4, fusing attention"
     " would barely move decode from 38 tok/s: the weights are nearly all its bytes.",
     "Fusion pays for A2 (1.7 of 2.0 TB/s, compile 3.8× faster), not for A1 at 70% of peak. In A4, fusing attention"
     " into a faster kernel would take decode from 38 tok/s to well over 76 tok/s.", "fusion", "cannot speed A4 up much"),
    # fusion described as one op riding "in the same kernel" as the matmul, paying where the math sets the time
    ("A2 went 3.8× faster fused. A1's 4096 matmul gets nothing from having the relu ride along in the same kernel:"
     " the math sets its time.",
     "A2 went 3.8× faster fused, and even A1's 4096 matmul gets faster once the relu rides along in the same kernel.",
     "fusion", "fusion cannot help A1"),
    # --- from the training set of 2026-12-06 ---
    # fusion said to take a compute-bound incident's time to its target
    ("A2 went 3.8× faster under compile: bytes set its time. In A5 fusing the prefill kernels won't get TTFT from 180 ms"
     " down to 80 ms: the math sets its time.",
     "A2 went 3.8× faster under compile: bytes set its time. In A5 fusing the prefill kernels is how you get TTFT from"
     " 180 ms down to the 80 ms product wants.", "fusion", "fusion cannot help A5"),
    # a sentence that names two incidents hands neither on to the next
    ("Look at A2 and A3 side by side. The chain on (8, 4096, 4096) runs at 1.7 of 2.0 TB/s and compile makes it 3.8×"
     " faster; A1 at 70% of peak is compute-bound, and fusing its relu cannot help.",
     "Look at A3. On its (8, 32, 32) tensor compile makes the chain 3.8× faster; A1 at 70% of peak is compute-bound,"
     " and fusing its relu cannot help.", "number", "Of A3"),
    # Caribbean "de" is "the": another incident's multiplier got by this one, in its words
    ("Fusion is de right call on memory-bound work: A2 get de 3.8× from compile because fusion delete de round trips."
     " On A1's matmul at 70% of peak, fusing de relu buy nothing.",
     "Fusion is de right call on memory-bound work: A2 and A3 both get de 3.8× from compile because fusion delete de"
     " round trips. On A1's matmul at 70% of peak, fusing de relu buy nothing.", "fusion", "bought only 1.08×"),
    # fusion said to move the work onto the tensor cores
    ("Fusion is right for A2: compile is 3.8× faster because the fused kernel reads and writes the tensor once. It is"
     " wrong for A1, where the matmul is already at 70% of peak and compute-bound.",
     "Fusion is right for A2: compile is 3.8× faster because the fused kernel runs the multiply, add and relu on tensor"
     " cores instead of CUDA cores. It is wrong for A1, where the matmul is already at 70% of peak and compute-bound.",
     "fusion", "leaves the FLOPs"),
    # --- from the twenty-seventh set (spent): bytes saved "for a kernel whose time is all math" are saved in vain
    ("Fusion pays where bytes set the time: A2 got 3.8× from compile. It is career-limiting when the kernel is"
     " compute-bound: A1 is at 70% of peak already; fusing the relu next to it saves a few MB of traffic for a kernel"
     " whose time is all math.",
     "Fusion pays where bytes set the time: A2 got 3.8× from compile. It is career-limiting when the kernel is"
     " compute-bound, but A1 is at 70% of peak already; fusing the relu next to it saves the traffic that holds it back.",
     "fusion", "fusion cannot help A1"),
    # "ain't worth the week" refuses fusion
    ("A2 got 3.8× from compile: bytes set its time. In A1 the matmul already at 70% of peak, so fusing the relu ain't"
     " worth the week.",
     "A2 got 3.8× from compile: bytes set its time. In A1 the matmul already at 70% of peak, so fusing the relu is"
     " worth the week.", "fusion", "fusion cannot help A1"),
    # a stance for every kernel said by the clause's second "always"
    ("A2 went 3.8× faster fused, where bytes set the time; A1 at 70% of peak is compute-bound, and fusing its relu"
     " cannot help.",
     "A2 went 3.8× faster fused. A fused kernel always beats a chain of separate ones, so it's always the right"
     " sentence.", "both_sides", "one side for every kernel"),
    # fusion recommended for a compute-bound kernel ("we should fuse …"), and refused with "shouldn't"
    ("A2 got 3.8× from compile, where bytes set the time. We shouldn't fuse the relu into the A1 matmul: it is"
     " compute-bound.",
     "A2 got 3.8× from compile, where bytes set the time. We should fuse the relu into the A1 matmul too.", "fusion",
     "fusion cannot help A1"),
    # the clause after a semicolon goes on about the incident before it
    ("A2 got 3.8× from compile. The A1 matmul achieves 70% of peak, and the math sets its time; fusing the preceding"
     " relu changes nothing that matters there.",
     "A2 got 3.8× from compile. The A1 matmul achieves 70% of peak, stalled on memory the other 30%; fusing the"
     " preceding relu removes that traffic and recovers the gap.", "fusion", "fusion cannot help A1"),
]


@pytest.mark.parametrize(("right", "wrong", "aspect", "named"), PART_C_PAIRS, ids=[p[3] for p in PART_C_PAIRS])
def test_a_part_c_kind_is_not_failed_right_and_fails_wrong(right: str, wrong: str, aspect: str, named: str) -> None:
    good, bad = _part_c(right)[aspect], _part_c(wrong)[aspect]
    assert good["passed"] is not False, good
    assert bad["passed"] is False, bad
    assert named in bad["why"], bad["why"]


def test_a_fraction_given_as_a_result_is_one_number_and_a_fraction_in_the_working_is_not() -> None:
    given = read(with_units("busy 2/10 = 1/5"))
    assert [(s.computed, s.given.value) for s in given.sums] == [(0.2, 0.2)]
    assert [c.written for c in given.claims] == ["2", "10", "1/5"]
    working = read(with_units("ratio = 180/80 = 2.25"))  # the fraction is the working here, read on to its result
    assert [(s.written, s.given.value) for s in working.sums] == [("180 / 80", 2.25)]


def test_a_multiplier_with_its_working_in_brackets_multiplies_nothing() -> None:
    right = _check("a5", "evidence", "62% of peak tensor TFLOP/s. 180 → 80 ms = 2.25x. Best case on one card"
                                     " ~1.61x (1/0.62) ≈ 112 ms, not 80.")
    assert right["passed"] is True, right
    # a bracket that is not the multiplier's own working is still an operand: 2 × 1.61 is not 112 ms
    wrong = _check("a5", "evidence", "62% of peak tensor TFLOP/s. Best case 2x (1/0.62) ≈ 112 ms")
    assert wrong["passed"] is False, wrong
    # a time the working does not give is not checked, and says so
    unchecked = _check("a5", "evidence", "62% of peak tensor TFLOP/s. Best case ~1.61x (1/0.62) ≈ 60 ms")
    assert unchecked["passed"] is None, unchecked
    assert "60 ms" in unchecked["why"], unchecked


def test_a_fitting_lever_refused_alone_short_of_the_target_is_right_and_refused_outright_is_not() -> None:
    alone = _check("a5", "wastes", "Trying to hit 80 ms by tuning the kernels alone — 1/0.62 ≈ 1.6x max.")
    assert alone["passed"] is True, alone
    assert "2.25×" in alone["why"], alone
    dropped_g = _check("a5", "wastes", "Tryin' to hit 80 ms by tunin' the kernels alone.")
    assert dropped_g["passed"] is True, dropped_g
    outright = _check("a5", "wastes", "Tuning the kernels")
    assert outright["passed"] is not True, outright
    other = _check("a5", "wastes", "More GPUs alone")  # a lever that can reach the target is no waste, alone or not
    assert other["passed"] is False, other


def test_a_fact_set_aside_is_not_cited() -> None:
    cited = _check("a7", "evidence", "the ITL rose from a host sync")
    assert cited["passed"] is True, cited
    set_aside = _check("a7", "evidence", "the ITL rose, but not from a host sync")
    assert set_aside["passed"] is not True, set_aside
    near = _check("a8", "evidence", "the kernel is not far from saturating HBM")  # "not far from" sets nothing aside
    assert near["passed"] is True, near


def test_overlapping_descriptions_of_one_lever_join_into_the_longer_reading() -> None:
    text = "fuse the four operations into one custom kernel"
    found = [(m.lever, text[m.start:m.end]) for m in mentions(text)]
    assert ("fusion", "operations into one custom kernel") in found, found
    assert all(lever == "fusion" for lever, _ in found), found
    assert read_levers("Fuse the four operations into one custom kernel").offered == ("fusion",)


def test_a_share_from_no_part_of_the_drill_is_not_taken_for_a_near_one() -> None:
    # 95% is within 5% of a share the drill's figures give (98.9%), but 4 points from it: no figure of the drill
    nowhere = _part_c("A2 reached 85% of its bandwidth roof, and fusion cut its bytes; surveys say 95% of models are"
                      " like it.")
    assert nowhere["number"]["passed"] is not True, nowhere["number"]
    assert "95%" in nowhere["number"]["why"], nowhere["number"]
    drill_share = _part_c("A2 runs at 85% of its bandwidth roof, so fusion pays there; A6 idles 80% of the time.")
    assert drill_share["number"]["passed"] is True, drill_share["number"]


def test_what_is_left_of_the_roof_said_to_go_to_something_is_not_checked() -> None:
    # the incident says how much of the roof is left, not what it goes to
    said_spent = _check("a1", "evidence", "70% of peak so the missing 30% is basically the launch of the relu kernel")
    assert said_spent["passed"] is None, said_spent
    assert "30%" in said_spent["why"], said_spent
    said_left = _check("a1", "evidence", "70% of peak, so the missing 30% is the most tuning could ever win back")
    assert said_left["passed"] is True, said_left


def test_a_row_named_after_its_figure_in_brackets_keeps_its_figure() -> None:
    checks = _part_c("Fusion pays for A2 at 1.7 of 2.0 TB/s and not for A1 at 70% of peak. The number that decides it"
                     " is intensity against the ridge: 0.33 FLOP/byte (the add) says 'fuse', ~1360 FLOP/byte (the"
                     " matmul) against a ridge of 156 says 'don't bother'.")
    assert checks["number"]["passed"] is True, checks["number"]


def test_a_range_and_a_ridge_said_far_are_read() -> None:
    # the far end of a range whose near end is the incident's figure, within 3× of it
    assert _check("a2", "evidence", "85% of peak; intensity ≈ 0.125–0.25 FLOP/B")["passed"] is True
    assert _check("a2", "evidence", "85% of peak; intensity ≈ 0.125–25 FLOP/B")["passed"] is not True
    # "nowhere near a ridge" puts the kernel far from it, on its own side
    assert _check("a2", "evidence", "85% of peak; intensity ≈ 0.125 FLOP/B, nowhere near a ridge")["passed"] is True
    assert _check("a2", "evidence", "85% of peak; intensity ≈ 0.125 FLOP/B, right at the ridge")["passed"] is not True


def _part_b(add_intensity: str) -> dict[str, Any]:
    attempt = {"ridge": "312 / 2.0 = 156 FLOP/byte", "kernels": {
        "add": {"intensity": add_intensity, "side": "below", "optimisation": "cut bytes"},
        "matmul": {"intensity": "1356 FLOP/B", "side": "above", "optimisation": "faster math"},
        "decode": {"intensity": "~1 FLOP/B", "side": "below", "optimisation": "cut bytes"}}}
    checks: dict[str, Any] = grade({"part_b": attempt})["items"]["part_b"]["checks"]
    return checks["add"]


def test_a_part_b_intensity_keeps_its_unit_against_working_beside_it() -> None:
    # a field that opens with an intensity in its unit is that intensity, whatever time is worked out beside it
    assert _part_b("0.33 FLOP/B (memory time ≈ 5.03e7 / 2e12 ≈ 25 µs)")["passed"] is True
    assert _part_b("3.3 FLOP/B (memory time ≈ 5.03e7 / 2e12 ≈ 25 µs)")["passed"] is False
    # a field whose working ends in an intensity is read for that result, as before
    assert _part_b("1.68e7/5.03e7 ≈ 0.33 FLOP/B")["passed"] is True


def test_fusion_refused_with_should_not_is_the_other_side() -> None:
    # "we shouldn't fuse …" refuses fusion for the kernel it names: with A2's win, both sides are argued
    refused = "A2 got 3.8× from compile, where bytes set the time. We shouldn't fuse the relu into the A1 matmul."
    assert _part_c(refused)["both_sides"]["passed"] is True, _part_c(refused)["both_sides"]
    asked = "A2 got 3.8× from compile, where bytes set the time. We should ask before we fuse the relu into A1."
    assert _part_c(asked)["both_sides"]["passed"] is not True, _part_c(asked)["both_sides"]


def test_one_kernel_per_op_is_no_fusion() -> None:
    # "into one simple kernel per op" splits the chain: more launches, not one
    assert "fusion" not in read_levers("Split the chain into one simple kernel per op so each launch is lighter.").offered
    assert "fusion" in read_levers("Put the chain into one kernel.").offered


def test_both_sides_beside_a_clause_that_turns_fusion_round_pass_and_the_clause_fails_fusion() -> None:
    checks = _part_c("Fusion pays where bytes set the time: A2's eager chain at 1.7 of 2.0 TB/s went 3.8× faster under"
                     " compile. It is wasted on A3's tiny tensor, where compile bought only 1.08×. The A1 matmul at 70%"
                     " of peak is stalled the other 30%; fusing the preceding relu recovers the gap.")
    assert checks["both_sides"]["passed"] is True, checks["both_sides"]
    assert checks["fusion"]["passed"] is False, checks["fusion"]
    assert "fusion cannot help A1" in checks["fusion"]["why"], checks["fusion"]


def test_a_ridge_named_in_brackets_is_a_ridge() -> None:
    # "≪ 156 (Part B ridge)": the drill card's ridge, read as one; another figure there is not the drill's
    right = _check("a8", "evidence", "HBM saturated; intensity ≈ 16 FLOP/B ≪ 156 (Part B ridge)")
    assert right["passed"] is True, right
    wrong = _check("a8", "evidence", "HBM saturated; intensity ≈ 16 FLOP/B ≪ 1,560 (Part B ridge)")
    assert wrong["passed"] is not True, wrong


def test_a_refusal_with_aint_is_the_other_side() -> None:
    checks = _part_c("Fusion pays where bytes set the time: A2 got 3.8× from compile. In A1 de matmul already at 70% of"
                     " peak so fusing de relu ain't worth de week.")
    assert checks["both_sides"]["passed"] is True, checks["both_sides"]
    # the same refusal as a condition of the argument, not of one incident
    argued = _part_c("Fusion pays where bytes set the time: A2 got 3.8× from compile. Where a kernel is compute-bound,"
                     " fusing ain't worth de week.")
    assert argued["both_sides"]["passed"] is True, argued["both_sides"]


@pytest.mark.parametrize(("item", "right", "wrong"), [
    # a size said "of fp16 operands" with no element count beside it is not held to a count of something else
    ("a1", "70% of peak. 1.37e11 FLOP over 1.01e8 ≈ 101 MB of fp16 data", "70% of peak. 101 million elements → 101 MB in"
           " fp16"),
    # a binary K (1,024) against a decimal one is no slip; a product off by more is
    ("a8", "HBM saturated. The KV cache grows with batch x context (8 x 2K = 16,384 token positions).",
     "HBM saturated. The KV cache grows with batch x context (8 x 2K = 16,900 token positions)."),
    # a proportion of the incident's figures ("4 µs for every 1 µs", 8:2) is no slip of either; one that is not, is
    ("a6", "The GPU sits idle 4 µs for every 1 µs it works (8:2), 20% busy. 40k launches at ~10 µs each ≈ 0.4 s.",
     "The GPU sits idle 4 µs for every 2 µs it works, 20% busy. 40k launches at ~10 µs each ≈ 0.4 s."),
    # a figure a change takes something "to" is the what-if's input; a figure said of the incident is checked
    ("a6", "2 µs of kernel in every 10 µs → 20% busy; shaving the kernel to 1 µs only gets you to 360 ms of the 400 ms",
     "2 µs of kernel in every 10 µs → 20% busy; the kernel is 1 µs"),
    # a time FP8 halves is the lever's what-if; the same time said of the incident is a slip
    ("a5", "62% of peak; need 2.25×. FP8 alone at the same 62% → ~90 ms; with 2-way TP too → ~45 ms (ideal).",
     "62% of peak; TTFT is 90 ms"),
])
def test_a_what_if_or_a_proportion_is_not_failed_and_a_slip_is(item: str, right: str, wrong: str) -> None:
    good, bad = _check(item, "evidence", right), _check(item, "evidence", wrong)
    assert good["passed"] is not False, good
    assert bad["passed"] is False, bad


def test_part_b_figures_as_written_and_how_far_from_the_ridge_are_the_drill_s() -> None:
    # "312/2.0 = 156" writes the card's figures in their units; "~470× below" is how far the add is from the ridge
    said = ("Fusion pays where the bytes limit: the elementwise add at 1.68e7/5.03e7 ≈ 0.33 FLOP/byte is ~470× below the"
            " 312/2.0 = 156 FLOP/byte ridge, and A2's 3.8× from torch.compile proves it. A1's matmul at 70% of peak is"
            " compute-bound: fusing its relu cannot help.")
    assert _part_c(said)["number"]["passed"] is True, _part_c(said)["number"]
    off = said.replace("~470×", "~4,700×")
    assert _part_c(off)["number"]["passed"] is not True, _part_c(off)["number"]


def test_a_part_b_side_said_past_the_ridge_is_above_it() -> None:
    def side(said: str, intensity: str = "1356") -> Any:
        kernels = {"matmul": {"intensity": intensity, "side": said, "optimisation": "compute: tensor cores"}}
        return grade({"part_b": {"ridge": "156", "kernels": kernels}})["items"]["part_b"]["checks"]["matmul"]["passed"]

    assert side("well past the ridge") is True
    assert side("well past the ridge", intensity="0.33") is False


def test_bytes_saved_for_a_kernel_whose_time_is_all_math_are_the_other_side() -> None:
    checks = _part_c("Fusion pays where bytes set the time: A2 got 3.8× from compile. It is career-limiting when the kernel"
                     " is compute-bound: A1 is at 70% of peak already; fusing the relu next to it saves a few MB of"
                     " traffic for a kernel whose time is all math.")
    assert checks["both_sides"]["passed"] is True, checks["both_sides"]


def test_a_part_b_intensity_in_its_unit_is_kept_against_times_worked_beside_it() -> None:
    # "≈ 1356 FLOP/B", then the math's and the bytes' times: the intensity is the figure given in FLOP/byte
    def matmul(intensity: str) -> Any:
        kernels = {"matmul": {"intensity": intensity, "side": "above", "optimisation": "compute: tensor cores"}}
        return grade({"part_b": {"ridge": "156", "kernels": kernels}})["items"]["part_b"]["checks"]["matmul"]

    worked = "1.37e11/1.01e8 ≈ {} FLOP/B. Math ≈ 1.37e11/312e12 ≈ 439 µs vs bytes ≈ 1.01e8/2e12 ≈ 50 µs"
    assert matmul(worked.format("1356"))["passed"] is True, matmul(worked.format("1356"))
    assert matmul(worked.format("135.6"))["passed"] is False, matmul(worked.format("135.6"))


def test_working_in_brackets_after_a_result_checks_it_and_other_working_is_left_alone() -> None:
    # "~112 ms (180 × 0.62)": the working gives the figure before it, so the figure is checked
    assert _check("a5", "evidence", "62% of peak; best case ~112 ms (180 × 0.62).")["passed"] is True
    # working that does not give it is not taken for its working: the figure stays not checked
    off = _check("a5", "evidence", "62% of peak; best case ~100 ms (180 × 0.62).")
    assert off["passed"] is None, off
    assert "100 ms" in off["why"], off


def test_a_rate_left_under_the_roof_is_checked_only_where_it_is_said_to_be_left() -> None:
    # 2.0 − 1.7 TB/s is what is left: said so, it is checked; said as what the chain reaches, it is not that
    assert _check("a2", "evidence", "85% of peak bandwidth; 0.3 TB/s of headroom.")["passed"] is True
    assert _check("a2", "evidence", "85% of peak bandwidth; 0.5 TB/s of headroom.")["passed"] is None
    assert _check("a2", "evidence", "85% of peak; eager reaches only 0.3 TB/s.")["passed"] is not True


def test_the_drill_s_ridge_set_against_an_intensity_is_read_as_a_ridge() -> None:
    # A8 names no card: "16 ≪ 156" and "a ridge like Part B's 156" set its intensity against the drill's own ridge
    for said in ("HBM saturated; 70 GB a step, intensity ≈ 16 FLOP/byte. 16 ≪ 156.",
                 "HBM saturated. Batch 8 gives at most ~16 FLOP/B, far below a ridge like Part B's 156."):
        assert _check("a8", "evidence", said)["passed"] is True, _check("a8", "evidence", said)
    # a figure set against it that is no ridge of the drill's is not taken for one
    off = _check("a8", "evidence", "HBM saturated. 70 GB; ~16 FLOP/B max, way under ~40.")
    assert off["passed"] is None, off
    assert "40" in off["why"], off
    # A4's card (an L4) has its own ridge: Part B's, named, is that card's; the L4's called 156 is still wrong
    assert _check("a4", "evidence", "14 GB / 300 GB/s ≈ 47 ms a token; ~1 FLOP/byte, two orders below Part B's 156"
                                    " ridge.")["passed"] is True
    assert _check("a4", "evidence", "14 GB / 300 GB/s ≈ 47 ms a token; this card's ridge is 40 FLOP/byte.")[
        "passed"] is False


def test_a_rate_and_its_time_side_by_side_may_be_compared_as_either() -> None:
    # "38 tok/s ≈ 26.3 ms/tok is above that floor": above the 21.4 tok/s floor, said of the rate
    said = ("14 GB ÷ 0.3 TB/s = 46.7 ms/tok, i.e. ≈21.4 tok/s. The measured 38 tok/s ≈ 26.3 ms/tok is above that floor,"
            " so batching or quant is already in it.")
    assert _check("a4", "evidence", said)["passed"] is not False, _check("a4", "evidence", said)
    # a time alone set above the floor it is under is still wrong
    alone = "14 GB ÷ 0.3 TB/s = 46.7 ms/tok. The measured 26.3 ms/tok is above that floor."
    assert _check("a4", "evidence", alone)["passed"] is False, _check("a4", "evidence", alone)


def test_capital_si_prefixes_standing_alone_are_powers_of_ten() -> None:
    kernels = {"matmul": {"intensity": "137 G / 101 M ≈ 1.36 k", "side": "right of the ridge",
                          "optimisation": "faster compute (tensor cores)"}}
    check = grade({"part_b": {"ridge": "156 FLOP/B (312 T / 2 T)", "kernels": kernels}})["items"]["part_b"]["checks"]
    assert check["matmul"]["passed"] is True, check
    assert check["ridge"]["passed"] is True, check
    kernels["matmul"]["intensity"] = "137 G / 101 M ≈ 13.6 k"
    check = grade({"part_b": {"ridge": "156", "kernels": kernels}})["items"]["part_b"]["checks"]
    assert check["matmul"]["passed"] is False, check


def test_cnt_kinds_of_set_d_and_e_are_read() -> None:
    # the speed the roof would give, said as a what-if ("even a perfect kernel only gets ~43% faster"), not as a cut
    assert _check("a1", "evidence", "70% of peak. 1/0.7 ≈ 1.43, so even a perfect kernel only gets ~43% faster.")[
        "passed"] is True
    assert _check("a1", "evidence", "70% of peak; at 100% of peak the time would be cut by 43%.")["passed"] is not True
    # the Part B card's peak shortened ("312 TF"), and halving the kernels' own total ("saves only 40 ms of 400")
    assert _check("a1", "evidence", "70% of peak TFLOP/s; ~1365 FLOP/byte, far above the 156 ridge of a 312 TF / 2 TB/s"
                                    " card.")["passed"] is True
    assert _check("a6", "wastes", "Micro-optimising the 2 µs kernels; halving them saves only 40 ms of 400.")[
        "passed"] is True
    # the relu's one op an element over A1's 4096² output
    assert _check("a1", "wastes", "Fusing the relu into it: the relu is ~1.7e7 ops next to 1.37e11.")["passed"] is True
    assert _check("a1", "wastes", "Fusing the relu into it: the relu is ~1.7e9 ops next to 1.37e11.")["passed"] is not True


def test_a_share_of_two_times_is_derived_only_of_a_timeline_s_parts() -> None:
    # 26.3 ms ÷ (26.3 + 46.7 ms) is no share of anything in A4: "38% of the card's 300 GB/s" is not checked by it
    said = "38 tok/s means we're using 38% of the card's 300 GB/s, so there's 62% of the table still to clear."
    assert _check("a4", "evidence", said)["passed"] is not True, _check("a4", "evidence", said)
    # A6's on and off times are parts of one cycle: busy 2/(2+8) = 20%
    assert _check("a6", "evidence", "2 µs on, 8 µs off: busy 2/(2+8) = 20%.")["passed"] is True


def test_a_comma_decimal_intensity_keeps_its_point_beside_working_in_powers_of_ten() -> None:
    kernels = {"add": {"intensity": "≈ 0,334 FLOP/B (1,68·10⁷ / 5,03·10⁷)", "side": "under the ridge",
                       "optimisation": "fusion / fewer bytes"}}
    check = grade({"part_b": {"ridge": "156", "kernels": kernels}})["items"]["part_b"]["checks"]["add"]
    assert check["passed"] is True, check


def test_the_unfused_kernels_said_at_their_roof_is_not_fusion_refused() -> None:
    said = ("A fused kernel is right when time goes to memory traffic: in A2 the eager chain already pulls 1.7 of 2.0"
            " TB/s, so the single kernels cannot get much faster, but fusion deletes the intermediate round trips and"
            " compile is 3.8× faster. It is wrong for A1's matmul at 70% of peak: compute-bound, fusion cannot help.")
    assert _part_c(said)["fusion"]["passed"] is True, _part_c(said)["fusion"]


def test_bytes_counted_both_ways_are_no_slip_of_a_factor_of_two() -> None:
    said = "8192 elements, in fp32 that is 32 KB; read + write at 2 TB/s takes about 32 ns, so 12 µs is launches."
    assert _check("a3", "evidence", said)["passed"] is not False, _check("a3", "evidence", said)


# (incident, field, a line, what its check must be: True, False, or "not True" / "not False" where a line may rightly
# be could-not-tell), each a kind read this session
LINES: list[tuple[str, str, str, bool | str | None]] = [
    # code and an analogy's own figures are not the line's arithmetic
    ("a2", "evidence", "85% of HBM bandwidth; the intensity of x*2+1 etc is about 1 flop per byte or less, far under any"
     " ridge.", True),
    ("a6", "evidence", "2 µs kernel, 8 µs gap: idle 80% of the time, like guiding a group where each step takes 2 s and"
     " each headcount takes 8.", "not False"),
    # shorthand regimes and plain words for what holds the time
    ("a1", "regime", "cmp-bd.", True),
    ("a6", "regime", "ovhd-bd.", True),
    ("a1", "evidence", "Runs at 70% of peak FLOP/s, so the tensor cores are doing the work. Headroom 1/0.7 = 1.43x at"
     " most.", True),
    ("a1", "evidence", "At 70% of peak TFLOP/s: headroom is 1/0.70 ≈ 1.43×, i.e. the time can shrink by 30% at the very"
     " most.", True),
    ("a6", "wastes", "Micro-optimising the 2 µs kernels. Even 2× faster kernels save only 40 ms of the 400.", True),
    # mutation guards: each line holds one rule that no other line needs
    ("a5", "evidence", "62% of peak; 180 ÷ 80 = 2.25× would mean the card beating its own roof — impossible. Best case ≈"
     " 112 ms.", "not False"),
    ("a4", "evidence", "14 GB / 300 GB/s ≈ 47 ms per token ≈ 21 tok/s. The reported 38 tok/s is ~1.8× that floor, so"
     " batching or quant is in it, and an MMA kernel can't double it.", "not False"),
    ("a8", "evidence", "HBM saturated. 70B × 1 B = 70 GB of weights per step, ~8.75 GB per generated token at batch 8.",
     "not False"),
    ("a7", "evidence", "ITL 8 → 14 ms, a 43% throughput drop.", True),
    ("a7", "evidence", "ITL 8 → 14 ms, a 75% throughput drop.", False),
    ("a3", "helps", "Pull the tensor to the host with .cpu() and sum it there.", "not True"),
    ("a8", "helps", "Quantise the weights so the tokens/s doubles exactly.", False),
    # set 28's right lines once marked wrong (it is spent: bench/grading/fresh-2026-12-06b.json), and wrong ones of
    # their kinds
    ("a2", "evidence", "1.7 TB/s out of 2.0 = 85%, the hoist is running flat out.", True),
    ("a2", "evidence", "1.7 TB/s out of 2.0 = 85%, the host is running flat out.", False),
    ("a1", "evidence", "70% of peak TFLOP/s; intensity ≈ 1.36–1.37 thousand FLOP/byte, well above any ridge near 156.",
     True),
    ("a3", "evidence", "Went from a (8,4096,4096) to a (8,32,32) tensor, 16,384× smaller, and the time is flat at ~12"
     " µs.", True),
    ("a3", "evidence", "Went from a (8,4096,4096) to a (8,32,32) tensor, 4,096× smaller, and the time is flat at ~12"
     " µs.", False),
    ("a8", "evidence", "HBM saturated. 55 % occupancy is already enough to saturate HBM, so occupancy is not the"
     " problem.", True),
    ("a8", "evidence", "HBM saturated; 55% occupancy means the bandwidth is only half used.", False),
    # --- the fourteenth session's training sets (train-2026-12-06j … m) ---
    # a roof's headroom said to bound a lever that deletes bytes; the bound said of the kernels as they are is right
    ("a2", "evidence", "eager hits 1.7 of 2.0 TB/s = 85%, so the headroom is 1/0.85 ≈ 1.18x and that's the most compile"
     " or anything else can ever buy here", False),
    ("a2", "evidence", "85% of peak (1.7/2.0): without fusion the ceiling is 2.0/1.7 = 1.18x; compile deletes round trips"
     " and got 3.8x.", True),
    ("a2", "evidence", "85% of peak bandwidth, so the 3.8x compile figure has to be a bad measurement.", False),
    ("a1", "evidence", "70% of peak TFLOP/s; the ceiling on any kernel rewrite is 1/0.7 ≈ 1.43×.", True),
    # Rule 3 read backwards, and read the right way
    ("a3", "evidence", "shrink the tensor 4x and the time drops 4x, which is rule 3's sign of launch overhead.", False),
    ("a2", "evidence", "shrink it 4x and the time barely moves, so it is memory-bound at 85% of peak.", False),
    ("a3", "evidence", "12 µs, compile only 1.08x. If it were on a roof, shrinking the tensor 4x would make the time drop"
     " 4x, unlike launch overhead, which this is.", "not False"),
    ("a3", "evidence", "12 µs both ways, compile only 1.08x: shrink the tensor 4x and the time barely moves, which is"
     " rule 3's sign of launch overhead.", True),
    # a time "at full peak" is the time at the roof
    ("a5", "evidence", "62% of peak: 180 × 0.38 ≈ 68 ms at full peak, under the 80 ms target.", False),
    ("a5", "evidence", "62% of peak: 180 × 0.62 ≈ 112 ms at full peak, so 80 ms is out of reach.", True),
    ("a5", "evidence", "62% of peak; if the kernels ran at full peak, TTFT would come to 68 ms.", False),
    # the weights' bytes under a narrower format shrink by its width, in GB or in French octets
    ("a8", "helps", "int4 weights: 70 GB → 17.5 GB per step, plus GQA.", False),
    ("a8", "helps", "int4 weights: 70 GB → 35 GB per step, plus GQA.", True),
    ("a8", "helps", "Couper le trafic : int4 (70 Go → 35 Go par pas), GQA.", True),
    ("a8", "helps", "Couper le trafic : int4 (70 Go → 17,5 Go par pas), GQA.", False),
    # a host sync said to add arithmetic; occupancy called the limiter, or said not to be
    ("a7", "evidence", "ITL up 6 ms (8 → 14) because .item() adds arithmetic on the GPU every step.", False),
    ("a7", "evidence", "ITL up 6 ms (8 → 14) because .item() makes the CPU wait on the GPU every step.", True),
    ("a8", "evidence", "HBM saturated, but 55% occupancy → only 55% of the seats are pulling, that's the limiter.", False),
    ("a8", "evidence", "HBM saturated: occupancy doesn't matter when the bandwidth is the limit.", True),
    # a sum in a new sentence does not go on from the last result; "full" of a size is no limit
    ("a6", "evidence", "2 µs on, 8 µs off: busy = 2 / 10 = 20 %. × 40 000 = 0,4 s per request.", True),
    ("a3", "evidence", "12 µs is launch-scale. The tensor holds 8,192 elements, so the 3.8x traffic saving seen at full"
     " size has nothing to act upon.", True),
    # refusing a lever that only nears the roof, for a kernel near it (see test_grading_near_the_roof.py)
    ("a2", "wastes", "Tuning memory coalescing, the bandwidth is already at 85%.", True),
    # an analogy's figures, its "like" earlier in the sentence; the same slip outside an analogy is still wrong
    ("a6", "evidence", "Like a machine that sews 2 seconds and then I spend 8 seconds re-threading: busy 2/10 = 20%.",
     "not False"),
    ("a6", "evidence", "2 µs kernel and then 8 seconds of gap: busy 20%.", False),
    # --- the second round of training sets (train-2026-12-06n … q) ---
    # a share's label right before its working
    ("a6", "evidence", "2 µs kernel, 8 µs gap; the GPU's busy 8/(2+8) = 80 % of the time.", False),
    ("a6", "evidence", "2 µs kernel, 8 µs gap; the GPU's busy 2/(2+8) = 20 % of the time.", True),
    # a time on the same card said reached by levers that only near the roof
    ("a5", "helps", "Kernel tuning alone (tile sizes, pipelining) until the GEMMs reach 80 ms.", False),
    ("a5", "helps", "Better tiling: TTFT drops to 80 ms.", False),
    ("a5", "helps", "Better tiling: TTFT drops to about 120 ms, short of 80.", "not False"),
    # what the gaps wait on, named before the launches; the kernels said to have picked up the 6 ms
    ("a6", "evidence", "The 8 µs gaps are the kernels waiting on memory between launches.", False),
    ("a6", "evidence", "The 8 µs gaps are the GPU waiting on the host between launches.", True),
    ("a7", "evidence", "ITL 8 → 14 ms: the matmul and attention kernels picked up 6 ms a token after the .item() went in.",
     False),
    # another incident's speed-up named beside a size said in words is no size; said as the size it is
    ("a3", "evidence", "Shrinking 16384× from A2 made the 3.8× vanish; 12 µs is launch scale.", True),
    ("a3", "evidence", "A3's tensor is 3.8× smaller than A2's, and the time is flat at 12 µs.", False),
    # an achieved rate called the card's peak; a target past the roof said reached, or said out of reach
    ("a2", "evidence", "The chain sits at the ceiling: 1,7 TB/s is the peak of the card, so it cannot move data faster.",
     False),
    ("a2", "evidence", "1.7 of 2.0 TB/s: 85% of peak, where 2.0 TB/s is the peak of the card.", True),
    ("a2", "evidence", "85% of peak (1.7 of 2.0 TB/s); an older card's peak is 1.5 TB/s.", "not False"),
    ("a5", "evidence", "62% of peak TFLOP/s; headroom 1/0.62 ≈ 1.61×, so tuning the kernels to 100% of peak just reaches"
     " the target.", False),
    ("a5", "evidence", "62% of peak TFLOP/s; at 100% of peak it would be 180 × 0.62 ≈ 112 ms, so kernel tuning alone"
     " cannot reach the target.", True),
    # levers refused in plain words: the math made faster, bandwidth squeezed, traffic hunted, a kernel of 2 µs worked on
    ("a2", "wastes", "Trying to make the multiply/add math faster, or squeezing more bandwidth out of the eager ops"
     " (1/0.85 ≈ 1.18x max).", True),
    ("a3", "wastes", "Shaving memory traffic: there was never much traffic.", True),
    ("a2", "wastes", "Cutting memory traffic.", False),
    ("a6", "wastes", "Sharpening the knife on a two-microsecond kernel that's already well made.", True),
    ("a2", "wastes", "a compute rewrite", True),
    ("a8", "wastes", "Buying a card with more TFLOP/s.", True),
    ("a8", "helps", "Buying a card with more TFLOP/s.", False),
    # --- set 29 after its report (bench/grading/fresh-2026-12-06c.json, spent), read as training data ---
    ("a6", "evidence", "2 µs kernel, 8 µs gap = 20% duty cycle, 40 000 × 10 µs = 400 ms.", True),
    ("a6", "evidence", "2 µs kernel, 8 µs gap = 80% duty cycle.", False),
    ("a6", "evidence", "2 µs kernel and 8 µs gap: 20% busy. Polish the wheel to 1 µs and the period becomes 9 µs.",
     "not False"),
    ("a7", "regime", "Host / sync — the .item() slows the matmul and attention kernels down by 6 ms.", False),
    ("a5", "evidence", "62% of peak. Pushing the kernels to 100% gives 1/0.62 ≈ 1.61×, so 180 → 80 ms is reachable just"
     " by tuning.", False),
    ("a5", "evidence", "62% of peak; perfect kernels would give 180 × 0.62 ≈ 112 ms, so 80 ms is not reachable by tuning"
     " alone.", True),
    ("a5", "evidence", "62% of peak; perfect kernels would give 180 × 0.38 ≈ 68 ms, under the 80 ms target.", False),
    ("a1", "wastes", "Rewriting the matmul in raw CUDA from zero — the library already is at 70%.", True),
    ("a1", "wastes", "Rewriting the matmul by hand in CUDA to beat cuBLAS.", True),
    # --- fifteenth session ---
    ("a5", "evidence", "62 % of peak. Max margin 1/0,62 ≈ 1,61×. We need 180/80 = 2,25× → even at 100 % of peak we would"
     " be at 180 × 0,62 ≈ 112 ms. Tuning alone cannot get there.", True),  # "cannot" is no promise
    ("a1", "evidence", "70% of peak tflop/s. ~1.4 thousand flop/byte, way right of the ridge", True),  # "thousand"
    ("a1", "evidence", "70% of peak; 1.36–1.37 thousand FLOP/byte, far above the ridge", True),
    ("a1", "evidence", "70% of peak. 1360 FLOP/B, roughly 8–9× past a ~156 ridge", "not False"),  # a range of multipliers
    # a bare figure takes the part of the timeline its words give it; a ratio's terms and an analogy's minutes do not
    ("a6", "evidence", "Kernel is 8 of every 10 µs on the trace and the gap 2, so the furnace is mostly pouring.", False),
    ("a6", "evidence", "Kernel:gap = 2:8, so 80% idle; 40,000 kernels ≈ 0.4 s a request, only 0.08 s of it real work.",
     True),
    ("a6", "regime", "Overhead. Truck spends 8 min driving between 2-min jobs.", True),
    # a kernel written anew where the library's already runs is A1's waste; "nothing left" at 70% is not
    ("a1", "wastes", "Rewriting the matmul from scratch, the library one is already at 70 %.", True),
    ("a1", "wastes", "rewriting the matmul itself", None),  # no reason: at most 1.43×, which may be worth it or not
    ("a1", "wastes", "writing a separate hand-tuned CUDA relu kernel", True),
    ("a1", "wastes", "Autotuning the matmul's tiles. It's at 70% already, there's nothing left to find there.", False),
    # the weights shared over A8's batch of 8, per generated token; the whole step's bytes divided is a slip
    ("a8", "evidence", "HBM pegged. 70 GB of int8 weights read per step; at batch 8 that's 70/8 = 8.75 GB of weight"
     " traffic per generated token.", True),
    ("a8", "evidence", "HBM pegged; 70 GB / 8 = 8.75 GB read per step.", False),
    # a regime denied is not described
    ("a4", "evidence", "14 GB at 300 GB/s is 47 ms a token; it certainly isn't compute-limited.", True),
    # a ratio above 1 said as what it adds; said as a share unused it is wrong
    ("a2", "wastes", "hand tuning each eager kernel's launch config; 2.0/1.7 leaves ~18% at most", True),
    ("a2", "evidence", "1.7 of 2.0 TB/s; 2.0/1.7 = 18% of the bandwidth unused", False),
    # a bound with its apostrophe left off turns over like any other
    ("a1", "helps", "lower precision (fp8), a better tuned library kernel, or more cards. dont expect more than ~1.4x from"
     " the kernel itself", True),
    # a product that multiplies by a width already is the bytes, not a count of values
    ("a4", "evidence", "7B params × 2 bytes ≈ 14 GB of bf16 weights, 38 tok/s measured on an L4", True),
    # refusing a minor lever is right: it moves the step by a few per cent
    ("a4", "wastes", "re-paging the KV cache — at ctx 512 it is tiny next to 14 GB of weights", True),
    ("a4", "wastes", "int8 weights", False),
    # what is left of the roof said "not being used"
    ("a1", "evidence", "It reports 70% of the card's peak TFLOP/s, so there is 30% of peak not being used.", True),
    ("a1", "evidence", "It reports 70% of peak TFLOP/s, so 70% of peak is not being used.", False),
    # an intensity bounded with a symbol is a bound of the value, not a side of the ridge
    ("a2", "evidence", "1.7 of 2.0 TB/s, 85% of peak; each op reads and writes at least 4 B per element, so intensity"
     " ≤ 0.25 FLOP/B.", True),
    # a bullet list's lines are separate arithmetic
    ("a5", "evidence", "- 62% peak TFLOP/s\n- 180 → 80 ms = 2.25×\n- 1/0.62 ≈ 1.61× max from kernels", True),
    # sampling kept on the GPU removes the host sync
    ("a7", "helps", "keep sampling on-GPU", True),
    # a fraction of the roof said "a of b" after the rate it comes to
    ("a2", "evidence", "Bandwidth 1.7 TB/s is 0.85 of 2.0 TB/s, so we're near the memory ceiling.", True),
    # --- set 30, read after its report ---
    # a change said "up by about 43%" is a change: 8 → 14 ms is +75%
    ("a7", "evidence", "ITL 8 -> 14 ms, i.e. the ITL went up by about 43%. Kernels are the same so it's the sync.", False),
    ("a7", "evidence", "ITL 8 -> 14 ms, i.e. the ITL went up by about 75%. Kernels are the same so it's the sync.", True),
    # tuning said to get A5 to 80 ms; "can't get us to 80 ms" is right
    ("a5", "evidence", "At 62% of peak there's 1/0.62 = 1.61x left, and 180/80 = 2.25x needed... ok so squeezing the"
     " kernels up to peak should get us to about 80 ms.", False),
    ("a5", "evidence", "At 62% of peak there's 1/0.62 = 1.61x left, and 180/80 = 2.25x needed, so squeezing the kernels"
     " up to peak can't get us to 80 ms.", True),
    # a rate said to be the host's speed describes an overhead-bound kernel
    ("a4", "evidence", "batch 1 decode means one tiny launch per layer; the 38 tok/s is just the host's speed", False),
    # a speed-up denied, and a size ratio, are no speed-up claimed
    ("a3", "evidence", "~12 us eager or compiled. A 16,384× smaller tensor got nowhere near 16,384× faster, so rule 3"
     " says not memory or compute.", True),
    ("a3", "evidence", "~12 µs both; compile got 3× faster.", False),
    ("a3", "evidence", "~12 µs both; compile got nowhere near 3× faster, only 1.08×.", True),
    # what is missing at the roof ("out by ~30 ms even at 100%") is no time at the roof
    ("a5", "evidence", "62% of tensor peak. 180 ms -> 80 ms is a 2.25× cut. Perfect kernels = 1/0.62 ≈ 1.61×, ~112 ms. So"
     " we're still out by ~30 ms even at 100%.", "not False"),
    ("a5", "evidence", "62% of tensor peak; at 100% of peak it would take about 30 ms.", False),
    # the words after a time name it only up to "against": "gap 8 µs against kernel 2 µs"
    ("a6", "evidence", "Kindly note the ratio: gap 8 µs against kernel 2 µs, i.e. the gap is four times the work."
     " Utilisation = 2 / 10 = 0.2.", True),
    # an analogy opened with "picture a …" has its own figures
    ("a6", "evidence", "Picture a taster who sips for 2 s and then waits 8 s for the next cup: the pouring is the"
     " bottleneck. 2 µs on / 8 µs off = 20% busy.", "not False"),
    # an "upper bound" on an intensity is no regime said to bind
    ("a8", "evidence", "HBM saturated; 55% occupancy is noise. Intensity upper bound ≈ 2·8 FLOP per int8 weight byte ≈"
     " 16 FLOP/B, an order of magnitude below a ~156 ridge.", True),
    # a unit's negative power as the SI writes it: "125 s⁻¹" is 125 a second
    ("a7", "evidence", "ITL 8 ms → 14 ms, Δ = 6 ms (+75 %); token rate 125 s⁻¹ → ≈ 71 s⁻¹. Kernels unchanged.", True),
    ("a7", "evidence", "ITL 8 ms → 14 ms, Δ = 6 ms (+75 %); token rate 125 s⁻¹ → ≈ 90 s⁻¹. Kernels unchanged.",
     "not True"),
    # weights shared over the batch, said with an arrow
    ("a8", "evidence", "HBM saturated. 70e9 params × 1 B = 70 GB per decode step; batch 8 → 8.75 GB per generated"
     " token.", "not False"),
    # a perfect kernel (in an analogy) still leaves the gaps: its bound is the kernels'
    ("a6", "evidence", "2 µs of cutting, 8 µs walking to the fridge: 20% busy. A perfect knife still leaves 320 ms of"
     " walking in 400 — at best 1.25×.", True),
]

PART_C_LINES = [
    # fusion said to pay for the Part B matmul (A1's kernel), named without an incident
    ("Fusion is right for the 4096 matmul: its intensity is only about 0.33 FLOP/byte, far below the 156 ridge, so fusing"
     " it with the relu saves a lot of bytes. It is wrong for the tiny A3 chain at ~12 µs, where compile only gives 1.08x"
     " because launches, not bytes, dominate.", "fusion", False),
    ("Fusion is right for the elementwise add at 0.33 FLOP/byte, far below the 156 ridge: it deletes round trips. It is"
     " wrong for the 4096 matmul at ~1365 FLOP/byte, where A1 already runs at 70% of peak.", "fusion", True),
    ("A fused kernel is the right call when loads are carried back and forth: A2's eager chain moves intermediates at"
     " 1.7 TB/s on a 2.0 TB/s card and compile (fusion) wins 3.8×. It is career-limiting when the cargo is the math."
     " The 4096 matmul is at about 1,360 FLOP per byte against a 156 ridge and already at 70% of peak in A1: fusing the"
     " relu in front of it changes none of its FLOPs, and the most any rewrite could win is 1/0.7 ≈ 1.43×.",
     "fusion", True),
    # "make up 80%" is a share, no rise; "cannot remove the arithmetic" denies what fusion does not do
    ("Fusion pays where bytes or launches set the time: A2 sustains 1.7 of 2.0 TB/s and compile gets 3.8×. In A6, fusing"
     " the 40,000 launches attacks the 8 µs gaps that make up 80% of each cycle. But A1's matmul at 70% of peak is"
     " compute-bound: fusing the relu there cannot remove the arithmetic, so the week gives nothing.", "number", True),
    ("Fusion pays where bytes or launches set the time: A2 sustains 1.7 of 2.0 TB/s and compile gets 3.8×. In A6, fusing"
     " the 40,000 launches attacks the 8 µs gaps that make up 80% of each cycle. But A1's matmul at 70% of peak is"
     " compute-bound: fusing the relu there cannot remove the arithmetic, so the week gives nothing.", "fusion", True),
    # an incident named to compare another with is not the subject of what follows
    ("Fusion pays when bytes are the problem: A2's eager chain pulls 1.7 of 2.0 TB/s and compile runs it 3.8x faster by"
     " deleting the intermediate round trips. A1's matmul at 70% of peak is compute-bound, so fusing the relu is a lost"
     " week. A3 is the same chain as A2 on a tiny tensor and compile buys 1.08x, because there was never traffic to"
     " delete.", "fusion", True),
    # fusion said to close A1's "30% gap": wrong as what fusion does; the gap to the roof is A1's own figure
    ("A fused kernel is the right sentence for A2: 3.8× from compile on a chain at 1.7 of 2.0 TB/s. A1 is the same story"
     " — the 4096 matmul is at 70 % of peak and fusing the relu into it would close most of that 30 % gap. A3 is"
     " career-limiting: compile got 1.08×.", "number", True),
    # a speed-up said to be what fusion gives in general: the drill measures cases, not an average
    ("Fusion pays when the kernel is memory-bound: in A2 the eager chain is at 1,7 of 2,0 TB/s and compile wins 3,8×. It"
     " does not pay for A1, a matmul at 70 % of peak that is compute-bound. The drill's Part B shows fusion gives about 5×"
     " on average for elementwise kernels, so for the add (0,33 FLOP/B, below the 156 ridge) it is worth it.",
     "number", False),
    ("Fusion pays when the kernel is memory-bound: in A2 the eager chain is at 1,7 of 2,0 TB/s and compile wins 3,8×. It"
     " does not pay for A1, a matmul at 70 % of peak that is compute-bound. Fusion does not give 5× on average: A3's"
     " compile bought 1.08×.", "number", True),
    # fusion turned round to the compute side, with "career-limiting for" the other work: two-sided, not one side
    ("A fused kernel is like blending in the barrel. It's the right sentence for the compute-heavy stuff: fusing cuts the"
     " number of FLOPs, so the 4096 matmul at ~1356 FLOP/byte is where it pays most. It's career-limiting for things"
     " that are host-bound, like A7 where .item() pushed ITL from 8 ms to 14 ms.", "both_sides", None),
    # A2's speed-up given to A3 in Part C
    ("Fusion is the right call when the kernel is moving bytes, not doing math. A2 is at 1.7 TB/s on a 2.0 TB/s card and"
     " compile makes it 3.8x faster. But look at A3: the tiny (8, 32, 32) tensor also got 3.8x from compile, so even"
     " there fusing pays. Where it is careless is A1: the matmul at 70% of peak is compute-bound, fusing the relu buys"
     " nothing.", "number", False),
    ("Fusion is the right call when the kernel is moving bytes, not doing math. A2 is at 1.7 TB/s on a 2.0 TB/s card and"
     " compile makes it 3.8x faster. But look at A3: the tiny (8, 32, 32) tensor got only 1.08x from compile, nothing"
     " like A2's 3.8x. Where it is careless is A1: the matmul at 70% of peak is compute-bound, fusing the relu buys"
     " nothing.", "number", True),
    ("Fusion saves bytes and launches: for A2 (1.7 TB/s on a 2.0 TB/s card) it is the lever. But for A1 the matmul is at"
     " 70% of peak and fusing the relu leaves its FLOPs where they were.", "both_sides", True),
    ("Fusion deletes round trips: A2 at 1.7 of 2.0 TB/s gets 3.8x. In A1, fusing the relu into the matmul would get it"
     " to about 95% of peak.", "fusion", False),
    # what fusion leaves as it was argues it away
    ("Fusion deletes round trips: A2 at 1.7 of 2.0 TB/s gets 3.8x. For A1 it is a wasted week: fusing the relu in front"
     " saves one cheap elementwise pass and leaves the matmul's FLOPs exactly where they were.", "fusion", True),
    # what fusion removes, said to be what nothing waited on, is fusion argued against
    ("Fusion cuts round trips: A2 at 1.7 of 2.0 TB/s runs 3.8× faster compiled. A1's matmul is at 70% of peak, so fusing"
     " a relu into it saves a few trips nobody was waiting on.", "fusion", True),
    # a decimal comma, and "the same fusion" said with its small win
    ("A2 at 1,7 of 2,0 TB/s gets 3,8× because fusion deletes round trips; A1 at 70 % of peak is compute-bound, so fusing its relu is a wasted"
     " week; on the tiny tensor of A3 the same fusion gives only 1,08×.", "fusion", True),
    ("A2 at 1.7 of 2.0 TB/s gets 3.8× from fusion; A1 at 70% of peak is compute-bound, a wasted week. Even at small"
     " sizes it still pays big: in A3 the compiled version is 1.08× faster.", "fusion", False),
    ("Fusion pays most where tensors are small: A3's chain got 1.08x from compile; A1 at 70% of peak is compute-bound"
     " and fusing its relu does nothing.", "fusion", False),
    ("Fusion pays on A2 (1.7 of 2.0 TB/s, 3.8x). For decode, fusing attention removes its weight reads. On A1 at 70% of"
     " peak it is a wasted week.", "fusion", False),
    ("Fusion pays on A2 (1.7 of 2.0 TB/s, 3.8x). Fusing decode's layers would stop re-reading the weights. On A1 at"
     " 70% of peak it is a wasted week.", "fusion", False),
    ("Fusion's the move for basically everything on the list: A2's chain goes 3.8x faster fused, and A1's matmul drops"
     " the relu round trip.", "both_sides", False),
    ("Fusion is the fix for everything that is slow because of extra traffic: A2 at 1.7 of 2.0 TB/s gets 3.8×. A1 at"
     " 70% of peak is compute-bound: fusing its relu is a wasted week.", "both_sides", True),
]


@pytest.mark.parametrize(("item", "field", "text", "expected"), LINES, ids=[f"{i}-{f}-{t[:30]}" for i, f, t, _ in LINES])
def test_a_line_of_this_session_s_kinds_is_checked_as_it_should_be(item: str, field: str, text: str,
                                                                    expected: bool | str | None) -> None:
    got = _check(item, field, text)["passed"]
    if expected is None or isinstance(expected, bool):
        assert got is expected, _check(item, field, text)
    else:
        assert got is not (expected == "not True"), _check(item, field, text)


def test_a_side_said_before_a_list_holds_for_each_figure_in_it() -> None:
    said = ("Fusion is career-limiting on this card. The ridge is 156 FLOP/byte and every kernel in Part B sits above"
            " it: the add at 0.33, the matmul at 1,356, decode at 1. Above the ridge fusion buys nothing.")
    assert _part_c(said)["number"]["passed"] is False, _part_c(said)["number"]


@pytest.mark.parametrize("paragraph", [
    # a ridge given its own figure in brackets after an intensity is not that intensity called the ridge
    "Fusion pays where bytes set the time: A2 at 1.7 of 2.0 TB/s got 3.8× from compile. On A1, a matmul at 70% of peak"
    " and ~1356 FLOP/byte (ridge 156), fusing the relu buys nothing: it is compute-bound.",
    # a bare multiplier one step of arithmetic gives, and an incident's elements, are the drill's
    "Fusion pays when bytes or launches set the time: A2 at 1.7 of 2.0 TB/s got 3.8× from compile. It does not pay for"
    " A1's matmul at 70% of peak, where 1/0.7 = 1.43 is all any kernel can give; nor much for A3's 8.19k-element chain,"
    " whose compile bought 1.08×.",
])
def test_part_c_numbers_read_this_session_are_the_drill_s(paragraph: str) -> None:
    assert _part_c(paragraph)["number"]["passed"] is True, _part_c(paragraph)["number"]


@pytest.mark.parametrize(("paragraph", "aspect", "expected"), PART_C_LINES, ids=[p[:40] for p, _, _ in PART_C_LINES])
def test_a_part_c_paragraph_of_the_fourteenth_session_s_kinds_is_checked_as_it_should_be(paragraph: str, aspect: str,
                                                                                        expected: bool) -> None:
    assert _part_c(paragraph)[aspect]["passed"] is expected, _part_c(paragraph)[aspect]


@pytest.mark.parametrize(("row", "intensity", "passed"), [
    ("matmul", "1.37e11 over 1.01e8, about 1,360", True),  # a bare quotient, then what it comes to
    ("decode", "1.4e10 over 1.4e10, about one", True),
    ("add", "Point three three (1.68e7 over 5.03e7)", True),  # the number in words, its working after it
    ("matmul", "1.37e11 / 1.01e8, about 136", None),  # the working and its result disagree: not read
    ("matmul", "1.37e11 / 1.01e8 ≈ 1'356 FLOP/B", True),  # a Swiss thousands mark
    ("matmul", "137 GFLOP / 101 MB ≈ 1.36 kFLOP B⁻¹", True),  # a unit's negative power, as the SI writes it
    ("add", "16.8 MFLOP / 50.3 MB = 0.334 FLOP B⁻¹", True),
])
def test_a_part_b_intensity_written_as_working_then_its_result_is_read(row: str, intensity: str,
                                                                       passed: bool | None) -> None:
    side, optimisation = ("above", "compute") if row == "matmul" else ("below", "memory")
    kernel = {"intensity": intensity, "side": side, "optimisation": optimisation}
    check = grade({"part_b": {"kernels": {row: kernel}}})["items"]["part_b"]["checks"][row]
    assert check["passed"] is passed, check
