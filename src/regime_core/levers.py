"""Levers and the vocabulary that recognises them in free text (``data/levers.json``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from regime_core.resources import load_json

REGIMES = ("compute", "memory", "overhead")


@dataclass(frozen=True)
class Lever:
    """A class of optimisation, the regimes it helps and the words that name it."""

    id: str
    label: str
    fits: tuple[str, ...]
    synonyms: tuple[str, ...]


@dataclass(frozen=True)
class RegimeAdvice:
    """Per regime: its name, the one class of optimisation allowed, what helps, what wastes."""

    name: str
    allowed: str
    helps: str
    wastes: str


def _data() -> dict[str, Any]:
    return load_json("levers.json")


@cache
def levers() -> tuple[Lever, ...]:
    """Every lever in the vocabulary."""
    raw = _data()["levers"]
    return tuple(Lever(e["id"], e["label"], tuple(e["fits"]), tuple(e["synonyms"])) for e in raw)


@cache
def advice(regime: str) -> RegimeAdvice:
    """The advice for one regime."""
    raw = _data()["regimes"]
    return RegimeAdvice(**raw[regime])


@cache
def _pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    owner = {s: lever.id for lever in levers() for s in lever.synonyms}
    alternatives = sorted(owner, key=len, reverse=True)  # longest phrase wins
    # Word boundaries only where a phrase starts or ends with a word character (".item()").
    body = "|".join(
        ("(?<!\\w)" if s[0].isalnum() else "") + re.escape(s) + ("(?!\\w)" if s[-1].isalnum() else "")
        for s in alternatives
    )
    return re.compile(body), owner


def recognise(text: str) -> list[str]:
    """Lever ids named in ``text``, in order of first mention, each once."""
    pattern, owner = _pattern()
    found: list[str] = []
    for match in pattern.finditer(text.lower()):
        lever_id = owner[match.group(0)]
        if lever_id not in found:
            found.append(lever_id)
    return found


def by_id(lever_id: str) -> Lever:
    """A lever by id (KeyError when unknown)."""
    return {lever.id: lever for lever in levers()}[lever_id]


def fits(lever_ids: list[str], regime: str) -> bool:
    """Whether any of the levers helps ``regime``."""
    return any(regime in by_id(i).fits for i in lever_ids)
