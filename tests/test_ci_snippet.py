"""The CI snippet README and the traces reference give runs as GitHub Actions runs it, with ``bash -e``.

The gate's failure must still post the comment: a step that ends at ``regime diff``'s exit 1 posts nothing exactly
when the reviewer needs it. ``regime`` and ``gh`` are stood in by shell functions (the real command, a marker file).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from trace_builder import Trace, as_bytes, sync_stall

ROOT = Path(__file__).resolve().parent.parent


def _snippet(document: Path) -> str:
    found = re.search(r"- name: Regime check\n\s+run: \|\n((?:\s{4}.*\n)+)", document.read_text(encoding="utf-8"))
    assert found, f"{document.name} has no 'Regime check' step"
    return "\n".join(line.strip() for line in found.group(1).splitlines())


@pytest.mark.parametrize("document", ["README.md", "docs/reference/traces.md"])
def test_the_ci_snippet_posts_the_comment_and_then_fails_the_step(document: str, tmp_path: Path) -> None:
    back_to_back = Trace()
    for n in range(50):
        back_to_back.kernel(100 + n * 1001, 1000)  # sync_stall's kernels, its syncs removed: faster
    (tmp_path / "before.json.gz").write_bytes(as_bytes(back_to_back.document(), zipped=True))
    (tmp_path / "after.json.gz").write_bytes(as_bytes(sync_stall(50), zipped=True))
    script = _snippet(ROOT / document).replace("${{ github.event.pull_request.number }}", "7")
    stand_ins = (f"regime() {{ {shlex.quote(sys.executable)} -m regime_core \"$@\"; }}\n"
                 "gh() { cp regime.md posted.md; }\n")
    done = subprocess.run(["bash", "-e", "-c", stand_ins + script], cwd=tmp_path, capture_output=True, text=True,
                          check=False, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 1, done.stderr  # the gate failed the step ...
    assert (tmp_path / "posted.md").read_text(encoding="utf-8").startswith("### ")  # ... after posting the comment
