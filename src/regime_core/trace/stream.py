"""A trace's JSON read one event at a time, so a 100 MB trace never stands in memory as a million dicts.

The top level is read key by key (``traceEvents`` may come before or after ``deviceProperties``);
each event of ``traceEvents`` is decoded alone with the standard library's own decoder and handed
on, and only what the reader keeps of it survives. A bare list of events reads the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from regime_core.errors import RegimeError

_FIELD = "trace"
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_BETWEEN = re.compile(r"[ \t\n\r]*([,\]])[ \t\n\r]*")  # after an element: a comma or the array's end


def _fail(text: str, at: int) -> RegimeError:
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return RegimeError(_FIELD, f"expected a JSON trace; it stops being JSON at line {line}, column {column}"
                               " (cut short?)")


class Reader:
    """The text of a trace, read from its start: the other top-level keys, and the events one by one."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.header: dict[str, Any] = {}
        self.saw_events = False

    def _skip(self, at: int) -> int:
        found = _SPACE.match(self.text, at)
        return found.end() if found else at

    def _value(self, at: int) -> tuple[Any, int]:
        try:
            return _DECODER.raw_decode(self.text, at)
        except json.JSONDecodeError as exc:
            raise _fail(self.text, exc.pos) from None
        except RecursionError:
            raise RegimeError(_FIELD, "expected a JSON trace, not one nested this deep") from None

    def _expect(self, at: int, char: str) -> int:
        at = self._skip(at)
        if self.text[at:at + 1] != char:
            raise _fail(self.text, at)
        return at + 1

    def _array(self, at: int, each: Callable[[Any], None]) -> int:
        """Hand each element of the array opening at ``at`` to ``each``; return where the array ends."""
        at = self._skip(self._expect(at, "["))
        if self.text[at:at + 1] == "]":
            return at + 1
        text, decode, between = self.text, _DECODER.raw_decode, _BETWEEN.match
        try:
            while True:  # the hot loop: two calls into C per event
                value, at = decode(text, at)
                each(value)
                found = between(text, at)
                if found is None:
                    raise _fail(text, self._skip(at))
                at = found.end()
                if found[1] == "]":
                    return at
        except json.JSONDecodeError as exc:
            raise _fail(text, exc.pos) from None
        except RecursionError:
            raise RegimeError(_FIELD, "expected a JSON trace, not one nested this deep") from None

    def read(self, each: Callable[[Any], None]) -> None:
        """Hand every event to ``each``, keeping the other top-level keys in ``header``."""
        at = self._skip(0)
        opening = self.text[at:at + 1]
        if opening == "[":
            self.saw_events = True
            at = self._array(at, each)
        elif opening == "{":
            at = self._skip(at + 1)
            while self.text[at:at + 1] != "}":
                key, at = self._value(at)
                if not isinstance(key, str):
                    raise _fail(self.text, at)
                at = self._skip(self._expect(at, ":"))
                if key == "traceEvents" and self.text[at:at + 1] == "[":
                    self.saw_events = True
                    at = self._array(at, each)
                else:
                    self.header[key], at = self._value(at)
                at = self._skip(at)
                if self.text[at:at + 1] == ",":
                    at = self._skip(at + 1)
                elif self.text[at:at + 1] != "}":
                    raise _fail(self.text, at)
            at += 1
        else:
            raise _fail(self.text, at)
        if self._skip(at) != len(self.text):
            raise _fail(self.text, self._skip(at))
        if not self.saw_events:
            raise RegimeError(_FIELD, "expected a Chrome trace: an object with a 'traceEvents' list (torch.profiler's"
                                      " export_chrome_trace writes one)")
