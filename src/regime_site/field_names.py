"""What each symptom and work field is called on a page, and prose with the code's field names put in words.

The symptoms files and the JSON a page shows keep the code's keys (``graph_speedup``); the words around them
use these names, so a learner reads "the speed-up with CUDA graphs 1.44", never an identifier.
"""

from __future__ import annotations

import re

LABELS = {
    "m": "m", "n": "n", "k": "k", "shape": "Shape", "ops": "Ops in the chain", "inputs": "Full-size inputs",
    "fused": "Fused", "params": "Parameters", "batch": "Batch", "context": "Context",
    "kv_bytes_per_token": "KV-cache bytes per token", "tokens": "Prompt tokens", "heads": "Heads", "seq": "Query tokens",
    "kv_seq": "Key/value tokens", "head_dim": "Head dimension", "flops": "FLOPs", "bytes": "Bytes",
    "time": "Measured time", "time_before": "Time before the change", "flops_fraction": "Fraction of peak FLOP/s", "bandwidth": "Achieved bandwidth",
    "bandwidth_fraction": "Fraction of peak bandwidth", "tokens_per_s": "Tokens/s", "kernel_time": "Kernel time",
    "gap_time": "Gap time", "gap_median": "Median gap", "long_gap_share": "Idle share in gaps longer than a launch",
    "launches": "Launches", "shrink_4x_ratio": "Time ratio when shrunk 4×",
    "fused_speedup": "Speed-up when fused", "occupancy": "Occupancy", "host_sync_in_loop": "Host sync in the loop",
    "timed_without_sync": "Timed without a synchronize", "time_on_gpu": "Timed on the GPU (the kernel alone)",
    "active_params": "Active parameters (MoE)", "weight_dtype": "Weight format", "causal": "Causal mask",
    "time_per_token": "Time per token", "mfu": "MFU", "achieved_flops": "Achieved FLOP/s",
    "gpu_utilization": "GPU utilisation", "sm_active": "SM active", "shrink_2x_ratio": "Time ratio when shrunk 2×",
    "shrunk": "What was shrunk", "graph_speedup": "Speed-up with CUDA graphs", "loader_time": "Data-loader wait per step",
    "comm_time": "Exposed communication per step", "comm_share": "Exposed communication's share of the step",
}
"""What each field is called on the page: sentence case, except a matmul's m, n and k (the algebra's own)."""


#: Every key a sentence may name, written as the code writes them (with an underscore; one-word keys read as
#: words already), with its name in a sentence: the fields, and the casebook's record of the authors' reading.
_NAMES = {**{k: v for k, v in LABELS.items() if "_" in k}, "authors_regime": "The authors' reading"}
_KEYS = re.compile(r"(^|\. )?\b(" + "|".join(sorted(_NAMES, key=len, reverse=True)) + r")\b")


def _lower(label: str) -> str:
    """A label inside a sentence: its first letter in lower case, unless it starts an acronym (GPU, MFU, KV)."""
    return label if label[1:2].isupper() else label[:1].lower() + label[1:]


def in_words(text: str) -> str:
    """``text`` with each key it names replaced by its name ("kernel_time 5 ms" → "kernel time 5 ms").

    A name that starts a sentence keeps its capital letter.
    """
    def name(found: re.Match[str]) -> str:
        label = _NAMES[found[2]]
        return found[0][: len(found[0]) - len(found[2])] + (label if found[1] is not None else _lower(label))

    return _KEYS.sub(name, text)
