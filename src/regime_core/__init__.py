"""Regime core: read a GPU performance problem's regime from its symptoms.

Standard library only; runs the same on CPython 3.11+ and in Pyodide.
"""

from regime_core.errors import RegimeError
from regime_core.judgment.classify import Verdict, classify
from regime_core.judgment.symptoms import Symptoms, parse_symptoms
from regime_core.model.roofline import Placement, place, ridge

__version__ = "0.1.0"
__all__ = ["Placement", "RegimeError", "Symptoms", "Verdict", "__version__", "classify", "parse_symptoms",
           "place", "ridge"]
