"""The Mentor page on a class of 200 attempt files, against ``regime grade`` on the same folder.

Builds the site, serves it from this machine, and in Debian's headless Chromium drops the files on the Mentor page
(Python already started: one file is dropped first), timing from the drop to the report on screen; the command line
is timed from its start to its exit. Several runs a side, in turn; prints the medians and their ratio (issue 45
asks for the page within 30 s). The class is bench/class_bench.py's: the learner corpus dealt into files.

    .venv/bin/python bench/mentor_page_bench.py [--files 200] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from class_bench import _files  # one class for both benchmarks

ROOT = Path(__file__).resolve().parent.parent


def _serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """The built site from a server of its own (in this process, its thread starves while Playwright waits)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=folder,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return server, f"http://127.0.0.1:{port}/"


def main() -> int:
    """Build, serve, time both sides in turn; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        folder = work / "class"
        folder.mkdir()
        paths = []
        for n, data in enumerate(_files(args.files)):
            paths.append(folder / f"learner-{n:03}.json")
            paths[-1].write_text(json.dumps(data), encoding="utf-8")
        (work / "site").mkdir()
        server, url = _serve(work / "site")
        env = {**os.environ, "SITE_URL": url, "NO_MKDOCS_2_WARNING": "1"}
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(work / "site")], cwd=ROOT, env=env,
                       check=True)
        time.sleep(0.5)
        page_times, cli_times = [], []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page()
            page.goto(url + "mentor/")
            files = page.locator('.regime-mentor input[type="file"]')
            files.set_input_files([str(paths[0])])  # Python started, as a mentor's second drop finds it
            page.locator('.regime-mentor__result[data-state="done"]').wait_for(timeout=180_000)
            for _ in range(args.runs):
                files.set_input_files([])  # the same files chosen again would fire no change
                page.evaluate("() => { const r = document.querySelector('.regime-mentor__result');"
                              " r.replaceChildren(); delete r.dataset.state; }")
                start = time.perf_counter()
                files.set_input_files([str(path) for path in paths])
                page.locator('.regime-mentor__result[data-state="done"] table').wait_for(timeout=300_000)
                page_times.append(time.perf_counter() - start)
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "regime_core", "grade", str(folder), "--json"],
                               capture_output=True, check=True)
                cli_times.append(time.perf_counter() - start)
            browser.close()
        server.terminate()
    a, b = statistics.median(page_times), statistics.median(cli_times)
    print(f"| files | page (s) | command line (s) | page ÷ command line |\n| ---: | ---: | ---: | ---: |\n"
          f"| {args.files} | {a:.1f} | {b:.1f} | {a / b:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
