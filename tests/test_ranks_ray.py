"""``regime ranks --engine ray``: the ranks read in Ray tasks on a real local Ray instance (2 CPUs, started and shut
down here), and merged to the same JSON, byte for byte, as the local process pool gives."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from regime_core.cli import main as cli
from test_ranks import job
from trace_builder import as_bytes


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def _ranks(tmp_path: Path, capsys: pytest.CaptureFixture[str], *options: str) -> tuple[int, str, str]:
    status = cli.main(["ranks", str(tmp_path / "run"), "--json", *options])
    out = capsys.readouterr()
    return status, out.out, out.err


def _write_job(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    for r, trace in enumerate(job(4, compute={2: 2700.0})):
        (folder / f"rank{r}.pt.trace.json.gz").write_bytes(as_bytes(trace, zipped=True))
    (folder / "broken.json").write_text("{")


def test_ray_and_the_local_pool_give_byte_identical_json(local_ray: None, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    _write_job(tmp_path)
    on_ray = _ranks(tmp_path, capsys, "--engine", "ray")
    pooled = _ranks(tmp_path, capsys, "--engine", "local", "--jobs", "2")
    assert on_ray[0] == pooled[0] == 0, on_ray[2]
    assert on_ray[1] == pooled[1]
    merged = json.loads(on_ray[1])
    assert merged["stragglers"] == [2]
    assert [Path(r["file"]).name for r in merged["refused"]] == ["broken.json"]  # named, the rest read


def test_an_engine_that_is_not_installed_is_one_line_saying_how_to_install_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _write_job(tmp_path)
    monkeypatch.setattr(cli, "entry_points", lambda group: ())
    status, out, err = _ranks(tmp_path, capsys, "--engine", "ray")
    assert (status, out) == (2, "")
    assert err == "regime ranks: --engine: expected Ray's engine installed for --engine ray: pip install" \
                  " 'regime-core[ray]'\n"
    assert _ranks(tmp_path, capsys, "--engine", "dask")[::2] == (2, "regime ranks: --engine: expected local or ray,"
                                                                     " got 'dask'\n")
    assert _ranks(tmp_path, capsys, "--address", "auto")[::2] == (2, "regime ranks: --address: expected --engine ray"
                                                                      " with it: the local engine joins no cluster\n")
