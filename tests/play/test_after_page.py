"""Issue 20 item 1: after an action, the judgments it may have changed are asked on one page
("After action 1 (secure — take captives): which of these are so now?"), each with its last
answer, and the turn decides and saves exactly what the same answers given one question at a
time decide and save (after.py's docstring says why).

"One at a time" is the same turn with the page turned off (`paged` offering none): each
judgment then comes as the walk reaches it, singly or in a run of the flowchart's yes/no
questions. The situations: every page of the scripted Steward game, and the same tables with
an answer on the page that takes the walk elsewhere (a Vox card can now be secured; a loyal
building is now in a rival's system), so that judgments on the page go unread.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from whybot.cli.answers_file import FromFile
from whybot.cli.prompt import Terminal
from whybot.facts.play import turn as turn_module
from whybot.facts.play.after import AFTER
from whybot.facts.play.first import first_of
from whybot.facts.play.fix import apply_fix, plan_fix
from whybot.facts.play.naming import TARGET
from whybot.facts.play.question import AnswerError
from whybot.facts.play.table import Table

from .conftest import STEWARD_GAME

PAGED = {10: ["after.1"], 11: ["after.1"], 15: ["after.1"]}
# the runs that go on past a yes said before the action (first.py `first_of`'s `onward`):
# the page of yes/no judgments and the run the walk reads after them, asked as one
ONWARD = {7: ["first.1.can.secure.council", "first.2.can.tax.contend_undeclared"],
          8: ["first.1.can.tax.contend_undeclared", "first.2.can.influence.card"]}


def one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turns asked as before pages: each judgment again as the walk reaches it, and a run
    of them ends at the first said yes before the action."""
    monkeypatch.setattr(turn_module, "paged", lambda *args: [])
    monkeypatch.setattr(turn_module, "first_of", lambda *args: first_of(*args[:4]))


def before(played: Path, folder: Path, number: int) -> Path:
    """A copy of the scripted game with the turns from `number` on taken back."""
    game = folder / "game.yaml"
    shutil.copy(played, game)
    table = Table.open(game)
    while len(table.game.log) >= number:
        table.undo()
    return game


def answers_with(folder: Path, name: str, **changes: Any) -> Path:
    """The scripted game's answers file `name`, some answers changed."""
    data = yaml.safe_load((STEWARD_GAME / name).read_text(encoding="utf-8"))
    path = folder / name
    path.write_text(yaml.safe_dump({**data, **changes}), encoding="utf-8")
    return path


def played_with(run, game: Path, answers: Path) -> dict[str, Any]:
    result = run("play", game, "--answers", answers)
    assert result.exit_code == 0, result.output
    return Table.open(game).game.log[-1]


def test_each_page_of_the_scripted_game_decides_and_saves_as_one_at_a_time(
        played, tmp_path, monkeypatch):
    """Each turn with a page, or with a run going on past a yes said before an action,
    decided again from its log with both turned off (each judgment answered as it was said on
    the page or in the run): the same decision, the same snapshot, more questions."""
    game = tmp_path / "game.yaml"
    shutil.copy(played, game)
    table = Table.open(game)
    log = Table.open(played).game.log  # as played (fix rewinds the table's own)
    assert {n: ids for n, e in enumerate(log, 1) if (ids := [
        a["id"] for a in e["asked"] if a["id"].startswith(f"{AFTER}.")])} == PAGED
    assert {n: [a["id"] for a in log[n - 1]["asked"] if a["id"].startswith(("first.1.",
                                                                             "first.2."))]
            for n in ONWARD} == ONWARD
    one_at_a_time(monkeypatch)
    for number in sorted({*PAGED, *ONWARD}):
        entry = plan_fix(table, number, {}).entry
        assert entry["snapshot"] == log[number - 1]["snapshot"], number
        assert entry["decision"] == log[number - 1]["decision"], number
        assert not [a for a in entry["asked"] if a["id"].startswith(f"{AFTER}.")]
        assert len(entry["asked"]) > len(log[number - 1]["asked"]), number


def test_a_turn_logged_one_at_a_time_is_decided_again_on_a_page_as_it_was(played, tmp_path,
                                                                          monkeypatch):
    """A game logged before pages (each judgment asked again one at a time, or in a run):
    `fix` decides blue's turns 10 and 15 again with pages, each one's logged answer on its
    page, and they decide and save as logged."""
    game = tmp_path / "game.yaml"
    shutil.copy(played, game)
    one_at_a_time(monkeypatch)
    for number in (10, 15):
        table = Table.open(game)
        apply_fix(table, plan_fix(table, number, {}), keep=True)
    monkeypatch.undo()
    old = Table.open(game).game.log
    assert not [a for n in (10, 15) for a in old[n - 1]["asked"] if a["id"].startswith(AFTER)]
    for number in (10, 15):
        entry = plan_fix(Table.open(game), number, {}).entry
        assert entry["snapshot"] == old[number - 1]["snapshot"], number
        assert entry["decision"] == old[number - 1]["decision"], number
        assert PAGED[number] == [a["id"] for a in entry["asked"] if a["id"].startswith(AFTER)]


def test_a_page_the_logged_answers_never_gave_is_asked_when_fixing(played, tmp_path):
    """Correcting blue's page of turn 10 (it can still build a starport) takes the walk to a
    second Build and a page the log never answered: `fix` asks it rather than keep the last
    answers unasked (no one to ask: the turn cannot be decided again)."""
    game = tmp_path / "game.yaml"
    shutil.copy(played, game)
    table = Table.open(game)
    again = {"starports_now": 1, "can.build.starport": True}
    with pytest.raises(AnswerError, match=re.escape("turn 10 now asks 'after.2'")):
        plan_fix(table, 10, {"after.1": again})
    asked: list[str] = []

    def ask(question: Any) -> Any:
        asked.append(question.id)
        return question.parse({} if question.kind == "names" else "0"
                              if question.what in (AFTER, "first") else question.default)
    plan = plan_fix(table, 10, {"after.1": again}, ask=ask)
    assert asked[0] == "after.2"
    assert [a["action"] for a in plan.entry["decision"]["actions"]][:2] == ["build", "build"]


@pytest.mark.parametrize(("number", "name", "changes", "unread"), [
    # blue's Secure took captives; after it a Vox card can be secured: the walk secures it,
    # and the page's counts and Moves below it are never read after action 1
    (15, "11-blue-surpasses.yaml", {"can.secure.vox_council": [False, True, False]},
     {"starports_now", "cities_left", "can.secure.captives"}),
    # red's Move got a claim; after it a loyal building is in a rival's system (never asked
    # before: asked after the page, between its two judgments), so the Move for a new claim
    # on the page is never read again
    (11, "7-red-seizes-and-pivots.yaml", {"loyal_buildings_rival_controlled": True,
                                          "can.move.change_control": [True, False]},
     {"can.move.new_claim"}),
])
def test_an_answer_that_takes_the_walk_elsewhere_leaves_the_rest_of_the_page_unread(
        run, played, tmp_path, monkeypatch, number, name, changes, unread):
    answers = answers_with(tmp_path, name, **changes)
    (tmp_path / "paged").mkdir()
    (tmp_path / "single").mkdir()
    paged = played_with(run, before(played, tmp_path / "paged", number), answers)
    page = next(a for a in paged["asked"] if a["id"] == PAGED[number][0])
    assert unread <= set(page["said"])  # asked on the page...
    later = paged["snapshot"].get("answers_after", [{}])[0]
    assert not unread & set(later)  # ...but not read after the action: not in the snapshot
    one_at_a_time(monkeypatch)
    single = played_with(run, before(played, tmp_path / "single", number), answers)
    assert paged["snapshot"] == single["snapshot"]
    assert paged["decision"] == single["decision"]
    assert paged["decision"] != Table.open(played).game.log[number - 1]["decision"]


def _page_of(played: Path, folder: Path, number: int, name: str) -> tuple[Any, FromFile]:
    """Turn `number` of the scripted game played from its answers file up to its page."""
    table = Table.open(before(played, folder, number))
    values = yaml.safe_load((STEWARD_GAME / name).read_text(encoding="utf-8"))
    turn = table.turn(follow=True, flow={k: v for k, v in values.items() if k.startswith("flow.")})
    answers = FromFile(values, name)
    while (question := turn.next_question()) is not None and question.what != AFTER:
        turn.answer(question.id, answers(question, 0))
    assert question is not None
    return turn, answers


def test_the_page_lists_each_judgment_with_its_last_answer(played, tmp_path):
    turn, answers = _page_of(played, tmp_path, 10, "6-blue-leads.yaml")
    page = turn.next_question()
    assert page.text == ("After action 1 (build — a starport (the bot has none)): which of "
                         "these are so now, and how many? (the last answers are given)")
    assert [(m.id, m.kind, m.default) for m in page.fields] == [
        ("starports_now", "number", 0), ("can.build.starport", "yes_no", True)]
    assert [m.text for m in page.fields] == [
        "How many loyal starports does the bot have, counting those it built this card?",
        "Can bot build a starport?"]  # the action's words once, in the page's question
    # `?`: where the procedure reads each one, in the seed's words
    assert page.why().startswith("1) How many loyal starports does the bot have, counting "
                                 "those it built this card? the procedure reads it here: “")
    assert "\n2) Can bot build a starport? the procedure reads it here: “" in page.why()
    # the answers file gives each by its own id, its list taken in order
    assert answers(page, 0) == {"starports_now": 1, "can.build.starport": False}


def test_the_terminal_takes_the_numbers_of_those_so_and_counts(played, tmp_path, capsys):
    turn, _ = _page_of(played, tmp_path, 15, "11-blue-surpasses.yaml")
    page = turn.next_question()
    ids = [m.id for m in page.fields]
    typed = iter(["?", "9x", "1 7, 3=2", ""])
    prompts: list[str] = []
    value = Terminal(lambda prompt: prompts.append(prompt) or next(typed))(page, 12)
    out = capsys.readouterr().out + "".join(prompts)
    assert "1) Can bot Secure an effective Vox card or the Imperial Council? [no]" in out
    assert "7) Can bot Secure to take captives? [yes]" in out
    assert "Enter keeps the last answers" in out and "[7 3=1 5=0]" in out
    assert "the procedure reads it here" in out  # `?`: each one's rule and citation
    assert "Before that action" not in out  # the page says once that these are last answers
    assert "'9x' is not on this page" in out
    assert value == {**page.default, ids[0]: True, ids[6]: True, ids[2]: 2}
    assert Terminal(lambda prompt: "")(page, 12) == page.default  # Enter: all kept
    assert Terminal(lambda prompt: "0")(page, 12) == {  # none is so now
        **page.default, **{m.id: False for m in page.fields if m.kind == "yes_no"}}


def test_undo_and_redo_put_a_paged_turn_back_as_it_was(played, tmp_path):
    game = tmp_path / "game.yaml"
    shutil.copy(played, game)
    table = Table.open(game)
    last = table.game.log[-2:]
    assert table.undo() and table.undo()
    assert table.redo() and table.redo()
    assert Table.open(game).game.log[-2:] == last


def test_a_yes_on_the_page_names_its_target_and_a_no_cannot(played, tmp_path):
    """An answers file's `{yes: …}` for a judgment asked on the page keeps its name (the
    target of the action that yes leads to, naming.py), logged by the judgment."""
    turn, _ = _page_of(played, tmp_path, 15, "11-blue-surpasses.yaml")
    page = turn.next_question()
    court = "Court card with Yellow's agent"
    answers = FromFile({"can.secure.captives": {"yes": court}}, "page.yaml")
    given = answers(page, 12)
    assert given[TARGET] == {"can.secure.captives": court}
    assert given["answer"]["can.secure.captives"] is True
    with pytest.raises(AnswerError, match="only a yes that picks something names a target"):
        turn.answer(page.id, {**given, TARGET: {"can.move.new_claim": court}})  # said no
    turn.answer(page.id, given)
    assert {k: turn.asked()[-1][k] for k in (TARGET, "after")} == {
        TARGET: {"can.secure.captives": court}, "after": 1}


def test_a_correction_to_a_run_after_an_action_is_taken_as_given(played, tmp_path):
    """`fix` of red's turn 7: the run after action 1 corrected to its first question (red can
    Secure the Council now) is taken as given; a pick the run does not have is said, not
    replaced by the logged one."""
    game = tmp_path / "game.yaml"
    shutil.copy(played, game)
    table = Table.open(game)
    with pytest.raises(AnswerError, match="1 to 9, or 0 for none"):
        plan_fix(table, 7, {"first.1.can.secure.council": "12"})
    asked: list[str] = []

    def ask(question: Any) -> Any:
        asked.append(question.id)
        return question.parse({} if question.kind == "names" else "0"
                              if question.what in (AFTER, "first") else question.default)
    entry = plan_fix(table, 7, {"first.1.can.secure.council": "1"}, ask=ask).entry
    corrected = next(a for a in entry["asked"] if a["id"] == "first.1.can.secure.council")
    assert corrected["said"] == {"can.secure.council": True}
    # red cannot Secure with its Administration card: the walk reads on, a run never logged
    assert asked == ["first.1.can.influence.council"]
