"""The Mentor page: a class's files dropped in the browser give the report the command line prints, word for word;
the Practice page's record joins it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Page, expect

from test_class_report import RECORD, _class


def _write_class(folder: Path) -> list[str]:
    """The synthetic class of test_class_report (right, wrong in known ways, could-not-tell, refused files) and a
    practice record, as files; their names in the order given."""
    names = []
    for sub in _class():
        (folder / sub.file).write_text("{" if sub.unreadable else json.dumps(sub.data), encoding="utf-8")
        names.append(sub.file)
    (folder / "bo-practice.json").write_text(json.dumps(RECORD), encoding="utf-8")
    (folder / "notes.json").write_text("just some notes", encoding="utf-8")
    return [*names, "bo-practice.json", "notes.json"]


def _cli(folder: Path, names: list[str], *flags: str) -> str:
    run = subprocess.run([sys.executable, "-m", "regime_core", "grade", *names, *flags], cwd=folder,
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_the_page_and_the_command_line_give_the_same_report(page: Page, base_url: str, tmp_path: Path) -> None:
    names = _write_class(tmp_path)
    page.goto(base_url + "mentor/")
    page.locator('.regime-mentor input[type="file"]').set_input_files([str(tmp_path / n) for n in names])
    result = page.locator('.regime-mentor__result[data-state="done"]')
    expect(result).to_be_visible(timeout=90_000)
    rows = result.locator(".regime-mentor__learners tbody tr")
    expect(rows).to_have_count(6)
    expect(rows.nth(1)).to_contain_text("Bo")
    expect(rows.nth(1)).to_contain_text("5 of 7 read right")  # the practice record joined its learner
    expect(result.locator("section h3", has_text="A3")).to_be_visible()
    expect(result).to_contain_text("Regime: Not memory-bound: 3 (Bo, cy, di)")
    refused = result.locator(".regime-mentor__refused li")
    expect(refused).to_have_count(3)
    expect(refused.nth(2)).to_contain_text("notes.json: expected a JSON attempt file (line 1, column 1)")

    with page.expect_download() as md:
        result.locator('[data-action="download-md"]').click()
    assert Path(md.value.path()).read_text(encoding="utf-8") == _cli(tmp_path, names, "--markdown")
    with page.expect_download() as as_csv:
        result.locator('[data-action="download-csv"]').click()
    assert Path(as_csv.value.path()).read_text(encoding="utf-8") == _cli(tmp_path, names, "--csv")


def test_the_practice_page_downloads_a_record_the_report_reads(page: Page, base_url: str) -> None:
    stored = {"tally": RECORD["tally"], "confusion": {}, "traps": RECORD["traps"], "missed": RECORD["missed"],
              "graded": [f"p{n}" for n in range(7)]}
    page.goto(base_url + "practice/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", ["regime-practice", json.dumps(stored)])
    page.reload()
    page.locator('input[name="learner"]').fill("Bo")
    with page.expect_download() as saved:
        page.locator('[data-action="download-record"]').click()
    record = json.loads(Path(saved.value.path()).read_text(encoding="utf-8"))
    assert record["learner"] == "Bo"
    assert record["graded"] == 7
    from regime_core.grading.class_report import Submission, class_report

    report = class_report([Submission("regime-practice.json", record)])
    assert report["learners"][0]["practice"]["right"] == 5
    assert report["practice"]["missed"] == {"a decode step reading its weights": 1, "a matrix–vector product": 1}


def test_files_dropped_on_the_page_are_read_as_chosen_ones(page: Page, base_url: str) -> None:
    page.goto(base_url + "mentor/")
    mentor = page.locator(".regime-mentor")
    files = [{"name": sub.file, "text": json.dumps(sub.data)} for sub in _class()[:3]]
    transfer = page.evaluate_handle("""(files) => {
        const transfer = new DataTransfer();
        for (const f of files) transfer.items.add(new File([f.text], f.name, { type: "application/json" }));
        return transfer;
    }""", files)
    mentor.dispatch_event("dragover", {"dataTransfer": transfer})
    expect(mentor).to_have_class("regime-mentor regime-trace--over")  # the drop area lit while files are over it
    mentor.dispatch_event("drop", {"dataTransfer": transfer})
    expect(mentor).to_have_class("regime-mentor")
    expect(page.locator('.regime-mentor__result[data-state="done"] tbody tr')).to_have_count(3, timeout=90_000)
