"""On a slow link Python still starts, and the status line shows its download moving; on a link
that stalls, one line says so, with a Retry button that works."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from playwright.sync_api import Page, Route, expect

from conftest import PageLog, open_page
from site_server import Link, serve

SLOW_MOBILE = 200_000  # bytes/s, all connections together
PROGRESS = re.compile(r"^Downloading Python: (\d+\.\d) of (\d+\.\d) MB$")


def _classify(page: Page) -> None:
    stretch = page.locator(".regime-stretch")
    stretch.locator('button[type="submit"]').click()
    expect(stretch.locator(".regime-stretch__result svg")).to_have_count(1)


def test_python_starts_at_200_kb_per_s_and_the_status_line_counts_the_download(
        browser: object, built_site: Path) -> None:
    manifest = json.loads((built_site / "assets/regime/runtime.json").read_text())
    total = f"{int(manifest['bytes']) / 1e6:.1f}"
    with serve(built_site, link=Link(rate=SLOW_MOBILE)) as url:
        log = PageLog()
        page = open_page(browser, url, log)
        page.goto(url + "drill/")
        status = page.locator(".regime-stretch .regime-status")
        seen: list[str] = []
        busy: set[str | None] = set()
        started = time.monotonic()
        while page.evaluate("window.regimeWidgets && window.regimeWidgets.python.state()") != "ready":
            assert time.monotonic() - started < 300, f"not ready after 300 s; the status line said {seen}"
            text = status.inner_text().strip()
            if not seen or seen[-1] != text:
                seen.append(text)
            if PROGRESS.match(text):  # announced once it settles, not at every step
                busy.add(status.get_attribute("aria-busy"))
            page.wait_for_timeout(200)
        seconds = time.monotonic() - started
        progress = [m for m in map(PROGRESS.match, seen) if m]
        assert len(progress) >= 5, seen  # it moved, visibly, many times
        assert {m[2] for m in progress} == {total}
        loaded = [float(m[1]) for m in progress]
        assert loaded == sorted(loaded)
        assert loaded[-1] - loaded[0] > 1.0, seen
        assert seconds > 15  # it was slow: the worker's old 45 s limit is what this replaces
        assert "Python could not start" not in " ".join(seen)
        assert busy == {"true"}
        assert status.get_attribute("aria-busy") == "false"
        _classify(page)
        page.context.close()
    assert log.external == []
    assert log.errors == [], log.errors


def test_a_stalled_download_says_so_in_one_line_and_retry_starts_python(browser: object, built_site: Path) -> None:
    link = Link(stall=("python_stdlib.zip",))
    with serve(built_site, link=link) as url:
        log = PageLog()
        page = open_page(browser, url, log)

        def quick_stall_limit(route: Route) -> None:  # 3 s instead of 20 s of silence before it gives up
            response = route.fetch()
            route.fulfill(response=response, body=response.text().replace("worker.js?", "worker.js?stall_s=3&"))

        page.route(url + "drill/", quick_stall_limit)
        page.goto(url + "drill/")
        status = page.locator(".regime-stretch .regime-status")
        expect(status).to_contain_text("Python could not start: nothing arrived for 3 s")
        assert len(status.inner_text().strip().splitlines()) == 1
        assert len(link.stalled) == 1
        assert link.stalled[0].endswith("/python_stdlib.zip")
        retry = status.get_by_role("button", name="Retry")
        expect(retry).to_have_count(1)
        assert page.locator(".regime-status").get_by_role("button", name="Retry").count() > 1  # every widget's line
        retry.click()
        expect(status).not_to_contain_text("could not start")
        expect(page.locator(".regime-status button")).to_have_count(0)
        _classify(page)
        assert page.evaluate("window.regimeWidgets.python.state()") == "ready"
        page.context.close()
    assert log.external == []
    assert log.errors == [], log.errors
