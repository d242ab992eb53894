"""The trace's top ops on the card's roofline: numbered as in the ops table, drawn at what each achieved."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from regime_core.trace.picture import ROOFLINE_OPS, ops_roofline
from regime_core.trace.reading import read_trace
from trace_builder import Trace, as_bytes, bandwidth_bound, gemm_bound


def _labels(svg: str) -> list[str]:
    return re.findall(r'class="roofline__point-label"[^>]*>([^<]*)<', svg)


def _gemm_then_add() -> Trace:
    """An H100 trace: bf16 GEMMs (most of the time), then fp32 adds, then copies (no FLOPs)."""
    t = Trace()
    at = 100.0
    for _ in range(20):
        op = t.op(at - 10, 5, "aten::mm", [[8192, 8192], [8192, 8192]], ["c10::BFloat16", "c10::BFloat16"])
        t.kernel(at, 1600, op=op)
        at += 1601
    for _ in range(10):
        op = t.op(at - 10, 5, "aten::add", [[8, 4096, 4096], [8, 4096, 4096], []], ["float", "float", "Scalar"])
        t.kernel(at, 600, op=op)
        at += 601
    for _ in range(10):
        op = t.op(at - 10, 5, "aten::copy_", [[8, 4096, 4096], [8, 4096, 4096]], ["float", "float"])
        t.kernel(at, 500, op=op)
        at += 501
    return t


def test_each_op_is_a_numbered_point_at_what_it_achieved_under_its_dtype_s_roof() -> None:
    reading = read_trace(as_bytes(_gemm_then_add().document()))
    svg, said = ops_roofline(reading.facts)
    rows = reading.facts["ops"]
    assert [r["name"] for r in rows] == ["aten::mm", "aten::add", "aten::copy_"]
    assert _labels(svg) == ["1. mm", "2. add"]  # the table's numbers; the copy has no FLOPs to place
    # One roof per dtype drawn; the ridge is the dtype of the op with the most time.
    assert "compute roofs bf16 990 TFLOP/s, fp32 67 TFLOP/s; ridge 295 FLOP/byte for bf16" in svg
    # The description names each point's intensity and the FLOP/s it was measured at, as the table does.
    assert "1. mm: 2731 FLOP/byte, above the ridge, measured 687 TFLOP/s" in svg
    assert "2. add: 0.0833 FLOP/byte, below the ridge" in svg
    assert said == ("The top 2 ops with shapes, numbered as in the table, at the FLOP/s achieved."
                    " Not drawn: 1 without FLOPs (a copy has no place on a log axis).")


def test_only_the_first_ops_are_drawn_so_the_labels_do_not_crowd() -> None:
    t = Trace()
    at = 100.0
    for n in range(ROOFLINE_OPS + 3):
        size = 1024 * (n + 1)
        op = t.op(at - 10, 5, "aten::mm", [[size, 1024], [1024, 1024]], ["c10::BFloat16", "c10::BFloat16"])
        t.kernel(at, 1000 - n, op=op)
        at += 1001
    svg, _ = ops_roofline(read_trace(as_bytes(t.document())).facts)
    assert _labels(svg) == [f"{n}. mm" for n in range(1, ROOFLINE_OPS + 1)]


def test_without_a_card_or_shapes_there_is_no_picture_and_the_line_says_why() -> None:
    unknown = Trace(device="Some Future Accelerator")
    op = unknown.op(90, 5, "aten::mm", [[1024, 1024], [1024, 1024]], ["c10::BFloat16", "c10::BFloat16"])
    unknown.kernel(100, 50, op=op)
    assert ops_roofline(read_trace(as_bytes(unknown.document())).facts) == (
        "", "No roofline: the trace does not name a card the catalogue holds; name the card it ran on.")
    bare = Trace()
    bare.kernel(100, 50)
    svg, said = ops_roofline(read_trace(as_bytes(bare.document())).facts)
    assert svg == ""
    assert said == "No roofline: no op has its shapes recorded (profile with record_shapes=True)."
    double = Trace(device="NVIDIA L4")  # an inference card: no FP64 figure in the catalogue
    op = double.op(90, 5, "aten::add", [[4096, 4096], [4096, 4096], []], ["double", "double", "Scalar"])
    double.kernel(100, 50, op=op)
    assert ops_roofline(read_trace(as_bytes(double.document())).facts)[1] == (
        "No roofline: the ops with shapes are in fp64, for which the card has no peak.")
    conv = Trace()
    op = conv.op(90, 5, "aten::cudnn_convolution", [[8, 64, 56, 56], [64, 64, 3, 3]], ["float", "float"])
    conv.kernel(100, 50, op=op)
    assert ops_roofline(read_trace(as_bytes(conv.document())).facts)[1] == (  # a convolution recorded without its stride
        "No roofline: no op with shapes is one Regime models (custom ops, transposed convolutions and convolutions"
        " recorded without their stride are not).")


def _cli(*args: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "regime_core", "trace", *args], input=stdin, capture_output=True,
                          timeout=120, check=False)


def test_the_command_prints_the_picture_or_says_in_one_line_why_not() -> None:
    drawn = _cli("-", "--svg", stdin=as_bytes(gemm_bound()))
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout.startswith(b"<svg")
    assert b"1. mm" in drawn.stdout
    as_json = _cli("-", "--svg", "--json", stdin=as_bytes(bandwidth_bound()))
    assert b'"svg": "<svg' in as_json.stdout
    bare = Trace()
    bare.kernel(100, 50)
    refused = _cli("-", "--svg", stdin=as_bytes(bare.document()))
    assert refused.returncode == 2
    assert refused.stderr.decode().count("\n") == 1
    assert "--svg: no op has its shapes recorded" in refused.stderr.decode()


def test_each_roof_s_label_sits_nearer_its_own_flat_part_than_any_other() -> None:
    svg, _ = ops_roofline(read_trace(as_bytes(_gemm_then_add().document())).facts)
    flats = {float(y) for y in re.findall(r'<polyline class="roofline__roof[^"]*" points="[^"]* [\d.]+,([\d.]+)"', svg)}
    labels = {text: float(y) for y, text in re.findall(r'class="roofline__label" x="[\d.]+" y="([\d.]+)"[^>]*>'
                                                              r'((?:bf16|fp32)[^<]*)<', svg)}
    roof_of = {"bf16 990 TFLOP/s": min(flats), "fp32 67 TFLOP/s": max(flats)}  # the higher roof is bf16's
    assert set(labels) == set(roof_of)
    for text, y in labels.items():
        nearest = min(flats, key=lambda flat: abs(flat - y))
        assert nearest == roof_of[text], (text, y, flats)


@pytest.mark.parametrize(("device", "roof", "peak"), [("NVIDIA H100 80GB HBM3", "fp64-matrix", "67 TFLOP/s"),
                                                      ("Tesla V100-SXM2-32GB", "fp64", "7.8 TFLOP/s")])
def test_a_double_gemm_is_held_to_the_fp64_tensor_roof_where_the_card_has_one(device: str, roof: str, peak: str) -> None:
    t = Trace(device=device)
    op = t.op(90, 5, "aten::mm", [[4096, 4096], [4096, 4096]], ["double", "double"])
    t.kernel(100, 5000, op=op)
    reading = read_trace(as_bytes(t.document()))
    (row,) = reading.facts["ops"]
    assert row["dtype"] == "fp64-matrix"
    assert row["bytes"] == 3 * 4096 * 4096 * 8
    assert reading.symptoms["dtype"] == roof  # the verdict is read against the roof that bounds it
    svg, _ = ops_roofline(reading.facts)
    assert f"compute roofs {roof} {peak};" in svg
