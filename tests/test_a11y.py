"""Accessibility: axe-core on every page and on each widget state, in light and dark, and a keyboard-only
attempt.

Each page or state is reached once for both palettes where it can be (``accessibility.Shown``, a
module-scoped fixture): the dark test switches the palette with the header's toggle on the page the light
test looked at. The scheduler sends runs of neighbouring tests to a worker, so the two tests
of a pair mostly run one after the other; where they are split, each worker reaches the state itself.
(xdist's ``--dist loadgroup`` cannot pin a pair: under pytest 9 the group name it appends to a test's id
no longer reaches the id, so it groups nothing; tried with xdist 3.8.0 and pytest 9.2.0.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from accessibility import SCHEMES, Shown, held
from conftest import PAGES, PageLog, WarmContext, open_page

ROOT = Path(__file__).resolve().parent.parent
#: What a script or template would use to read the palette, and so draw differently in a page opened in dark.
READS_PALETTE = re.compile(r"prefers-color-scheme|matchMedia|mdColorScheme|data-md-color-scheme|__palette")


def test_only_css_keyed_on_materials_palette_follows_it() -> None:
    """The premise of checking dark on a page switched with the header's toggle: no script or template of
    ours reads the palette, and no style of ours (the CSS, the pictures the core draws) asks the browser's
    preference, which the toggle does not change; styles follow Material's ``data-md-color-scheme``."""
    scripts = sorted([*(ROOT / "overrides").rglob("*.js"), *(ROOT / "overrides").rglob("*.html")])
    styles = sorted([*(ROOT / "overrides").rglob("*.css"), *(ROOT / "src").rglob("*.py")])
    assert scripts, "no scripts found to read"
    assert styles, "no styles found to read"
    found = [(path.name, m[0]) for path in scripts for m in READS_PALETTE.finditer(path.read_text(encoding="utf-8"))]
    found += [(path.name, "prefers-color-scheme") for path in styles
              if "prefers-color-scheme" in path.read_text(encoding="utf-8")]
    assert found == [], found


def _open_answer(page: Page) -> None:
    """Open one answer and its editor on the drill, so they are checked too."""
    form = page.locator('[data-item="a2"] form.regime-attempt')
    form.locator('input[value="memory"]').check()
    form.locator('button[type="submit"]').click()
    expect(page.locator('[data-regime-answer="a2"]')).to_be_visible()


@pytest.fixture(scope="module")
def site_page(request: pytest.FixtureRequest, warm_context: WarmContext, base_url: str) -> Iterator[Shown]:
    with held(warm_context, base_url) as shown:
        shown.page.goto(base_url + request.param)
        expect(shown.page.locator("article h1")).to_be_visible()
        if request.param == "drill/":
            _open_answer(shown.page)
        yield shown


@pytest.mark.parametrize("scheme", list(SCHEMES))
@pytest.mark.parametrize("site_page", PAGES, indirect=True)
def test_no_serious_or_critical_violation(site_page: Shown, scheme: str) -> None:
    summary = site_page.serious_violations(scheme)
    assert summary == [], summary


def test_keyboard_only_attempt_reaches_its_answer(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/#a5")
    first_radio = page.locator('[data-item="a5"] form.regime-attempt input[value="compute"]')
    first_radio.focus()
    page.keyboard.press("Space")
    expect(first_radio).to_be_checked()
    page.keyboard.press("Tab")  # the evidence box
    page.keyboard.type("62% of peak tensor TFLOP/s")
    for _ in range(3):  # helps, wastes, submit
        page.keyboard.press("Tab")
    expect(page.locator('[data-item="a5"] form.regime-attempt button[type="submit"]')).to_be_focused()
    page.keyboard.press("Enter")
    answer = page.locator('[data-regime-answer="a5"]')
    expect(answer).to_be_visible()
    expect(answer).to_be_focused()  # focus moves to the feedback
    assert page.locator('[data-item="a5"] .regime-feedback').get_attribute("aria-live") == "polite"
    expect(page.locator('[data-item="a5"] .regime-feedback')).to_contain_text("Attempt saved")


def _state_error(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    page.locator('.regime-incident[data-item="a1"] form.regime-attempt button[type="submit"]').click()
    expect(page.locator('.regime-incident[data-item="a1"] .regime-field__error').first).to_be_visible()
    stretch = page.locator(".regime-stretch")
    stretch.locator('input[name="work.m"]').fill("lots")
    stretch.locator('button[type="submit"]').click()
    expect(stretch.locator('[data-field="work.m"] .regime-field__error')).to_be_visible()


def _state_unlocked(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    for item, regime in (("a1", "compute"), ("a4", "memory")):
        form = page.locator(f'.regime-incident[data-item="{item}"] form.regime-attempt')
        form.locator(f'input[value="{regime}"]').check()
        form.locator('button[type="submit"]').click()
    editor = page.locator('.regime-explore[data-item="a4"]')
    editor.locator("summary").click()
    editor.locator('button[type="submit"]').click()
    expect(editor.locator(".regime-explore__result svg")).to_have_count(1)
    expect(page.locator('.regime-acceptance__criteria li[data-passed]').first).to_be_attached()
    page.locator('[data-action="reset-all"]').click()
    page.locator('[data-action="confirm-reset"]').click()
    expect(page.locator('[data-action="undo-reset"]')).to_be_visible()
    page.locator('[data-action="undo-reset"]').click()
    expect(page.locator('[data-regime-answer="a4"]')).to_be_visible()


def _state_loading(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}drill/?hardware.id=l4&work.kernel=decode&work.params=7e9&work.batch=1#stretch")
    expect(page.locator(".regime-stretch__result")).to_be_visible()


def _state_failed(page: Page, base_url: str) -> None:
    page.context.route("**/pyodide.asm.wasm", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(base_url + "drill/#stretch")
    page.locator('.regime-stretch button[type="submit"]').click()
    expect(page.locator(".regime-stretch .regime-status")).to_contain_text("could not start")


def _state_class_report(page: Page, base_url: str) -> None:
    from test_class_report import RECORD, _class

    files = [{"name": sub.file, "mimeType": "application/json",
              "buffer": (b"{" if sub.unreadable else json.dumps(sub.data).encode())} for sub in _class()]
    files.append({"name": "bo-practice.json", "mimeType": "application/json", "buffer": json.dumps(RECORD).encode()})
    page.goto(base_url + "mentor/")
    page.locator('.regime-mentor input[type="file"]').set_input_files(files)
    expect(page.locator('.regime-mentor__result[data-state="done"] table')).to_be_visible(timeout=90_000)


def _state_trace_diff(page: Page, base_url: str) -> None:
    from test_diff import stepped
    from trace_builder import as_bytes

    page.goto(base_url + "trace/")
    widget = page.locator(".regime-trace-diff")
    for side, trace in (("before", stepped(loader_us=6000)), ("after", stepped())):
        widget.locator(f'input[name="{side}"]').set_input_files(
            {"name": f"{side}.json", "mimeType": "application/json", "buffer": as_bytes(trace)})
    expect(widget.locator('.regime-trace-diff__result[data-state="done"] table').first).to_be_visible(timeout=90_000)


STATES = {"error": _state_error, "unlocked": _state_unlocked, "loading": _state_loading, "failed": _state_failed,
          "class report": _state_class_report, "trace diff": _state_trace_diff}
#: States seen before Python is ready, or when it cannot start: they need a context of their own,
#: with empty caches; the others open in the warm one.
COLD_STATES = ("loading", "failed")


@pytest.fixture(scope="module")
def widget_state(request: pytest.FixtureRequest, browser: object, warm_context: WarmContext,
                 base_url: str) -> Iterator[Shown]:
    if request.param in COLD_STATES:
        log = PageLog()
        page = open_page(browser, base_url, log)
        STATES[request.param](page, base_url)
        yield Shown(page, log)
        page.context.close()
        return
    with held(warm_context, base_url) as shown:
        STATES[request.param](shown.page, base_url)
        yield shown


@pytest.mark.parametrize("scheme", list(SCHEMES))
@pytest.mark.parametrize("widget_state", list(STATES), indirect=True)
def test_widget_states_have_no_serious_violation(widget_state: Shown, scheme: str) -> None:
    """axe on what a learner sees after acting, not only on a fresh page (where no error shows yet)."""
    summary = widget_state.serious_violations(scheme)
    assert summary == [], summary

