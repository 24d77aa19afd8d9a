"""At the table: how long `whybot play` takes to its first question, and `log`, `undo`, `redo`.

Each figure runs the `whybot` command itself on a real game file — the Arcs game of
`tests/play/steward_game` (two bots, normal difficulty), started with `whybot new` and played
to its last round end from its answers files, in the order of its plan — in a new process
each time, as a player does. `play` is timed to its first question: with nothing to
answer on standard input it stops there (exit 2, "no answer to ..."), having done every step a
terminal session does before it asks. Printed: the median of the repeats, in wall-clock and in
the CPU time of the command itself (its children's rusage), next to issue 20's target (0.5 s).
The compiled pack is on disk first (one untimed run), as it is after `make demo`.

    python benchmarks/play.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
WHYBOT = Path(sys.executable).parent / "whybot"
ANSWERS = ROOT / "tests" / "play" / "steward_game"
PLAN = yaml.safe_load((ANSWERS / "plan.yaml").read_text(encoding="utf-8"))
TURNS = [step["answers"] for step in PLAN["steps"]][:-1]  # the last: the chapter ends
TARGET = 0.5


def whybot(*args: str | Path, expect: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """Run `whybot ARGS` once; its wall-clock and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([str(WHYBOT), *map(str, args)], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in expect:
        sys.exit(f"whybot {' '.join(map(str, args))} exited {done.returncode}: "
                 f"{done.stderr.strip()[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def played_game(folder: Path) -> Path:
    """The Arcs game with every decision but the last logged."""
    game = folder / "game.yaml"
    whybot("new", "arcs", game, "--seed", str(PLAN["game"]["seed"]), "--answers",
           ANSWERS / PLAN["game"]["setup"])
    for answers in TURNS:
        whybot("play", game, "--answers", ANSWERS / answers)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs of each command")
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as tmp:
        game = played_game(Path(tmp))
        whybot("play", game, expect=(2,))  # the compiled pack on disk, as after `make demo`
        runs: dict[str, list[tuple[float, float]]] = {
            "play, to its first question": [whybot("play", game, expect=(2,))
                                            for _ in range(repeat)],
            "log": [whybot("log", game) for _ in range(repeat)]}
        undo, redo = [], []
        for _ in range(repeat):
            undo.append(whybot("undo", game))
            redo.append(whybot("redo", game))
        runs["undo"], runs["redo"] = undo, redo
    print(f"whybot at the table: an Arcs game of {len(TURNS)} decisions, median of {repeat} "
          f"runs, each a new process")
    print(f"{'command':<30}{'wall s':>9}{'CPU s':>9}{'target':>9}  met")
    for name, times in runs.items():
        wall = statistics.median(w for w, _ in times)
        cpu = statistics.median(c for _, c in times)
        print(f"{name:<30}{wall:>9.3f}{cpu:>9.3f}{'< ' + str(TARGET):>9}  "
              f"{'yes' if cpu < TARGET else 'NO'} (CPU)")


if __name__ == "__main__":
    main()
