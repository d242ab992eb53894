"""`regime ranks`: a distributed run's traces, one per rank, read together; stragglers told from a slow link.

Each set is written here, rank by rank, as torch.profiler writes a rank's trace (``distributedInfo``, steps, an
all-reduce after each step's compute that ends on every rank at once, as a collective does): a straggler, a slow
link, a rank stalled on its loader, and a balanced job.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from regime_core.catalogue.levers import advice
from regime_core.errors import RegimeError
from regime_core.trace.ranks import digest, merge, reading_of
from regime_core.trace.reading import read_trace
from trace_builder import Trace, as_bytes


def job(world: int = 4, steps: int = 6, *, compute: dict[int, float] | None = None, loader: dict[int, float] | None = None,
        comm_us: float = 300.0, base_us: float = 2000.0) -> list[dict[str, Any]]:
    """``world`` ranks' traces: each step, rank r waits ``loader[r]`` µs on its loader, computes ``compute[r]`` µs
    (default ``base_us``), then all-reduces until every rank has arrived and ``comm_us`` more have passed."""
    compute, loader = compute or {}, loader or {}
    arrive = [loader.get(r, 0.0) + compute.get(r, base_us) for r in range(world)]
    step = max(arrive) + comm_us + 10
    traces = []
    for r in range(world):
        t = Trace()
        for n in range(steps):
            start = 100 + n * step
            t.host(start, step - 5, f"ProfilerStep#{n}", "user_annotation")
            if loader.get(r):
                t.host(start, loader[r], "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation")
            t.kernel(start + loader.get(r, 0.0), compute.get(r, base_us), "ampere_sgemm_128x64_nn")
            begin = start + arrive[r]
            t.kernel(begin, max(arrive) + comm_us - arrive[r],
                     "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", stream=20)
        document = t.document()
        document["distributedInfo"] = {"backend": "nccl", "rank": r, "world_size": world}
        traces.append(document)
    return traces


def _merge(traces: list[dict[str, Any]]) -> dict[str, Any]:
    return merge((f"rank{r}.json", read_trace(as_bytes(t)).to_json()) for r, t in enumerate(traces))


def test_a_straggler_is_named_and_the_network_is_not_blamed() -> None:
    straggling = job(8, compute={5: 1300.0}, base_us=1000.0, comm_us=800.0)  # rank 5 computes 30% longer
    result = _merge(straggling)
    assert result["stragglers"] == [5]
    assert result["job"]["verdict"] == "straggler"
    text = result["job"]["text"]
    assert text.startswith("Rank 5 is a straggler: it reaches the collectives 30% later")
    assert "waiting for it, not a slow network" in text
    assert "it computes longer (1.3 ms a step against 1 ms for the median rank)" in text
    others = [r for r in result["ranks"] if r["rank"] != 5]
    assert all(r["comm_share"] > 0.5 for r in others)
    # Read alone, each other rank's trace looks communication-bound: only the merge tells who they wait for.
    assert all(r["regime"] == "communication" for r in others)


def test_a_slow_link_reads_communication_for_the_job() -> None:
    result = _merge(job(4, comm_us=4000.0))
    assert result["stragglers"] == []
    assert result["job"]["verdict"] == "communication"
    assert "slow for all" in result["job"]["text"]


def test_a_rank_stalled_on_its_loader_is_the_straggler_with_its_own_regime() -> None:
    result = _merge(job(4, loader={2: 3000.0}))
    assert result["stragglers"] == [2]
    assert "waits on its data loader" in result["job"]["text"]
    stalled = next(r for r in result["ranks"] if r["rank"] == 2)
    assert stalled["regime"] == "overhead"
    assert result["job"]["regime"] == "overhead"


def test_a_balanced_job_reads_as_its_ranks_read() -> None:
    result = _merge(job(4, comm_us=50.0))
    assert result["stragglers"] == []
    assert {r["regime"] for r in result["ranks"]} == {None}  # a kernel without an op's shapes is not placed
    assert result["job"] == {"verdict": "undecided", "regime": None, "regime_name": "undecided",
                             "text": "No rank is late and the collectives do not hold the step: 4 of 4 ranks read"
                                     " undecided.",
                             "evidence": ["4 ranks read; exposed collectives 2%–2% of a rank's window"],
                             "lever": "", "waste": "",
                             "needs": "read each rank on its own (regime trace FILE): no regime holds most ranks, and"
                                      " no rank is late", "waiting": []}


def test_the_job_verdict_has_the_classifier_s_keys_and_lists_the_ranks_that_wait() -> None:
    result = _merge(job(8, compute={5: 1300.0}, base_us=1000.0, comm_us=800.0))
    late = result["job"]
    assert late["regime_name"] == next(r["regime_name"] for r in result["ranks"] if r["rank"] == 5)  # its own
    assert late["evidence"][1].startswith("rank 5 reaches the collectives 30% later than the median rank")
    assert late["lever"].startswith("fix rank 5 first: ")
    assert late["waste"].startswith("a faster interconnect")
    assert late["waiting"] == [0, 1, 2, 3, 4, 6, 7]  # every rank but the straggler waits for it
    slow_link = _merge(job(4, comm_us=4000.0))["job"]
    assert slow_link["regime"] == "communication"
    assert slow_link["waiting"] == [0, 1, 2, 3]
    assert slow_link["lever"] == advice("communication").helps
    assert slow_link["waste"] == advice("communication").wastes
    assert slow_link["needs"] == ""


def test_the_set_says_missing_ranks_duplicates_and_sizes_first() -> None:
    traces = job(4, compute={1: 2700.0})
    readings = [(f"r{r}.json", read_trace(as_bytes(t)).to_json()) for r, t in enumerate(traces)]
    result = merge([readings[0], readings[1], readings[1], readings[3]], [("r9.json", "not JSON")])
    assert "1 of 4 ranks missing: 2" in result["notes"]
    assert [r["file"] for r in result["refused"]] == ["r9.json", "r1.json"]
    assert "rank 1 again" in result["refused"][1]["reason"]
    other = json.loads(json.dumps(readings[3][1]))
    other["trace"]["world_size"] = 8
    assert "disagree on the job's size" in merge([readings[0], ("r3.json", other)])["notes"][0]


def test_a_digest_is_small_holds_the_reading_and_says_another_version() -> None:
    reading = read_trace(as_bytes(job(2, steps=50)[0])).to_json()
    document = digest(reading)
    assert len(json.dumps(document)) < 16_000
    assert reading_of(json.loads(json.dumps(document))) == json.loads(json.dumps(reading))
    with pytest.raises(RegimeError, match="another version"):
        reading_of({**document, "version": 99})


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "regime_core", *args], capture_output=True, text=True, timeout=180,
                          check=False, cwd=cwd)


def test_the_command_reads_a_folder_in_parallel_and_a_digest_alike(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    for r, trace in enumerate(job(4, compute={3: 2700.0})):
        (folder / f"rank{r}.pt.trace.json.gz").write_bytes(as_bytes(trace, zipped=True))
    (folder / "notes.txt").write_text("not a trace")
    (folder / "broken.json").write_text("{")
    digested = _cli("trace", str(folder / "rank3.pt.trace.json.gz"), "--digest", cwd=tmp_path)
    assert digested.returncode == 0, digested.stderr
    (tmp_path / "rank3.digest.json").write_text(digested.stdout)
    one = _cli("ranks", str(folder), "--jobs", "1", "--json", cwd=tmp_path)
    two = _cli("ranks", str(folder), "--jobs", "2", "--json", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout  # the pool changes nothing but the time
    out = json.loads(one.stdout)
    assert out["stragglers"] == [3]
    assert [Path(r["file"]).name for r in out["refused"]] == ["broken.json"]
    mixed = [str(folder / f"rank{r}.pt.trace.json.gz") for r in range(3)] + ["rank3.digest.json"]
    with_digest = json.loads(_cli("ranks", *mixed, "--json", cwd=tmp_path).stdout)
    assert with_digest["stragglers"] == [3]  # a digest reads as its trace does
    text = _cli("ranks", str(folder), "--markdown", cwd=tmp_path).stdout
    assert text.startswith("### Regime across 4 ranks: straggler")
    assert "| 3 (straggler) |" in text
    empty = tmp_path / "empty"
    empty.mkdir()
    none = _cli("ranks", str(empty), cwd=tmp_path)
    assert none.returncode == 2
    assert none.stderr.count("\n") == 1


HTA = Path(__file__).resolve().parents[2] / "shared" / "traces" / "hta"


@pytest.mark.skipif(not HTA.is_dir(), reason="the shared HTA traces are not placed here")
def test_two_sampled_ranks_of_a_real_128_rank_job() -> None:
    result = merge((name, read_trace((HTA / name).read_bytes()).to_json())
                   for name in ("trace_filter_sampled_rank-0.json.gz", "trace_filter_sampled_rank-1.json.gz"))
    assert [r["rank"] for r in result["ranks"]] == [0, 1]
    assert result["notes"][0].startswith("126 of 128 ranks missing: 2, 3, 4")
    from test_trace import _independent_busy

    for row in result["ranks"]:  # each rank's busy share, as a sweep over its own raw events counts it
        name = f"trace_filter_sampled_rank-{row['rank']}.json.gz"
        assert row["busy"] == pytest.approx(_independent_busy(HTA / name), abs=0.01)
    assert result["stragglers"] == []  # two ranks cannot say which is the odd one


def _late_steps(world: int, late_rank: int) -> list[tuple[str, dict[str, Any]]]:
    """``world`` ranks' readings, one rank's steps 40% longer (written from one trace: a picture needs no more)."""
    base = read_trace(as_bytes(job(2, steps=6)[0])).to_json()
    out = []
    for rank in range(world):
        one = json.loads(json.dumps(base))
        one["trace"].update(rank=rank, world_size=world)
        if rank == late_rank:
            one["trace"]["window"] *= 1.4
            for step in one["trace"]["steps"]:
                step["time"] *= 1.4
        out.append((f"rank{rank}", one))
    return out


@pytest.mark.parametrize(("world", "late", "rows"), [(8, 5, 8), (1024, 517, 64)])
def test_the_picture_shows_every_rank_or_gathers_them_and_labels_the_straggler(world: int, late: int,
                                                                              rows: int) -> None:
    from regime_core.trace.ranks import picture

    result = merge(_late_steps(world, late))
    assert result["stragglers"] == [late]
    assert "with the same compute (2 ms): the time is outside its kernels" in result["job"]["text"]  # late, not slower
    drawn = picture(result)
    assert drawn.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="regime-ranks"')
    assert drawn.count('<rect x="') == rows * 6  # one row a rank, or 64 rows of 16 ranks; six steps
    # beside each row, its step split into compute, exposed collectives and idle: the parts fill the bar's width
    split = re.findall(r'<rect class="regime-strip__(busy|comm|idle)" x="[\d.]+" y="([\d.]+)" width="([\d.]+)"', drawn)
    assert {y for _, y, _ in split} == set(re.findall(r'<rect x="[\d.]+" y="([\d.]+)"', drawn))
    for y in {y for _, y, _ in split}:
        assert sum(float(w) for _, at, w in split if at == y) == pytest.approx(60.0, abs=0.2)
    assert ">a step, split</text>" in drawn
    # named, never averaged away, in the left margin beside its row (a phone scrolls the picture sideways)
    label = re.search(rf'<text x="([\d.]+)"[^>]*>late: rank {late}</text>', drawn)
    assert label is not None
    assert float(label[1]) < min(float(x) for x in re.findall(r'<rect x="([\d.]+)"', drawn))
    opacities = [float(o) for o in re.findall(r'fill-opacity="([\d.]+)"', drawn)]
    assert opacities.count(max(opacities)) == 6  # only the straggler's row (or its group's), every step
    darkest_rows = {y for y, o in re.findall(r'y="([\d.]+)"[^>]*fill-opacity="([\d.]+)"', drawn)
                    if float(o) == max(opacities)}
    assert len(darkest_rows) == 1
    assert f"stragglers: {late}" in drawn


def moving_job(world: int = 8, steps: int = 8, *, extra_us: float = 600.0, base_us: float = 1000.0,
               comm_us: float = 300.0, slow: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """``world`` ranks where each step one rank (``slow[n]``; by default a different one each step, rank (3n + 1) mod
    world) computes ``extra_us`` longer, then all ranks all-reduce until the slowest has arrived and ``comm_us`` more."""
    slow = slow or {n: (3 * n + 1) % world for n in range(steps)}
    traces = [Trace() for _ in range(world)]
    start = 100.0
    for n in range(steps):
        compute = [base_us + (extra_us if slow[n] == r else 0.0) for r in range(world)]
        step = max(compute) + comm_us + 10
        for r, t in enumerate(traces):
            t.host(start, step - 5, f"ProfilerStep#{n}", "user_annotation")
            t.kernel(start, compute[r], "ampere_sgemm_128x64_nn")
            t.kernel(start + compute[r], max(compute) + comm_us - compute[r],
                     "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", stream=20)
        start += step
    documents = []
    for r, t in enumerate(traces):
        document = t.document()
        document["distributedInfo"] = {"backend": "nccl", "rank": r, "world_size": world}
        documents.append(document)
    return documents


def test_imbalance_that_moves_between_ranks_is_not_read_as_a_slow_network() -> None:
    result = _merge(moving_job())
    # Averaged, no rank is late and every rank waits in collectives: without each step's work it read as a slow link.
    assert result["stragglers"] == []
    assert all(r["comm_share"] >= 0.3 for r in result["ranks"])
    assert result["job"]["verdict"] == "imbalance", result["job"]
    assert result["job"]["regime"] is None
    assert result["job"]["late_ranks"] == [1, 4, 7, 2, 5, 0, 3, 6]
    assert "a different rank from step to step" in result["job"]["text"]
    assert "up to 60% after the median" in result["job"]["text"]
    # The picture draws each step's work before the collectives: one dark cell a step, a different row each step.
    from regime_core.trace.ranks import picture

    drawn = picture(result)
    assert "Work before the collectives by rank" in drawn
    dark = [(x, y) for x, y, o in re.findall(r'<rect x="([\d.]+)" y="([\d.]+)"[^>]*fill-opacity="([\d.]+)"', drawn)
            if float(o) == 1.0]
    assert len(dark) == 8
    assert len({x for x, _ in dark}) == 8
    assert len({y for _, y in dark}) == 8
    # Each step's exposed collectives are in the reading: the slow rank's is short, the others' long.
    first = next(r for r in result["ranks"] if r["rank"] == 1)
    assert first["step_work"][0] == pytest.approx(1600e-6, rel=0.02)
    assert next(r for r in result["ranks"] if r["rank"] == 0)["step_work"][0] == pytest.approx(1000e-6, rel=0.02)


def test_the_same_rank_late_every_step_stays_a_straggler_and_a_slow_link_stays_communication() -> None:
    # The moving check runs only where no straggler is found, and needs a different rank late from step to step.
    assert _merge(job(8, compute={5: 1300.0}, base_us=1000.0, comm_us=800.0))["job"]["verdict"] == "straggler"
    assert _merge(job(4, comm_us=4000.0))["job"]["verdict"] == "communication"
    assert _merge(moving_job(extra_us=50.0))["job"]["verdict"] != "imbalance"  # 5% late: within the spread
    # One rank the slowest in five of eight steps (15% late, under a straggler on average): not work that moves.
    mostly = {n: 2 if n < 5 else 6 for n in range(8)}
    result = _merge(moving_job(extra_us=150.0, slow=mostly))
    assert result["stragglers"] == []
    assert result["job"]["verdict"] != "imbalance", result["job"]


def test_each_step_s_exposed_collectives_leave_out_what_other_work_overlaps() -> None:
    t = Trace()
    t.host(100, 2000, "ProfilerStep#0", "user_annotation")
    t.kernel(100, 1000, "ampere_sgemm_128x64_nn")
    t.kernel(600, 1000, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", stream=20)
    steps = read_trace(as_bytes(t.document())).to_json()["trace"]["steps"]
    assert steps[0]["collectives"] == pytest.approx(500e-6, rel=0.01)  # 1000 µs of all-reduce, 500 µs under the GEMM


def test_a_large_job_shows_its_stragglers_and_its_outliers_not_every_rank() -> None:
    """A page or a pull-request comment of 1,024 rows is no reading: the stragglers, then the ranks furthest out."""
    from regime_core.trace.ranks import SHOWN_ROWS, markdown, shown_rows

    def rank(n: int, work: float) -> dict[str, Any]:
        return {"rank": n, "work": work, "step_time": 3e-3, "compute_time": work, "comm_share": 0.3,
                "loader_share": 0.0, "regime_name": "undecided"}

    # a straggler, twenty ranks further from the median than it (quick ones), and one nearer
    works = {700: 2.7e-3, 5: 1.5e-3, **{n: 1.0e-3 + n * 1e-9 for n in range(100, 120)}}
    result = {"ranks": [rank(n, works.get(n, 2e-3)) for n in range(1024)], "stragglers": [700],
              "job": {"verdict": "straggler", "text": "Rank 700 is a straggler."}, "notes": [], "refused": []}
    rows, shown = shown_rows(result)
    assert len(rows) == SHOWN_ROWS
    names = [row[0] for row in rows]
    numbers = [int(name.split()[0]) for name in names]
    assert numbers == sorted(numbers)  # in rank order
    assert names == ["100", "101", "102", "103", "104", "105", "106", "107", "108", "109", "110", "111", "112", "113",
                     "114", "700 (straggler)"]  # the straggler first, then the furthest out
    assert shown.startswith("16 of 1,024 ranks shown: the stragglers, then those whose work before the collectives")
    assert "the other 1,008 are within 1 ms of it" in shown  # ranks 115 to 119, at 1 ms against the median 2 ms
    assert markdown(result).count("\n| ") == SHOWN_ROWS + 2  # the head, its separator, and the rows shown
    alike = {**result, "ranks": [rank(n, 2.7e-3 if n == 700 else 2e-3) for n in range(1024)]}
    assert shown_rows(alike)[1].endswith("the other 1,008 are at it. regime ranks --json gives every rank")
    small = {**result, "ranks": result["ranks"][:8], "stragglers": []}
    assert shown_rows(small)[1] == ""
    assert len(shown_rows(small)[0]) == 8


def test_ranks_on_different_cards_are_said_first_with_how_many_each() -> None:
    traces = job(4)
    traces[3]["deviceProperties"] = [{"id": 0, "name": "NVIDIA A100-SXM4-80GB"}]
    notes = _merge(traces)["notes"]
    assert "the ranks ran on different GPUs (NVIDIA H100 SXM5 80 GB: 3, NVIDIA A100 SXM4 80 GB: 1)" in notes
    assert not any("different GPUs" in note for note in _merge(job(4))["notes"])
