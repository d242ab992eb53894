"""A trace's JSON read an event at a time, from text that arrives in pieces.

The top level is read key by key (``traceEvents`` may come before or after ``deviceProperties``);
the events of ``traceEvents`` are decoded with the standard library's own decoder, a stretch of a
hundred or so in one call where the text can be cut between two events, and handed on one by one;
only what the reader keeps of each survives. A bare list of events reads the same way. The
reader looks at a window of the text: what it has read is dropped as each piece comes, so neither the
file nor its text ever stands whole in memory.

Each window is checked for nesting before anything in it is decoded (a parser recursing into deep
JSON overflows Pyodide's stack, a fatal error there): it starts between two values, at most two levels
down (five in rocprofv3's records), so its own depth may go that much less than the limit.

rocprofv3's JSON keeps its records four levels down (``rocprofiler-sdk-tool``, a run, ``buffer_records``, a kind of
record): those arrays are read an element at a time too and handed to ``records``; the rest of each run is kept whole.
"""

from __future__ import annotations

import json
import json.scanner
import re
from collections.abc import Callable, Iterable
from typing import Any

from regime_core.errors import RegimeError
from regime_core.resources import MAX_NESTING, too_deep

#: The one key of rocprofv3's JSON output (``rocprofv3 --output-format json``), which holds no traceEvents.
ROCPROF_JSON = "rocprofiler-sdk-tool"


class _Streamed:
    """What a run keeps for a kind of rocprofv3 record whose list was streamed to the reader's ``records``."""

    def __repr__(self) -> str:
        return "STREAMED"


STREAMED = _Streamed()
_FIELD = "trace"
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
# The C scanner raw_decode calls: (value, end), or StopIteration where no value starts. (typeshed asks for a
# make_scanner where it needs only the decoder's attributes.)
_SCAN = json.scanner.make_scanner(_DECODER)  # type: ignore[arg-type]
_BETWEEN = re.compile(r"[ \t\n\r]*([,\]])[ \t\n\r]*")  # after an element: a comma or the array's end


class _Window:
    """The part of the text not yet read, growing a piece at a time; ``line`` and ``column`` place it in the file."""

    def __init__(self, pieces: Iterable[str]) -> None:
        self._pieces = iter(pieces)
        self.text = ""
        self.ended = False
        self.line, self.column = 1, 1  # where text[0] is
        #: How many brackets may be open where the window starts (see the module's docstring).
        self.depth = 2

    def more(self, at: int) -> bool:
        """Drop ``text[:at]`` and read on until the rest at least doubles; False, changing nothing, at the end.

        Doubling keeps a value longer than a piece (a header, a huge event) linear to read.
        """
        rest = len(self.text) - at
        grown: list[str] = []
        size = rest
        while not self.ended and (size < 2 * rest or not grown):
            piece = next(self._pieces, None)
            if piece is None:
                self.ended = True
            else:
                grown.append(piece)
                size += len(piece)
        if not grown:
            return False
        self._advance(at)
        self.text = self.text[at:] + "".join(grown)
        if too_deep(self.text, MAX_NESTING - self.depth):
            raise RegimeError(_FIELD, f"expected a JSON trace, not nested more than {MAX_NESTING} levels deep")
        return True

    def _advance(self, at: int) -> None:
        newlines = self.text.count("\n", 0, at)
        if newlines:
            self.line += newlines
            self.column = at - self.text.rfind("\n", 0, at)
        else:
            self.column += at

    def fail(self, at: int) -> RegimeError:
        """'It stops being JSON' at ``at``, with its line and column in the file."""
        newlines = self.text.count("\n", 0, at)
        column = at - self.text.rfind("\n", 0, at) if newlines else self.column + at
        return RegimeError(_FIELD, f"expected a JSON trace; it stops being JSON at line {self.line + newlines},"
                                   f" column {column} (cut short?)")


def _space_end(text: str, at: int) -> int:
    found = _SPACE.match(text, at)
    return found.end() if found else at


def _short(pos: int, why: str, text: str) -> bool:
    """Whether the decoder stopped at ``pos`` because the window ends (read on), not because the JSON is wrong.

    A value cut by the window's edge fails within a few characters of it, or as a string left open; an
    error further back is the file's own, and is said at once rather than after reading the rest.
    """
    return pos >= len(text) - 64 or why.startswith("Unterminated string")


#: Text decoded in one call: a stretch small enough that its events are kept while still in the cache
#: (larger stretches read slower in the browser, though in fewer calls).
_BATCH = 32 * 1024


def _whole_elements(text: str, at: int) -> tuple[list[Any] | None, int] | None:
    """The array's elements from ``at`` to the stretch's last ``},``, decoded in one call; and where the next starts.

    In brackets, the text from an element's start to a ``}`` that ends an element is an array of exactly
    those elements, decoded as one at a time would (each value ends where its own text says, and the
    last in ``}``, not in a number the cut could shorten). A ``}`` inside a string or an element, or past
    the array's end, leaves text that is not JSON: then ``(None, cut)``, and that stretch is read one
    element at a time. None: no stretch to cut here (the window's end is near). One call into C for
    a hundred events, where one at a time makes three calls per event.
    """
    cut = text.rfind("},", at, at + _BATCH)
    if cut - at < _BATCH // 2:
        return None
    try:
        return _DECODER.decode("[" + text[at:cut + 1] + "]"), _space_end(text, cut + 2)
    except (json.JSONDecodeError, RecursionError):
        return None, cut + 2


def _one_by_one(text: str, at: int, stop: int, each: Callable[[Any], None]) -> int:
    """Elements from ``at``, each followed by a comma, until ``stop``; where the next starts.

    Anything else (an error, the array's end, the window's edge) stops it where it is: the reader's own
    loop reads on from there and says what is wrong, if anything is.
    """
    length = len(text)
    while at < stop:
        try:
            value, end = _SCAN(text, at)
        except (json.JSONDecodeError, StopIteration, RecursionError):
            return at
        found = _BETWEEN.match(text, end)
        if found is None or found[1] != "," or found.end() == length:
            return at
        each(value)
        at = found.end()
    return at


class Reader:
    """A trace's text, read from its start: the other top-level keys, and the events one by one."""

    def __init__(self, pieces: Iterable[str], records: Callable[[int, str, list[Any]], None] | None = None) -> None:
        self._window = _Window(pieces)
        self.header: dict[str, Any] = {}
        self.saw_events = False
        self.empty = False
        #: rocprofv3's records as they are read: (the run's index, the kind of record, a stretch of them).
        self._records = records

    def _skip(self, at: int) -> int:
        """The first character at or after ``at`` that is not white space (reading on as needed); may be the end."""
        w = self._window
        while True:
            at = _space_end(w.text, at)
            if at < len(w.text) or not w.more(at):
                return at
            at = 0

    def _value(self, at: int) -> tuple[Any, int]:
        """The JSON value starting at ``at`` and where it ends (reading on until it is whole)."""
        w = self._window
        while True:
            try:
                value, end = _DECODER.raw_decode(w.text, at)
            except json.JSONDecodeError as exc:
                if not _short(exc.pos, exc.msg, w.text):
                    raise w.fail(exc.pos) from None
                if w.more(at):
                    at = 0
                    continue
                raise w.fail(exc.pos) from None
            except RecursionError:
                raise RegimeError(_FIELD, "expected a JSON trace, not one nested this deep") from None
            if end == len(w.text) and w.more(at):  # a number cut by the window's edge would read short
                at = 0
                continue
            return value, end

    def _expect(self, at: int, char: str) -> int:
        at = self._skip(at)
        if self._window.text[at:at + 1] != char:
            raise self._window.fail(at)
        return at + 1

    def _array(self, at: int, each: Callable[[Any], None], many: Callable[[list[Any]], None]) -> int:
        """Hand each element of the array opening at ``at`` to ``each`` (a stretch decoded at once to ``many``).

        Returns where the array ends.
        """
        w = self._window
        at = self._skip(self._expect(at, "["))
        if w.text[at:at + 1] == "]":
            return at + 1
        # The C scanner itself, not raw_decode's Python wrapper around it: one frame less per event.
        decode, between = _SCAN, _BETWEEN.match
        while True:
            text, length = w.text, len(w.text)
            while (batch := _whole_elements(text, at)) is not None:
                values, end = batch
                if values is None:  # the cut was no element's end: that stretch one element at a time
                    moved = _one_by_one(text, at, end, each)
                    if moved == at:
                        break  # something the loop below has to say
                    at = moved
                else:
                    many(values)
                    at = end
            try:
                while True:  # the hot loop: two calls into C per event
                    value, end = decode(text, at)
                    found = between(text, end)
                    if found is None or found.end() == length:
                        break  # the window's edge, or not JSON: settled below
                    each(value)
                    at = found.end()
                    if found[1] == "]":
                        return at
            except (json.JSONDecodeError, StopIteration) as exc:
                # Where and why it stopped, never the exception itself: a name for it outliving this block
                # would hold its traceback, so this frame and its callers', in a cycle, and with them the
                # whole reading until the cycle collector came (3 s of it at 20 MB in the browser).
                pos, why = (exc.pos, exc.msg) if isinstance(exc, json.JSONDecodeError) else (exc.value, "Expecting value")
                if not _short(pos, why, text):
                    raise w.fail(pos) from None
                if not w.more(at):
                    raise w.fail(pos) from None
                at = self._skip(0)
                continue
            except RecursionError:
                raise RegimeError(_FIELD, "expected a JSON trace, not one nested this deep") from None
            if found is None and _space_end(text, end) < length:
                raise w.fail(_space_end(text, end))  # neither ',' nor ']' after it
            # The value decoded, but what follows it runs to the window's edge: read on, then decode it again.
            if w.more(at):
                at = 0
                continue
            if found is None:  # the text has ended
                raise w.fail(self._skip(end))
            each(value)
            at = found.end()
            if found[1] == "]":
                return at
            raise w.fail(at)  # a comma, then the end

    def _object(self, at: int, value: Callable[[str, int], int]) -> int:
        """Read the object opening at ``at`` key by key, ``value(key, at)`` reading each value; where the object ends."""
        w = self._window
        at = self._skip(self._expect(at, "{"))
        while w.text[at:at + 1] != "}":
            key, at = self._value(at)
            if not isinstance(key, str):
                raise w.fail(at)
            at = self._skip(value(key, self._skip(self._expect(at, ":"))))
            if w.text[at:at + 1] == ",":
                at = self._skip(at + 1)
            elif w.text[at:at + 1] != "}":
                raise w.fail(at)
        return at + 1

    def _tool(self, at: int, records: Callable[[int, str, list[Any]], None]) -> int:
        """rocprofv3's runs (a list of them, or one): each run's records streamed to ``records``, the rest kept whole.

        A kind of record streamed is kept in its run as :data:`STREAMED`; a value of another shape is kept as it is,
        for the reader of the format to say what is wrong with it.
        """
        w = self._window
        runs: list[Any] = []

        def run_value(run: dict[str, Any], index: int) -> Callable[[str, int], int]:
            def kept(key: str, at: int) -> int:
                if key == "buffer_records" and w.text[at:at + 1] == "{":
                    kinds: dict[str, Any] = {}
                    run[key] = kinds
                    return self._object(at, kind_value(kinds, index))
                run[key], at = self._value(at)
                return at
            return kept

        def kind_value(kinds: dict[str, Any], index: int) -> Callable[[str, int], int]:
            def kept(kind: str, at: int) -> int:
                if w.text[at:at + 1] != "[":
                    kinds[kind], at = self._value(at)
                    return at
                kinds[kind] = STREAMED
                return self._array(at, lambda record: records(index, kind, [record]),
                                   lambda stretch: records(index, kind, stretch))
            return kept

        def one_run(at: int) -> int:
            if w.text[at:at + 1] != "{":
                value, at = self._value(at)
                runs.append(value)
                return at
            run: dict[str, Any] = {}
            runs.append(run)
            return self._object(at, run_value(run, len(runs) - 1))

        w.depth = 5  # a record starts five brackets down: the file, the list of runs, a run, buffer_records, a kind
        try:
            if w.text[at:at + 1] == "{":
                at = one_run(at)
                self.header[ROCPROF_JSON] = runs[0]
                return at
            if w.text[at:at + 1] != "[":
                self.header[ROCPROF_JSON], at = self._value(at)
                return at
            self.header[ROCPROF_JSON] = runs
            at = self._skip(at + 1)
            if w.text[at:at + 1] == "]":
                return at + 1
            while True:
                at = self._skip(one_run(at))
                if w.text[at:at + 1] == "]":
                    return at + 1
                if w.text[at:at + 1] != ",":
                    raise w.fail(at)
                at = self._skip(at + 1)
        finally:
            w.depth = 2

    def read(self, each: Callable[[Any], None], many: Callable[[list[Any]], None] | None = None) -> None:
        """Hand every event to ``each``, keeping the other top-level keys in ``header``.

        ``many``, where given, takes a list of events decoded together instead (in order, as ``each`` would).
        """
        if many is None:
            def many(values: list[Any]) -> None:
                for value in values:
                    each(value)
        w = self._window
        w.more(0)
        at = self._skip(0)
        opening = w.text[at:at + 1]
        if not opening:
            self.empty = True  # the caller says so: it knows whether the file was unzipped
            return
        if opening == "[":
            self.saw_events = True
            at = self._array(at, each, many)
        elif opening == "{":
            def top_level(key: str, at: int) -> int:
                if key == "traceEvents" and w.text[at:at + 1] == "[":
                    self.saw_events = True
                    return self._array(at, each, many)
                if key == ROCPROF_JSON and self._records is not None:
                    return self._tool(at, self._records)
                self.header[key], at = self._value(at)
                return at

            at = self._object(at, top_level)
        else:
            raise w.fail(at)
        if self._skip(at) != len(w.text):
            raise w.fail(self._skip(at))
        if not self.saw_events and ROCPROF_JSON not in self.header:  # rocprofv3's JSON: read by ``formats``
            if "nodes" in self.header and "schema" in self.header:
                raise RegimeError(_FIELD, "expected torch.profiler's trace; this is a PyTorch execution trace"
                                          " (ExecutionTraceObserver's nodes), which holds no GPU times: read the"
                                          " profiler's own trace (export_chrome_trace, or the .pt.trace.json that"
                                          " tensorboard_trace_handler writes)")
            raise RegimeError(_FIELD, "expected a Chrome trace: an object with a 'traceEvents' list (torch.profiler's"
                                      " export_chrome_trace writes one)")
