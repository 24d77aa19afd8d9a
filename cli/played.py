"""What `whybot play` says around a turn: the decision point the pack's flow offers next and
why, the answers the table gave without asking, and what the turn changed and saved.

Its own module, imported when `play` runs, so that other commands start without the table
companion's modules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from whybot.facts.play.consult import by_reason
from whybot.facts.play.flow import Flow
from whybot.facts.play.ledger import change_words
from whybot.facts.play.offer import Offer
from whybot.facts.play.table import Table
from whybot.facts.play.wording import plain

from .prompt import fitted


def say_next(table: Table, offer: Offer | None, json_out: bool) -> None:
    """The decision point the pack's flow offers next, and why."""
    if offer is None:
        return
    flow = table.playbook.flow
    also = ", ".join(plain(p) for p in flow.arise) if flow else ""
    typer.echo(fitted(f"next: {plain(str(offer.point))} for {offer.bot}: {offer.why}"
                      + (f" (or, when it arises, --at {also})" if also else "")), err=json_out)


def print_unasked(table: Table, entry: dict[str, Any]) -> None:
    """The answers the table gave, not asked (play.yaml `unchanged:`, `settled:`)."""
    found = by_reason(table.playbook, table.engine.pack, entry.get("unasked", []))
    if found:
        typer.echo("not asked, the table answers them:")
    for why, questions in found.items():
        typer.echo("\n".join([fitted(f"{why}:", "  ", "  "),
                              *(fitted(q, "    ", "      ") for q in questions)]))


def print_after(table: Table, entry: dict[str, Any], game: Path) -> None:
    """What the turn changed, what is offered next time, and where every reason is."""
    asked = len(entry["asked"])
    lines = [f"\nturn {entry['turn']} ({entry['bot']}) saved to {game}: {asked} "
             f"question{'s' if asked != 1 else ''} asked"]
    said = [plain(str(c["path"][-1])) for c in entry["changes"] if c["path"][0] == "said"]
    for change in entry["changes"]:
        if change["path"][0] == "said":
            continue
        lines.append(f"  {change_words(change)}")
    if said:
        lines.append(fitted("remembered, offered next time (anything changed?): "
                            + ", ".join(said), "  ", "    "))
    if entry["carried"].get("after"):
        flow = table.playbook.flow
        lines.append(f"  {flow.continues if flow else Flow.continues} at this bot's next play")
    lines.append(f"every reason: whybot why {game} --turn {entry['turn']}")
    typer.echo("\n".join(lines))


__all__ = ["print_after", "print_unasked", "say_next"]
