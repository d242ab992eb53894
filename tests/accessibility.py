"""axe-core on a page of the site, in either palette, the page brought to its state once for both.

Nothing on the pages reads the palette but the CSS (``[data-md-color-scheme]``): a page switched to dark with
the header's toggle, as a learner does, shows what a page opened in dark shows. A test module keeps a
``Shown`` page in a module-scoped fixture and checks it in each palette.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page, expect

from conftest import PageLog, WarmContext, warm_page

AXE = Path(__file__).resolve().parent.parent / "node_modules/axe-core/axe.min.js"
#: Material's name for each palette (the ``data-md-color-scheme`` it sets on the body).
SCHEMES = {"light": "default", "dark": "slate"}


def axe_violations(page: Page) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is (axe added once per page)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


@dataclass
class Shown:
    """A page brought to a state once, and the log of what it did wrong (console errors, other origins).

    A warm tab logs to the warm context's current log: this one until another test takes a warm tab, which
    a pair run one after the other never lets happen between its two tests.
    """

    page: Page
    log: PageLog

    def in_palette(self, scheme: str) -> Page:
        """The page in ``scheme``, switched with the header's toggle when it shows the other one."""
        body = self.page.locator("body")
        if body.get_attribute("data-md-color-scheme") != SCHEMES[scheme]:
            self.page.get_by_title(f"Switch to {scheme} mode").click()
            expect(body).to_have_attribute("data-md-color-scheme", SCHEMES[scheme])
        return self.page

    def serious_violations(self, scheme: str) -> list[tuple[str, str, list[object]]]:
        """axe's serious and critical findings in ``scheme``, after checking the page logged nothing wrong."""
        violations = axe_violations(self.in_palette(scheme))
        assert self.log.external == [], f"requests to other origins: {self.log.external}"
        assert self.log.errors == [], f"console errors: {self.log.errors}"
        return [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]]) for v in violations]


@contextlib.contextmanager
def held(warm_context: WarmContext, base_url: str) -> Iterator[Shown]:
    """A tab of the warm context (Python restored, not started), held for the pair, then handed on (the palette
    the toggle chose lives in the page and in local storage, which the next test's ``warm_page`` empties)."""
    log = PageLog()
    page = warm_page(warm_context, base_url, log)
    yield Shown(page, log)
    warm_context.release(page)
