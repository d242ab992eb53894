"""The learner's experience, measured in the browser: contrast, Start over and its undo, stretch
links, focus and anchors below the sticky header, roofline labels, progress, JavaScript off."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conftest import PageLog, open_page, until

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# The WCAG contrast ratio of an element's text against what is painted behind it: backgrounds of
# the element and its ancestors, composited until one is opaque, over the page's own background.
CONTRAST_JS = """(element) => {
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const over = (top, bottom) => top.slice(0, 3).map((c, i) => c * top[3] + bottom[i] * (1 - top[3])).concat(1);
  const layers = [];
  for (let node = element; node; node = node.parentElement) {
    const bg = parse(getComputedStyle(node).backgroundColor);
    if (bg && bg[3] > 0) layers.push(bg);
    if (bg && bg[3] === 1) break;
  }
  let background = [255, 255, 255, 1];
  for (const layer of layers.reverse()) background = over(layer, background);
  const text = over(parse(getComputedStyle(element).color), background);
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(text), lum(background)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}"""

# Every text box of every roofline on the page, as drawn (transforms included), in CSS px.
LABEL_BOXES_JS = """() => [...document.querySelectorAll("svg.roofline")].filter((svg) => svg.getClientRects().length)
  .map((svg) => ({
    id: svg.getAttribute("aria-labelledby"),
    scale: svg.getBoundingClientRect().width / svg.viewBox.baseVal.width,
    left: svg.getBoundingClientRect().left,
    right: svg.getBoundingClientRect().right,
    texts: [...svg.querySelectorAll("text")].map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent, cls: t.getAttribute("class"), size: parseFloat(getComputedStyle(t).fontSize),
               left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    }),
  }))"""


def _attempt(page: Page, item: str, regime: str, evidence: str = "70% of peak") -> None:
    form = page.locator(f'.regime-incident[data-item="{item}"] form.regime-attempt')
    form.locator(f'input[value="{regime}"]').check()
    form.locator('textarea[name="evidence"]').fill(evidence)
    form.locator('button[type="submit"]').click()
    expect(page.locator(f'[data-regime-answer="{item}"]')).to_be_visible()


def _header_bottom(page: Page) -> float:
    return float(page.evaluate("document.querySelector('.md-header').getBoundingClientRect().bottom"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_errors_and_marks_are_readable_in_both_palettes(page_as: Callable[..., Page], base_url: str, scheme: str) -> None:
    page = page_as(color_scheme=scheme)
    page.goto(base_url + "drill/")
    page.locator('.regime-incident[data-item="a1"] form.regime-attempt button[type="submit"]').click()
    error = page.locator('.regime-incident[data-item="a1"] [data-field="regime"] .regime-field__error')
    expect(error).to_be_visible()
    ratios = {"error": error.evaluate(CONTRAST_JS)}
    explorer = page.locator(".regime-explorer")
    explorer.locator('input[name="hardware.peak_flops"]').fill("312 TFLOP/s")
    explorer.locator('input[name="hardware.bandwidth"]').fill("fast")
    explorer.locator('button[type="submit"]').click()
    field_error = explorer.locator('[data-field="hardware.bandwidth"] .regime-field__error')
    expect(field_error).to_be_visible()
    ratios["field error"] = field_error.evaluate(CONTRAST_JS)

    _attempt(page, "a1", "compute")
    failed = page.locator('.regime-acceptance__criteria li[data-passed="false"] .regime-acceptance__mark').first
    expect(failed).to_be_visible()
    ratios["✗"] = failed.evaluate(CONTRAST_JS)
    page.locator('.regime-acceptance input[type="file"]').set_input_files(str(EXAMPLES / "attempt-passing.json"))
    page.locator('[data-action="confirm-import"]').click()  # a saved attempt is never replaced without asking
    passed = page.locator('.regime-acceptance__criteria li[data-passed="true"] .regime-acceptance__mark').first
    expect(passed).to_be_visible()
    ratios["✓"] = passed.evaluate(CONTRAST_JS)
    assert all(ratio >= 4.5 for ratio in ratios.values()), ratios


def test_start_over_says_what_it_cleared_and_undo_puts_back_exactly_that(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    _attempt(page, "a2", "memory", "1.7 of 2.0 TB/s")
    _attempt(page, "a5", "compute")
    saved = page.evaluate("localStorage.getItem('regime-drill')")
    assert json.loads(saved)["items"].keys() == {"a2", "a5"}

    controls = page.locator(".regime-progress")
    controls.locator('[data-action="reset-all"]').click()
    controls.locator('[data-action="confirm-reset"]').click()
    expect(page.locator('[data-regime-answer="a2"]')).to_be_hidden()
    expect(page.locator('[data-regime-answer="a5"]')).to_be_hidden()
    expect(controls.locator('[role="status"]')).to_contain_text("Cleared 2 attempts (A2, A5)")
    assert json.loads(page.evaluate("localStorage.getItem('regime-drill')"))["items"] == {}

    controls.locator('[data-action="undo-reset"]').click()
    expect(page.locator('[data-regime-answer="a2"]')).to_be_visible()
    expect(page.locator('[data-regime-answer="a5"]')).to_be_visible()
    expect(controls.locator('[role="status"]')).to_contain_text("Restored 2 attempts")
    assert page.evaluate("localStorage.getItem('regime-drill')") == saved  # exactly, timestamps included
    expect(page.locator('.regime-incident[data-item="a2"] textarea[name="evidence"]')).to_have_value("1.7 of 2.0 TB/s")
    expect(controls.locator('[data-action="undo-reset"]')).to_have_count(0)  # one undo per Start over


def test_undo_is_withdrawn_once_a_new_attempt_is_saved(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    _attempt(page, "a3", "overhead")
    page.locator('[data-action="reset-all"]').click()
    page.locator('[data-action="confirm-reset"]').click()
    expect(page.locator('[data-action="undo-reset"]')).to_be_visible()
    _attempt(page, "a7", "overhead")
    expect(page.locator('[data-action="undo-reset"]')).to_have_count(0)  # undoing would lose A7
    expect(page.locator('[data-regime-answer="a3"]')).to_be_hidden()


def test_progress_counts_what_is_right_and_marks_the_table_of_contents(page: Page, base_url: str,
                                                                      tmp_path: Path) -> None:
    page.goto(base_url + "drill/")
    count = page.locator(".regime-progress__count")
    total = page.locator(".regime-incident[data-item], .regime-part-b, .regime-part-c").count()
    expect(count).to_have_text(f"0 of {total} attempted.")
    _attempt(page, "a4", "memory")
    _attempt(page, "a1", "compute")
    # Attempted is not right: both leave their levers empty, so both are to look at again, with links.
    expect(count).to_have_text(f"0 of {total} right; look again at A1, A4; {total - 2} not attempted yet.")
    expect(count.locator('a[href="#a4"]')).to_have_count(1)
    toc = page.locator(".md-sidebar--secondary")
    expect(toc.locator('a.md-nav__link[href$="#a1"][data-regime-mark="wrong"]')).to_have_count(1)
    expect(toc.locator('a.md-nav__link[href$="#a4"][data-regime-mark="wrong"]')).to_have_count(1)
    expect(toc.locator("a.md-nav__link[data-regime-mark]")).to_have_count(2)
    page.reload()
    expect(count).to_contain_text(f"0 of {total} right; look again at A1, A4")
    acceptance = page.locator(".regime-acceptance")
    importing = acceptance.locator('input[type="file"]')
    # An import over saved work asks first; "Keep mine" changes nothing.
    importing.set_input_files(str(EXAMPLES / "attempt-passing.json"))
    expect(acceptance.locator(".regime-acceptance__status")).to_contain_text("holds 10 answered items")
    expect(acceptance.locator(".regime-acceptance__status")).to_contain_text("replaces your 2 saved attempts")
    acceptance.locator('[data-action="cancel-import"]').click()
    expect(acceptance.locator(".regime-acceptance__status")).to_contain_text("Kept your saved attempts")
    expect(count).to_contain_text(f"0 of {total} right; look again at A1, A4")
    importing.set_input_files(str(EXAMPLES / "attempt-passing.json"))
    acceptance.locator('[data-action="confirm-import"]').click()
    expect(count).to_have_text(re.compile(rf"^{total} of {total} right: A1, A2, .*Part C\.$"))
    expect(toc.locator('a.md-nav__link[data-regime-mark="right"]')).to_have_count(total)
    # ... and can be undone: the learner's own two attempts come back, the imported ones go.
    acceptance.locator('[data-action="undo-import"]').click()
    expect(acceptance.locator(".regime-acceptance__status")).to_contain_text("your 2 saved attempts are back")
    expect(count).to_contain_text(f"0 of {total} right; look again at A1, A4")
    importing.set_input_files(str(EXAMPLES / "attempt-passing.json"))
    acceptance.locator('[data-action="confirm-import"]').click()
    expect(count).to_contain_text(f"{total} of {total} right")
    page.locator('[data-action="reset-all"]').click()
    page.locator('[data-action="confirm-reset"]').click()
    expect(count).to_have_text(f"0 of {total} attempted.")
    expect(toc.locator("a.md-nav__link[data-regime-mark]")).to_have_count(0)
    one = tmp_path / "one.json"  # one answered item is said as one
    one.write_text(json.dumps({"part_a": {"a1": {"regime": "compute-bound"}}}), encoding="utf-8")
    importing.set_input_files(str(one))
    expect(acceptance.locator(".regime-acceptance__status")).to_contain_text("Imported one.json: 1 answered item.")
    page.locator('[data-action="reset-all"]').click()
    page.locator('[data-action="confirm-reset"]').click()


def test_a_stretch_link_never_shows_another_kernels_verdict(page: Page, base_url: str) -> None:
    # Record what the result area shows from the first moment it exists until the core answers.
    page.add_init_script("""
      window.regimeShown = [];
      const record = () => {
        const result = document.querySelector(".regime-stretch__result");
        if (result) window.regimeShown.push(result.innerText);
      };
      new MutationObserver(record).observe(document, { childList: true, subtree: true, characterData: true });
      document.addEventListener("DOMContentLoaded", record);
    """)
    page.goto(f"{base_url}drill/?hardware.id=mi300x&work.kernel=matmul&work.m=8192&work.n=8192&work.k=8192#stretch")
    result = page.locator(".regime-stretch__result")
    expect(result).to_contain_text("MI300X")
    expect(result).to_contain_text("8192×8192")
    shown = page.evaluate("window.regimeShown")
    assert shown, "the result area was never seen"
    # Until Python answers, the area says it is working out the link's kernel (recorded: a warm worker may answer
    # before a poll of the page would see it).
    assert any("Working out the kernel from this link" in text for text in shown), shown[:3]
    stale = [text for text in shown if "H100" in text or "14336" in text]
    assert stale == [], stale[:2]


def test_a_stretch_error_takes_the_old_verdict_away_and_a_copied_link_goes_stale(page_as: Callable[..., Page],
                                                                                 base_url: str) -> None:
    page = page_as(permissions=["clipboard-read", "clipboard-write"])
    page.goto(base_url + "drill/#stretch")
    stretch = page.locator(".regime-stretch")
    stretch.locator('button[type="submit"]').click()
    result = stretch.locator(".regime-stretch__result")
    expect(result).to_contain_text("Regime:")
    stretch.locator('[data-action="copy-stretch-link"]').click()
    expect(stretch.locator(".regime-stretch__link")).to_contain_text("Copied")
    stretch.locator('input[name="work.m"]').fill("lots")
    expect(stretch.locator(".regime-stretch__link")).to_be_empty()  # the copied link named m=2048
    stretch.locator('button[type="submit"]').click()
    expect(stretch.locator('[data-field="work.m"] .regime-field__error')).to_be_visible()
    expect(result).not_to_contain_text("Regime:")
    expect(result).to_contain_text("Fix the field marked above")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_answer_lands_below_the_sticky_header_after_submit(page_as: Callable[..., Page], base_url: str,
                                                              width: int) -> None:
    page = page_as(viewport={"width": width, "height": 800})
    page.goto(base_url + "drill/#a3")
    _attempt(page, "a3", "overhead")
    answer = page.locator('[data-regime-answer="a3"]')
    expect(answer).to_be_focused()
    top = answer.evaluate("(el) => el.getBoundingClientRect().top")
    assert top >= _header_bottom(page), (top, _header_bottom(page))


def _unlock_a1_to_a5(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    for item, regime in (("a1", "compute"), ("a2", "memory"), ("a3", "overhead"), ("a4", "memory"),
                         ("a5", "compute")):
        _attempt(page, item, regime)


def _a6_heading_in_view(page: Page) -> None:
    until(page, """(headerBottom) => {
      const heading = document.getElementById("a6");  // null while instant navigation swaps the page
      const box = heading && heading.getBoundingClientRect();
      return Boolean(box) && box.top >= headerBottom - 1 && box.bottom <= window.innerHeight;
    }""", _header_bottom(page))


def test_a_link_to_a6_lands_on_a6_with_the_answers_above_it_open(page: Page, base_url: str) -> None:
    _unlock_a1_to_a5(page, base_url)
    page.goto(base_url)
    page.evaluate("window.regimeMarker = 'same document'")
    page.locator('article a[href$="#a6"]').click()  # instant navigation
    page.wait_for_url("**/drill/#a6")
    _a6_heading_in_view(page)
    # Python starts and grades the open attempts above A6; A6 must stay where the reader is.
    until(page, "() => window.regimeWidgets.python.state() === 'ready'")
    expect(page.locator('.regime-incident[data-item="a5"] .regime-item-grade li').first).to_be_attached()
    _a6_heading_in_view(page)
    assert page.evaluate("window.regimeMarker") == "same document"

    page.goto(base_url + "lesson/")
    page.goto(base_url + "drill/#a6")  # a fresh load of the permalink
    _a6_heading_in_view(page)


def _label_boxes(page: Page) -> list[dict]:
    return page.evaluate(LABEL_BOXES_JS)


def _overlaps(figure: dict) -> list[tuple[str, str]]:
    texts = figure["texts"]
    found = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]:
                found.append((a["text"], b["text"]))
    return found


@pytest.mark.parametrize("width", [1280, 390])
def test_roofline_labels_never_overlap_and_stay_legible(page_as: Callable[..., Page], base_url: str, width: int) -> None:
    page = page_as(viewport={"width": width, "height": 900})
    page.goto(base_url + "lesson/")
    figures = _label_boxes(page)
    page.goto(base_url + "drill/")
    for item, regime in (("a1", "compute"), ("a2", "memory"), ("a3", "overhead"), ("a4", "memory")):
        _attempt(page, item, regime)
    figures += [f for f in _label_boxes(page) if f["id"].startswith("answer-")]
    # A picture drawn live by the core in the browser, with a long kernel label.
    page.goto(f"{base_url}drill/?hardware.id=mi300x&work.kernel=matmul&work.m=8192&work.n=8192&work.k=8192#stretch")
    expect(page.locator(".regime-stretch__result svg.roofline")).to_have_count(1)
    figures += [f for f in _label_boxes(page) if f["id"].startswith("stretch-")]
    assert {f["id"].split()[0] for f in figures} >= {"lesson-title", "answer-a1-title", "answer-a2-title",
                                                     "answer-a3-title", "answer-a4-title", "stretch-title"}
    overlapping = {f["id"]: _overlaps(f) for f in figures if _overlaps(f)}
    assert overlapping == {}
    inside = {f["id"]: [t["text"] for t in f["texts"] if t["right"] > f["right"] + 1 or t["left"] < f["left"] - 1]
              for f in figures}
    assert {k: v for k, v in inside.items() if v} == {}  # no label runs off the picture
    # Drawn size: point and roof labels at 11 CSS px or more, tick numbers at 9 or more.
    smallest = {f["id"]: min(t["size"] * f["scale"] for t in f["texts"] if "label" in (t["cls"] or "")) for f in figures}
    ticks = {f["id"]: min(t["size"] * f["scale"] for t in f["texts"] if t["cls"] == "roofline__tick") for f in figures}
    assert min(smallest.values()) >= 11, smallest
    assert min(ticks.values()) >= 9, ticks


def test_without_javascript_the_drill_says_so_and_offers_no_form(browser: object, base_url: str) -> None:
    log = PageLog()
    page = open_page(browser, base_url, log, java_script_enabled=False)
    page.goto(base_url + "drill/")
    expect(page.locator(".regime-noscript")).to_contain_text("JavaScript is off")
    expect(page.locator("article form:visible")).to_have_count(0)
    expect(page.locator("article button:visible")).to_have_count(0)
    expect(page.locator(".regime-incident__text").first).to_be_visible()  # the incidents still read
    page.goto(base_url + "hardware/")
    expect(page.locator(".regime-noscript")).to_have_count(0)  # no widgets, nothing to say
    page.context.close()


def test_open_answers_fold_to_their_first_line(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    fold_all = page.locator('[data-action="fold-all"]')
    expect(fold_all).to_be_hidden()  # nothing open yet: nothing to fold
    _attempt(page, "a1", "compute")
    expect(fold_all).to_be_visible()
    _attempt(page, "a2", "memory")
    height_open = page.evaluate("document.documentElement.scrollHeight")
    toggles = page.locator(".regime-fold")
    expect(toggles).to_have_count(2)
    a1 = page.locator('[data-regime-answer="a1"]')
    toggle = page.locator('.regime-fold[aria-controls="regime-answer-a1"]')
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(a1.locator("p").first).to_contain_text("Regime:")
    expect(a1.locator("p").first).to_be_visible()
    expect(a1.locator("figure")).to_be_hidden()
    page.locator('[data-action="fold-all"]').click()
    expect(page.locator('[data-regime-answer="a2"] figure')).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollHeight") < height_open - 1000
    page.locator('[data-action="unfold-all"]').click()
    expect(a1.locator("figure")).to_be_visible()
    page.locator('[data-action="reset-all"]').click()
    page.locator('[data-action="confirm-reset"]').click()
    expect(toggles).to_have_count(0)  # nothing open, nothing to fold
    expect(fold_all).to_be_hidden()
    expect(page.locator('[data-action="unfold-all"]')).to_be_hidden()


def test_a_stretch_link_without_python_says_so_rather_than_show_the_default(browser: object, base_url: str) -> None:
    log = PageLog()
    page = open_page(browser, base_url, log)
    page.context.route("**/pyodide.asm.wasm", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(f"{base_url}drill/?hardware.id=l4&work.kernel=decode&work.params=7e9&work.batch=1#stretch")
    result = page.locator(".regime-stretch__result")
    expect(result).to_contain_text("needs Python, which could not start")
    expect(result).not_to_contain_text("H100")
    expect(page.locator('.regime-stretch select[name="hardware.id"]')).to_have_value("l4")  # the link's kernel, kept
    page.context.close()
    assert all("404" in e or "Failed to load" in e for e in log.errors), log.errors


def test_the_table_of_contents_highlights_the_heading_it_lands_on(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    toc = page.locator(".md-sidebar--secondary")
    for anchor in ("a3", "a6", "part-b", "stretch"):
        toc.locator(f'a.md-nav__link[href$="#{anchor}"]').first.click()
        # Not the heading before it (the page once landed a few pixels past the line Material uses).
        expect(toc.locator("a.md-nav__link--active")).to_have_attribute("href", re.compile(f"#{anchor}$"))
    page.goto(base_url + "drill/#a5")
    expect(toc.locator("a.md-nav__link--active")).to_have_attribute("href", re.compile("#a5$"))
