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


def test_an_incident_page_offers_its_links_outside_the_answer_and_the_question_there(built_site: Path) -> None:
    import base64
    import re

    page = (built_site / "casebook" / "a6" / "index.html").read_text(encoding="utf-8")
    before, _, inside = page.partition('<details class="regime-case__answer"')
    outside = re.search(r'data-review="([^"]+)"', before)
    assert outside is not None  # Copy link and Copy as review comment, without opening the answer
    question = base64.b64decode(outside.group(1)).decode("utf-8")
    assert "which regime holds it?" in question
    assert "overhead" not in question.lower()
    assert 'data-review="' in inside  # the comment with the verdict, behind the deliberate click


def test_quoted_sources_read_as_text_not_markdown(built_site: Path) -> None:
    import html
    import re

    found = []
    for path in (built_site / "casebook").rglob("index.html"):
        text = re.sub(r"<(pre|code|script)\b.*?</\1>", " ", path.read_text(encoding="utf-8"), flags=re.S)
        for quote in re.findall(r"<blockquote>(.*?)</blockquote>", text, flags=re.S):
            plain = html.unescape(re.sub(r"<[^>]+>", "\n", quote))
            found += [f"{path.parent.name}: {line.strip()[:60]}" for line in plain.splitlines()
                      if re.match(r"\s*(?:#{1,6}\s|\|.*\|\s*$)", line)]
    assert found == []


def test_a_review_comment_on_a_figure_beyond_a_roof_leads_with_the_anomaly() -> None:
    from regime_core.grading.review import review_comment

    a4 = drill.incident("a4")
    assert a4.verdict().anomalies
    comment = review_comment(a4.verdict(), "A4", "URL", title=a4.title, symptom=a4.text)
    head, _, rest = comment.partition("\n")
    assert "beyond what the card can do" in head
    assert "memory" not in head
    assert rest.index("**The anomaly:**") < rest.index("**Read as, once re-measured:** memory-bound")
    a6 = drill.incident("a6")
    assert review_comment(a6.verdict(), "A6", "URL", title=a6.title).startswith("A6, *")
