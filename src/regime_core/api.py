"""The JSON bridge the browser widgets call: one request in, one response out.

JavaScript sends ``{"op": ..., ...fields}`` as text and renders what comes back. Every
response has ``ok``; a failure carries ``field`` and a one-line ``error`` and never a
traceback. Numbers come back raw and as text formatted by the core.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from regime_core import drill, hardware, work
from regime_core.classify import classify
from regime_core.errors import RegimeError
from regime_core.quantity import Dim, format_quantity, parse
from regime_core.roofline import Placement, place, ridge
from regime_core.symptoms import Symptoms, parse_observed, parse_symptoms

MAX_REQUEST = 200_000
SIDES = ("below", "above")


def _card(req: Mapping[str, Any]) -> hardware.Hardware:
    gpu = req.get("gpu")
    if gpu not in (None, "", "custom"):
        return hardware.get(gpu, "gpu")
    return hardware.custom(req.get("peak_flops", ""), req.get("bandwidth", ""), prefix="card")


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
    return {"ridge": value, "ridge_text": format_quantity(value, Dim.INTENSITY), "dtype": dtype,
            "peak_text": format_quantity(peak, Dim.FLOP_RATE),
            "bandwidth_text": format_quantity(card.bandwidth.value, Dim.BYTE_RATE)}


def op_ridge_table(req: Mapping[str, Any]) -> dict[str, Any]:
    """Part B's kernels placed on any card."""
    card = _card(req)
    dtype = _dtype(req, card)
    rows = [{"id": r.id, "label": r.label, **placement_view(r.placement)} for r in drill.part_b(card, dtype)]
    return {"rows": rows, **op_ridge(req)}


def op_part_b_attempt(req: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a Part B attempt: the ridge, and each kernel's intensity and side."""
    values: dict[str, Any] = {"ridge": parse(req.get("ridge", ""), "ridge", Dim.INTENSITY)}
    kernels = req.get("kernels") or {}
    if not isinstance(kernels, Mapping):
        raise RegimeError("kernels", "expected an object of kernels")
    for row in drill.part_b():
        where = f"kernels.{row.id}"
        given = kernels.get(row.id) or {}
        if not isinstance(given, Mapping):
            raise RegimeError(where, "expected an object with intensity and side")
        intensity = parse(given.get("intensity", ""), f"{where}.intensity", Dim.INTENSITY)
        side = given.get("side", "")
        if side not in SIDES:
            raise RegimeError(f"{where}.side", "expected below or above")
        values[row.id] = {"intensity": intensity, "side": side}
    return {"values": values}


def op_kernel(req: Mapping[str, Any]) -> dict[str, Any]:
    """The stretch: a kernel on a card, with its verdict, and a measured time if given."""
    card = _card(req)
    dtype = _dtype(req, card)
    spec = req.get("work")
    if not isinstance(spec, Mapping):
        raise RegimeError("work", "expected the kernel and its shape")
    w = work.from_spec({k: v for k, v in spec.items() if v not in (None, "")}, dtype)
    p = place(w, card, dtype)
    observed_raw = {k: v for k, v in (req.get("observed") or {}).items() if v not in (None, "")}
    observed = parse_observed(observed_raw)
    verdict = classify(Symptoms(card, p.dtype, w, observed))
    return {"placement": placement_view(p), "verdict": verdict.to_json()}


def op_classify(req: Mapping[str, Any]) -> dict[str, Any]:
    """A symptoms object, classified."""
    return classify(parse_symptoms(req.get("symptoms"))).to_json()


OPS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "gpus": op_gpus,
    "ridge": op_ridge,
    "ridge_table": op_ridge_table,
    "part_b_attempt": op_part_b_attempt,
    "kernel": op_kernel,
    "classify": op_classify,
}


def handle(request: str) -> str:
    """Answer one JSON request with one JSON response; never raises."""
    try:
        if not isinstance(request, str) or len(request) > MAX_REQUEST:
            raise RegimeError("request", f"expected JSON text under {MAX_REQUEST:,} characters")
        try:
            req = json.loads(request)
        except (json.JSONDecodeError, RecursionError):
            raise RegimeError("request", "expected JSON") from None
        if not isinstance(req, dict) or req.get("op") not in OPS:
            raise RegimeError("op", f"expected one of {', '.join(OPS)}")
        result: dict[str, Any] = {"ok": True, **OPS[req["op"]](req)}
    except RegimeError as exc:
        result = {"ok": False, "field": exc.field, "error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - the browser must get one line, never a traceback
        result = {"ok": False, "field": "", "error": f"internal error ({type(exc).__name__}); please report it"}
    return json.dumps(result, ensure_ascii=False, allow_nan=False)
