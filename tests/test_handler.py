"""The on_trace_ready handler, with a fake profiler object: it writes the rank's trace and a digest that merges."""

from __future__ import annotations

import json
from pathlib import Path

from regime_core.trace.handler import on_trace_ready
from regime_core.trace.ranks import merge, reading_of
from test_ranks import job


class FakeProfiler:
    """What the handler uses of ``torch.profiler.profile``: ``step_num`` and ``export_chrome_trace``."""

    def __init__(self, trace: dict[str, object], step: int) -> None:
        self.trace, self.step_num = trace, step

    def export_chrome_trace(self, path: str) -> None:
        Path(path).write_text(json.dumps(self.trace), encoding="utf-8")


def test_each_rank_writes_its_trace_and_a_digest_that_merges(tmp_path: Path) -> None:
    traces = job(4, compute={2: 2700.0})
    digests = [on_trace_ready(str(tmp_path / "prof"), prefix=f"node{r}")(FakeProfiler(t, 5))
               for r, t in enumerate(traces)]
    assert [Path(d).name for d in digests] == [f"node{r}.step5.digest.json" for r in range(4)]
    assert (tmp_path / "prof" / "node0.step5.pt.trace.json").is_file()  # the trace stays where it was written
    readings = [reading_of(json.loads(Path(d).read_text(encoding="utf-8"))) for d in digests]
    assert [r["trace"]["rank"] for r in readings] == [0, 1, 2, 3]
    assert merge((d, r) for d, r in zip(digests, readings, strict=True))["stragglers"] == [2]


def test_the_default_name_keeps_processes_apart(tmp_path: Path) -> None:
    written = on_trace_ready(str(tmp_path))(FakeProfiler(job(2)[0], 0))
    assert Path(written).name.endswith(".step0.digest.json")
    assert Path(written).stat().st_size < 16_000
