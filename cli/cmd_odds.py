"""`whybot odds`: the command's options; the odds are computed in `engine/odds/distribution.py` and
shown by `odds.py`."""

from __future__ import annotations

from typing import Annotated

import typer

from whybot.engine import GRAINS, WhybotError

from .common import load_situation, overlay_key
from .group import out, print_json
from .options import (
    IncludeFromOption,
    JsonOption,
    PackOption,
    RulesOption,
    Snapshot,
    VariantOption,
    folders,
    one_of,
)


def odds(snapshot: Snapshot,
         by: Annotated[str, typer.Option(
             "--by", metavar="GRAIN", callback=one_of("grain", GRAINS),
             help="What tells two decisions apart: result; actions (the result, the choices, "
                  "and each action with its goal, target and details); or table (that, and "
                  "every instruction to the table).")] = "actions",
         prerolled: Annotated[int | None, typer.Option(
             "--prerolled", metavar="N", min=0,
             help="Use only the first N of the snapshot's pre-rolled dice and enumerate the "
                  "rest (0: every die; default: all of them).")] = None,
         samples: Annotated[int | None, typer.Option(
             "--samples", metavar="N", min=1,
             help="Estimate from N random runs instead (labelled as an estimate, with standard "
                  "errors), for when the exact odds are over their limit.")] = None,
         seed: Annotated[int | None, typer.Option(
             "--seed", "-s", metavar="N", help="Seed for --samples (default 0).")] = None,
         pack: PackOption = None, rules: RulesOption = None, json_out: JsonOption = False,
         include_from: IncludeFromOption = None, variant: VariantOption = None) -> None:
    """The odds of the bot's decisions, over the dice not yet rolled.

    Every outcome of the dice the snapshot has not pre-rolled (and of every random pick), in
    exact fractions, with the dice that lead to each decision. Over the limit odds_runs the
    exact odds are refused (exit 2, with the count); --samples N then gives an estimate."""
    from whybot.engine import odds_of

    from .odds import odds_data, render_odds

    if seed is not None and samples is None:
        raise WhybotError("--seed is for --samples: the exact odds draw no random numbers")
    engine, situation = load_situation(snapshot, pack, overlay_key(rules),
                                       folders(include_from), variant)
    found = odds_of(engine, situation, by, prerolled, samples, seed or 0)
    if json_out:
        print_json(odds_data(found, situation.name, engine.pack, len(situation.dice),
                             situation.variant))
    else:
        out.print(render_odds(found, situation.name, engine.pack, len(situation.dice),
                              situation.variant))
