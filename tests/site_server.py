"""Serve a built site on localhost with the headers netlify.toml declares; optionally like a slow
link (gzip, as Netlify sends it, at a fixed rate shared by all connections) or one that stalls."""

from __future__ import annotations

import email.utils
import fnmatch
import functools
import gzip
import http.server
import threading
import time
import tomllib
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, ClassVar

ROOT = Path(__file__).resolve().parent.parent


def netlify_headers(path: Path = ROOT / "netlify.toml") -> list[tuple[str, dict[str, str]]]:
    """(pattern, headers) pairs from netlify.toml, in file order."""
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    return [(rule["for"], dict(rule["values"])) for rule in config.get("headers", [])]


#: What the slow path compresses (Netlify compresses text and wasm; a zip is compressed already).
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".svg", ".wasm", ".txt", ".xml")
CHUNK = 16 * 1024


class Throttle:
    """A shared link of ``rate`` bytes/s: every connection's chunks queue for the same line."""

    def __init__(self, rate: float) -> None:
        """A link that carries ``rate`` bytes per second, all connections together."""
        self.rate = rate
        self._lock = threading.Lock()
        self._free_at = time.monotonic()

    def take(self, size: int) -> None:
        """Wait until ``size`` more bytes have had their turn on the link."""
        with self._lock:
            now = time.monotonic()
            self._free_at = max(now, self._free_at) + size / self.rate
            done = self._free_at
        time.sleep(max(0.0, done - now))


@dataclass
class Link:
    """How the server sends: at ``rate`` bytes/s (None: as fast as it can), each response ``latency``
    seconds after its request (one round trip, as on a kept-alive connection), gzip when asked, and
    the first request for each path ending in one of ``stall`` sends half its body, then nothing until
    ``released`` is set (at shutdown). ``sent`` counts the body bytes it has sent."""

    rate: float | None = None
    latency: float = 0.0
    stall: tuple[str, ...] = ()
    sent: int = 0
    stalled: list[str] = field(default_factory=list)  # the paths that did stall, in order
    released: threading.Event = field(default_factory=threading.Event)
    _gzipped: dict[Path, bytes] = field(default_factory=dict)
    _throttle: Throttle | None = None
    _count: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        """One throttle for every connection."""
        self._throttle = Throttle(self.rate) if self.rate else None

    def gzipped(self, path: Path) -> bytes:
        """``path`` gzipped once (level 6, like a web server's on-the-fly compression)."""
        if path not in self._gzipped:
            self._gzipped[path] = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        return self._gzipped[path]

    def should_stall(self, url_path: str) -> bool:
        """Whether this request is the first for a path that stalls (and note it)."""
        if url_path in self.stalled or not any(url_path.endswith(name) for name in self.stall):
            return False
        self.stalled.append(url_path)
        return True

    def send(self, out: BinaryIO, body: bytes, stall: bool) -> None:
        """Write ``body`` (half of it, then wait, when ``stall``) at the link's rate."""
        end = len(body) // 2 if stall else len(body)
        try:
            for start in range(0, end, CHUNK):
                chunk = body[start:min(start + CHUNK, end)]
                if self._throttle:
                    self._throttle.take(len(chunk))
                out.write(chunk)
                with self._count:
                    self.sent += len(chunk)
            out.flush()
        except (BrokenPipeError, ConnectionResetError):
            return
        if stall:
            self.released.wait()


class _Handler(http.server.SimpleHTTPRequestHandler):
    rules: ClassVar[list[tuple[str, dict[str, str]]]] = []
    rewrite: Callable[[str, dict[str, str]], dict[str, str]] | None = None
    link: Link | None = None

    def do_GET(self) -> None:
        """Files as the link sends them (gzip when the browser accepts it); everything else as usual."""
        url_path = urllib.parse.unquote(self.path.split("?", 1)[0])
        path = Path(self.translate_path(self.path))
        if path.is_dir() and url_path.endswith("/"):
            path = path / "index.html"
        if self.link is None or not path.is_file():
            super().do_GET()  # 404s and folder redirects too
            return
        if self.link.latency:
            time.sleep(self.link.latency)
        modified = email.utils.formatdate(int(path.stat().st_mtime), usegmt=True)
        if self.headers.get("If-Modified-Since") == modified:  # what a browser sends back for a page
            self.send_response(304)
            self.end_headers()
            return
        gzipped = "gzip" in self.headers.get("Accept-Encoding", "") and path.suffix in COMPRESSIBLE
        body = self.link.gzipped(path) if gzipped else path.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", modified)
        self.end_headers()
        self.link.send(self.wfile, body, self.link.should_stall(url_path))

    def end_headers(self) -> None:
        path = self.path.split("?", 1)[0]
        headers: dict[str, str] = {}
        for pattern, values in self.rules:
            if fnmatch.fnmatch(path, pattern):
                headers.update(values)
        if self.rewrite is not None:
            headers = self.rewrite(path, headers)
        for name, value in headers.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """A browser that drops a connection mid-file is normal; stay quiet about it."""


@contextmanager
def serve(site: Path, port: int = 0,
          rewrite: Callable[[str, dict[str, str]], dict[str, str]] | None = None, link: Link | None = None) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 (through ``link``, when given); yield the base URL."""
    handler = type("Handler", (_Handler,), {"rules": netlify_headers(),
                                            "rewrite": staticmethod(rewrite) if rewrite else None, "link": link})
    server = _Server(("127.0.0.1", port), functools.partial(handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        if link is not None:
            link.released.set()
        server.shutdown()
        server.server_close()
