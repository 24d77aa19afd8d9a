"""Issue 20's scripted game: two SUPERCAT bots at normal difficulty (red the Steward, blue no
Fate) through `whybot new` and `whybot play --answers`, following the game's flow: the Act I
setup, the chapter start, six bot turns, a Summit the Event card gives red, three round ends
and the chapter's end.

Each step of `steward_game/plan.yaml` says which bot the flow offers, at which point, and the
decision read off SUPERCAT (003) for the answers given: the card (suit, number, how played)
and the actions. No move is ever listed: each bot turn asks the flowchart's own questions,
never a table of moves, and never more questions than the rules a player following the
pages by hand reads for that turn. The counts are upper bounds, so asking less stays green.
"""

from __future__ import annotations

import shutil

import yaml

from whybot.facts.play.fix import apply_fix, plan_fix
from whybot.facts.play.table import Table

from .conftest import PLAN, STEWARD_GAME

# the questions each bot turn asks (docs/play-transcript.md; 42/35/22/33/6/27 before the
# table answered what it knows: play.yaml unchanged:, settled:, round:; 40/28/19/26/6/23 before
# the resources and the power track were asked as one question each, the Guild counts followed
# from the Guild cards and no Golem read the damaged ships; 21/16/13/20/6/19 before a new
# card's pips were told with its pick and the round told the one initiative marker;
# 19/13/11/18/5/17 before a yes named its target (naming.py), what an action may have changed
# was asked on one page (after.py), a bot's remembered facts read at once were asked as one
# page, the led card as one question, and the counts of starports, cities and claims were kept;
# 16/10/9/8/5/10 before the game's flow asked once a round which bot holds the initiative
# marker; 15/10/8/8/4/9 before a bot's first page took every remembered fact the rules of its
# turn can read, not only those its walk had read so far: standing.py)
AT_MOST = {7: 9, 8: 8, 10: 5, 11: 8, 13: 4, 15: 7}
TABLES = {"cards", "ambitions", "golems", "guild_cards"}  # lists of what is on the table
# each card's pips, told the first time the game sees it (answers files: `pips.CARD: N`)
PIPS = {"administration 4": 2, "aggression 2": 3, "administration 6": 2, "construction 2": 4,
        "construction 3": 3, "mobilization 1": 3, "mobilization 5": 2, "construction 6": 2,
        "aggression 6": 2, "mobilization 2": 3}


def test_the_scripted_game_decides_as_the_seed_reads(played):
    log = yaml.safe_load(played.read_text(encoding="utf-8"))["log"]
    assert len(log) == len(PLAN["steps"])
    for entry, step in zip(log, PLAN["steps"], strict=True):
        decision = entry["decision"]
        assert (entry["bot"], entry["point"]) == (step["bot"], step["point"])
        assert [a["action"] for a in decision.get("actions", [])] == step.get("actions", [])
        if "result" in step:
            assert decision["result"] == step["result"]
        if "card" in step:  # the log keeps the card as "suit number how"
            assert decision["choices"]["selected"] == " ".join(map(str, step["card"]))
    # the Steward's line chose red's first card (§ Steward › All Acts)
    assert log[6]["decision"]["actions"][0]["rule"] == "steward.act1.in-session.influence-council"
    # the seize roll was rolled and failed (3 − 0 is not below the counter 1): a pivot
    assert log[10]["dice"] == [3, 2]
    state = yaml.safe_load(played.read_text(encoding="utf-8"))["state"]
    assert state["bots"]["red"]["hand_counter"] == 0 and state["bots"]["blue"]["hand_counter"] == 0


def test_each_bot_turn_asks_the_flowchart_not_a_table_and_never_more_than_by_hand(played):
    table = Table.open(played)
    for number, entry in enumerate(table.game.log, 1):
        if entry["point"] != "turn":
            continue
        asked = [a["id"] for a in entry["asked"]]
        assert "options" not in asked
        assert {name for name, a in zip(asked, entry["asked"], strict=True)
                if isinstance(a["value"], list)} <= TABLES
        _, trace = table.past_situation(number, explain=False)
        by_hand = sum(1 + len(step.skipped) for step in trace.steps)
        assert len(asked) <= AT_MOST[number], (number, len(asked))
        assert len(asked) < by_hand, (number, len(asked), by_hand)
    # what was said stays said: the later turns of each bot ask no resource again
    later = [a["id"] for e in table.game.log[12:] for a in e["asked"]]
    assert not {"bot_resources", "material", "fuel", "power_track", "power", "player_power",
                "imperial_council"} & set(later)
    # the first turns ask the resources as one question, and the Guild counts not at all:
    # they follow from the Guild cards said at the chapter's start (with the reason logged)
    for asked in (table.game.log[n]["asked"] for n in (6, 7)):
        assert not {"material", "fuel", "weapon_guild_cards", "union_cards"} & \
            {a["id"] for a in asked}
        assert any({"material", "fuel"} <= set(a["value"]) for a in asked
                   if a["id"] in ("bot_resources", "standing"))
    followed = {u["id"]: u["value"] for u in table.game.log[6]["unasked"]}
    assert followed["weapon_guild_cards"] == 0 and followed["union_cards"] == 0


def test_each_card_is_picked_by_name_with_its_pips_told_once_for_the_game(played):
    """The cards are picked from the deck by name; a card's pips are told with the pick the
    first time the game sees it (no question of their own: the answers files' `pips.CARD`
    fill in the card entry) and kept: red's Aggression 2, drawn on turns 7 and 11, is told
    once."""
    data = yaml.safe_load(played.read_text(encoding="utf-8"))
    assert not [a for e in data["log"] for a in e["asked"] if a["id"].startswith("pips.")]
    told = [change["path"][3] for e in data["log"] for change in e["changes"]
            if change["path"][:3] == ["entities", "game", "card"]]
    assert sorted(told) == sorted(PIPS)  # each once
    kept = data["state"]["entities"]["game"]["card"]
    assert {card: values["pips"] for card, values in kept.items()} == PIPS
    # turn 11's cards: Mobilization 5 picked with its pips, Aggression 2's filled in from
    # the game
    turn_11 = data["log"][10]
    picked = next(a["value"] for a in turn_11["asked"] if a["id"] == "cards")
    assert {"suit": "mobilization", "number": 5, "pips": 2} in picked
    assert {"suit": "aggression", "number": 2, "pips": 3} in turn_11["snapshot"]["cards"]


def test_the_table_answers_what_it_knows_and_says_why(played):
    """An answer an action cannot change is carried past it, one the game settles is given,
    and the card a bot led is told to the bots after it in the round: each is logged with
    its reason, none is asked."""
    log = yaml.safe_load(played.read_text(encoding="utf-8"))["log"]
    unasked = {(u["id"], u["after"]): u["why"] for u in log[7].get("unasked", [])}
    # blue's Influence (action 2) cannot change whether it can Tax: carried, not asked
    assert unasked[("can.tax.captives", 2)].startswith("still so after action 2 (influence")
    asked = [name for a in log[7]["asked"] for name in a.get("said", [a["id"]])]
    assert asked.count("can.tax.captives") == 1 and "unchanged.2" not in asked
    # no ambition is declared: nothing contends a declared one, whatever the moves
    assert unasked[("can.tax.contend_declared", 0)].startswith("no ambition is declared")
    # a Secure keeps nothing (a Vox card can do anything): after it, nothing is carried
    assert not [u for u in log[14].get("unasked", []) if u["why"].startswith("still so")]
    # red led Administration 4: blue, after it in the round, is not asked what was led
    # (and it holds the one initiative marker: blue, after it, does not)
    assert log[6]["tells"] == {"lead_suit": "administration", "lead_number": 4,
                               "initiative": False}
    assert {"lead_suit", "lead_number", "initiative"}.isdisjoint(
        a["id"] for a in log[7]["asked"])
    told = {u["id"]: u for u in log[7]["unasked"]}
    assert told["lead_suit"]["why"].startswith("told by red's turn 7 this round: the card it "
                                               "led this round (SUPERCAT v0.9 § Bot turn")
    assert told["initiative"]["value"] is False
    assert "the one initiative marker" in told["initiative"]["why"]
    assert log[7]["snapshot"]["lead_suit"] == "administration"
    # a new round: blue leads again, and is told nothing of the last round's lead
    assert "lead_suit" not in log[9]["snapshot"]
    # each bot's standings in the ambitions are its own: red's later turn is offered red's
    standings = {n: e["snapshot"]["ambitions"][0]["best_rival"] for n, e in enumerate(log)
                 if e["point"] == "turn"}
    assert standings == {6: 0, 7: 1, 9: 1, 10: 0, 12: 0, 14: 1}


def test_a_turn_asked_a_question_twice_decides_again_as_it_was(played, tmp_path):
    """Blue's turn 8 asks "Can bot Tax to contend an undeclared ambition?" before its first
    action (yes: it Taxes) and after it (no): `fix` replays each answer where it was given,
    so the turn decided again with its own answers is the turn logged (one value per id
    made the first answer no, and the turn took no action)."""
    game = tmp_path / "game.yaml"
    shutil.copy(played, game)
    table = Table.open(game)
    logged = table.game.log[7]
    said = [a.get("said", {a["id"]: a["value"]}) for a in logged["asked"]]
    twice = [s["can.tax.contend_undeclared"] for s in said if "can.tax.contend_undeclared" in s]
    assert twice == [True, False]
    plan = plan_fix(table, 8, {})
    assert plan.entry["decision"] == logged["decision"]
    assert [a["action"] for a in plan.entry["decision"]["actions"]] == ["tax", "influence"]



def test_a_fixed_turn_keeps_the_later_turns_each_given_what_it_was_given(played, tmp_path):
    """Blue's power at turn 8 corrected from 1 to 5: the later turns are decided again with
    all they were given when played — the kept facts the answers file gave (red's last card:
    hand counter 1), the answers to the flow's questions (the Summit the Event gave red), what
    the flow offered and what the round told — so none asks anything new. Those that decide
    the same are kept as they were; blue's turns 10 and 15 now lose the extra action of normal
    difficulty (blue is no longer behind the player's power 3)."""
    game = tmp_path / "game.yaml"
    shutil.copy(played, game)
    table = Table.open(game)
    assert table.game.log[12]["given"] == {"hand_counter": 1}  # logged with the turn
    assert table.game.log[13]["flow"] == {"flow.imperial_reach": False, "flow.summit": "red"}
    plan = plan_fix(table, 8, {"power": 5})
    assert [(t.asks, t.blocked) for t in plan.later] == [("", False)] * 8
    assert [t.number for t in plan.changed] == [10, 15]
    for later in plan.later:
        assert later.now == later.logged  # the same card and actions...
        assert ("play.efficient-logistics" in later.entry["decision"]["fired"]) == \
            (later.number not in (10, 15) and "play.efficient-logistics" in later.was["fired"])
    assert "play.efficient-logistics" not in plan.entry["decision"]["fired"]
    assert apply_fix(table, plan, keep=True) == []
    saved = Table.open(game).game.log
    assert len(saved) == 16 and saved[7]["snapshot"]["power"] == 5
    assert [e["decision"] for e in saved[8:]] == [t.entry["decision"] for t in plan.later]


def test_the_event_card_brings_up_the_summit_in_the_seed_s_words(played):
    """After red's Event card the flow asks what only the table knows, in the seed's words
    (which bot, if any, the Event gives the First Regent's Imperial Reach, then a Summit), and
    goes on around the Summit as if it had not been: blue plays its card, then the round
    ends."""
    log = yaml.safe_load(played.read_text(encoding="utf-8"))["log"]
    assert [(e["bot"], e["point"]) for e in log[12:]] == [
        ("red", "turn"), ("red", "summit"), ("blue", "turn"), ("red", "round_end")]
    assert log[13]["decision"]["result"] == "summit"
    assert log[14]["flow"] == {"flow.negotiation": False}  # the minigame is optional


def test_a_round_end_reads_the_other_bots_hand_counters_from_the_game(played):
    """Two bots: at red's round end, blue's kept hand counter is the other bots' cards."""
    table = Table.open(played)
    log = table.game.log
    ends = [e for e in log if e["point"] == "round_end"]
    for entry in ends:
        assert "other_bots_cards" not in [a["id"] for a in entry["asked"]]
        told = {u["id"]: u for u in entry["unasked"]}["other_bots_cards"]
        assert told["why"].startswith("the other bots' hand counters, as the game keeps "
                                      f"them: {'red' if entry['bot'] == 'blue' else 'blue'} ")
        assert "§ Playing a chapter" in told["why"]
        assert entry["snapshot"]["other_bots_cards"] == told["value"]
    assert [e["snapshot"]["other_bots_cards"] for e in ends] == [5, 4, 0]


def test_the_bot_that_played_the_event_is_not_asked_whether_one_was_played(played):
    """Red's Event card (turn 13) is told to red's own round end (turn 16), with the turn that
    played it; the round ends without a bot's Event are still asked (the player may have)."""
    log = Table.open(played).game.log
    last = log[15]
    assert (last["bot"], last["point"]) == ("red", "round_end")
    assert "event_played_this_round" not in [a["id"] for a in last["asked"]]
    told = {u["id"]: u for u in last["unasked"]}["event_played_this_round"]
    assert told["value"] is True and told["why"].startswith("told by red's turn 13 this round")
    assert "§ Event Cards" in told["why"]
    assert all("event_played_this_round" in [a["id"] for a in log[n]["asked"]] for n in (8, 11))


def test_the_summit_is_not_asked_again_what_the_flow_was_told_no(played):
    """No bot is the First Regent (the flow's question after red's Event card): the Summit it
    goes on to is told so, with the question that said it (play.yaml `no_means:`)."""
    summit = yaml.safe_load(played.read_text(encoding="utf-8"))["log"][13]
    assert summit["point"] == "summit" and summit["flow"]["flow.imperial_reach"] is False
    assert "first_regent" not in [a["id"] for a in summit["asked"]]
    told = {u["id"]: u for u in summit["unasked"]}["first_regent"]
    assert told["value"] is False
    assert told["why"].startswith("answered no: “An Event card was played: is a bot the First "
                                  "Regent")
    assert summit["snapshot"]["first_regent"] is False


def test_a_bots_remembered_facts_are_one_page_then_offered_as_still_so(played):
    """Red's first turn asks every standing fact the rules of its turn can read (its power, the
    Dealmakers card, the Council, the resources, its starports, the Flagship, the ambition
    markers …) as one page, none of them alone; its next turn offers them in "Since the last
    turn" and asks none of them again."""
    log = yaml.safe_load(played.read_text(encoding="utf-8"))["log"]
    page = next(a["value"] for a in log[6]["asked"] if a["id"] == "standing")
    assert {"power", "dealmakers", "imperial_council", "material", "starports_now",
            "flagship", "ambition_markers_available"} <= set(page)
    alone = {a["id"] for a in log[6]["asked"]}
    assert not {*page, "bot_resources", "power_track"} & alone
    later = {a["id"] for a in log[10]["asked"]}
    assert not {"standing", *page} & later
    assert {"flagship", "ambition_markers_available"} <= set(log[10]["snapshot"])


def test_fix_corrects_a_fact_of_the_page_and_decides_a_game_logged_before_it_the_same(
        played, tmp_path):
    """`fix` of red's turn 7 with `material: 3` corrects that fact within the page it was
    asked on; a game logged before the page (its facts asked one at a time, the resources as
    their own group) is decided again the same, each fact taken from where it was logged."""
    game = tmp_path / "game.yaml"
    shutil.copy(played, game)
    table = Table.open(game)
    plan = plan_fix(table, 7, {"material": 3})
    assert plan.entry["snapshot"]["material"] == 3
    page = next(a["value"] for a in plan.entry["asked"] if a["id"] == "standing")
    assert page["material"] == 3 and page["dealmakers"] == "none"
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    asked = data["log"][6]["asked"]
    at = next(i for i, a in enumerate(asked) if a["id"] == "standing")
    values = asked[at]["value"]
    resources = {k: values[k] for k in ("material", "fuel", "weapon", "relic", "psionic")}
    asked[at:at + 1] = [*({"id": k, "value": values[k]} for k in values if k not in resources),
                        {"id": "bot_resources", "value": resources}]
    game.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    table = Table.open(game)
    plan = plan_fix(table, 7, {})
    assert plan.entry["decision"] == data["log"][6]["decision"]
    assert next(a["value"] for a in plan.entry["asked"] if a["id"] == "standing") == values
    assert plan.changed == []


def test_the_optional_modifiers_are_asked_once_for_the_game(run, tmp_path):
    """"Which optional modifiers were chosen for the game?" is asked at the first setup
    building only: the game keeps the answer (play.yaml keep: game:), so the other three
    buildings are not asked it; undo takes it back with the building that told it, redo
    puts it back."""
    game = tmp_path / "game.yaml"
    assert run("new", "arcs", game, "--seed", str(PLAN["game"]["seed"]), "--answers",
               STEWARD_GAME / PLAN["game"]["setup"]).exit_code == 0
    for step in PLAN["steps"][:4]:
        result = run("play", game, "--answers", STEWARD_GAME / step["answers"])
        assert result.exit_code == 0 and "not asked" not in result.stderr, result.output
    table = Table.open(game)
    asked = [[a["id"] for a in entry["asked"]] for entry in table.game.log]
    assert ["modifiers" in ids for ids in asked] == [True, False, False, False]
    assert table.game.state["game"]["modifiers"] == []
    for _ in range(4):
        table.undo()
    assert "modifiers" not in Table.open(game).game.state["game"]
    table.redo()
    assert Table.open(game).game.state["game"]["modifiers"] == []


def test_the_led_card_is_asked_as_one_question_its_suit_and_its_number(played):
    """Blue's last turn follows the player's Aggression 4: "Which card was led this round?"
    asks its suit and its number at once (play.yaml together: led_card, whole: true), though
    the walk reads the number only once it knows the suit; red's Event turn is asked it too."""
    log = yaml.safe_load(played.read_text(encoding="utf-8"))["log"]
    for number in (12, 14):
        asked = {a["id"]: a["value"] for a in log[number]["asked"]}
        assert asked["led_card"] == {"lead_suit": "aggression", "lead_number": 4}
        assert not {"lead_suit", "lead_number"} & set(asked)


def test_the_counts_of_starports_cities_and_claims_are_kept_for_the_bot_s_next_card(played):
    """"How many loyal starports does the bot have, counting those it built this card?" (and
    the unbuilt cities, the claims) is the board's count at a card's start: the game keeps
    each bot's as the player said it last, and its next card offers it in "Since the last
    turn"; after an action that can change it, it is asked again."""
    data = yaml.safe_load(played.read_text(encoding="utf-8"))
    log = data["log"]
    red = log[10]  # red's second card: its counts from its first, offered, still so
    review = next(a for a in red["asked"] if a["id"] == "unchanged")
    assert review["value"] is True
    assert {k: red["snapshot"]["answers"][k] for k in ("starports_now", "cities_left",
                                                       "open_claims")} == \
        {"starports_now": 0, "cities_left": 4, "open_claims": 0}
    said = [name for a in red["asked"] for name in a.get("said", [a["id"]])]
    assert said.count("open_claims") == 1  # after the Move for a new claim: asked again
    assert red["snapshot"]["answers_after"][0]["open_claims"] == 1
    # blue built a starport on turn 10 (asked again after the build: 1): its turn 15 starts
    # from it
    assert log[14]["snapshot"]["answers"]["starports_now"] == 1
    assert data["state"]["said"]["red"]["open_claims"] == 1
    assert data["state"]["said"]["blue"]["starports_now"] == 1
