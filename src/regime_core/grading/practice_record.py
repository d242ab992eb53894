"""A learner's practice record, as the Practice page downloads it, read for a mentor's class report.

The Practice page keeps its tally in the learner's browser; **Download your record** writes it as a file::

    {"format": "regime-practice-record", "version": 1, "learner": "Ada",
     "tally": {"memory": {"tried": 5, "right": 4, "name": "memory-bound"}, ...},
     "missed": {"host_sync": 2, ...}, "traps": {"occupancy theatre": {"met": 2, "caught": 1}, ...},
     "graded": 17}

``tally`` counts incidents per intended regime, ``missed`` the kinds of incident (the generator's families) still
owed a right answer, ``traps`` the mistakes an incident was built to catch, met and fallen for. A mentor's report
reads what the learner practised and which kinds they keep missing; it grades nothing afresh (the page graded each
incident as it was answered).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from regime_core.errors import RegimeError
from regime_core.resources import load_json

FORMAT, VERSION = "regime-practice-record", 1
_MAX_COUNT = 10**6
_MAX_KEYS = 200


@dataclass(frozen=True)
class PracticeRecord:
    """What a learner practised: incidents tried and read right, per regime; kinds missed; traps fallen for."""

    tried: int
    right: int
    by_regime: dict[str, tuple[int, int]]  # regime's name → (right, tried)
    missed: tuple[str, ...]  # the kinds still owed a right answer, most missed first, as labels
    traps: dict[str, tuple[int, int]]  # trap's name → (fallen for, met)

    def to_json(self) -> dict[str, Any]:
        """The record as the class report's JSON gives it."""
        return {"tried": self.tried, "right": self.right,
                "by_regime": {name: {"right": r, "tried": t} for name, (r, t) in self.by_regime.items()},
                "missed": list(self.missed),
                "traps": {name: {"caught": c, "met": m} for name, (c, m) in self.traps.items()}}


@cache
def family_labels() -> dict[str, str]:
    """Each kind of practice incident as a report names it."""
    return dict(load_json("practice.json")["family_labels"])


def is_practice_record(raw: object) -> bool:
    """Whether a file says it is a practice record (its ``format``); whether it is a good one, ``read`` checks."""
    return isinstance(raw, Mapping) and raw.get("format") == FORMAT


def _count(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= _MAX_COUNT:
        raise RegimeError(field, f"expected a whole number from 0 to {_MAX_COUNT:,}")
    return value


def _entries(raw: Mapping[str, Any], key: str) -> list[tuple[str, Any]]:
    value = raw.get(key, {})
    if not isinstance(value, Mapping) or len(value) > _MAX_KEYS:
        raise RegimeError(key, f"expected an object of at most {_MAX_KEYS} entries")
    return [(str(k)[:200], v) for k, v in value.items()]


def _pair(value: object, field: str, part: str, whole: str) -> tuple[int, int]:
    if not isinstance(value, Mapping):
        raise RegimeError(field, f'expected {{"{part}": N, "{whole}": N}}')
    got, of = _count(value.get(part, 0), f"{field}.{part}"), _count(value.get(whole, 0), f"{field}.{whole}")
    if got > of:
        raise RegimeError(f"{field}.{part}", f"expected at most {whole} ({of})")
    return got, of


def read(raw: object) -> PracticeRecord:
    """A practice record checked; a RegimeError names the first bad field."""
    if not isinstance(raw, Mapping) or raw.get("format") != FORMAT:
        raise RegimeError("format", f'expected "{FORMAT}" (the Practice page\'s Download your record)')
    version = raw.get("version")
    if version != VERSION or isinstance(version, bool):
        raise RegimeError("version", f"expected {VERSION}: a record from another version of the site")
    by_regime: dict[str, tuple[int, int]] = {}
    for key, row in _entries(raw, "tally"):
        right, tried = _pair(row, f"tally.{key}", "right", "tried")
        name = row.get("name") if isinstance(row.get("name"), str) and row.get("name") else key
        by_regime[str(name)[:80]] = (right, tried)
    labels = family_labels()
    owed = [(labels[key], _count(n, f"missed.{key}")) for key, n in _entries(raw, "missed") if key in labels]
    traps = {key: _pair(row, f"traps.{key}", "caught", "met") for key, row in _entries(raw, "traps")}
    return PracticeRecord(tried=sum(t for _, t in by_regime.values()), right=sum(r for r, _ in by_regime.values()),
                          by_regime=by_regime,
                          missed=tuple(label for label, n in sorted(owed, key=lambda kv: (-kv[1], kv[0])) if n > 0),
                          traps={k: v for k, v in traps.items() if v[1]})
