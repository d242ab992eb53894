import pytest

from regime_core.catalogue import hardware
from regime_core.errors import RegimeError
from regime_core.model import work
from regime_core.model.roofline import place, ridge

DRILL_CARD = hardware.custom("312 TFLOP/s", "2.0 TB/s")


def test_ridge_of_the_drill_card_is_156() -> None:
    assert ridge(312e12, 2.0e12) == pytest.approx(156)


def test_matmul_4096_fp16_far_above_the_ridge() -> None:
    p = place(work.matmul(4096, 4096, 4096, "fp16"), DRILL_CARD)
    assert p.work.flops == pytest.approx(1.37e11, rel=0.01)
    assert p.work.bytes == pytest.approx(1.01e8, rel=0.01)
    assert p.intensity == pytest.approx(1365, rel=0.01)
    assert p.side == "above"
    assert p.factor > 5
    assert p.floor_seconds == pytest.approx(p.work.flops / 312e12)


def test_decode_far_below_the_ridge() -> None:
    p = place(work.decode(7e9, "fp16", batch=1), DRILL_CARD)
    assert p.intensity == pytest.approx(1)
    assert p.side == "below"
    assert p.factor > 100


def test_elementwise_eager_moves_four_times_the_fused_bytes() -> None:
    eager = work.elementwise((8, 4096, 4096), "fp32", ops=4)
    fused = work.elementwise((8, 4096, 4096), "fp32", ops=4, fused=True)
    assert eager.bytes == 4 * fused.bytes
    assert eager.flops == fused.flops


def test_add_bytes_are_three_fp16_tensors() -> None:
    add = work.elementwise((4096, 4096), "fp16", ops=1, inputs=2)
    assert add.bytes == 3 * 2 * 4096 * 4096


def test_decode_kv_bytes_add_traffic() -> None:
    plain = work.decode(7e9, "bf16", batch=4, context=1000)
    with_kv = work.decode(7e9, "bf16", batch=4, context=1000, kv_bytes_per_token=524288)
    assert with_kv.bytes - plain.bytes == 4 * 1000 * 524288


def test_prefill_intensity_is_the_token_count_in_bf16() -> None:
    assert work.prefill(7e9, 4096, "bf16").intensity == pytest.approx(4096)


def test_raising_batch_moves_decode_toward_the_ridge() -> None:
    card = hardware.get("h100-sxm")
    factors = [place(work.decode(7e9, "bf16", batch=b), card).intensity for b in (1, 8, 64)]
    assert factors == sorted(factors)


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ({"kernel": "conv"}, "work.kernel"),
        ({"kernel": "matmul", "m": 4, "n": 4}, "work.k"),
        ({"kernel": "matmul", "m": 4, "n": 4, "k": "four"}, "work.k"),
        ({"kernel": "elementwise", "shape": "8xx"}, "work.shape"),
        ({"kernel": "elementwise", "shape": [8, -1]}, "work.shape"),
        ({"kernel": "elementwise", "shape": [8], "fused": "yes"}, "work.fused"),
        ({"kernel": "decode", "params": "7e9", "dtype": "fp128"}, "work.dtype"),
        ({"kernel": "matmul", "m": 1, "n": 1, "k": 1, "shape": [1]}, "work.shape"),
        ({"flops": 1, "bytes": 0}, "work.bytes"),
    ],
)
def test_bad_work_specs_name_the_field(spec: dict, field: str) -> None:
    with pytest.raises(RegimeError) as info:
        work.from_spec(spec, None)
    assert info.value.field == field
