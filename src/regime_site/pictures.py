"""Roofline figures for the pages: the core's SVG with a plain table of the same numbers beside it."""

from __future__ import annotations

from html import escape

from regime_core.catalogue.quantity import Dim, format_quantity, number
from regime_core.content import drill
from regime_core.judgment.svg import Point, for_symptoms, roofline_svg
from regime_core.judgment.symptoms import achieved
from regime_core.model.roofline import place

NOT_MEASURED = "—"


def _table(rows: list[tuple[str, str, str, str, str]]) -> str:
    # A "measured" column of dashes says nothing: it is there only when some kernel was measured.
    width = 5 if any(row[4] != NOT_MEASURED for row in rows) else 4
    head = " ".join(f"<th>{h}</th>" for h in ("kernel", "intensity", "side of the ridge", "roof there", "measured")[:width])
    body = "\n".join("<tr>" + " ".join(f"<td>{escape(c)}</td>" for c in row[:width]) + "</tr>" for row in rows)
    return f'<table class="regime-figure__table"><thead><tr>{head}</tr></thead>\n<tbody>{body}</tbody></table>'


def figure(svg: str, rows: list[tuple[str, str, str, str, str]], caption: str) -> str:
    """The picture, its caption, and the table that says the same in numbers."""
    return (f'<figure class="regime-figure">{svg}<figcaption>{escape(caption)}</figcaption>'
            f"{_table(rows)}</figure>")


def part_b_figure(id_prefix: str = "part-b") -> str:
    """Part B's three kernels on the drill's card."""
    rows = drill.part_b()
    card = drill.part_b_card()
    first = rows[0].placement
    points = [Point(r.id, r.placement.intensity) for r in rows]
    svg = roofline_svg({first.dtype: first.peak_flops}, first.bandwidth, points,
                       title=f"Part B's kernels on a {card.name} card",
                       id_prefix=id_prefix)
    table = [(r.label, format_quantity(r.placement.intensity, Dim.INTENSITY),
              f"{number(r.placement.factor)}× {r.placement.side}",
              format_quantity(r.placement.attainable_flops, Dim.FLOP_RATE), NOT_MEASURED) for r in rows]
    return figure(svg, table, f"Part B on the drill's card: ridge {format_quantity(first.ridge, Dim.INTENSITY)}.")


def incident_figure(incident_id: str) -> str:
    """One incident's kernel on its card, at its measured speed; empty when the incident names no card or work."""
    item = drill.incident(incident_id)
    s = item.symptoms
    svg = for_symptoms(s, title=f"{item.id.upper()} on its roofline", id_prefix=f"answer-{item.id}",
                       label=item.id.upper())
    if svg is None or s.hardware is None or s.work is None:
        return ""
    p = place(s.work, s.hardware, s.dtype)
    rate = achieved(s, p).flop_rate
    measured = format_quantity(rate, Dim.FLOP_RATE) if rate is not None else NOT_MEASURED
    row = (item.id.upper(), format_quantity(p.intensity, Dim.INTENSITY),
           f"{number(p.factor)}× {p.side}", format_quantity(p.attainable_flops, Dim.FLOP_RATE),
           measured)
    return figure(svg, [row], f"{item.id.upper()} against a ridge of {format_quantity(p.ridge, Dim.INTENSITY)}.")
