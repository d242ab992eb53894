"""A file is its own receipt: what graded it, and a digest of the answers it graded.

The site writes the receipt into the attempt file it downloads; a mentor's report reads it back and says where
a file was edited after the page graded it, or was graded by another version of the drill or the grader, and
grades it afresh either way. A file a learner holds can always be edited, receipt and all: this detects slips
(the wrong file, an answer changed after the page's grade), not cheats.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from regime_core import __version__
from regime_core.resources import load_json

#: What a receipt check finds.
NO_RECEIPT, MATCHES, EDITED, OTHER_VERSION = "none", "matches", "edited after grading", "graded by another version"
_ANSWERS = ("part_a", "part_b", "part_c")


def _digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@cache
def drill_version() -> str:
    """The drill's questions as a short digest: what a learner answered (incidents, Parts B and C), not its grading."""
    data = load_json("drill.json")
    asked = [(i["id"], i["text"]) for i in data["incidents"]]
    asked += [(key, data.get(key, {}).get("question", "")) for key in ("part_b", "part_c")]
    return _digest(asked)


def answers_digest(attempt: Mapping[str, Any]) -> str:
    """A digest of the answers in an attempt file (its three parts), whatever else it holds."""
    return _digest({key: attempt.get(key) for key in _ANSWERS})


def receipt(attempt: Mapping[str, Any], passed: bool | None) -> dict[str, Any]:
    """The receipt the page writes into the attempt file it grades."""
    return {"grader": __version__, "drill": drill_version(), "digest": answers_digest(attempt), "passed": passed}


def check(attempt: object) -> str:
    """What an attempt file's receipt says of it: none, matches, edited after grading, graded by another version."""
    if not isinstance(attempt, Mapping) or not isinstance(attempt.get("receipt"), Mapping):
        return NO_RECEIPT
    found = attempt["receipt"]
    if found.get("digest") != answers_digest(attempt):
        return EDITED
    if found.get("grader") != __version__ or found.get("drill") != drill_version():
        return OTHER_VERSION
    return MATCHES
