"""SUPERCAT § Playing a chapter, § Event Cards: a round's end (step: round_end) — the played
Event card set aside, whether the chapter ends, and what the bot does when it does; the hand
counter's last decrement."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.arcs.helpers import decide
from tests.conftest import ROOT
from tests.pack_examples import decide_example, missing_says, missing_why_not
from whybot.engine import SnapshotError

EXAMPLES = sorted((ROOT / "facts" / "examples" / "arcs" / "round_end").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_each_example_says_what_its_notes_work_out(arcs, path: Path):
    trace, expect = decide_example(arcs, path)
    assert missing_says(trace, expect) == [], trace.decision["say"]
    assert missing_why_not(trace, expect) == []


def test_the_event_is_set_aside_only_when_one_was_played_this_round(arcs):
    """L190: "After a round ends in which an Event card was played" — no Event, nothing aside."""
    played = decide(arcs, "step: round_end\nevent_played_this_round: true\nplayer_cards: 1\n"
                          "hand_counter: 1\n")
    quiet = decide(arcs, "step: round_end\nevent_played_this_round: false\nplayer_cards: 1\n"
                         "hand_counter: 1\n")
    assert "round_end.event-aside" in played.fired()
    assert "round_end.event-aside" not in quiet.fired()
    assert played.decision["result"] == quiet.decision["result"] == "next_round"


def test_the_chapter_ends_only_when_the_player_and_every_bot_are_out_of_cards(arcs):
    """L90: "Continue until the player has no cards and each bot's hand counter is at zero"."""
    base = "step: round_end\nevent_played_this_round: false\n"
    results = {
        (player, mine, others): decide(arcs, base + f"bots: 2\nplayer_cards: {player}\n"
                                               f"hand_counter: {mine}\n"
                                               f"other_bots_cards: {others}\n"
                                       ).decision["result"]
        for player in (0, 1) for mine in (0, 1) for others in (0, 1)}
    assert [key for key, result in results.items() if result == "chapter_end"] == [(0, 0, 0)]
    assert set(results.values()) == {"chapter_end", "next_round"}


def test_at_the_chapters_end_only_exhausted_guild_cards_are_readied(arcs):
    """L110: "At the end of the chapter, all cards become ready again" — nothing to do for a bot
    whose cards are all ready."""
    end = "step: round_end\nevent_played_this_round: false\nplayer_cards: 0\nhand_counter: 0\n"
    ready = decide(arcs, end + "guild_cards: [{name: Manufacture, action: build}]\n")
    assert ready.decision["result"] == "chapter_end"
    assert "chapter_end.guild-cards" not in ready.fired()
    assert "chapter_end.next-chapter" in ready.fired()


def test_a_round_end_must_say_the_players_cards_and_whether_an_event_was_played(arcs):
    with pytest.raises(SnapshotError, match="player_cards"):
        decide(arcs, "step: round_end\nevent_played_this_round: false\nhand_counter: 0\n")
    with pytest.raises(SnapshotError, match="event_played_this_round"):
        decide(arcs, "step: round_end\nplayer_cards: 0\nhand_counter: 0\n")
    with pytest.raises(SnapshotError, match="other_bots_cards"):
        decide(arcs, "step: round_end\nbots: 3\nevent_played_this_round: false\n"
                     "player_cards: 0\nhand_counter: 0\n")


def test_the_last_card_removes_the_counter(arcs):
    """L88: "(when the counter is on 1, decrement by removing the counter)"."""
    last = decide(arcs, "hand_counter: 1\ninitiative: true\n"
                        "cards: [{suit: construction, number: 1, pips: 4},"
                        " {suit: mobilization, number: 1, pips: 4}]\n")
    assert "bot_turn.counter-removed" in last.fired()
    assert any("removing it from the bot's board" in s for s in last.decision["say"])
    more = decide(arcs, "hand_counter: 2\ninitiative: true\n"
                        "cards: [{suit: construction, number: 1, pips: 4},"
                        " {suit: mobilization, number: 1, pips: 4}]\n")
    assert "bot_turn.counter-removed" not in more.fired()


def test_the_event_cards_section_is_cited(arcs):
    from whybot.engine.load.coverage import coverage

    section = next(s for s in coverage(arcs.pack)["sections"]
                   if s["title"] == "SUPERCAT › Event Cards")
    assert section["status"] == "cited"
    assert {"round_end.event-aside", "bot_turn.play-event"} <= set(section["rules"])
