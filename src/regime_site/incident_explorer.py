"""The form that lets a learner change an incident's numbers once its answer is open."""

from __future__ import annotations

from html import escape
from typing import Any

from regime_core.catalogue import hardware
from regime_core.catalogue.quantity import number
from regime_core.content import drill
from regime_core.model import work
from regime_site.field_names import LABELS
from regime_site.markup import field as _field


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
    return (_field("hardware.id", "Card", f'<select name="hardware.id">{select}</select>')
            + _field("hardware.peak_flops", "Peak FLOP/s", _input("hardware.peak_flops", custom.get("peak_flops", "")))
            + _field("hardware.bandwidth", "Bandwidth", _input("hardware.bandwidth", custom.get("bandwidth", ""))))


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
    # Folded until asked for: eight open answers with their editors make a very long page.
    return (
        f'<div class="regime-explore" data-regime-widget="incident-explorer" data-item="{escape(item.id)}" hidden>'
        f'<details class="regime-explore__details"><summary>Change {escape(item.id.upper())}\'s numbers</summary>'
        f'<form data-search-exclude novalidate aria-label="Change {escape(item.id.upper())}\'s numbers">{fields}'
        '<div class="regime-actions"><button data-search-exclude type="submit" class="md-button md-button--primary">Update</button> '
        '<button data-search-exclude type="button" class="md-button" data-action="reset-numbers">Reset to the drill\'s numbers</button>'
        '</div></form><p class="regime-status" role="status" aria-live="polite"></p>'
        '<div class="regime-explore__result" aria-live="polite"></div></details></div>'
    )
