"""A script of ``bench/`` loaded as a module, so that tests check the helpers the benchmarks run on."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load(name: str, path: str) -> ModuleType:
    """The file at ``path`` (under the checkout) as the module ``name``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
