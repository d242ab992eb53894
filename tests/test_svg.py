import html
import itertools
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regime_core.content import drill
from regime_core.judgment.svg import LABEL_PX, TICK_PX, WIDTH, Axes, Box, Point, _axes, escape, roofline_svg, text_box

NS = {"svg": "http://www.w3.org/2000/svg"}
ROOFS = {"bf16": 312e12}
BW = 2e12


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _axes_of(points: list[Point]) -> Axes:
    return _axes(ROOFS, BW, points)


def test_valid_xml_with_title_description_and_role() -> None:
    root = _parse(roofline_svg(ROOFS, BW, [Point("add", 0.167)], title="Part B", id_prefix="t"))
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "t-title t-desc"
    assert root.find("svg:title", NS).text == "Part B"
    desc = root.find("svg:desc", NS).text
    assert "ridge 156 FLOP/byte" in desc
    assert "add: 0.167 FLOP/byte, below the ridge" in desc


def test_the_ridge_line_sits_at_the_computed_intensity() -> None:
    points = [Point("matmul", 1365)]
    root = _parse(roofline_svg(ROOFS, BW, points, title="t"))
    ridge = root.find("svg:line[@class='roofline__ridge']", NS)
    assert float(ridge.get("x1")) == pytest.approx(_axes_of(points).x(156), abs=0.06)


def test_points_sit_on_their_roof_or_at_their_measurement() -> None:
    points = [Point("add", 0.167), Point("matmul", 1365, 0.7 * 312e12)]
    ax = _axes_of(points)
    circles = _parse(roofline_svg(ROOFS, BW, points, title="t")).findall("svg:circle", NS)
    assert float(circles[0].get("cx")) == pytest.approx(ax.x(0.167), abs=0.06)
    assert float(circles[0].get("cy")) == pytest.approx(ax.y(BW * 0.167), abs=0.06)  # on the bandwidth slope
    assert float(circles[1].get("cy")) == pytest.approx(ax.y(0.7 * 312e12), abs=0.06)  # below the compute roof


def test_a_point_above_its_roof_is_marked_as_an_anomaly() -> None:
    svg = roofline_svg(ROOFS, BW, [Point("A4", 1, 5e12)], title="t")
    circle = _parse(svg).find("svg:circle", NS)
    assert "roofline__point--anomaly" in circle.get("class")
    assert "above its roof" in svg


@pytest.mark.parametrize("label", ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "a & b"])
def test_labels_are_escaped(label: str) -> None:
    svg = roofline_svg(ROOFS, BW, [Point(label, 3)], title=label)
    root = _parse(svg)
    assert not root.findall(".//svg:script", NS)
    assert not root.findall(".//svg:img", NS)
    # Wrapped lines joined (a word longer than a line is cut, so the comparison ignores where the breaks fall).
    texts = ["".join("".join(t.itertext()).split()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert any("".join(label.split()) in t for t in texts)


def test_colours_follow_the_page() -> None:
    svg = roofline_svg(ROOFS, BW, [Point("x", 3)], title="t")
    assert "currentColor" in svg
    assert not re.search(r"(fill|stroke)=\"#[0-9a-fA-F]{3,6}\"", svg)


def test_every_incident_with_a_card_and_work_has_a_picture() -> None:
    from regime_site.pictures import incident_figure

    with_picture = {i.id for i in drill.incidents() if incident_figure(i.id)}
    assert with_picture == {"a1", "a2", "a3", "a4"}


def test_cli_plot_writes_svg() -> None:
    out = subprocess.run([sys.executable, "-m", "regime_core", "plot", "decode", "--params", "7e9", "--gpu", "l4",
                          "--label", "<b>A4</b>"], capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    root = _parse(out.stdout)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "&lt;b&gt;A4&lt;/b&gt;" in out.stdout


def test_cli_plot_bad_input_is_one_line() -> None:
    out = subprocess.run([sys.executable, "-m", "regime_core", "plot", "matmul", "--m", "4", "--gpu", "l4"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0


@given(st.text())
def test_escape_matches_the_standard_library(text: str) -> None:
    assert escape(text) == html.escape(text)


def test_importing_the_core_leaves_html_entities_out() -> None:
    """html.entities is a 2,000-entry table: 30 ms of start-up in Pyodide that the core does not need."""
    code = "import sys, regime_core.bridge.api; print('html.entities' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


SVG_TEXT = "{http://www.w3.org/2000/svg}text"


def _label_boxes(svg: str) -> list[tuple[str, Box]]:
    """Each text's estimated box at the largest size the page draws it (the rotated axis name left out)."""
    boxes = []
    for text in _parse(svg).iter(SVG_TEXT):
        if text.get("transform"):
            continue
        cls = text.get("class") or ""
        size = TICK_PX if cls in ("roofline__tick", "roofline__axis") else LABEL_PX
        lines = [text.text or ""] + [t.text or "" for t in text]
        box = text_box(float(text.get("x")), float(text.get("y")), lines, size, text.get("text-anchor") or "start")
        boxes.append((" / ".join(lines), box))
    return boxes


def _overlapping(svg: str) -> list[tuple[str, str]]:
    boxes = _label_boxes(svg)
    return [(a, b) for i, (a, box_a) in enumerate(boxes) for b, box_b in boxes[i + 1:] if box_a.overlaps(box_b, pad=0)]


def _site_figures() -> dict[str, str]:
    from regime_site.pictures import incident_figure, part_b_figure

    figures = {"part-b": part_b_figure()}
    figures.update({i.id: incident_figure(i.id) for i in drill.incidents() if incident_figure(i.id)})
    return figures


@pytest.mark.parametrize("name", ["part-b", "a1", "a2", "a3", "a4"])
def test_no_two_labels_of_a_site_figure_overlap(name: str) -> None:
    figure = _site_figures()[name]
    assert _overlapping(figure) == []
    assert len(_label_boxes(figure)) >= 8  # ticks, axis name, ridge, roof and kernel labels all counted


@given(st.floats(0.01, 5000), st.one_of(st.none(), st.floats(0.05, 3.0)), st.sampled_from(["A4", "matmul", "k"]))
def test_one_kernel_anywhere_leaves_every_label_clear(intensity: float, fraction_of_roof: float | None,
                                                     label: str) -> None:
    roof = min(312e12, BW * intensity)
    point = Point(label, intensity, None if fraction_of_roof is None else roof * fraction_of_roof)
    assert _overlapping(roofline_svg(ROOFS, BW, [point], title="t")) == []


def test_a_label_is_not_crossed_by_a_roof_where_there_is_room() -> None:
    svg = roofline_svg(ROOFS, BW, [Point("A4", 1, 5e12)], title="t")  # the anomaly, with its two-line note
    root = _parse(svg)
    note = next(t for t in root.iter(SVG_TEXT) if t.get("class") == "roofline__point-label")
    lines = [note.text or ""] + [t.text or "" for t in note]
    box = text_box(float(note.get("x")), float(note.get("y")), lines, LABEL_PX, note.get("text-anchor") or "start")
    roof = root.find("svg:polyline", NS)
    corners = [tuple(map(float, pair.split(","))) for pair in roof.get("points").split()]
    assert not any(box.crosses(a, b) for a, b in itertools.pairwise(corners))


def test_a_label_of_one_long_word_is_cut_and_stays_inside_the_picture() -> None:
    label = "deepgemm-fp8-gemm-4096x7168x16384-h800"  # a slug: no space to break at
    svg = roofline_svg({"fp8": 1.98e15}, 3.35e12, [Point(label, 4400)], title="t")
    (text,) = [t for t in _parse(svg).iter(SVG_TEXT) if t.get("class") == "roofline__point-label"]
    lines = [text.text or ""] + [t.text or "" for t in text]
    assert "".join(lines) == label
    box = text_box(float(text.get("x")), float(text.get("y")), lines, LABEL_PX, text.get("text-anchor") or "start")
    assert box.left >= 0
    assert box.right <= WIDTH


def test_a_long_kernel_label_wraps_and_stays_inside_the_picture() -> None:
    label = "matmul 8192×8192 @ 8192×8192, bf16"
    svg = roofline_svg({"bf16": 1.31e15}, 5.3e12, [Point(label, 2731)], title="t")
    (text,) = [t for t in _parse(svg).iter(SVG_TEXT) if t.get("class") == "roofline__point-label"]
    lines = [text.text or ""] + [t.text or "" for t in text]
    assert " ".join(lines) == label
    assert len(lines) == 2
    box = text_box(float(text.get("x")), float(text.get("y")), lines, LABEL_PX, text.get("text-anchor") or "start")
    assert box.right <= WIDTH
    assert box.left >= 0
