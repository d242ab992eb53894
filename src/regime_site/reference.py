"""Reference pages generated from what the command already holds, so that they cannot drift from it."""

from __future__ import annotations

import argparse
import re
from html import escape

from regime_core.cli.main import build_parser


def subcommands(parser: argparse.ArgumentParser | None = None) -> dict[str, argparse.ArgumentParser]:
    """The ``regime`` command's subcommands by name, in the order ``--help`` lists them."""
    parser = parser or build_parser()
    for action in parser._actions:  # argparse keeps its subparsers here and nowhere public
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _argument(action: argparse.Action) -> str:
    if action.option_strings:
        name = ", ".join(action.option_strings)
        takes = "" if action.nargs == 0 else f" {action.metavar or action.dest.upper()}"
        return f"<code>{escape(name + takes)}</code>"
    shown = action.metavar or (("{" + ",".join(action.choices) + "}") if action.choices else action.dest.upper())
    return f"<code>{escape(str(shown))}</code>"


def cli_reference() -> str:
    """Each subcommand, what it does, and a table of its arguments and options with their help."""
    out = []
    for name, sub in subcommands().items():
        rows = []
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            required = "yes" if action.required or not action.option_strings else ""
            said = re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(action.help or ""))
            # A line break between cells, so the search index reads each cell's words apart.
            rows.append(f"<tr>\n<td>{_argument(action)}</td>\n<td>{required}</td>\n<td>{said}</td>\n</tr>")
        out.append(f'<h3 id="regime-{escape(name)}"><code>regime {escape(name)}</code></h3>\n'
                   f"<p>{escape(sub.description or '')}</p>\n"
                   "<table><thead><tr>\n<th>argument</th>\n<th>required</th>\n<th>what it is</th>\n</tr></thead>\n"
                   f"<tbody>{''.join(rows)}</tbody></table>")
    return "\n".join(out)
