"""The figures that follow from an incident's own by one step of arithmetic people write.

A learner rarely copies the incident's numbers: they divide them ("2 µs on, 8 µs off: busy 20%"), turn a
rate into a time ("38 tok/s is 26 ms a token"), take a complement ("15% of the bandwidth left"), a ratio
("180 → 80 ms needs 2.25×"), a percent change ("+75%"), a floor ("14 GB at 300 GB/s is 47 ms") or a
hypothetical ("at 100% of peak, 180 ms × 62% = 112 ms"). Each figure here carries its ``role`` (what the
arithmetic means) and ``how`` (the arithmetic, for feedback), so that a number is accepted only in the role
its words give it: 44% is 80 ms ÷ 180 ms, a share of the time, and not a 44% speed-up.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from regime_core.catalogue.hardware import Hardware
from regime_core.catalogue.quantity import Dim, format_quantity

#: What a derived figure means.
RATIO = "ratio"  # a / b of two figures in one unit: a multiplier ("1.75×") or a share ("44% of the time")
CHANGE = "change"  # (b − a) / a of two figures in one unit: a percent change ("+75%", "−56%")
SPARE = "spare"  # 1 − a share of a roof: what is left ("15% of the bandwidth unused")
HEADROOM = "headroom"  # 1 / a share of a roof: how far the roof is ("1.43× headroom")
PER_ITEM = "per_item"  # 1 / a rate or a time ("38 tok/s is 26 ms a token")
FLOOR = "floor"  # work ÷ a roof: the least time the work can take ("14 GB at 300 GB/s is 47 ms")
TOTAL = "total"  # a sum or a product of figures ("2 + 8 = 10 µs", "40,000 × 10 µs = 400 ms")
AT_PEAK = "at_peak"  # a time × the share of the roof it runs at: that time at 100% of the roof
DATASHEET = "datasheet"  # a card's peak or bandwidth from the catalogue
ACHIEVED = "achieved"  # a share of a roof × the card's peak: the rate achieved ("62% × 989 TFLOP/s = 613 TFLOP/s")


@dataclass(frozen=True)
class Derived:
    """One figure that follows from an incident's figures: its value, unit, role and the arithmetic."""

    value: float
    dim: Dim
    role: str
    how: str
    deciding: bool = False  # every figure it comes from decides the regime
    roof: str | None = None  # the roof a share is of ("flops", "bandwidth"); None for a share of the time
    of: Dim | None = None  # a ratio's: the unit of the two figures it divides ("38 tok/s ÷ 21.4 tok/s")
    span: str | None = None  # a total of one part of a timeline: "busy" (40,000 × 2 µs of kernel) or "idle" (of gap)


@dataclass(frozen=True)
class Figure:
    """An incident figure as the deriver needs it: value, unit, roof share or not, deciding or not."""

    value: float
    dim: Dim
    roof: str | None = None
    deciding: bool = False
    datasheet: bool = False  # a card's figure: it enters floors only (two cards' ratio means nothing here)
    speed: bool = False  # a speed multiplier ("3.8× faster"): its time change and speed change follow
    span: str | None = None  # a time's part of the timeline ("2 µs of kernel": "busy"; "8 µs of gap": "idle")


def _shown(value: float, dim: Dim) -> str:
    return format_quantity(value, dim)


_RATES = (Dim.SECOND, Dim.TOKEN_RATE, Dim.BYTE_RATE, Dim.FLOP_RATE)
_FLOORS = {(Dim.BYTE, Dim.BYTE_RATE), (Dim.FLOP, Dim.FLOP_RATE)}


def derive(figures: Iterable[Figure], transitions: Iterable[tuple[float, float]] = ()) -> tuple[Derived, ...]:
    """Every figure one step of arithmetic takes the incident's figures to (ratios, changes, floors, …).

    ``transitions`` are the incident's before → after pairs ("ITL jumps from 8 ms to 14 ms"): a figure in one of
    them changes only to its other end, so 14 ms → 6 ms (the jump itself) is no "57% drop".
    """
    moved = {(round(a, 12), round(b, 12)) for a, b in transitions}
    ends = {v for pair in moved for v in pair}
    unique: dict[tuple[float, Dim, bool], Figure] = {}
    for f in figures:
        if f.value > 0:
            key = (round(f.value, 12), f.dim, f.datasheet)
            if key not in unique or (f.deciding and not unique[key].deciding) or (f.roof and not unique[key].roof):
                unique[key] = f
    found = list(unique.values())
    out: list[Derived] = []
    for f in found:
        if f.datasheet:
            continue
        shown = _shown(f.value, f.dim)
        if f.dim is Dim.FRACTION and f.value < 1:
            out.append(Derived(1 - f.value, Dim.FRACTION, SPARE, f"100% − {shown}", f.deciding, f.roof))
            if f.roof:
                out.append(Derived(1 / f.value, Dim.COUNT, HEADROOM, f"1 ÷ {shown}", f.deciding))
                # the same headroom said as a percent of speed left ("18% headroom" at 85%)
                out.append(Derived(1 / f.value - 1, Dim.FRACTION, SPARE, f"1 ÷ {shown} − 1", f.deciding, f.roof))
                # at the roof the time falls to the share: "70% of peak: at most 30% less time"
                out.append(Derived(-(1 - f.value), Dim.FRACTION, CHANGE, f"at 100% of the roof, {shown} of the time",
                                   f.deciding))
                # and the speed rises by 1 ÷ the share − 1: "even a perfect kernel only gets ~43% faster"
                out.append(Derived(1 / f.value - 1, Dim.FRACTION, CHANGE, f"at 100% of the roof, 1 ÷ {shown} − 1 more"
                                   " speed", f.deciding))
        if f.speed and f.value > 1:  # 3.8× faster: the time falls by 1 − 1/3.8 (−74%), the speed rises by 2.8 (+280%)
            out.append(Derived(-(1 - 1 / f.value), Dim.FRACTION, CHANGE, f"{shown}× faster, in time", f.deciding))
            out.append(Derived(f.value - 1, Dim.FRACTION, CHANGE, f"{shown}× faster, in speed", f.deciding))
            if f.value >= 2:  # the time after as a share of the time before ("compiled takes 0.26 of the eager
                # time"); past 50% it is near any roof's share, and a near-1 speed-up is said as one, not as a share
                out.append(Derived(1 / f.value, Dim.FRACTION, RATIO, f"1 ÷ {shown}", f.deciding))
        if f.dim is Dim.TOKEN_RATE:
            out.append(Derived(1 / f.value, Dim.SECOND, PER_ITEM, f"1 ÷ {shown}", f.deciding))
        if f.dim is Dim.SECOND:
            out.append(Derived(1 / f.value, Dim.TOKEN_RATE, PER_ITEM, f"1 ÷ {shown}", f.deciding))
    own = [f for f in found if not f.datasheet]
    # What a speed-up saves of a time ("1.08× faster: 12 µs − 12 µs/1.08 = 0.89 µs saved").
    for f in (f for f in own if f.speed and f.value > 1):
        for t in (t for t in own if t.dim is Dim.SECOND):
            saved = t.value - t.value / f.value
            out.append(Derived(saved, Dim.SECOND, TOTAL, f"{_shown(t.value, t.dim)} − {_shown(t.value, t.dim)}"
                                                          f"/{_shown(f.value, f.dim)}", f.deciding and t.deciding))
    said = {id(f): _shown(f.value, f.dim) for f in own}
    for a, b in itertools.permutations(own, 2):
        ka, kb = round(a.value, 12), round(b.value, 12)
        changes = (ka, kb) in moved or (kb, ka) in moved or not ({ka, kb} & ends)
        out += _pair(a, b, said[id(a)], said[id(b)], changes=changes)
    # A card's figures enter floors and achieved rates only (two cards' ratio means nothing here), and only beside
    # the incident's own figures: a catalogue of cards is many pairs, so none is formatted unless it is used.
    roofs = {Dim.FLOP_RATE: "flops", Dim.BYTE_RATE: "bandwidth"}
    for a in own:
        for b in found:
            if not b.datasheet:
                continue
            if (a.dim, b.dim) in _FLOORS:
                out.append(Derived(a.value / b.value, Dim.SECOND, FLOOR, f"{said[id(a)]} ÷ {_shown(b.value, b.dim)}"))
            elif a.dim is Dim.FRACTION and a.roof and roofs.get(b.dim) == a.roof:
                out.append(Derived(a.value * b.value, b.dim, ACHIEVED, f"{said[id(a)]} × {_shown(b.value, b.dim)}",
                                   a.deciding))
    return tuple(d for d in out if d.value > 0 or (d.role == CHANGE and d.value < 0))


def _pair(a: Figure, b: Figure, sa: str, sb: str, *, changes: bool = True) -> list[Derived]:
    """What two of the incident's own figures give: their ratio, change, sum, floor, time at the roof, total."""
    both = a.deciding and b.deciding
    out = []
    if a.dim is b.dim and a.dim in _RATES:
        out.append(Derived(a.value / b.value, Dim.COUNT, RATIO, f"{sa} ÷ {sb}", both, of=a.dim))
        if changes:
            out.append(Derived((b.value - a.value) / a.value, Dim.FRACTION, CHANGE, f"{sa} → {sb}", both))
        if a.dim is Dim.SECOND and (a.span or b.span):  # a part of a timeline over the whole (2 µs on, 8 µs off)
            out.append(Derived(a.value / (a.value + b.value), Dim.FRACTION, RATIO, f"{sa} ÷ ({sa} + {sb})", both))
            out.append(Derived(a.value + b.value, Dim.SECOND, TOTAL, f"{sa} + {sb}", both))
    if (a.dim, b.dim) in _FLOORS:
        out.append(Derived(a.value / b.value, Dim.SECOND, FLOOR, f"{sa} ÷ {sb}", both))
    if a.dim is b.dim and a.dim in (Dim.BYTE_RATE, Dim.FLOP_RATE) and a.value > b.value:
        # a roof less the rate reached: what is left under it ("0.3 TB/s left on the table" of 1.7 of 2.0 TB/s)
        out.append(Derived(a.value - b.value, a.dim, SPARE, f"{sa} − {sb}", both))
    if a.dim is Dim.SECOND and b.dim is Dim.FRACTION and b.roof and b.value < 1:
        out.append(Derived(a.value * b.value, Dim.SECOND, AT_PEAK, f"{sa} × {sb}", both))
    if a.dim is Dim.COUNT and b.dim is Dim.SECOND and a.value >= 2 and (b.span or a.value >= 100):
        # a count of repetitions times a part of the timeline or a time: a tensor's small dimension times any time
        # ("8 × 131 ns" of A3's (8, 32, 32)) means nothing and lands near figures by chance
        out.append(Derived(a.value * b.value, Dim.SECOND, TOTAL, f"{_shown(a.value, Dim.COUNT)} × {sb}", both,
                           span=b.span))
    return out


def datasheet(cards: Iterable[Hardware]) -> tuple[Derived, ...]:
    """The cards' dense peaks, bandwidth and memory as figures a learner may quote ("an H100's 989 TFLOP/s")."""
    out: dict[tuple[float, Dim], Derived] = {}
    for card in cards:
        figures = [(f.value, Dim.FLOP_RATE, dtype) for dtype, f in card.peaks.items()]
        figures += [(card.bandwidth.value, Dim.BYTE_RATE, "bandwidth")]
        if card.memory is not None:
            figures += [(card.memory.value, Dim.BYTE, "memory")]
        for value, dim, what in figures:
            out.setdefault((value, dim), Derived(value, dim, DATASHEET, f"{card.name}, {what}"))
    return tuple(out.values())
