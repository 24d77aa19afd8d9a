"""A logged turn's decision page: the decision in large type, why and why not, and the odds.

The turn is decided again from its logged snapshot (`Table.past`, as `whybot why GAME --turn
N` does), and shown with the CLI's own views (`cli/decision_view.py`, `cli/trace_view.py`,
`cli/verdict_view.py`, `cli/brief.py`, `cli/odds.py`) written as HTML (`treehtml.py`): the page
adds no reasoning of its own.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from whybot.engine import Pack, WhybotError, rule_verdict
from whybot.facts.play.fix import listed_moves
from whybot.facts.play.offer import next_point
from whybot.facts.play.wording import plain

from ..brief import render_brief
from ..decision_view import printed_note, render_decision
from ..odds import head, label, odds_data, particulars, values_text
from ..shown import Shown, shown_in_full
from ..trace_view import render_steps
from ..verdict_view import render_verdict
from .forms import whole
from .pages import Pages
from .play import open_game
from .treehtml import tree_html

TURNS = 999_999  # more turns than any game's log: a longer number is no turn


def _really(entity: dict[str, Any], really: dict[str, Any], pack: Pack) -> str:
    """A chosen card as the turn really has it (`4 actions (printed 3, +1)`), as `decide`."""
    notes = "".join(f" ({printed_note(entity[n], v)})" for n, v in really.items())
    return label({**entity, **really}, pack) + notes


def _large(shown: Shown, pack: Pack) -> dict[str, Any]:
    """The decision's parts for the large view: the cards chosen, the actions in order (with
    their targets, named as `whybot odds` names them), the result; every text is the
    trace's own."""
    decision = shown.trace.decision
    names = shown.presentation.get("choices", {})
    targets = [a.target for a in decision.actions]
    choices = [(names.get(alias, alias), _really(c.entity, shown.really.get(alias, {}), pack))
               for alias, c in decision.choices.items()
               if c.entity and c.entity not in targets]
    actions = [{"action": a.action, "goal": a.fields.get("goal", ""),
                "target": label(a.target, pack) if a.target is not None else "",
                "details": a.fields.get("details", "")} for a in decision.actions]
    stopped = "" if decision.result == "decided" else plain(decision.result)
    return {"choices": choices, "actions": actions, "stopped": stopped, "say": decision.say}


def decision_page(pages: Pages, request: Request) -> Response:
    name = request.path_params["game"]
    number = whole(request.path_params["number"], "turn", TURNS)
    rule = request.query_params.get("rule", "").strip()
    with pages.lock:
        table = open_game(pages, name)
        situation, trace = table.past_situation(number)
        entry = table.game.log[number - 1]
        verdict, rule_error = None, None
        if rule:
            try:
                verdict = tree_html(render_verdict(rule_verdict(
                    table.engine, situation, trace, rule)), open_depth=3)
            except WhybotError as exc:
                rule_error = exc.render()
        full = replace(shown_in_full(table.engine, situation, trace), hints=False)
        last = number == len(table.game.log)
        offer = next_point(table) if last else None
    # "Next turn" follows the game's flow: the point it offers, or the game page when the flow
    # asks the table something first
    following = offer is not None and offer.question is None
    return pages.render(
        request, "decision.html", status=422 if rule_error else 200, game=name,
        number=number, entry=entry, last=last, turns=len(table.game.log),
        next_point=str(offer.point) if following and offer else "",
        next_bot=offer.bot if following and offer else "", flow_asks=offer is not None and
        not following,
        moves=listed_moves(table, entry),
        big=_large(full, table.engine.pack),
        dice=tree_html(render_decision(full)) if trace.dice else None,
        rolled=bool(trace.dice), brief=tree_html(render_brief(full)),
        full=tree_html(render_steps(full), open_depth=2), rule=rule,
        verdict=verdict, rule_error=rule_error, rules=sorted(trace.considered()))


def odds_page(pages: Pages, request: Request) -> Response:
    """What the odds were: every way this turn's dice could have fallen (`whybot odds
    --prerolled 0` on the turn's snapshot)."""
    from whybot.engine import odds_of as odds

    name = request.path_params["game"]
    number = whole(request.path_params["number"], "turn", TURNS)
    with pages.lock:
        table = open_game(pages, name)
        situation, _ = table.past_situation(number, explain=False)
        found = odds(table.engine, situation, "actions", 0)
    pack = table.engine.pack
    data = odds_data(found, situation.name, pack, len(situation.dice))
    rows = [{"percent": row["percent"], "fraction": row["probability"],
             "head": head(row["decision"], pack),
             "particulars": particulars(row["decision"], pack),
             "dice": [" · ".join(f"{s['roll']}: {values_text(frozenset(s['values']))}"
                                 for s in path) or "any roll" for path in row.get("dice", [])]}
            for row in data["outcomes"]]
    return pages.render(request, "odds.html", game=name, number=number, odds=data, rows=rows)
