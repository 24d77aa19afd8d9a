"""Issue 21's fuzz cases: broken game files (`games.py`) through `log`, `why --turn`, `undo`,
`play` (an answers file) and `serve`'s pages of a game.

For every case: exit 0 or 2 only, no traceback, short printable lines (`conftest.check_case`);
in `serve`, never a 500 and never a traceback on the page. The default run makes about 500
cases in about 7 s of CPU (making the seed game is half of it); `--fuzz-long` makes more.
"""

from __future__ import annotations

import random
import time
import warnings
from pathlib import Path

import pytest

from tests.play.conftest import ARCS_GAME

from .conftest import TALLY, check_case
from .games import FAMILIES, every_field, game_case, structural

GAME_CASES = 10  # per family, each through every command and two pages
PLAYED = [("1-chapter.yaml", ("--at", "chapter")), ("2-turn.yaml", ("--at", "turn")),
          ("3-turn.yaml", ("--at", "turn"))]  # past the round end the flow offers


@pytest.fixture(scope="module")
def game_seeds(cli, tmp_path_factory) -> list[bytes]:
    """Real game files: a new one, and one three turns in (the last stopped for a Battle, so
    something is pending)."""
    folder = tmp_path_factory.mktemp("game-seeds")
    game = folder / "game.yaml"
    assert cli("new", "arcs", game, "--seed", "11", "--answers",
               ARCS_GAME / "setup.yaml").exit_code == 0
    seeds = [game.read_bytes()]
    for answers, extra in PLAYED:
        assert cli("play", game, "--answers", ARCS_GAME / answers, *extra).exit_code == 0
    return [*seeds, game.read_bytes()]


@pytest.fixture(scope="session")
def served(tmp_path_factory):
    """`whybot serve`'s app on a folder of its own, and that folder."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from whybot.cli.web.app import create_app

    folder = tmp_path_factory.mktemp("served")
    return TestClient(create_app(folder), base_url="http://127.0.0.1"), folder


def _serve(client, folder: Path, name: str, text: bytes, turn: int, label: str) -> None:
    (folder / f"{name}.yaml").write_bytes(text)
    for url in (f"/g/{name}", f"/g/{name}/turns/{turn}"):
        start = time.perf_counter()
        page = client.get(url)
        TALLY.add("serve", page.status_code, time.perf_counter() - start,
                  f"{label} GET {url}")
        assert page.status_code in (200, 400, 404, 409), f"{label} {url}: {page.status_code}"
        assert "Traceback" not in page.text, f"{label} {url}: {page.text[-2000:]}"


def test_every_field_of_a_game_file_of_another_type_is_refused_or_read(cli, tmp_path,
                                                                       game_seeds):
    import yaml

    game = tmp_path / "game.yaml"
    for index, seed in enumerate(game_seeds):
        data = yaml.load(seed, Loader=yaml.CSafeLoader)
        for number, path in enumerate(structural(data)):
            game.write_bytes(every_field(data, path, random.Random(f"field-{index}/{number}")))
            check_case(cli, ["log", game], "log", f"game every-field {index}:{path}")


@pytest.mark.parametrize("family", FAMILIES)
def test_any_game_file_is_used_or_refused_in_one_line(cli, scale, tmp_path, game_seeds, served,
                                                     family):
    client, folder = served
    answers = tmp_path / "answers.yaml"
    answers.write_text("{}\n", encoding="utf-8")
    for number in range(GAME_CASES * scale):
        rng = random.Random(f"game-{family}/{number}")
        text = game_case(family, number, game_seeds, rng)
        label = f"game {family} #{number}"
        turn = rng.randint(1, 3)
        commands = [["log"], ["why", "--turn", turn], ["undo"], ["play", "--answers", answers]]
        for command in commands:
            game = tmp_path / f"{number}-{command[0]}.yaml"
            game.write_bytes(text)
            check_case(cli, [command[0], game, *command[1:]], command[0],
                       f"{label} {command[0]}")
        _serve(client, folder, f"{family}-{number}", text, turn, label)
