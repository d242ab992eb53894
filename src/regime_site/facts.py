"""Named figures the lesson and home pages quote, each computed by the core at build time.

The lesson teaches with examples of its own (an H100, a 13B model on an A10, a small softmax-sized chain), never
the drill's incidents or Part B, so that it leaves the drill to be solved.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from regime_core.catalogue import hardware
from regime_core.catalogue.quantity import Dim, format_quantity, number
from regime_core.judgment.svg import Point, roofline_svg
from regime_core.model.roofline import Placement, place, ridge
from regime_core.model.work import from_spec
from regime_site.pictures import NOT_MEASURED, figure

#: The lesson's own kernels, on the H100 SXM: a matmul, an add, a decode step (none of them the drill's).
LESSON_KERNELS = {
    "matmul": {"kernel": "matmul", "m": 2048, "n": 2048, "k": 2048},
    "add": {"kernel": "elementwise", "shape": [4096, 4096], "ops": 1, "inputs": 2, "dtype": "fp32"},
    "decode": {"kernel": "decode", "params": "13B", "batch": 1},
}
#: The floor's example: a 13B bf16 model decoding at batch 1 on an A10, and a report faster than it allows.
FLOOR_CARD, FLOOR_MODEL, FLOOR_REPORTED = "a10", {"kernel": "decode", "params": "13B", "batch": 1}, 40.0
#: The shrink test's example: a tiny chain timed at 10 µs on an H100, and a timeline of 5 µs on, 15 µs off.
SHRINK_WORK, SHRINK_TIME = {"kernel": "elementwise", "shape": [4, 16, 16], "ops": 3}, 10e-6
TIMELINE_KERNEL, TIMELINE_GAP = 5e-6, 15e-6


@dataclass(frozen=True)
class Facts:
    """Formatted figures; names say where each comes from."""

    h100_ridge: str
    h100_peak: str
    h100_bandwidth: str
    l4_ridge: str
    matmul_label: str
    matmul_intensity: str
    matmul_factor: str
    add_label: str
    add_intensity: str
    decode_label: str
    decode_intensity: str
    floor_card: str
    floor_params: str
    floor_weights: str
    floor_time: str
    floor_cap: str
    floor_reported: str
    shrink_label: str
    shrink_time: str
    shrink_floor: str
    shrink_share: str
    timeline_kernel: str
    timeline_gap: str
    timeline_idle: str


@cache
def lesson_placements() -> dict[str, Placement]:
    """The lesson's three kernels placed on the H100 SXM's roofline."""
    h100 = hardware.get("h100-sxm")
    return {name: place(from_spec(spec, None), h100) for name, spec in LESSON_KERNELS.items()}


def lesson_figure(id_prefix: str = "lesson") -> str:
    """The lesson's own three kernels on an H100 SXM's roofline (not the drill's: it is left to be solved)."""
    placed = lesson_placements()
    first = next(iter(placed.values()))
    points = [Point(name, p.intensity) for name, p in placed.items()]
    svg = roofline_svg({first.dtype: first.peak_flops}, first.bandwidth, points,
                       title=f"Three kernels on an {first.hardware_name}", id_prefix=id_prefix)
    table = [(p.work.label, format_quantity(p.intensity, Dim.INTENSITY), f"{number(p.factor)}× {p.side}",
              format_quantity(p.attainable_flops, Dim.FLOP_RATE), NOT_MEASURED) for p in placed.values()]
    return figure(svg, table, f"Three kernels on an {first.hardware_name}: ridge {format_quantity(first.ridge, Dim.INTENSITY)}.")


@cache
def facts() -> Facts:
    """Compute every figure once."""
    h100 = hardware.get("h100-sxm")
    l4 = hardware.get("l4")
    kernels = lesson_placements()
    floor = place(from_spec(FLOOR_MODEL, None), hardware.get(FLOOR_CARD))
    shrink = place(from_spec(SHRINK_WORK, None), h100)
    f = format_quantity
    return Facts(
        h100_ridge=f(ridge(h100.peak("bf16"), h100.bandwidth.value), Dim.INTENSITY),
        h100_peak=f(h100.peak("bf16"), Dim.FLOP_RATE),
        h100_bandwidth=f(h100.bandwidth.value, Dim.BYTE_RATE),
        l4_ridge=f(ridge(l4.peak("bf16"), l4.bandwidth.value), Dim.INTENSITY),
        matmul_label=kernels["matmul"].work.label,
        matmul_intensity=f(kernels["matmul"].intensity, Dim.INTENSITY),
        matmul_factor=number(kernels["matmul"].factor),
        add_label=kernels["add"].work.label,
        add_intensity=f(kernels["add"].intensity, Dim.INTENSITY),
        decode_label=kernels["decode"].work.label,
        decode_intensity=f(kernels["decode"].intensity, Dim.INTENSITY),
        floor_card=hardware.get(FLOOR_CARD).name,
        floor_params=number(floor.work.flops / 2),
        floor_weights=f(floor.work.bytes, Dim.BYTE),
        floor_time=f(floor.floor_seconds, Dim.SECOND),
        floor_cap=f(1 / floor.floor_seconds, Dim.TOKEN_RATE),
        floor_reported=f(FLOOR_REPORTED, Dim.TOKEN_RATE),
        shrink_label=shrink.work.label,
        shrink_time=f(SHRINK_TIME, Dim.SECOND),
        shrink_floor=f(shrink.floor_seconds, Dim.SECOND),
        shrink_share=f(shrink.floor_seconds / SHRINK_TIME, Dim.FRACTION, digits=2),
        timeline_kernel=f(TIMELINE_KERNEL, Dim.SECOND),
        timeline_gap=f(TIMELINE_GAP, Dim.SECOND),
        timeline_idle=f(TIMELINE_GAP / (TIMELINE_KERNEL + TIMELINE_GAP), Dim.FRACTION),
    )


def _tera(value: float) -> str:
    """A rate in tera-units for a table cell: ``989.5``, ``2,250``, ``13,125``."""
    return f"{value / 1e12:,.2f}".rstrip("0").rstrip(".")


def _peak_cell(card: hardware.Hardware, dtype: str) -> str:
    fig = card.peaks.get(dtype)
    if fig is None:
        return "—"
    return _tera(fig.value) + (" ‡" if fig.derived else "")


def _memory_cell(size: float) -> str:
    """GB, and GiB beside it where the vendor counts in GiB (95 GiB is 102 GB)."""
    gib = size / 2**30
    return f"{size / 1e9:,.0f}" + (f" ({gib:,.0f} GiB)" if gib.is_integer() and size % 1e9 else "")


def hardware_table() -> str:
    """The catalogue as one Markdown comparison table: card, ridge, bandwidth, memory, each dtype, sources.

    What decides a regime comes first (the ridge, the bandwidth), so it is on screen on a laptop; the card's
    name and id share its first cell, kept from wrapping word by word (regime.css). Peaks are dense, in
    TFLOP/s (TOPS for int8); ``‡`` marks a figure computed from what the source prints rather than printed
    by it. The ridge is at the card's default dtype (bf16, else fp16).
    """
    dtypes = hardware.DTYPES
    head = ["card", "ridge FLOP/byte", "bandwidth TB/s", "memory GB",
            *(f"{d} {'TOPS' if d.startswith('int') else 'TFLOP/s'}" for d in dtypes), "sources"]
    cards = hardware.catalogue()
    lines = [f"The table has {len(cards)} cards in {len(head)} columns: it scrolls sideways, with each card's name"
             " kept at the left.", "",
             '<div class="regime-hardware" markdown="1">', "",
             "| " + " | ".join(head) + " |",
             "| --- | " + " | ".join("---:" for _ in ("ridge", "bw", "mem", *dtypes)) + " | --- |"]
    for card in cards.values():
        dtype = card.default_dtype()
        r = ridge(card.peak(dtype), card.bandwidth.value)
        keys = sorted({fig.source for fig in card.figures()}, key=lambda s: s.key)
        sources = ", ".join(f"[{s.key}]({s.url})" for s in keys)
        memory = _memory_cell(card.memory.value) if card.memory else "—"
        cells = [f"{card.name}<br>`{card.id}`", f"{r:,.0f} ({dtype})", f"{card.bandwidth.value / 1e12:.2f}", memory,
                 *(_peak_cell(card, d) for d in dtypes), sources]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join([*lines, "", "</div>"])
