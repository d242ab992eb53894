"""A second visit restores the interpreter from the snapshot the first visit kept; a bad snapshot
falls back to the normal start."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from conftest import PageLog, WarmContext, open_page, warm_page

SNAPSHOTS = "caches.open('regime-python-snapshot').then((c) => c.keys()).then((k) => k.map((r) => r.url))"


def _ready(page: Page) -> dict:
    for _ in range(600):
        if page.evaluate("window.regimeWidgets && window.regimeWidgets.python.state()") == "ready":
            return page.evaluate("window.regimeWidgets.python.timings()")
        page.wait_for_timeout(100)
    raise AssertionError("Python did not become ready")


def _stored(page: Page) -> list[str]:
    for _ in range(100):
        keys = page.evaluate(SNAPSHOTS)
        if keys:
            return keys
        page.wait_for_timeout(100)
    return []


def _classify(page: Page) -> None:
    stretch = page.locator(".regime-stretch")
    stretch.locator('button[type="submit"]').click()
    expect(stretch.locator(".regime-stretch__result svg")).to_have_count(1, timeout=60_000)


def test_second_visit_restores_the_snapshot(fresh_page: Page, base_url: str, built_site: Path) -> None:
    page = fresh_page
    page.goto(base_url + "drill/")
    assert _ready(page)["source"] == "start"
    manifest = json.loads((built_site / "assets/regime/runtime.json").read_text())
    expected = f"{base_url}assets/regime/snapshot/{manifest['pyodide_version']}/{manifest['wheel']}"
    assert _stored(page) == [expected]
    page.reload()
    assert _ready(page)["source"] == "snapshot"
    _classify(page)


def test_a_bad_snapshot_falls_back_to_the_normal_start(browser: object, base_url: str) -> None:
    log = PageLog()
    page = open_page(browser, base_url, log)
    page.goto(base_url + "drill/")
    _ready(page)
    key = _stored(page)[0]
    page.evaluate("(key) => caches.open('regime-python-snapshot').then((c) => c.put(key,"
                  " new Response(new Uint8Array(1000))))", key)
    page.reload()
    assert _ready(page)["source"] == "start"
    _classify(page)
    size = ("(key) => caches.open('regime-python-snapshot').then((c) => c.match(key))"
            ".then((r) => r ? r.arrayBuffer() : new ArrayBuffer(0)).then((b) => b.byteLength)")
    for _ in range(100):  # replaced by a good one
        if page.evaluate(size, key) > 1_000_000:
            break
        page.wait_for_timeout(100)
    assert page.evaluate(size, key) > 1_000_000
    page.context.close()
    assert log.external == []
    assert log.errors == [], log.errors


def test_the_tests_warm_pages_restore_python_and_share_no_storage(
        warm_context: WarmContext, base_url: str) -> None:
    first_log, second_log = PageLog(), PageLog()
    first = warm_page(warm_context, base_url, first_log)
    first.goto(base_url + "drill/")
    _ready(first)
    assert _stored(first)  # the snapshot the next page restores
    first.evaluate("localStorage.setItem('regime-drill', '{}')")
    first.close()
    second = warm_page(warm_context, base_url, second_log)
    assert second.evaluate("localStorage.length") == 0
    second.goto(base_url + "drill/")
    assert _ready(second)["source"] == "snapshot"
    _classify(second)
    second.close()
    assert first_log.errors == second_log.errors == []
    assert first_log.external == second_log.external == []


def test_a_test_that_closes_the_warm_context_does_not_break_the_next(warm_context: WarmContext, base_url: str) -> None:
    log = PageLog()
    closed = warm_page(warm_context, base_url, log)
    closed.context.close()
    again = warm_page(warm_context, base_url, log)
    assert again.context is not closed.context
    again.goto(base_url + "lesson/")
    expect(again.locator("article h1")).to_be_visible()
    again.close()
    assert log.errors == []
