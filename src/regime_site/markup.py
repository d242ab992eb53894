"""The HTML pieces every build-time page function shares: escaped text, a list, a form field."""

from __future__ import annotations

import html
from collections.abc import Iterable


def esc(text: object) -> str:
    """Escape text for HTML content and attributes."""
    return html.escape(str(text), quote=True)


def bullet_list(items: Iterable[str]) -> str:
    """An unordered list of escaped lines."""
    return "<ul>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>"


def field(name: str, label: str, control: str, kinds: str = "") -> str:
    """A labelled form control with the line its error shows on; ``kinds``: the kernel kinds it is shown for."""
    shown_for = f' data-kinds="{esc(kinds)}"' if kinds else ""
    return (f'<div class="regime-field" data-field="{esc(name)}"{shown_for}><label>{esc(label)} {control}</label>'
            '<p class="regime-field__error" role="alert" hidden></p></div>')
