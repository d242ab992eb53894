"""The card a run used, named by the user where the trace names none the catalogue holds (``regime trace --gpu``).

A 2021 trace names its V100 "Tesla V100-DGXS-32GB", which the catalogue does not tie to a card, and an AMD trace
may say only "AMD Radeon Graphics": the reading then places no op and asks for the card. Given one, it places the
ops on that card's roofline and says that the card was given, beside what the trace calls it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from regime_core.bridge.api import handle
from regime_core.cli.main import main as cli_main
from regime_core.errors import RegimeError
from regime_core.trace.ranks import reading_of as rank_reading_of
from regime_core.trace.reading import read_trace, text
from trace_builder import as_bytes, gemm_bound

ROOT = Path(__file__).resolve().parent.parent


def _unnamed_card() -> bytes:
    trace = gemm_bound()
    trace["deviceProperties"][0]["name"] = "AMD Radeon Graphics"
    return as_bytes(trace)


def test_a_card_the_catalogue_does_not_hold_is_asked_for_with_the_way_to_give_it() -> None:
    reading = read_trace(_unnamed_card())
    assert reading.verdict.regime is None
    assert "'AMD Radeon Graphics', which the catalogue does not hold" in reading.verdict.needs
    assert "--gpu" in reading.verdict.needs


def test_a_given_card_places_the_ops_and_is_said_to_be_given() -> None:
    reading = read_trace(_unnamed_card(), gpu="h100-sxm")
    assert reading.verdict.regime == "compute"  # the GEMMs at 70% of the H100's dense bf16 peak
    facts = reading.to_json()["trace"]
    assert (facts["card"], facts["card_given"], facts["device"]) == ("h100-sxm", True, "AMD Radeon Graphics")
    assert "(as given; the trace names 'AMD Radeon Graphics')" in text(reading)
    assert read_trace(as_bytes(gemm_bound())).to_json()["trace"]["card_given"] is False


def test_an_unknown_card_is_refused_with_the_catalogue() -> None:
    with pytest.raises(RegimeError, match=r"unknown GPU 'v99'; expected one of .*v100-sxm2") as caught:
        read_trace(_unnamed_card(), gpu="v99")
    assert caught.value.field == "--gpu"


def test_the_command_takes_the_card(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(_unnamed_card())
    run = [sys.executable, "-m", "regime_core", "trace", "--json", str(path)]
    env = {"PYTHONPATH": str(ROOT / "src")}
    given = subprocess.run([*run, "--gpu", "H100 SXM"], capture_output=True, text=True, env=env, check=False)
    assert given.returncode == 0, given.stderr
    assert json.loads(given.stdout)["regime"] == "compute"
    wrong = subprocess.run([*run, "--gpu", "v99"], capture_output=True, text=True, env=env, check=False)
    assert (wrong.returncode, wrong.stdout) == (2, "")
    assert wrong.stderr.startswith("regime trace: --gpu: unknown GPU 'v99'")


@pytest.mark.parametrize(("gpu", "says"), [
    (5, "expected a card's id from the catalogue"),
    ("x" * 61, "expected a card's id from the catalogue"),
    ("v99", "unknown GPU 'v99'"),
])
def test_the_page_s_card_is_checked_as_the_command_line_s(gpu: object, says: str) -> None:
    answer = json.loads(handle(json.dumps({"op": "trace", "gpu": gpu}), _unnamed_card()))
    assert answer["ok"] is False
    assert says in answer["error"]
    placed = json.loads(handle(json.dumps({"op": "trace", "gpu": "h100-sxm"}), _unnamed_card()))
    assert placed["verdict"]["regime"] == "compute"


def test_diff_reads_both_traces_on_the_card_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_bytes(_unnamed_card())
    after.write_bytes(_unnamed_card())
    assert cli_main(["diff", "--json", "--gpu", "h100-sxm", str(before), str(after)]) == 0
    result = json.loads(capsys.readouterr().out)
    for side in ("before", "after"):
        assert (result[side]["trace"]["card"], result[side]["trace"]["card_given"]) == ("h100-sxm", True)
        assert result[side]["regime"] == "compute"
    digest = tmp_path / "rank0.digest.json"
    assert cli_main(["trace", "--digest", str(before)]) == 0
    digest.write_text(capsys.readouterr().out, encoding="utf-8")
    assert cli_main(["diff", "--gpu", "h100-sxm", str(digest), str(after)]) == 2
    assert "--gpu: " in capsys.readouterr().err


def test_ranks_read_every_trace_on_the_card_given_and_a_digest_keeps_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for rank in (0, 1):
        (tmp_path / f"rank{rank}.json").write_bytes(_unnamed_card())
    assert cli_main(["ranks", "--json", "--jobs", "2", "--gpu", "h100-sxm", str(tmp_path)]) == 0
    merged = json.loads(capsys.readouterr().out)
    assert [r["regime"] for r in merged["ranks"]] == ["compute", "compute"]
    assert cli_main(["trace", "--digest", str(tmp_path / "rank0.json")]) == 0  # on no card: undecided
    (tmp_path / "rank0.json").unlink()
    (tmp_path / "rank0.digest.json").write_text(capsys.readouterr().out, encoding="utf-8")
    assert cli_main(["ranks", "--json", "--jobs", "1", "--gpu", "h100-sxm", str(tmp_path)]) == 0
    merged = json.loads(capsys.readouterr().out)
    assert sorted(r["regime"] or "undecided" for r in merged["ranks"]) == ["compute", "undecided"]
    assert cli_main(["ranks", "--gpu", "v99", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("regime ranks: --gpu: unknown GPU 'v99'")


def test_the_page_reads_a_rank_on_the_card_asked_and_keeps_a_digest_s_own() -> None:
    """The page's ``rank_digest`` takes ``gpu`` as ``regime ranks --gpu`` does; an unknown card is one line."""
    def ask(request: dict[str, str], data: bytes) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(handle(json.dumps(request), data))
        return answer

    on_card = ask({"op": "rank_digest", "gpu": "h100-sxm"}, _unnamed_card())
    assert on_card["ok"], on_card
    assert rank_reading_of(on_card["digest"])["regime"] == "compute"
    own = ask({"op": "rank_digest"}, _unnamed_card())
    assert rank_reading_of(own["digest"])["regime"] is None
    kept = ask({"op": "rank_digest", "gpu": "h100-sxm"}, json.dumps(own["digest"]).encode())
    assert kept["digest"] == own["digest"]  # a digest was read already, on its own card
    unknown = ask({"op": "rank_digest", "gpu": "v99"}, _unnamed_card())
    assert not unknown["ok"], unknown
    assert "unknown GPU 'v99'" in unknown["error"], unknown


def test_ranks_on_a_card_the_catalogue_does_not_hold_are_told_how_to_give_it(tmp_path: Path,
                                                                               capsys: pytest.CaptureFixture[str]) -> None:
    for rank in (0, 1):
        (tmp_path / f"rank{rank}.json").write_bytes(_unnamed_card())
    assert cli_main(["ranks", "--json", "--jobs", "1", str(tmp_path)]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any(n.startswith("2 of 2 ranks name 'AMD Radeon Graphics', which the catalogue does not hold: give the"
                            " card they ran on (--gpu ID") for n in notes), notes
    assert cli_main(["ranks", "--json", "--jobs", "1", "--gpu", "h100-sxm", str(tmp_path)]) == 0
    assert not any("catalogue" in n for n in json.loads(capsys.readouterr().out)["notes"])
