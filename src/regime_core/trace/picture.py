"""The trace's window as a strip: what the GPU did, left to right, as SVG text (like the roofline picture).

Each of the strip's columns is one slice of the window, shaded by what filled it: kernels, exposed
collectives, idle inside a host sync, or idle. Labels are the core's; the page only inserts the markup.
"""

from __future__ import annotations

from regime_core.catalogue.quantity import Dim, format_quantity
from regime_core.judgment.svg import escape
from regime_core.trace.events import Events
from regime_core.trace.timeline import Timeline, covered, union

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
    gpu = [s for s in events.gpu if s.end > lo and s.start < hi]
    busy = union((s.start, s.end) for s in gpu if not s.comm)
    comm = union((s.start, s.end) for s in gpu if s.comm)
    syncs = union((s.start, s.end) for s in events.syncs)
    cells = []
    column = _WIDTH / COLUMNS
    for n in range(COLUMNS):
        a, b = lo + n * width, lo + (n + 1) * width
        shares = {"busy": covered(busy, a, b), "comm": covered(comm, a, b), "sync": covered(syncs, a, b)}
        kind = max(shares, key=lambda k: shares[k])
        if shares[kind] < 0.5 * width and kind != "sync":
            kind = "idle" if shares["busy"] + shares["comm"] < 0.5 * width else "busy"
        cells.append(f'<rect class="regime-strip__{kind}" x="{n * column:.2f}" y="0" width="{column + 0.05:.2f}"'
                     f' height="{_HEIGHT}"/>')
    title = escape(caption(tl))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="regime-strip" viewBox="0 0 {_WIDTH} {_HEIGHT}"'
            f' preserveAspectRatio="none" role="img" aria-label="{title}"><title>{title}</title>{"".join(cells)}</svg>')
