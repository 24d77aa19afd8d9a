"""A hand-edited game file is refused when it is read (issue 21, item 8): one line naming the
file, line and field path, exit 2 in `log`, `why --turn`, `undo` and `play`, a 409 page in
`serve` — and the file is left as it was. Also: `new` into a missing folder, `undo --turns`
beyond the log (items 13b, 13c)."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.conftest import refused
from whybot.cli.app import app

from .conftest import ARCS_GAME


def _cli(*args: str | Path):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, Any]:
    """A Magnate game of three turns, the last stopped for a Battle (so `pending` is set)."""
    game = tmp_path_factory.mktemp("played") / "game.yaml"
    assert _cli("new", "arcs", game, "--seed", "11", "--answers",
                ARCS_GAME / "setup.yaml").exit_code == 0
    for answers, extra in (("1-chapter.yaml", ("--at", "chapter")),
                           ("2-turn.yaml", ("--at", "turn")),
                           ("3-turn.yaml", ("--at", "turn"))):  # past the round end
        assert _cli("play", game, "--answers", ARCS_GAME / answers, *extra).exit_code == 0
    return yaml.safe_load(game.read_text(encoding="utf-8"))


def _set(data: dict[str, Any], path: tuple, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


# (what is edited, the value written there, the field path refused, key words of the message)
CASES = [
    (("log", 1, "changes", 0, "path"), "bots", "$.log[1].changes[0].path",
     "is not of type 'array'"),
    (("log", 1, "changes", 0, "path"), ["board", "x"], "$.log[1].changes[0].path",
     "a change's path is"),
    (("log", 1, "changes", 0, "path"), ["bots", "red", "hand_countr"],
     "$.log[1].changes[0].path[2]", "unknown fact 'hand_countr'"),
    (("log", 1, "changes", 0, "before"), "six", "$.log[1].changes[0].before", "'six'"),
    (("log", 1, "changes", 0), {"path": ["game", "act"]}, "$.log[1].changes[0]",
     "'after' is a required property"),
    (("log", 1, "decision"), "tax", "$.log[1].decision", "is not of type 'object'"),
    (("log", 1, "decision", "choices", "selected"), [1], "$.log[1].decision.choices.selected",
     "is not of type 'string'"),
    (("log", 1, "decision", "actions", 0), {"rule": "x"}, "$.log[1].decision.actions[0]",
     "'action' is a required property"),
    (("log", 2, "carried"), [], "$.log[2].carried", "is not of type 'object'"),
    (("log", 2, "carried", "before"), {"nonsense": 1}, "$.log[2].carried.before.nonsense",
     "unknown fact 'nonsense'"),
    (("pending", "red"), "fate", "$.pending.red", "is not of type 'object'"),
    (("pending", "blue"), {}, "$.pending.blue", "'blue' is not one of the bots"),
    (("pending", "red", "cards", 0, "suit"), 7, "$.pending.red.cards[0].suit", "7"),
    (("state", "entities", "game"), [], "$.state.entities.game", "is not of type 'object'"),
    (("state", "entities", "game", "ambitio"), {}, "$.state.entities.game.ambitio",
     "unknown entity kind 'ambitio'"),
    (("state", "entities", "game", "ambition", "empath", "declared"), "yes",
     "$.state.entities.game.ambition.empath.declared", "'yes' is not true or false"),
    (("state", "entities", "blue"), {}, "$.state.entities.blue", "neither `game` nor"),
    (("state", "board"), {}, "$.state", "unknown field"),
    (("log", 0, "asked", 0), "guild_cards", "$.log[0].asked[0]", "is not of type 'object'"),
    (("log", 0, "dice"), ["6"], "$.log[0].dice[0]", "is not of type 'integer'"),
    (("log", 0, "point"), {"at": 1}, "$.log[0].point", "is not of type"),
    (("rules",), ["nowhere"], "$.rules[0]", "no folder 'nowhere' of house rules"),
    (("pack",), "arc", "$.pack", "no knowledge pack named 'arc'"),
]
COMMANDS = [("log",), ("why", "--turn", "1"), ("undo",),
            ("play", "--answers", ARCS_GAME / "2-turn.yaml")]


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    game = tmp_path / "game.yaml"
    game.write_text(yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100),
                    encoding="utf-8")
    return game


@pytest.mark.parametrize(("where", "value", "path", "words"), CASES,
                         ids=[f"{c[2]}={c[1]!r}" for c in CASES])
def test_a_hand_edited_game_file_is_refused_with_file_line_and_path(played, tmp_path, where,
                                                                    value, path, words):
    game = _write(tmp_path, _set(played, where, value))
    text = game.read_bytes()
    for command in COMMANDS:
        line = refused(_cli(command[0], game, *command[1:]), words, f"({path})")
        assert re.search(r"game\.yaml:\d+ \(", line), line
        assert game.read_bytes() == text, command


def test_a_logged_snapshot_is_checked_when_its_turn_is_decided_again(played, tmp_path):
    game = _write(tmp_path, _set(played, ("log", 1, "snapshot", "material"), "lots"))
    line = refused(_cli("why", game, "--turn", "2"), "($.log[1].snapshot.material)", "'lots'")
    number = next(n for n, text in enumerate(game.read_text().splitlines(), 1)
                  if text.strip() == "material: lots")
    assert f"game.yaml:{number} " in line
    assert _cli("log", game).exit_code == 0  # the other turns stay readable


@pytest.mark.filterwarnings("ignore:Using `httpx`")
def test_serve_answers_a_hand_edited_game_file_with_a_one_line_409(played, tmp_path):
    from starlette.testclient import TestClient

    from whybot.cli.web.app import create_app

    folder = tmp_path / "games"
    folder.mkdir()
    _write(folder, _set(played, ("log", 1, "changes", 0, "path"), "bots"))
    client = TestClient(create_app(folder), base_url="http://127.0.0.1")
    for url in ("/g/game", "/g/game/turn", "/g/game/turns/1"):
        page = client.get(url)
        assert page.status_code == 409, (url, page.text[:300])
        assert "$.log[1].changes[0].path" in page.text
    _write(folder, _set(played, ("log", 1, "snapshot", "material"), "lots"))
    assert client.get("/g/game/turns/1").status_code == 200
    page = client.get("/g/game/turns/2")
    assert page.status_code == 409 and "$.log[1].snapshot.material" in page.text


def test_the_schema_is_valid_and_a_played_game_fits_it(played):
    import jsonschema

    from whybot.facts.play.game_schema import GAME_FILE_SCHEMA

    jsonschema.Draft202012Validator.check_schema(GAME_FILE_SCHEMA)
    jsonschema.validate(played, GAME_FILE_SCHEMA)


def test_new_into_a_missing_folder_is_refused_before_any_question(tmp_path):
    game = tmp_path / "nodir" / "g.yaml"
    refused(_cli("new", "arcs", game, "--answers", ARCS_GAME / "setup.yaml"),
            "g.yaml", "no folder", "nodir")
    assert not game.parent.exists()


def test_undo_beyond_the_log_is_refused_up_front_and_changes_nothing(played, tmp_path):
    game = _write(tmp_path, played)
    text = game.read_bytes()
    refused(_cli("undo", game, "--turns", "5"), "game.yaml (--turns)",
            "the game has only 3 turns", "nothing changed")
    assert game.read_bytes() == text
    assert _cli("undo", game, "--turns", "3").exit_code == 0
    refused(_cli("undo", game), "nothing to undo: the log is empty")
