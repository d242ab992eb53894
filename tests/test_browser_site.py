"""The site in a real headless Chromium, with real Pyodide, served with netlify.toml's headers."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Request, expect

from conftest import PAGES, PageLog, open_page, settled


def submit_incident(page: Page, item: str, regime: str = "compute") -> None:
    form = page.locator(f'[data-item="{item}"] form.regime-attempt')
    form.locator(f'input[value="{regime}"]').check()
    form.locator('textarea[name="evidence"]').fill("70% of peak")
    form.locator('input[name="helps"]').fill("lower precision")
    form.locator('button[type="submit"]').click()


def test_ridge_widget_computes_156_in_pyodide(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    explorer = page.locator(".regime-explorer")
    explorer.locator('input[name="hardware.peak_flops"]').fill("312 TFLOP/s")
    explorer.locator('input[name="hardware.bandwidth"]').fill("2.0 TB/s")
    expect(explorer.locator(".regime-explorer__ridge")).to_contain_text("= 156 FLOP/byte")
    expect(explorer.locator('select[name="hardware.id"]')).to_have_value("custom")


def test_a1_attempt_unlocks_a1_only_survives_reload_and_start_over_hides_it(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    answer = page.locator('[data-regime-answer="a1"]')
    expect(answer).to_be_hidden()
    submit_incident(page, "a1")
    expect(answer).to_be_visible()
    expect(answer).to_contain_text("compute-bound")
    expect(answer).to_be_focused()
    for other in ["a2", "a3", "a4", "a5", "a6", "a7", "a8", "part-b", "part-c"]:
        expect(page.locator(f'[data-regime-answer="{other}"]')).to_be_hidden()
    page.reload()
    expect(answer).to_be_visible()
    expect(page.locator('[data-item="a1"] input[value="compute"]')).to_be_checked()
    expect(page.locator('[data-item="a1"] textarea[name="evidence"]')).to_have_value("70% of peak")
    page.locator('[data-item="a1"] [data-action="reset"]').click()
    expect(answer).to_be_hidden()
    # Start over can be taken back: Undo puts the attempt (and its open answer) back as it was.
    page.locator('[data-item="a1"] .regime-feedback [data-action="undo-reset"]').click()
    expect(answer).to_be_visible()
    expect(page.locator('[data-item="a1"] textarea[name="evidence"]')).to_have_value("70% of peak")
    page.locator('[data-item="a1"] [data-action="reset"]').click()
    expect(answer).to_be_hidden()
    page.reload()
    expect(answer).to_be_hidden()


def test_an_attempt_without_a_regime_says_so_at_the_field(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    page.locator('[data-item="a3"] form.regime-attempt button[type="submit"]').click()
    error = page.locator('[data-item="a3"] [data-field="regime"] .regime-field__error')
    expect(error).to_be_visible()
    expect(error).to_contain_text("Choose a regime")
    expect(page.locator('[data-regime-answer="a3"]')).to_be_hidden()


def test_start_over_for_the_whole_drill(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    submit_incident(page, "a2", "memory")
    submit_incident(page, "a5")
    page.locator('[data-action="reset-all"]').click()
    page.locator('[data-action="confirm-reset"]').click()
    expect(page.locator('[data-regime-answer="a2"]')).to_be_hidden()
    expect(page.locator('[data-regime-answer="a5"]')).to_be_hidden()


def _in_viewport(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 720
    return box is not None and 0 <= box["y"] < height


def test_permalink_to_a6_lands_on_a6(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/#a6")
    expect(page.locator("#a6")).to_be_visible()
    assert _in_viewport(page, "#a6")
    page.reload()
    assert _in_viewport(page, "#a6")
    page.goto(base_url)
    page.evaluate("window.regimeMarker = 'same document'")
    page.locator('article a[href$="#a6"]').click()
    page.wait_for_url("**/drill/#a6")
    expect(page.locator("#a6")).to_be_visible()
    page.wait_for_timeout(300)
    assert _in_viewport(page, "#a6")
    assert page.evaluate("window.regimeMarker") == "same document"  # instant navigation, not a reload


def test_instant_navigation_keeps_one_live_widget_per_mount_point(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    page.evaluate("window.regimeMarker = 'same document'")
    for _ in range(3):
        for name in ("Lesson", "Drill", "Home", "Drill"):
            page.locator(".md-nav--primary").get_by_role("link", name=name, exact=True).first.click()
            expect(page).to_have_url(base_url + ("" if name == "Home" else name.lower() + "/"))
            assert settled(page) == page.locator("[data-regime-widget]").count()
    assert page.evaluate("window.regimeMarker") == "same document"
    submit_incident(page, "a4", "memory")  # widgets still work after the round trips
    expect(page.locator('[data-regime-answer="a4"]')).to_be_visible()


@pytest.mark.parametrize("path", PAGES)
def test_no_page_logs_a_console_error(page: Page, base_url: str, path: str) -> None:
    page.goto(base_url + path)
    page.wait_for_load_state("networkidle")
    expect(page.locator("article h1")).to_be_visible()


def test_review_comment_gives_the_regime_reason_levers_and_the_casebook_page(page_as: Callable[..., Page],
                                                                             base_url: str) -> None:
    from regime_core.content import drill
    from regime_core.grading.review import question_comment, review_comment

    page = page_as(permissions=["clipboard-read", "clipboard-write"])
    page.goto(base_url + "drill/")
    page.locator('[data-anchor="a6"] [data-action="copy-review"]').click()
    status = page.locator('[data-anchor="a6"] .regime-links__status')
    case_url = f"{base_url}casebook/a6/"
    a6 = drill.incident("a6")
    # Before an attempt the comment is the question and its link: nothing of the answer is copied or shown.
    expect(status).to_contain_text("Copied: the question for A6")
    expect(status).not_to_contain_text("overhead")
    expect(page.locator('[data-regime-answer="a6"]')).to_be_hidden()
    assert page.evaluate("navigator.clipboard.readText()") == question_comment("A6", case_url, title=a6.title,
                                                                                symptom=a6.text)
    form = page.locator('[data-item="a6"] form.regime-attempt')
    form.locator('input[value="memory"]').check()  # any attempt opens the answer, a wrong one too
    form.locator('button[type="submit"]').click()
    expect(page.locator('[data-regime-answer="a6"]')).to_be_visible()
    page.locator('[data-anchor="a6"] [data-action="copy-review"]').click()
    expected = review_comment(a6.verdict(), "A6", case_url, title=a6.title, symptom=a6.text)  # the core's words
    expect(status).to_contain_text("Copied: the review comment for A6")
    assert page.evaluate("navigator.clipboard.readText()") == expected
    # Markdown for a pull request: the incident in a sentence, the regime in bold, the symptom quoted, a short link.
    assert expected.startswith("A6, *40,000 launches and a picket fence*, is **overhead / host-bound**.")
    assert f"> {a6.text[:30]}" in expected
    assert "- **Helps:** " in expected
    assert "- **Wastes the week:** " in expected
    assert expected.endswith(f"[Why, with the arithmetic]({case_url})")
    assert page.request.get(case_url).ok  # the link lands on the incident's own page


def test_the_stretch_review_comment_carries_the_kernel_and_a_link_that_reproduces_it(
        browser: object, page_as: Callable[..., Page], base_url: str, page_log: PageLog) -> None:
    page = page_as(permissions=["clipboard-read", "clipboard-write"])
    page.goto(base_url + "drill/#stretch")
    stretch = page.locator(".regime-stretch")
    stretch.locator('select[name="work.kernel"]').select_option("decode")
    stretch.locator('input[name="work.params"]').fill("7B")
    stretch.locator('[data-action="copy-stretch-review"]').click()
    expect(stretch.locator(".regime-stretch__link")).to_contain_text("decode step, 7e9 params", timeout=180_000)
    copied = page.evaluate("navigator.clipboard.readText()")
    link = re.search(r"\[Why, with the arithmetic\]\((.+)\)$", copied).group(1)  # type: ignore[union-attr]
    assert "work.kernel=decode" in link
    assert "work.params=7B" in link
    again = open_page(browser, base_url, page_log)  # a reader who follows the link, in a browser of their own
    again.goto(link)
    expect(again.locator(".regime-stretch__result")).to_contain_text("decode step, 7e9 params", timeout=180_000)
    # The web stretch shows the core's arithmetic, with what the work model left out, as the CLI does.
    expect(again.locator(".regime-stretch__arithmetic")).to_contain_text("KV-cache bytes not given")
    again.context.close()


BAD_BANDWIDTHS = ["", "abc", "-1 TB/s", "0", "1e400", "NaN", "<img src=x onerror=alert(1)>"]


def test_bad_bandwidth_is_one_line_at_the_field(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    explorer = page.locator(".regime-explorer")
    bandwidth = explorer.locator('input[name="hardware.bandwidth"]')
    error = explorer.locator('[data-field="hardware.bandwidth"] .regime-field__error')
    explorer.locator('input[name="hardware.peak_flops"]').fill("312 TFLOP/s")
    for bad in BAD_BANDWIDTHS:
        bandwidth.fill("2 TB/s")  # a good value first, so each error below is the bad value's own
        explorer.locator('button[type="submit"]').click()
        expect(error).to_be_hidden()
        bandwidth.fill(bad)
        explorer.locator('button[type="submit"]').click()
        expect(error).to_be_visible()
        # The field's label is above the line: it says what was expected, not the request's key.
        expect(error).to_have_text(re.compile(r"^Expected a bandwidth"))
        assert "\n" not in error.inner_text(), bad
    assert explorer.locator("img").count() == 0


def test_part_b_attempt_is_checked_by_the_core_then_unlocks(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    form = page.locator('[data-item="part-b"] form.regime-attempt')
    # A field the grader cannot read is marked and graded "could not tell": it does not hold back the check.
    form.locator('input[name="ridge"]').fill("a lot")
    form.locator('[data-action="check"]').click()
    expect(form.locator('[data-field="ridge"] .regime-field__error')).to_have_text(re.compile(r"^Expected an intensity"))
    feedback = page.locator('[data-item="part-b"] .regime-feedback')
    expect(feedback).to_contain_text("could not read the field marked above")
    expect(page.locator('[data-item="part-b"] .regime-feedback + *')).to_contain_text("“a lot”")
    expect(page.locator('[data-regime-answer="part-b"]')).to_be_hidden()  # checking opens nothing
    form.locator('button[type="submit"]').click()  # an attempt, however it is written, opens the answer
    expect(page.locator('[data-regime-answer="part-b"]')).to_be_visible()
    expect(feedback).to_contain_text("graded “could not tell”")
    form.locator('input[name="ridge"]').fill("156")
    for kernel, intensity, side in (("add", "0.33", "below"), ("matmul", "1360", "above"), ("decode", "1", "below")):
        form.locator(f'input[name="kernels.{kernel}.intensity"]').fill(intensity)
        form.locator(f'select[name="kernels.{kernel}.side"]').select_option(side)
    form.locator('button[type="submit"]').click()
    answer = page.locator('[data-regime-answer="part-b"]')
    expect(answer).to_be_visible()
    expect(answer).to_contain_text("either way the add sits below the ridge")
    rows = page.locator(".regime-explorer__table tbody tr")
    expect(rows).to_have_count(3)


def test_part_c_needs_a_paragraph_then_unlocks(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    form = page.locator('[data-item="part-c"] form.regime-attempt')
    form.locator('button[type="submit"]').click()
    expect(form.locator('[data-field="paragraph"] .regime-field__error')).to_be_visible()
    form.locator("textarea").fill("<script>alert(1)</script> Fusion helps A2 at 1.7 TB/s, not A1 at 70%.")
    form.locator('button[type="submit"]').click()
    expect(page.locator('[data-regime-answer="part-c"]')).to_contain_text("career-limiting")
    page.reload()
    expect(form.locator("textarea")).to_have_value("<script>alert(1)</script> Fusion helps A2 at 1.7 TB/s, not A1 at 70%.")


def test_stretch_classifies_a_kernel_in_pyodide(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    stretch = page.locator(".regime-stretch")
    stretch.locator('select[name="work.kernel"]').select_option("decode")
    expect(stretch.locator('input[name="work.m"]')).to_be_hidden()
    stretch.locator('input[name="work.params"]').fill("7e9")
    stretch.locator('input[name="work.batch"]').fill("1")
    stretch.locator('select[name="hardware.id"]').select_option("l4")
    stretch.locator('button[type="submit"]').click()
    result = stretch.locator(".regime-stretch__result")
    expect(result).to_contain_text("memory-bound")
    expect(result).to_contain_text("46.7 ms")
    stretch.locator('input[name="observed.tokens_per_s"]').fill("38")
    stretch.locator('button[type="submit"]').click()
    expect(result).to_contain_text("caps it at 21.4 tok/s")  # the drill's A4 anomaly, from the stretch
    stretch.locator('input[name="work.params"]').fill("seven billion")
    stretch.locator('button[type="submit"]').click()
    expect(stretch.locator('[data-field="work.params"] .regime-field__error')).to_have_text(re.compile(r"^Expected"))


def test_bad_saved_progress_never_breaks_the_page(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    page.evaluate("localStorage.setItem('regime-drill', '{not json')")
    page.reload()
    submit_incident(page, "a7", "overhead")
    expect(page.locator('[data-regime-answer="a7"]')).to_be_visible()
    expect(page.locator('[data-item="a7"] .regime-feedback')).to_contain_text("could not be read")
    assert page.evaluate("localStorage.getItem('regime-drill:unreadable')") == "{not json"


def test_without_python_the_page_says_so_and_answers_still_open(browser: object, base_url: str,
                                                               page_log: PageLog) -> None:
    page = open_page(browser, base_url, page_log)
    page.context.route("**/pyodide.asm.wasm", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(base_url + "drill/")
    stretch = page.locator(".regime-stretch")
    stretch.locator('button[type="submit"]').click()
    status = stretch.locator(".regime-status")
    expect(status).to_contain_text("Python could not start", timeout=60_000)
    assert len(status.inner_text().splitlines()) == 1
    expect(stretch.locator(".regime-stretch__result")).to_contain_text("intensity")  # the static result stays
    submit_incident(page, "a8", "memory")
    expect(page.locator('[data-regime-answer="a8"]')).to_be_visible()
    form = page.locator('[data-item="part-b"] form.regime-attempt')
    form.locator('input[name="ridge"]').fill("156")
    form.locator('button[type="submit"]').click()
    expect(page.locator('[data-regime-answer="part-b"]')).to_be_visible()  # kept as typed, unchecked
    page.context.close()
    assert all("404" in e or "Failed to load" in e for e in page_log.errors), page_log.errors
    assert page_log.external == []


def test_a_casebook_page_shows_its_review_comment_and_starts_no_python(page: Page, base_url: str) -> None:
    from regime_core.content import casebook

    page.goto(base_url + "casebook/a6/")
    assert page.locator("#regime-python-start").count() == 0  # Copy link and the comment need no Python
    comment = page.locator(".regime-links__comment code")
    expect(comment).to_be_hidden()  # behind the same click as the worked answer
    page.locator("details.regime-case__answer summary").click()
    expect(comment).to_contain_text("A6, *40,000 launches and a picket fence*, is **overhead / host-bound**.")
    expect(comment).to_contain_text(f"[Why, with the arithmetic]({base_url}casebook/a6/)")
    case = casebook.cases()[0]
    page.goto(f"{base_url}casebook/{case.id}/")
    expect(page.locator(".regime-links__comment code")).to_contain_text(f"[Why, with the arithmetic]({base_url}casebook/{case.id}/)")
    page.locator('[data-action="copy-link"]').click()
    expect(page.locator(".regime-links__status")).to_contain_text(f"casebook/{case.id}/#verdict")


def test_the_casebook_index_hides_each_reading_until_asked_and_filters_the_cases(page: Page, base_url: str) -> None:
    from regime_core.content import casebook

    cases = casebook.cases()
    on_h100 = [c for c in cases if all(w in f"{c.title} {c.source.publisher}".lower() for w in ("h100", "github"))]
    assert 0 < len(on_h100) < len(cases)
    page.goto(base_url + "casebook/")
    index = page.locator(".regime-casebook")
    readings = index.locator(".regime-casebook__reading")
    expect(readings.first).to_be_hidden()
    expect(index.locator(".regime-casebook__count")).to_have_text(
        f"{len(cases)} cases; their readings are hidden until you choose to see them.")
    index.locator(".regime-casebook__show").check()
    expect(readings.first).to_be_visible()
    index.locator(".regime-casebook__filter").fill("H100  GitHub")
    expect(index.locator(".regime-casebook__count")).to_have_text(
        f"{len(on_h100)} of {len(cases)} cases match “H100  GitHub”.")
    expect(index.locator("tbody tr:visible")).to_have_count(len(on_h100))
    index.locator(".regime-casebook__filter").fill("no such card")
    expect(index.locator(".regime-casebook__count")).to_contain_text("No case matches “no such card”")
    expect(index.locator("tbody tr:visible")).to_have_count(0)

    # Shown, the readings are words the filter reads; hidden, they are not, so a filter gives none away.
    anomalies = [c for c in cases if c.verdict().anomalies or c.authors_regime == "anomaly"]
    assert 0 < len(anomalies) < len(cases)
    assert not any("anomaly" in f"{c.title} {c.source.publisher}".lower() for c in cases)
    index.locator(".regime-casebook__filter").fill("anomaly")
    expect(index.locator(".regime-casebook__count")).to_have_text(
        f"{len(anomalies)} of {len(cases)} cases match “anomaly”.")
    index.locator(".regime-casebook__show").uncheck()
    expect(index.locator(".regime-casebook__count")).to_contain_text("No case matches “anomaly”")
    # The rows are in the order of their titles, which says nothing of their readings.
    titles = index.locator("tbody tr td:first-child a").all_inner_texts()
    assert titles == sorted(titles, key=str.casefold)


def test_the_search_index_is_built_at_the_first_search_not_on_every_load(page: Page, base_url: str) -> None:
    # Material's worker (lunr) builds the index of the whole site when it gets it: ours keeps it until a query.
    loaded: list[str] = []

    def note(request: Request) -> None:
        if "/workers/search." in request.url:
            loaded.append(request.url)

    page.context.on("request", note)
    try:
        page.goto(base_url + "lesson/")
        search = page.locator("input.md-search__input")
        search.click()
        expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching")
        page.wait_for_load_state("networkidle")
        assert loaded == [], f"Material's search worker loaded before any search: {loaded}"
        search.press_sequentially("ridge")
        expect(page.locator(".md-search-result__meta")).to_contain_text("matching documents")
        expect(page.locator(".md-search-result__item a[href*='lesson/']").first).to_be_attached()
        assert len(loaded) == 1, loaded
        search.press("Control+a")
        search.press_sequentially("zzzqqq")
        expect(page.locator(".md-search-result__meta")).to_have_text("No matching documents")
    finally:
        page.context.remove_listener("request", note)


def test_search_finds_a_word_inside_code(page: Page, base_url: str) -> None:
    page.goto(base_url + "lesson/")
    search = page.locator("input.md-search__input")
    search.click()
    # Material's search worker reads the index first: a query typed before it is ready finds nothing.
    expect(page.locator(".md-search-result__meta")).not_to_have_text("Initializing search", timeout=90_000)
    search.press_sequentially("item")
    expect(page.locator(".md-search-result__item a[href*='drill/'][href$='#a7']").first).to_be_attached(timeout=90_000)
