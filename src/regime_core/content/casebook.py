"""The casebook: published GPU performance cases, as their sources give them (``data/casebook.json``).

Each case keeps its source, the numbers quoted from it, the authors' conclusion in their words and
the symptoms written exactly as the source gives them. The regime is never stored: the classifier
derives it, and a test holds it to the reading the case expects (the authors', or ours with the
arithmetic in ``disagreement`` where the authors are wrong).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from regime_core.errors import RegimeError
from regime_core.judgment.classify import Verdict, classify
from regime_core.judgment.symptoms import Symptoms, parse_symptoms
from regime_core.resources import load_json

#: What an author can conclude: a regime, that the numbers cannot decide, or that they are impossible.
AUTHOR_READINGS = ("compute", "memory", "overhead", "communication", "undecided", "anomaly")
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Source:
    """Where a case was published."""

    title: str
    url: str
    publisher: str
    date: str


@dataclass(frozen=True)
class Case:
    """One published case."""

    id: str
    title: str
    summary: str
    source: Source
    quoted: tuple[str, ...]
    conclusion: str
    authors_regime: str
    symptoms_raw: dict[str, Any]
    expected_regime: str | None
    expected_anomaly: bool
    disagreement: str
    assumptions: tuple[str, ...]

    def __post_init__(self) -> None:
        where = f"casebook.{self.id}"
        if not _SLUG.match(self.id):
            raise RegimeError(f"{where}.id", "expected a lowercase slug (it is the case's address)")
        if self.authors_regime not in AUTHOR_READINGS:
            raise RegimeError(f"{where}.authors_regime", f"expected one of {', '.join(AUTHOR_READINGS)}")
        if self.expected_regime not in (None, "compute", "memory", "overhead", "communication"):
            raise RegimeError(f"{where}.expected.regime", "expected compute, memory, overhead or null")
        if not self.source.url.startswith("https://"):
            raise RegimeError(f"{where}.source.url", "expected the https address of the source")
        if not self.quoted:
            raise RegimeError(f"{where}.quoted", "expected the source's own words for the numbers used")

    @cached_property
    def symptoms(self) -> Symptoms:
        """The symptoms, parsed (a RegimeError names the case's field when one is bad)."""
        try:
            return parse_symptoms(self.symptoms_raw)
        except RegimeError as err:
            raise RegimeError(f"casebook.{self.id}.symptoms.{err.field}", str(err).split(": ", 1)[-1]) from None

    def verdict(self) -> Verdict:
        """The classifier's reading of the symptoms: derived, never stored."""
        return classify(self.symptoms)



def _case(raw: dict[str, Any]) -> Case:
    src = raw["source"]
    expected = raw["expected"]
    return Case(
        id=raw["id"], title=raw["title"], summary=raw["summary"],
        source=Source(src["title"], src["url"], src.get("publisher", ""), src.get("date", "")),
        quoted=tuple(raw.get("quoted", ())), conclusion=raw.get("conclusion", ""),
        authors_regime=raw["authors_regime"], symptoms_raw=raw["symptoms"],
        expected_regime=expected.get("regime"), expected_anomaly=bool(expected.get("anomaly", False)),
        disagreement=raw.get("disagreement", ""), assumptions=tuple(raw.get("assumptions", ())),
    )


@cache
def cases() -> tuple[Case, ...]:
    """Every case in the casebook, in the file's order."""
    loaded = tuple(_case(raw) for raw in load_json("casebook.json")["cases"])
    ids = [c.id for c in loaded]
    if len(set(ids)) != len(ids):
        raise RegimeError("casebook", "case ids must be unique: each is an address")
    return loaded


def case(case_id: object) -> Case:
    """One case by id."""
    by_id = {c.id: c for c in cases()}
    key = case_id.strip().lower() if isinstance(case_id, str) else ""
    if key not in by_id:
        raise RegimeError("case", f"unknown case; expected one of {', '.join(by_id)}")
    return by_id[key]
