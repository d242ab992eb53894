"""A page whose manifest names another bridge version than the wheel speaks fails in one line."""

from __future__ import annotations

from playwright.sync_api import Route, expect

from conftest import PageLog, open_page
from regime_core.bridge.protocol import PROTOCOL


def test_a_stale_page_beside_a_new_wheel_says_so_in_one_line(browser: object, base_url: str) -> None:
    log = PageLog()
    page = open_page(browser, base_url, log)

    def stale(route: Route) -> None:  # the page names the worker with the manifest: claim another protocol
        html = route.fetch().text()
        assert f"protocol={PROTOCOL}" in html
        route.fulfill(body=html.replace(f"protocol={PROTOCOL}", f"protocol={PROTOCOL + 1}"),
                      headers={"content-type": "text/html; charset=utf-8"})

    page.route(base_url + "drill/", stale)
    page.goto(base_url + "drill/")
    stretch = page.locator(".regime-stretch")
    stretch.locator('button[type="submit"]').click()
    status = stretch.locator(".regime-status")
    expect(status).to_contain_text("Python could not start", timeout=180_000)
    expect(status).to_contain_text(f"bridge version {PROTOCOL + 1}, the core speaks {PROTOCOL}")
    assert len(status.inner_text().strip().splitlines()) == 1
    page.context.close()
    assert log.external == []
