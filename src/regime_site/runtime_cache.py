"""The build's slowest step kept between builds: the core's bytecode and the trimmed standard library.

Both come from running Pyodide in Node (~6 s of an ~8 s build when quiet). What they depend on is the pinned
Pyodide, the core's files and this package's own code, so a build keys them by a hash of all three and
keeps one zip per key in ``build/runtime-cache/``: the next build (a second builder, a test run, a
restarted ``mkdocs serve``) reads it instead. A key that differs in any byte misses; an unreadable entry
is a miss too, never a failed build. Writes are atomic (builders may run side by side); the newest few
entries are kept.
"""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

#: This package's code, part of every key: a change to how the runtime is made must not meet an old entry.
TOOLS = tuple((p.name, p.read_bytes()) for p in sorted(Path(__file__).parent.glob("*.py")))
_KEEP = 8  # entries left after a write: a few cores being edited, not every one ever built
_BYTECODE = "bytecode/"


def key_of(pyodide_version: str, core_files: list[tuple[str, bytes]]) -> str:
    """The key of what the runtime is made from: the Pyodide, the core's files (path, bytes), our own code."""
    return hashlib.sha256(repr((pyodide_version, core_files, TOOLS)).encode()).hexdigest()


@dataclass(frozen=True)
class Kept:
    """What a key holds: the ``.pyc`` files by wheel path, ``python_stdlib.zip`` and the lock file."""

    bytecode: list[tuple[str, bytes]]
    stdlib: bytes
    lock: bytes


class RuntimeCache:
    """Entries by key in ``folder`` (made when first written)."""

    def __init__(self, folder: Path) -> None:
        """``folder``: where the entries are."""
        self.folder = folder

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.zip"

    def get(self, key: str) -> Kept | None:
        """The entry for ``key``, or None when there is none or it cannot be read whole."""
        try:
            with zipfile.ZipFile(self._path(key)) as entry:
                bytecode = [(name.removeprefix(_BYTECODE), entry.read(name)) for name in entry.namelist()
                            if name.startswith(_BYTECODE)]
                return Kept(bytecode, entry.read("python_stdlib.zip"), entry.read("pyodide-lock.json"))
        except (OSError, KeyError, zipfile.BadZipFile, EOFError):
            return None

    def put(self, key: str, kept: Kept) -> None:
        """Keep ``kept`` under ``key``; a folder that cannot be written leaves the build as it was."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as entry:  # the stdlib zip is compressed already
            for name, data in kept.bytecode:
                entry.writestr(_BYTECODE + name, data)
            entry.writestr("python_stdlib.zip", kept.stdlib)
            entry.writestr("pyodide-lock.json", kept.lock)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            part = self.folder / f"{key}.{os.getpid()}.part"
            part.write_bytes(buffer.getvalue())
            part.replace(self._path(key))
            for old in sorted(self.folder.glob("*.zip"), key=lambda p: p.stat().st_mtime, reverse=True)[_KEEP:]:
                old.unlink(missing_ok=True)
        except OSError:
            return
