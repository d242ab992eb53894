"""Fixtures: a strict build of the site, served on localhost with netlify.toml's headers, and a
real headless Chromium that may reach nothing but that server."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
#: The tests' browser, besides: V8 runs WebAssembly with its baseline compiler only (Liftoff), never
#: compiling Pyodide's hot functions again with the optimising one. The tests check behaviour, not speed,
#: and that second compile was about a third of the CPU of a first start (5.3 -> 3.6 CPU-s) and a fifth of
#: a restore (1.9 -> 1.4). The benchmark keeps CHROMIUM_ARGS alone: a learner's browser optimises.
TEST_CHROMIUM_ARGS = [*CHROMIUM_ARGS, "--js-flags=--liftoff-only"]
PAGES = ["", "lesson/", "drill/", "hardware/", "reference/cli/"]
#: The tests' browser sends every request for another host to a proxy that is not there, so nothing leaves
#: this machine; ``_guard`` logs each one, and a test fails on it. (A route in every context did both, but
#: a route turns off the browser's HTTP cache and costs a round trip to the test per request: ~0.3 CPU-s of
#: a 1.4 CPU-s drill load.)
NOWHERE = {"server": "http://127.0.0.1:9", "bypass": "127.0.0.1,localhost"}
#: What a page fetches over the network (data: and blob: URLs are not requests to an origin).
NETWORK_SCHEMES = ("http", "https", "ws", "wss")


def pytest_configure(config: pytest.Config) -> None:
    """`make test` runs everything but ``torch``; `make gpu-test` runs those, with PyTorch installed."""
    config.addinivalue_line("markers", "torch: needs PyTorch (requirements-gpu.txt); run by `make gpu-test`")
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        config.pluginmanager.register(SharedSite(), "regime-shared-site")  # the parallel run's controller


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that need no site first: in a parallel run they go while the site is built."""
    items.sort(key=lambda item: "built_site" in getattr(item, "fixturenames", ()))


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def build_site(out: Path, port: int) -> str:
    """`mkdocs build --strict` into ``out`` for http://127.0.0.1:``port``/; what went wrong, or ""."""
    env = dict(os.environ, SITE_URL=f"http://127.0.0.1:{port}/", NO_MKDOCS_2_WARNING="1")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    return "" if result.returncode == 0 else f"mkdocs build failed: {result.stderr[-3000:]}"


class SharedSite:
    """In a parallel run, the controller builds the site once and serves it to every worker.

    The build starts as the first worker is made and runs beside the tests that need no site; each
    worker's ``built_site`` waits for it. ``folder`` then holds ``site/`` and ``url`` (or ``failed``).
    """

    def __init__(self) -> None:
        """Nothing starts until the first worker is made."""
        self.folder = Path(tempfile.mkdtemp(prefix="regime-site-"))
        self.port = free_port()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        try:
            failed = build_site(self.folder / "site", self.port)
            if failed:
                _write(self.folder / "failed", failed)
                return
            with serve(self.folder / "site", self.port) as url:
                _write(self.folder / "url", url)
                self._done.wait()
        except Exception as exc:  # noqa: BLE001 (a build that times out, a port taken: the workers must hear of it)
            _write(self.folder / "failed", f"the shared site could not be built or served: {exc!r}")

    def pytest_configure_node(self, node: Any) -> None:
        """Start the build (once) and tell the worker where the site will be."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        node.workerinput["regime_site"] = str(self.folder)
        node.workerinput["regime_port"] = self.port

    def pytest_unconfigure(self) -> None:
        """Stop serving; remove the site."""
        self._done.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        shutil.rmtree(self.folder, ignore_errors=True)


def _write(path: Path, text: str) -> None:
    """Write whole or not at all: a worker polling for ``path`` never reads half of it."""
    part = path.with_suffix(".part")
    part.write_text(text, encoding="utf-8")
    part.replace(path)


def _shared(config: pytest.Config) -> tuple[Path, int] | None:
    """The controller's site folder and port, in a worker of a parallel run."""
    given = getattr(config, "workerinput", {})
    return (Path(given["regime_site"]), int(given["regime_port"])) if "regime_site" in given else None


@pytest.fixture(scope="session")
def site_port(pytestconfig: pytest.Config) -> int:
    shared = _shared(pytestconfig)
    return shared[1] if shared else free_port()


@pytest.fixture(scope="session")
def built_site(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory, site_port: int) -> Path:
    """`mkdocs build --strict` into a temporary folder, with site_url set to where it is served (in a
    parallel run, the controller's one build)."""
    shared = _shared(pytestconfig)
    if shared is None:
        out = tmp_path_factory.mktemp("site")
        failed = build_site(out, site_port)
        assert not failed, failed
        return out
    folder = shared[0]
    deadline = time.monotonic() + 900  # a build takes seconds when quiet, minutes on a machine this busy
    while not (folder / "url").exists():
        if (folder / "failed").exists():
            pytest.fail((folder / "failed").read_text(encoding="utf-8"))
        if time.monotonic() > deadline:
            pytest.fail("the shared site was not built within 15 minutes")
        time.sleep(0.2)
    return folder / "site"


@pytest.fixture(scope="session")
def base_url(pytestconfig: pytest.Config, built_site: Path, site_port: int) -> Iterator[str]:
    shared = _shared(pytestconfig)
    if shared is not None:
        yield (shared[0] / "url").read_text(encoding="utf-8")
        return
    with serve(built_site, site_port) as url:
        yield url


def until(page: object, script: str, arg: object = None, seconds: float = 90) -> None:
    """Poll a function in the page until it returns true (wait_for_function needs eval, which the CSP forbids)."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(script, arg):  # type: ignore[attr-defined]
            return
        page.wait_for_timeout(100)  # type: ignore[attr-defined]
    raise AssertionError(f"never true: {script}")


def settled(page: object) -> int:
    """Wait until the page on show has its widgets mounted (instant navigation swaps the page, then mounts);
    return how many there are."""
    until(page, "() => window.regimeWidgets && window.regimeWidgets.settled()")
    return int(page.evaluate("window.regimeWidgets.live()"))  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import expect, sync_playwright

    # Python starts in the browser before most assertions can hold; on a busy two-core machine
    # that takes far longer than Playwright's 5 s default, so every expect() waits generously.
    expect.set_options(timeout=90_000)

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `apt-get install chromium` (.ci/run does this)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=TEST_CHROMIUM_ARGS, proxy=NOWHERE)
        yield chromium
        chromium.close()


@dataclass
class PageLog:
    """What a page did that a test must be told about."""

    errors: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)


def _guard(context: object, base_url: str, logs: list[PageLog]) -> None:
    """Log (in ``logs[0]``, the current test's log) every request over the network that is not to ``base_url``;
    the browser sends none of them anywhere (NOWHERE)."""

    def note(request: object) -> None:
        url = request.url  # type: ignore[attr-defined]
        if url.split(":", 1)[0] in NETWORK_SCHEMES and not url.startswith(base_url):
            logs[0].external.append(url)

    context.on("request", note)  # type: ignore[attr-defined]


def _icon(message: object) -> bool:
    """Whether a console error is Chromium's own request for /favicon.ico, made for a document that names no icon
    (the JSON file ``warm_page`` empties storage from; the site's pages name theirs)."""
    return str(message.location.get("url", "")).endswith("/favicon.ico")  # type: ignore[attr-defined]


def _watch(page: object, logs: list[PageLog]) -> None:
    """Console errors, uncaught exceptions and dialogs go to ``logs[0]`` (the current test's log)."""
    page.on("console", lambda m: logs[0].errors.append(m.text) if m.type == "error" and not _icon(m) else None)  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: logs[0].errors.append(f"uncaught: {e}"))  # type: ignore[attr-defined]
    # An alert, confirm or prompt means a payload ran: it fails the test like an error.
    page.on("dialog", lambda d: (logs[0].errors.append(f"dialog: {d.message}"), d.dismiss()))  # type: ignore[attr-defined]
    page.set_default_timeout(60_000)  # type: ignore[attr-defined]


#: Page methods whose effect outlasts a navigation: a tab a test called one of them on is not handed on.
LASTING = ("add_init_script", "route", "route_from_har", "route_web_socket", "unroute", "unroute_all", "on", "once",
           "expose_function", "expose_binding", "set_extra_http_headers", "set_viewport_size", "emulate_media",
           "add_locator_handler", "set_default_timeout", "set_default_navigation_timeout")


def _note_lasting(page: object) -> None:
    """Wrap the page's LASTING methods so that calling one marks the tab ``_regime_lasting``."""

    def wrapped(original: Callable[..., object]) -> Callable[..., object]:
        def call(*args: object, **kwargs: object) -> object:
            page._regime_lasting = True  # type: ignore[attr-defined]
            return original(*args, **kwargs)
        return call

    for name in LASTING:
        setattr(page, name, wrapped(getattr(page, name)))


def open_page(browser: object, base_url: str, log: PageLog, **context_options: object) -> object:
    """A fresh browser context and page (empty caches: Python starts from nothing); every request for another
    host goes nowhere, and every request not to ``base_url`` is logged."""
    context = browser.new_context(service_workers="block", **context_options)  # type: ignore[attr-defined]
    _guard(context, base_url, [log])
    page = context.new_page()
    _watch(page, [log])
    return page


@dataclass
class WarmContext:
    """One browser context for every ``page``: its HTTP cache and Cache Storage (Python's memory
    snapshot) carry over, so after the first test Python is restored in well under a second instead
    of started. ``logs[0]`` is the current test's log. A test that closes it gets a new one.

    A tab a test leaves as it found it (open, and no LASTING method called) waits on ``about:blank``
    for the next test: a new tab costs a renderer process, more than the page it then loads.
    """

    browser: object
    base_url: str
    logs: list[PageLog] = field(default_factory=lambda: [PageLog()])
    context: object = None
    spare: object = None

    def new_page(self) -> object:
        """A new tab in the context, which is made (again) when there is none or it was closed."""
        if self.context is not None:
            try:
                return self.context.new_page()  # type: ignore[attr-defined]
            except Exception:  # noqa: BLE001 (closed by a test: Playwright's errors have no narrower type)
                self.context = None
        self.context = self.browser.new_context(service_workers="block")  # type: ignore[attr-defined]
        _guard(self.context, self.base_url, self.logs)
        return self.context.new_page()  # type: ignore[attr-defined]

    def take_page(self) -> object:
        """The tab the last test left clean, or a new one; either logs to ``logs[0]``."""
        page, self.spare = self.spare, None
        if page is not None and not page.is_closed():  # type: ignore[attr-defined]
            return page
        page = self.new_page()
        _watch(page, self.logs)
        _note_lasting(page)
        return page

    def release(self, page: object) -> None:
        """After a test: keep ``page`` for the next one if it is as it was handed out, else close it.

        It leaves its page first (anything that page logs as it goes still counts for this test).
        """
        if page.is_closed():  # type: ignore[attr-defined]
            return
        if getattr(page, "_regime_lasting", False) or self.spare is not None:
            page.close()  # type: ignore[attr-defined]
            return
        try:
            page.goto("about:blank")  # type: ignore[attr-defined]
            if getattr(page, "_regime_put_back", False):  # page_as's palette and width, as a new tab has them
                page.emulate_media(color_scheme="light")  # type: ignore[attr-defined]
                page.set_viewport_size({"width": 1280, "height": 720})  # type: ignore[attr-defined]
                page._regime_lasting = page._regime_put_back = False  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 (a tab that cannot leave its page is not handed on)
            page.close()  # type: ignore[attr-defined]
            return
        self.spare = page


@pytest.fixture(scope="session")
def warm_context(browser: object, base_url: str) -> Iterator[WarmContext]:
    """The session's warm context (see WarmContext)."""
    warm = WarmContext(browser, base_url)
    yield warm
    if warm.context is not None:
        with contextlib.suppress(Exception):  # already closed
            warm.context.close()  # type: ignore[attr-defined]


def warm_page(warm_context: WarmContext, base_url: str, log: PageLog) -> object:
    """A tab in the warm context (the last test's, if it left it clean), logging to ``log``, with this
    origin's storage emptied."""
    warm_context.logs[0] = log
    page = warm_context.take_page()
    page.goto(base_url + "assets/regime/runtime.json")  # this origin, no scripts: empty what the last test left
    page.evaluate("localStorage.clear(); sessionStorage.clear()")  # type: ignore[attr-defined]
    return page


def dress(page: object, *, color_scheme: str | None = None, viewport: dict[str, int] | None = None) -> None:
    """A palette and a width for a tab fresh from ``warm_page``; WarmContext.release puts both back, so the
    tab still serves the next test (a LASTING call the test makes itself still keeps it from that)."""
    if color_scheme:
        page.emulate_media(color_scheme=color_scheme)  # type: ignore[attr-defined]
    if viewport:
        page.set_viewport_size(viewport)  # type: ignore[attr-defined]
    page._regime_lasting = False  # type: ignore[attr-defined]
    page._regime_put_back = True  # type: ignore[attr-defined]


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


@pytest.fixture
def page(warm_context: WarmContext, base_url: str, page_log: PageLog) -> Iterator[object]:
    """A page in the shared warm context (see warm_page), its site storage emptied; the test fails on any console
    error or attempted external request. A test about starting Python, or one that changes the
    context (routes, permissions), uses ``open_page`` instead."""
    p = warm_page(warm_context, base_url, page_log)
    yield p
    warm_context.release(p)
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
        dress(p, color_scheme=color_scheme, viewport=viewport)
        if permissions:
            p.context.grant_permissions(list(permissions), origin=base_url.rstrip("/"))  # type: ignore[attr-defined]
        opened.append(p)
        return p

    yield open_as
    for p in opened:
        with contextlib.suppress(Exception):  # closed by the test
            warm_context.release(p)
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
