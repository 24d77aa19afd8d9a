"""Issue 20 through the pages: a `normal` difficulty turn decides (both powers asked on one
page, checked together), and a turn the procedure cannot decide asks again for what
is missing and saves nothing."""

from __future__ import annotations

from whybot.facts.play.table import Table

from .arcs_game import CARDS, TURN_1, cells
from .conftest import hidden, question_of


def test_a_normal_difficulty_turn_is_decided_through_the_pages(player, games):
    player.new_game(difficulty="normal")
    done = player.turn("g1", {**TURN_1, "power": 3, "player_power": 4,
                              "rival_controlled": 0,
                              "guild_cards": [], "flagship": False, "starports": 0,
                              "claims": 0, "unbuilt_cities": 0, "ships_unassigned": False,
                              "trust_contends_declared": False})
    assert done.status_code == 303, done.text[:800]
    assert "standing" in player.asked  # both powers on one page, checked together
    assert not {"power_track", "power", "player_power"} & set(player.asked)
    entry = Table.open(games / "g1.yaml").game.log[0]
    assert entry["snapshot"]["power"] == 3 and entry["snapshot"]["player_power"] == 4


def test_an_undecidable_turn_asks_again_and_saves_nothing(player, games, client):
    player.new_game()
    page = client.get("/g/g1/turn", params={"moves": "1"})  # TURN_1 lists the moves
    script = {**TURN_1, "bonus_cards": 1}  # a bonus card counted, but not listed
    while question_of(page.text) != "cards" or "Not decided yet" not in page.text:
        page = player.reply(page, script)
        assert page.status_code == 200, page.text[:500]
    assert "fewer are listed as bonus cards" in page.text
    assert Table.open(games / "g1.yaml").game.log == []
    bonus = {"card": "mobilization 1", "bonus": "yes"}
    data = {**hidden(page.text), "action": "answer", **cells([*CARDS, bonus])}
    page = client.post(page.url.path, data=data, follow_redirects=False)
    assert page.status_code == 200 and question_of(page.text) == "pips.mobilization 1"


def test_redo_puts_back_the_turn_undo_took_back(player, games):
    player.new_game()
    done = player.turn("g1", TURN_1)
    decision = player.client.get(done.headers["location"]).text
    logged = Table.open(games / "g1.yaml").game.log
    game = player.client.post("/g/g1/undo", data=hidden(decision), follow_redirects=True)
    assert "Redo turn 1 (red)" in game.text
    form = game.text.split('action="/g/g1/redo"')[1]
    redone = player.client.post("/g/g1/redo", data=hidden(form), follow_redirects=True)
    assert "Turn 1 (red) was put back." in redone.text
    assert Table.open(games / "g1.yaml").game.log == logged
    assert "Redo turn" not in redone.text


def test_correcting_a_past_answer_on_the_page(client, games, run_cli):
    """As `whybot fix`: the turn's answers listed, one asked again, the later turn that now
    decides differently shown, nothing saved until keep or drop."""
    from tests.play.conftest import ARCS_GAME, HERE

    game = games / "g1.yaml"
    for args in (["new", "arcs", game, "--seed", "11", "--answers", ARCS_GAME / "setup.yaml"],
                 ["play", game, "--at", "chapter", "--answers", ARCS_GAME / "1-chapter.yaml"],
                 ["play", game, "--at", "turn", "--answers", ARCS_GAME / "2-turn.yaml"],
                 ["play", game, "--at", "turn", "--answers",
                  HERE / "issue20" / "kept-ambition-turn.yaml"]):
        assert run_cli(*map(str, args)).exit_code == 0
    before = game.read_text(encoding="utf-8")
    assert 'id="fix"' in client.get("/g/g1/turns/2").text
    listing = client.get("/g/g1/turns/2/fix")
    assert listing.status_code == 200 and "?q=ambitions" in listing.text
    page = client.get("/g/g1/turns/2/fix", params={"q": "ambitions"})
    assert page.status_code == 200 and "best rival" in page.text
    data = {**hidden(page.text), "action": "answer",
            **cells([{"name": "empath", "declared": False, "bot": 1, "best_rival": 1}])}
    plan = client.post("/g/g1/turns/2/fix", data=data)
    assert plan.status_code == 200, plan.text[:500]
    assert "now decides differently" in plan.text and "Keep the later turns" in plan.text
    assert game.read_text(encoding="utf-8") == before  # nothing saved yet
    kept = client.post("/g/g1/turns/2/fix", data={**hidden(plan.text), "action": "keep"},
                       follow_redirects=True)
    assert "Turn 2 was corrected and saved." in kept.text
    table = Table.open(game)
    assert len(table.game.log) == 3 and table.replay() == []
    assert table.game.state["entities"]["game"]["ambition"]["empath"]["declared"] is False
    stale = client.post("/g/g1/turns/2/fix", data={**hidden(plan.text), "turn": "1",
                                                   "action": "keep"})
    assert stale.status_code in (409, 400) and Table.open(game).game.log == table.game.log
