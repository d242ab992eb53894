"""A log-log roofline as SVG text: no plotting library, so it runs at build time and in Pyodide.

Colours come from ``currentColor`` and CSS classes (``roofline__*``), so the picture follows the
page's light or dark palette; a standalone file gets sensible defaults from its own <style>.
Every label is escaped: a kernel named ``<script>`` shows as text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from regime_core.classify import step_time
from regime_core.quantity import Dim, format_quantity
from regime_core.roofline import place
from regime_core.symptoms import Symptoms

# html.escape would pull in html.entities, a 2,000-entry table: 30 ms of start-up in Pyodide.
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escape(text: str) -> str:
    """Escape text for SVG/HTML content and attribute values, as ``html.escape(text)`` does."""
    return text.translate(_ESCAPES)

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 30, 40, 50


@dataclass(frozen=True)
class Point:
    """A kernel on the picture: its intensity, and its measured FLOP/s when there is one."""

    label: str
    intensity: float
    measured_flops: float | None = None


@dataclass(frozen=True)
class Axes:
    """Log-log axes mapping (intensity, FLOP/s) to pixels."""

    x_lo: float
    x_hi: float
    y_lo: float
    y_hi: float

    def x(self, intensity: float) -> float:
        """Pixel x of an intensity."""
        span = math.log10(self.x_hi) - math.log10(self.x_lo)
        return LEFT + (math.log10(intensity) - math.log10(self.x_lo)) / span * (WIDTH - LEFT - RIGHT)

    def y(self, flops: float) -> float:
        """Pixel y of a FLOP/s rate."""
        span = math.log10(self.y_hi) - math.log10(self.y_lo)
        return HEIGHT - BOTTOM - (math.log10(flops) - math.log10(self.y_lo)) / span * (HEIGHT - TOP - BOTTOM)


def for_symptoms(symptoms: Symptoms, *, title: str, id_prefix: str = "roofline", label: str = "") -> str | None:
    """The picture of one kernel on its card, at its measured speed where the symptoms give one.

    Returns None unless the symptoms name both a card and the work.
    """
    if symptoms.hardware is None or symptoms.work is None:
        return None
    p = place(symptoms.work, symptoms.hardware, symptoms.dtype)
    measured = None
    if symptoms.observed.flops_fraction is not None:
        measured = symptoms.observed.flops_fraction * p.peak_flops
    else:
        step = step_time(symptoms)
        if step:
            measured = p.work.flops / step
    return roofline_svg({p.dtype: p.peak_flops}, p.bandwidth,
                        [Point(label or p.work.label, p.intensity, measured)], title=title, id_prefix=id_prefix)


def _decade_range(lo: float, hi: float) -> tuple[float, float]:
    return 10.0 ** math.floor(math.log10(lo)), 10.0 ** math.ceil(math.log10(hi))


def _axes(roofs: dict[str, float], bandwidth: float, points: list[Point]) -> Axes:
    ridges = [peak / bandwidth for peak in roofs.values()]
    xs = [p.intensity for p in points if p.intensity > 0] + ridges
    x_lo, x_hi = _decade_range(min(xs) / 4, max(xs) * 4)
    ys = [*roofs.values(), bandwidth * x_lo] + [p.measured_flops for p in points if p.measured_flops]
    y_lo, y_hi = _decade_range(min(ys) / 2, max(ys) * 2)
    return Axes(x_lo, x_hi, y_lo, y_hi)


def _ticks(lo: float, hi: float) -> list[float]:
    count = round(math.log10(hi / lo))
    step = max(1, math.ceil(count / 6))
    return [lo * 10.0**i for i in range(0, count + 1, step)]


def roofline_svg(roofs: dict[str, float], bandwidth: float, points: list[Point], *, title: str,
                 id_prefix: str = "roofline") -> str:
    """The picture: bandwidth slope, one compute roof per dtype, the ridge(s), and the kernels.

    Args:
        roofs: dtype -> dense peak FLOP/s; the first is the one the ridge marker names.
        bandwidth: Peak bytes/s.
        points: Kernels to mark.
        title: What the picture shows, in words.
        id_prefix: Makes element ids unique when several pictures share a page.

    """
    ax = _axes(roofs, bandwidth, points)
    f = format_quantity
    main_dtype, main_peak = next(iter(roofs.items()))
    ridge = main_peak / bandwidth
    parts: list[str] = []
    for tick in _ticks(ax.x_lo, ax.x_hi):
        x = ax.x(tick)
        parts.append(f'<line class="roofline__grid" x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM}"/>'
                     f'<text class="roofline__tick" x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">'
                     f"{escape(f(tick, Dim.COUNT))}</text>")
    for tick in _ticks(ax.y_lo, ax.y_hi):
        y = ax.y(tick)
        parts.append(f'<line class="roofline__grid" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"/>'
                     f'<text class="roofline__tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
                     f"{escape(f(tick, Dim.FLOP_RATE).replace('FLOP/s', ''))}</text>")
    for n, (dtype, peak) in enumerate(roofs.items()):
        knee = peak / bandwidth
        line = (f"{ax.x(ax.x_lo):.1f},{ax.y(bandwidth * ax.x_lo):.1f} {ax.x(knee):.1f},{ax.y(peak):.1f}"
                f" {ax.x(ax.x_hi):.1f},{ax.y(peak):.1f}")
        parts.append(f'<polyline class="roofline__roof{" roofline__roof--main" if n == 0 else ""}" points="{line}"/>'
                     f'<text class="roofline__label" x="{ax.x(knee) + 6:.1f}" y="{ax.y(peak) + 14:.1f}">'
                     f"{escape(dtype)} {escape(f(peak, Dim.FLOP_RATE))}</text>")
    rx = ax.x(ridge)
    parts.append(f'<line class="roofline__ridge" x1="{rx:.1f}" y1="{TOP}" x2="{rx:.1f}" y2="{HEIGHT - BOTTOM}"/>'
                 f'<text class="roofline__label" x="{rx + 4:.1f}" y="{TOP + 12}">ridge'
                 f" {escape(f(ridge, Dim.INTENSITY))}</text>")
    described = []
    for n, p in enumerate(points):
        roof = min(main_peak, bandwidth * p.intensity)
        y_value = p.measured_flops or roof
        above = p.measured_flops is not None and p.measured_flops > roof * 1.05
        cls = "roofline__point" + (" roofline__point--anomaly" if above else "")
        px, py = ax.x(max(p.intensity, ax.x_lo)), ax.y(max(y_value, ax.y_lo))
        note = " (above its roof: check the measurement)" if above else ""
        parts.append(f'<circle class="{cls}" cx="{px:.1f}" cy="{py:.1f}" r="5"/>'
                     f'<text class="roofline__point-label" x="{px + 8:.1f}" y="{py - 8 - 12 * (n % 2):.1f}">'
                     f"{escape(p.label)}{escape(note)}</text>")
        measured = f", measured {f(p.measured_flops, Dim.FLOP_RATE)}" if p.measured_flops else ""
        side = "below" if p.intensity < ridge else "above"
        described.append(f"{p.label}: {f(p.intensity, Dim.INTENSITY)}, {side} the ridge{measured}{note}")
    desc = (f"Log-log roofline. Bandwidth {f(bandwidth, Dim.BYTE_RATE)}; compute roofs "
            + ", ".join(f"{d} {f(v, Dim.FLOP_RATE)}" for d, v in roofs.items())
            + f"; ridge {f(ridge, Dim.INTENSITY)} for {main_dtype}. " + "; ".join(described))
    axis_labels = (f'<text class="roofline__axis" x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 12}"'
                   ' text-anchor="middle">arithmetic intensity (FLOP/byte)</text>'
                   f'<text class="roofline__axis" x="16" y="{(TOP + HEIGHT - BOTTOM) / 2}" text-anchor="middle"'
                   f' transform="rotate(-90 16 {(TOP + HEIGHT - BOTTOM) / 2})">FLOP/s</text>')
    style = ("<style>.roofline{color:inherit;font:12px sans-serif}.roofline text{fill:currentColor}"
             ".roofline__grid{stroke:currentColor;stroke-opacity:.12}"
             ".roofline__roof{fill:none;stroke:currentColor;stroke-opacity:.45;stroke-width:1.5}"
             ".roofline__roof--main{stroke-opacity:1;stroke-width:2.5}"
             ".roofline__ridge{stroke:currentColor;stroke-dasharray:4 4;stroke-opacity:.7}"
             ".roofline__point{fill:currentColor}.roofline__point--anomaly{fill:none;stroke:currentColor;"
             "stroke-width:2.5;stroke-dasharray:2 2}</style>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="roofline" viewBox="0 0 {WIDTH} {HEIGHT}"'
            f' role="img" aria-labelledby="{id_prefix}-title {id_prefix}-desc">'
            f'<title id="{id_prefix}-title">{escape(title)}</title><desc id="{id_prefix}-desc">{escape(desc)}</desc>'
            f"{style}{''.join(parts)}{axis_labels}</svg>")
