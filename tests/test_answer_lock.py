"""Nothing of an answer before an attempt: the site's search index holds no worked answer of the drill."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regime_core.catalogue.levers import advice
from regime_core.content import drill


def _index(built_site: Path) -> list[dict[str, str]]:
    docs: list[dict[str, str]] = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    return docs


@pytest.mark.parametrize("item", [i.id for i in drill.incidents()])
def test_no_worked_answer_of_an_incident_is_in_the_search_index(built_site: Path, item: str) -> None:
    incident = drill.incident(item)
    regime = incident.verdict().regime
    assert regime is not None
    said = [f"Regime: {advice(regime).name}", incident.verdict().evidence[0][:40]]
    for doc in _index(built_site):
        if doc["location"].startswith(f"casebook/{item}/"):
            assert "Show the worked answer" not in doc["text"], doc["location"]
            for words in said:
                assert words not in doc["text"], (doc["location"], words)


def test_the_incident_pages_are_still_found_by_their_text(built_site: Path) -> None:
    # Excluding the answer must not drop the page: its title and the incident's own words stay searchable.
    found = [d for d in _index(built_site) if d["location"] == "casebook/a6/"]
    assert found
    assert "picket fence" in found[0]["text"]
