"""The suite's own tabs: one a test leaves as it found it serves the next test; one it changed for good does not.

A new tab costs a renderer process, more than the page it then loads, so ``page`` and ``page_as`` hand a
clean tab on (``WarmContext.release``). What must never pass from one test to the next: an init script,
a route, a listener, a palette or a width, saved storage. And in every tab, a request for another host goes
nowhere and fails the test that made it.
"""

from __future__ import annotations

from conftest import PageLog, WarmContext, dress, open_page, warm_page


def test_a_clean_tab_is_handed_on_empty(warm_context: WarmContext, base_url: str) -> None:
    log = PageLog()
    first = warm_page(warm_context, base_url, log)
    first.goto(base_url + "lesson/")  # type: ignore[attr-defined]
    first.evaluate("localStorage.setItem('left', '1'); sessionStorage.setItem('left', '1')")  # type: ignore[attr-defined]
    warm_context.release(first)
    assert first.url == "about:blank"  # type: ignore[attr-defined]  # off the test's page at once
    again = warm_page(warm_context, base_url, log)
    assert again is first
    assert again.evaluate("[localStorage.length, sessionStorage.length]") == [0, 0]  # type: ignore[attr-defined]
    warm_context.release(again)
    assert log.errors == []


def test_a_tab_changed_for_good_is_closed_not_handed_on(warm_context: WarmContext, base_url: str) -> None:
    log = PageLog()
    changed = warm_page(warm_context, base_url, log)
    changed.add_init_script("window.leftBehind = true")  # type: ignore[attr-defined]
    warm_context.release(changed)
    assert changed.is_closed()  # type: ignore[attr-defined]
    fresh = warm_page(warm_context, base_url, log)
    assert fresh is not changed
    assert fresh.evaluate("window.leftBehind === undefined")  # type: ignore[attr-defined]
    fresh.on("console", lambda message: None)  # type: ignore[attr-defined]  # a listener outlasts the page too
    warm_context.release(fresh)
    assert fresh.is_closed()  # type: ignore[attr-defined]


def test_a_palette_and_a_width_are_put_back(warm_context: WarmContext, base_url: str) -> None:
    log = PageLog()
    dressed = warm_page(warm_context, base_url, log)
    dress(dressed, color_scheme="dark", viewport={"width": 390, "height": 844})
    assert dressed.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")  # type: ignore[attr-defined]
    warm_context.release(dressed)
    again = warm_page(warm_context, base_url, log)
    assert again is dressed
    assert again.evaluate("[matchMedia('(prefers-color-scheme: dark)').matches, innerWidth]") == [False, 1280]  # type: ignore[attr-defined]
    warm_context.release(again)



def _goes_nowhere(page: object, log: PageLog) -> None:
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.failure))  # type: ignore[attr-defined]
    try:  # a navigation: the site's CSP stops a page's own requests for other hosts before they are made
        page.goto("http://regime-elsewhere.example/")  # type: ignore[attr-defined]
    except Exception as error:  # noqa: BLE001 (Playwright's navigation error has no narrower type)
        assert "ERR_PROXY_CONNECTION_FAILED" in str(error), error
    else:
        raise AssertionError("the page for another host loaded")
    assert log.external == ["http://regime-elsewhere.example/"]
    assert failed == ["net::ERR_PROXY_CONNECTION_FAILED"]


def test_a_request_for_another_host_goes_nowhere_and_is_logged(warm_context: WarmContext, browser: object,
                                                                base_url: str) -> None:
    warm_log, own_log = PageLog(), PageLog()
    warm = warm_page(warm_context, base_url, warm_log)
    _goes_nowhere(warm, warm_log)
    warm.close()  # type: ignore[attr-defined]
    own = open_page(browser, base_url, own_log)  # a context of its own
    _goes_nowhere(own, own_log)
    own.context.close()  # type: ignore[attr-defined]
