"""A log-log roofline as SVG text: no plotting library, so it runs at build time and in Pyodide.

Colours come from ``currentColor`` and CSS classes (``roofline__*``), so the picture follows the
page's light or dark palette; a standalone file gets sensible defaults from its own <style>.
Every label is escaped: a kernel named ``<script>`` shows as text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from regime_core.catalogue.quantity import Dim, format_quantity
from regime_core.errors import RegimeError
from regime_core.judgment.symptoms import Symptoms, achieved
from regime_core.model.roofline import place

# html.escape would pull in html.entities, a 2,000-entry table: 30 ms of start-up in Pyodide.
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escape(text: str) -> str:
    """Escape text for SVG/HTML content and attribute values, as ``html.escape(text)`` does."""
    return text.translate(_ESCAPES)

WIDTH, HEIGHT = 600, 400
LEFT, RIGHT, TOP, BOTTOM = 80, 24, 30, 66

#: Font sizes (SVG px) the labels are placed for: the largest the page sets (on a phone, where the
#: picture is drawn at about 0.6 of its size); wider screens draw them smaller, with more room.
LABEL_PX, TICK_PX = 22.0, 18.0
#: The sizes a standalone file (and a wide screen) uses.
STYLE_LABEL_PX, STYLE_TICK_PX = 14, 12

#: Width of a character as a fraction of the font size, for a sans-serif face; generous on purpose.
_NARROW, _WIDE = set(" .,:;'!|()[]/ilIjtf1"), set("mwMWGOQDHNU@%")


def text_width(text: str, size: float) -> float:
    """A generous estimate of the rendered width of ``text`` at font size ``size``, in px."""
    return size * sum(0.34 if c in _NARROW else 0.86 if c in _WIDE else 0.62 for c in text)


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in SVG px: left, top, right, bottom."""

    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box, pad: float = 2.0) -> bool:
        """Whether the two boxes, each grown by ``pad``, intersect."""
        return not (self.right + pad <= other.left or other.right + pad <= self.left
                    or self.bottom + pad <= other.top or other.bottom + pad <= self.top)

    def crosses(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Whether the segment a-b passes through the box (sampled finely enough for a picture)."""
        steps = max(2, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 2))
        return any(self.left <= a[0] + (b[0] - a[0]) * i / steps <= self.right
                   and self.top <= a[1] + (b[1] - a[1]) * i / steps <= self.bottom for i in range(steps + 1))


#: Where a label's x is: its left edge, its right edge, or its middle (SVG's text-anchor).
Anchor = str
_SHIFT = {"start": 0.0, "end": 1.0, "middle": 0.5}


def text_box(x: float, y: float, lines: list[str], size: float, anchor: Anchor = "start") -> Box:
    """The box of text anchored at x whose first baseline is at y, one line per item."""
    width = max(text_width(line, size) for line in lines)
    left = x - _SHIFT[anchor] * width
    return Box(left, y - 0.95 * size, left + width, y + 0.3 * size + 1.2 * size * (len(lines) - 1))


#: A place to try for a label: x, first baseline, and what x is.
Spot = tuple[float, float, Anchor]
Segment = tuple[tuple[float, float], tuple[float, float]]


@dataclass
class _Layout:
    """Labels placed so far, the marks they must not cover, and the lines they should not cross."""

    area: Box
    boxes: list[Box] = field(default_factory=list)
    #: Lines a label should not sit on (the roofs; text over the dashed ridge still reads), with a cost each.
    segments: list[tuple[Segment, int]] = field(default_factory=list)

    def place(self, spots: list[Spot], lines: list[str], size: float = LABEL_PX) -> Spot:
        """The spot inside the area, clear of every box, that crosses the least; ties go to the earlier."""
        def box(spot: Spot) -> Box:
            return text_box(spot[0], spot[1], lines, size, spot[2])

        def cost(spot: Spot) -> int:
            return sum(weight for (a, b), weight in self.segments if box(spot).crosses(a, b))

        inside = [s for s in spots if self._inside(box(s))] or spots
        clear = [s for s in inside if not any(box(s).overlaps(b) for b in self.boxes)] or inside
        chosen = min(clear, key=cost)
        self.boxes.append(box(chosen))
        return chosen

    def _inside(self, box: Box) -> bool:
        a = self.area
        return a.left <= box.left and box.right <= a.right and a.top <= box.top and box.bottom <= a.bottom


def _text(cls: str, spot: Spot, lines: list[str]) -> str:
    """A <text> element; lines after the first are tspans one line below each other."""
    x, y, anchor = spot
    rest = "".join(f'<tspan x="{x:.1f}" dy="1.2em">{escape(line)}</tspan>' for line in lines[1:])
    return (f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">'
            f"{escape(lines[0])}{rest}</text>")


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
    measured = achieved(symptoms, p).flop_rate  # from whatever unit the measurement came in
    # A typed-in card has one peak whatever the dtype (the drill's 312 TFLOP/s is the fp16 tensor peak).
    roof = "peak" if symptoms.hardware.custom else p.dtype
    return roofline_svg({roof: p.peak_flops}, p.bandwidth,
                        [Point(label or p.work.label, p.intensity, measured)], title=title, id_prefix=id_prefix)


#: The span a log axis may cover: decades past it overflow a float (10.0 ** 309 raises OverflowError).
DRAWABLE = (1e-300, 1e300)


def _decade_range(lo: float, hi: float) -> tuple[float, float]:
    """The whole decades around lo..hi; a RegimeError when they run past what a float holds."""
    if not DRAWABLE[0] <= lo <= hi <= DRAWABLE[1]:
        raise RegimeError("plot", f"the figures run past what the picture can draw ({DRAWABLE[0]:g} to"
                                  f" {DRAWABLE[1]:g} on either axis); check their magnitudes")
    return 10.0 ** math.floor(math.log10(lo)), 10.0 ** math.ceil(math.log10(hi))


def _axes(roofs: dict[str, float], bandwidth: float, points: list[Point]) -> Axes:
    ridges = [peak / bandwidth for peak in roofs.values()]
    xs = [p.intensity for p in points if p.intensity > 0] + ridges
    x_lo, x_hi = _decade_range(min(xs) / 4, max(xs) * 4)
    ys = [*roofs.values(), bandwidth * x_lo] + [p.measured_flops for p in points if p.measured_flops]
    y_lo, y_hi = _decade_range(min(ys) / 2, max(ys) * 2)
    return Axes(x_lo, x_hi, y_lo, y_hi)


def _ticks(lo: float, hi: float) -> list[float]:
    count = round(math.log10(hi) - math.log10(lo))  # hi / lo can overflow
    step = max(1, math.ceil(count / 6))
    return [lo * 10.0**i for i in range(0, count + 1, step)]


def _grid(ax: Axes, layout: _Layout) -> tuple[list[str], list[str]]:
    """Grid lines and tick labels; the x ticks' boxes join the layout (y ticks sit outside the plot)."""
    marks, labels = [], []
    for tick in _ticks(ax.x_lo, ax.x_hi):
        x = ax.x(tick)
        marks.append(f'<line class="roofline__grid" x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM}"/>')
        spot = (x, HEIGHT - BOTTOM + 14 + TICK_PX, "middle")  # clear of the lowest y tick's label
        layout.boxes.append(text_box(*spot[:2], [format_quantity(tick, Dim.COUNT)], TICK_PX, "middle"))
        labels.append(_text("roofline__tick", spot, [format_quantity(tick, Dim.COUNT)]))
    for tick in _ticks(ax.y_lo, ax.y_hi):
        y = ax.y(tick)
        marks.append(f'<line class="roofline__grid" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"/>')
        labels.append(_text("roofline__tick", (LEFT - 6, y + 5, "end"),
                            [format_quantity(tick, Dim.FLOP_RATE).replace("FLOP/s", "")]))
    return marks, labels


def wrap(label: str, width: int = 22) -> list[str]:
    """A kernel's label in lines of about ``width`` characters, broken at spaces (a long shape reads on two)."""
    lines: list[str] = []
    # A word longer than a line (a slug, a long shape) is cut into pieces that fit: never past the plot's edge.
    words = [w[i:i + width] for w in label.split(" ") for i in range(0, max(len(w), 1), width)]
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _point_spots(px: float, py: float, lines: list[str]) -> list[Spot]:
    """Places for a kernel's label around its point: beside it first, then above or below, then at an edge."""
    up, down = py - 9, py + LABEL_PX + 5
    drop = 1.2 * LABEL_PX * (len(lines) - 1)
    spots: list[Spot] = [(px + 10, up - drop, "start"), (px - 10, up - drop, "end"), (px + 10, down, "start"),
                         (px - 10, down, "end"), (px, up - 4 - drop, "middle"), (px, down + 4, "middle")]
    for step in range(1, 9):
        spots += [(px + 10, up - drop - step * 9, "start"), (px - 10, up - drop - step * 9, "end"),
                  (px + 10, down + step * 9, "start"), (px - 10, down + step * 9, "end")]
    for y in (up - drop, down, up - drop - 36, down + 36):
        spots += [(WIDTH - RIGHT - 4, y, "end"), (LEFT + 4, y, "start")]
    return spots


def _roof_spots(kx: float, ky: float) -> list[Spot]:
    """Places for a roof's label: at its height left of the knee, then above or below its flat part."""
    right = WIDTH - RIGHT - 4
    spots: list[Spot] = [(kx - 8, ky + 6, "end"), (right, ky - 8, "end"), (right, ky + LABEL_PX + 6, "end"),
                         # Just right of the knee, above or below the flat part: still on its own roof when a
                         # kernel's label holds the right-hand end (a second roof's line runs lower).
                         (kx + 8, ky - 8, "start"), (kx + 8, ky + LABEL_PX + 6, "start")]
    for step in range(1, 8):
        spots += [(kx - 8, ky - 8 - step * 12, "end"), (right, ky + LABEL_PX + 6 + step * 16, "end")]
    return spots


def roofline_svg(roofs: dict[str, float], bandwidth: float, points: list[Point], *, title: str,
                 id_prefix: str = "roofline") -> str:
    """The picture: bandwidth slope, one compute roof per dtype, the ridge(s), and the kernels.

    Labels are placed so that no two overlap and, where there is room, no roof crosses one; their
    boxes are estimated for the largest font size the page uses.

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
    layout = _Layout(area=Box(LEFT + 2, 2, WIDTH - RIGHT, HEIGHT - BOTTOM - 2))
    marks, labels = _grid(ax, layout)
    knees = []
    for n, (dtype, peak) in enumerate(roofs.items()):
        corners = [(ax.x(ax.x_lo), ax.y(bandwidth * ax.x_lo)), (ax.x(peak / bandwidth), ax.y(peak)),
                   (ax.x(ax.x_hi), ax.y(peak))]
        layout.segments += [((corners[0], corners[1]), 3), ((corners[1], corners[2]), 3)]
        knees.append((f"{dtype} {f(peak, Dim.FLOP_RATE)}", corners[1]))
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)
        marks.append(f'<polyline class="roofline__roof{" roofline__roof--main" if n == 0 else ""}" points="{line}"/>')
    rx = ax.x(ridge)
    marks.append(f'<line class="roofline__ridge" x1="{rx:.1f}" y1="{TOP}" x2="{rx:.1f}" y2="{HEIGHT - BOTTOM}"/>')

    described, point_labels = [], []
    for p in points:
        roof = min(main_peak, bandwidth * p.intensity)
        above = p.measured_flops is not None and p.measured_flops > roof * 1.05
        px, py = ax.x(max(p.intensity, ax.x_lo)), ax.y(max(p.measured_flops or roof, ax.y_lo))
        layout.boxes.append(Box(px - 6, py - 6, px + 6, py + 6))
        cls = "roofline__point" + (" roofline__point--anomaly" if above else "")
        marks.append(f'<circle class="{cls}" cx="{px:.1f}" cy="{py:.1f}" r="5"/>')
        point_labels.append(([*wrap(p.label), "(above its roof:", "check the measurement)"] if above else wrap(p.label),
                             px, py))
        note = " (above its roof: check the measurement)" if above else ""
        measured = f", measured {f(p.measured_flops, Dim.FLOP_RATE)}" if p.measured_flops else ""
        side = "below" if p.intensity < ridge else "above"
        described.append(f"{p.label}: {f(p.intensity, Dim.INTENSITY)}, {side} the ridge{measured}{note}")
    for lines, px, py in point_labels:
        labels.append(_text("roofline__point-label", layout.place(_point_spots(px, py, lines), lines), lines))
    ridge_text = [f"ridge {f(ridge, Dim.INTENSITY)}"]
    rows = [TOP + LABEL_PX + 2 + k * (LABEL_PX + 4) for k in range(12)]
    spots: list[Spot] = [(rx + dx, y, anchor) for y in rows for dx, anchor in ((6, "start"), (-6, "end"))]
    placed = [(knee_text, _roof_spots(kx, ky)) for knee_text, (kx, ky) in knees]
    # With one roof the ridge's label takes the top of its line. With several, the roofs' labels go first: they
    # share one slope, so only the flat parts name them, and the ridge's label has a whole column to move down.
    placed.insert(len(placed) if len(roofs) > 1 else 0, (ridge_text[0], spots))
    for text, where in placed:
        labels.append(_text("roofline__label", layout.place(where, [text]), [text]))

    desc = (f"Log-log roofline. Bandwidth {f(bandwidth, Dim.BYTE_RATE)}; compute roofs "
            + ", ".join(f"{d} {f(v, Dim.FLOP_RATE)}" for d, v in roofs.items())
            + f"; ridge {f(ridge, Dim.INTENSITY)} for {main_dtype}. " + "; ".join(described))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="roofline" viewBox="0 0 {WIDTH} {HEIGHT}"'
            f' role="img" aria-labelledby="{id_prefix}-title {id_prefix}-desc">'
            f'<title id="{id_prefix}-title">{escape(title)}</title><desc id="{id_prefix}-desc">{escape(desc)}</desc>'
            f"{_STYLE}{''.join(marks)}{''.join(labels)}{_AXIS_LABELS}</svg>")


_AXIS_LABELS = (f'<text class="roofline__axis" x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 6}"'
                ' text-anchor="middle">arithmetic intensity (FLOP/byte)</text>'
                f'<text class="roofline__axis" x="18" y="{(TOP + HEIGHT - BOTTOM) / 2}" text-anchor="middle"'
                f' transform="rotate(-90 18 {(TOP + HEIGHT - BOTTOM) / 2})">FLOP/s</text>')

_STYLE = (f"<style>.roofline{{color:inherit;font:{STYLE_LABEL_PX}px sans-serif}}.roofline text{{fill:currentColor}}"
          f".roofline__tick,.roofline__axis{{font-size:{STYLE_TICK_PX}px}}"
          ".roofline__grid{stroke:currentColor;stroke-opacity:.12}"
          ".roofline__roof{fill:none;stroke:currentColor;stroke-opacity:.45;stroke-width:1.5}"
          ".roofline__roof--main{stroke-opacity:1;stroke-width:2.5}"
          ".roofline__ridge{stroke:currentColor;stroke-dasharray:4 4;stroke-opacity:.7}"
          ".roofline__point{fill:currentColor}.roofline__point--anomaly{fill:none;stroke:currentColor;"
          "stroke-width:2.5;stroke-dasharray:2 2}</style>")
