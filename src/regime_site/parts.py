"""HTML for Parts B and C, the stretch exercise and the acceptance panel, rendered at build time from the core.

markdown-exec blocks in ``docs/drill.md`` call these functions; the incidents are in ``render.py``,
whose pieces (the locked answer, the buttons, the links) these share. All text is escaped.
"""

from __future__ import annotations

import json
from typing import Any

from regime_core.bridge.api import op_ridge, placement_view
from regime_core.catalogue import hardware
from regime_core.catalogue.levers import advice
from regime_core.catalogue.quantity import Dim, format_quantity, number
from regime_core.content import drill
from regime_core.grading.attempt import MAX_IMPORT_BYTES, MAX_TEXT
from regime_core.grading.grade import CRITERIA
from regime_core.grading.review import part_b_question, part_b_review
from regime_core.judgment.symptoms import OBSERVED_FIELDS, SHRINKABLE
from regime_core.model import work
from regime_core.model.roofline import place
from regime_core.model.work import matmul
from regime_site.field_names import LABELS
from regime_site.markup import bullet_list as _list
from regime_site.markup import esc
from regime_site.markup import field as _field
from regime_site.pictures import part_b_figure
from regime_site.render import answer, buttons, links

# An MLP projection of a 8B-class model at 2,048 tokens: nothing from the drill, so nothing is spoiled.
# In the shape of a ``kernel`` request (the form's dotted names nest into it).
STRETCH_DEFAULT: dict[str, Any] = {"hardware": {"id": "h100-sxm"}, "dtype": "bf16",
                                   "work": {"kernel": "matmul", "m": 2048, "n": 14336, "k": 4096}}
EXPLORER_DEFAULT = "h100-sxm"


def _kinds_of(name: str) -> str:
    """The kernel kinds that take shape field ``name``, space-separated."""
    return " ".join(kind for kind, names in work.FIELDS.items() if name in names)


def part_b_table() -> str:
    """The drill's Part B table, figures from the data file."""
    # Cells and rows apart: search's index reads the text between tags, and "1.68e7" beside "5.03e7" is a number.
    rows = "\n".join(f"<tr><td>{esc(r.label)}</td> <td>{esc(number(r.drill_flops))}</td>"
                     f" <td>{esc(number(r.drill_bytes))}</td></tr>" for r in drill.part_b())
    card = drill.part_b_card()
    return (f'<p>A card claims {esc(format_quantity(card.peak("bf16"), Dim.FLOP_RATE))} and'
            f' {esc(format_quantity(card.bandwidth.value, Dim.BYTE_RATE))}.</p>'
            f'<table><thead><tr><th>kernel</th> <th>FLOPs</th> <th>bytes</th></tr></thead>\n<tbody>{rows}</tbody></table>')


def _part_b_answer() -> str:
    rows = drill.part_b()
    parts = []
    for r in rows:
        parts.append(f"<h4>{esc(r.label)}</h4>")
        parts.append(_list([*r.placement.arithmetic(), f"allowed: {r.placement.allowed}"]))
        if r.discrepancies():
            parts += ["<p><strong>Against the drill's own table:</strong></p>", _list(r.discrepancies())]
    parts.append(part_b_figure())
    return "".join(parts)


def part_b_attempt() -> str:
    """Part B's attempt form and its locked answer."""
    fields = _field("ridge", "1. Ridge (FLOP/byte)", '<input name="ridge" inputmode="decimal" maxlength="200">')
    for r in drill.part_b():
        key = f"kernels.{r.id}"
        side = (f'<select name="{esc(key)}.side"><option value="">choose…</option>'
                '<option value="below">below the ridge</option><option value="above">above the ridge</option></select>')
        fields += (f'<fieldset class="regime-kernel"><legend>{esc(r.label)}</legend>'
                   + _field(f"{key}.intensity", "Intensity (FLOP/byte)",
                            f'<input name="{esc(key)}.intensity" inputmode="decimal" maxlength="200">')
                   + _field(f"{key}.side", "Side", side)
                   + _field(f"{key}.optimisation", "The only class of optimisation allowed",
                            f'<input name="{esc(key)}.optimisation" maxlength="1000">')
                   + "</fieldset>")
    return (
        '<div class="regime-part-b" data-regime-widget="attempt" data-item="part-b" data-validate="part_b_attempt">'
        + links("part-b", "Part B — the ridge, by hand", part_b_review("{url}"), question=part_b_question("{url}"))
        + f'<form data-search-exclude class="regime-attempt" novalidate aria-label="Your Part B attempt">{fields}{buttons()}</form>'
        + '<p class="regime-feedback" role="status" aria-live="polite"></p>'
        + answer("part-b", _part_b_answer()) + "</div>"
    )


def _card_picker(selected: str) -> str:
    """A card's fields, named as a request's ``hardware`` object: ``hardware.id``, ``.peak_flops``, ``.bandwidth``."""
    options = "".join(
        f'<option value="{esc(c.id)}"{" selected" if c.id == selected else ""}>{esc(c.name)}</option>'
        for c in hardware.catalogue().values())
    dtypes = "".join(f'<option value="{d}">{d}</option>' for d in hardware.DTYPES)
    # The selected card's own figures, as the widget writes them back: the page agrees with itself
    # before Python has started.
    shown = op_ridge({"hardware": {"id": selected}})
    return (_field("hardware.id", "Card",
                   f'<select name="hardware.id">{options}<option value="custom">custom…</option></select>')
            + _field("hardware.peak_flops", "Peak FLOP/s",
                     f'<input name="hardware.peak_flops" value="{esc(shown["peak_text"])}" placeholder="e.g. 312 TFLOP/s"'
                     ' maxlength="200">')
            + _field("hardware.bandwidth", "Bandwidth",
                     f'<input name="hardware.bandwidth" value="{esc(shown["bandwidth_text"])}"'
                     ' placeholder="e.g. 2.0 TB/s" maxlength="200">')
            + _field("dtype", "dtype", f'<select name="dtype"><option value="">card default</option>{dtypes}</select>'))


def ridge_explorer() -> str:
    """The interactive ridge table; the ridge is shown now, the kernel rows once Part B is unlocked."""
    static = op_ridge({"hardware": {"id": EXPLORER_DEFAULT}})["ridge_line"]  # the same line the widget shows live
    return (
        '<div class="regime-explorer" data-regime-widget="ridge-table" data-unlocked-by="part-b">'
        f'<form data-search-exclude class="regime-explorer__form" novalidate aria-label="Ridge explorer">{_card_picker(EXPLORER_DEFAULT)}'
        '<div class="regime-actions"><button data-search-exclude type="submit" class="md-button">Recompute</button></div></form>'
        '<p class="regime-status" role="status" aria-live="polite"></p>'
        f'<p class="regime-explorer__ridge" aria-live="polite">{esc(static)}</p>'
        '<div class="regime-explorer__rows" aria-live="polite"><p class="regime-explorer__locked">The three kernels'
        " appear here once you have submitted your Part B attempt.</p></div></div>"
    )


def _part_c_answer() -> str:
    return (f"<p>{esc(drill.part_c_model_answer())}</p><p class='regime-answer__source'>One model answer; its"
            " numbers are worked out from the drill's own figures, as in the answers above.</p>")


def part_c_attempt() -> str:
    """Part C's paragraph, and a model argument that unlocks after an attempt."""
    return (
        '<div class="regime-part-c" data-regime-widget="attempt" data-item="part-c">'
        + links("part-c", "Part C — write the argument")
        + '<form data-search-exclude class="regime-attempt" novalidate aria-label="Your Part C paragraph">'
        + _field("paragraph", "Your paragraph", f'<textarea name="paragraph" rows="6" maxlength="{MAX_TEXT}"></textarea>')
        + buttons() + "</form>"
        + '<p class="regime-feedback" role="status" aria-live="polite"></p>'
        + answer("part-c", _part_c_answer()) + "</div>"
    )


_FLAGS = ("fused", "causal")  # shape fields that are yes or no: checkboxes


def _more_measurements() -> str:
    """Every other measurement the symptoms format takes, folded: the same fields as ``regime classify``."""
    shown = ("time", "tokens_per_s")
    fields = [_field(f"observed.{name}", LABELS.get(name, name),
                     f'<input name="observed.{name}" maxlength="200" autocomplete="off">')
              for name in (*OBSERVED_FIELDS, "launches") if name not in shown]
    shrunk = "".join(f'<option value="{w}">{w}</option>' for w in ("", *SHRINKABLE))
    fields.append(_field("observed.shrunk", LABELS["shrunk"], f'<select name="observed.shrunk">{shrunk}</select>'))
    fields.append(_field("observed.host_sync_in_loop", LABELS["host_sync_in_loop"],
                         '<input type="checkbox" name="observed.host_sync_in_loop">'))
    return ('<details class="regime-stretch__more"><summary>More measurements (optional)</summary>'
            '<div class="regime-stretch__more-fields">' + "".join(fields) + "</div></details>")


def stretch() -> str:
    """The stretch widget: any kernel on any card, with a static default result."""
    d = STRETCH_DEFAULT
    shape, card_id = d["work"], d["hardware"]["id"]
    p = place(matmul(int(shape["m"]), int(shape["n"]), int(shape["k"]), str(d["dtype"])), hardware.get(card_id))
    kinds = "".join(f'<option value="{k}"{" selected" if k == shape["kernel"] else ""}>{k}</option>'
                    for k in work.KINDS) + '<option value="none">no shape quoted</option>'
    shape_fields = "".join(
        _field(f"work.{name}", LABELS.get(name, name),
               f'<input name="work.{name}" value="{esc(shape.get(name, ""))}" maxlength="200">', _kinds_of(name))
        for name in dict.fromkeys(n for names in work.FIELDS.values() for n in names if n not in _FLAGS))
    # As the live verdict says it: the roofline gives a leaning; a measured time decides.
    static = placement_view(p)["summary"] + f" Leaning {advice(p.bound).name} by the roofline; a measured time decides."
    return (
        f'<div class="regime-stretch" data-regime-widget="stretch" data-default="{esc(json.dumps(d))}">'
        + '<form data-search-exclude class="regime-stretch__form" novalidate aria-label="Classify your own kernel">'
        + _card_picker(card_id)
        + _field("work.kernel", "Kernel", f'<select name="work.kernel">{kinds}</select>')
        + shape_fields
        + "".join(_field(f"work.{f}", LABELS[f], f'<input type="checkbox" name="work.{f}">', _kinds_of(f))
                  for f in _FLAGS)
        + _field("observed.time", "Measured time (optional)",
                 '<input name="observed.time" placeholder="e.g. 12 µs" maxlength="200">')
        + _field("observed.tokens_per_s", "Measured tokens/s (optional)",
                 '<input name="observed.tokens_per_s" placeholder="e.g. 38" maxlength="200">', "decode")
        + _more_measurements()
        + '<div class="regime-actions"><button data-search-exclude type="submit" class="md-button md-button--primary">Classify</button> '
        '<button data-search-exclude type="button" class="md-button" data-action="copy-stretch-link">Copy link to this kernel</button> '
        '<button data-search-exclude type="button" class="md-button" data-action="copy-stretch-review">Copy as review comment</button>'
        "</div></form>"
        + '<p class="regime-stretch__link" role="status" aria-live="polite"></p>'
        + '<p class="regime-status" role="status" aria-live="polite"></p>'
        + '<div class="regime-stretch__result" aria-live="polite" tabindex="-1">'
        f'<p class="regime-stretch__static">{esc(static)}</p>'
        '<p class="regime-stretch__pending">Working out the kernel from this link…</p></div></div>'
    )


def acceptance_panel() -> str:
    """The five criteria, graded live once attempts exist, and the export and import controls."""
    criteria = "".join(f'<li data-criterion="{n}"><span class="regime-acceptance__text">{esc(text)}</span>'
                       ' <span class="regime-acceptance__mark"></span> <span class="regime-acceptance__why"></span></li>'
                       for n, text in enumerate(CRITERIA, start=1))
    buttons = "".join(f'<button data-search-exclude type="button" class="md-button" data-action="{action}">{esc(label)}</button> '
                      for action, label in (("download-md", "Download Markdown"), ("copy-md", "Copy Markdown"),
                                            ("download-json", "Download JSON"), ("import-json", "Import JSON")))
    return (
        f'<div class="regime-acceptance" data-regime-widget="acceptance" data-max-import-bytes="{MAX_IMPORT_BYTES}">'
        f'<p>A passing write-up needs:</p><ol class="regime-acceptance__criteria" aria-live="polite">{criteria}</ol>'
        '<p class="regime-acceptance__verdict" role="status" aria-live="polite"></p>'
        '<p class="regime-status" role="status" aria-live="polite"></p>'
        # Written into the downloaded file for a mentor's class report (regime grade FOLDER); kept in this browser.
        '<p class="regime-learner-name" data-search-exclude><label>Your name, for a mentor\'s class report'
        ' (optional) <input name="learner" maxlength="80" autocomplete="name"></label></p>'
        f'<div class="regime-actions">{buttons}</div>'
        '<label class="regime-acceptance__file">Attempt file to import'
        ' <input type="file" accept="application/json,.json" hidden></label>'
        '<p class="regime-acceptance__status" role="status" aria-live="polite"></p></div>'
    )
