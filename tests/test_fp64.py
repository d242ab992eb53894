"""Double precision: the vector and the tensor/matrix FP64 rates, each from the vendor's own text."""

from __future__ import annotations

import pytest

from regime_core.catalogue import hardware as hw
from regime_core.errors import RegimeError
from regime_core.judgment.classify import classify
from regime_core.judgment.symptoms import parse_symptoms

#: What the vendors print, TFLOP/s: (vector, matrix or tensor core; None where the chip has none).
PRINTED = {"h100-sxm": (34, 67), "h200-sxm": (34, 67), "a100-40gb-sxm": (9.7, 19.5), "a100-80gb-sxm": (9.7, 19.5),
           "a100-80gb-pcie": (9.7, 19.5), "a100-40gb-pcie": (9.7, 19.5), "v100-sxm2": (7.8, None),
           "mi250x": (47.9, 95.7), "mi250x-gcd": (23.95, 47.85), "mi300x": (81.7, 163.4), "mi325x": (81.7, 163.4)}
VENDOR_TEXT = {"nvidia-ampere-blog", "nvidia-rubin-blog", "amd-cdna2-whitepaper", "amd-cdna3-whitepaper",
               "amd-mi300-rocm-docs"}


@pytest.mark.parametrize("card_id", list(PRINTED))
def test_each_fp64_peak_is_the_printed_one_from_vendor_text(card_id: str) -> None:
    card = hw.get(card_id)
    vector, matrix = PRINTED[card_id]
    assert card.peak("fp64") == pytest.approx(vector * 1e12)
    assert card.peaks["fp64"].source.key in VENDOR_TEXT
    if matrix is None:
        assert "fp64-matrix" not in card.peaks
        assert card.roof_dtype("fp64-matrix") == "fp64"  # a DGEMM there runs on the vector units
    else:
        assert card.peak("fp64-matrix") == pytest.approx(matrix * 1e12)
        assert card.peaks["fp64-matrix"].source.key in VENDOR_TEXT


def test_no_other_card_claims_an_fp64_rate() -> None:
    claimed = {card_id for card_id, card in hw.catalogue().items() if {"fp64", "fp64-matrix"} & set(card.peaks)}
    assert claimed == set(PRINTED)


def test_a_card_without_an_fp64_figure_says_why() -> None:
    with pytest.raises(RegimeError, match=r"l4 has no 'fp64' peak \(.*1/64 of FP32 or less\)") as error:
        hw.get("l4").peak("fp64", "--dtype")
    assert error.value.field == "--dtype"
    with pytest.raises(RegimeError, match="only this card's vector FP64 rate"):
        hw.get("v100-sxm2").peak("fp64-matrix")


def test_a_dgemm_reads_against_the_tensor_roof_and_a_stencil_against_bandwidth() -> None:
    dgemm = {"hardware": "h100-sxm", "dtype": "fp64-matrix",
             "work": {"kernel": "matmul", "m": 8192, "n": 8192, "k": 8192}, "observed": {"flops_fraction": "85%"}}
    assert classify(parse_symptoms(dgemm)).regime == "compute"
    stencil = {"hardware": "a100-80gb-sxm", "dtype": "fp64", "work": {"flops": "2.4e10", "bytes": "1.6e10"},
               "observed": {"bandwidth_fraction": "82%"}}
    verdict = classify(parse_symptoms(stencil))
    assert verdict.regime == "memory"
    assert verdict.placement is not None
    assert verdict.placement.ridge == pytest.approx(9.7e12 / 2.039e12, rel=0.01)
