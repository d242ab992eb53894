"""Pages with widgets start Python's worker from the head at the first contentful paint, with the
runtime manifest in its URL; a page reached by instant navigation starts it from the page, and gets
the same worker."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def _ready_timings(page: Page) -> dict[str, object]:
    expect(page.locator(".regime-explorer .regime-status")).to_have_attribute("data-state", "ready", timeout=60_000)
    timings = page.evaluate("window.regimeWidgets.python.timings()")
    assert isinstance(timings, dict)
    return timings


def test_the_drill_page_starts_python_from_its_head_without_fetching_the_manifest(fresh_page: Page, base_url: str) -> None:
    page = fresh_page
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(base_url + "drill/")
    timings = _ready_timings(page)
    assert timings["startedBy"] == "head"
    # Not before the first paint: starting earlier takes the cores from it (BENCHMARKS.md).
    first_paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
    assert isinstance(timings["started"], (int, float))
    assert timings["started"] >= first_paint
    workers = [url for url in requests if "/assets/regime/worker.js" in url]
    assert len(workers) == 1, workers
    assert "pyodide_version=" in workers[0]
    assert "wheel=" in workers[0]
    assert not [url for url in requests if url.endswith("runtime.json")]


def test_pages_without_widgets_never_start_python(page: Page, base_url: str) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    for path in ("", "lesson/", "hardware/"):
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
    assert requests  # the listener sees the pages' own requests
    assert not [url for url in requests if "worker.js" in url or "/pyodide/" in url]


def test_instant_navigation_from_home_starts_the_same_worker(fresh_page: Page, base_url: str) -> None:
    page = fresh_page
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(base_url)  # one folder above the drill: the worker URL must not depend on the page
    page.evaluate("window.regimeMarker = 'same document'")
    page.locator(".md-nav--primary").get_by_role("link", name="Drill", exact=True).first.click()
    expect(page).to_have_url(base_url + "drill/")
    timings = _ready_timings(page)
    assert page.evaluate("window.regimeMarker") == "same document"
    assert timings["startedBy"] == "page"
    workers = [url for url in requests if "/assets/regime/worker.js" in url]
    assert workers == [base_url + "assets/regime/worker.js?" + workers[0].split("?", 1)[1]], workers
    explorer = page.locator(".regime-explorer")
    explorer.locator('input[name="hardware.peak_flops"]').fill("312 TFLOP/s")
    explorer.locator('input[name="hardware.bandwidth"]').fill("2.0 TB/s")
    expect(explorer.locator(".regime-explorer__ridge")).to_contain_text("= 156 FLOP/byte")
