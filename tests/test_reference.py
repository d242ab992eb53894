"""The reference on the site holds every subcommand and option the command has; the README stays an entry."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from regime_core.cli.main import main
from regime_site.reference import cli_reference, subcommands

ROOT = Path(__file__).parents[1]


def _missing(page: str) -> list[str]:
    missing = []
    for name, sub in subcommands().items():
        if f"regime {name}</code>" not in page:
            missing.append(name)
        for action in sub._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help") and f"{option}" not in page:
                    missing.append(f"{name} {option}")
    return missing


def test_the_built_reference_names_every_subcommand_and_option(built_site: Path) -> None:
    page = (built_site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert _missing(page) == []


def test_the_grading_reference_states_the_graders_own_tolerances(built_site: Path) -> None:
    # Printed from the constants the grader uses, so the page cannot drift from them.
    from regime_core.grading import claims, grade

    page = (built_site / "reference" / "grading" / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>|\s+", " ", page)
    for words, value in [("the ridge within", grade.RIDGE_TOLERANCE), ("intensities within", grade.INTENSITY_TOLERANCE),
                         ("never tighter than", claims.ARITHMETIC_FLOOR), ("nor looser than", claims.ARITHMETIC),
                         ("a speed-up within", claims.SPEED_MATCH)]:
        assert f"{words} {value:.0%}" in text, words
    assert f"within {claims.MATCH:.0%} of the incident figure" in text


def test_a_reference_missing_an_entry_is_caught() -> None:
    # The check above can fail: drop one subcommand, or one option, and it says which.
    page = cli_reference()
    assert _missing(page) == []
    assert _missing(page.replace("regime trace</code>", "")) == ["trace"]
    assert "place --flops" in _missing(page.replace("--flops", "--f"))


def test_the_readme_is_an_entry_for_users() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    assert "make serve" in readme and "make test" in readme  # noqa: PT018  # the two commands, both
    assert "CONTRIBUTING.md" in readme
    assert not re.search(r"\b\d+ CPU-s(?:econds)?\b|fresh-clone pair", readme)  # measurements live in BENCHMARKS.md


def test_the_readme_picture_is_what_its_command_draws() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["plot", "decode", "--params", "13B", "--gpu", "a10", "--label", "13B decode", "--time", "60 ms"]) == 0
    assert out.getvalue().strip() == (ROOT / "examples" / "readme-roofline.svg").read_text(encoding="utf-8").strip()
