"""Multi-action cards (§ How to follow the procedures: first spend actions according to the
highest priority, then if actions remaining, restart the procedures from the top of that suit's
page), the Fate's budget (§ Fates), Efficient Logistics, Battles that stop the card and the
snapshot that resumes it."""

from __future__ import annotations

from tests.arcs.helpers import decide

ADMIN = """
hand_counter: 3
initiative: true
cards: [{{suit: administration, number: 1, pips: {pips}}}]
"""


def card_steps(trace, page: str):
    return [s for s in trace.steps if s.page == page and s.rule]


def test_each_action_is_its_own_pass_with_its_own_why_not(arcs):
    """Three Taxes for three actions: three passes over the page, each listing the lines above
    the one that fired and why they did not apply."""
    trace = decide(arcs, ADMIN.format(pips=3) + """
options:
  - {action: tax, resource: fuel, new_resource: true, target: A}
  - {action: tax, resource: fuel, target: B}
  - {action: tax, resource: fuel, target: C}
""")
    steps = card_steps(trace, "administration")
    assert [s.rule for s in steps] == ["admin.tax-resources"] * 3
    # the 10 lines above [47], and the Magnate's Merchant League line placed before it
    assert all(len(s.skipped) == 11 for s in steps)
    assert trace.decision.actions[0].target["target"] == "A"  # Prefer: new resources
    assert {a.target["target"] for a in trace.decision.actions} == {"A", "B", "C"}


def test_an_answer_holds_for_the_whole_card(arcs):
    """A judgment answered in the snapshot is not used up: with no option listed, every action
    follows it (the player picks the target each time)."""
    trace = decide(arcs, ADMIN.format(pips=2) + "answers: {can.tax.captives: yes}\n")
    assert [a.rule for a in trace.decision.actions] == ["admin.tax-captives"] * 2
    assert all(a.target is None for a in trace.decision.actions)


def test_unspent_actions_are_said_and_the_result_stays_decided(arcs):
    trace = decide(arcs, ADMIN.format(pips=3) + "options: [{action: tax, resource: fuel}]\n")
    assert len(trace.decision.actions) == 1
    assert ("No line of the Administration page applies: the bot cannot spend its 2 remaining "
            "action(s) here.") in trace.decision.say
    assert trace.decision.result == "decided"


def test_the_fate_budget_is_half_rounded_up_and_shown(arcs):
    """§ Fates: at most half the number of available actions, rounded up (4 → 2), then the suit
    page spends the rest."""
    trace = decide(arcs, "fate: magnate\n" + ADMIN.format(pips=4) + """
options:
  - {action: tax, resource: fuel, target: A}
  - {action: tax, resource: relic, target: B}
  - {action: tax, resource: weapon, target: C}
  - {action: tax, resource: psionic, target: D}
""")
    pages = [a.page for a in trace.decision.actions]
    assert pages == ["fate.magnate.act1"] * 2 + ["administration"] * 2
    budget = next(s for s in trace.steps if s.rule == "play.fate")
    assert budget.outcome["set"]["fate_left"]["to"] == 2
    fate_steps = card_steps(trace, "fate.magnate.act1")[-2:]
    assert [s.outcome["after_action"]["set"]["fate_left"]["to"] for s in fate_steps] == [1, 0]


def test_a_fate_unable_to_act_leaves_its_actions_to_the_suit_page(arcs):
    """§ Fates: Once it takes that many actions, or is unable to take further actions from this
    page, turn to the page for the selected suit and spend the remaining actions."""
    trace = decide(arcs, "fate: magnate\n" + ADMIN.format(pips=4) + """
options:
  - {action: tax, resource: fuel, target: A}
  - {action: repair, piece: ship, target: ships}
""")
    assert [(a.page, a.action) for a in trace.decision.actions] == [
        ("fate.magnate.act1", "tax"), ("administration", "repair")]


def test_efficient_logistics_adds_an_action_only_when_not_ahead(arcs):
    """Efficient Logistics: bot performs 1 extra action per card (normal mode, when it does not
    have more power than the player; ties included)."""
    options = "options: [{action: tax, target: A}, {action: tax, target: B}]\n"
    behind = decide(arcs, "difficulty: normal\npower: 2\nplayer_power: 3\n" +
                    ADMIN.format(pips=1) + options)
    assert len(behind.decision.actions) == 2
    assert "play.efficient-logistics" in behind.fired()
    ahead = decide(arcs, "difficulty: normal\npower: 4\nplayer_power: 3\n" +
                   ADMIN.format(pips=1) + options)
    assert len(ahead.decision.actions) == 1
    off = decide(arcs, ADMIN.format(pips=1) + options)
    assert "play.efficient-logistics" not in off.fired()


def test_efficient_logistics_counts_in_the_fate_budget(arcs):
    """§ Fates: half the number of available actions — 3 printed + 1 = 4 → 2 for the Fate."""
    trace = decide(arcs, "fate: magnate\ndifficulty: harder\n" + ADMIN.format(pips=3) + """
options:
  - {action: tax, resource: fuel}
  - {action: tax, resource: relic}
  - {action: tax, resource: psionic}
""")
    budget = next(s for s in trace.steps if s.rule == "play.fate")
    assert budget.outcome["set"]["fate_left"]["to"] == 2


BATTLE = """
hand_counter: 3
initiative: true
cards: [{suit: aggression, number: 1, pips: 3}]
ambitions: [{name: warlord, declared: true, bot: 0, best_rival: 1}]
options:
  - {action: battle, goal: trophies, ambition: warlord, ships: 3, fresh_ships: 3, defenders: 1,
     moves: 1}
  - {action: secure, captives: 1}
"""


def test_a_battle_with_actions_left_stops_the_card_and_says_what_to_report(arcs):
    trace = decide(arcs, BATTLE)
    assert trace.decision.result == "battle"
    assert [a.action for a in trace.decision.actions] == ["battle"]
    assert trace.fired()[-1] == "play.battle"
    assert trace.decision.say[-1].endswith("this card goes on with its 1 action(s) left.")
    report = trace.decision.steps[-1].snapshot  # the same, as the fields a snapshot gives
    assert "resume: aggression" in report and "resume_actions: 1" in report
    assert "resume_mode: lead" in report


def test_a_battle_as_the_last_action_ends_the_card(arcs):
    trace = decide(arcs, BATTLE.replace("pips: 3", "pips: 2"))
    assert trace.decision.result == "decided"
    assert [a.action for a in trace.decision.actions] == ["battle"]


def test_the_resume_snapshot_continues_on_the_page_without_draw_or_prelude(arcs):
    trace = decide(arcs, """
resume: aggression
resume_actions: 2
resume_mode: lead
hand_counter: 2
initiative: true
weapon: 1
cards: [{suit: aggression, number: 1, pips: 3}]
options: [{action: secure, captives: 1, target: A}, {action: secure, captives: 2, target: B}]
""")
    fired = trace.fired()
    assert "bot_turn.draw" not in fired and "bot_turn.decrement" not in fired
    assert "play.prelude" not in fired
    assert [a.target["target"] for a in trace.decision.actions] == ["B", "A"]


def test_a_fate_battle_resumes_on_the_fate_page(arcs):
    """A Battle the Fate took: the stop asks for resume: fate with the Fate's actions left; the
    resumed card reads the Fate page first, then the suit page."""
    magnate = """
fate: magnate
act: 2
hand_counter: 3
initiative: true
cards: [{suit: aggression, number: 1, pips: 4}]
monopolies: [{resource: fuel, in_play: 3, bot_holds: 1}]
options:
  - {action: battle, goal: raid, resource: fuel, keys: 1, ships: 3, fresh_ships: 3, defenders: 1}
  - {action: secure, captives: 1, target: A}
"""
    trace = decide(arcs, magnate)
    assert trace.decision.result == "battle"
    assert trace.decision.say[-1].endswith("with its 3 action(s) left, 1 of them the Fate's.")
    report = trace.decision.steps[-1].snapshot
    assert "resume: fate, resume_fate_actions: 1, resume_actions: 3" in report
    resumed = decide(arcs, magnate.replace("hand_counter: 3", "hand_counter: 2")
                     .replace("  - {action: battle, goal: raid, resource: fuel, keys: 1, ships: 3, "
                              "fresh_ships: 3, defenders: 1}\n", "")
                     + "resume: fate\nresume_fate_actions: 1\nresume_actions: 3\n"
                     + "resume_mode: lead\n")
    assert [a.page for a in resumed.decision.actions] == ["aggression"]
    assert "resume.fate" in resumed.fired()


def test_a_guild_ability_is_used_once(arcs):
    """§ Guild and Lore Cards: new actions at most once per chapter — after using it, the card is
    exhausted and the restart reads on (readings R16)."""
    trace = decide(arcs, ADMIN.format(pips=2) + (
        "guild_cards: [{name: Court Bureaucrats, action: tax, can_use: true}]\n"
        "options: [{action: tax, resource: fuel}]\n"))
    assert [a.action for a in trace.decision.actions] == ["use_guild_ability", "tax"]
