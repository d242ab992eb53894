"""The JSON bridge the browser widgets call: one request in, one response out.

JavaScript sends ``{"op": ..., ...fields}`` as text and renders what comes back. Every
response has ``ok``; a failure carries ``field`` and a one-line ``error`` and never a
traceback. Numbers come back raw and as text formatted by the core.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from regime_core.bridge import class_ops as class_api
from regime_core.bridge import practice_ops as practice_api
from regime_core.bridge import trace_ops as trace_api
from regime_core.bridge.protocol import Op, registry
from regime_core.catalogue import hardware
from regime_core.catalogue.quantity import Dim, format_quantity
from regime_core.content import drill
from regime_core.content.drill import hints
from regime_core.errors import RegimeError
from regime_core.grading.answer_lines import regime_named
from regime_core.grading.attempt import MAX_IMPORT_BYTES, parse_attempt
from regime_core.grading.grade import grade
from regime_core.grading.receipt import receipt
from regime_core.grading.review import kernel_review
from regime_core.grading.writeup import markdown
from regime_core.judgment import svg
from regime_core.judgment.classify import classify
from regime_core.judgment.symptoms import Symptoms, parse_observed, parse_symptoms
from regime_core.model import work
from regime_core.model.roofline import Placement, place, ridge
from regime_core.resources import dump_json_text, parse_json_text

# A request carries at most one imported file as a JSON string, which escaping can make up to 6× longer
# (a control character becomes \u0000): the cap admits the largest file the page imports.
# A trace comes as its base64 text (trace_api), the largest request of all.
MAX_REQUEST = max(6 * MAX_IMPORT_BYTES + 1_000, trace_api.MAX_TRACE_REQUEST)


#: The ridge table's columns, as the page shows them.
RIDGE_TABLE_COLUMNS = ("kernel", "intensity", "side", "floor", "allowed")
#: A card in a request: the ``hardware`` object the forms hold (see ``hardware.from_form``), and the dtype.
_CARD_FIELDS = ("hardware", "dtype")


def _card(req: Mapping[str, Any]) -> hardware.Hardware:
    return hardware.from_form(req.get("hardware"))


def _dtype(req: Mapping[str, Any], card: hardware.Hardware) -> str | None:
    raw = req.get("dtype")
    if raw in (None, ""):
        return None
    dtype = hardware.check_dtype(raw, "dtype")
    card.peak(dtype, "dtype")
    return dtype


def placement_view(p: Placement) -> dict[str, Any]:
    """A placement with the text the widgets show."""
    return {
        **p.to_json(),
        "intensity_text": format_quantity(p.intensity, Dim.INTENSITY),
        "ridge_text": format_quantity(p.ridge, Dim.INTENSITY),
        "floor_text": format_quantity(p.floor_seconds, Dim.SECOND),
        "factor_text": f"{format_quantity(p.factor, Dim.COUNT)}×",
        "peak_text": format_quantity(p.peak_flops, Dim.FLOP_RATE),
        "bandwidth_text": format_quantity(p.bandwidth, Dim.BYTE_RATE),
        "summary": (f"{p.work.label} on {p.hardware_name}: intensity {format_quantity(p.intensity, Dim.INTENSITY)},"
                    f" ridge {format_quantity(p.ridge, Dim.INTENSITY)}, {format_quantity(p.factor, Dim.COUNT)}×"
                    f" {p.side} the ridge; floor {format_quantity(p.floor_seconds, Dim.SECOND)}."),
    }


def op_gpus(_req: Mapping[str, Any]) -> dict[str, Any]:
    """The catalogue, for card pickers."""
    return {"gpus": [c.summary() for c in hardware.catalogue().values()]}


def op_ridge(req: Mapping[str, Any]) -> dict[str, Any]:
    """Ridge of a card."""
    card = _card(req)
    dtype = _dtype(req, card) or card.default_dtype()
    peak = card.peak(dtype, "dtype")
    value = ridge(peak, card.bandwidth.value)
    peak_text = format_quantity(peak, Dim.FLOP_RATE)
    bandwidth_text = format_quantity(card.bandwidth.value, Dim.BYTE_RATE)
    ridge_text = format_quantity(value, Dim.INTENSITY)
    return {"ridge": value, "ridge_text": ridge_text, "dtype": dtype, "peak_text": peak_text,
            "bandwidth_text": bandwidth_text,
            # A custom card has one peak, typed for whatever math it counts: no dtype to name.
            "ridge_line": f"ridge = {peak_text} / {bandwidth_text} = {ridge_text}" + ("" if card.custom else f" ({dtype})")}


def op_ridge_table(req: Mapping[str, Any]) -> dict[str, Any]:
    """Part B's kernels placed on any card."""
    card = _card(req)
    dtype = _dtype(req, card)
    rows = []
    for r in drill.part_b(card, dtype):
        view = placement_view(r.placement)
        cells = [r.label, view["intensity_text"], f"{view['factor_text']} {r.placement.side}", view["floor_text"],
                 r.placement.allowed]
        rows.append({"id": r.id, "label": r.label, **view, "cells": cells})
    return {"columns": list(RIDGE_TABLE_COLUMNS), "rows": rows, **op_ridge(req)}


def op_part_b_attempt(req: Mapping[str, Any]) -> dict[str, Any]:
    """Check a Part B attempt as the grader reads it; fields are named as in the form (``kernels.add.side``)."""
    try:
        attempt = parse_attempt({"part_b": {k: req.get(k) for k in ("ridge", "kernels") if k in req}}, strict=True)
    except RegimeError as exc:
        raise RegimeError(exc.field.removeprefix("part_b."), exc.expected) from None
    if attempt.ridge is None:
        raise RegimeError("ridge", "expected the ridge, an intensity like '156 FLOP/byte'")
    return {"ridge": attempt.ridge}


def _filled(value: object, field: str) -> dict[str, Any]:
    """A form group without its empty fields."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RegimeError(field, "expected an object of fields")
    return {k: v for k, v in value.items() if v not in (None, "")}


def op_kernel(req: Mapping[str, Any]) -> dict[str, Any]:
    """The stretch: a kernel on a card, with its verdict and picture, and a measured time if given."""
    spec = _filled(req.get("work"), "work")
    if spec.get("kernel") == "none":
        return {"unusable": work.NO_SHAPE, "review": f"This benchmark quotes no shape. {work.NO_SHAPE} Why: {{url}}"}
    card = _card(req)
    dtype = _dtype(req, card)
    w = work.from_spec(spec, dtype)
    p = place(w, card, dtype)
    symptoms = Symptoms(card, p.dtype, w, parse_observed(_filled(req.get("observed"), "observed")), work_spec=spec)
    verdict = classify(symptoms)
    picture = svg.for_symptoms(symptoms, title=f"Roofline of {p.hardware_name} with {w.label}", id_prefix="stretch")
    return {"placement": placement_view(p), "verdict": verdict.to_json(), "svg": picture,
            "review": kernel_review(verdict, "{url}")}


def op_explore(req: Mapping[str, Any]) -> dict[str, Any]:
    """An incident with the learner's numbers: the same kernel kind, any card, any measurements."""
    item = drill.incident(req.get("item"))
    form = _filled(req.get("form"), "form")
    card_form = form.get("hardware")
    # The incident editor alone offers "(no card named)": the incident without a ridge to place it on.
    no_card = card_form is None or (isinstance(card_form, Mapping) and card_form.get("id") == "none")
    card = None if no_card else hardware.from_form(card_form)
    if card is not None:
        _dtype(form, card)  # a dtype the card lacks is an input error, said before the shape's
    base_work = item.symptoms_raw.get("work")
    raw = {
        "dtype": form.get("dtype") or None,
        "work": {"kernel": base_work.get("kernel", "raw"), **_filled(form.get("work"), "work")} if base_work else None,
        "observed": _filled(form.get("observed"), "observed"),
        "proposal": item.symptoms_raw.get("proposal", ""),
    }
    symptoms = replace(parse_symptoms(raw), hardware=card)
    verdict = classify(symptoms)
    picture = svg.for_symptoms(symptoms, title=f"{item.id.upper()} on its roofline", id_prefix=f"explore-{item.id}",
                               label=item.id.upper())
    return {"verdict": verdict.to_json(), "svg": picture}  # the one verdict shape, as kernel answers


# The site keeps attempts per item ("a1", "part-b", "part-c"); the attempt file has parts.
_SITE_PART_B, _SITE_PART_C = "part-b", "part-c"


def attempt_from_items(items: object) -> dict[str, Any]:
    """The attempt file's object from the site's saved items."""
    if not isinstance(items, Mapping):
        raise RegimeError("items", "expected an object of saved attempts")
    part_c = items.get(_SITE_PART_C) or {}
    return {
        "part_a": {k: v for k, v in items.items() if k not in (_SITE_PART_B, _SITE_PART_C)},
        "part_b": items.get(_SITE_PART_B) or {},
        "part_c": part_c.get("paragraph", "") if isinstance(part_c, Mapping) else part_c,
    }


def _answers(value: object) -> bool:
    """Whether a saved value says anything: a file of empty objects answers nothing."""
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, Mapping):
        return any(_answers(v) for v in value.values())
    return value is not None and value is not False


def _as_choice(entry: Any) -> Any:
    """An incident's regime as the form's choice ("memory") where the words name one ("Memory bound, at 85%").

    The page's form offers the regimes as choices: a file written by hand or by the command line says them in
    words, which would leave every choice empty. Words that name no one regime are kept as they are (the
    grader then says it could not read them).
    """
    if not isinstance(entry, Mapping) or not isinstance(entry.get("regime"), str):
        return entry
    named = regime_named(entry["regime"])
    return {**entry, "regime": named} if named else dict(entry)


def items_from_attempt(attempt: Mapping[str, Any]) -> dict[str, Any]:
    """The site's saved items from a checked attempt object (the inverse of attempt_from_items).

    An item with nothing written in it is left out, so it unlocks nothing.
    """
    items: dict[str, Any] = {key: _as_choice(entry) for key, entry in (attempt.get("part_a") or {}).items()}
    if attempt.get("part_b"):
        items[_SITE_PART_B] = attempt["part_b"]
    if attempt.get("part_c"):
        items[_SITE_PART_C] = {"paragraph": attempt["part_c"]}
    return {k: v for k, v in items.items() if _answers(v)}


def set_aside(items: object) -> tuple[dict[str, Any], dict[str, str]]:
    """The saved items this version can read, and for each other one the line that says why not.

    An item saved by another version (an incident this drill does not have, a field it does not
    know, a number where text belongs, a line past the limit) is set aside, not graded: one bad
    item must not keep the rest from being graded or exported.
    """
    if not isinstance(items, Mapping):
        raise RegimeError("items", "expected an object of saved attempts")
    readable: dict[str, Any] = {}
    aside: dict[str, str] = {}
    for key, value in items.items():
        try:
            parse_attempt(attempt_from_items({key: value}))
        except RegimeError as error:
            aside[str(key)[:30]] = str(error)
        else:
            readable[key] = value
    return readable, aside


#: The mark beside a check: passed, not passed, could not tell (the line then says so in words).
_MARKS = {True: "✓", False: "✗", None: "?"}


def _feedback(item: Mapping[str, Any]) -> list[str]:
    return [f"{c['label']}: {_MARKS[c['passed']]} {c['why']}" for c in item["checks"].values()]


def _kept(req: Mapping[str, Any], aside: Mapping[str, str]) -> set[str]:
    """The grader's ids of the items set aside, here (``aside``) and by the page (``kept``).

    ``kept`` names the ids the page could not take apart; the criteria say "kept, not graded" of them all,
    rather than "not attempted yet".
    """
    kept = req.get("kept", [])
    if not isinstance(kept, list) or not all(isinstance(k, str) for k in kept):
        raise RegimeError("kept", "expected a list of the saved items' names")
    site = {_SITE_PART_B: "part_b", _SITE_PART_C: "part_c"}
    return {site.get(k, k) for k in [*kept, *aside]}


def op_grade(req: Mapping[str, Any]) -> dict[str, Any]:
    """Grade the saved items; return the attempt file, the grade, per-item feedback and the Markdown."""
    readable, aside = set_aside(req.get("items"))
    raw = attempt_from_items(readable)
    result = grade(raw, kept=_kept(req, aside))
    raw = {**raw, "receipt": receipt(raw, result["passed"])}  # the downloaded file is its own receipt
    keys = {"part_b": _SITE_PART_B, "part_c": _SITE_PART_C}
    feedback = {keys.get(k, k): _feedback(v) for k, v in result["items"].items() if v["attempted"]}
    return {"attempt": raw, "grade": result, "feedback": feedback, "markdown": markdown(parse_attempt(raw), result),
            "set_aside": aside}


def op_hint(req: Mapping[str, Any]) -> dict[str, Any]:
    """One rung of an item's hint ladder (``a1``..``a8``, ``part-b``, ``part-c``), never the regime.

    Rung 1 (the default) says where to look, 2 the deciding symptom, 3 the arithmetic to do.
    """
    item = req.get("item")
    ids = [i.id for i in drill.incidents()]
    keys = {**{i: i for i in ids}, _SITE_PART_B: "part_b", _SITE_PART_C: "part_c"}
    if not isinstance(item, str) or item not in keys:
        raise RegimeError("item", f"expected one of {', '.join(keys)}")
    ladder = hints(keys[item])
    rung = req.get("rung", 1)
    if isinstance(rung, bool) or not isinstance(rung, int) or not 1 <= rung <= len(ladder):
        raise RegimeError("rung", f"expected a whole number from 1 to {len(ladder)}")
    return {"item": item, "hint": ladder[rung - 1], "rung": rung, "rungs": len(ladder)}


def op_import_attempt(req: Mapping[str, Any]) -> dict[str, Any]:
    """Check an attempt file's text; return the site's items, or say what is wrong and change nothing."""
    raw = parse_json_text(req.get("text"), "file", limit=MAX_IMPORT_BYTES,
                          expected="a JSON attempt file (the one 'Download JSON' saves)")
    parse_attempt(raw)
    items = items_from_attempt(raw)
    if not items:
        raise RegimeError("file", "expected at least one answered item; every part of this file is empty")
    return {"items": items}


def op_classify(req: Mapping[str, Any]) -> dict[str, Any]:
    """A symptoms object, classified."""
    return {"verdict": classify(parse_symptoms(req.get("symptoms"))).to_json()}  # the one verdict shape


_RIDGE_ANSWER = ("ridge", "ridge_text", "dtype", "peak_text", "bandwidth_text", "ridge_line")

OPS = registry([
    Op("gpus", (), op_gpus, ("gpus",)),
    Op("ridge", _CARD_FIELDS, op_ridge, _RIDGE_ANSWER),
    Op("ridge_table", _CARD_FIELDS, op_ridge_table, ("columns", "rows", *_RIDGE_ANSWER)),
    Op("part_b_attempt", ("ridge", "kernels"), op_part_b_attempt, ("ridge",)),
    # A benchmark that quotes no shape gets ``unusable`` and a review comment, and no verdict.
    Op("kernel", (*_CARD_FIELDS, "work", "observed"), op_kernel, ("placement?", "verdict?", "svg?", "unusable?", "review")),
    Op("classify", ("symptoms",), op_classify, ("verdict",)),
    Op("explore", ("item", "form"), op_explore, ("verdict", "svg")),
    Op("grade", ("items", "kept"), op_grade, ("attempt", "grade", "feedback", "markdown", "set_aside")),
    Op("import_attempt", ("text",), op_import_attempt, ("items",)),
    Op("hint", ("item", "rung"), op_hint, ("item", "hint", "rung", "rungs")),
    *practice_api.OPS,
    *class_api.OPS,
    *trace_api.OPS,
])


def _answer(request: object, data: object = None) -> dict[str, Any]:
    """The successful answer to one request; a RegimeError for bad input."""
    req = parse_json_text(request, "request", limit=MAX_REQUEST)
    if not isinstance(req, dict) or req.get("op") not in OPS:
        raise RegimeError("op", f"expected one of {', '.join(OPS)}")
    op = OPS[req["op"]]
    op.check(req)
    if data is not None:
        if "data" not in op.fields or "data" in req:
            raise RegimeError("data", f"expected no file beside a '{op.name}' request" if "data" not in op.fields
                                      else "expected the file once: beside the request, or in it, not both")
        req = {**req, "data": trace_api.file_bytes(data)}
    return {"ok": True, **op.run(req)}


def _failure(field: str, error: str) -> str:
    """A failed answer: the field to fix and one line saying why."""
    return json.dumps({"ok": False, "field": field, "error": " ".join(error.splitlines())}, ensure_ascii=False)


def handle(request: str, data: object = None) -> str:
    """Answer one JSON request with one JSON response; never raises.

    ``data`` is a file's bytes sent beside the request, not inside it (the page hands the trace op its
    file as a Uint8Array, which arrives as Pyodide's buffer proxy: no base64, no JSON string of it).
    The answer is serialised inside the guard, so a result JSON cannot carry (a ridge past 1.8e308) is a
    refusal by name, not a traceback.
    """
    try:
        return dump_json_text(_answer(request, data))
    except RegimeError as exc:
        return _failure(exc.field, str(exc))
    except Exception as exc:  # noqa: BLE001 - the browser must get one line, never a traceback
        return _failure("", f"internal error ({type(exc).__name__}); please report it")
