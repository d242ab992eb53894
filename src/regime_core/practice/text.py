"""What the practice generator writes: cards as engineers name them, and numbers as engineers write them.

Every number a generated incident shows is formatted once, here, and the same text goes into both
the statement and the symptoms, so what the learner reads is exactly what the classifier reads.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from regime_core.catalogue import hardware as hw
from regime_core.catalogue.quantity import Dim, format_quantity, number
from regime_core.resources import load_json

T = TypeVar("T")


@cache
def data() -> dict[str, Any]:
    """``data/practice.json``."""
    return load_json("practice.json")


@dataclass(frozen=True)
class Card:
    """A catalogue card as a practice incident uses it: ``count`` of them working as one."""

    hardware: hw.Hardware
    short: str
    article: str
    vendor: str
    count: int = 1

    @property
    def spec(self) -> object:
        """The symptoms file's ``hardware`` value."""
        return self.hardware.id if self.count == 1 else {"id": self.hardware.id, "count": self.count}

    @property
    def phrase(self) -> str:
        """``an H100 SXM``, or ``4× H100 SXM (tensor parallel)``."""
        if self.count == 1:
            return f"{self.article} {self.short}"
        return f"{self.count}× {self.short} (tensor parallel)"

    @property
    def bandwidth(self) -> float:
        """Peak bytes/s of all ``count`` cards."""
        return self.hardware.bandwidth.value * self.count

    @property
    def memory(self) -> float:
        """Bytes of memory of all ``count`` cards (0 where the catalogue gives none)."""
        return (self.hardware.memory.value if self.hardware.memory else 0.0) * self.count

    def peak(self, dtype: str) -> float:
        """Dense peak FLOP/s of all ``count`` cards for ``dtype``."""
        return self.hardware.peak(dtype) * self.count

    def ridge(self, dtype: str) -> float:
        """Peak FLOP/s ÷ peak bytes/s: the same for one card or ``count``."""
        return self.hardware.peak(dtype) / self.hardware.bandwidth.value

    def times(self, count: int) -> Card:
        """The same card, ``count`` of them."""
        return Card(self.hardware, self.short, self.article, self.vendor, count)


@cache
def cards() -> tuple[Card, ...]:
    """The cards practice incidents are drawn on, in ``practice.json`` order."""
    catalogue = hw.catalogue()
    return tuple(Card(catalogue[key], entry["short"], entry["article"], entry["vendor"])
                 for key, entry in data()["cards"].items())


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """One item, drawn by ``rng`` (never the module's global generator)."""
    return items[rng.randrange(len(items))]


def pct(fraction: float) -> str:
    """``73%``: a whole per cent, the way people quote a fraction of peak."""
    return f"{round(fraction * 100)}%"


def seconds(value: float) -> str:
    """``2.3 µs``, ``0.271 ms`` → ``271 µs``, ``14.2 ms``: three significant figures at most."""
    return format_quantity(value, Dim.SECOND)


def short_seconds(value: float) -> str:
    """Two significant figures, the way a timeline is read by eye: ``7.9 µs``."""
    return format_quantity(value, Dim.SECOND, 2)


def rate(value: float, dim: Dim) -> str:
    """``694 TFLOP/s``, ``2.71 TB/s``."""
    return format_quantity(value, dim)


def tokens(value: float) -> str:
    """``38.4 tokens/s``, ``1,234 tokens/s``."""
    text = f"{round(value):,}" if value >= 1000 else number(value, 3)
    return f"{text} tokens/s"


def ratio(value: float) -> str:
    """``3.8`` (the × is the template's): two significant figures, three below 2 (``1.08``)."""
    return number(value, 3 if value < 2 else 2)


def count(value: int) -> str:
    """``40,000``."""
    return f"{value:,}"


def shape(dims: Sequence[int]) -> str:
    """``8, 4096, 4096`` (the template adds the parentheses)."""
    return ", ".join(str(d) for d in dims)


def kibibytes(value: float) -> str:
    """``128 KiB``, ``1.5 MiB``: KV-cache bytes per token, as engineers compute them."""
    if value >= 2**20:
        return f"{number(value / 2**20, 3)} MiB"
    return f"{number(value / 2**10, 3)} KiB"


def fill(template: str, fields: Mapping[str, str]) -> str:
    """The template with its fields; the first letter capitalised (a sentence may start with a field)."""
    text = template.format(**fields)
    return text[:1].upper() + text[1:]
