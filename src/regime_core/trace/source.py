"""A trace's text in pieces, from its bytes or its open file: unzipped and decoded as it is read.

Nothing here holds the whole file: a 2 GB trace passes through a few megabytes at a time, so the reader's memory
is what it keeps of the events, not the file's bytes plus their text. A caller that must bound the text (the page:
a browser tab, where a gzip bomb would take the tab down) gives a ``limit``, checked as the pieces come; the command
line and the profiler handler read a trace of any size.
"""

from __future__ import annotations

import codecs
import itertools
import os
import stat
import zlib
from collections.abc import Iterator
from typing import BinaryIO

from regime_core.errors import RegimeError

#: The largest trace the page reads, uncompressed (a browser tab holds this much JSON comfortably).
MAX_TRACE_BYTES = 512 * 2**20
#: Bytes read (or unzipped) at a time: large enough that the per-piece work vanishes, small beside the file.
PIECE = 4 * 2**20
_FIELD = "trace"
#: The stored bytes a format is told by (an SQLite header is 16, a CSV report's header row fits).
HEAD = 4096


class Pieces:
    """The text of a trace, piece by piece (iterate it); ``zipped`` says whether it came gzipped.

    ``limit``: the most bytes of text read, unzipped; None reads all of it.
    """

    def __init__(self, source: bytes | BinaryIO, limit: int | None = None) -> None:
        self.limit = limit
        self._stored: Iterator[bytes]
        if isinstance(source, bytes):
            view = memoryview(source)
            size: int | None = len(source)
            self._stored = (bytes(view[at:at + PIECE]) for at in range(0, len(view), PIECE))
            self.zipped = source[:2] == b"\x1f\x8b"
            self.head = source[:HEAD]
        else:
            try:
                size = os.fstat(source.fileno()).st_size if stat.S_ISREG(os.fstat(source.fileno()).st_mode) else None
            except (OSError, ValueError, AttributeError):  # a pipe, or a file-like object without a descriptor
                size = None
            first = source.read(PIECE)
            while 0 < len(first) < HEAD and (further := source.read(PIECE)):  # enough to tell the format by
                first += further
            self._stored = itertools.chain([first], iter(lambda: source.read(PIECE), b""))
            self.zipped = first[:2] == b"\x1f\x8b"
            self.head = first[:HEAD]
        if limit is not None and size is not None and size > limit and not self.zipped:  # said before a byte is parsed
            raise RegimeError(_FIELD, f"expected {self._most()}, got {size / 2**20:.0f} MB")

    def _most(self) -> str:
        return f"at most {(self.limit or 0) // 2**20} MB of trace here"

    def _json(self) -> Iterator[bytes]:
        """The JSON bytes: as stored, or unzipped, never more than ``limit``."""
        total = 0
        limit = self.limit if self.limit is not None else float("inf")
        raw = self._stored
        if not self.zipped:
            for piece in raw:
                total += len(piece)
                if total > limit:
                    raise RegimeError(_FIELD, f"expected {self._most()}, got more")
                yield piece
            return
        unzip = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            for stored in raw:
                pending = stored
                while pending and not unzip.eof:
                    out = unzip.decompress(pending, PIECE)
                    pending = unzip.unconsumed_tail
                    total += len(out)
                    if total > limit:
                        raise RegimeError(_FIELD, f"expected {self._most()} once unzipped")
                    yield out
                if unzip.eof:
                    break
        except zlib.error as exc:
            raise RegimeError(_FIELD, f"expected a gzipped trace; the file is damaged ({exc})") from None
        if not unzip.eof:
            raise RegimeError(_FIELD, "expected a whole gzipped trace; the file is cut short")

    def whole(self) -> bytes:
        """Every byte (unzipped), within any limit: for a format read whole (an SQLite database, a CSV report)."""
        return b"".join(self._json())

    def __iter__(self) -> Iterator[str]:
        """The JSON text, decoded as UTF-8 (a byte-order mark is skipped) piece by piece."""
        return self.text("expected a JSON trace (UTF-8 text, or gzipped); this file is neither")

    def text(self, refusal: str) -> Iterator[str]:
        """The file's text, decoded as UTF-8 (a byte-order mark is skipped) piece by piece; ``refusal`` where it is not."""
        decode = codecs.getincrementaldecoder("utf-8-sig")().decode
        try:
            for piece in self._json():
                text = decode(piece)
                if text:
                    yield text
            if tail := decode(b"", True):
                yield tail
        except UnicodeDecodeError:
            raise RegimeError(_FIELD, refusal) from None

    def lines(self, refusal: str) -> Iterator[str]:
        """The file's text line by line, each ending in a newline, as ``str.splitlines`` cuts the whole text.

        A line still open at a piece's end (or ending in a carriage return, whose newline may start the next piece)
        waits, its pieces kept apart until one ends it: a file of one long line is joined once, not once a piece.
        """
        pending: list[str] = []
        for piece in self.text(refusal):
            parts = piece.splitlines(keepends=True)
            if len(parts) == 1 and _open(piece):
                pending.append(piece)
                continue
            if pending:  # the line that waited ends in this piece: joined once, and cut again where a "\r" ended it
                parts[:1] = ("".join(pending) + parts[0]).splitlines(keepends=True)
                pending = []
            if _open(parts[-1]):
                pending.append(parts.pop())
            for part in parts:
                yield part.splitlines()[0] + "\n"
        if pending:
            yield from (part.splitlines()[0] + "\n" for part in "".join(pending).splitlines(keepends=True))


def _open(text: str) -> bool:
    """Whether ``text`` (one line of it, maybe) has not ended: no line break at its end, or a lone carriage return."""
    return text.endswith("\r") or text.splitlines()[0] == text
