"""The ``regime`` command's side of the terminal: what it reads from stdin and what it writes to stdout.

One guard for each way the terminal can fail the command: a reader that stopped reading
(``regime gpus | head -1``) ends it quietly; a full disk or a closed stdin is one line naming the
problem; text the terminal's encoding cannot show is made ASCII-safe; and control characters that
came from a file (ANSI escapes in ``notes``) are shown escaped, never obeyed.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from typing import BinaryIO, TextIO

from regime_core.errors import RegimeError

#: Characters a terminal obeys rather than shows: C0 but tab and newline, DEL, C1, and the bidi overrides.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: The signs the command prints, as an ASCII-only terminal shows them.
_ASCII = str.maketrans({"×": "x", "÷": "/", "µ": "u", "μ": "u", "≈": "~", "≃": "~", "≥": ">=", "≤": "<=",
                        "−": "-", "–": "-", "—": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "…": "...",
                        "→": "->", "✓": "yes", "✗": "no", "²": "2", "³": "3", "⁵": "5", "·": "*", "\u00a0": " "})


def escape_controls(text: str, *, json_string: bool = False) -> str:
    r"""``text`` with every control character written as an escape: ``\x1b``, or ``\u001b`` inside JSON.

    Args:
        text: What is about to reach the terminal.
        json_string: Write the JSON escape, which keeps a JSON document valid (the characters are
            only ever inside its strings).

    """
    def escaped(match: re.Match[str]) -> str:
        code = ord(match[0])
        return f"\\u{code:04x}" if json_string or code > 0xFF else f"\\x{code:02x}"

    return _CONTROLS.sub(escaped, text)


def encodable(text: str, stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (stdout by default) can write ``text`` in its encoding."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def ascii_safe(text: str) -> str:
    """``text`` in ASCII: the signs spelled out (``403x``, ``12 us``), anything else as ``?``."""
    return text.translate(_ASCII).encode("ascii", "replace").decode("ascii")


def read_stdin(limit: int, field: str) -> str:
    """Up to ``limit`` characters of stdin, without a leading byte-order mark; a RegimeError when it is closed."""
    if sys.stdin is None:
        raise RegimeError(field, "cannot read stdin: it is closed")
    try:
        text = sys.stdin.read(limit)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RegimeError(field, f"cannot read stdin: {getattr(exc, 'strerror', None) or exc}") from None
    return text.removeprefix("\ufeff")


def stdin_stream(field: str) -> BinaryIO:
    """Stdin as bytes (a trace, perhaps gzipped), read a piece at a time by its reader; a RegimeError when closed."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None or getattr(stream, "closed", False):
        raise RegimeError(field, "cannot read stdin: it is closed")
    return stream  # type: ignore[no-any-return]


def write(text: str, prog: str) -> int:
    """Write ``text`` and a newline to stdout; return the exit status.

    A reader that stopped reading is not an error (0, and nothing on stderr); any other failure to
    write, such as a full disk, is one line on stderr and 2.
    """
    try:
        if sys.stdout is not None:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as exc:
        _silence_stdout()
        warn(f"{prog}: cannot write the output: {exc.strerror or exc}")
        return 2
    return 0


def settle() -> None:
    """Flush stdout now, so that a closed pipe or a full disk is not a traceback at the interpreter's exit."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError:
        _silence_stdout()


def warn(line: str) -> None:
    """One line on stderr, its control characters escaped; a stderr that cannot take it is left alone."""
    with contextlib.suppress(OSError, ValueError):
        print(escape_controls(line), file=sys.stderr)


def _silence_stdout() -> None:
    """Point stdout at the null device, so the flush at exit cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
