"""Benchmark the site in headless Chromium and print one table: median and spread of several runs.

Run with `make bench`. Each run uses a fresh browser profile with a disk cache: the first visit is
cold, the second warm. The machine is shared and noisy: read medians and ratios, not single runs.

Measures: navigation to the core ready, beside a bare page that only calls loadPyodide() from the
same files (in a worker, like the site), beside the same drill page starting a bare loadPyodide()
worker instead of the core (what the page costs is in both), and beside markdown-exec's own pyodide
fence on that page, its assets served from local copies (Ace, highlight.js, Pyodide with micropip;
it installs our wheel, then Run gives the same task's result); Largest Contentful Paint of the drill page with
its widgets and without them (no widget script, no Python); each run measures every side back to back,
in alternating order, and the ratios are given per run as well as of the medians; the latency of one
interaction (classify, grade, replot) over 100 calls; bytes fetched before Python starts, and with
it; an instant-navigation click to a result on the next page.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import markdown
import markdown_exec
from playwright.sync_api import BrowserContext, Page, Playwright, Request, Route, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from regime_site.wheel import build_wheel  # noqa: E402
from site_server import Link, serve  # noqa: E402

LCP_SCRIPT = ("window.lcp = 0; new PerformanceObserver((list) => { for (const e of list.getEntries())"
              " window.lcp = e.startTime; }).observe({type: 'largest-contentful-paint', buffered: true});")
RUNTIME_PATHS = ("/assets/pyodide/", "/assets/regime/wheels/", "/assets/regime/runtime.json", "worker.js")
WIDGET_SCRIPT = '<script src="../assets/regime/main.js" type="module"></script>'
STRETCH = {"hardware": {"id": "h100-sxm"}, "work": {"kernel": "matmul", "m": "4096", "n": "4096", "k": "4096"}}


#: (label, numerator, denominator, target) for the ratio table.
RATIOS = (
    ("core ready / bare loadPyodide()", "core_ready_ms", "bare_ready_ms", "≤ 1.10"),
    ("core ready / loadPyodide() on the same page", "core_ready_ms", "floor_ready_ms", "(what the core adds)"),
    ("core ready / markdown-exec's fence, same page", "core_ready_ms", "fence_ready_ms", "< 1"),
    ("snapshot experiment / bare", "snapshot_ready_ms", "bare_ready_ms", "< 1"),
    ("LCP with widgets / without", "lcp_ms", "lcp_no_widgets_ms", "≤ 1.05"),
)


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _build(port: int, out: Path) -> None:
    env = dict(os.environ, SITE_URL=f"http://127.0.0.1:{port}/", NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)], cwd=ROOT, env=env,
                   check=True)


def without_widgets(html: str) -> str:
    """The drill page without its widgets: the widget script and the head script that starts Python."""
    start = re.search(r'<script id="regime-python-start">.*?</script>', html, flags=re.S)
    if not start or WIDGET_SCRIPT not in html:
        raise SystemExit("bench: the drill page no longer has the head start script or the widget script")
    return html.replace(WIDGET_SCRIPT, "").replace(start.group(0), "")


#: The npm package's runtime files as it ships them (the whole standard library and lock file): the
#: baselines load these; the site serves trimmed ones (src/regime_site/stdlib.py).
NPM_PYODIDE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def _npm_pyodide(site: Path) -> str:
    """Serve the npm package's Pyodide, untrimmed, once; return its path from the site root.

    It goes under assets/pyodide/, so it gets the same headers as the site's (cached for a year).
    """
    target = site / "assets/pyodide/bench-npm"
    if not target.exists():
        target.mkdir(parents=True)
        for name in NPM_PYODIDE:
            shutil.copy(ROOT / "node_modules/pyodide" / name, target / name)
    return "assets/pyodide/bench-npm/"


def _write_baselines(site: Path) -> None:
    """The floor (bare loadPyodide in a worker), the same on the drill page, and markdown-exec's fence there."""
    manifest = json.loads((site / "assets/regime/runtime.json").read_text())
    index = _npm_pyodide(site)
    wheel = "assets/regime/" + manifest["wheel"]
    (site / "bench-bare-worker.js").write_text(
        f'import {{ loadPyodide }} from "./{index}pyodide.mjs";\n'
        f'await loadPyodide({{ indexURL: new URL("./{index}", import.meta.url).href }});\npostMessage("ready");\n')
    (site / "bench-bare.html").write_text(
        "<!doctype html><title>bare</title><p>bare loadPyodide()</p><script type=module>"
        "const w = new Worker('bench-bare-worker.js', {type: 'module'});"
        "w.onmessage = () => { window.readyAt = performance.now(); };</script>")
    # The other two run on the drill page itself, as served, with its widget script and head start
    # taken out: what the page costs (parsing, style, Material's script) is in all three.
    drill = (site / "drill/index.html").read_text()
    if "</article>" not in drill:
        raise SystemExit("bench: the drill page has no article")
    plain = without_widgets(drill)
    # The floor on this page: a bare loadPyodide() worker, started when the site starts its own
    # (from the head, at the first contentful paint).
    (site / "drill-floor").mkdir()
    (site / "drill-floor/index.html").write_text(plain.replace("</title>", (
        "</title><script>new PerformanceObserver((list, observer) => {"
        " if (!list.getEntriesByName('first-contentful-paint').length) return; observer.disconnect();"
        " new Worker('../bench-bare-worker.js', {type: 'module'}).onmessage ="
        " () => { window.readyAt = performance.now(); }; }).observe({type: 'paint', buffered: true});</script>"), 1))
    (site / "drill-fence").mkdir()
    (site / "drill-fence/index.html").write_text(_fence_page(site, plain, "/" + wheel))


#: The local copies of markdown-exec's fence assets (npm packages pinned in package.json at the
#: versions the fence names), served under fence-assets/, and which CDN URL each one stands for.
FENCE_COPIES = ("node_modules/ace-builds/src-min-noconflict", "node_modules/@highlightjs/cdn-assets/highlight.min.js",
                "node_modules/highlightjs-themes/tomorrow.css", "node_modules/highlightjs-themes/tomorrow-night-blue.css")
FENCE_URLS = {
    "https://cdnjs.cloudflare.com/ajax/libs/ace/1.16.0/ace.js": "src-min-noconflict/ace.js",
    "https://cdnjs.cloudflare.com/ajax/libs/highlight.js/11.7.0/highlight.min.js": "highlight.min.js",
    "https://cdn.jsdelivr.net/npm/highlightjs-themes@1.0.0/tomorrow.min.css": "tomorrow.css",
    "https://cdn.jsdelivr.net/npm/highlightjs-themes@1.0.0/tomorrow-night-blue.min.css": "tomorrow-night-blue.css",
}
FENCE_TASK = 'from regime_core.bridge.api import handle\nprint(handle(\'{"op": "ridge", "hardware": {"id": "h100-sxm"}}\'))'


def _fence_pyodide(site: Path) -> str:
    """A copy of the npm package's Pyodide with pyodide.js and micropip, which the fence loads first thing."""
    source, target = site / _npm_pyodide(site), site / "fence-pyodide"
    shutil.copytree(source, target)
    shutil.copy(ROOT / "node_modules/pyodide/pyodide.js", target)
    lock = json.loads((target / "pyodide-lock.json").read_text())
    entry = lock["packages"]["micropip"]
    cache = ROOT / "bench/.cache"
    if not (cache / entry["file_name"]).exists():  # the npm package ships no wheels; PyPI has this one
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "--python-version", lock["info"]["python"], f"micropip=={entry['version']}", "-d", str(cache)],
                       check=True)
    data = (cache / entry["file_name"]).read_bytes()
    (target / entry["file_name"]).write_bytes(data)
    entry["sha256"] = hashlib.sha256(data).hexdigest()  # PyPI's build, not Pyodide's: same version
    (target / "pyodide-lock.json").write_text(json.dumps(lock))
    return "../fence-pyodide/pyodide.js"


def _fence_page(site: Path, plain: str, wheel_path: str) -> str:
    """The drill page with markdown-exec's own pyodide fence where it would be (in the article).

    The fence is rendered by markdown-exec, its CDN assets swapped for local copies; it installs our
    wheel (``install=``) and the harness presses Run once the editor is ready, like a reader would.
    """
    (site / "fence-assets").mkdir()
    for path in FENCE_COPIES:
        source = ROOT / path
        (shutil.copytree if source.is_dir() else shutil.copy)(source, site / "fence-assets" / source.name)
    pyodide_js = _fence_pyodide(site)
    md = markdown.Markdown(extensions=["pymdownx.superfences"], extension_configs={"pymdownx.superfences": {
        "custom_fences": [{"name": "pyodide", "class": "pyodide", "validator": markdown_exec.validator,
                           "format": markdown_exec.formatter}]}})
    version = json.loads((ROOT / "node_modules/pyodide/package.json").read_text())["version"]
    fence = md.convert(f'```pyodide install="{wheel_path}" version="{version}"\n{FENCE_TASK}\n```')
    fence = fence.replace(f"https://cdn.jsdelivr.net/pyodide/v{version}/full/pyodide.js", pyodide_js)
    for url, path in FENCE_URLS.items():
        fence = fence.replace(url, f"../fence-assets/{path}")
    if "https://" in fence.replace("http://www.w3.org/2000/svg", ""):
        raise SystemExit("bench: markdown-exec's fence names an asset with no local copy")
    # markdown-exec's plugin adds its own pyodide.css and pyodide.js to every page (extra_css/_javascript).
    assets = Path(markdown_exec.__file__).parent / "assets"
    for name in ("pyodide.css", "pyodide.js"):
        shutil.copy(assets / name, site / "assets" / f"_markdown_exec_{name}")
    harness = ("<script type=module>const output = document.querySelector('.pyodide-output');"
               "const run = document.querySelector('.pyodide-editor-bar [id$=\"run\"]'); let pressed = false;"
               "new MutationObserver(() => { if (!pressed && run.onclick) { pressed = true; run.click(); }"
               " else if (pressed && output.textContent.includes('\"ok\": true')) window.readyAt = performance.now(); })"
               ".observe(output, {childList: true, characterData: true, subtree: true});</script>")
    return (plain.replace("</head>", '<link rel="stylesheet" href="../assets/_markdown_exec_pyodide.css"></head>', 1)
            .replace("</article>", fence + "</article>", 1)
            .replace("</body>", '<script src="../assets/_markdown_exec_pyodide.js"></script>' + harness + "</body>", 1))


def _write_snapshot_page(site: Path, tmp: Path) -> None:
    """Beat-the-floor experiment: the interpreter restored from a memory snapshot with the core imported."""
    name, data = build_wheel()
    (tmp / name).write_bytes(data)
    subprocess.run(["node", str(ROOT / "bench/make_snapshot.mjs"), str(tmp / name), str(site / "bench-snapshot.bin")],
                   cwd=ROOT, check=True)
    index = _npm_pyodide(site)  # make_snapshot.mjs runs the npm package's Pyodide, whole standard library
    (site / "bench-snapshot-worker.js").write_text(
        f'import {{ loadPyodide }} from "./{index}pyodide.mjs";\n'
        'const snapshot = new Uint8Array(await (await fetch("bench-snapshot.bin")).arrayBuffer());\n'
        f'const py = await loadPyodide({{ indexURL: new URL("./{index}", import.meta.url).href,'
        ' _loadSnapshot: snapshot });\n'
        'py.pyimport("regime_core.bridge.api").handle(\'{"op": "ridge", "hardware": {"id": "l4"}}\');\npostMessage("ready");\n')
    (site / "bench-snapshot.html").write_text(
        "<!doctype html><title>snapshot</title><p>snapshot</p><script type=module>"
        "const w = new Worker('bench-snapshot-worker.js', {type: 'module'});"
        "w.onmessage = () => { window.readyAt = performance.now(); };</script>")


def _wait_ready(page: Page, expression: str, *, seconds: float = 30, step_ms: int = 25) -> float:
    """``expression``'s first truthy value, polled every ``step_ms`` for at most ``seconds``."""
    for _ in range(int(seconds * 1000 / step_ms)):
        value = page.evaluate(expression)
        if value:
            return float(value)
        page.wait_for_timeout(step_ms)
    raise TimeoutError(expression)


def visit_core(page: Page, base: str) -> dict[str, float]:
    """The drill page: core ready, and bytes before and with Python."""
    finished: list[Request] = []
    # Sizes are read after the fact: asking the browser for them while the page loads takes CPU
    # from it that the baselines do not pay. (A lambda: Playwright cannot wrap a builtin method.)
    page.on("requestfinished", lambda request: finished.append(request))  # noqa: PLW0108
    page.goto(base + "drill/")
    ready = _wait_ready(page, "window.regimeWidgets && window.regimeWidgets.python.readyAt()")
    # Let the first visit keep its snapshot, as a reader who stays on the page would.
    _wait_ready(page, "caches.open('regime-python-snapshot').then((c) => c.keys()).then((k) => k.length)")
    sizes = [(r.url, max(r.sizes()["responseBodySize"], 0)) for r in finished]
    before = sum(n for url, n in sizes if not any(p in url for p in RUNTIME_PATHS))
    return {"core_ready_ms": ready, "kb_before_python": before / 1000, "kb_with_python": sum(n for _, n in sizes) / 1000}


def visit_baseline(page: Page, url: str) -> float:
    """A baseline page: milliseconds from navigation to its ready mark."""
    page.goto(url)
    return _wait_ready(page, "window.readyAt")


def visit_lcp(page: Page, base: str, *, widgets: bool) -> dict[str, float]:
    """LCP of the drill page, with its widgets or without them (the widget script and Python's start).

    Both sides are served the same way (through the same route) and watched the same way.
    """
    def serve_page(route: Route) -> None:
        response = route.fetch()
        text = response.text()
        route.fulfill(response=response, body=text if widgets else without_widgets(text))

    page.route(base + "drill/", serve_page)
    page.add_init_script(LCP_SCRIPT)
    page.goto(base + "drill/")
    page.wait_for_timeout(1500)
    return {"lcp_ms" if widgets else "lcp_no_widgets_ms": float(page.evaluate("window.lcp"))}


def interactions(page: Page, count: int) -> dict[str, list[float]]:
    """Round trips through the bridge after ready, per kind of interaction."""
    calls = {
        "classify": ("kernel", STRETCH),
        "grade": ("grade", {"items": {"a1": {"regime": "compute", "evidence": "70%", "helps": "fp8"}}}),
        "replot": ("explore", {"item": "a3", "form": {"hardware": {"id": "h100-sxm"}, "work": {"shape": "8x64x64"}}}),
    }
    out = {}
    for name, (op, payload) in calls.items():
        out[name] = page.evaluate(
            "async ([op, payload, count]) => { const times = [];"
            " for (let i = 0; i < count; i++) { const t = performance.now();"
            " const r = await window.regimeWidgets.python.call(op, payload);"
            " if (!r.ok) throw new Error(r.error); times.push(performance.now() - t); } return times; }",
            [op, payload, count])
    return out


def navigation_to_result(context: BrowserContext, base: str) -> float:
    """Instant navigation from the lesson to the drill, with Python already warm, until the ridge table shows."""
    page = context.new_page()
    page.add_init_script("localStorage.setItem('regime-drill', JSON.stringify({schema: 1, items: {'part-b':"
                         " {attempt: {ridge: '156'}, unlocked: true, at: ''}}}))")
    page.goto(base + "lesson/")
    page.evaluate("window.regimeWidgets.python.call('gpus').then(() => true)")
    start = time.perf_counter()
    page.locator(".md-nav--primary").get_by_role("link", name="Drill", exact=True).first.click()
    page.locator(".regime-explorer__table").wait_for()
    elapsed = (time.perf_counter() - start) * 1000
    page.close()
    return elapsed


def _profile(pw: Playwright, path: Path) -> BrowserContext:
    return pw.chromium.launch_persistent_context(path, executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def _cpu_busy(window_s: float) -> float:
    """The fraction of all CPUs busy over the next window_s seconds (Linux /proc/stat)."""
    def sample() -> tuple[int, int]:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return sum(fields), fields[3] + fields[4]  # total, idle + iowait

    total0, idle0 = sample()
    time.sleep(window_s)
    total1, idle1 = sample()
    return 1 - (idle1 - idle0) / max(total1 - total0, 1)


def _settle(limit_s: float = 5.0) -> None:
    """Wait until the machine is quiet (at most limit_s).

    A closed browser goes on writing its caches for a while; the next visit, whichever side it
    measures, would share the cores with it.
    """
    if not Path("/proc/stat").exists():
        time.sleep(1.0)
        return
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline and _cpu_busy(0.25) > 0.2:
        pass


def _stats(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


def run(runs: int, calls: int, network_runs: int = 0) -> dict[str, list[float]]:
    """Every measurement: name -> values."""
    port = _port()
    rows: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        rows.setdefault(name, []).append(value)

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = Path(tmp) / "site"
        _build(port, site)
        _write_baselines(site)
        _write_snapshot_page(site, Path(tmp))
        with serve(site, port) as base:
            for run_index in range(runs):
                for kind in ("cold", "warm"):
                    profile = Path(tmp) / f"p{run_index}"
                    # The page without widgets sits next to the page with them, in either order.
                    visits = [("core", lambda p: visit_core(p, base)),
                              ("lcp", lambda p: visit_lcp(p, base, widgets=True)),
                              ("nowidgets", lambda p: visit_lcp(p, base, widgets=False)),
                              ("bare", lambda p: visit_baseline(p, base + "bench-bare.html")),
                              ("floor", lambda p: visit_baseline(p, base + "drill-floor/")),
                              ("fence", lambda p: visit_baseline(p, base + "drill-fence/")),
                              ("snapshot", lambda p: visit_baseline(p, base + "bench-snapshot.html"))]
                    if run_index % 2:  # alternate the order, so neither side always runs first
                        visits.reverse()
                    for label, visit in visits:
                        context = _profile(pw, profile / label)
                        if kind == "warm":  # prime the cache, then measure the second visit
                            primer = context.new_page()
                            visit(primer)
                            primer.close()  # or its Python, still starting, would share the cores
                        result = visit(context.new_page())
                        context.close()
                        _settle()
                        if isinstance(result, dict):
                            for key, value in result.items():
                                add(f"{kind} {key}", value)
                        else:
                            add(f"{kind} {label}_ready_ms", result)
                        # a fresh profile for the next label, so cold stays cold
            context = _profile(pw, Path(tmp) / "interactions")
            page = context.new_page()
            page.goto(base + "drill/")
            _wait_ready(page, "window.regimeWidgets.python.readyAt()")
            for name, values in interactions(page, calls).items():
                rows[f"interaction {name} ms"] = values
            for _ in range(runs):
                add("instant navigation click to result ms", navigation_to_result(context, base))
            context.close()
        if network_runs:
            rows.update(network(pw, site, network_runs))
    return rows


#: Network profiles: (bytes/s, seconds of round trip). Served by tests/site_server.py: gzip like
#: Netlify's on-the-fly compression (text and wasm; the zip as it is), one shared line for all
#: connections, one round trip before each response (as on a kept-alive HTTP/2 connection; no TLS).
PROFILES = {"broadband (10 Mbit/s, 40 ms)": (10e6 / 8, 0.040), "slow mobile (1.6 Mbit/s, 150 ms)": (1.6e6 / 8, 0.150)}
FIRST_RESULT = ("window.regimeWidgets && window.regimeWidgets.python.readyAt() &&"
                " window.regimeWidgets.python.call('ridge', {hardware: {id: 'l4'}}).then((r) => r.ok && performance.now())")


def _first_result(page: Page, url: str, expression: str) -> float:
    """Milliseconds from navigation to ``expression``'s truthy value, waiting as long as the link needs."""
    page.goto(url, timeout=300_000)
    return _wait_ready(page, expression, seconds=300, step_ms=50)


def network(pw: Playwright, site: Path, runs: int) -> dict[str, list[float]]:
    """Per profile, cold and warm: the site's first result beside the bare loadPyodide() page's ready.

    Each side has the milliseconds from navigation and the bytes the server sent until then (compressed).
    """
    rows: dict[str, list[float]] = {}
    sides = (("site first result", "drill/", FIRST_RESULT), ("bare loadPyodide() ready", "bench-bare.html", "window.readyAt"))
    with tempfile.TemporaryDirectory() as tmp:
        for profile, (rate, rtt) in PROFILES.items():
            link = Link(rate=rate, latency=rtt)
            with serve(site, link=link) as base:
                for run_index in range(runs):
                    order = sides if run_index % 2 == 0 else tuple(reversed(sides))
                    for label, path, expression in order:
                        context = _profile(pw, Path(tmp) / f"{profile}-{run_index}-{label}")
                        for kind in ("cold", "warm"):
                            link.sent = 0
                            page = context.new_page()
                            ms = _first_result(page, base + path, expression)
                            kb = link.sent / 1000
                            if kind == "cold":  # let the site keep its snapshot, as a reader who stays would
                                page.wait_for_timeout(1000)
                            page.close()
                            rows.setdefault(f"{profile} {kind}: {label} ms", []).append(ms)
                            rows.setdefault(f"{profile} {kind}: {label} KB", []).append(kb)
                        context.close()
                        _settle()
    return rows


def print_network(rows: dict[str, list[float]]) -> None:
    """The network table: medians side by side, and the ratios the targets are about."""
    print("\n| profile | visit | site: first result ms | bare: ready ms | time ratio | site KB | bare KB | bytes ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for profile in PROFILES:
        for kind in ("cold", "warm"):
            cell = {key: statistics.median(rows[f"{profile} {kind}: {key}"]) for key in (
                "site first result ms", "bare loadPyodide() ready ms", "site first result KB", "bare loadPyodide() ready KB")}
            site_ms, bare_ms, site_kb, bare_kb = cell.values()
            print(f"| {profile} | {kind} | {site_ms:,.0f} | {bare_ms:,.0f} | {site_ms / bare_ms:.2f} |"
                  f" {site_kb:,.0f} | {bare_kb:,.0f} | {f'{site_kb / bare_kb:.2f}' if bare_kb else '—'} |")
    print("\nTargets (cold): time ratio ≤ 0.8 on slow mobile, ≤ 1.0 on broadband; bytes ratio ≤ 0.70.")


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--network-runs", type=int, default=3, help="runs per network profile (0: none)")
    parser.add_argument("--network-only", action="store_true", help="only the network profiles")
    args = parser.parse_args()
    if args.network_only:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
            site = Path(tmp) / "site"
            _build(_port(), site)
            _write_baselines(site)
            print(f"Network profiles, {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} CPUs,"
                  f" Chromium headless, {args.network_runs} runs")
            print_network(network(pw, site, args.network_runs))
        return
    rows = run(args.runs, args.calls, args.network_runs)
    med: Callable[[str], float] = lambda name: statistics.median(rows[name])  # noqa: E731
    print(f"Site benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} CPUs,"
          f" Chromium headless, {args.runs} runs (interactions: {args.calls} calls)\n")
    print("| measure | median | min | max | p95 |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, values in rows.items():
        median, low, high = _stats(values)
        p95 = f"{statistics.quantiles(values, n=20)[-1]:,.1f}" if len(values) >= 20 else ""
        print(f"| {name} | {median:,.1f} | {low:,.1f} | {high:,.1f} | {p95} |")
    print("\n| ratio | cold: of medians | cold: per run, median (min–max) | warm: of medians"
          " | warm: per run, median (min–max) | target |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for label, top, bottom, target in RATIOS:
        cells = []
        for kind in ("cold", "warm"):
            # Each run measures both sides back to back, so a per-run ratio cancels the machine's drift.
            paired = [a / b for a, b in zip(rows[f"{kind} {top}"], rows[f"{kind} {bottom}"], strict=True)]
            cells += [f"{med(f'{kind} {top}') / med(f'{kind} {bottom}'):.2f}",
                      f"{statistics.median(paired):.2f} ({min(paired):.2f}–{max(paired):.2f})"]
        print(f"| {label} | {' | '.join(cells)} | {target} |")
    if any(name.startswith(tuple(PROFILES)) for name in rows):
        print_network(rows)

if __name__ == "__main__":
    main()
