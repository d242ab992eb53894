"""Convolutions in traces that record their tensors but not their stride (PyTorch's of 2021, ResNet-50's).

Such a trace records ``aten::cudnn_convolution_backward`` with all three tensors (input, output gradient, weight)
and, inside it, ``…_backward_input`` and ``…_backward_weight`` with two of them each; its forward ops record the input
and the weight only. The backward op gives the output's size, so each gradient's op is placed with the forward's
FLOPs, 2·N·K·(C/g)·R·S·P·Q, and a forward op is placed where every backward op of its shapes agrees on one output
size. The FLOPs below are worked by hand for three shapes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from regime_core.trace.events import CpuOp
from regime_core.trace.ops import ConvolutionShapes, work_of
from regime_core.trace.reading import read_trace
from trace_builder import Trace, as_bytes

ROOT = Path(__file__).resolve().parent.parent
_F = "float"
# (input, output gradient, weight) and the forward's FLOPs by hand: 2·N·K·(C/g)·R·S·P·Q
SHAPES = [
    ([32, 256, 14, 14], [32, 1024, 14, 14], [1024, 256, 1, 1], 2 * 32 * 1024 * 256 * 1 * 1 * 14 * 14),  # 1×1
    ([8, 64, 56, 56], [8, 128, 28, 28], [128, 64, 3, 3], 2 * 8 * 128 * 64 * 3 * 3 * 28 * 28),  # 3×3, stride 2
    ([4, 32, 28, 28], [4, 32, 28, 28], [32, 1, 3, 3], 2 * 4 * 32 * 1 * 3 * 3 * 28 * 28),  # depthwise: 32 groups
]


def _backward(x: list[int], grad: list[int], weight: list[int], at: float = 0.0) -> list[CpuOp]:
    """The backward op and the two it calls, as a 2021 trace records them (non-tensor arguments as [])."""
    return [CpuOp("aten::cudnn_convolution_backward", at, at + 10, "1", 1, (x, grad, weight, [], []), (_F,) * 3),
            CpuOp("aten::cudnn_convolution_backward_input", at + 1, at + 4, "1", 2, ([], grad, weight, []), ("", _F, _F)),
            CpuOp("aten::cudnn_convolution_backward_weight", at + 5, at + 9, "1", 3, ([], grad, x, []), ("", _F, _F))]


@pytest.mark.parametrize(("x", "grad", "weight", "flops"), SHAPES)
def test_each_gradient_and_the_forward_are_placed_with_the_forwards_flops(x: list[int], grad: list[int],
                                                                           weight: list[int], flops: int) -> None:
    parent, grad_input, grad_weight = _backward(x, grad, weight)
    forward = CpuOp("aten::cudnn_convolution", 20, 21, "1", 4, (x, weight, [], [], []), (_F, _F))
    shapes = ConvolutionShapes.of([parent, grad_input, grad_weight, forward])
    for op, asked in ((grad_input, 1), (grad_weight, 1), (forward, 1), (parent, 2)):
        work = work_of(op, shapes)
        assert work is not None, op.name
        assert work.flops == asked * flops, op.name
    assert work_of(forward) is None  # without the backward's shapes, its output's size is unknown


def test_a_forward_whose_shapes_two_backward_ops_disagree_on_is_not_placed() -> None:
    x, weight = [8, 64, 56, 56], [64, 64, 3, 3]
    ops = [*_backward(x, [8, 64, 56, 56], weight), *_backward(x, [8, 64, 28, 28], weight, at=100)]  # stride 1 and 2
    forward = CpuOp("aten::cudnn_convolution", 200, 201, "1", 9, (x, weight, [], []), (_F, _F))
    assert work_of(forward, ConvolutionShapes.of([*ops, forward])) is None


def test_a_gradients_op_outside_any_backward_op_or_on_another_thread_is_not_placed() -> None:
    parent, grad_input, _ = _backward(*SHAPES[0][:3])
    alone = grad_input._replace(start=50, end=51)
    elsewhere = grad_input._replace(thread="2")
    shapes = ConvolutionShapes.of([parent, alone, elsewhere])
    assert work_of(alone, shapes) is None
    assert work_of(elsewhere, shapes) is None


def test_a_trace_places_the_kernels_its_gradient_ops_launch() -> None:
    t = Trace()
    x, grad, weight, flops = SHAPES[0]
    t.op(100, 300, "aten::cudnn_convolution_backward", [x, grad, weight, [], []], [_F, _F, _F])
    child = t.op(110, 20, "aten::cudnn_convolution_backward_input", [[], grad, weight, []], ["", _F, _F])
    t.kernel(140, flops / 15.7e12 * 1e6 / 0.6, "volta_scudnn_128x64_stridedB_splitK_small_nn", op=child)
    trace = t.document()
    trace["deviceProperties"][0]["name"] = "Tesla V100-SXM2-32GB"
    reading = read_trace(as_bytes(trace))
    op = reading.to_json()["trace"]["ops"][0]
    assert op["flops"] == flops
    assert op["regime"] == "compute"  # 60% of the V100's fp32 peak
    assert reading.to_json()["trace"]["coverage"]["placed"] == pytest.approx(1)


REAL = [p for base in (ROOT / "shared", ROOT.parent / "shared")
        for p in sorted((base / "traces" / "real" / "kineto").glob("*2021-06_dims*.json.gz"))]


@pytest.mark.skipif(not REAL, reason="the real 2021 ResNet-50 traces live in the steering repository's"
                                     " shared/traces/real/kineto/ (fetched data is not committed here)")
@pytest.mark.parametrize("path", REAL, ids=[p.stem[:40] for p in REAL])
def test_a_real_2021_resnet_trace_places_most_of_its_kernel_time_on_the_named_card(path: Path) -> None:
    facts = read_trace(path.read_bytes(), gpu="v100-sxm2").to_json()["trace"]
    assert facts["coverage"]["placed"] >= 0.7  # was 12%: its convolutions, recorded without stride, unplaced
