"""`whybot limits`: the bounds on what whybot reads and does, their defaults and the values in
force (after WHYBOT_LIMIT_* and `--limit`), so that `whybot --help` can stay short."""

from __future__ import annotations

import textwrap
from dataclasses import fields

import typer

from whybot.engine import LIMIT_HELP, Limits, current_limits

from .group import print_json
from .options import JsonOption

_INTRO = ("Every input is bounded before the work starts; a refused input is one line naming "
          "the limit, exit status 2. Raise or lower a limit for one command with `whybot "
          "--limit NAME=N COMMAND ...`, or for a shell session with WHYBOT_LIMIT_NAME=N.")
_WIDTH = 80


def _lines(in_force: Limits, defaults: Limits) -> list[str]:
    """One entry per limit: name and value, then what it bounds, wrapped under a hanging
    indent (a fixed width, so the table reads the same on every terminal)."""
    name_width = max(len(spec.name) for spec in fields(Limits))
    lead = name_width + 2 + 11 + 2
    lines = [*textwrap.wrap(_INTRO, _WIDTH), ""]
    for spec in fields(Limits):
        value, default = getattr(in_force, spec.name), getattr(defaults, spec.name)
        what = LIMIT_HELP[spec.name]
        if value != default:
            what = f"(default {default:,}) {what}"
        head = f"{spec.name:<{name_width}}  {value:>11,}  "
        lines += textwrap.wrap(what, _WIDTH, initial_indent=head,
                               subsequent_indent=" " * lead)
    return lines


def limits_command(json_out: JsonOption = False) -> None:
    """The limits on inputs and work: each one's value in force, its default, what it bounds."""
    in_force, defaults = current_limits(), Limits()
    if json_out:
        print_json([{"limit": spec.name, "value": getattr(in_force, spec.name),
                     "default": getattr(defaults, spec.name),
                     "variable": f"WHYBOT_LIMIT_{spec.name.upper()}",
                     "bounds": LIMIT_HELP[spec.name]}
                    for spec in fields(Limits)])
        return
    typer.echo("\n".join(_lines(in_force, defaults)))
