"""Grading on the site: fill the whole drill, see the verdict, take it away, bring it back."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from conftest import PageLog, open_page

PASSING = json.loads((Path(__file__).parent.parent / "examples/attempt-passing.json").read_text())


def fill_drill(page: Page) -> None:
    for item, entry in PASSING["part_a"].items():
        form = page.locator(f'[data-item="{item}"] form.regime-attempt')
        regime = next(r for r in ("compute", "memory", "overhead") if r in entry["regime"] or
                      (r == "overhead" and "host" in entry["regime"]))
        form.locator(f'input[value="{regime}"]').check()
        form.locator('textarea[name="evidence"]').fill(entry["evidence"])
        form.locator('input[name="helps"]').fill(entry["helps"])
        form.locator('input[name="wastes"]').fill(entry["wastes"])
        form.locator('button[type="submit"]').click()
    form = page.locator('[data-item="part-b"] form.regime-attempt')
    form.locator('input[name="ridge"]').fill(str(PASSING["part_b"]["ridge"]))
    for kernel, row in PASSING["part_b"]["kernels"].items():
        form.locator(f'input[name="kernels.{kernel}.intensity"]').fill(str(row["intensity"]))
        form.locator(f'select[name="kernels.{kernel}.side"]').select_option(row["side"])
        form.locator(f'input[name="kernels.{kernel}.optimisation"]').fill(row["optimisation"])
    form.locator('button[type="submit"]').click()
    expect(page.locator('[data-regime-answer="part-b"]')).to_be_visible()
    page.locator('[data-item="part-c"] textarea').fill(PASSING["part_c"])
    page.locator('[data-item="part-c"] form.regime-attempt button[type="submit"]').click()


def test_fill_grade_export_and_import_into_a_fresh_profile(page: Page, base_url: str, browser: object,
                                                           tmp_path: Path) -> None:
    page.goto(base_url + "drill/")
    fill_drill(page)
    panel = page.locator(".regime-acceptance")
    expect(panel.locator(".regime-acceptance__verdict")).to_have_text("Passing write-up.", timeout=60_000)
    expect(panel.locator('li[data-passed="true"]')).to_have_count(5)
    expect(page.locator('[data-item="a1"] .regime-item-grade li').first).to_contain_text("✓")

    with page.expect_download() as markdown_download:
        panel.locator('[data-action="download-md"]').click()
    markdown = Path(markdown_download.value.path()).read_text()
    assert "- **Lever that helps:** lower-precision FP8 math or more GPUs" in markdown
    assert "**Passing write-up.**" in markdown
    assert "1. Puts each incident of Part A in its regime. ✅ All 8 regimes are right." in markdown
    panel.locator('input[name="learner"]').fill("Ada Lovelace")  # for a mentor's class report
    with page.expect_download() as json_download:
        panel.locator('[data-action="download-json"]').click()
    exported = tmp_path / "attempt.json"
    exported.write_bytes(Path(json_download.value.path()).read_bytes())
    saved = json.loads(exported.read_text())
    assert saved["part_b"]["kernels"]["decode"]["side"] == "below"
    assert saved["learner"] == "Ada Lovelace"
    assert saved["receipt"]["passed"] is True  # the page's grade, sealed into the file
    from regime_core.grading.class_report import Submission, class_report

    row = class_report([Submission("attempt.json", saved)])["learners"][0]
    assert (row["name"], row["passed"], row["receipt"]) == ("Ada Lovelace", True, "matches")

    fresh_log = PageLog()
    fresh = open_page(browser, base_url, fresh_log)
    fresh.goto(base_url + "drill/")
    expect(fresh.locator('[data-regime-answer="a1"]')).to_be_hidden()
    fresh.locator('.regime-acceptance input[type="file"]').set_input_files(str(exported))
    expect(fresh.locator(".regime-acceptance__status")).to_contain_text("Imported attempt.json")
    expect(fresh.locator(".regime-acceptance__verdict")).to_have_text("Passing write-up.", timeout=60_000)
    expect(fresh.locator('[data-regime-answer="a1"]')).to_be_visible()
    expect(fresh.locator('[data-item="part-c"] textarea')).to_have_value(PASSING["part_c"])
    fresh.context.close()
    assert fresh_log.errors == []
    assert fresh_log.external == []


def test_a_bad_import_changes_nothing_and_says_why(page: Page, base_url: str, tmp_path: Path) -> None:
    page.goto(base_url + "drill/")
    form = page.locator('[data-item="a6"] form.regime-attempt')
    form.locator('input[value="overhead"]').check()
    form.locator('button[type="submit"]').click()
    expect(page.locator('[data-regime-answer="a6"]')).to_be_visible()
    for name, content in (("bad.json", "{not json"), ("types.json", '{"part_a": {"a1": {"regime": 5}}}'),
                          ("ids.json", '{"part_a": {"a9": {}}}')):
        path = tmp_path / name
        path.write_text(content)
        page.locator('.regime-acceptance input[type="file"]').set_input_files(str(path))
        status = page.locator(".regime-acceptance__status")
        expect(status).to_contain_text(f"{name}:")
        expect(status).to_contain_text("Nothing was changed")
    expect(page.locator('[data-regime-answer="a6"]')).to_be_visible()
    page.reload()
    expect(page.locator('[data-regime-answer="a6"]')).to_be_visible()


def _climbs_the_hint_ladder(form: object, nudge: str, arithmetic: str) -> None:
    """Each press of Hint says more (a nudge, the deciding symptom, the arithmetic), then the button stops."""
    button = form.locator('[data-action="hint"]')  # type: ignore[attr-defined]
    hint = form.locator(".regime-hint .regime-hint__rung")  # type: ignore[attr-defined]
    button.click()
    expect(hint).to_have_count(1)
    expect(hint.nth(0)).to_contain_text(f"Hint 1 of 3: {nudge}")
    expect(button).to_have_text("Another hint")
    button.click()
    expect(hint).to_have_count(2)
    expect(hint.nth(1)).to_contain_text("Hint 2 of 3: The deciding symptom")
    button.click()
    expect(hint).to_have_count(3)
    expect(hint.nth(2)).to_contain_text(arithmetic)
    expect(button).to_have_text("No more hints")
    expect(button).to_be_disabled()
    assert len({hint.nth(i).inner_text() for i in range(3)}) == 3


def test_a_shorthand_answer_is_never_marked_wrong_and_a_hint_leaves_the_answer_locked(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    incident = page.locator('[data-item="a4"]')
    form = incident.locator("form.regime-attempt")
    answer = page.locator('[data-regime-answer="a4"]')
    lines = incident.locator(".regime-item-grade li")
    form.locator('input[value="memory"]').check()
    form.locator('textarea[name="evidence"]').fill("14GB/300GB/s = 47ms")
    form.locator('input[name="helps"]').fill("quant / gqa")
    form.locator('input[name="wastes"]').fill("mma kernel")
    form.locator('[data-action="check"]').click()
    expect(lines).to_have_count(4, timeout=90_000)
    for line in lines.all():
        assert "✗" not in line.inner_text()
        assert "✓" in line.inner_text() or "Could not tell" in line.inner_text()
        # the line's state rides beside its mark, for the eye: the same reading as the mark
        assert line.get_attribute("data-passed") == ("true" if "✓" in line.inner_text() else "unknown")
    expect(answer).to_be_hidden()

    form.locator('input[name="helps"]').fill("switch to the faster MMA-heavy kernel")
    form.locator('[data-action="check"]').click()
    expect(lines.filter(has_text="✗")).to_have_count(1)
    expect(lines.filter(has_text="✗")).to_have_attribute("data-passed", "false")
    # Each line is labelled as its field is, never by a key.
    expect(lines.filter(has_text="✗")).to_contain_text("Lever that helps: ✗")
    _climbs_the_hint_ladder(form, "At batch 1", "300 GB/s")
    expect(answer).to_be_hidden()

    # A wrong regime's line already gives the nudge: the first Hint shows it again above the deciding symptom.
    a6 = page.locator('[data-item="a6"]')
    a6.locator('input[value="memory"]').check()
    a6.locator('[data-action="check"]').click()
    expect(a6.locator(".regime-item-grade li").first).to_contain_text("Regime: ✗ Not memory-bound: Read the picket fence")
    a6.locator('[data-action="hint"]').click()
    expect(a6.locator(".regime-hint .regime-hint__rung")).to_have_count(2)
    expect(a6.locator(".regime-hint .regime-hint__rung").nth(0)).to_contain_text("Hint 1 of 3: Read the picket fence")
    expect(a6.locator(".regime-hint .regime-hint__rung").nth(1)).to_contain_text("Hint 2 of 3: The deciding symptom")

    panel = page.locator(".regime-acceptance")
    first = panel.locator('li[data-criterion="1"]')
    expect(first).to_contain_text("Puts each incident of Part A in its regime.")
    form.locator('button[type="submit"]').click()
    expect(answer).to_be_visible()
    expect(first).to_contain_text("Not attempted yet: A1, A2, A3, A5, A6, A7, A8", timeout=60_000)
    expect(first).to_contain_text("Puts each incident of Part A in its regime.")
    expect(panel.locator('li[data-criterion="5"]')).not_to_contain_text("FLOP/byte")
    expect(panel.locator('li[data-criterion="3"]')).to_have_attribute("data-passed", "false")
