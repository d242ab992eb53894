"""Serve a built site on localhost with the headers netlify.toml declares."""

from __future__ import annotations

import fnmatch
import functools
import http.server
import threading
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent.parent


def netlify_headers(path: Path = ROOT / "netlify.toml") -> list[tuple[str, dict[str, str]]]:
    """(pattern, headers) pairs from netlify.toml, in file order."""
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    return [(rule["for"], dict(rule["values"])) for rule in config.get("headers", [])]


class _Handler(http.server.SimpleHTTPRequestHandler):
    rules: ClassVar[list[tuple[str, dict[str, str]]]] = []
    rewrite: Callable[[str, dict[str, str]], dict[str, str]] | None = None

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
          rewrite: Callable[[str, dict[str, str]], dict[str, str]] | None = None) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1; yield the base URL."""
    handler = type("Handler", (_Handler,), {"rules": netlify_headers(), "rewrite": staticmethod(rewrite) if rewrite else None})
    server = _Server(("127.0.0.1", port), functools.partial(handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
