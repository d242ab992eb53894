"""The bridge as a contract: every op refuses what it does not read, by name; one documented table; a version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from regime_core.api import OPS, handle
from regime_core.bridge import PROTOCOL, table

README = Path(__file__).parents[1] / "README.md"


@pytest.mark.parametrize("op", list(OPS))
def test_every_op_refuses_an_unknown_field_by_name(op: str) -> None:
    answer = json.loads(handle(json.dumps({"op": op, "gpuu": "l4"})))
    assert answer["ok"] is False
    assert answer["field"] == "gpuu"
    assert f"not a field of the '{op}' request" in answer["error"]


def test_a_misspelt_card_field_is_named_not_read_as_an_empty_card() -> None:
    answer = json.loads(handle('{"op": "ridge", "gpuu": "l4"}'))
    assert answer["error"].startswith("gpuu: ")


def test_an_unknown_op_lists_the_ops() -> None:
    answer = json.loads(handle('{"op": "writeup", "items": {}}'))
    assert answer["field"] == "op"
    assert "grade" in answer["error"]


def test_the_readme_documents_every_op_as_the_registry_has_it() -> None:
    assert table(OPS) in README.read_text(encoding="utf-8")


def test_the_runtime_manifest_carries_the_protocol(built_site: Path) -> None:
    manifest = json.loads((built_site / "assets" / "regime" / "runtime.json").read_text(encoding="utf-8"))
    assert manifest["protocol"] == str(PROTOCOL)
