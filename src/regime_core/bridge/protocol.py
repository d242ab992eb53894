"""The bridge's contract: every request the browser may send, the fields it may carry, and a version.

``api.handle`` refuses a request whose op is unknown or that carries a field its op does not read,
naming that field, so a typo in a widget fails loudly instead of being ignored. Each op also declares
the keys of its answer, which the widgets read; tests/test_bridge.py holds every op to them.
``PROTOCOL`` goes into the runtime manifest at build time; the worker compares it with the wheel it
loaded, so a stale ``worker.js`` beside a new wheel is a one-line failure, not silent drift.
``table()`` is the one description of the ops (README.md shows it; a test keeps the two the same).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from regime_core.errors import RegimeError

#: Raised whenever an op is added or removed, or a request or response changes shape.
PROTOCOL = 15

Handler = Callable[[Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Op:
    """One request kind.

    Its name, the fields it reads (besides ``op``), the function that answers, and the keys of a
    successful answer (besides ``ok``; one ending in ``?`` is there in some answers only).
    """

    name: str
    fields: tuple[str, ...]
    run: Handler
    answers: tuple[str, ...]

    @property
    def summary(self) -> str:
        """The first line of the handler's docstring: what the op answers."""
        return (self.run.__doc__ or "").strip().splitlines()[0]

    def check(self, req: Mapping[str, Any]) -> None:
        """Refuse a field this op does not read, by name."""
        for key in req:
            if key != "op" and key not in self.fields:
                expected = ", ".join(self.fields) if self.fields else "no fields"
                raise RegimeError(str(key)[:40], f"not a field of the '{self.name}' request; expected {expected}")


    def answer_problems(self, answer: Mapping[str, Any]) -> list[str]:
        """How a successful answer differs from the declared keys: one missing, or one not declared."""
        required = {k for k in self.answers if not k.endswith("?")}
        declared = required | {k.removesuffix("?") for k in self.answers}
        keys = set(answer) - {"ok"}
        return [f"missing {k}" for k in sorted(required - keys)] + [f"undeclared {k}" for k in sorted(keys - declared)]


def registry(ops: list[Op]) -> dict[str, Op]:
    """The ops by name; a name used twice is a programming error."""
    by_name = {op.name: op for op in ops}
    if len(by_name) != len(ops):
        raise ValueError("two bridge ops share a name")
    return by_name


def table(ops: Mapping[str, Op]) -> str:
    """The ops as a Markdown table: name, request fields, what comes back and its keys."""
    rows = ["| op | request fields | answers | answer keys (besides `ok`; `?`: in some answers) |",
            "| --- | --- | --- | --- |"]
    for op in ops.values():
        fields = ", ".join(f"`{f}`" for f in op.fields) or "—"
        keys = ", ".join(f"`{k}`" for k in op.answers)
        rows.append(f"| `{op.name}` | {fields} | {op.summary} | {keys} |")
    return "\n".join(rows)
