"""Fixtures: a strict build of the site, served on localhost with netlify.toml's headers, and a
real headless Chromium that may reach nothing but that server."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests check behaviour, not speed: on a loaded machine a deadline or the too-slow
# health check would fail a correct test.
settings.register_profile("regime", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("regime")

sys.path.insert(0, str(Path(__file__).parent))
from site_server import ROOT, serve  # noqa: E402 (the path above makes it importable)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--no-first-run"]
PAGES = ["", "lesson/", "drill/", "hardware/"]


def pytest_configure(config: pytest.Config) -> None:
    """`make test` runs everything but ``torch``; `make gpu-test` runs those, with PyTorch installed."""
    config.addinivalue_line("markers", "torch: needs PyTorch (requirements-gpu.txt); run by `make gpu-test`")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def site_port() -> int:
    return _free_port()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory, site_port: int) -> Path:
    """`mkdocs build --strict` into a temporary folder, with site_url set to where it is served."""
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, SITE_URL=f"http://127.0.0.1:{site_port}/", NO_MKDOCS_2_WARNING="1")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    return out


@pytest.fixture(scope="session")
def base_url(built_site: Path, site_port: int) -> Iterator[str]:
    with serve(built_site, site_port) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import expect, sync_playwright

    # Python starts in the browser before most assertions can hold; on a busy two-core machine
    # that takes far longer than Playwright's 5 s default, so every expect() waits generously.
    expect.set_options(timeout=90_000)

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `apt-get install chromium` (.ci/run does this)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class PageLog:
    """What a page did that a test must be told about."""

    errors: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)


def _guard(context: object, base_url: str, logs: list[PageLog]) -> None:
    """Block and log (in ``logs[0]``, the current test's log) every request that is not to ``base_url``."""

    def route(route: object) -> None:
        url = route.request.url  # type: ignore[attr-defined]
        if url.startswith(base_url):
            route.continue_()  # type: ignore[attr-defined]
        else:
            logs[0].external.append(url)
            route.abort()  # type: ignore[attr-defined]

    context.route("**/*", route)  # type: ignore[attr-defined]


def _watch(page: object, log: PageLog) -> None:
    """Console errors, uncaught exceptions and dialogs go to ``log``."""
    page.on("console", lambda m: log.errors.append(m.text) if m.type == "error" else None)  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: log.errors.append(f"uncaught: {e}"))  # type: ignore[attr-defined]
    # An alert, confirm or prompt means a payload ran: it fails the test like an error.
    page.on("dialog", lambda d: (log.errors.append(f"dialog: {d.message}"), d.dismiss()))  # type: ignore[attr-defined]
    page.set_default_timeout(60_000)  # type: ignore[attr-defined]


def open_page(browser: object, base_url: str, log: PageLog, **context_options: object) -> object:
    """A fresh browser context and page (empty caches: Python starts from nothing); every non-localhost
    request is blocked and logged."""
    context = browser.new_context(service_workers="block", **context_options)  # type: ignore[attr-defined]
    _guard(context, base_url, [log])
    page = context.new_page()
    _watch(page, log)
    return page


@dataclass
class WarmContext:
    """One browser context for every ``page``: its HTTP cache and Cache Storage (Python's memory
    snapshot) carry over, so after the first test Python is restored in well under a second instead
    of started. ``logs[0]`` is the current test's log. A test that closes it gets a new one."""

    browser: object
    base_url: str
    logs: list[PageLog] = field(default_factory=lambda: [PageLog()])
    context: object = None

    def new_page(self) -> object:
        """A page in the context, which is made (again) when there is none or it was closed."""
        if self.context is not None:
            try:
                return self.context.new_page()  # type: ignore[attr-defined]
            except Exception:  # noqa: BLE001 (closed by a test: Playwright's errors have no narrower type)
                self.context = None
        self.context = self.browser.new_context(service_workers="block")  # type: ignore[attr-defined]
        _guard(self.context, self.base_url, self.logs)
        return self.context.new_page()  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def warm_context(browser: object, base_url: str) -> Iterator[WarmContext]:
    """The session's warm context (see WarmContext)."""
    warm = WarmContext(browser, base_url)
    yield warm
    if warm.context is not None:
        with contextlib.suppress(Exception):  # already closed
            warm.context.close()  # type: ignore[attr-defined]


def warm_page(warm_context: WarmContext, base_url: str, log: PageLog) -> object:
    """A new page in the warm context, logging to ``log``, with this origin's storage emptied."""
    warm_context.logs[0] = log
    page = warm_context.new_page()
    _watch(page, log)
    page.goto(base_url + "assets/regime/runtime.json")  # this origin, no scripts: empty what the last test left
    page.evaluate("localStorage.clear(); sessionStorage.clear()")  # type: ignore[attr-defined]
    return page


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


@pytest.fixture
def page(warm_context: WarmContext, base_url: str, page_log: PageLog) -> Iterator[object]:
    """A new page in the shared warm context, its site storage emptied; the test fails on any console
    error or attempted external request. A test about starting Python, or one that changes the
    context (routes, permissions), uses ``open_page`` instead."""
    p = warm_page(warm_context, base_url, page_log)
    yield p
    p.close()
    assert page_log.external == [], f"requests to other origins: {page_log.external}"
    assert page_log.errors == [], f"console errors: {page_log.errors}"


@pytest.fixture
def page_as(warm_context: WarmContext, base_url: str, page_log: PageLog) -> Iterator[Callable[..., object]]:
    """Open ``page``s with a palette, a viewport or permissions, in the warm context (Python restored,
    not started: a test about a palette or a width is not about starting). Permissions last for the
    test only. The test fails on any console error or attempted external request, as with ``page``."""
    opened: list[object] = []

    def open_as(*, color_scheme: str | None = None, viewport: dict[str, int] | None = None,
                permissions: Sequence[str] = ()) -> object:
        p = warm_page(warm_context, base_url, page_log)
        if color_scheme:
            p.emulate_media(color_scheme=color_scheme)  # type: ignore[attr-defined]
        if viewport:
            p.set_viewport_size(viewport)  # type: ignore[attr-defined]
        if permissions:
            p.context.grant_permissions(list(permissions), origin=base_url.rstrip("/"))  # type: ignore[attr-defined]
        opened.append(p)
        return p

    yield open_as
    for p in opened:
        with contextlib.suppress(Exception):  # closed by the test
            p.close()  # type: ignore[attr-defined]
    if warm_context.context is not None:
        warm_context.context.clear_permissions()  # type: ignore[attr-defined]
    assert page_log.external == [], f"requests to other origins: {page_log.external}"
    assert page_log.errors == [], f"console errors: {page_log.errors}"


@pytest.fixture
def fresh_page(browser: object, base_url: str, page_log: PageLog) -> Iterator[object]:
    """Like ``page``, in a context of its own with empty caches: Python starts from nothing."""
    p = open_page(browser, base_url, page_log)
    yield p
    p.context.close()  # type: ignore[attr-defined]
    assert page_log.external == [], f"requests to other origins: {page_log.external}"
    assert page_log.errors == [], f"console errors: {page_log.errors}"
