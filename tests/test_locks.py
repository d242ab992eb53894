"""Every install comes from a lock file: each package pinned with its hashes, the same pins the
requirements files name, installed with ``--require-hashes`` by `make` and by Netlify alike."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)", re.MULTILINE)


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    """``name: version`` for each pin in a requirements file, following ``-r`` includes."""
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("-r "):
            found.update(pins(path.parent / line.split(maxsplit=1)[1]))
    found.update({_name(n): v for n, v in PIN.findall(path.read_text(encoding="utf-8"))})
    return found


def locked(path: Path) -> dict[str, tuple[str, int]]:
    """``name: (version, number of hashes)`` for each package of a lock file."""
    text = path.read_text(encoding="utf-8")
    entries = re.split(r"\n(?=[A-Za-z0-9])", text)
    out = {}
    for entry in entries:
        match = PIN.match(entry)
        if match:
            out[_name(match.group(1))] = (match.group(2), entry.count("--hash=sha256:"))
    return out


@pytest.mark.parametrize("kind", ["site", "dev"])
def test_the_lock_holds_every_pin_at_its_version_with_hashes(kind: str) -> None:
    wanted = pins(ROOT / f"requirements-{kind}.txt")
    lock = locked(ROOT / f"requirements-{kind}.lock")
    assert len(wanted) >= 3, wanted  # mkdocs, mkdocs-material, markdown-exec at least
    assert len(lock) >= len(wanted)
    off = {name: (version, lock.get(name, ("missing", 0))[0]) for name, version in wanted.items()
           if lock.get(name, ("", 0))[0] != version}
    assert not off, f"requirements-{kind}.txt and its lock disagree (run `make lock`): {off}"
    unhashed = sorted(name for name, (_, hashes) in lock.items() if hashes == 0)
    assert not unhashed, unhashed


def test_the_site_lock_is_what_the_dev_lock_holds_for_the_site() -> None:
    """`make serve` and `make test` build the same site: the dev lock pins the site's packages alike."""
    site, dev = locked(ROOT / "requirements-site.lock"), locked(ROOT / "requirements-dev.lock")
    differ = {name: (site[name][0], dev.get(name, ("missing", 0))[0]) for name in site
              if dev.get(name, ("", 0))[0] != site[name][0]}
    assert not differ, differ


def test_make_and_netlify_install_from_the_locks_with_hashes() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "--require-hashes -r requirements-site.lock" in makefile
    assert "--require-hashes -r requirements-dev.lock" in makefile
    netlify = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))
    command = netlify["build"]["command"]
    assert "pip install --require-hashes -r requirements-site.lock" in command
    # Nothing else is installed from the registry unpinned: the project itself goes in without its deps.
    assert re.findall(r"pip install ([^&]+)", command) == ["--require-hashes -r requirements-site.lock ",
                                                           "--no-deps -e . "]


def test_the_lock_was_made_for_netlifys_python() -> None:
    python = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))["build"]["environment"]["PYTHON_VERSION"]
    for kind in ("site", "dev"):
        header = (ROOT / f"requirements-{kind}.lock").read_text(encoding="utf-8")[:300]
        assert f"with Python {python}\n" in header, f"requirements-{kind}.lock was not made with Python {python}"
