"""A rank's digest is read wherever a trace is: ``regime trace``, ``regime diff`` and the page's "Your trace".

A digest holds the reading (``regime trace --json``) and not the events, so it gives the same verdict, facts,
ops roofline and review comment as the trace it was written from, and no timeline strip; the options that would
read the trace again (``--step``, ``--gpu``) are refused in one line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from regime_core.bridge.api import handle
from regime_core.trace.ranks import digest
from regime_core.trace.reading import read_trace
from trace_builder import as_bytes, gemm_bound, loader_starved


def _regime(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "regime_core", *args], capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("digest")
    trace = folder / "rank0.json"
    trace.write_bytes(as_bytes(gemm_bound()))
    held = folder / "rank0.digest.json"
    held.write_text(json.dumps(digest(read_trace(trace.read_bytes()).to_json())), encoding="utf-8")
    return trace, held


def test_regime_trace_reads_a_digest_to_the_trace_s_own_reading(files: tuple[Path, Path]) -> None:
    trace, held = files
    from_trace, from_digest = _regime("trace", str(trace), "--json"), _regime("trace", str(held), "--json")
    assert from_digest.returncode == 0, from_digest.stderr
    assert json.loads(from_digest.stdout) == json.loads(from_trace.stdout)
    said_trace, said_digest = _regime("trace", str(trace)).stdout, _regime("trace", str(held)).stdout
    assert said_digest.startswith(said_trace.rstrip("\n"))  # the same verdict and facts, word for word ...
    assert said_digest.rstrip().endswith("(read from a digest: the reading it holds, without the trace's events)")
    assert _regime("trace", str(held), "--svg").stdout == _regime("trace", str(trace), "--svg").stdout  # ops roofline


@pytest.mark.parametrize(("option", "field"), [(("--step", "2"), "--step"), (("--gpu", "h100-sxm"), "--gpu")])
def test_a_digest_refuses_what_would_read_the_trace_again(files: tuple[Path, Path], option: tuple[str, str],
                                                          field: str) -> None:
    done = _regime("trace", str(files[1]), *option)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert f"{field}: " in done.stderr
    assert "is a digest: it was read already" in done.stderr


def test_regime_diff_of_a_trace_against_its_own_digest_is_no_change(files: tuple[Path, Path]) -> None:
    done = _regime("diff", str(files[0]), str(files[1]), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["change"]["verdict"] == "no change"


def _page(op: str, data: bytes, **fields: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(handle(json.dumps({"op": op, **fields}), data))
    return answer


def test_the_page_reads_a_digest_as_it_reads_the_trace_without_a_strip() -> None:
    raw = as_bytes(loader_starved())
    trace = _page("trace", raw)
    held = _page("trace", json.dumps(digest(read_trace(raw).to_json())).encode())
    assert held["ok"] is True, held
    for key in ("verdict", "trace", "text", "ops", "roofline", "review"):
        assert held[key] == trace[key], key
    assert trace["svg"].startswith("<svg")
    assert held["svg"] == ""
    assert held["caption"].startswith("A digest keeps a rank's reading, not its events")
    refused = _page("trace", json.dumps(digest(read_trace(raw).to_json())).encode(), step=2)
    assert refused["ok"] is False
    assert "this file is a digest" in refused["error"]
