"""CPU-seconds a page load costs in headless Chromium, the search index built at the first search or on every load.

The site ships the first (``regime-search.js``); Material's own worker does the second. Prints one table.

Each side is the same build: the eager side's pages name Material's worker where ours name ``regime-search.js``.
One browser per side and round; after a priming load (Python's snapshot stored, caches warm), ``--loads`` loads of
the page, each until the network is idle and a second more. The CPU is every Chromium process's time, threads
that ended and children reaped included (``/proc``: utime + stime + cutime + cstime). The sides alternate;
medians over ``--runs`` rounds, and the ratio per round.

    .venv/bin/python bench/page_cpu_bench.py --runs 5
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import CHROMIUM, CHROMIUM_ARGS, build_site, free_port  # noqa: E402
from site_server import serve  # noqa: E402

LAZY, EAGER = "workers/regime-search.js?worker=search.", "workers/search."
TICK = os.sysconf("SC_CLK_TCK")


def chromium_cpu() -> float:
    """CPU-seconds of every live Chromium process, with the children each has reaped."""
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0", 1)[0]
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:  # ended meanwhile
            continue
        if b"chromium" in command:
            fields = stat[stat.rindex(")") + 2:].split()
            total += sum(int(value) for value in fields[11:15]) / TICK
    return total


def eager_copy(site: Path, out: Path) -> None:
    """``site`` with every page naming Material's search worker itself."""
    shutil.copytree(site, out)
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if LAZY in text:
            page.write_text(text.replace(LAZY, EAGER), encoding="utf-8")


def cpu_per_load(site: Path, path: str, loads: int) -> float:
    """CPU-seconds per load of ``path`` after a priming one, in a browser of its own."""
    with serve(site) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(service_workers="block").new_page()
        page.goto(url + path)
        page.wait_for_load_state("networkidle")
        time.sleep(3)  # Python's snapshot is stored after the first start
        before = chromium_cpu()
        for _ in range(loads):
            page.goto(url + path)
            page.wait_for_load_state("networkidle")
            time.sleep(1)
        spent = chromium_cpu() - before
        browser.close()
    return spent / loads


def main() -> None:
    """Build, copy, measure in turn, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--loads", type=int, default=6)
    parser.add_argument("--pages", nargs="+", default=["lesson/", "drill/"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lazy, eager = Path(tmp) / "lazy", Path(tmp) / "eager"
        failed = build_site(lazy, free_port())  # the tests' build; pages link relatively, so any port will do
        if failed:
            raise SystemExit(failed)
        eager_copy(lazy, eager)
        rows = []
        for path in args.pages:
            seen: dict[str, list[float]] = {"lazy": [], "eager": []}
            for run in range(args.runs):
                for side in (("lazy", "eager") if run % 2 else ("eager", "lazy")):
                    seen[side].append(cpu_per_load(lazy if side == "lazy" else eager, path, args.loads))
            ratios = [a / b for a, b in zip(seen["lazy"], seen["eager"], strict=True)]
            rows.append((path, statistics.median(seen["eager"]), statistics.median(seen["lazy"]),
                         statistics.median(ratios), min(ratios), max(ratios)))
    print(f"CPU-seconds per load, Chromium headless, {platform.machine()}, {os.cpu_count()} CPUs; "
          f"{args.runs} runs of {args.loads} loads each side, in turn; medians\n")
    print("| page | index built on every load | at the first search | ratio per run, median (min–max) |")
    print("| --- | ---: | ---: | ---: |")
    for path, eager_s, lazy_s, ratio, low, high in rows:
        print(f"| /{path} | {eager_s:.2f} | {lazy_s:.2f} | {ratio:.2f} ({low:.2f}–{high:.2f}) |")


if __name__ == "__main__":
    main()
