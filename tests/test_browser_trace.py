"""The "Your trace" page: a trace file read in the browser's worker, its verdict beside the learner's reading,
and the same reading as the command line's for every synthetic pattern."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from regime_core.trace.reading import read_trace
from test_ranks import job
from test_trace_ncu import ncu_details
from trace_builder import PATTERNS, as_bytes, gemm_bound, picket_fence

READY_MS = 120_000  # Python may be starting on a busy machine


def _load(page: Page, base_url: str, path: Path, guess: str = "") -> None:
    page.goto(base_url + "trace/")
    if guess:
        page.locator('.regime-trace input[name="guess"]').fill(guess)
    page.locator('.regime-trace input[type="file"]').set_input_files(str(path))
    expect(page.locator(".regime-trace__result")).to_have_attribute("data-state", "done", timeout=READY_MS)


def test_a_trace_file_reads_to_its_verdict_beside_the_learners_reading(page: Page, base_url: str,
                                                                        tmp_path: Path) -> None:
    path = tmp_path / "run.pt.trace.json.gz"
    path.write_bytes(as_bytes(picket_fence(), zipped=True))
    _load(page, base_url, path, guess="overhead: 8 µs gaps between 2 µs kernels")
    result = page.locator(".regime-trace__result")
    expect(result.locator(".regime-trace__yours")).to_contain_text("overhead: 8 µs gaps between 2 µs kernels")
    expect(result.locator(".regime-trace__theirs")).to_contain_text("overhead / host-bound")
    expect(result).to_contain_text("GPU busy 20.0%")
    assert result.locator("svg.regime-strip rect").count() == 240


def test_a_digest_reads_to_its_trace_s_verdict_and_a_reading_typed_afterwards_is_shown(page: Page, base_url: str,
                                                                                       tmp_path: Path) -> None:
    from regime_core.trace.ranks import digest

    path = tmp_path / "rank0.digest.json"
    path.write_text(json.dumps(digest(read_trace(as_bytes(picket_fence())).to_json())), encoding="utf-8")
    _load(page, base_url, path)
    result = page.locator(".regime-trace__result")
    expect(result.locator(".regime-trace__theirs")).to_contain_text("overhead / host-bound")
    expect(result.locator(".regime-trace__caption")).to_contain_text("A digest keeps a rank's reading, not its events")
    expect(result.locator("svg.regime-strip")).to_have_count(0)
    expect(result.locator(".regime-trace__yours")).to_contain_text("(none written)")
    page.locator('.regime-trace input[name="guess"]').fill("overhead: the gaps")  # typed after the file was read
    expect(result.locator(".regime-trace__yours")).to_contain_text("overhead: the gaps")


def test_the_review_comment_carries_the_verdict_and_numbers_not_the_trace(page_as: object, base_url: str,
                                                                          tmp_path: Path) -> None:
    page = page_as(permissions=["clipboard-read", "clipboard-write"])  # type: ignore[operator]
    path = tmp_path / "run.json"
    path.write_bytes(as_bytes(picket_fence()))
    _load(page, base_url, path)
    page.locator('[data-action="copy-review"]').click()
    expect(page.locator(".regime-trace__review .regime-links__status")).to_contain_text("Copied", timeout=READY_MS)
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("This profiler trace (GPU busy 20.0% of a 20 ms window, 2,000 kernels, on NVIDIA H100 SXM5 80 GB)")
    assert "is **overhead / host-bound**." in copied
    assert copied.endswith(f"[How Regime reads a trace]({base_url}reference/traces/)")  # not an empty form
    assert page.request.get(f"{base_url}reference/traces/").ok
    assert "traceEvents" not in copied


def test_the_ops_table_shows_each_op_placed_by_the_core(page: Page, base_url: str, tmp_path: Path) -> None:
    path = tmp_path / "gemm.json"
    path.write_bytes(as_bytes(gemm_bound(calls=5)))
    _load(page, base_url, path)
    row = page.locator(".regime-trace__ops tbody tr").first
    expect(row).to_contain_text("1. aten::mm")
    assert row.locator("code").inner_html() == "aten::<wbr>mm"  # breaks after '::' and '_' only, never mid-word
    expect(row).to_contain_text("compute-bound")
    # The same op, by the same number, on the card's roofline below the table.
    figure = page.locator("figure.regime-trace__roofline")
    expect(figure.locator("svg.roofline .roofline__point-label")).to_have_text(["1. mm"])
    expect(figure.locator("figcaption")).to_have_text(
        "The top op with shapes, numbered as in the table, at the FLOP/s achieved.")


def test_an_nsight_compute_report_reads_kernel_by_kernel_under_its_own_heads(page: Page, base_url: str,
                                                                              tmp_path: Path) -> None:
    path = tmp_path / "report.csv"
    path.write_bytes(ncu_details([("ampere_sgemm_128x64_nn", 500.0, 88, 30, 2), ("elementwise", 100.0, 8, 90, 1)]))
    _load(page, base_url, path)
    result = page.locator(".regime-trace__result")
    expect(result.locator(".regime-trace__theirs")).to_contain_text("compute-bound")
    expect(result.locator(".regime-trace__ops thead th")).to_have_text(
        ["kernel and launch", "launches", "replayed time", "SM throughput", "memory throughput (DRAM)", "regime"])
    expect(result.locator(".regime-trace__ops tbody tr").nth(1)).to_contain_text("90% (81%)")
    expect(result.locator(".regime-trace__roofline-none")).to_contain_text("No roofline: Nsight Compute gives")
    assert result.locator("svg.regime-strip").count() == 0


def test_without_a_card_the_page_says_why_there_is_no_roofline_and_takes_the_card(page: Page, base_url: str,
                                                                                   tmp_path: Path) -> None:
    trace = gemm_bound(calls=3)
    trace["deviceProperties"] = [{"id": 0, "name": "Some Future Accelerator"}]
    path = tmp_path / "future.json"
    path.write_bytes(as_bytes(trace))
    _load(page, base_url, path)
    expect(page.locator(".regime-trace__roofline-none")).to_have_text(
        "No roofline: the trace does not name a card the catalogue holds; name the card it ran on.")
    assert page.locator("figure.regime-trace__roofline").count() == 0
    expect(page.locator(".regime-trace__theirs")).to_contain_text("'The card it ran on' on the page")
    # the card named in the menu: the same file read again, its ops placed on that card, the card said to be given
    page.locator('.regime-trace select[name="gpu"]').select_option("h100-sxm")
    result = page.locator(".regime-trace__result")
    expect(result).to_contain_text("(as given; the trace names 'Some Future Accelerator')", timeout=READY_MS)
    expect(result.locator(".regime-trace__theirs")).to_contain_text("compute-bound")
    expect(page.locator("figure.regime-trace__roofline")).to_have_count(1)
    assert read_trace(path.read_bytes(), gpu="h100-sxm").verdict.regime == "compute"  # as the command line reads it
    # the math's dtype named: the bf16 GEMMs held to fp8's peak, twice bf16's, read again as the command line reads them
    page.locator('.regime-trace select[name="dtype"]').select_option("fp8")
    expect(result).to_contain_text("the ops' math held to fp8 (as given)", timeout=READY_MS)
    expect(result.locator(".regime-trace__theirs")).to_contain_text("undecided")
    assert read_trace(path.read_bytes(), gpu="h100-sxm", dtype="fp8").verdict.regime is None


def test_a_bad_file_is_one_line_and_the_page_keeps_working(page: Page, base_url: str, tmp_path: Path) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text("this is not a trace")
    page.goto(base_url + "trace/")
    page.locator('.regime-trace input[type="file"]').set_input_files(str(bad))
    result = page.locator(".regime-trace__result")
    expect(result).to_have_attribute("data-state", "error", timeout=READY_MS)
    expect(result).to_contain_text("this file is none of them")  # with what can be read, and how to export it
    good = tmp_path / "good.json"
    good.write_bytes(as_bytes(picket_fence(100)))
    page.locator('.regime-trace input[type="file"]').set_input_files(str(good))
    expect(result).to_have_attribute("data-state", "done", timeout=READY_MS)


def test_nothing_is_uploaded(page: Page, base_url: str, tmp_path: Path) -> None:
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.method) if request.method != "GET" else None)
    path = tmp_path / "run.json"
    path.write_bytes(as_bytes(picket_fence(100)))
    _load(page, base_url, path)
    assert [m for m in sent if m not in ("HEAD",)] == []


@pytest.mark.parametrize("pattern", list(PATTERNS))
def test_the_page_and_the_command_line_agree(page: Page, base_url: str, tmp_path: Path, pattern: str) -> None:
    data = as_bytes(PATTERNS[pattern](), zipped=True)
    path = tmp_path / f"{pattern}.json.gz"
    path.write_bytes(data)
    _load(page, base_url, path)
    cli = read_trace(data).to_json()
    shown = page.locator(".regime-trace__result")
    expect(shown).to_have_attribute("data-regime", cli["regime"] or "undecided")
    # Everything the trace measured, through both ways a page may send a file: its bytes beside the request
    # (what the page does) and base64 text inside it.
    beside = json.loads(page.evaluate(
        "(bytes) => window.regimeWidgets.python.call('trace', {}, new Uint8Array(bytes))"
        ".then((a) => JSON.stringify(a.trace))", list(data)))
    inside = json.loads(page.evaluate(
        "(data) => window.regimeWidgets.python.call('trace', {data}).then((a) => JSON.stringify(a.trace))",
        base64.b64encode(data).decode()))
    assert beside == inside
    # CPython before 3.12 adds floats plainly; Pyodide's 3.14 compensates: the last digits may differ.
    assert _close(beside, json.loads(json.dumps(cli["trace"])))


def _close(got: object, want: object) -> bool:
    """Equal, floats to 12 significant digits, through lists and objects."""
    if isinstance(want, float) and isinstance(got, int | float):
        return got == pytest.approx(want, rel=1e-12, abs=1e-15)
    if isinstance(want, dict) and isinstance(got, dict):
        return got.keys() == want.keys() and all(_close(got[k], want[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(_close(g, w) for g, w in zip(got, want, strict=True))
    return got == want


def test_on_a_phone_each_op_reads_as_labelled_lines_without_scrolling_sideways(page_as: object, base_url: str,
                                                                               tmp_path: Path) -> None:
    page = page_as(viewport={"width": 390, "height": 844})  # type: ignore[operator]
    path = tmp_path / "gemm.json"
    path.write_bytes(as_bytes(gemm_bound(calls=5)))
    _load(page, base_url, path)
    ops = page.locator(".regime-trace__ops")
    expect(ops.locator("thead")).to_be_hidden()
    assert ops.evaluate("(box) => box.scrollWidth <= box.clientWidth")
    cells = ops.locator("tbody tr").first.locator("td")
    assert [cells.nth(n).get_attribute("data-label") for n in range(6)] == [
        "op and shapes", "calls", "GPU time", "intensity", "achieved FLOP/s · bandwidth", "regime"]
    assert cells.nth(5).evaluate("(td) => getComputedStyle(td, '::before').content") == '"regime: "'
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_two_traces_before_and_after_give_the_change_and_its_comment(page_as: object, base_url: str,
                                                                      tmp_path: Path) -> None:
    from test_diff import stepped

    page = page_as(permissions=["clipboard-read", "clipboard-write"])  # type: ignore[operator]
    before, after = tmp_path / "before.json.gz", tmp_path / "after.sqlite"
    before.write_bytes(as_bytes(stepped(loader_us=6000), zipped=True))
    from test_trace_formats import as_nsys_sqlite

    as_nsys_sqlite(stepped(), after)  # the after trace from another profiler: the diff is format-blind
    page.goto(base_url + "trace/")
    widget = page.locator(".regime-trace-diff")
    widget.locator('input[name="guess"]').fill("loader fixed: faster, compute-bound after")
    widget.locator('input[name="before"]').set_input_files(str(before))
    result = widget.locator(".regime-trace-diff__result")
    expect(result).to_have_attribute("data-state", "waiting", timeout=READY_MS)
    widget.locator('input[name="after"]').set_input_files(str(after))
    expect(result).to_have_attribute("data-state", "done", timeout=READY_MS)
    expect(result.locator(".regime-trace-diff__verdict")).to_have_text(
        "faster: overhead / host-bound → undecided")  # the nsys export has no shapes to place the GEMMs with
    expect(result.locator(".regime-trace__yours")).to_contain_text("loader fixed: faster, compute-bound after")
    widget.locator('input[name="guess"]').fill("on second thought: faster, still host-bound")  # typed after: kept
    expect(result.locator(".regime-trace__yours")).to_contain_text("on second thought: faster, still host-bound")
    expect(result.locator("tbody tr").first).to_contain_text("step time (median)")
    expect(result.locator("figure.regime-trace-diff__strip")).to_have_count(2)  # each trace's strip
    widths = [result.locator("figure.regime-trace-diff__strip svg").nth(n).bounding_box()["width"] for n in (0, 1)]
    windows = [read_trace(as_bytes(stepped(loader_us=6000))).to_json()["trace"]["window"],
               read_trace(as_bytes(stepped())).to_json()["trace"]["window"]]
    assert widths[1] / widths[0] == pytest.approx(windows[1] / windows[0], rel=0.02)  # one time scale for both
    expect(result.locator('[aria-label="The ops that moved most"] tbody tr').first).to_contain_text("aten::mm")
    expect(result.locator("figure.regime-trace-diff__strip figcaption").first).to_contain_text("Before:")
    expect(result).to_contain_text("What moved: idle waiting on the data loader")
    result.locator('[data-action="copy-diff"]').click()
    expect(result.locator(".regime-links__status")).to_contain_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("### Regime: faster")
    assert "| step time (median) |" in copied


def test_before_and_after_read_again_on_the_card_chosen(page: Page, base_url: str, tmp_path: Path) -> None:
    trace = gemm_bound(calls=3)
    trace["deviceProperties"] = [{"id": 0, "name": "Some Future Accelerator"}]
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_bytes(as_bytes(trace))
    after.write_bytes(as_bytes(trace))
    page.goto(base_url + "trace/")
    widget = page.locator(".regime-trace-diff")
    widget.locator('input[name="before"]').set_input_files(str(before))
    widget.locator('input[name="after"]').set_input_files(str(after))
    result = widget.locator(".regime-trace-diff__result")
    expect(result.locator(".regime-trace-diff__verdict")).to_contain_text("undecided → undecided", timeout=READY_MS)
    widget.locator('select[name="gpu"]').select_option("h100-sxm")
    expect(result.locator(".regime-trace-diff__verdict")).to_contain_text("compute-bound → compute-bound",
                                                                         timeout=READY_MS)


def test_every_rank_read_again_on_the_card_chosen(page: Page, base_url: str, tmp_path: Path) -> None:
    trace = gemm_bound(calls=3)
    trace["deviceProperties"] = [{"id": 0, "name": "Some Future Accelerator"}]
    paths = []
    for rank in (0, 1):
        trace["distributedInfo"] = {"backend": "nccl", "rank": rank, "world_size": 2}
        paths.append(tmp_path / f"rank{rank}.json")
        paths[-1].write_bytes(as_bytes(trace))
    page.goto(base_url + "trace/")
    widget = page.locator(".regime-trace-ranks")
    widget.locator('input[name="ranks"]').set_input_files([str(p) for p in paths])
    result = widget.locator(".regime-trace-ranks__result")
    expect(result).to_have_attribute("data-state", "done", timeout=READY_MS)
    expect(result.locator("tbody tr td:last-child")).to_have_text(["undecided", "undecided"])
    widget.locator('select[name="gpu"]').select_option("h100-sxm")
    expect(result.locator("tbody tr td:last-child")).to_have_text(["compute-bound", "compute-bound"], timeout=READY_MS)


def test_every_rank_read_in_turn_names_the_straggler_and_the_file_it_could_not_read(page: Page, base_url: str,
                                                                                    tmp_path: Path) -> None:
    paths = []
    for r, trace in enumerate(job(4, compute={2: 2700.0})):
        path = tmp_path / f"rank{r}.pt.trace.json.gz"
        path.write_bytes(as_bytes(trace, zipped=True))
        paths.append(str(path))
    broken = tmp_path / "notes.json"
    broken.write_text("{")
    page.goto(base_url + "trace/")
    widget = page.locator(".regime-trace-ranks")
    widget.locator('input[name="ranks"]').set_input_files([*reversed(paths), str(broken)])
    result = widget.locator(".regime-trace-ranks__result")
    expect(result).to_have_attribute("data-state", "done", timeout=READY_MS)
    expect(result).to_have_attribute("data-verdict", "straggler")
    expect(result.locator(".regime-trace-ranks__verdict")).to_contain_text("Rank 2 is a straggler")
    expect(result.locator("tbody tr")).to_have_count(4)
    expect(result.locator("tbody th").first).to_have_text("0")  # in rank order, whatever order they were chosen in
    expect(result.locator("svg.regime-ranks")).to_have_count(1)
    expect(result.locator(".regime-trace-ranks__refused")).to_contain_text("Not read: notes.json")
