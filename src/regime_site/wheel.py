"""Build a pure-Python wheel of ``regime_core`` for Pyodide, with the standard library only.

The wheel is reproducible: files are sorted and time-stamped 1980-01-01, so its hash changes
only when the core does, and the hash can name the folder it is served from. The site serves a
browser wheel (``browser_files``): bytecode instead of sources, and nothing the browser never
imports; tests and the bench may build one from the sources.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from collections.abc import Sequence
from pathlib import Path

import regime_core

PACKAGE = "regime_core"
DIST = "regime_core"
_EPOCH = (1980, 1, 1, 0, 0, 0)
#: What the browser never imports: the command line, and the casebook, whose pages are written at
#: build time (tests/test_site_build.py checks that the bridge's modules import none of them).
NOT_IN_BROWSER = ("regime_core/__main__.py", "regime_core/cli/__init__.py", "regime_core/cli/main.py",
                  "regime_core/cli/terminal.py", "regime_core/content/casebook.py", "regime_core/data/casebook.json")


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def package_files(package_dir: Path) -> list[tuple[str, bytes]]:
    """The files that go into the wheel: Python sources and packaged data."""
    files = []
    for path in sorted(package_dir.rglob("*")):
        if path.is_file() and (path.suffix in (".py", ".json") or path.name == "py.typed"):
            if "__pycache__" in path.parts:
                continue
            name = f"{PACKAGE}/{path.relative_to(package_dir).as_posix()}"
            files.append((name, path.read_bytes()))
    return files


def browser_modules(files: Sequence[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The modules of ``files`` the browser imports (what the build compiles for it)."""
    return [(name, data) for name, data in files if name.endswith(".py") and name not in NOT_IN_BROWSER]


def browser_files(files: Sequence[tuple[str, bytes]], bytecode: Sequence[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The browser wheel's files: the data and ``bytecode`` (one ``.pyc`` per browser module), no source."""
    data = [(name, d) for name, d in files if not name.endswith(".py") and name not in NOT_IN_BROWSER]
    return sorted([*data, *bytecode])


def build_wheel(files: Sequence[tuple[str, bytes]] | None = None) -> tuple[str, bytes]:
    """Return (file name, bytes) of a wheel of ``files`` (default: the installed core's sources and data)."""
    files = list(files if files is not None else package_files(Path(regime_core.__file__).parent))
    version = regime_core.__version__
    info = f"{DIST}-{version}.dist-info"
    files.append((f"{info}/METADATA", f"Metadata-Version: 2.1\nName: regime-core\nVersion: {version}\n".encode()))
    files.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: regime_site\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    record = "\n".join(_record_line(n, d) for n, d in files) + f"\n{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            entry = zipfile.ZipInfo(name, _EPOCH)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data)
    return f"{DIST}-{version}-py3-none-any.whl", buffer.getvalue()
