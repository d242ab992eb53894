"""Measured points (``bench/gpu/measure.py`` output) read back as symptoms and classified.

Only what an engineer would have before a profiler is used: the shape's FLOPs and bytes, the
median time, for the elementwise sweep how the time changed when the tensor shrank 4×, and for the
host-sync sweep the same loop timed without the sync.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from regime_core.catalogue.hardware import Hardware
from regime_core.judgment.classify import Verdict, classify
from regime_core.judgment.symptoms import Observed, Symptoms
from regime_core.model.work import Work


def _shrink_ratios(points: Sequence[Mapping[str, Any]]) -> dict[int, float]:
    """For each elementwise point, its time ÷ the time of the same variant with 4× fewer elements."""
    ratios: dict[int, float] = {}
    by_size = {(p["variant"], _elements(p)): p for p in points if p["sweep"] == "elementwise"}
    for index, p in enumerate(points):
        smaller = by_size.get((p["variant"], _elements(p) // 4)) if p["sweep"] == "elementwise" else None
        if smaller is not None:
            ratios[index] = p["time_s"] / smaller["time_s"]
    return ratios


def _elements(p: Mapping[str, Any]) -> int:
    size = 1
    for dim in p["shape"]:
        size *= int(dim)
    return size


def classify_points(points: Sequence[Mapping[str, Any]], card: Hardware) -> list[Verdict]:
    """A verdict for each measured point, from its symptoms alone."""
    ratios = _shrink_ratios(points)
    # The host-sync sweep times a loop of steps; a verdict reads one step (the sync's round trip is per step).
    without_sync = {tuple(p["shape"]): p["time_s"] / p.get("steps", 1) for p in points if p["variant"] == "no .item()"}
    verdicts = []
    for index, p in enumerate(points):
        w = Work(p["flops"], p["bytes"], f"{p['sweep']} {p['variant']}", dtype=p["dtype"]) if "flops" in p else None
        synced = p["variant"] == ".item() per step"
        step = p["time_s"] / p.get("steps", 1) if synced else p["time_s"]
        observed = Observed(time=step, shrink_4x_ratio=ratios.get(index), host_sync_in_loop=synced,
                            time_before=without_sync.get(tuple(p["shape"])) if synced else None)
        verdicts.append(classify(Symptoms(card if w else None, p["dtype"] if w else None, w, observed)))
    return verdicts
