"""How every `whybot` command runs: errors become one line and an exit code, in one place.

Bad input (a broken snapshot or rule file, an unknown rule id) exits 2 with one line naming the
file and line; an engine fault (a bug) exits 1. Both are caught once, in `WhybotGroup.main`
(what the console script and the tests' runner call), so no command handles errors itself.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from whybot.engine import EngineFault, WhybotError

from .common import message

out = Console(highlight=False, soft_wrap=False)


class WhybotGroup(TyperGroup):
    """Turns every WhybotError into one line on stderr and exit 2 (EngineFault: exit 1)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        # The top group's main, so its own options' callbacks are covered as well as every
        # command; click has already turned its own usage errors and exits into exit codes.
        try:
            return super().main(*args, **kwargs)
        except BrokenPipeError:  # `whybot log GAME | head`: the reader has all it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)  # as the Python docs advise: no second error when stdout closes
        except WhybotError as exc:
            typer.echo(f"error: {message(exc)}", err=True)
            sys.exit(exc.exit_code)
        except EngineFault as exc:
            typer.echo(f"engine fault (a bug in whybot, please report it): {exc}", err=True)
            sys.exit(EngineFault.exit_code)
        except Exception as exc:
            if os.environ.get("WHYBOT_DEBUG"):
                raise  # a developer wants the traceback
            typer.echo(f"internal error (a bug in whybot, please report it; WHYBOT_DEBUG=1 "
                       f"shows the traceback): {type(exc).__name__}: {exc}", err=True)
            sys.exit(1)


def command_group(help_text: str, completion: bool = False) -> typer.Typer:
    """A `whybot` command group: errors handled by `WhybotGroup`, `-h` as well as `--help`."""
    return typer.Typer(cls=WhybotGroup, help=help_text, no_args_is_help=True,
                       rich_markup_mode=None, pretty_exceptions_enable=False,
                       context_settings={"help_option_names": ["-h", "--help"]},
                       add_completion=completion)


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))
