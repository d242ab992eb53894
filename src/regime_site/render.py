"""HTML for the drill's incidents and their answers, rendered at build time from the core.

markdown-exec blocks in ``docs/`` call these functions; ``parts.py`` (Parts B and C, the stretch
exercise, the acceptance panel) and ``casebook.py`` (the casebook pages) are built from the pieces
here. All text is escaped. Answers are base64-encoded into a data attribute, so they are neither
visible nor indexed before the learner submits an attempt (a guard against spoilers, not a
security boundary).
"""

from __future__ import annotations

import base64
import re

from regime_core.catalogue.levers import REGIMES, advice, levers
from regime_core.content import drill
from regime_core.grading.review import question_comment, review_comment
from regime_core.judgment.classify import Verdict
from regime_core.judgment.words import LABEL
from regime_site.field_names import in_words
from regime_site.incident_explorer import incident_explorer
from regime_site.markup import bullet_list as _list
from regime_site.markup import esc
from regime_site.markup import field as _field
from regime_site.pictures import incident_figure

#: Where the casebook's pages live, relative to the site root; one page per case and per incident.
CASEBOOK_FOLDER = "casebook"


def casebook_page(item_id: str) -> str:
    """The casebook address of a case or incident, relative to the site root."""
    return f"{CASEBOOK_FOLDER}/{item_id}/"


def incident_arithmetic(incident_id: str) -> list[str]:
    """The arithmetic of an incident with no shape to place (A5-A8), as its worked answer shows it.

    It is the last rung of the incident's hint ladder, stated rather than asked: its question, which the
    verdict's lines answer, is left out. An incident with a shape has the placement's arithmetic instead.
    """
    last = drill.hints(incident_id)[-1].removeprefix("The arithmetic: ")
    sentences = re.split(r"(?<=[.?])\s+(?=[A-Z0-9])", last)
    return [s[0].upper() + s[1:].removesuffix(".") for s in sentences if s and not s.endswith("?")]


def verdict_html(v: Verdict, *, figure: str = "", arithmetic: list[str] | None = None) -> str:
    """A verdict in full, as the drill's answers and the casebook pages show it: its lines, the arithmetic, ``figure``.

    ``arithmetic`` stands in for the placement's where the verdict has none (an incident with no shape).
    """
    parts = []
    for line in v.lines():
        if "items" in line:
            parts += [f"<p><strong>{esc(line['label'])}:</strong></p>", _list(line["items"])]
        else:
            parts.append(f"<p><strong>{esc(line['label'])}:</strong> {esc(line['text'])}</p>")
    if v.placement is not None:
        parts += ["<p><strong>Arithmetic:</strong></p>", _list(v.placement.arithmetic())]
    elif arithmetic:
        parts += ["<p><strong>Arithmetic:</strong></p>", _list(arithmetic)]
    parts.append(figure)
    return "\n".join(parts)


def encode(answer_html: str) -> str:
    """The payload an answer block carries: base64 of its UTF-8 HTML."""
    return base64.b64encode(answer_html.encode("utf-8")).decode("ascii")


def answer(item: str, inner: str) -> str:
    """The locked answer block for ``item``: hidden, its HTML base64 in ``data-payload`` until an attempt unlocks it."""
    return (f'<section class="regime-answer" data-regime-answer="{esc(item)}" data-payload="{encode(inner)}"'
            f' tabindex="-1" aria-label="Check your work" hidden></section>')


def buttons(reset_label: str = "Start over") -> str:
    """The attempt's buttons: submit, check without the answer, a hint (shown once a line is not passed), start over."""
    return ('<div class="regime-actions"><button data-search-exclude type="submit" class="md-button md-button--primary">Submit attempt'
            '</button> <button data-search-exclude type="button" class="md-button" data-action="check">Check without the answer</button>'
            ' <button data-search-exclude type="button" class="md-button" data-action="hint" hidden>Hint</button>'
            f' <button data-search-exclude type="button" class="md-button" data-action="reset">{esc(reset_label)}</button></div>'
            '<p class="regime-hint" role="status" aria-live="polite" hidden></p>')


def incident_heading(incident_id: str) -> str:
    """Markdown heading with the stable permalink id."""
    item = drill.incident(incident_id)
    return f"### {item.id.upper()} · {item.title} {{ #{item.id} }}\n"


def _verdict_html(incident_id: str) -> str:
    item = drill.incident(incident_id)
    parts = [verdict_html(item.verdict(), figure=incident_figure(item.id), arithmetic=incident_arithmetic(item.id))]
    if item.assumptions:
        parts += ["<p><strong>Read into the incident:</strong></p>", _list(map(in_words, item.assumptions))]
    parts.append('<p class="regime-answer__source">Derived by <code>regime_core</code> from the symptoms above;'
                 f' run <code>regime incident {esc(item.id.upper())}</code> for the same.</p>')
    return "".join(parts)


#: The id of the one list of lever names that every incident's form suggests from.
LEVERS_LIST_ID = "regime-levers"


def levers_datalist() -> str:
    """The lever names the attempt forms suggest; once per page, shared by every incident's form."""
    options = "".join(f'<option value="{esc(lever.label)}"></option>' for lever in levers())
    return f'<datalist id="{LEVERS_LIST_ID}">{options}</datalist>'


def incident(incident_id: str) -> str:
    """The incident's text, its four-line attempt form, its links and its locked answer."""
    item = drill.incident(incident_id)
    radios = "".join(
        f'<label class="regime-choice"><input type="radio" name="regime" value="{r}"> {esc(advice(r).name)}</label>'
        for r in REGIMES)
    form = (
        f'<form data-search-exclude class="regime-attempt" novalidate aria-label="Your attempt at {esc(item.id.upper())}">'
        f'<div class="regime-field" data-field="regime"><fieldset><legend>{esc(LABEL["regime"])}</legend>'
        f'{radios}</fieldset><p class="regime-field__error" role="alert" hidden></p></div>'
        + _field("evidence", LABEL["evidence"], '<textarea name="evidence" rows="2" maxlength="4000"></textarea>')
        + _field("helps", LABEL["helps"],
                 f'<input name="helps" list="{LEVERS_LIST_ID}" maxlength="1000" autocomplete="off">')
        + _field("wastes", LABEL["wastes"],
                 f'<input name="wastes" list="{LEVERS_LIST_ID}" maxlength="1000" autocomplete="off">')
        + buttons() + "</form>"
    )
    return (
        f'<div class="regime-incident" data-regime-widget="attempt" data-item="{esc(item.id)}"'
        f' data-title="{esc(item.title)}">'
        f'<blockquote class="regime-incident__text"><p>{esc(item.text)}</p></blockquote>'
        + links(item.id, item.title, review_comment(item.verdict(), item.id.upper(), "{url}", title=item.title,
                                                     symptom=item.text),
                 f"../{casebook_page(item.id)}",
                 question=question_comment(item.id.upper(), "{url}", title=item.title, symptom=item.text)) + form
        + '<p class="regime-feedback" role="status" aria-live="polite"></p>'
        + answer(item.id, _verdict_html(item.id)) + incident_explorer(item.id) + "</div>"
    )


def links(anchor: str, title: str, review: str = "", case: str = "", *, label: str = "", shown: bool = False,
          question: str = "") -> str:
    """Copy link, and Copy as review comment where the core writes one.

    ``review`` has ``{url}`` for the address and travels base64-encoded like the answers, so it is not
    read before the learner asks; ``case`` is the page the comment links to (an incident's casebook
    page), relative to this page. ``label`` names the comment in the status line ("the review comment
    for A6"). ``shown``: the comment is also shown in full, as the Markdown it is (only where the verdict
    is already on screen: a casebook page). ``question``: what is copied until the learner has opened the answer
    (the incident and its link, no verdict); the full comment only after.
    """
    review_button = ('<button data-search-exclude type="button" class="md-button regime-links__button" data-action="copy-review">'
                     "Copy as review comment</button> ") if review else ""
    data = (f' data-review="{encode(review)}"' if review else "") + (f' data-case="{esc(case)}"' if case else "")
    data += f' data-label="{esc(label)}"' if label else ""
    data += f' data-question="{encode(question)}"' if question else ""
    comment = '<pre class="regime-links__comment" hidden><code></code></pre>' if review and shown else ""
    return (f'<div class="regime-links" data-regime-widget="links" data-anchor="{esc(anchor)}" data-title="{esc(title)}"{data}>'
            '<button data-search-exclude type="button" class="md-button regime-links__button" data-action="copy-link">Copy link</button> '
            f'{review_button}<span class="regime-links__status" role="status" aria-live="polite"></span>{comment}</div>')
