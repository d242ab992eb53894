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


@pytest.mark.parametrize("op", ["ridge", "ridge_table", "kernel"])
def test_a_card_in_the_old_top_level_shape_is_refused_by_name(op: str) -> None:
    answer = json.loads(handle(json.dumps({"op": op, "gpu": "l4"})))
    assert answer["field"] == "gpu"
    assert answer["error"].startswith(f"gpu: not a field of the '{op}' request; expected hardware, dtype")


@pytest.mark.parametrize("op", ["ridge", "ridge_table", "kernel"])
def test_every_card_op_reads_the_card_as_the_forms_hold_it(op: str) -> None:
    request = {"op": op, "hardware": {"id": "custom", "peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"}}
    if op == "kernel":
        request["work"] = {"kernel": "matmul", "m": "4096", "n": "4096", "k": "4096"}
    answer = json.loads(handle(json.dumps(request)))
    assert answer["ok"] is True, answer
    ridge = answer["placement"]["ridge_text"] if op == "kernel" else answer["ridge_text"]
    assert ridge == "156 FLOP/byte"


def test_an_unknown_op_lists_the_ops() -> None:
    answer = json.loads(handle('{"op": "writeup", "items": {}}'))
    assert answer["field"] == "op"
    assert "grade" in answer["error"]


def test_the_readme_documents_every_op_as_the_registry_has_it() -> None:
    assert table(OPS) in README.read_text(encoding="utf-8")


def test_the_runtime_manifest_carries_the_protocol(built_site: Path) -> None:
    manifest = json.loads((built_site / "assets" / "regime" / "runtime.json").read_text(encoding="utf-8"))
    assert manifest["protocol"] == str(PROTOCOL)
