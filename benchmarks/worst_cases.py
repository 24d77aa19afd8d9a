"""The costliest inputs within the documented limits (issue 21), each decided by the real CLI.

Each case is a house-rule folder and an Arcs snapshot written to a temporary folder, then
`whybot decide SNAPSHOT --rules DIR --seed 1` in a subprocess of its own; the table gives its
exit status, wall time and peak resident memory (the child's own rusage) beside the target:
every case decides, or is refused with exit 2 naming a limit, within 10 s and 1 GiB.

    python benchmarks/worst_cases.py [CASE ...] [--timeout 60] [--memory-gib 4]
    python benchmarks/worst_cases.py join2x447 --write DIR   # DIR/join2x447/: the inputs

A case past `--timeout` seconds is killed, one past `--memory-gib` of address space fails
(shown as such): a run on a shared machine stays polite even where the target is missed.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
WHYBOT = Path(sys.executable).with_name("whybot")
TARGET_SECONDS = 10.0
TARGET_MIB = 1024


@dataclass(frozen=True)
class Case:
    """`options` options on the table and one house-rule file of `rules` (each a rule dict)."""

    name: str
    says: str
    options: int
    derivation: bool
    rules: tuple[dict, ...]


def _joined(ways: int) -> str:
    """`ways` options pairwise different: every combination of them matches."""
    parts = ["exists option as o0 (gain >= 0)"]
    parts += [f"exists option as o{i} (target != o{i - 1}.target)" for i in range(1, ways)]
    return " and ".join(parts)


def alternatives(test: str, count: int) -> str:
    """A pair of different options, the second passing one of `count` alternatives (`test`
    with `{i}` for the alternative's number)."""
    either = " or ".join(test.format(i=i) for i in range(count))
    return (f"exists option as o0 (gain >= 0) and "
            f"exists option as o1 (target != o0.target and ({either}))")


def judge(rule_id: str, when: str) -> dict:
    return {"id": rule_id, "when": when, "then": {"judge": "o0.effective"}, "says": rule_id}


def stop(rule_id: str, when: str) -> dict:
    return {"id": rule_id, "when": when, "then": {"stop": "house"}, "says": rule_id}


_NEVER_PAIR = ("exists option as o0 (gain >= 0) and "
               "exists option as o1 (gain > o0.gain + 100)")

CASES = {case.name: case for case in (
    Case("join2x100", "derivation: a 2-way join, 100 × 100", 100, True,
         (judge("house.pairs", _joined(2)),)),
    Case("join2x447", "derivation: a 2-way join, 447 × 447 (199,809)", 447, True,
         (judge("house.pairs", _joined(2)),)),
    Case("page2x447", "decision: a 2-way join no pair satisfies, 447 × 447", 447, False,
         (stop("house.never", _NEVER_PAIR),)),
    Case("join3x58", "derivation: a 3-way join, 58 × 58 × 58 (195,112)", 58, True,
         (judge("house.triples", _joined(3)),)),
    Case("rules200x4990", "derivation: 200 rules without joins, 4,990 options", 4990, True,
         tuple(judge(f"house.r{i}", f"exists option as o0 (gain >= {i % 3})")
               for i in range(200))),
    Case("page200x4990", "decision: 200 rules without joins, 4,990 options", 4990, False,
         tuple(stop(f"house.r{i}", f"exists option as o0 (gain > {20 + i})")
               for i in range(200))),
    Case("join3x33", "derivation: a 3-way join just under the limit, 33 × 33 × 33", 33, True,
         (judge("house.triples", _joined(3)),)),
    Case("rules200x80", "derivation: 200 rules without joins just under the limit, 80 options",
         80, True, tuple(judge(f"house.r{i}", f"exists option as o0 (gain >= {i % 3})")
                         for i in range(200))),
    Case("page200x60", "decision: 200 rules without joins just under the limit, 60 options",
         60, False, tuple(stop(f"house.r{i}", f"exists option as o0 (gain > {20 + i})")
                          for i in range(200))),
    Case("rules8900", "decision: 8,900 house rules on one page, near the rules limit", 5,
         False, tuple(stop(f"house.b{i}", f"material == {100 + i}") for i in range(8_900))),
    Case("wide139x64", "decision: 139 rules of 64 alternatives each (8,896 compiled)", 5, False,
         tuple(stop(f"house.w{i}", f"power == {i} and ("
                    + " or ".join(f"material == {100 + j}" for j in range(64)) + ")")
               for i in range(139))),
    Case("or64join", "decision: 64 `or` alternatives inside a join, 2 options", 2, False,
         (stop("house.or64", alternatives("gain == {i}", 64)),)),
)}


def write(case: Case, folder: Path) -> tuple[Path, Path]:
    """The snapshot and the house-rule folder of a case."""
    snapshot = yaml.safe_load((ROOT / "facts/examples/arcs/demo.yaml").read_text())
    snapshot["options"] = [{"action": "tax", "ambition": "tycoon", "resource": "material",
                            "target": f"system {i}", "gain": i % 20}
                           for i in range(case.options)]
    rules = folder / "rules"
    rules.mkdir(parents=True)
    head = ({"procedure": "house.judgments", "kind": "derivation"} if case.derivation
            else {"procedure": "general_priorities", "salience": 10})
    page = {"pack": "arcs", **head, "source": "house rules", "rules": list(case.rules)}
    (rules / "house.yaml").write_text(yaml.safe_dump(page, sort_keys=False))
    path = folder / "snapshot.yaml"
    path.write_text(yaml.safe_dump(snapshot, sort_keys=False))
    return path, rules


def run(case: Case, timeout: float, memory_gib: float,
        ) -> tuple[str, float, float, float, str]:
    """(exit status or what stopped it, wall seconds, CPU seconds, peak MiB, the line that
    says the outcome)."""
    cap = int(memory_gib * 1024 ** 3)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    with tempfile.TemporaryDirectory() as work:
        snapshot, rules = write(case, Path(work))
        out = Path(work) / "output.txt"
        with out.open("w") as sink:
            start = time.perf_counter()
            child = subprocess.Popen([str(WHYBOT), "decide", str(snapshot), "--rules",
                                      str(rules), "--seed", "1"], stdout=sink,
                                     stderr=subprocess.STDOUT, preexec_fn=limit)
            status = "timeout"
            while True:  # wait4: this child's own peak memory, not the largest so far
                pid, code, usage = os.wait4(child.pid, os.WNOHANG)
                if pid:
                    status = str(os.waitstatus_to_exitcode(code))
                    break
                if time.perf_counter() - start > timeout:
                    child.send_signal(signal.SIGKILL)
                    _, _, usage = os.wait4(child.pid, 0)
                    break
                time.sleep(0.02)
            seconds = time.perf_counter() - start
            child.returncode = 0  # reaped above: Popen must not wait for it again
        lines = [line for line in out.read_text().splitlines() if line.strip()]
        last = next((line for line in lines if line.startswith(("error:", "result:"))),
                    lines[-1] if lines else "")
        last = last.replace(work, "TMP")[:110]
    return status, seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", choices=[[], *CASES], default=[],
                        help="cases to run (default: all)")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--memory-gib", type=float, default=4.0)
    parser.add_argument("--write", metavar="DIR", type=Path,
                        help="only write each case's snapshot and house rules into DIR/CASE "
                             "(to decide it yourself, as docs/limits.md does)")
    args = parser.parse_args()
    if args.write:
        for name in args.cases or CASES:
            write(CASES[name], args.write / name)
        return
    print(f"target: decided or refused (exit 2) within {TARGET_SECONDS:.0f} s and "
          f"{TARGET_MIB} MiB")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall time grows "
          "with it; CPU time much less)")
    print(f"{'case':<14} {'exit':>7} {'wall s':>7} {'CPU s':>6} {'peak MiB':>9}  met  what")
    for name in args.cases or CASES:
        case = CASES[name]
        status, seconds, cpu, peak, last = run(case, args.timeout, args.memory_gib)
        met = status in ("0", "2") and cpu <= TARGET_SECONDS and peak <= TARGET_MIB
        print(f"{name:<14} {status:>7} {seconds:>7.1f} {cpu:>6.1f} {peak:>9.0f}  "
              f"{'yes' if met else 'NO ':<3}  {case.says}\n{'':<14} {last}", flush=True)


if __name__ == "__main__":
    main()
