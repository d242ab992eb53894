"""The drill as data (``data/drill.json``): incidents with derived verdicts, and Part B."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from regime_core.catalogue import hardware as hw
from regime_core.catalogue.quantity import Dim, format_quantity, number
from regime_core.errors import RegimeError
from regime_core.judgment.classify import Verdict, classify
from regime_core.judgment.symptoms import OBSERVED_FIELDS, Picket, Symptoms, parse_symptoms
from regime_core.model import work as wk
from regime_core.model.roofline import Placement, place
from regime_core.resources import load_json

DRILL_TOLERANCE = 0.05  # the drill's own figures agree with ours when within 5%


@dataclass(frozen=True)
class Incident:
    """One Part A incident."""

    id: str
    title: str
    text: str
    symptoms_raw: dict[str, Any]
    assumptions: tuple[str, ...]

    @cached_property
    def symptoms(self) -> Symptoms:
        """The parsed symptoms (parsed once: the build and the grader ask many times)."""
        return parse_symptoms(self.symptoms_raw)

    @cached_property
    def _verdict(self) -> Verdict:
        return classify(self.symptoms)

    def verdict(self) -> Verdict:
        """The classifier's verdict: derived (once per process), never stored in the data."""
        return self._verdict

    def to_json(self) -> dict[str, Any]:
        """The incident, its derived verdict and the arithmetic."""
        return {"id": self.id, "title": self.title, "text": self.text, "symptoms": self.symptoms_raw,
                "assumptions": list(self.assumptions), **self.verdict().to_json()}


@dataclass(frozen=True)
class PartBKernel:
    """One row of Part B: the drill's figures beside the ones the core derives from the shape."""

    id: str
    label: str
    drill_flops: float
    drill_bytes: float
    placement: Placement

    @property
    def drill_intensity(self) -> float:
        """Intensity from the drill's own figures."""
        return self.drill_flops / self.drill_bytes

    def discrepancies(self) -> list[str]:
        """Where the drill's figures differ from the derived ones, why, and whether the verdict moves."""
        out = []
        p = self.placement
        work = p.work
        for name, drill, ours in (("FLOPs", self.drill_flops, work.flops), ("bytes", self.drill_bytes, work.bytes)):
            if abs(drill - ours) > DRILL_TOLERANCE * ours:
                out.append(f"the drill gives {number(drill)} {name}; the shape gives {number(ours)}"
                           f" ({number(ours / drill)}×), so intensity is {format_quantity(work.intensity, Dim.INTENSITY)}"
                           f" rather than {format_quantity(self.drill_intensity, Dim.INTENSITY)} (the shape's"
                           f" {name} are worked out above)")
        if out:
            ridge = format_quantity(p.ridge, Dim.INTENSITY)
            drill_side = "below" if self.drill_intensity < p.ridge else "above"
            out.append(f"either way the {self.id} sits {p.side} the ridge of {ridge}, so the verdict stands"
                       if drill_side == p.side else
                       f"the drill's figures would put the {self.id} {drill_side} the ridge of {ridge}, the shape's"
                       f" {p.side} it: the verdict follows the shape")
        return out

    def to_json(self) -> dict[str, Any]:
        """The row as JSON."""
        return {"id": self.id, "label": self.label, "drill_flops": self.drill_flops, "drill_bytes": self.drill_bytes,
                "drill_intensity": self.drill_intensity, "discrepancies": self.discrepancies(),
                **self.placement.to_json()}


def _data() -> dict[str, Any]:
    return load_json("drill.json")


@cache
def incidents() -> tuple[Incident, ...]:
    """A1..A8 in order."""
    return tuple(Incident(e["id"], e["title"], e["text"], e["symptoms"], tuple(e["assumptions"]))
                 for e in _data()["incidents"])


def incident(incident_id: object) -> Incident:
    """One incident by id (``A4``, ``a4``), or a RegimeError."""
    wanted = str(incident_id).strip().lower() if isinstance(incident_id, str) else ""
    for item in incidents():
        if item.id == wanted:
            return item
    raise RegimeError("incident", f"expected one of {', '.join(i.id.upper() for i in incidents())}")


def part_b_card() -> hw.Hardware:
    """The Part B card: 312 TFLOP/s and 2.0 TB/s."""
    card = _data()["part_b"]["card"]
    return hw.custom(card["peak_flops"], card["bandwidth"])


def part_b(card: hw.Hardware | None = None, dtype: str | None = None) -> list[PartBKernel]:
    """The Part B rows placed on ``card`` (default: the drill's card)."""
    chosen = card or part_b_card()
    rows = []
    for row in _data()["part_b"]["kernels"]:
        work = wk.from_spec(row["work"], None)
        rows.append(PartBKernel(row["id"], row["label"], row["drill"]["flops"], row["drill"]["bytes"],
                                place(work, chosen, dtype if not chosen.custom else work.dtype)))
    return rows


#: A Part B row's figures a text may quote, and how each is written.
_ROW_FIGURES = {"intensity": Dim.INTENSITY, "ridge": Dim.INTENSITY, "factor": Dim.COUNT, "bandwidth": Dim.BYTE_RATE}
#: What the classifier works out for an incident it places on the roofline, as a placeholder names it.
_PLACED_FIGURES = {"floor": ("floor_seconds", Dim.SECOND), "intensity": ("intensity", Dim.INTENSITY),
                   "ridge": ("ridge", Dim.INTENSITY), "bytes": ("", Dim.BYTE)}
#: What a picket fence adds up to (judgment.symptoms.Picket), for an incident that gives its kernel and gap.
_PICKET_FIGURES = ("cycle", "busy", "total", "gaps", "kernels")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


def _quoted(ref: str, rows: Mapping[str, Placement], where: str) -> str:
    """One placeholder's figure: ``a2.bandwidth`` (a measurement as given) or ``part_b.matmul.ridge``."""
    parts = ref.split(".")
    if len(parts) == 3 and parts[0] == "part_b" and parts[2] in _ROW_FIGURES:
        if parts[1] in rows:
            return format_quantity(getattr(rows[parts[1]], parts[2]), _ROW_FIGURES[parts[2]])
    elif len(parts) == 2 and parts[1] in OBSERVED_FIELDS and parts[0] in {i.id for i in incidents()}:
        value = getattr(incident(parts[0]).symptoms.observed, parts[1])
        if value is not None:
            return format_quantity(value, OBSERVED_FIELDS[parts[1]][0])
    elif len(parts) == 2 and parts[1] in _PICKET_FIGURES and parts[0] in {i.id for i in incidents()}:
        fence = Picket.of(incident(parts[0]).symptoms.observed)
        figures = fence.figures() if fence is not None else {}
        if parts[1] in figures:
            return format_quantity(*figures[parts[1]])
    elif len(parts) == 2 and parts[1] in _PLACED_FIGURES and parts[0] in {i.id for i in incidents()}:
        placed = incident(parts[0]).verdict().placement
        if placed is not None:
            value = placed.work.bytes if parts[1] == "bytes" else getattr(placed, _PLACED_FIGURES[parts[1]][0])
            return format_quantity(value, _PLACED_FIGURES[parts[1]][1])
    raise RegimeError(where, f"{{{ref}}} names no figure: expected {{<incident>.<measurement it gives>}},"
                             f" {{<incident>.<{'|'.join(_PLACED_FIGURES)}>}},"
                             f" {{<incident>.<{'|'.join(_PICKET_FIGURES)}>}}"
                             f" or {{part_b.<row>.<{'|'.join(_ROW_FIGURES)}>}}")


def fill_model_answer(text: str, claims: Mapping[str, str], where: str = "part_c.model_answer") -> str:
    """``text`` with its placeholders filled from the core, once every regime it ``claims`` is the classifier's."""
    for incident_id, regime in claims.items():
        found = incident(incident_id).verdict().regime
        if found != regime:
            raise RegimeError(f"{where}.claims.{incident_id}",
                              f"the answer argues {regime}, but the classifier now reads {found or 'undecided'}")
    rows = {r.id: r.placement for r in part_b()}  # placed once for every placeholder
    return _PLACEHOLDER.sub(lambda m: _quoted(m.group(1), rows, f"{where}.text"), text)


@cache
def hints(item_id: str) -> tuple[str, ...]:
    """The hint ladder for an item (``a1``..``a8``, ``part_b``, ``part_c``), each rung saying more.

    A nudge, then the deciding symptom, then the arithmetic to do; no rung names the regime. Figures the
    core knows are placeholders in the data (``{a2.bandwidth}``, ``{part_b.matmul.ridge}``), filled here.
    The grader offers them on a line not passed; an incident's worked answer states the last one's arithmetic.
    """
    data = _data()
    if item_id in ("part_b", "part_c"):
        grading: Mapping[str, Any] = data.get(item_id, {}).get("grading", {})
    else:
        entry: Mapping[str, Any] = next((e for e in data["incidents"] if e["id"] == item_id), {})
        grading = entry.get("grading", {})
    ladder = tuple(fill_model_answer(str(text), {}, f"{item_id}.grading.hints") for text in grading.get("hints", [])
                   if text)
    return ladder or ("Read the incident again for the one measurement that decides between the two roofs.",)


def part_c_model_answer() -> str:
    """Part C's model argument, its figures from the core (``drill.json``'s ``part_c.model_answer``)."""
    raw = _data()["part_c"]["model_answer"]
    return fill_model_answer(raw["text"], raw["claims"])

