"""The command line's card options: names people type, ambiguous names, --count, the gpus listing."""

import json

import pytest

from regime_core.cli import main as cli


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_gpus_lists_every_new_card_with_its_aliases(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "gpus")
    assert code == 0
    ids = [line.split()[0] for line in out.splitlines()[1:]]
    for card_id in ("h100-nvl", "h800-sxm", "h20", "gb200", "b300", "mi325x", "mi355x", "tpu-v7", "rtx-5090",
                    "rtx-4080", "rtx-3090", "rtx-a6000", "l40", "a100-80gb-pcie", "a100-40gb-pcie", "gaudi3",
                    "mi250x-gcd"):
        assert card_id in ids
    assert "(also: 4090)" in out
    code, out, _ = run(capsys, "gpus", "--json")
    cards = {c["id"]: c for c in json.loads(out)["gpus"]}
    assert cards["rtx-4090"]["aliases"] == ["4090"]
    assert cards["b200"]["peak_flops"]["fp4"] == pytest.approx(9e15)


def test_an_alias_in_any_case_works(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ridge", "--gpu", "RTX4090", "--json")
    assert code == 0
    assert json.loads(out)["hardware"] == "rtx-4090"


def test_an_ambiguous_name_exits_2_with_one_line_listing_the_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "ridge", "--gpu", "a100")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("regime ridge: --gpu: 'a100' names several cards; expected one of a100-40gb-sxm")
    assert "a100-80gb-pcie" in err


def test_count_scales_the_roof_and_leaves_the_ridge(capsys: pytest.CaptureFixture[str]) -> None:
    _, one, _ = run(capsys, "kernel", "decode", "--params", "70e9", "--gpu", "a100-80gb-sxm", "--json")
    code, eight, _ = run(capsys, "kernel", "decode", "--params", "70e9", "--gpu", "a100-80gb-sxm", "--count", "8",
                         "--json")
    assert code == 0
    one_j, eight_j = json.loads(one), json.loads(eight)
    assert eight_j["ridge"] == pytest.approx(one_j["ridge"])
    assert eight_j["floor_seconds"] == pytest.approx(one_j["floor_seconds"] / 8)
    assert 1 / one_j["floor_seconds"] < 60 < 1 / eight_j["floor_seconds"]  # 70B bf16 decode at 60 tok/s
    assert eight_j["hardware"] == "8 × NVIDIA A100 SXM4 80 GB"


def test_count_works_with_a_typed_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ridge", "--peak-flops", "312 TFLOP/s", "--bandwidth", "2 TB/s", "--count", "4",
                       "--json")
    assert code == 0
    assert json.loads(out)["peak_flops"] == pytest.approx(4 * 312e12)


@pytest.mark.parametrize("count", ["0", "two", "2.5", "-3"])
def test_a_bad_count_exits_2_naming_the_option(capsys: pytest.CaptureFixture[str], count: str) -> None:
    code, _, err = run(capsys, "ridge", "--gpu", "h100-sxm", "--count", count)
    assert code == 2
    assert "--count: expected a whole number of GPUs" in err
