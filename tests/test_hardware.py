import copy
import json
from importlib import resources

import pytest

from regime_core.catalogue import hardware
from regime_core.errors import RegimeError
from regime_core.model import roofline, work

REQUIRED_IDS = [
    "h100-sxm", "h100-pcie", "h200-sxm", "a100-40gb-sxm", "a100-80gb-sxm", "l4", "l40s", "a10", "t4",
    "v100-sxm2", "rtx-4090", "b200", "mi300x", "mi250x", "tpu-v5e", "tpu-v5p", "tpu-v6e",
    # issue 18: the cards people have
    "h100-nvl", "h800-sxm", "h20", "gb200", "b300", "mi325x", "mi355x", "tpu-v7", "rtx-5090", "rtx-4080",
    "rtx-3090", "rtx-a6000", "l40", "a100-80gb-pcie", "a100-40gb-pcie", "gaudi3", "mi250x-gcd",
]


def _raw() -> dict:
    return json.loads(resources.files("regime_core").joinpath("data/hardware.json").read_text())


def test_catalogue_has_every_required_card() -> None:
    assert set(REQUIRED_IDS) <= set(hardware.catalogue())


def test_a_figure_without_source_is_refused() -> None:
    raw = copy.deepcopy(_raw())
    del raw["gpus"][0]["bandwidth"]["source"]
    with pytest.raises(RegimeError, match=r"gpus\.h100-sxm\.bandwidth\.source"):
        hardware.load_catalogue(raw)


def test_a_figure_with_unknown_source_is_refused() -> None:
    raw = copy.deepcopy(_raw())
    raw["gpus"][1]["peak_flops"]["bf16"]["source"] = "a-blog"
    with pytest.raises(RegimeError, match="source"):
        hardware.load_catalogue(raw)


@pytest.mark.parametrize(
    ("card_id", "dtype", "peak", "bandwidth"),
    [
        ("h100-sxm", "bf16", 989.5e12, 3.35e12),  # not 2.0 TB/s (PCIe) and not 1979 (sparse)
        ("h200-sxm", "bf16", 989.5e12, 4.8e12),  # same die as H100: 1979 TFLOPS is the sparse figure
        ("a100-80gb-sxm", "bf16", 312e12, 2.039e12),
        ("a100-80gb-pcie", "bf16", 312e12, 1.935e12),
        ("l4", "bf16", 121e12, 300e9),
        ("t4", "fp16", 65e12, 320e9),
        ("l40s", "bf16", 366.5e12, 864e9),  # half of the printed 733, not the L40's 362.05
        ("l40", "bf16", 181.05e12, 864e9),
        ("b200", "fp32", 75e12, 7.7e12),  # one revision: the HGX B200 column
        ("b200", "fp4", 9e15, 7.7e12),
        ("mi250x", "fp32", 47.9e12, 3.2768e12),  # vector, like the NVIDIA rows; matrix 95.7 is in the note
        ("tpu-v5e", "int8", 393e12, 819e9),
        ("tpu-v6e", "fp8", 918e12, 1638e9),
        ("tpu-v7", "fp8", 4614e12, 7.37e12),
        ("rtx-4090", "bf16", 165.15e12, 1008e9),  # FP32 accumulate, what PyTorch uses
        ("rtx-5090", "fp4", 1676e12, 1792e9),
        ("mi355x", "fp6", 10.1e15, 8e12),
    ],
)
def test_known_dense_figures(card_id: str, dtype: str, peak: float, bandwidth: float) -> None:
    card = hardware.get(card_id)
    assert card.peak(dtype) == pytest.approx(peak)
    assert card.bandwidth.value == pytest.approx(bandwidth)


def test_tpu_v5p_memory_is_binary_and_int8_is_not_invented() -> None:
    card = hardware.get("tpu-v5p")
    assert card.memory is not None
    assert card.memory.value == 95 * 2**30
    assert "int8" not in card.peaks


def test_unknown_gpu_and_missing_dtype_name_the_field() -> None:
    with pytest.raises(RegimeError, match=r"^hardware: unknown GPU 'nope'; expected one of h100-sxm"):
        hardware.get("nope")
    with pytest.raises(RegimeError, match="t4 has no 'bf16' peak"):
        hardware.get("t4").peak("bf16")
    with pytest.raises(RegimeError, match="unknown GPU"):
        hardware.get(["h100-sxm"])


@pytest.mark.parametrize(
    ("typed", "card_id"),
    [
        ("H100-SXM", "h100-sxm"),
        (" h100_sxm ", "h100-sxm"),
        ("rtx4090", "rtx-4090"),
        ("RTX 4090", "rtx-4090"),
        ("4090", "rtx-4090"),
        ("NVIDIA GeForce RTX 4090", "rtx-4090"),
        ("mi300", "mi300x"),
        ("AMD Instinct MI300X", "mi300x"),
        ("Tesla T4", "t4"),
        ("ironwood", "tpu-v7"),
        ("Google Cloud TPU v5e", "tpu-v5e"),
        ("NVIDIA A100-SXM4-80GB", "a100-80gb-sxm"),  # what torch.cuda.get_device_name() says
    ],
)
def test_names_people_type_resolve(typed: str, card_id: str) -> None:
    assert hardware.get(typed).id == card_id


@pytest.mark.parametrize(
    ("typed", "variants"),
    [
        ("a100", ["a100-40gb-sxm", "a100-80gb-sxm", "a100-40gb-pcie", "a100-80gb-pcie"]),
        ("H100", ["h100-sxm", "h100-pcie", "h100-nvl"]),
        ("A100 80GB", ["a100-80gb-sxm", "a100-80gb-pcie"]),
    ],
)
def test_an_ambiguous_name_lists_its_variants(typed: str, variants: list[str]) -> None:
    with pytest.raises(RegimeError, match="names several cards") as caught:
        hardware.get(typed, "--gpu")
    assert caught.value.field == "--gpu"
    listed = str(caught.value).split("expected one of ")[1].split(", ")
    assert listed == variants


def test_a_name_two_cards_would_share_is_refused() -> None:
    raw = copy.deepcopy(_raw())
    raw["gpus"][1]["aliases"] = ["H100 SXM"]  # h100-pcie claiming h100-sxm's id
    with pytest.raises(RegimeError, match=r"gpus\.h100-pcie\.aliases"):
        hardware.load_names(raw, hardware.load_catalogue(raw))


def test_an_ambiguous_entry_must_name_real_cards() -> None:
    raw = copy.deepcopy(_raw())
    raw["ambiguous"]["b2"] = ["b200", "b250"]
    with pytest.raises(RegimeError, match=r"ambiguous\.b2"):
        hardware.load_names(raw, hardware.load_catalogue(raw))


def test_count_scales_peaks_bandwidth_and_memory_but_not_the_ridge() -> None:
    one = hardware.get("a100-80gb-sxm")
    eight = hardware.resolve({"id": "a100-80gb-sxm", "count": 8})
    assert eight.name == "8 × NVIDIA A100 SXM4 80 GB"
    assert eight.count == 8
    for dtype in one.peaks:
        assert eight.peak(dtype) == pytest.approx(8 * one.peak(dtype))
    assert eight.bandwidth.value == pytest.approx(8 * one.bandwidth.value)
    assert eight.memory is not None
    assert one.memory is not None
    assert eight.memory.value == pytest.approx(8 * one.memory.value)
    assert roofline.ridge(eight.peak("bf16"), eight.bandwidth.value) == pytest.approx(
        roofline.ridge(one.peak("bf16"), one.bandwidth.value))
    assert hardware.resolve({"id": "a100-80gb-sxm", "count": 1}) == one


def test_70b_decode_at_60_tokens_is_beyond_one_a100_and_within_eight() -> None:
    # By hand: 70e9 params x 2 B = 140 GB per token; 140 GB / 2.039 TB/s = 68.7 ms, about 14.6 tok/s at most.
    decode = work.decode(70e9, "bf16")
    one = roofline.place(decode, hardware.get("a100-80gb-sxm"))
    eight = roofline.place(decode, hardware.resolve({"id": "a100-80gb-sxm", "count": 8}))
    assert one.floor_seconds == pytest.approx(140e9 / 2.039e12)
    assert 1 / one.floor_seconds < 60 < 1 / eight.floor_seconds
    assert eight.floor_seconds == pytest.approx(one.floor_seconds / 8)
    assert eight.hardware_name.startswith("8 × ")


@pytest.mark.parametrize("count", [0, -1, 1.5, "eight", True, None, "1e3", 100_001])
def test_a_bad_count_names_the_field(count: object) -> None:
    with pytest.raises(RegimeError, match=r"^hardware\.count: expected a whole number of GPUs"):
        hardware.resolve({"id": "h100-sxm", "count": count})


def test_count_accepts_digits_as_text() -> None:
    assert hardware.resolve({"id": "h100-sxm", "count": "4"}).count == 4


def test_custom_card_and_resolve() -> None:
    card = hardware.resolve({"peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"})
    assert card.peak("fp8") == 312e12
    with pytest.raises(RegimeError, match=r"hardware\.bandwidth"):
        hardware.resolve({"peak_flops": "312 TFLOP/s", "bandwidth": "0"})
    with pytest.raises(RegimeError, match="expected both"):
        hardware.resolve({"peak_flops": "312 TFLOP/s"})
    two = hardware.resolve({"peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s", "count": 2})
    assert two.peak("bf16") == 624e12
    assert two.name.startswith("2 × (")


def test_resolve_refuses_unknown_keys_and_bad_ids() -> None:
    with pytest.raises(RegimeError, match=r"unexpected keys \['gpus'\]"):
        hardware.resolve({"id": "h100-sxm", "gpus": 2})
    with pytest.raises(RegimeError, match=r"^hardware\.id: unknown GPU"):
        hardware.resolve({"id": "h1000", "count": 2})
    with pytest.raises(RegimeError, match=r"^hardware\.id: 'h100' names several cards"):
        hardware.resolve({"id": "h100", "count": 2})


@pytest.mark.parametrize("card_id", ["custom", ""])
def test_a_form_card_with_id_custom_or_none_is_made_from_its_two_figures(card_id: str) -> None:
    card = hardware.from_form({"id": card_id, "peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"})
    assert card.custom
    assert roofline.ridge(card.peak("bf16"), card.bandwidth.value) == pytest.approx(156)


def test_a_form_card_with_a_catalogue_id_ignores_the_figures_the_widget_wrote_beside_it() -> None:
    card = hardware.from_form({"id": "L4", "peak_flops": "stale text", "bandwidth": "1 B/s"})
    assert card == hardware.get("l4")


@pytest.mark.parametrize(("form", "field"), [
    ({"id": "custom", "peak_flops": "fast", "bandwidth": "2 TB/s"}, "hardware.peak_flops"),
    ({"id": "custom", "peak_flops": "312 TFLOP/s"}, "hardware.bandwidth"),
    ({"id": "h1000"}, "hardware.id"),
    ({"id": "l4", "gpu": "l4"}, "hardware.gpu"),
    ("l4", "hardware"),
    (None, "hardware"),
])
def test_a_bad_form_card_names_the_input_to_fix(form: object, field: str) -> None:
    with pytest.raises(RegimeError) as caught:
        hardware.from_form(form)
    assert caught.value.field == field


def test_new_dtypes_have_bytes_for_the_work_models() -> None:
    assert hardware.check_dtype("FP4") == "fp4"
    m = work.matmul(4096, 4096, 4096, "fp4")
    assert m.bytes == pytest.approx(3 * 4096 * 4096 * 0.5)
    assert work.matmul(64, 64, 64, "fp6").bytes == pytest.approx(3 * 64 * 64 * 0.75)
