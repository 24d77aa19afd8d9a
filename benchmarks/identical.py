"""Proof that a speed-up changed no decision: save every example's output, then compare.

    python benchmarks/identical.py save DIR      # on the branch before the change (or main)
    python benchmarks/identical.py compare DIR   # after it: every file byte for byte

What is saved: the batch rows of the benchmark's corpus (`whybot batch --seed 1 --json`, every
example once, through the command itself), and the full trace of every shipped example as
`whybot why --json` prints it, explain on and off, seeds 1 to 3 (decided in this process, the
way the command decides them, to keep the run short).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch import ROOT, WHYBOT, examples

from whybot.cli.common import load_situation, overlay_key
from whybot.engine import Reading, WhybotError

SEEDS = (1, 2, 3)


def outputs() -> dict[str, str]:
    """File name → text: the corpus rows, and one file of traces per example."""
    found: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as work:
        corpus, rows = Path(work) / "corpus.jsonl", Path(work) / "rows.jsonl"
        corpus.write_text("\n".join(examples()) + "\n", encoding="utf-8")
        subprocess.run([str(WHYBOT), "batch", str(corpus), "--out", str(rows), "--seed", "1",
                        "--json"], check=True, capture_output=True)
        found["rows.jsonl"] = rows.read_text(encoding="utf-8").replace(str(corpus),
                                                                       "corpus.jsonl")
    for path in sorted((ROOT / "facts" / "examples").rglob("*.yaml")):
        traces = []
        for seed in SEEDS:
            for explain in (True, False):
                try:
                    engine, situation = load_situation(path, None, overlay_key(None))
                    trace = engine.decide(situation, seed=seed, explain=explain,
                                          reading=Reading())
                    data = {**trace.as_dict(), "presentation": engine.pack.presentation}
                    traces.append(json.dumps(data, indent=2, ensure_ascii=False, default=str))
                except WhybotError as error:
                    traces.append(f"error: {error}")
        text = "\n".join(traces).replace(str(ROOT), "ROOT")  # the checkout's place aside
        found[str(path.relative_to(ROOT)).replace("/", "__") + ".txt"] = text
    return found


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[1] not in ("save", "compare"):
        sys.exit(__doc__)
    folder = Path(sys.argv[2])
    found = outputs()
    if sys.argv[1] == "save":
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in found.items():
            (folder / name).write_text(text, encoding="utf-8")
        print(f"saved {len(found)} files to {folder}")
        return
    saved = {p.name for p in folder.iterdir()}
    differ = sorted(name for name, text in found.items() if name not in saved
                    or (folder / name).read_text(encoding="utf-8") != text)
    missing = sorted(saved - set(found))
    print(f"{len(found) - len(differ)} of {len(found)} files identical"
          + (f"; differ: {', '.join(differ[:20])}" if differ else "")
          + (f"; missing: {', '.join(missing)}" if missing else ""))
    sys.exit(1 if differ or missing else 0)


if __name__ == "__main__":
    main()
