"""The trace in pictures: its window as a strip of what the GPU did, and its top ops on the card's roofline.

Each of the strip's columns is one slice of the window, shaded by what filled it: kernels, exposed
collectives, idle inside a host sync, or idle. Labels are the core's; the page only inserts the markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regime_core.catalogue import hardware as hw
from regime_core.catalogue.quantity import Dim, format_quantity
from regime_core.judgment.svg import Point, escape, roofline_svg
from regime_core.trace.events import Events
from regime_core.trace.timeline import Timeline, coverage, union

COLUMNS = 240
_WIDTH, _HEIGHT = 720, 28
# Classes, not colours: regime.css gives each its light and dark colour.
LEGEND = (("busy", "kernels, copies"), ("comm", "exposed collectives"), ("sync", "idle in a host sync"), ("idle", "idle"))


def caption(tl: Timeline) -> str:
    """What the strip shows, in one line (the page writes it above the strip; the SVG carries it as its title)."""
    return (f"The GPU over the trace's {format_quantity(tl.length, Dim.SECOND)} window, left to right: busy"
            f" {tl.busy_share:.1%}")


def strip_svg(events: Events, tl: Timeline) -> str:
    """The window as a strip of ``COLUMNS`` slices, each shaded by what held most of it (see ``LEGEND``)."""
    lo, hi = tl.window
    if hi <= lo:
        return ""
    width = (hi - lo) / COLUMNS
    busy, comm = tl.other_spans, tl.comm_spans  # the timeline's own unions, not worked out again
    syncs = union((s.start, s.end) for s in events.syncs)
    cells = []
    column = _WIDTH / COLUMNS
    slices = [(lo + n * width, lo + (n + 1) * width) for n in range(COLUMNS)]
    held = {"busy": coverage(busy, slices), "comm": coverage(comm, slices), "sync": coverage(syncs, slices)}
    for n in range(COLUMNS):
        shares = {kind: held[kind][n] for kind in held}
        kind = max(shares, key=lambda k: shares[k])
        if shares[kind] < 0.5 * width and kind != "sync":
            kind = "idle" if shares["busy"] + shares["comm"] < 0.5 * width else "busy"
        cells.append(f'<rect class="regime-strip__{kind}" x="{n * column:.2f}" y="0" width="{column + 0.05:.2f}"'
                     f' height="{_HEIGHT}"/>')
    title = escape(caption(tl))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="regime-strip" viewBox="0 0 {_WIDTH} {_HEIGHT}"'
            f' preserveAspectRatio="none" role="img" aria-label="{title}"><title>{title}</title>{"".join(cells)}</svg>')


#: Ops drawn on the roofline: the table's first rows that can be placed (more and the labels crowd the picture).
ROOFLINE_OPS = 6


def ops_roofline(facts: Mapping[str, Any]) -> tuple[str, str]:
    """The top ops on the card's roofline, as SVG, and a line saying what it shows (or why there is none).

    Each point is labelled by its row in the ops table (the reading's ``trace.ops``); an op is drawn
    at its intensity and its achieved FLOP/s, one roof per dtype the drawn ops use. An op with no FLOPs (a
    copy) has no place on a log axis, and an op in a dtype the card has no peak for has no roof: they are
    said, not drawn.
    """
    card = hw.get(facts["card"]) if facts["card"] else None
    ops: list[dict[str, Any]] = facts["ops"]
    if card is None:
        return "", "No roofline: the trace does not name a card the catalogue holds; name the card it ran on."
    drawn: list[Point] = []
    roofs: dict[str, float] = {}
    no_flops, no_peak = 0, set[str]()
    for row, op in enumerate(ops, start=1):
        if op["intensity"] is None:
            continue
        if len(drawn) == ROOFLINE_OPS:
            break
        dtype = op.get("dtype") or ""
        roof = card.roof_dtype(dtype)
        if op["intensity"] <= 0 or not op["achieved_flops"]:
            no_flops += 1
        elif roof is None:
            no_peak.add(dtype)
        else:
            roofs.setdefault(roof, card.peaks[roof].value)
            drawn.append(Point(f"{row}. {op['name'].removeprefix('aten::')}", op["intensity"], op["achieved_flops"]))
    if not drawn:
        why = (f"the ops with shapes are in {', '.join(sorted(no_peak))}, for which the card has no peak" if no_peak
               else "the ops with shapes do no FLOPs (copies)" if no_flops
               else "no op with shapes is one Regime models (custom ops, transposed convolutions and convolutions"
               " recorded without their stride are not)"
               if any(op["shape"] for op in ops) else "no op has its shapes recorded (profile with record_shapes=True)")
        return "", f"No roofline: {why}."
    top = "The top op" if len(drawn) == 1 else f"The top {len(drawn)} ops"
    said = f"{top} with shapes, numbered as in the table, at the FLOP/s achieved."
    if no_flops:
        said += f" Not drawn: {no_flops} without FLOPs (a copy has no place on a log axis)."
    if no_peak:
        said += f" Not drawn: ops in {', '.join(sorted(no_peak))}, for which the card has no peak."
    picture = roofline_svg(roofs, card.bandwidth.value, drawn, title=f"The trace's ops on the roofline of {card.name}",
                           id_prefix="trace-roofline")
    return picture, said
