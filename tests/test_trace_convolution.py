"""Convolutions on the roofline: their FLOPs and bytes from the shapes and the stride, padding and groups recorded.

Each shape's figures are worked here by hand: the output's size P = ⌊(H + 2·pad − dilation·(R − 1) − 1) ÷ stride⌋ + 1,
FLOPs = 2·N·K·(C/g)·R·S·P·Q, bytes = (input + weight + output) elements × the element's size. The traces are
synthetic, written as torch.profiler (record_shapes=True) writes an ``aten::convolution``: ``Input Dims``
[[N, C, H, W], [K, C/g, R, S], …] and ``Concrete Inputs`` [.., .., .., stride, padding, dilation, transposed,
output_padding, groups]; no real trace with a convolution's shapes is among the shared traces.
"""

from __future__ import annotations

import pytest

from regime_core.trace.events import CpuOp
from regime_core.trace.ops import work_of
from regime_core.trace.reading import read_trace
from trace_builder import Trace, as_bytes

HALF = ("c10::Half", "c10::Half", "", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar")


def _convolution(name: str, dims: list[list[int]], concrete: list[str], types: tuple[str, ...] = HALF) -> CpuOp:
    return CpuOp(name, 0.0, 1.0, "main", 1, tuple(dims), types[:len(dims)], None, tuple(concrete))


def _forward(x: list[int], w: list[int], stride: int, pad: int, groups: int = 1) -> CpuOp:
    concrete = ["", "", "", f"[{stride}, {stride}]", f"[{pad}, {pad}]", "[1, 1]", "False", "[0, 0]", str(groups)]
    return _convolution("aten::convolution", [x, w, [], [], [], [], [], [], []], concrete)


@pytest.mark.parametrize(("op", "flops", "moved"), [
    # ResNet's first layer: 224 → ⌊(224 + 6 − 6 − 1) ÷ 2⌋ + 1 = 112; 2·1·64·3·7·7·112·112
    (_forward([1, 3, 224, 224], [64, 3, 7, 7], stride=2, pad=3), 2 * 1 * 64 * 3 * 7 * 7 * 112 * 112,
     (1 * 3 * 224 * 224 + 64 * 3 * 7 * 7 + 1 * 64 * 112 * 112) * 2),
    # a 3×3 block at 56×56, stride 1, padding 1: the output stays 56; 2·32·64·64·3·3·56·56
    (_forward([32, 64, 56, 56], [64, 64, 3, 3], stride=1, pad=1), 2 * 32 * 64 * 64 * 3 * 3 * 56 * 56,
     (32 * 64 * 56 * 56 + 64 * 64 * 9 + 32 * 64 * 56 * 56) * 2),
    # a depthwise 3×3, stride 2, 128 groups: 28 → ⌊(28 + 2 − 2 − 1) ÷ 2⌋ + 1 = 14; each filter sees one channel
    (_forward([8, 128, 28, 28], [128, 1, 3, 3], stride=2, pad=1, groups=128), 2 * 8 * 128 * 1 * 3 * 3 * 14 * 14,
     (8 * 128 * 28 * 28 + 128 * 9 + 8 * 128 * 14 * 14) * 2),
])
def test_a_forward_convolution_is_worked_as_by_hand(op: CpuOp, flops: int, moved: int) -> None:
    work = work_of(op)
    assert work is not None
    assert work.flops == flops
    assert work.bytes == moved
    assert work.dtype == "fp16"


def test_each_convolution_op_reads_its_own_argument_order() -> None:
    """cudnn_convolution records padding before stride; the same layer comes to the same work."""
    cudnn = _convolution("aten::cudnn_convolution", [[1, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], []],
                         ["", "", "[3, 3]", "[2, 2]", "[1, 1]", "1", "False", "False", "True"])
    assert work_of(cudnn) == work_of(_forward([1, 3, 224, 224], [64, 3, 7, 7], stride=2, pad=3))
    # conv2d records stride before padding, no transposed flag, and may give one number for every dimension
    conv2d = _convolution("aten::conv2d", [[1, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], []],
                          ["", "", "", "2", "3", "1", "1"])
    assert work_of(conv2d) == work_of(cudnn)


@pytest.mark.parametrize(("mask", "grads"), [("[True, True, True]", 2), ("[False, True, True]", 1)])
def test_the_backward_pass_costs_a_forward_per_gradient_asked_for(mask: str, grads: int) -> None:
    grad, x, w = [32, 64, 56, 56], [32, 64, 56, 56], [64, 64, 3, 3]
    op = _convolution("aten::convolution_backward", [grad, x, w, [], [], [], [], [], [], [], []],
                      ["", "", "", "[64]", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1", mask],
                      (*HALF[:2], "c10::Half", *HALF[2:]))
    work = work_of(op)
    assert work is not None
    assert work.flops == grads * 2 * 32 * 64 * 64 * 3 * 3 * 56 * 56
    written = (32 * 64 * 56 * 56 if grads == 2 else 0) + 64 * 64 * 9
    assert work.bytes == (32 * 64 * 56 * 56 * 2 + 64 * 64 * 9 + written) * 2


@pytest.mark.parametrize("concrete", [
    [],  # recorded without its stride and padding
    ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "True", "[0, 0]", "1"],  # transposed
    ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "2"],  # 2 groups, but the weight sees every channel
    ["", "", "", "[1, 1]", "[x, y]", "[1, 1]", "False", "[0, 0]", "1"],  # padding that is no number
])
def test_a_convolution_it_cannot_work_out_is_not_modelled(concrete: list[str]) -> None:
    op = _convolution("aten::convolution", [[8, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], [], [], []], concrete)
    assert work_of(op) is None


def test_a_trace_places_its_convolutions_on_the_roofline() -> None:
    """The op's kernel time, its FLOPs and bytes, and the reading's coverage all count the convolution."""
    t = Trace()
    op = t.op(0, 5, "aten::convolution", [[32, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], [], [], []], list(HALF))
    op["args"]["Concrete Inputs"] = ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"]
    t.kernel(10, 30, op=op)
    trace = read_trace(as_bytes(t.document())).to_json()["trace"]
    row = trace["ops"][0]
    assert (row["name"], row["flops"], row["source"]) == ("aten::convolution", 2 * 32 * 64 * 64 * 9 * 56 * 56, "shapes")
    assert row["shape"] == "[[32, 64, 56, 56], [64, 64, 3, 3]]"  # the stride's and padding's empty entries left off
    assert row["achieved_flops"] == pytest.approx(row["flops"] / 30e-6)
    assert trace["coverage"]["placed"] == 1.0
    assert trace["coverage"]["not_modelled"]["ops"] == 0


def test_a_dilated_convolution_s_output_shrinks_by_its_dilation() -> None:
    """A 3×3 at dilation 2 spans 5×5: 56 → ⌊(56 + 2·1 − 2·(3 − 1) − 1) ÷ 1⌋ + 1 = 54, with the same 9 taps each."""
    dims = [[32, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], [], [], []]
    dilated = _convolution("aten::convolution", dims, ["", "", "", "[1, 1]", "[1, 1]", "[2, 2]", "False", "[0, 0]", "1"])
    work = work_of(dilated)
    assert work is not None
    assert work.flops == 2 * 32 * 64 * 64 * 3 * 3 * 54 * 54
    assert work.bytes == (32 * 64 * 56 * 56 + 64 * 64 * 9 + 32 * 64 * 54 * 54) * 2
    assert work_of(_forward([32, 64, 56, 56], [64, 64, 3, 3], stride=1, pad=1)).flops == 2 * 32 * 64 * 64 * 9 * 56 * 56  # type: ignore[union-attr]


def test_rocm_s_miopen_convolution_reads_its_own_argument_order() -> None:
    """miopen_convolution(input, weight, bias, padding, stride, dilation, groups, …): padding before stride."""
    miopen = _convolution("aten::miopen_convolution", [[1, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], []],
                          ["", "", "", "[3, 3]", "[2, 2]", "[1, 1]", "1", "False", "True"])
    assert work_of(miopen) == work_of(_forward([1, 3, 224, 224], [64, 3, 7, 7], stride=2, pad=3))
