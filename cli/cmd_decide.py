"""`whybot decide` and `whybot why`: one snapshot, the bot's decision, and the reasons."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from whybot.engine import Reading, SnapshotError
from whybot.facts.packs import overlay_key
from whybot.facts.situations import load_situation

from .group import out, print_json
from .options import (
    IncludeFromOption,
    JsonOption,
    PackOption,
    RulesOption,
    SeedOption,
    Snapshot,
    VariantOption,
    folders,
)

StrictOption = Annotated[bool, typer.Option(
    "--strict", help="Refuse a snapshot that leaves out a fact the decision reads (listing "
                     "them) instead of assuming its default.")]


def _decide(snapshot: Path, pack: str | None, rules: list[Path] | None, seed: int | None,
            explain: bool, include_from: list[Path] | None, variant: str | None,
            strict: bool = False):
    """The decision; its assumptions are exactly the defaults the walk read (`reach.py`)."""
    engine, situation = load_situation(snapshot, pack, overlay_key(rules),
                                       folders(include_from), variant)
    trace = engine.decide(situation, seed=seed, explain=explain, reading=Reading())
    if strict and trace.assumed:
        for item in trace.assumed:  # the list first (the error line itself stays short)
            typer.echo(f"  missing: {item['name']}" + (f" — {item['says']}" if item.get("says")
                                                       else "")
                       + (f" (read by {item['rule']})" if item.get("rule") else ""), err=True)
        names = [a["name"] for a in trace.assumed]
        raise SnapshotError(f"--strict: {len(names)} fact(s) the decision reads are not given"
                            f" (listed above): {', '.join(names)}", file=str(snapshot),
                            hint="give them (judgments under answers:), or leave out --strict")
    return engine, situation, trace


def decide(snapshot: Snapshot, pack: PackOption = None, rules: RulesOption = None,
           seed: SeedOption = None, json_out: JsonOption = False,
           include_from: IncludeFromOption = None, strict: StrictOption = False,
           variant: VariantOption = None) -> None:
    """What does the bot do now? (the short answer)

    The card it plays, each action with its goal, target, guidance and citation, whether the
    turn ended early (pass, event), the dice rolled, and what to do at the table. An Assumed
    block first names every fact the decision read that the snapshot left out (--strict
    refuses them). `whybot why` gives the reasons."""
    # the views are imported where they are used: other commands (a batch) start without them
    from .decision_view import render_decision
    from .shown import shown

    engine, _, trace = _decide(snapshot, pack, rules, seed, False, include_from, variant,
                               strict)
    decision = shown(engine, trace)
    if json_out:
        data = decision.data
        print_json({"snapshot": data["snapshot"], "pack": data["pack"],
                     "decision": data["decision"], "fired": trace.fired(),
                     "dice": data["dice"], "dice_notes": data["dice_notes"],
                     "assumed": data["assumed"]})
        return
    out.print(render_decision(decision))


def why(snapshot: Snapshot, rule: Annotated[str | None, typer.Option(
            "--rule", metavar="ID",
            help="Only this rule: did it fire, where, and if not, why not.")] = None,
        brief: Annotated[bool, typer.Option(
            "--brief", "-b", help="The decision and one line per rule on the path (the "
                                  "rules that chose list the ones above them that did "
                                  "not apply).")] = False,
        pack: PackOption = None, rules: RulesOption = None, seed: SeedOption = None,
        json_out: JsonOption = False, include_from: IncludeFromOption = None,
        strict: StrictOption = False,
        turn: Annotated[int | None, typer.Option(
            "--turn", "-t", metavar="N",
            help="SNAPSHOT is a game file: turn N of its log, decided again.")] = None,
        variant: VariantOption = None) -> None:
    """Why did the bot do that? (the full trace)

    Every page read, the rule that fired there with the seed's question and citation, the
    values it matched and what it did; under it, why each higher rule did not apply. Then where
    each judgment came from (derived by a rule, given in the snapshot, or unknown and assumed
    "no"), and every dice roll. With --rule ID: only that rule, fired or not and why. With
    --turn N: a past turn of a game file (`whybot play`)."""
    from .brief import render_brief
    from .shown import shown, shown_in_full
    from .trace_view import render_trace
    from .verdict_view import render_verdict

    if turn is not None:
        from whybot.facts.play.table import Table  # a game file: only for --turn

        table = Table.open(snapshot)
        engine, situation, trace = table.engine, *table.past_situation(turn)
    else:
        engine, situation, trace = _decide(snapshot, pack, rules, seed, True, include_from,
                                           variant, strict)
    if rule is not None:
        from whybot.engine import rule_verdict

        verdict = rule_verdict(engine, situation, trace, rule)
        if json_out:
            print_json(verdict)
        else:
            out.print(render_verdict(verdict))
        return
    decision = shown(engine, trace) if brief else shown_in_full(engine, situation, trace)
    decision = replace(decision, hints=turn is None)  # a game's turn: the table wrote them
    if json_out:
        print_json(decision.data)
        return
    out.print(render_brief(decision) if brief else render_trace(decision))
