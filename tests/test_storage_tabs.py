"""Nothing lost, nothing wedged: two tabs keep each other's work, an item another version saved is set
aside (kept, not graded), what is typed survives a reload, and a start-up that hangs ends in one line
with Retry."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, Route, expect

from conftest import PageLog, WarmContext, _watch, open_page, until
from regime_core.practice.generate import GENERATOR_VERSION

DRILL = "regime-drill"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _attempt(page: Page, item: str, regime: str, evidence: str = "") -> None:
    form = page.locator(f'[data-item="{item}"] form.regime-attempt')
    form.locator(f'input[value="{regime}"]').check()
    if evidence:
        form.locator('textarea[name="evidence"]').fill(evidence)
    form.locator('button[type="submit"]').click()
    expect(page.locator(f'[data-regime-answer="{item}"]')).to_be_visible()


def _stored(page: Page) -> dict:
    return json.loads(page.evaluate(f"localStorage.getItem('{DRILL}')"))


def _second_tab(warm_context: WarmContext, log: PageLog) -> Page:
    other = warm_context.new_page()
    _watch(other, log)
    return other


def test_two_tabs_keep_each_others_attempts(page: Page, warm_context: WarmContext, base_url: str,
                                            page_log: PageLog) -> None:
    page.goto(base_url + "drill/")
    other = _second_tab(warm_context, page_log)
    other.goto(base_url + "drill/")
    expect(other.locator(".regime-progress__count")).to_contain_text("0 of")
    _attempt(page, "a1", "compute", "70% of peak FLOP/s")
    _attempt(other, "a2", "memory", "1.7 of 2.0 TB/s")
    # The tab that saved last read the first tab's attempt before writing its own; the first tab's copy of
    # local storage learns of that write a moment later (Chromium tells each tab in turn).
    assert _stored(other)["items"].keys() == {"a1", "a2"}
    until(page, f"Object.keys(JSON.parse(localStorage.getItem('{DRILL}')).items).sort().join() === 'a1,a2'")
    for tab in (page, other):  # each tab shows both, without a reload
        expect(tab.locator('[data-regime-answer="a1"]')).to_be_visible()
        expect(tab.locator('[data-regime-answer="a2"]')).to_be_visible()
        expect(tab.locator(".regime-progress__count")).to_contain_text("A1, A2")
        expect(tab.locator(".md-sidebar--secondary a.md-nav__link[data-regime-mark]")).to_have_count(2)
    expect(page.locator('[data-item="a2"] textarea[name="evidence"]')).to_have_value("1.7 of 2.0 TB/s")
    page.reload()
    expect(page.locator('[data-regime-answer="a1"]')).to_be_visible()
    expect(page.locator('[data-regime-answer="a2"]')).to_be_visible()
    other.close()


def test_undo_of_a_start_over_keeps_the_other_tabs_later_work(page: Page, warm_context: WarmContext, base_url: str,
                                                              page_log: PageLog) -> None:
    page.goto(base_url + "drill/")
    other = _second_tab(warm_context, page_log)
    other.goto(base_url + "drill/")
    _attempt(page, "a1", "compute")
    _attempt(page, "a2", "memory")
    page.locator('[data-action="reset-all"]').click()
    page.locator('[data-action="confirm-reset"]').click()
    expect(other.locator('[data-regime-answer="a1"]')).to_be_hidden()  # the other tab follows the start-over
    _attempt(other, "a3", "overhead")  # saved in the other tab after the start-over
    expect(page.locator('[data-regime-answer="a3"]')).to_be_visible()
    page.locator('[data-action="undo-reset"]').click()
    expect(page.locator(".regime-progress [role=status]")).to_contain_text("Restored 2 attempts: A1, A2")
    assert _stored(page)["items"].keys() == {"a1", "a2", "a3"}
    for tab in (page, other):
        expect(tab.locator(".regime-progress__count")).to_contain_text("A1, A2, A3")
        expect(tab.locator(".md-sidebar--secondary a.md-nav__link[data-regime-mark]")).to_have_count(3)
    other.close()


def test_every_undo_outlives_a_reload(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    _attempt(page, "a1", "compute")
    _attempt(page, "a2", "memory")
    progress = page.locator(".regime-progress")
    before = _stored(page)
    # The whole drill's Start over asks first; keeping changes nothing.
    progress.locator('[data-action="reset-all"]').click()
    expect(progress.locator('[role="status"]')).to_contain_text("Clear your 2 saved attempts (A1, A2)")
    progress.locator('[data-action="cancel-reset"]').click()
    expect(progress.locator('[role="status"]')).to_have_text("Nothing was cleared.")
    assert _stored(page) == before
    progress.locator('[data-action="reset-all"]').click()
    progress.locator('[data-action="confirm-reset"]').click()
    expect(page.locator('[data-regime-answer="a1"]')).to_be_hidden()
    page.reload()
    expect(progress.locator('[role="status"]')).to_contain_text("Cleared 2 attempts (A1, A2)")
    progress.locator('[data-action="undo-reset"]').click()
    expect(progress.locator('[role="status"]')).to_have_text("Restored 2 attempts: A1, A2.")
    assert _stored(page) == before  # exactly as it was, and no undo record left behind
    # One incident's Start over.
    a1 = page.locator('[data-item="a1"]')
    a1.locator('[data-action="reset"]').click()
    expect(page.locator('[data-regime-answer="a1"]')).to_be_hidden()
    page.reload()
    a1.locator('.regime-feedback [data-action="undo-reset"]').click()
    expect(page.locator('[data-regime-answer="a1"]')).to_be_visible()
    expect(a1.locator(".regime-feedback")).to_have_text("Put back as it was.")
    assert _stored(page) == before
    # An import.
    acceptance = page.locator(".regime-acceptance")
    acceptance.locator('input[type="file"]').set_input_files(str(EXAMPLES / "attempt-passing.json"))
    acceptance.locator('[data-action="confirm-import"]').click()
    expect(page.locator('[data-regime-answer="a8"]')).to_be_visible()
    # The file says "memory-bound decode" in words: the form shows it as its choice.
    expect(page.locator('[data-item="a4"] input[value="memory"]')).to_be_checked()
    page.reload()
    acceptance.locator('[data-action="undo-import"]').click()
    expect(acceptance.locator(".regime-acceptance__status")).to_contain_text("your 2 saved attempts are back")
    expect(page.locator('[data-regime-answer="a8"]')).to_be_hidden()
    assert _stored(page) == before


#: The "Tried" column of the practice tally, summed.
TRIED_SHOWN = ("[...document.querySelectorAll('.regime-practice__tally tbody tr td:nth-child(3)')]"
               ".reduce((n, td) => n + Number(td.textContent), 0)")


def _practice_tried(page: Page) -> int:
    record = json.loads(page.evaluate("localStorage.getItem('regime-practice')") or "{}")
    return sum(row["tried"] for row in record.get("tally", {}).values())


def test_two_practice_tabs_count_both_incidents(page: Page, warm_context: WarmContext, base_url: str,
                                                page_log: PageLog) -> None:
    page.goto(base_url + f"practice/?seed=4&level=1&v={GENERATOR_VERSION}")
    other = _second_tab(warm_context, page_log)
    other.goto(base_url + f"practice/?seed=12&level=1&v={GENERATOR_VERSION}")
    for tab in (page, other):
        expect(tab.locator(".regime-practice__id")).to_contain_text("Incident")
        form = tab.locator("form.regime-practice__attempt")
        form.locator('input[name="regime"][value="memory-bound"]').check()
        form.locator('button[type="submit"]').click()
        expect(tab.locator(".regime-practice__verdict")).to_be_visible()
    # The tab that counted last holds both counts (it read the first tab's before writing its own); the
    # first tab learns of the write a moment later (Chromium tells each tab's copy of local storage in
    # turn), then shows the second tab's incident too, without a reload.
    assert _practice_tried(other) == 2
    until(page, TRIED_SHOWN + " === 2")
    assert _practice_tried(page) == 2
    other.close()


#: Items this version cannot read, beside a readable one.
OTHER_VERSION = {
    "a1": {"attempt": {"regime": "compute-bound", "evidence": "70% of peak FLOP/s"}, "unlocked": True, "at": ""},
    "a9": {"attempt": {"regime": "memory"}, "unlocked": True, "at": ""},
    "a2": {"attempt": {"regime": 5}, "unlocked": True, "at": ""},
    "a3": {"attempt": {"regime": "overhead", "confidence": "high"}, "unlocked": True, "at": ""},
    "a5": {"attempt": {"regime": "compute", "evidence": "x" * 10_001}, "unlocked": True, "at": ""},
}


def _seed(page: Page, items: dict) -> None:
    saved = json.dumps({"schema": 1, "items": items})
    page.add_init_script(f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1');"
                         f" localStorage.setItem('{DRILL}', {json.dumps(saved)}); }}")


def test_items_another_version_saved_are_set_aside_and_the_rest_graded_and_exported(
        page: Page, base_url: str, tmp_path: Path) -> None:
    _seed(page, OTHER_VERSION)
    page.goto(base_url + "drill/")
    panel = page.locator(".regime-acceptance")
    expect(panel.locator(".regime-acceptance__aside")).to_have_text(
        "Saved by another version: kept, not graded: A9, A2, A3, A5.", timeout=90_000)
    expect(panel.locator(".regime-acceptance__verdict")).to_have_text("Not passing yet: see the criteria above.")
    # The first criterion tells kept items from ones never tried.
    expect(panel.locator('li[data-criterion="1"] .regime-acceptance__why')).to_have_text(
        "Not attempted yet: A4, A6, A7, A8; A2, A3, A5 saved by another version: kept, not graded.")
    expect(page.locator('[data-item="a1"] .regime-item-grade li').first).to_contain_text("Regime: ✓")
    expect(page.locator('[data-item="a2"] .regime-item-grade li')).to_have_text(
        "Saved by another version: kept, not graded.")
    with page.expect_download() as download:
        panel.locator('[data-action="download-json"]').click()
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["part_a"] == {"a1": OTHER_VERSION["a1"]["attempt"]}
    _attempt(page, "a4", "memory")
    items = _stored(page)["items"]
    assert {k: v for k, v in items.items() if k != "a4"} == OTHER_VERSION  # kept untouched
    page.reload()
    expect(panel.locator(".regime-acceptance__aside")).to_contain_text("A9, A2, A3, A5", timeout=90_000)


def test_the_attempt_file_downloads_without_python(browser: object, base_url: str) -> None:
    log = PageLog()
    page = open_page(browser, base_url, log)
    page.context.route("**/assets/regime/worker.js?*", lambda r: r.fulfill(status=404, body=""))
    _seed(page, OTHER_VERSION)
    page.goto(base_url + "drill/")
    panel = page.locator(".regime-acceptance")
    expect(panel.locator(".regime-status")).to_contain_text("Python could not start", timeout=60_000)
    with page.expect_download() as download:
        panel.locator('[data-action="download-json"]').click()
    exported = json.loads(Path(download.value.path()).read_text())  # the raw saved items, as they were saved
    assert exported["part_a"] == {k: v["attempt"] for k, v in OTHER_VERSION.items()}
    expect(panel.locator(".regime-acceptance__status")).to_contain_text("Downloaded regime-attempt.json")
    page.context.close()
    assert log.external == []


def test_what_is_typed_survives_a_reload_and_part_b_is_kept_before_it_is_checked(
        browser: object, base_url: str) -> None:
    log = PageLog()
    page = open_page(browser, base_url, log)
    page.context.route("**/pyodide.mjs", lambda route: None)  # Python never starts: it is still loading
    page.goto(base_url + "drill/")
    page.locator('[data-item="a5"] textarea[name="evidence"]').fill("62% of peak FLOP/s, not yet submitted")
    part_b = page.locator('[data-item="part-b"] form.regime-attempt')
    part_b.locator('button[type="submit"]').click()  # empty: opens nothing
    expect(page.locator('[data-item="part-b"] .regime-feedback')).to_contain_text("Write something first")
    expect(page.locator('[data-regime-answer="part-b"]')).to_be_hidden()
    part_b.locator('input[name="ridge"]').fill("156")
    part_b.locator('button[type="submit"]').click()  # waits on Python to check it
    expect(page.locator('[data-item="part-b"] .regime-feedback')).to_contain_text("Checking your numbers")
    until(page, "(JSON.parse(localStorage.getItem('regime-drill') || '{}').drafts || {}).a5 !== undefined")
    page.reload()
    expect(page.locator('[data-item="a5"] textarea[name="evidence"]')).to_have_value(
        "62% of peak FLOP/s, not yet submitted")
    expect(page.locator('[data-item="part-b"] input[name="ridge"]')).to_have_value("156")
    expect(page.locator('[data-regime-answer="a5"]')).to_be_hidden()  # a draft opens nothing
    expect(page.locator(".regime-progress__count")).to_contain_text("0 of")
    page.context.close()
    assert log.external == []


def test_a_file_of_empty_objects_unlocks_nothing(page: Page, base_url: str, tmp_path: Path) -> None:
    page.goto(base_url + "drill/")
    _attempt(page, "a6", "overhead")
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"part_a": {"a1": {}, "a2": {"evidence": ""}}, "part_b": {}, "part_c": ""}))
    page.locator('.regime-acceptance input[type="file"]').set_input_files(str(path))
    expect(page.locator(".regime-acceptance__status")).to_contain_text("Nothing was changed", timeout=90_000)
    expect(page.locator('[data-regime-answer="a1"]')).to_be_hidden()
    expect(page.locator('[data-regime-answer="a6"]')).to_be_visible()


def _quick_limits(page: Page, base_url: str) -> None:
    def rewrite(route: Route) -> None:  # 3 s instead of 20 s before a silent start gives up
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace("worker.js?", "worker.js?stall_s=3&"))

    page.route(base_url + "drill/", rewrite)


def _hangs_then_retry_starts(browser: object, base_url: str, pattern: str) -> None:
    log = PageLog()
    page = open_page(browser, base_url, log)
    _quick_limits(page, base_url)
    page.context.route(pattern, lambda route: None)  # requested, never answered
    page.goto(base_url + "drill/")
    status = page.locator(".regime-stretch .regime-status")
    page.locator(".regime-stretch").locator('button[type="submit"]').click()
    expect(status).to_contain_text("Python could not start", timeout=60_000)
    expect(status).to_contain_text("(the connection may have dropped)")
    assert len(status.inner_text().strip().splitlines()) == 1
    page.context.unroute(pattern)
    status.get_by_role("button", name="Retry").click()
    until(page, "window.regimeWidgets.python.state() === 'ready'", seconds=180)
    page.context.close()
    assert log.external == []


def test_a_loader_that_hangs_fails_with_retry(browser: object, base_url: str) -> None:
    _hangs_then_retry_starts(browser, base_url, "**/pyodide.mjs")


def test_a_worker_script_that_hangs_fails_with_retry(browser: object, base_url: str) -> None:
    _hangs_then_retry_starts(browser, base_url, "**/assets/regime/worker.js?*")


def test_a_damaged_practice_record_keeps_what_is_readable(page: Page, base_url: str) -> None:
    damaged = {"tally": {"memory": {"tried": 3, "right": 2, "name": "memory"}, "compute": "str"},
               "confusion": None, "traps": {"x": None}, "missed": None, "graded": ["old", 5]}
    page.add_init_script(f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1');"
                         f" localStorage.setItem('regime-practice', {json.dumps(json.dumps(damaged))}); }}")
    page.goto(base_url + "practice/")
    expect(page.locator(".regime-practice__id")).to_contain_text("Incident", timeout=90_000)
    row = page.locator('.regime-practice__tally tr[data-regime="memory"] td')
    expect(row.nth(1)).to_have_text("2")
    expect(row.nth(2)).to_have_text("3")
    form = page.locator("form.regime-practice__attempt")
    form.locator('input[name="regime"][value="memory-bound"]').check()
    form.locator('button[type="submit"]').click()
    expect(page.locator(".regime-practice__verdict")).to_be_visible()
    assert _practice_tried(page) == 4


def test_a_malformed_hash_throws_nothing(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/#%E0%A4%A")
    expect(page.locator(".regime-progress__count")).to_contain_text("0 of")
    assert page.evaluate("window.regimeWidgets.live()") > 0
