"""The packaged data files, read the same way on CPython and in Pyodide."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_json(name: str) -> dict[str, Any]:
    """Parse ``data/<name>`` from the installed package (cached)."""
    text = resources.files("regime_core").joinpath(f"data/{name}").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
