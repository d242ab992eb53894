"""Practice families where the GPU waits: launch storms, launch-bound decode, host syncs, the data loader, tiny tensors.

Each returns a :class:`~regime_core.practice.draw.Draft` whose intended regime is overhead, with
the deciding symptom well past the classifier's line (gaps over 55% of the timeline, a graph speedup
of 1.7× or more, the loader over 55% of the step, a tiny tensor's time at least ten times its floor).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from regime_core.model.work import parse_params
from regime_core.practice.draw import (
    FIT_SHARE,
    GPU_VENDORS,
    Draft,
    draw_card,
    draw_decode,
    elementwise_bytes,
    symptoms_of,
)
from regime_core.practice.text import count, data, fill, pick, ratio, seconds, shape, short_seconds

GAP_AT_LEAST = 0.55  # the gap's share of each kernel-plus-gap, at least
LOADER_AT_LEAST = 0.55  # the loader's share of each step, at least
_SYNCS_DECODE = ("tensor.item()", "a .cpu() on the logits", "torch.nonzero on the stop mask",
                 "print(next_token) for debugging")
_SYNCS_TRAINING = ("loss.item()", "a .cpu() copy of the metrics", "torch.isnan(loss).any().item()")


def _profiler(vendor: str) -> str:
    return str(data()["profilers"][vendor])


def launch_storm(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """Thousands of tiny kernels with more gap than kernel between them: a picket fence."""
    card = draw_card(rng, GPU_VENDORS)
    launches = rng.randint(20, 600) * 100
    kernel = rng.uniform(1.2, 6.0) * 1e-6
    gap = rng.uniform(3.0, 20.0) * 1e-6
    if gap / (kernel + gap) < GAP_AT_LEAST:
        return None
    kernel_text, gap_text = short_seconds(kernel), short_seconds(gap)
    text = fill(pick(rng, templates), {"launches": count(launches), "card": card.phrase,
                                       "profiler": _profiler(card.vendor), "kernel": kernel_text, "gap": gap_text})
    observed = {"launches": launches, "kernel_time": kernel_text, "gap_time": gap_text}
    return Draft("launch_storm", "overhead", False, card, text, symptoms_of(card, None, None, observed))


def small_decode_graphs(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """A small model's batch-1 decode far below the memory roof that a CUDA graph speeds up 1.7–3.6×."""
    d = draw_decode(rng, ("nvidia",), largest=4e9, batches=(1,))
    if d is None or d.card.bandwidth < 0.9e12 or d.kv_text:
        return None
    fraction = rng.uniform(0.08, 0.3)
    step = d.moved / (fraction * d.card.bandwidth)
    speedup = rng.uniform(1.7, 3.6)
    text = fill(pick(rng, templates), {"model": d.model.phrase(d.dtype), "card": d.card.phrase,
                                       "itl": seconds(step), "speedup": ratio(speedup)})
    observed = {"time_per_token": seconds(step), "graph_speedup": ratio(speedup)}
    return Draft("small_decode_graphs", "overhead", False, d.card, text,
                 symptoms_of(d.card, d.dtype, d.work(), observed))


def host_sync(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """A per-step host read added to a loop: the step got slower and no kernel changed."""
    card = draw_card(rng, GPU_VENDORS)
    which = rng.randrange(len(templates))
    training = which == 1
    before = rng.uniform(120e-3, 600e-3) if training else rng.uniform(5e-3, 40e-3)
    after = before * rng.uniform(1.55, 1.95)  # the wait a third of the step or more, and no more than serialising
    model = pick(rng, [m["name"] for m in data()["models"]
                       if parse_params(m["params"], "params") * 2 <= FIT_SHARE * card.memory])
    sync = pick(rng, _SYNCS_TRAINING if training else _SYNCS_DECODE)
    text = fill(templates[which], {"sync": sync, "model": model, "card": card.phrase, "before": seconds(before),
                                   "after": seconds(after)})
    observed = {"host_sync_in_loop": True, "time": seconds(after), "time_before": seconds(before)}
    return Draft("host_sync", "overhead", False, card, text, symptoms_of(card, None, None, observed))


def loader_stall(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """A training step that spends most of its time waiting on the input pipeline."""
    card = draw_card(rng, ("nvidia", "amd", "intel"))
    step = rng.uniform(150e-3, 900e-3)
    loader = step * rng.uniform(LOADER_AT_LEAST, 0.85)
    model = pick(rng, data()["models"])["name"]
    text = fill(pick(rng, templates), {"model": model, "card": card.phrase, "step": seconds(step),
                                       "loader": seconds(loader)})
    observed = {"time": seconds(step), "loader_time": seconds(loader)}
    return Draft("loader_stall", "overhead", False, card, text, symptoms_of(card, None, None, observed))


def tiny_tensor(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """An elementwise chain on a tensor of a few hundred kilobytes: launch-scale time, whatever the math."""
    card = draw_card(rng, GPU_VENDORS, ("fp32",))
    dtype = pick(rng, ("fp32", "bf16") if "bf16" in card.hardware.peaks else ("fp32", "fp16"))
    dims = (pick(rng, (2, 4, 8, 16)), pick(rng, (16, 32, 64)), pick(rng, (32, 64, 128)))
    ops = rng.randint(2, 5)
    moved, _trips = elementwise_bytes(dims, dtype, ops, fused=False)
    time = rng.uniform(6e-6, 25e-6)
    if moved / card.bandwidth > 0.05 * time:
        return None
    shrink = rng.random() < 0.5
    fields = {"ops": str(ops), "shape": shape(dims), "dtype": dtype, "card": card.phrase, "time": short_seconds(time)}
    observed: dict[str, object] = {"time": short_seconds(time)}
    if shrink:
        fields["shrink"] = ratio(rng.uniform(1.0, 1.3))
        observed["shrink_4x_ratio"] = fields["shrink"]
    else:
        fields["speedup"] = ratio(rng.uniform(1.02, 1.15))
        observed["fused_speedup"] = fields["speedup"]
    text = fill(templates[1 if shrink else 0], fields)
    work = {"kernel": "elementwise", "shape": list(dims), "ops": ops}
    return Draft("tiny_tensor", "overhead", False, card, text, symptoms_of(card, dtype, work, observed))
