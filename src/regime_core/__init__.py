"""Regime core: read a GPU performance problem's regime from its symptoms.

Standard library only; runs the same on CPython 3.11+ and in Pyodide.
"""

from regime_core.classify import Verdict, classify
from regime_core.errors import RegimeError
from regime_core.roofline import Placement, place, ridge
from regime_core.symptoms import Symptoms, parse_symptoms

__version__ = "0.1.0"
__all__ = ["Placement", "RegimeError", "Symptoms", "Verdict", "__version__", "classify", "parse_symptoms",
           "place", "ridge"]
