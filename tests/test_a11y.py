"""Accessibility: axe-core on every page in light and dark, and a keyboard-only attempt."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conftest import PAGES, PageLog, open_page

AXE = Path(__file__).resolve().parent.parent / "node_modules/axe-core/axe.min.js"


def axe_violations(page: Page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", PAGES)
def test_no_serious_or_critical_violation(page_as: Callable[..., Page], base_url: str, path: str, scheme: str) -> None:
    page = page_as(color_scheme=scheme)
    page.goto(base_url + path)
    expect(page.locator("article h1")).to_be_visible()
    if path == "drill/":  # open one answer and its editor, so they are checked too
        form = page.locator('[data-item="a2"] form.regime-attempt')
        form.locator('input[value="memory"]').check()
        form.locator('button[type="submit"]').click()
        expect(page.locator('[data-regime-answer="a2"]')).to_be_visible()
    violations = axe_violations(page)
    summary = [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]]) for v in violations]
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


STATES = {"error": _state_error, "unlocked": _state_unlocked, "loading": _state_loading, "failed": _state_failed}
#: States seen before Python is ready, or when it cannot start: they need a context of their own,
#: with empty caches; the others open in the warm one.
COLD_STATES = ("loading", "failed")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("state", list(STATES))
def test_widget_states_have_no_serious_violation(browser: object, page_as: Callable[..., Page], base_url: str,
                                                 state: str, scheme: str) -> None:
    """axe on what a learner sees after acting, not only on a fresh page (where no error shows yet)."""
    cold = state in COLD_STATES
    page = open_page(browser, base_url, PageLog(), color_scheme=scheme) if cold else page_as(color_scheme=scheme)
    STATES[state](page, base_url)
    violations = axe_violations(page)
    if cold:
        page.context.close()
    summary = [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]]) for v in violations]
    assert summary == [], summary
