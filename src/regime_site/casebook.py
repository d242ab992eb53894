"""The casebook pages: one page per published case and per drill incident, written from the core.

Plain functions that return Markdown (with HTML blocks) by page path, so any builder can write them;
the ``regime`` MkDocs plugin adds them to the build as generated files. Each page has its own title
and description in its front matter, which the template turns into the meta tags a chat or a code
review unfurls. All text is escaped.
"""

from __future__ import annotations

import json
import re

from regime_core.catalogue.levers import advice
from regime_core.content import casebook, drill
from regime_core.grading.review import question_comment, review_comment
from regime_core.judgment.classify import Verdict
from regime_core.judgment.svg import for_symptoms
from regime_core.judgment.symptoms import Symptoms
from regime_site.field_names import in_words
from regime_site.markup import bullet_list as _list
from regime_site.markup import esc
from regime_site.render import CASEBOOK_FOLDER, incident_arithmetic, links, verdict_html

_READING = {"compute": "compute-bound", "memory": "memory-bound", "overhead": "overhead / host-bound",
            "communication": "communication-bound",
            "undecided": "undecided", "anomaly": "impossible as reported (an anomaly)"}


def verdict_name(v: Verdict) -> str:
    """The regime as a heading says it."""
    text = str(v.lines()[0]["text"])  # the verdict's own regime line ("undecided, leaning memory-bound — …")
    return text[0].upper() + text[1:]


def _unmarked(quote: str) -> str:
    """A quote as read: the source's Markdown emphasis and code ticks dropped (the data keeps them verbatim)."""
    return re.sub(r"\*\*|__|`", "", quote)


_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_RULE_ROW = re.compile(r"^\s*\|[\s:|-]+\|\s*$")
_HEADING = re.compile(r"^\s*#{1,6}\s+")


def _quoted(quotes: list[str] | tuple[str, ...]) -> str:
    """The source's lines as read: a run of Markdown table rows as a table, a Markdown heading as its words.

    The data keeps each line verbatim; a reader should not meet raw ``|`` and ``###``.
    """
    out: list[str] = []
    rows: list[str] = []

    def flush() -> None:
        if rows:
            cells = ["".join(f"<td>{esc(_unmarked(cell.strip()))}</td>\n" for cell in row.strip().strip("|").split("|"))
                     for row in rows]
            out.append('<table class="regime-case__quoted-table"><tbody>'
                       + "".join(f"<tr>\n{c}</tr>\n" for c in cells) + "</tbody></table>")
            rows.clear()

    for quote in quotes:
        if _TABLE_ROW.match(quote):
            if not _RULE_ROW.match(quote):
                rows.append(quote)
            continue
        flush()
        out.append(f"<p>{esc(_unmarked(_HEADING.sub('', quote)))}</p>")
    flush()
    return "".join(out)


def _figure(symptoms: Symptoms, figure_id: str, label: str, title: str = "") -> str:
    """The roofline picture; its point is named ``label`` (the work's own description when empty)."""
    svg = for_symptoms(symptoms, title=f"{title or label} on its roofline", id_prefix=figure_id, label=label)
    return f'<figure class="regime-figure">{svg}</figure>' if svg else ""


def _symptoms_block(raw: object) -> str:
    return f"```json\n{json.dumps(raw, indent=2, ensure_ascii=False)}\n```"


def _front(title: str, description: str) -> str:
    return f"---\ntitle: {json.dumps(title, ensure_ascii=False)}\ndescription: {json.dumps(description, ensure_ascii=False)}\n---\n"


def _description(v: Verdict, summary: str) -> str:
    reason = v.evidence[0] if v.evidence else ""
    return f"{verdict_name(v)}. {summary} {reason}"[:300]


def case_page(c: casebook.Case) -> str:
    """One published case: the case in a sentence, its symptoms, our verdict, the source."""
    v = c.verdict()
    src = c.source
    byline = ", ".join(x for x in (src.publisher, src.date) if x)
    parts = [
        _front(c.title, _description(v, c.summary)),
        f"# {esc(c.title)}\n",
        f"{esc(c.summary)}\n",
        "## Verdict\n",
        # The point is named by its work ("matmul 4096×7168×16384, fp8"), which wraps; the title names the case.
        verdict_html(v, figure=_figure(c.symptoms, f"case-{c.id}", "", c.title)),
        # The verdict is on screen here: the comment is shown as the Markdown a reviewer pastes.
        links("verdict", c.title, review_comment(v, c.title, "{url}", symptom=c.summary), "./", label="this case",
              shown=True),
        "\n## The authors' reading\n",
        f"<p><strong>{esc(_READING[c.authors_regime].capitalize())}</strong>"
        + (f": <q>{esc(_unmarked(c.conclusion))}</q>" if c.conclusion else "") + "</p>",
    ]
    if c.disagreement:
        parts.append(f'<div class="admonition note"><p class="admonition-title">Where we differ</p><p>{esc(in_words(c.disagreement))}</p></div>')
    parts += ["\n## The symptoms, as the source gives them\n", _symptoms_block(c.symptoms_raw)]
    if c.assumptions:
        parts += ["\n<p><strong>Read into the source:</strong></p>", _list(map(in_words, c.assumptions))]
    parts += ["\n## Source\n",
              f'<p><a href="{esc(src.url)}">{esc(src.title)}</a>{esc(" — " + byline) if byline else ""}</p>',
              "<blockquote>" + _quoted(c.quoted) + "</blockquote>",
              f"\n<p>Run <code>regime case {esc(c.id)}</code> for the same verdict in a terminal.</p>\n"]
    return "\n".join(parts)


def incident_page(incident_id: str) -> str:
    """A drill incident on its own page, the worked answer behind a deliberate click."""
    item = drill.incident(incident_id)
    v = item.verdict()
    label = item.id.upper()
    answer = verdict_html(v, figure=_figure(item.symptoms, f"case-{item.id}", label),
                          arithmetic=incident_arithmetic(item.id))
    if item.assumptions:
        answer += "\n<p><strong>Read into the incident:</strong></p>" + _list(map(in_words, item.assumptions))
    # Behind the same click as the answer, since it holds the verdict; it links to this page.
    answer += links("", f"{label} · {item.title}", review_comment(v, label, "{url}", title=item.title,
                                                                  symptom=item.text), "./", label=label, shown=True)
    return "\n".join([
        _front(f"{label} · {item.title}", f"Regime drill incident {label}: {item.text}"),
        f"# {label} · {esc(item.title)}\n",
        f'<blockquote class="regime-incident__text"><p>{esc(item.text)}</p></blockquote>\n',
        # Outside the answer, so a reviewer finds them without opening it: the comment copied here is the question;
        # the one with the verdict is inside the answer, shown.
        links("", f"{label} · {item.title}", question_comment(label, "{url}", title=item.title, symptom=item.text),
              "./", label=label) + "\n",
        "Read the regime before you open the answer: write four lines — regime, evidence, the lever that"
        f" helps, the lever that wastes the week — or try it on the [drill page](../drill.md#{item.id}).\n",
        "\n## The symptoms\n", _symptoms_block(item.symptoms_raw),
        # Kept out of the site's search index: a search must not answer the drill before an attempt.
        f'\n<details class="regime-case__answer" data-search-exclude><summary>Show the worked answer</summary>\n{answer}'
        '\n</details>\n',
    ])


#: Above the cases' table: a filter (with JavaScript) and the choice to show each reading (CSS alone).
_CONTROLS = (
    '<div class="regime-casebook" data-regime-widget="casebook-filter">\n'
    '<p class="regime-casebook__controls" data-search-exclude>'
    '<label class="regime-casebook__search">Filter the cases <input type="search" class="regime-casebook__filter"'
    ' autocomplete="off" spellcheck="false" placeholder="a card, a model, a source"></label> '
    '<label class="regime-casebook__toggle"><input type="checkbox" class="regime-casebook__show"> Show each'
    ' reading</label></p>\n'
    '<p class="regime-casebook__count" role="status" aria-live="polite" data-search-exclude>{count} cases; their'
    " readings are hidden until you choose to see them.</p>\n"
)


def index_page() -> str:
    """The casebook's contents: the drill's incidents and every published case with both readings."""
    rows = []
    # By title, so that the order of the rows says nothing of their readings (the data groups them by regime).
    for c in sorted(casebook.cases(), key=lambda c: c.title.casefold()):
        v = c.verdict()
        # In the table both readings are a word or two; the page's heading says what to measure next.
        ours = (advice(v.regime).name.capitalize() if v.regime else "Undecided") + (" (anomaly)" if v.anomalies else "")
        # The readings are hidden until the learner asks (regime.css): the index is also a list to practise on.
        rows.append(f'<tr><td><a href="{esc(c.id)}/">{esc(c.title)}</a>'
                    f'<span class="regime-casebook__source">{esc(c.source.publisher)}</span></td>'
                    f' <td class="regime-casebook__reading">{esc(_READING[c.authors_regime].capitalize())}</td>'
                    f' <td class="regime-casebook__reading">{esc(ours)}</td> <td>{esc(c.source.publisher)}</td></tr>\n')
    incidents = "".join(f'<li><a href="{esc(i.id)}/">{esc(i.id.upper())} · {esc(i.title)}</a></li>'
                        for i in drill.incidents())
    return "\n".join([
        _front("Casebook", "Published GPU performance cases and the drill's incidents, each read for its regime"
               " from its symptoms, with the arithmetic and the source."),
        "# Casebook\n",
        "Real cases from papers, blogs, issues and benchmark tables, with the numbers exactly as their"
        " sources give them. Each page has its own address: paste it into a review.\n",
        "## The drill's incidents\n", f"<ul>{incidents}</ul>\n",
        "## Published cases\n",
        _CONTROLS.format(count=len(rows)),
        '<table><thead><tr><th>Case</th> <th class="regime-casebook__reading">The authors</th>'
        ' <th class="regime-casebook__reading">The classifier</th> <th>Source</th></tr></thead><tbody>\n'
        + "".join(rows) + "</tbody></table></div>\n",
    ])


def pages() -> dict[str, str]:
    """Every casebook page by its source path (``casebook/<id>.md``)."""
    out = {f"{CASEBOOK_FOLDER}/index.md": index_page()}
    out.update({f"{CASEBOOK_FOLDER}/{i.id}.md": incident_page(i.id) for i in drill.incidents()})
    out.update({f"{CASEBOOK_FOLDER}/{c.id}.md": case_page(c) for c in casebook.cases()})
    return out
