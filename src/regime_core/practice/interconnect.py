"""The practice family where the GPUs wait on each other: collectives that no compute overlaps hold the step.

Its intended regime is communication: the exposed collective time is 55–85% of the step, well past the
classifier's half. The statement names the parallelism, the link and the collectives as an engineer's
profiler shows them; the GPUs' own kernels are never the question.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from regime_core.model.work import parse_params
from regime_core.practice.draw import GPU_VENDORS, Draft, draw_card, symptoms_of
from regime_core.practice.text import data, fill, pick, seconds

COMM_AT_LEAST = 0.55  # the exposed collectives' share of each step, at least
#: (how the job is split, the collectives it runs, the links between nodes it may run over); up to eight GPUs
#: share one node's PCIe instead.
_SETUPS = (("data parallel (DDP)", "all-reduce", ("25 Gb/s Ethernet between nodes", "100 Gb/s Ethernet between nodes")),
           ("FSDP", "all-gather and reduce-scatter", ("100 Gb/s Ethernet between nodes", "InfiniBand between nodes")),
           ("tensor parallel", "all-reduce", ("InfiniBand between nodes", "100 Gb/s Ethernet between nodes")))
_ONE_NODE = 8
_LIBRARY = {"nvidia": "NCCL", "amd": "RCCL"}
_TRAINING_BYTES = 16  # per parameter: bf16 weights and gradients, fp32 master weights and Adam's two moments


def collective_exposed(rng: random.Random, level: int, templates: Sequence[str]) -> Draft | None:  # noqa: ARG001
    """Multi-GPU training whose step is mostly collectives that compute does not hide."""
    card = draw_card(rng, GPU_VENDORS)
    parallel, collectives, links = pick(rng, _SETUPS)
    gpus = pick(rng, (4, 8, 16, 32))
    model = pick(rng, data()["models"])
    # Mixed-precision training with Adam keeps ~16 bytes per parameter: DDP holds it all on every GPU, FSDP and
    # tensor parallelism split it. A model that could not be trained this way is not drawn.
    memory = card.hardware.memory.value if card.hardware.memory else 0.0
    if _TRAINING_BYTES * parse_params(model["params"], "params") > memory * (1 if parallel.startswith("data") else gpus):
        return None
    step = rng.uniform(0.25, 2.5)
    comm = step * rng.uniform(COMM_AT_LEAST, 0.85)
    text = fill(pick(rng, templates), {"model": model["name"], "gpus": str(gpus), "card": card.short, "parallel": parallel,
                                       "link": "PCIe" if gpus <= _ONE_NODE else pick(rng, links), "step": seconds(step), "comm": seconds(comm),
                                       "library": _LIBRARY[card.vendor], "collectives": collectives})
    observed = {"time": seconds(step), "comm_time": seconds(comm)}
    return Draft("collective_exposed", "communication", False, card, text, symptoms_of(card, None, None, observed))
