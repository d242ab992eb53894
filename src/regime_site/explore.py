"""The form that lets a learner change an incident's numbers once its answer is open."""

from __future__ import annotations

from html import escape
from typing import Any

from regime_core import drill, hardware, work
from regime_core.quantity import number

LABELS = {
    "m": "m", "n": "n", "k": "k", "shape": "shape", "ops": "ops in the chain", "inputs": "full-size inputs",
    "fused": "fused", "params": "parameters", "batch": "batch", "context": "context",
    "kv_bytes_per_token": "KV-cache bytes per token", "tokens": "prompt tokens", "heads": "heads", "seq": "seq",
    "kv_seq": "kv_seq", "head_dim": "head_dim", "flops": "FLOPs", "bytes": "bytes",
    "time": "measured time", "flops_fraction": "fraction of peak FLOP/s", "bandwidth": "achieved bandwidth",
    "bandwidth_fraction": "fraction of peak bandwidth", "tokens_per_s": "tokens/s", "kernel_time": "kernel time",
    "gap_time": "gap time", "launches": "launches", "shrink_4x_ratio": "time ratio when shrunk 4×",
    "fused_speedup": "speed-up when fused", "occupancy": "occupancy", "host_sync_in_loop": "host sync in the loop",
}


def _field(name: str, label: str, control: str) -> str:
    return (f'<div class="regime-field" data-field="{escape(name)}"><label>{escape(label)} {control}</label>'
            '<p class="regime-field__error" role="alert" hidden></p></div>')


def _input(name: str, value: object) -> str:
    if isinstance(value, bool):
        return f'<input type="checkbox" name="{escape(name)}"{" checked" if value else ""}>'
    if isinstance(value, list):
        value = "x".join(str(v) for v in value)
    elif isinstance(value, float):
        value = number(value, digits=6)  # 7e9, not 7000000000.0
    return f'<input name="{escape(name)}" value="{escape(str(value))}" maxlength="200">'


def _card_fields(spec: object) -> str:
    chosen = spec if isinstance(spec, str) else ("custom" if isinstance(spec, dict) else "none")
    options = [("none", "(no card named)"), *((c.id, c.name) for c in hardware.catalogue().values()),
               ("custom", "custom…")]
    select = "".join(f'<option value="{escape(v)}"{" selected" if v == chosen else ""}>{escape(t)}</option>'
                     for v, t in options)
    custom = spec if isinstance(spec, dict) else {}
    return (_field("hardware", "card", f'<select name="hardware.id">{select}</select>')
            + _field("hardware.peak_flops", "peak FLOP/s", _input("hardware.peak_flops", custom.get("peak_flops", "")))
            + _field("hardware.bandwidth", "bandwidth", _input("hardware.bandwidth", custom.get("bandwidth", ""))))


def incident_explorer(incident_id: str) -> str:
    """The editor for one incident: its card, dtype, shape and measurements, prefilled from the drill."""
    item = drill.incident(incident_id)
    raw: dict[str, Any] = item.symptoms_raw
    fields = _card_fields(raw.get("hardware"))
    dtypes = "".join(f'<option value="{d}"{" selected" if d == raw.get("dtype") else ""}>{d}</option>'
                     for d in hardware.DTYPE_BYTES)
    fields += _field("dtype", "dtype", f'<select name="dtype"><option value="">card default</option>{dtypes}</select>')
    spec = raw.get("work") or {}
    for key in work.FIELDS.get(str(spec.get("kernel", "")), ()) if spec else ():
        default = False if key == "fused" else ""
        fields += _field(f"work.{key}", LABELS.get(key, key), _input(f"work.{key}", spec.get(key, default)))
    for key, value in (raw.get("observed") or {}).items():
        fields += _field(f"observed.{key}", LABELS.get(key, key), _input(f"observed.{key}", value))
    return (
        f'<div class="regime-explore" data-regime-widget="incident-explorer" data-item="{escape(item.id)}" hidden>'
        f"<h4>Change {escape(item.id.upper())}'s numbers</h4>"
        f'<form novalidate aria-label="Change {escape(item.id.upper())}\'s numbers">{fields}'
        '<div class="regime-actions"><button type="submit" class="md-button md-button--primary">Update</button> '
        '<button type="button" class="md-button" data-action="reset-numbers">Reset to the drill\'s numbers</button>'
        '</div></form><p class="regime-status" role="status" aria-live="polite"></p>'
        '<div class="regime-explore__result" aria-live="polite"></div></div>'
    )
