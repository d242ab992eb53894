"""The roof families of practice incidents: compute-bound and memory-bound runs on a catalogue card.

A family function takes the random generator, the level and its templates, and returns a
:class:`~regime_core.practice.draw.Draft` — the statement of what ran and what was measured, its
symptoms, and the regime the family intends — or None when the draw cannot make that incident (a
model too big for the card, a shape on the wrong side of this card's ridge, a kernel too short to
time); the caller draws again.

Intent is set here from the physics with margins (achieved fractions well inside a roof: 45–82% of
peak FLOP/s, 60–90% of peak bandwidth; intensity at least 3× above or 4× below the ridge); it is
never read from the classifier, which must reach it independently.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from regime_core.catalogue.hardware import DTYPE_BYTES
from regime_core.catalogue.quantity import Dim
from regime_core.practice.draw import (
    FIT_SHARE,
    GPU_VENDORS,
    ROWS,
    SIZES,
    Draft,
    draw_card,
    draw_decode,
    draw_model,
    elementwise_bytes,
    fit_cards,
    math_dtype,
    matmul_work,
    measure_how,
    symptoms_of,
)
from regime_core.practice.text import Card, count, fill, pct, pick, rate, ratio, seconds, shape, tokens

# --- compute-bound ----------------------------------------------------------------------------------------------------


def _on_the_compute_roof(rng: random.Random, level: int, card: Card, dtype: str, *, fraction: float, time: float,
                         as_fraction: str) -> tuple[str, dict[str, Any]]:
    """How a run at ``fraction`` of the compute roof is reported: a fraction, a rate or a time (by level)."""
    how = measure_how(rng, level)
    if how == "fraction":
        return as_fraction.format(pct=pct(fraction)), {"flops_fraction": pct(fraction)}
    if how == "rate":
        achieved = rate(fraction * card.peak(dtype), Dim.FLOP_RATE)
        return f"runs at {achieved}", {"achieved_flops": achieved}
    return f"takes {seconds(time)}", {"time": seconds(time)}

def matmul_compute(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:
    """A big matmul well above the ridge at 55–82% of dense peak (cuBLAS tops out near 80% on big bf16 GEMMs)."""
    card = draw_card(rng)
    dtype = math_dtype(rng, card, fp8=True)
    m, n, k = pick(rng, ROWS), pick(rng, SIZES), pick(rng, SIZES)
    flops, moved = matmul_work(m, n, k, dtype)
    fraction = rng.uniform(0.55, 0.82)
    time = flops / (fraction * card.peak(dtype))
    if flops / moved < 3 * card.ridge(dtype) or time < 100e-6:
        return None
    measured, observed = _on_the_compute_roof(rng, level, card, dtype, fraction=fraction, time=time,
                                              as_fraction="reports {pct} of the card's peak TFLOP/s")
    text = fill(pick(rng, templates), {"m": str(m), "n": str(n), "k": str(k), "dtype": dtype, "card": card.phrase,
                                       "measured": measured})
    work = {"kernel": "matmul", "m": m, "n": n, "k": k}
    return Draft("matmul_compute", "compute", False, card, text, symptoms_of(card, dtype, work, observed))


def prefill_compute(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:
    """A long prompt's prefill at 45–68% of dense peak (MFU)."""
    base = draw_card(rng)
    dtype = math_dtype(rng, base, fp8=True)
    model = draw_model(rng, quantised=False)
    card = fit_cards(base, model.params * model.bytes_per_param(dtype))
    prompt = rng.randint(1500, 32000)
    if card is None:
        return None
    flops = 2.0 * model.used * prompt
    fraction = rng.uniform(0.45, 0.68)
    time = flops / (fraction * card.peak(dtype))
    if flops / (model.params * model.bytes_per_param(dtype)) < 3 * card.ridge(dtype):
        return None
    how = measure_how(rng, level)
    if how == "fraction":
        measured, observed = f"reports {pct(fraction)} of peak tensor TFLOP/s", {"flops_fraction": pct(fraction)}
    elif how == "rate":
        measured, observed = f"runs at {pct(fraction)} MFU", {"mfu": pct(fraction)}
    else:
        measured, observed = f"has a TTFT of {seconds(time)}", {"time": seconds(time)}
    text = fill(pick(rng, templates), {"tokens": count(prompt), "model": model.phrase(dtype), "card": card.phrase,
                                       "measured": measured})
    work = model.work("prefill", tokens=prompt)
    return Draft("prefill_compute", "compute", False, card, text, symptoms_of(card, dtype, work, observed))


def attention_compute(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:
    """A long-sequence fused causal attention at 45–75% of dense peak (FlashAttention-3 reaches 75% on H100)."""
    card = draw_card(rng, GPU_VENDORS)
    dtype = math_dtype(rng, card, fp8=True)
    batch, heads = pick(rng, (1, 2, 4, 8)), pick(rng, (16, 24, 32, 40, 64))
    seq, head_dim = pick(rng, (4096, 8192, 16384, 32768, 65536)), pick(rng, (64, 128))
    size = DTYPE_BYTES[dtype]
    flops = 4.0 * batch * heads * seq * seq * head_dim / 2
    moved = size * batch * heads * head_dim * 4 * seq
    fraction = rng.uniform(0.45, 0.75)
    time = flops / (fraction * card.peak(dtype))
    if flops / moved < 3 * card.ridge(dtype) or time < 100e-6:
        return None
    measured, observed = _on_the_compute_roof(rng, level, card, dtype, fraction=fraction, time=time,
                                              as_fraction="reaches {pct} of peak TFLOP/s")
    text = fill(pick(rng, templates), {"batch": str(batch), "heads": str(heads), "seq": count(seq),
                                       "head_dim": str(head_dim), "dtype": dtype, "card": card.phrase,
                                       "measured": measured})
    work = {"kernel": "attention", "batch": batch, "heads": heads, "seq": seq, "head_dim": head_dim, "causal": True}
    return Draft("attention_compute", "compute", False, card, text, symptoms_of(card, dtype, work, observed))


# --- memory-bound -----------------------------------------------------------------------------------------------------

def decode_memory(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:
    """Decode reading its weights (and KV cache) at 60–90% of peak bandwidth."""
    d = draw_decode(rng)
    if d is None:
        return None
    fraction = rng.uniform(0.6, 0.9)
    step = d.moved / (fraction * d.card.bandwidth)
    how = measure_how(rng, level)
    if how == "fraction":
        measured, observed = f"reads memory at {pct(fraction)} of peak bandwidth", {"bandwidth_fraction": pct(fraction)}
    elif how == "rate":
        given = tokens(d.batch / step)
        measured, observed = f"reports {given}", {"tokens_per_s": given.removesuffix(" tokens/s").replace(",", "")}
    else:
        measured, observed = f"runs at {seconds(step)} per token", {"time_per_token": seconds(step)}
    text = fill(pick(rng, templates), {"model": d.model.phrase(d.dtype, d.kv_text), "batch": str(d.batch),
                                       "context": count(d.context), "card": d.card.phrase, "measured": measured})
    return Draft("decode_memory", "memory", False, d.card, text, symptoms_of(d.card, d.dtype, d.work(), observed))


def gemv_memory(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:
    """A skinny matmul (a few rows against a big weight) at 60–90% of peak bandwidth."""
    card = draw_card(rng)
    dtype = math_dtype(rng, card)
    lm_head = rng.random() < 0.5
    m = pick(rng, (1, 2, 4, 8, 16))
    if lm_head:
        k, n = pick(rng, (2048, 3072, 4096, 5120, 8192)), pick(rng, (32000, 128256, 151936))
    else:
        k, n = pick(rng, (4096, 5120, 8192, 14336, 28672)), pick(rng, (4096, 5120, 8192, 14336, 28672))
    flops, moved = matmul_work(m, n, k, dtype)
    fraction = rng.uniform(0.6, 0.9)
    time = moved / (fraction * card.bandwidth)
    if flops / moved > card.ridge(dtype) / 4 or time < 15e-6:
        return None
    how = measure_how(rng, level)
    if how == "rate":
        achieved = rate(fraction * card.bandwidth, Dim.BYTE_RATE)
        measured, observed = f"moves {achieved}", {"bandwidth": achieved}
    elif how == "fraction":
        measured, observed = f"reaches {pct(fraction)} of peak bandwidth", {"bandwidth_fraction": pct(fraction)}
    else:
        measured, observed = f"takes {seconds(time)}", {"time": seconds(time)}
    text = fill(templates[1 if lm_head else 0], {"m": str(m), "n": str(n), "k": str(k), "dtype": dtype,
                                                 "card": card.phrase, "measured": measured})
    work = {"kernel": "matmul", "m": m, "n": n, "k": k}
    return Draft("gemv_memory", "memory", False, card, text, symptoms_of(card, dtype, work, observed))


def elementwise_memory(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:
    """An eager elementwise chain on a big tensor at 62–90% of peak bandwidth; compile deletes its round trips."""
    card = draw_card(rng, GPU_VENDORS, ("fp32",))
    dtype = pick(rng, ("fp32", "bf16", "fp16") if "bf16" in card.hardware.peaks else ("fp32", "fp16"))
    dims = (pick(rng, (4, 8, 16, 32)), pick(rng, (1024, 2048, 4096)), pick(rng, (2048, 4096, 5120, 8192)))
    ops = rng.randint(2, 6)
    moved, trips = elementwise_bytes(dims, dtype, ops, fused=False)
    if 3 * moved / trips > FIT_SHARE * card.memory:  # the input, one intermediate and the output must fit
        return None
    fraction = rng.uniform(0.62, 0.9)
    time = moved / (fraction * card.bandwidth)
    speedup = trips / 2 * rng.uniform(0.8, 0.92) / fraction
    how = measure_how(rng, level)
    observed: dict[str, Any]
    if how == "time":
        measured, observed = f"takes {seconds(time)}", {"time": seconds(time)}
    else:
        achieved = rate(fraction * card.bandwidth, Dim.BYTE_RATE)
        peak = rate(card.bandwidth, Dim.BYTE_RATE)
        measured, observed = f"achieves {achieved} of the card's {peak}", {"bandwidth": achieved}
    text = fill(pick(rng, templates), {"ops": str(ops), "shape": shape(dims), "dtype": dtype, "card": card.phrase,
                                       "measured": measured})
    if rng.random() < 0.6:
        text += f" It is {ratio(speedup)}× slower than the same math under torch.compile."
        observed["fused_speedup"] = ratio(speedup)
    work = {"kernel": "elementwise", "shape": list(dims), "ops": ops}
    return Draft("elementwise_memory", "memory", False, card, text, symptoms_of(card, dtype, work, observed))


def attention_decode_memory(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:
    """One query per sequence against a long KV cache: intensity about 1, at 60–88% of peak bandwidth."""
    card = draw_card(rng, GPU_VENDORS)
    dtype = math_dtype(rng, card)
    batch, heads = pick(rng, (8, 16, 32, 64)), pick(rng, (8, 32, 40))
    kv_seq, head_dim = rng.randint(2000, 65536), 128
    moved = DTYPE_BYTES[dtype] * batch * heads * head_dim * (2 + 2 * kv_seq)
    fraction = rng.uniform(0.6, 0.88)
    time = moved / (fraction * card.bandwidth)
    if time < 15e-6 or moved > FIT_SHARE * card.memory:
        return None
    how = measure_how(rng, level)
    if how == "fraction":
        measured, observed = f"reaches {pct(fraction)} of peak bandwidth", {"bandwidth_fraction": pct(fraction)}
    elif how == "rate":
        achieved = rate(fraction * card.bandwidth, Dim.BYTE_RATE)
        measured, observed = f"moves {achieved}", {"bandwidth": achieved}
    else:
        measured, observed = f"takes {seconds(time)}", {"time": seconds(time)}
    text = fill(pick(rng, templates), {"batch": str(batch), "heads": str(heads), "kv_seq": count(kv_seq),
                                       "head_dim": str(head_dim), "dtype": dtype, "card": card.phrase,
                                       "measured": measured})
    work = {"kernel": "attention", "batch": batch, "heads": heads, "seq": 1, "kv_seq": kv_seq, "head_dim": head_dim}
    return Draft("attention_decode_memory", "memory", False, card, text, symptoms_of(card, dtype, work, observed))
