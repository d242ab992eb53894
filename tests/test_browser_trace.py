"""The "Your trace" page: a trace file read in the browser's worker, its verdict beside the learner's reading,
and the same reading as the command line's for every synthetic pattern."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from regime_core.trace.reading import read_trace
from trace_builder import PATTERNS, as_bytes, gemm_bound, picket_fence

READY_MS = 120_000  # Python may be starting on a busy machine


def _load(page: Page, base_url: str, path: Path, guess: str = "") -> None:
    page.goto(base_url + "trace/")
    if guess:
        page.locator('input[name="guess"]').fill(guess)
    page.locator('input[type="file"]').set_input_files(str(path))
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


def test_the_review_comment_carries_the_verdict_and_numbers_not_the_trace(page_as: object, base_url: str,
                                                                          tmp_path: Path) -> None:
    page = page_as(permissions=["clipboard-read", "clipboard-write"])  # type: ignore[operator]
    path = tmp_path / "run.json"
    path.write_bytes(as_bytes(picket_fence()))
    _load(page, base_url, path)
    page.locator('[data-action="copy-review"]').click()
    expect(page.locator(".regime-trace__review .regime-links__status")).to_contain_text("Copied", timeout=READY_MS)
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("This profiler trace (GPU busy 20.0% of a 20 ms window, 2,000 kernels, on h100-sxm)")
    assert "is **overhead / host-bound**." in copied
    assert copied.endswith(f"({base_url}trace/)")
    assert "traceEvents" not in copied


def test_the_ops_table_shows_each_op_placed_by_the_core(page: Page, base_url: str, tmp_path: Path) -> None:
    path = tmp_path / "gemm.json"
    path.write_bytes(as_bytes(gemm_bound(calls=5)))
    _load(page, base_url, path)
    row = page.locator(".regime-trace__ops tbody tr").first
    expect(row).to_contain_text("aten::mm")
    expect(row).to_contain_text("compute-bound")


def test_a_bad_file_is_one_line_and_the_page_keeps_working(page: Page, base_url: str, tmp_path: Path) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text("this is not a trace")
    page.goto(base_url + "trace/")
    page.locator('input[type="file"]').set_input_files(str(bad))
    result = page.locator(".regime-trace__result")
    expect(result).to_have_attribute("data-state", "error", timeout=READY_MS)
    expect(result).to_contain_text("stops being JSON")
    good = tmp_path / "good.json"
    good.write_bytes(as_bytes(picket_fence(100)))
    page.locator('input[type="file"]').set_input_files(str(good))
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
    busy = json.loads(page.evaluate(
        "(data) => window.regimeWidgets.python.call('trace', {data}).then((a) => JSON.stringify(a.trace.busy))",
        base64.b64encode(data).decode()))
    assert busy == pytest.approx(cli["trace"]["busy"], abs=1e-12)
