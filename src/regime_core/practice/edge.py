"""Practice families at the edges: measurements too good to be true, and symptoms that cannot decide.

Too good to be true: a figure beyond a roof (1.25–6× dense peak FLOP/s from an unsynchronised timer,
1.3–2.6× the bandwidth floor from tokens/s, 1.3–3× peak bandwidth from a tensor timed in cache).
The regime is still readable from the kind of work, except where the statement says the timer ran without a
synchronize: that time is the launch's, and the regime waits for the run re-timed. The anomaly is what the
learner must catch.

Undecidable: a run far from both roofs (at most 30% of peak FLOP/s and 40% of peak bandwidth) and
nothing else measured, or a run nobody has timed: the right answer is the measurement to take next.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from regime_core.catalogue.quantity import Dim
from regime_core.practice.draw import (
    GPU_VENDORS,
    ROWS,
    SIZES,
    Draft,
    draw_card,
    draw_decode,
    elementwise_bytes,
    math_dtype,
    matmul_work,
    symptoms_of,
)
from regime_core.practice.text import fill, pick, rate, seconds, shape, tokens

FAR_FLOPS = 0.3  # undecidable runs reach at most this share of peak FLOP/s (the compute line is 0.4)
FAR_BANDWIDTH = 0.4  # and at most this share of peak bandwidth (the memory line is 0.5)


def matmul_too_good(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """A matmul timed without a synchronize: 1.25–6× the card's dense peak."""
    card = draw_card(rng, GPU_VENDORS)
    dtype = math_dtype(rng, card, fp8=True)
    m, n, k = pick(rng, ROWS), pick(rng, SIZES), pick(rng, SIZES)
    flops, moved = matmul_work(m, n, k, dtype)
    if flops / moved < 1.5 * card.ridge(dtype):
        return None
    claimed = rng.uniform(1.25, 6.0)
    time = flops / (claimed * card.peak(dtype))
    text = fill(pick(rng, templates), {"m": str(m), "n": str(n), "k": str(k), "dtype": dtype, "card": card.phrase,
                                       "time": seconds(time), "rate": rate(claimed * card.peak(dtype), Dim.FLOP_RATE)})
    work = {"kernel": "matmul", "m": m, "n": n, "k": k}
    # The statement says the timer ran without a synchronize: the time is the launch's, so the regime waits for a
    # re-timed run (undecided, leaning compute on the roofline), and the rate it implies is the anomaly.
    return Draft("matmul_too_good", None, True, card, text,
                 symptoms_of(card, dtype, work, {"time": seconds(time), "timed_without_sync": True}))


def decode_too_good(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """Decode reported faster than the card can read its weights: 1.3–2.6× the bandwidth floor."""
    d = draw_decode(rng)
    if d is None:
        return None
    claimed = rng.uniform(1.3, 2.6)
    step = d.moved / (claimed * d.card.bandwidth)
    given = tokens(d.batch / step)
    text = fill(pick(rng, templates), {"rate": given, "model": d.model.phrase(d.dtype, d.kv_text),
                                       "batch": str(d.batch), "context": f"{d.context:,}", "card": d.card.phrase})
    observed = {"tokens_per_s": given.removesuffix(" tokens/s").replace(",", "")}
    return Draft("decode_too_good", "memory", True, d.card, text, symptoms_of(d.card, d.dtype, d.work(), observed))


def elementwise_too_good(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """A fused chain on a tensor small enough to stay in cache, timed in a loop: 1.3–3× peak bandwidth."""
    card = draw_card(rng, GPU_VENDORS, ("fp32",))
    dtype = pick(rng, ("fp32", "fp16"))
    dims = (pick(rng, (1, 2, 4)), pick(rng, (1024, 2048)), pick(rng, (1024, 2048, 4096)))
    ops = rng.randint(2, 5)
    moved, _trips = elementwise_bytes(dims, dtype, ops, fused=True)
    claimed = rng.uniform(1.3, 3.0)
    time = moved / (claimed * card.bandwidth)
    text = fill(pick(rng, templates), {"ops": str(ops), "shape": shape(dims), "dtype": dtype, "card": card.phrase,
                                       "time": seconds(time), "bandwidth": rate(claimed * card.bandwidth, Dim.BYTE_RATE),
                                       "peak": rate(card.bandwidth, Dim.BYTE_RATE)})
    work = {"kernel": "elementwise", "shape": list(dims), "ops": ops, "fused": True}
    return Draft("elementwise_too_good", "memory", True, card, text,
                 symptoms_of(card, dtype, work, {"time": seconds(time)}))


def undecided_far(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """A run timed far from both roofs, and nothing else measured: the regime is not decided yet."""
    which = rng.randrange(3)
    if which == 1:
        d = draw_decode(rng)
        if d is None:
            return None
        step = d.moved / (rng.uniform(0.08, 0.35) * d.card.bandwidth)
        text = fill(templates[1], {"model": d.model.phrase(d.dtype, d.kv_text), "batch": str(d.batch),
                                   "context": f"{d.context:,}", "card": d.card.phrase, "itl": seconds(step)})
        return Draft("undecided_far", None, False, d.card, text,
                     symptoms_of(d.card, d.dtype, d.work(), {"time_per_token": seconds(step)}))
    if which == 0:
        card = draw_card(rng)
        dtype = math_dtype(rng, card)
        m, n, k = pick(rng, ROWS), pick(rng, SIZES), pick(rng, SIZES)
        flops, moved = matmul_work(m, n, k, dtype)
        time = flops / (rng.uniform(0.05, FAR_FLOPS) * card.peak(dtype))
        fields = {"m": str(m), "n": str(n), "k": str(k)}
        work: dict[str, object] = {"kernel": "matmul", "m": m, "n": n, "k": k}
    else:
        card = draw_card(rng, GPU_VENDORS, ("fp32",))
        dtype = pick(rng, ("fp32", "fp16"))
        dims = (pick(rng, (4, 8, 16)), pick(rng, (1024, 2048, 4096)), pick(rng, (2048, 4096, 8192)))
        ops = rng.randint(2, 6)
        moved, _trips = elementwise_bytes(dims, dtype, ops, fused=False)
        flops = float(ops * dims[0] * dims[1] * dims[2])
        time = moved / (rng.uniform(0.06, FAR_BANDWIDTH) * card.bandwidth)
        fields = {"ops": str(ops), "shape": shape(dims)}
        work = {"kernel": "elementwise", "shape": list(dims), "ops": ops}
    if time < 100e-6 or moved / time > FAR_BANDWIDTH * card.bandwidth or flops / time > FAR_FLOPS * card.peak(dtype):
        return None
    text = fill(templates[which], {**fields, "dtype": dtype, "card": card.phrase, "time": seconds(time)})
    return Draft("undecided_far", None, False, card, text, symptoms_of(card, dtype, dict(work), {"time": seconds(time)}))


def undecided_unmeasured(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """A kernel nobody has timed: the shape places it, but only a measurement says which roof holds it."""
    if rng.random() < 0.5:
        d = draw_decode(rng)
        if d is None:
            return None
        text = fill(templates[1], {"model": d.model.phrase(d.dtype, d.kv_text), "batch": str(d.batch),
                                   "context": f"{d.context:,}", "card": d.card.phrase})
        return Draft("undecided_unmeasured", None, False, d.card, text, symptoms_of(d.card, d.dtype, d.work(), {}))
    card = draw_card(rng)
    dtype = math_dtype(rng, card)
    m, n, k = pick(rng, ROWS), pick(rng, SIZES), pick(rng, SIZES)
    text = fill(templates[0], {"m": str(m), "n": str(n), "k": str(k), "dtype": dtype, "card": card.phrase})
    work = {"kernel": "matmul", "m": m, "n": n, "k": k}
    return Draft("undecided_unmeasured", None, False, card, text, symptoms_of(card, dtype, work, {}))
