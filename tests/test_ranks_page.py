"""The page's ranks: each rank's file read in the worker into its digest (``rank_digest``), then the digests merged
(``ranks``), to what the command line reads of the same files, for every set: a straggler, a slow link, a rank
stalled on its loader, a balanced job."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from regime_core.bridge.api import OPS, handle
from regime_core.cli.main import main as cli_main
from regime_core.trace.ranks import digest
from test_ranks import _late_steps, job, moving_job
from trace_builder import as_bytes


def _mixed_cards() -> list[dict[str, Any]]:
    traces = job(4)
    traces[3]["deviceProperties"] = [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}]
    return traces


SETS = {
    "straggler": job(4, compute={2: 2700.0}),
    "slow link": job(4, comm_us=6000.0),
    "loader": job(4, loader={1: 900.0}),
    "balanced": job(4),
    "moving imbalance": moving_job(),
    "mixed cards": _mixed_cards(),
}


def _call(request: dict[str, Any], data: bytes | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(handle(json.dumps(request), data))
    return answer


def _page(files: dict[str, bytes]) -> dict[str, Any]:
    """What the page does: each file into its digest, one at a time; then the digests merged."""
    digests, refused = [], []
    for name, raw in files.items():
        answer = _call({"op": "rank_digest"}, raw)
        if answer["ok"]:
            digests.append({"file": name, "digest": answer["digest"]})
        else:
            refused.append({"file": name, "reason": answer["error"]})
    return _call({"op": "ranks", "digests": digests, "refused": refused})


@pytest.mark.parametrize("name", list(SETS))
def test_the_page_and_the_command_line_read_a_set_alike(name: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    files = {f"rank{r}.pt.trace.json.gz": as_bytes(trace, zipped=True) for r, trace in enumerate(SETS[name])}
    for file, raw in files.items():
        (tmp_path / file).write_bytes(raw)
    paths = [str(tmp_path / file) for file in files]
    assert cli_main(["ranks", *paths, "--json", "--jobs", "1"]) == 0
    command = json.loads(capsys.readouterr().out)
    answer = _page({str(tmp_path / file): raw for file, raw in files.items()})
    assert answer["ok"] is True, answer
    assert OPS["ranks"].answer_problems(answer) == []
    assert answer["result"] == command
    assert answer["rows"][0][0].startswith("0")
    assert answer["svg"].startswith("<svg")


def test_the_page_and_the_command_line_merge_1024_digests_alike(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    digests = [{"file": f"rank{r}.digest.json", "digest": digest(reading)}
               for r, (_, reading) in enumerate(_late_steps(1024, 517))]
    for entry in digests:
        (tmp_path / entry["file"]).write_text(json.dumps(entry["digest"]), encoding="utf-8")
    assert cli_main(["ranks", str(tmp_path), "--json", "--jobs", "1"]) == 0
    command = json.loads(capsys.readouterr().out)
    answer = _call({"op": "ranks", "digests": [{**d, "file": str(tmp_path / d["file"])} for d in digests],
                    "refused": []})
    assert answer["ok"] is True, answer
    assert answer["result"]["stragglers"] == command["stragglers"] == [517]
    assert answer["result"]["job"] == command["job"]
    assert [r["rank"] for r in answer["result"]["ranks"]] == [r["rank"] for r in command["ranks"]]


def test_a_digest_is_kept_as_it_is_and_a_file_that_cannot_be_read_is_named() -> None:
    straggler = SETS["straggler"]
    first = _call({"op": "rank_digest"}, as_bytes(straggler[0]))
    assert first["ok"] is True
    assert first["digest"]["format"] == "regime-digest"
    again = _call({"op": "rank_digest"}, json.dumps(first["digest"]).encode())
    assert again["digest"] == first["digest"]  # a digest given is a digest kept
    files = {f"rank{r}.json": as_bytes(t) for r, t in enumerate(straggler)}
    files["notes.json"] = b"{not json"
    files["old.digest.json"] = json.dumps({**first["digest"], "version": 0}).encode()
    answer = _page(files)
    assert answer["result"]["stragglers"] == [2]
    reasons = {r["file"]: r["reason"] for r in answer["result"]["refused"]}
    assert set(reasons) == {"notes.json", "old.digest.json"}
    assert "another version of Regime" in reasons["old.digest.json"]


@pytest.mark.parametrize(("request_", "says"), [
    ({"op": "ranks", "digests": []}, "digests: expected 1 to 4,096 ranks' digests"),
    ({"op": "ranks", "digests": [{"digest": {}}]}, "digests: expected each rank as its file's name and its digest"),
    ({"op": "ranks", "digests": [{"file": "a", "digest": {}}], "refused": "x"}, "refused: expected the files not read"),
    ({"op": "ranks", "digests": [{"file": "a", "digest": {}}]}, "digests: no rank could be read: a: expected"),
    ({"op": "ranks", "digests": [{"file": "a", "digest": {"format": "regime-digest", "version": 1,
                                                          "reading": {"trace": {"steps": 3}}}}]},
     "digests: expected the digests this page made of the ranks' traces, unchanged"),
])
def test_what_the_merge_cannot_read_is_one_line(request_: dict[str, Any], says: str) -> None:
    answer = _call(request_)
    assert answer["ok"] is False
    assert answer["error"].startswith(says)


def test_a_trace_sent_inside_the_request_reads_as_one_sent_beside_it() -> None:
    raw = as_bytes(SETS["balanced"][0])
    inside = _call({"op": "rank_digest", "data": base64.b64encode(raw).decode()})
    assert inside == _call({"op": "rank_digest"}, raw)
