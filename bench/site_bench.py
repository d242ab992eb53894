"""Measure the site in headless Chromium and print a table (median and spread of several runs).

Measures time from navigation to the first widget result, cold and warm cache, and the bytes fetched.

Run with `make bench`. The machine is shared and noisy: read ratios and medians, not single runs.
"""

from __future__ import annotations

import argparse
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from site_server import serve  # noqa: E402


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _build(port: int, out: Path) -> None:
    env = dict(os.environ, SITE_URL=f"http://127.0.0.1:{port}/", NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)], cwd=ROOT, env=env,
                   check=True)


def _first_result(page: object, base: str) -> tuple[float, float, int, int]:
    """Navigate to the drill page and compute a ridge; return (DOMContentLoaded ms, result ms, bytes, requests)."""
    sizes: list[int] = []
    # responseBodySize is -1 or 0 for a cache hit: the sum is what came over the network.
    page.on("requestfinished", lambda r: sizes.append(max(r.sizes()["responseBodySize"], 0)))  # type: ignore[attr-defined]
    start = time.perf_counter()
    page.goto(base + "drill/", wait_until="domcontentloaded")  # type: ignore[attr-defined]
    dom = time.perf_counter()
    explorer = page.locator(".regime-explorer")  # type: ignore[attr-defined]
    explorer.locator('input[name="peak_flops"]').fill("312 TFLOP/s")
    explorer.locator('input[name="bandwidth"]').fill("2.0 TB/s")
    explorer.locator(".regime-explorer__ridge").filter(has_text="156 FLOP/byte").wait_for(timeout=120_000)
    done = time.perf_counter()
    page.wait_for_timeout(200)  # type: ignore[attr-defined]
    return (dom - start) * 1000, (done - start) * 1000, sum(sizes), len(sizes)


def _row(name: str, values: list[float], unit: str) -> str:
    med = statistics.median(values)
    spread = f"{min(values):.0f}–{max(values):.0f}"
    return f"| {name} | {med:,.0f} {unit} | {spread} | {len(values)} |"


def main() -> None:
    """Build, serve, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    port = _port()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = Path(tmp) / "site"
        _build(port, site)
        cold: list[tuple[float, float, int, int]] = []
        warm: list[tuple[float, float, int, int]] = []
        with serve(site, port) as base:
            for run in range(args.runs):
                # A fresh profile with a disk cache, as a real browser has: first visit cold, second warm.
                context = pw.chromium.launch_persistent_context(
                    Path(tmp) / f"profile-{run}", executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                cold.append(_first_result(context.new_page(), base))
                warm.append(_first_result(context.new_page(), base))
                context.close()
    print(f"Site benchmark, {time.strftime('%Y-%m-%d')}, {platform.machine()} {os.cpu_count()} CPUs,"
          f" Python {platform.python_version()}, {args.runs} runs each\n")
    print("| measure | median | spread (min–max) | runs |")
    print("| --- | --- | --- | --- |")
    for label, runs in (("cold", cold), ("warm", warm)):
        print(_row(f"{label}: navigation → DOMContentLoaded", [r[0] for r in runs], "ms"))
        print(_row(f"{label}: navigation → first widget result (ridge from Pyodide)", [r[1] for r in runs], "ms"))
        print(_row(f"{label}: response bytes (uncompressed, over the network)", [r[2] / 1000 for r in runs], "kB"))
        print(_row(f"{label}: requests", [float(r[3]) for r in runs], ""))
    ratio = statistics.median(r[1] for r in warm) / statistics.median(r[1] for r in cold)
    print(f"\nwarm / cold time to first result: {ratio:.2f}")


if __name__ == "__main__":
    main()
