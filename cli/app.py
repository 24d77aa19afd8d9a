"""The `whybot` command: decide a bot's turn from a snapshot, and say why.

Decisions and traces go to stdout, diagnostics to stderr. This module assembles the commands
(each in its own `cmd_*` module) and the options every command shares (`--limit`, `--version`;
`whybot limits` lists the limits);
errors are turned into one line and an exit code in `group.WhybotGroup`.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import Annotated

import typer

from whybot.engine import current_limits, limits_from_environment, use_limits
from whybot.facts.packs import engine_for

from . import (
    cmd_batch,
    cmd_check,
    cmd_decide,
    cmd_diff,
    cmd_fix,
    cmd_limits,
    cmd_odds,
    cmd_play,
    cmd_rules,
    cmd_serve,
)
from .group import command_group


def _version(show: bool) -> None:
    if show:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"whybot {version('whybot')}")
        except PackageNotFoundError:
            typer.echo("whybot (not installed: run from a source tree)")
        raise typer.Exit()


app = command_group("Run a board-game bot's procedure from rule files, and explain every move."
                    "\n\nStart with `make demo`, or `whybot packs` and a pack's example "
                    "snapshots.", completion=True)
app.command()(cmd_decide.decide)
app.command()(cmd_decide.why)
app.command()(cmd_odds.odds)
app.command()(cmd_batch.batch)
app.command()(cmd_play.new)
app.command()(cmd_play.play)
app.command()(cmd_play.undo)
app.command()(cmd_play.redo)
app.command()(cmd_fix.fix)
app.command()(cmd_play.log)
app.command()(cmd_rules.packs)
cmd_rules.rules_app.command("diff")(cmd_diff.rules_diff)
cmd_rules.rules_app.command("check")(cmd_check.rules_check)
app.command()(cmd_serve.serve)
app.command("limits")(cmd_limits.limits_command)
app.add_typer(cmd_rules.rules_app, name="rules")
app.add_typer(cmd_rules.facts_app, name="facts")


@app.callback()
def options(
    ctx: typer.Context,
    limit: Annotated[list[str] | None, typer.Option(
        "--limit", metavar="NAME=N",
        help="Raise or lower a limit for this command (repeatable); `whybot limits` lists "
             "them.",
    )] = None,
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print whybot's version and exit.")] = False,
) -> None:
    """Sets the limits every command reads by (environment, then --limit), before it runs."""
    previous = current_limits()
    use_limits(limits_from_environment(limit))
    ctx.call_on_close(lambda: use_limits(previous))


def main() -> None:
    """Console entry point (errors end as one line in `WhybotGroup.main`)."""
    try:
        app()
    except SystemExit as done:
        _leave(done.code)
    _leave(0)


def _leave(code: object) -> None:
    """End the process as `sys.exit(code)` would, without freeing its heap object by object:
    a batch's engines are hundreds of thousands of objects, and taking them apart one by
    one cost a corpus batch about 0.1 s after its last row. Exit handlers run and the
    standard streams are flushed first; if another thread still runs, or a stream cannot
    be flushed, the interpreter ends as usual."""
    if threading.active_count() > 1:
        raise SystemExit(code)
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        raise SystemExit(code) from None
    if code is None or isinstance(code, int):
        os._exit(code or 0)
    raise SystemExit(code)  # a message: printed to stderr, exit 1, as Python does


__all__ = ["app", "engine_for", "main"]
