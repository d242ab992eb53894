"""The roofline: intensity, ridge, which side a kernel sits on, and its floor time."""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any

from regime_core.catalogue.hardware import Hardware
from regime_core.catalogue.levers import advice
from regime_core.catalogue.quantity import Dim, format_quantity, number
from regime_core.errors import RegimeError
from regime_core.model.work import Work


def ridge(peak_flops: float, bandwidth: float) -> float:
    """Ridge point in FLOP/byte: peak FLOP/s ÷ peak bytes/s."""
    if peak_flops <= 0 or bandwidth <= 0:
        raise RegimeError("hardware", "peak FLOP/s and bandwidth must both be above zero")
    value = peak_flops / bandwidth
    if value == 0:  # underflowed: nothing sits below it
        raise RegimeError("hardware", f"{_RIDGE} is too small to represent; check the magnitudes")
    return representable(value, "hardware", _RIDGE)


_RIDGE = "the ridge, peak FLOP/s ÷ bandwidth,"


def representable(value: float, field: str, what: str) -> float:
    """``value`` when a float holds it as a normal number (or it is zero), else a RegimeError naming ``field``.

    Args:
        value: A computed result.
        field: The input to blame.
        what: The result in words, for the message.

    """
    if not math.isfinite(value):
        raise RegimeError(field, f"{what} is too large to represent; check the magnitudes")
    if 0 < abs(value) < sys.float_info.min:
        raise RegimeError(field, f"{what} is too small to represent; check the magnitudes")
    return value


@dataclass(frozen=True)
class Placement:
    """Where a kernel sits against one card's roofline."""

    work: Work
    peak_flops: float
    bandwidth: float
    hardware_name: str
    dtype: str

    @property
    def intensity(self) -> float:
        """FLOP/byte of the work."""
        return self.work.intensity

    @property
    def ridge(self) -> float:
        """FLOP/byte where the two roofs meet."""
        return ridge(self.peak_flops, self.bandwidth)

    @property
    def side(self) -> str:
        """``"below"`` (memory side) or ``"above"`` (compute side) of the ridge."""
        return "below" if self.intensity < self.ridge else "above"

    @property
    def bound(self) -> str:
        """The regime the roofline predicts: ``"memory"`` below the ridge, ``"compute"`` above."""
        return "memory" if self.side == "below" else "compute"

    @property
    def factor(self) -> float:
        """How many times below or above the ridge (always ≥ 1)."""
        if self.intensity == 0:
            return float("inf")
        return max(self.ridge / self.intensity, self.intensity / self.ridge)  # no 1 / ratio: that can be 1 / 0

    @property
    def compute_seconds(self) -> float:
        """Time the FLOPs take at peak."""
        return self.work.flops / self.peak_flops

    @property
    def memory_seconds(self) -> float:
        """Time the bytes take at full bandwidth."""
        return self.work.bytes / self.bandwidth

    @property
    def floor_seconds(self) -> float:
        """The roofline floor: max(FLOPs / peak, bytes / bandwidth)."""
        return max(self.compute_seconds, self.memory_seconds)

    @property
    def attainable_flops(self) -> float:
        """min(peak, bandwidth × intensity): the roof over this intensity."""
        return min(self.peak_flops, self.bandwidth * self.intensity)

    @property
    def allowed(self) -> str:
        """The one class of optimisation allowed on this side (drill, Part B.3)."""
        return advice(self.bound).allowed

    def arithmetic(self) -> list[str]:
        """The steps, as a learner would write them."""
        f = format_quantity
        far = f" (far {self.side})" if self.factor >= 10 else ""
        return [
            *self.work.steps,
            f"intensity = {number(self.work.flops)} / {number(self.work.bytes)} = {f(self.intensity, Dim.INTENSITY)}",
            f"ridge = {f(self.peak_flops, Dim.FLOP_RATE)} / {f(self.bandwidth, Dim.BYTE_RATE)}"
            f" = {f(self.ridge, Dim.INTENSITY)}",
            f"{f(self.intensity, Dim.INTENSITY)} is {number(self.factor)}× {self.side} the ridge{far}: the {self.bound} side, under the {self.bound} roof",
            f"floor = max({f(self.compute_seconds, Dim.SECOND)} of math, {f(self.memory_seconds, Dim.SECOND)}"
            f" of memory) = {f(self.floor_seconds, Dim.SECOND)}",
        ]

    def to_json(self) -> dict[str, Any]:
        """The ``place``/``kernel`` JSON contract; ``factor`` is null for work without FLOPs."""
        return {
            "kernel": self.work.label,
            "hardware": self.hardware_name,
            "dtype": self.dtype,
            "flops": self.work.flops,
            "bytes": self.work.bytes,
            "intensity": self.intensity,
            "ridge": self.ridge,
            "side": self.side,
            "factor": self.factor if math.isfinite(self.factor) else None,  # zero FLOPs: no finite factor
            "bound": self.bound,
            "floor_seconds": self.floor_seconds,
            "allowed": self.allowed,
            "arithmetic": self.arithmetic(),
        }


def place(work: Work, hardware: Hardware, dtype: str | None = None, field: str = "dtype") -> Placement:
    """Place ``work`` against ``hardware``'s roofline for ``dtype`` (default: the work's, else the card's)."""
    chosen = dtype or work.dtype or hardware.default_dtype()
    peak = hardware.peak(chosen, field)
    return _in_range(Placement(work, peak, hardware.bandwidth.value, hardware.name, chosen))


def _in_range(p: Placement) -> Placement:
    """``p`` when every figure it reports is a number a float holds; else a RegimeError naming the input."""
    representable(p.ridge, "hardware", _RIDGE)
    representable(p.work.flops, "work", "its FLOP count")
    representable(p.work.bytes, "work", "its byte count")
    representable(p.intensity, "work", "its intensity, FLOPs ÷ bytes,")
    representable(p.floor_seconds, "work", "its floor time")
    if p.intensity > 0:
        representable(p.factor, "work", "how far it sits from the ridge")
    return p
