"""The Practice page's widget, written from the core: its levels, regimes, labels and limits."""

from __future__ import annotations

from html import escape

from regime_core.bridge.practice_ops import MAX_LINE
from regime_core.catalogue.levers import REGIMES, advice
from regime_core.grading.labels import PRACTICE
from regime_core.judgment.words import LABEL
from regime_core.practice.generate import LEVEL_NAMES
from regime_site.markup import field as _field

#: The fourth choice a generated incident allows: the symptoms cannot decide yet.
UNDECIDED_CHOICE = ("undecided: the symptoms cannot decide yet", "undecided: measure first")


def practice_widget() -> str:
    """One incident at a time, the four-line attempt, the result, the tally and where the learner goes wrong."""
    levels = "".join(f'<option value="{n}">{n}: {escape(name)}</option>' for n, name in LEVEL_NAMES.items())
    choices = [(advice(r).name, advice(r).name) for r in REGIMES] + [UNDECIDED_CHOICE]
    radios = "".join(f'<label class="regime-choice"><input type="radio" name="regime" value="{escape(value)}">'
                     f" {escape(shown)}</label>" for value, shown in choices)
    text = f'maxlength="{MAX_LINE}" autocomplete="off"'
    return (
        '<div class="regime-practice" data-regime-widget="practice">'
        '<p class="regime-status" role="status" aria-live="polite"></p>'
        "<noscript><p>This page needs JavaScript: the incidents are written by Python running in your browser."
        " The command line writes them too: <code>regime practice --level 2</code>.</p></noscript>"
        '<form data-search-exclude class="regime-practice__controls">'
        f'<div class="regime-field"><label>Level <select name="level">{levels}</select></label></div>'
        '<button data-search-exclude type="submit" class="md-button">Next incident</button></form>'
        '<p class="regime-practice__id"></p>'
        '<blockquote class="regime-practice__statement" aria-live="polite"><p>Loading an incident…</p></blockquote>'
        '<p class="regime-practice__note" hidden></p>'
        '<form data-search-exclude class="regime-practice__attempt regime-attempt" novalidate aria-label="Your attempt at this incident">'
        f'<div class="regime-field" data-field="regime"><fieldset><legend>{escape(LABEL["regime"])}</legend>{radios}'
        '</fieldset><p class="regime-field__error" role="alert" hidden></p></div>'
        + _field("evidence", LABEL["evidence"], f'<textarea name="evidence" rows="2" maxlength="{MAX_LINE}"></textarea>')
        + _field("helps", PRACTICE["helps"],
                 f'<input name="helps" list="regime-levers" {text}>')
        + _field("wastes", LABEL["wastes"], f'<input name="wastes" list="regime-levers" {text}>')
        + '<div class="regime-actions"><button data-search-exclude type="submit" class="md-button md-button--primary">Submit</button>'
        ' <button data-search-exclude type="button" class="md-button" data-action="check">Check without the answer</button>'
        ' <button data-search-exclude type="button" class="md-button" data-action="hint" hidden>Hint</button></div>'
        '<p class="regime-hint" role="status" aria-live="polite" hidden></p></form>'
        '<div class="regime-practice__result" aria-live="polite"></div>'
        '<p><button data-search-exclude type="button" class="md-button" data-action="copy-link">Copy this incident\'s address</button></p>'
        '<p class="regime-practice__link" role="status" aria-live="polite"></p>'
        '<h2 id="tally">Your tally</h2><div class="regime-practice__tally"><p>Nothing graded yet.</p></div>'
        '<h2 id="where-you-go-wrong">Where you go wrong</h2>'
        '<div class="regime-practice__wrong"><p>Nothing graded yet.</p></div>'
        '<p><button data-search-exclude type="button" class="md-button" data-action="reset">Forget my tally</button></p>'
        '<p class="regime-practice__forget" role="status" aria-live="polite"></p>'
        '<h2 id="for-your-mentor">For your mentor</h2>'
        "<p>A mentor's class report reads your tally from the file this saves: the incidents you read right, the"
        " kinds you still miss and the traps you fell for (never your answers' words).</p>"
        '<p class="regime-learner-name" data-search-exclude><label>Your name, for a mentor\'s class report'
        ' (optional) <input name="learner" maxlength="80" autocomplete="name"></label></p>'
        '<p><button data-search-exclude type="button" class="md-button" data-action="download-record">'
        "Download your record</button></p></div>"
    )
