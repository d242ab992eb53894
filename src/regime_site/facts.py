"""Named figures the lesson and home pages quote, each computed by the core at build time."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from regime_core.catalogue import hardware
from regime_core.catalogue.quantity import Dim, format_quantity, number
from regime_core.content import drill
from regime_core.model.roofline import ridge


@dataclass(frozen=True)
class Facts:
    """Formatted figures; names say where each comes from."""

    drill_peak: str
    drill_bandwidth: str
    drill_ridge: str
    h100_ridge: str
    h100_peak: str
    h100_bandwidth: str
    l4_ridge: str
    matmul_intensity: str
    matmul_factor: str
    add_intensity: str
    add_drill_intensity: str
    decode_intensity: str
    a4_floor: str
    a4_cap: str
    a4_reported: str
    a3_time: str
    a3_floor: str
    a6_idle: str
    a6_kernel: str
    a6_gap: str
    a4_weights: str
    a4_params: str
    a3_share: str
    matmul_label: str
    decode_label: str


@cache
def facts() -> Facts:
    """Compute every figure once."""
    card = drill.part_b_card()
    rows = {r.id: r for r in drill.part_b()}
    h100 = hardware.get("h100-sxm")
    l4 = hardware.get("l4")
    a4 = drill.incident("a4")
    a4_floor = a4.verdict().placement
    a3 = drill.incident("a3")
    a3_place = a3.verdict().placement
    a6 = drill.incident("a6").symptoms.observed
    if a4_floor is None or a3_place is None or a6.gap_time is None or a6.kernel_time is None:
        raise RuntimeError("drill.json lost a figure the lesson quotes (A3, A4 or A6)")
    f = format_quantity
    return Facts(
        drill_peak=f(card.peak("bf16"), Dim.FLOP_RATE),
        drill_bandwidth=f(card.bandwidth.value, Dim.BYTE_RATE),
        drill_ridge=f(ridge(card.peak("bf16"), card.bandwidth.value), Dim.INTENSITY),
        h100_ridge=f(ridge(h100.peak("bf16"), h100.bandwidth.value), Dim.INTENSITY),
        h100_peak=f(h100.peak("bf16"), Dim.FLOP_RATE),
        h100_bandwidth=f(h100.bandwidth.value, Dim.BYTE_RATE),
        l4_ridge=f(ridge(l4.peak("bf16"), l4.bandwidth.value), Dim.INTENSITY),
        matmul_intensity=f(rows["matmul"].placement.intensity, Dim.INTENSITY),
        matmul_factor=number(rows["matmul"].placement.factor),
        add_intensity=f(rows["add"].placement.intensity, Dim.INTENSITY),
        add_drill_intensity=f(rows["add"].drill_intensity, Dim.INTENSITY),
        decode_intensity=f(rows["decode"].placement.intensity, Dim.INTENSITY),
        a4_floor=f(a4_floor.floor_seconds, Dim.SECOND),
        a4_cap=f(1 / a4_floor.floor_seconds, Dim.TOKEN_RATE),
        a4_reported=f(a4.symptoms.observed.tokens_per_s or 0, Dim.TOKEN_RATE),
        a3_time=f(a3.symptoms.observed.time or 0, Dim.SECOND),
        a3_floor=f(a3_place.floor_seconds, Dim.SECOND),
        a6_idle=f(a6.gap_time / (a6.gap_time + a6.kernel_time), Dim.FRACTION),
        a6_kernel=f(a6.kernel_time, Dim.SECOND),
        a6_gap=f(a6.gap_time, Dim.SECOND),
        a4_weights=f(a4_floor.work.bytes, Dim.BYTE),
        a4_params=number(a4_floor.work.flops / 2),
        a3_share=f(a3_place.floor_seconds / (a3.symptoms.observed.time or 1), Dim.FRACTION, digits=2),
        matmul_label=rows["matmul"].label,
        decode_label=rows["decode"].label,
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
    lines = ['<div class="regime-hardware" markdown="1">', "",
             "| " + " | ".join(head) + " |",
             "| --- | " + " | ".join("---:" for _ in ("ridge", "bw", "mem", *dtypes)) + " | --- |"]
    for card in hardware.catalogue().values():
        dtype = card.default_dtype()
        r = ridge(card.peak(dtype), card.bandwidth.value)
        keys = sorted({fig.source for fig in card.figures()}, key=lambda s: s.key)
        sources = ", ".join(f"[{s.key}]({s.url})" for s in keys)
        memory = _memory_cell(card.memory.value) if card.memory else "—"
        cells = [f"{card.name}<br>`{card.id}`", f"{r:,.0f} ({dtype})", f"{card.bandwidth.value / 1e12:.2f}", memory,
                 *(_peak_cell(card, d) for d in dtypes), sources]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join([*lines, "", "</div>"])
