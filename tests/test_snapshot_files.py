"""A restored snapshot keeps memory and no files: every data file must be read before it is taken."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from regime_core.resources import warm_up
from test_snapshot import _ready, _stored


def test_warm_up_reads_every_packaged_data_file() -> None:
    data = Path(__file__).parents[1] / "src" / "regime_core" / "data"
    assert warm_up() == sorted(p.name for p in data.glob("*.json"))


def test_a_page_that_reads_other_data_works_from_a_snapshot_taken_on_the_drill(fresh_page: Page,
                                                                             base_url: str) -> None:
    page = fresh_page
    page.goto(base_url + "drill/")
    _ready(page)
    assert _stored(page)
    page.goto(base_url + "practice/?seed=7&level=1")  # a full load: Python comes back from the snapshot
    assert _ready(page)["source"] == "snapshot"
    statement = page.locator(".regime-practice__statement")
    expect(statement).not_to_contain_text("Loading an incident")
    expect(page.locator(".regime-practice")).not_to_contain_text("cannot be opened")
    expect(statement).to_contain_text(" on ")  # a statement names its card
