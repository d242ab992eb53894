"""When something fails, the page stays readable, one line says what is missing, answers still
unlock, no saved attempt is lost, and the number of live widgets stays constant."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from conftest import PageLog, WarmContext, open_page, settled, warm_page
from site_server import serve

SAVED_A1 = json.dumps({"schema": 1, "items": {"a1": {"attempt": {"regime": "compute", "evidence": "70%"},
                                                      "unlocked": True, "at": "2026-11-01T00:00:00Z"}}})


def _attempt(page: Page, item: str, regime: str) -> None:
    form = page.locator(f'[data-item="{item}"] form.regime-attempt')
    form.locator(f'input[value="{regime}"]').check()
    form.locator('button[type="submit"]').click()
    expect(page.locator(f'[data-regime-answer="{item}"]')).to_be_visible()


def _python_fails_in_one_line(page: Page, fragment: str) -> None:
    stretch = page.locator(".regime-stretch")
    stretch.locator('button[type="submit"]').click()
    status = stretch.locator(".regime-status")
    expect(status).to_contain_text("Python could not start", timeout=60_000)
    expect(status).to_contain_text(fragment)
    assert len(status.inner_text().strip().splitlines()) == 1


def _still_works(page: Page) -> None:
    expect(page.locator("article h1")).to_be_visible()
    _attempt(page, "a6", "overhead")
    assert settled(page) == page.locator("[data-regime-widget]").count()


FAULTS: dict[str, tuple[str, Callable[[Route], None], str]] = {
    "wasm 404": ("**/pyodide.asm.wasm", lambda r: r.fulfill(status=404, body=""), "pyodide.asm.wasm is missing"),
    "stdlib blocked": ("**/python_stdlib.zip", lambda r: r.abort(), "python_stdlib.zip could not be fetched"),
    "worker fails to start": ("**/assets/regime/worker.js?*", lambda r: r.fulfill(status=404, body=""),
                              "the worker could not load"),
    "wheel 404": ("**/wheels/**", lambda r: r.fulfill(status=404, body=""), "wheel returned HTTP 404"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_missing_runtime_file(browser: object, base_url: str, fault: str) -> None:
    pattern, handler, fragment = FAULTS[fault]
    log = PageLog()
    page = open_page(browser, base_url, log)
    page.context.route(pattern, handler)
    page.add_init_script(f"localStorage.setItem('regime-drill', {json.dumps(SAVED_A1)})")
    page.goto(base_url + "drill/")
    expect(page.locator('[data-regime-answer="a1"]')).to_be_visible()  # the saved attempt is there
    _python_fails_in_one_line(page, fragment)
    _still_works(page)
    page.context.close()
    assert log.external == []
    assert all("404" in e or "Failed to load" in e or "ERR_FAILED" in e for e in log.errors), log.errors


def test_a_csp_without_wasm_unsafe_eval(browser: object, built_site: Path) -> None:
    def no_wasm(path: str, headers: dict[str, str]) -> dict[str, str]:
        csp = headers.get("Content-Security-Policy")
        if csp:
            headers["Content-Security-Policy"] = csp.replace(" 'wasm-unsafe-eval'", "")
        return headers

    with serve(built_site, rewrite=no_wasm) as other:
        log = PageLog()
        page = open_page(browser, other, log)
        page.goto(other + "drill/")
        _python_fails_in_one_line(page, "'wasm-unsafe-eval' is missing")
        _still_works(page)
        page.context.close()
    assert all("WebAssembly" in e or "Content Security Policy" in e for e in log.errors), log.errors


STORAGE = {
    # Only our key throws: Material's own inline scripts do not catch a storage that throws for every key.
    "throws": ("const get = Storage.prototype.getItem, set = Storage.prototype.setItem;"
               "Storage.prototype.getItem = function (k) { if (k.startsWith('regime-drill'))"
               " throw new DOMException('denied', 'SecurityError'); return get.call(this, k); };"
               "Storage.prototype.setItem = function (k, v) { if (k.startsWith('regime-drill'))"
               " throw new DOMException('denied', 'SecurityError'); return set.call(this, k, v); };",
               "storage"),
    "full": ("const real = Storage.prototype.setItem;"
             "Storage.prototype.setItem = function (k, v) { if (k === 'regime-drill' && v.includes('a6'))"
             " throw new DOMException('full', 'QuotaExceededError'); return real.call(this, k, v); };",
             "can't be saved"),
}


@pytest.mark.parametrize("kind", list(STORAGE))
def test_unusable_local_storage(warm_context: WarmContext, base_url: str, kind: str) -> None:
    script, fragment = STORAGE[kind]
    log = PageLog()
    page = warm_page(warm_context, base_url, log)
    page.add_init_script(f"localStorage.setItem('regime-drill', {json.dumps(SAVED_A1)});" + script)
    page.goto(base_url + "drill/")
    if kind == "full":
        expect(page.locator('[data-regime-answer="a1"]')).to_be_visible()  # nothing saved is lost
    _attempt(page, "a6", "overhead")
    expect(page.locator('[data-item="a6"] .regime-feedback')).to_contain_text(fragment)
    assert len(page.locator('[data-item="a6"] .regime-feedback').inner_text().splitlines()) == 1
    page.close()
    assert log.errors == []


def test_an_older_schema_keeps_the_attempts(page: Page, base_url: str) -> None:
    older = json.dumps({"schema": 0, "items": {"a3": {"attempt": {"regime": "overhead"}, "unlocked": True}}})
    page.add_init_script(f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1');"
                         f" localStorage.setItem('regime-drill', {json.dumps(older)}); }}")
    page.goto(base_url + "drill/")
    expect(page.locator('[data-regime-answer="a3"]')).to_be_visible()
    expect(page.locator('[data-item="a3"] input[value="overhead"]')).to_be_checked()
    assert page.evaluate("localStorage.getItem('regime-drill:schema-0')") == older


def test_unreadable_progress_that_cannot_be_copied_aside_is_never_overwritten(page: Page, base_url: str) -> None:
    # The copy aside fails (storage full for it): the page says so, and keeps the original as it was.
    page.add_init_script("localStorage.setItem('regime-drill', '{\"schema\": 1, \"items\": {cut short');"
                         "const real = Storage.prototype.setItem; Storage.prototype.setItem = function (k, v) {"
                         " if (k.startsWith('regime-drill:')) throw new DOMException('full', 'QuotaExceededError');"
                         " return real.call(this, k, v); };")
    page.goto(base_url + "drill/")
    expect(page.locator(".regime-progress [role=status]")).to_contain_text("no copy of it could be kept")
    _attempt(page, "a6", "overhead")  # works, in this tab only
    assert page.evaluate("localStorage.getItem('regime-drill')") == '{"schema": 1, "items": {cut short'
    assert page.evaluate("localStorage.getItem('regime-drill:unreadable')") is None


def test_a_newer_schema_is_shown_and_never_written(page: Page, base_url: str) -> None:
    newer = json.dumps({"schema": 2, "items": {"a3": {"attempt": {"regime": "overhead"}, "unlocked": True}},
                        "profiles": {"default": {"theme": "dark"}}})
    page.add_init_script(f"localStorage.setItem('regime-drill', {json.dumps(newer)});")
    page.goto(base_url + "drill/")
    expect(page.locator('[data-regime-answer="a3"]')).to_be_visible()
    expect(page.locator('[data-item="a3"] input[value="overhead"]')).to_be_checked()
    expect(page.locator(".regime-progress [role=status]")).to_contain_text("saved by a newer version of the site")
    _attempt(page, "a6", "overhead")  # works, in this tab only
    expect(page.locator('[data-item="a6"] .regime-feedback')).to_contain_text("left untouched")
    assert page.evaluate("localStorage.getItem('regime-drill')") == newer


#: What Pyodide throws when its interpreter dies (the deep JSON that once did it is now refused before it is
#: parsed: tests/test_nesting.py): the worker is made to throw it for one request.
FATAL_ON_PROBE = ('if (request.includes("fatal-probe")) throw Object.assign(new Error("RangeError: Maximum call'
                  ' stack size exceeded"), { pyodide_fatal_error: true });')


def test_a_fatal_error_in_python_restarts_the_worker(browser: object, base_url: str, tmp_path: Path) -> None:
    log = PageLog()
    page = open_page(browser, base_url, log)
    workers: list[str] = []

    def worker_that_dies_on_the_probe(route: Route) -> None:
        workers.append(route.request.url)
        body = route.fetch().text()
        marker = "postMessage({ id, response: bytes ? "
        assert marker in body
        route.fulfill(body=body.replace(marker, FATAL_ON_PROBE + marker), content_type="text/javascript")

    page.context.route("**/assets/regime/worker.js?*", worker_that_dies_on_the_probe)
    page.goto(base_url + "drill/")
    probe = tmp_path / "probe.json"
    probe.write_text(json.dumps({"part_a": {"a1": {"regime": "fatal-probe"}}}))
    acceptance = page.locator(".regime-acceptance")
    acceptance.locator('input[type="file"]').set_input_files(str(probe))
    expect(acceptance.locator(".regime-acceptance__status")).to_have_text(
        "probe.json: Python stopped on this input and is being restarted; nothing was saved from this request."
        " Nothing was changed.", timeout=120_000)
    # A new worker answers the next request as if nothing happened.
    form = page.locator('[data-item="a1"] form.regime-attempt')
    form.locator('input[value="compute"]').check()
    form.locator('[data-action="check"]').click()
    expect(page.locator('[data-item="a1"] .regime-item-grade li').first).to_contain_text("Regime: ✓", timeout=120_000)
    assert len(workers) == 2, workers
    page.context.close()
    assert log.errors == []
    assert log.external == []


#: Enough round trips for a leak to show: a widget left mounted on each visit would change the count
#: every time, which the set below would catch after two.
ROUND_TRIPS = 20


def test_instant_navigation_round_trips_keep_one_live_widget_per_mount(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    page.evaluate("window.regimeMarker = 'same document'")
    nav = page.locator(".md-nav--primary")
    counts = set()
    for _ in range(ROUND_TRIPS):
        nav.get_by_role("link", name="Lesson", exact=True).first.click()
        expect(page).to_have_url(base_url + "lesson/")
        nav.get_by_role("link", name="Drill", exact=True).first.click()
        expect(page).to_have_url(base_url + "drill/")
        expect(page.locator(".regime-stretch")).to_be_visible()
        counts.add((settled(page), page.locator("[data-regime-widget]").count()))
    assert len(counts) == 1
    live, mounts = counts.pop()
    assert live == mounts
    assert page.evaluate("window.regimeMarker") == "same document"
    _attempt(page, "a2", "memory")
