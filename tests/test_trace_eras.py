"""Kineto traces of every era read to the same facts.

PyTorch's traces before 2022 spell their categories ``Kernel``, ``Memcpy``, ``Memset``, ``Runtime`` and
``Operator``; a GPU event names its op in ``external id`` (lower case) and an op its shapes in ``Input dims`` (early
2021) or ``Input Dims``; the card may sit under ``computeProperties``. Each test writes a trace in today's spelling,
rewrites it in the old one, exactly as Kineto's 2021 ``output_json.cpp`` wrote its events, and holds the two
readings equal. (The PyTorch profiler's own 2021 ResNet-50 samples, in pytorch/kineto's history under
tb_plugin/samples, read as 8,772 and 9,564 kernels this way; before, "no GPU activity".)
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from regime_core.trace.reading import read_trace
from trace_builder import as_bytes, bandwidth_bound, comm_exposed, gemm_bound, loader_starved, picket_fence, sync_stall

_OLD_CATEGORY = {"kernel": "Kernel", "gpu_memcpy": "Memcpy", "gpu_memset": "Memset", "cuda_runtime": "Runtime",
                 "cpu_op": "Operator", "user_annotation": "Operator"}


def in_2021_spelling(trace: dict[str, Any], *, dims: str = "Input Dims", properties: str = "deviceProperties",
                     ) -> dict[str, Any]:
    """``trace`` as Kineto wrote it in 2021: old categories, ``external id`` on GPU and runtime events."""
    old = copy.deepcopy(trace)
    for event in old["traceEvents"]:
        cat = event.get("cat")
        event["cat"] = _OLD_CATEGORY.get(cat, cat)
        args = event.get("args", {})
        if cat in ("kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime") and "External id" in args:
            args["external id"] = args.pop("External id")
        if "Input Dims" in args:
            args[dims] = args.pop("Input Dims")
    if properties != "deviceProperties":
        old[properties] = old.pop("deviceProperties")
    return old


def _facts(trace: dict[str, Any]) -> dict[str, Any]:
    return read_trace(as_bytes(trace)).to_json()


@pytest.mark.parametrize("build", [picket_fence, sync_stall, loader_starved, comm_exposed, gemm_bound,
                                   bandwidth_bound], ids=lambda b: b.__name__)
def test_a_2021_trace_reads_as_its_2022_self(build: Any) -> None:
    today = build()
    assert _facts(in_2021_spelling(today)) == _facts(today)


def test_early_2021_shapes_and_a_card_under_compute_properties() -> None:
    today = gemm_bound()
    old = in_2021_spelling(today, dims="Input dims", properties="computeProperties")
    reading = _facts(old)
    assert reading == _facts(today)
    assert reading["regime"] == "compute"  # shapes read, the card found: each GEMM placed on the H100's roof
    assert reading["trace"]["card"] == "h100-sxm"
