"""Incidents you can change, and the stretch on any card with a link to share."""

from __future__ import annotations

import re
from urllib.parse import quote

from playwright.sync_api import Page, expect

from conftest import PageLog, open_page


def unlock(page: Page, item: str, regime: str) -> None:
    form = page.locator(f'[data-item="{item}"] form.regime-attempt')
    form.locator(f'input[value="{regime}"]').check()
    form.locator('button[type="submit"]').click()


def open_editor(page: Page, item: str) -> None:
    """The editor is folded under its summary until the learner opens it."""
    explorer = page.locator(f'.regime-explore[data-item="{item}"]')
    expect(explorer.locator("form")).to_be_hidden()
    explorer.locator("summary").click()
    expect(explorer.locator("form")).to_be_visible()


def test_growing_a3_makes_it_memory_bound_and_reset_restores_it(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    explorer = page.locator('.regime-explore[data-item="a3"]')
    expect(explorer).to_be_hidden()
    unlock(page, "a3", "overhead")
    expect(explorer).to_be_visible()
    open_editor(page, "a3")
    explorer.locator('input[name="work.shape"]').fill("8x4096x4096")
    result = explorer.locator(".regime-explore__result")
    expect(result).to_contain_text("memory-bound", timeout=60_000)
    expect(result.locator("svg[role='img']")).to_have_count(1)
    explorer.locator('[data-action="reset-numbers"]').click()
    expect(result).to_contain_text("overhead / host-bound")
    expect(explorer.locator('input[name="work.shape"]')).to_have_value("8x32x32")


def test_a4_on_an_h100_moves_the_floor(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    unlock(page, "a4", "memory")
    open_editor(page, "a4")
    explorer = page.locator('.regime-explore[data-item="a4"]')
    explorer.locator('select[name="hardware.id"]').select_option("h100-sxm")
    result = explorer.locator(".regime-explore__result")
    expect(result).to_contain_text("floor 4.18 ms", timeout=60_000)
    explorer.locator('input[name="work.batch"]').fill("nope")
    expect(explorer.locator('[data-field="work.batch"] .regime-field__error')).to_have_text(re.compile(r"^Expected"))


def test_a_stretch_link_restores_the_kernel_card_and_verdict(page: Page, base_url: str, browser: object) -> None:
    page.goto(base_url + "drill/")
    stretch = page.locator(".regime-stretch")
    stretch.locator('select[name="hardware.id"]').select_option("l4")
    stretch.locator('select[name="work.kernel"]').select_option("decode")
    stretch.locator('input[name="work.params"]').fill("7e9")
    stretch.locator('input[name="work.batch"]').fill("1")
    stretch.locator('button[type="submit"]').click()
    result = stretch.locator(".regime-stretch__result")
    expect(result).to_contain_text("memory-bound", timeout=60_000)
    stretch.locator('[data-action="copy-stretch-link"]').click()
    expect(stretch.locator(".regime-stretch__link")).to_contain_text("#stretch")
    link = stretch.locator(".regime-stretch__link").inner_text().split(": ", 1)[1]
    assert "hardware.id=l4" in link
    assert "hardware.peak_flops" not in link  # a catalogue card's peaks come with its id, not as overrides
    assert link.endswith("#stretch")
    # Another kernel or card: the verdict on screen was the old one's, so it goes.
    stretch.locator('select[name="work.kernel"]').select_option("matmul")
    expect(result).to_have_text("The kernel changed: press Classify for its verdict.")
    stretch.locator('select[name="hardware.id"]').select_option("h100-sxm")
    expect(stretch.locator('input[name="hardware.peak_flops"]')).to_have_value("")  # not the L4's figure

    log = PageLog()
    fresh = open_page(browser, base_url, log)
    fresh.goto(link)
    again = fresh.locator(".regime-stretch")
    expect(again.locator(".regime-stretch__result")).to_contain_text("memory-bound", timeout=60_000)
    expect(again.locator(".regime-stretch__result")).to_contain_text("NVIDIA L4")
    expect(again.locator('select[name="work.kernel"]')).to_have_value("decode")
    expect(again.locator('input[name="work.params"]')).to_have_value("7e9")
    expect(again.locator(".regime-stretch__result")).to_be_in_viewport()  # the link lands on its verdict
    expect(again.locator('input[name="hardware.peak_flops"]')).to_have_value("121 TFLOP/s")  # the L4's, by the core
    fresh.context.close()
    assert log.errors == []
    assert log.external == []


def test_an_old_stretch_link_naming_gpu_peak_flops_and_bandwidth_still_restores_the_card(page: Page,
                                                                                         base_url: str) -> None:
    # Links copied before the card's fields became hardware.id, hardware.peak_flops and hardware.bandwidth.
    page.goto(f"{base_url}drill/?gpu=custom&peak_flops={quote('100 TFLOP/s')}&bandwidth={quote('1 TB/s')}"
              "&work.kernel=decode&work.params=7e9&work.batch=1#stretch")
    stretch = page.locator(".regime-stretch")
    result = stretch.locator(".regime-stretch__result")
    expect(result).to_contain_text("on 100 TFLOP/s, 1 TB/s: intensity", timeout=60_000)
    expect(result).to_contain_text("memory-bound")
    expect(stretch.locator('select[name="hardware.id"]')).to_have_value("custom")
    expect(stretch.locator('input[name="hardware.bandwidth"]')).to_have_value("1 TB/s")
    expect(stretch.locator(".regime-stretch__link")).to_have_text("")  # used, not refused


def test_a_hostile_stretch_link_opens_cleanly_with_the_defaults(page: Page, base_url: str) -> None:
    payload = quote("<img src=x onerror=alert(1)>")
    page.goto(f"{base_url}drill/?hardware.id=custom&hardware.peak_flops={payload}&hardware.bandwidth=1e400"
              f"&work.kernel=matmul&work.m=%3Cscript%3E&evil={payload}#stretch")
    stretch = page.locator(".regime-stretch")
    expect(stretch.locator(".regime-stretch__link")).to_contain_text("could not be used", timeout=60_000)
    expect(stretch.locator(".regime-stretch__link")).to_contain_text("showing the defaults")
    expect(stretch.locator('select[name="hardware.id"]')).to_have_value("h100-sxm")
    assert page.locator("img[src='x']").count() == 0


def test_no_shape_says_why_in_one_sentence(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    stretch = page.locator(".regime-stretch")
    stretch.locator('select[name="work.kernel"]').select_option("none")
    stretch.locator('button[type="submit"]').click()
    expect(stretch.locator(".regime-stretch__result")).to_contain_text("Without a shape", timeout=60_000)


def test_an_open_answer_brings_its_editor_back_after_a_reload_and_start_over_hides_it(page: Page,
                                                                                      base_url: str) -> None:
    page.goto(base_url + "drill/")
    unlock(page, "a4", "memory")
    open_editor(page, "a4")
    explorer = page.locator('.regime-explore[data-item="a4"]')
    explorer.locator('input[name="work.batch"]').fill("64")
    page.reload()
    expect(explorer).to_be_visible()
    expect(explorer.locator('input[name="work.batch"]')).to_have_value("1")  # the drill's numbers again
    expect(explorer.locator(".regime-explore__result")).to_be_empty()
    page.locator('[data-action="reset-all"]').click()
    page.locator('[data-action="confirm-reset"]').click()
    expect(explorer).to_be_hidden()
    expect(page.locator(".regime-explore:visible")).to_have_count(0)
