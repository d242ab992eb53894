"""Security headers: netlify.toml's CSP is tight, the test server sends it, and no page violates it."""

from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import Page, expect

from site_server import netlify_headers


def _headers_for(path: str) -> dict[str, str]:
    import fnmatch

    merged: dict[str, str] = {}
    for pattern, values in netlify_headers():
        if fnmatch.fnmatch(path, pattern):
            merged.update(values)
    return merged


def _csp() -> dict[str, set[str]]:
    policy = _headers_for("/drill/")["Content-Security-Policy"]
    return {d.split()[0]: set(d.split()[1:]) for d in policy.split(";") if d.strip()}


def test_csp_names_no_other_origin_and_nothing_looser_than_wasm_unsafe_eval() -> None:
    csp = _csp()
    for directive, sources in csp.items():
        for source in sources:
            assert ("://" not in source and source not in ("*", "http:", "https:", "data:")) or (
                directive == "img-src" and source == "data:"), (directive, source)
    assert csp["script-src"] == {"'self'", "'unsafe-inline'", "'wasm-unsafe-eval'"}
    assert all("'unsafe-eval'" not in sources for sources in csp.values())
    assert csp["default-src"] == {"'self'"}
    assert csp["connect-src"] == {"'self'"}
    assert csp["worker-src"] == {"'self'"}
    assert csp["frame-ancestors"] == {"'none'"}
    assert csp["object-src"] == {"'none'"}


def test_other_security_headers_and_immutable_runtime() -> None:
    headers = _headers_for("/drill/")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    # Every runtime file's path names its Pyodide version (or its content's hash): any of them may be cached for good.
    assert "immutable" in _headers_for("/assets/pyodide/0.0.0/pyodide.asm.wasm")["Cache-Control"]
    assert "immutable" in _headers_for("/assets/pyodide/0.0.0/0123abcd/python_stdlib.zip")["Cache-Control"]
    assert "immutable" in _headers_for("/assets/regime/wheels/abc/regime_core.whl")["Cache-Control"]
    assert "Cache-Control" not in _headers_for("/drill/")  # pages revalidate


@pytest.mark.parametrize("path", ["", "drill/", "assets/regime/runtime.json"])
def test_the_test_server_sends_them(base_url: str, path: str) -> None:
    with urllib.request.urlopen(base_url + path) as response:
        assert "wasm-unsafe-eval" in response.headers["Content-Security-Policy"]
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_using_the_drill_violates_no_policy(page: Page, base_url: str) -> None:
    page.add_init_script("window.cspViolations = [];"
                         "document.addEventListener('securitypolicyviolation',"
                         " (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));")
    page.goto(base_url + "drill/")
    stretch = page.locator(".regime-stretch")
    stretch.locator('button[type="submit"]').click()
    expect(stretch.locator(".regime-stretch__result svg")).to_have_count(1, timeout=60_000)
    form = page.locator('[data-item="a1"] form.regime-attempt')
    form.locator('input[value="compute"]').check()
    form.locator('button[type="submit"]').click()
    expect(page.locator('[data-regime-answer="a1"] svg')).to_have_count(1)
    assert page.evaluate("window.cspViolations") == []
