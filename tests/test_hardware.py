import copy
import json
from importlib import resources

import pytest

from regime_core import hardware
from regime_core.errors import RegimeError

REQUIRED_IDS = [
    "h100-sxm", "h100-pcie", "h200-sxm", "a100-40gb-sxm", "a100-80gb-sxm", "l4", "l40s", "a10", "t4",
    "v100-sxm2", "rtx-4090", "b200", "mi300x", "mi250x", "tpu-v5e", "tpu-v5p", "tpu-v6e",
]


def _raw() -> dict:
    return json.loads(resources.files("regime_core").joinpath("data/hardware.json").read_text())


def test_catalogue_has_every_required_card() -> None:
    assert set(REQUIRED_IDS) <= set(hardware.catalogue())


@pytest.mark.parametrize("card_id", REQUIRED_IDS)
def test_every_figure_has_a_vendor_source(card_id: str) -> None:
    card = hardware.catalogue()[card_id]
    for figure in card.figures():
        assert figure.source.url.startswith("https://")
        assert figure.source.title


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


def test_sparse_figures_are_twice_the_stored_dense_ones() -> None:
    for card in hardware.catalogue().values():
        for dtype, fig in card.peaks.items():
            if fig.sparse_printed is not None:
                # 2% because the L40S datasheet itself prints 362.05 dense beside 733 sparse.
                assert fig.sparse_printed == pytest.approx(2 * fig.value, rel=0.02), (card.id, dtype)


@pytest.mark.parametrize(
    ("card_id", "dtype", "peak", "bandwidth"),
    [
        ("h100-sxm", "bf16", 989.5e12, 3.35e12),  # not 2.0 TB/s (PCIe) and not 1979 (sparse)
        ("h200-sxm", "bf16", 989.5e12, 4.8e12),  # same die as H100: 1979 TFLOPS is the sparse figure
        ("a100-80gb-sxm", "bf16", 312e12, 2.039e12),
        ("l4", "bf16", 121e12, 300e9),
        ("t4", "fp16", 65e12, 320e9),
    ],
)
def test_known_dense_figures(card_id: str, dtype: str, peak: float, bandwidth: float) -> None:
    card = hardware.get(card_id)
    assert card.peak(dtype) == pytest.approx(peak)
    assert card.bandwidth.value == pytest.approx(bandwidth)


def test_unknown_gpu_and_missing_dtype_name_the_field() -> None:
    with pytest.raises(RegimeError, match=r"^hardware: unknown GPU 'nope'; expected one of h100-sxm"):
        hardware.get("nope")
    with pytest.raises(RegimeError, match="t4 has no 'bf16' peak"):
        hardware.get("t4").peak("bf16")


def test_custom_card_and_resolve() -> None:
    card = hardware.resolve({"peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"})
    assert card.peak("fp8") == 312e12
    with pytest.raises(RegimeError, match=r"hardware\.bandwidth"):
        hardware.resolve({"peak_flops": "312 TFLOP/s", "bandwidth": "0"})
    with pytest.raises(RegimeError, match="expected both"):
        hardware.resolve({"peak_flops": "312 TFLOP/s"})
