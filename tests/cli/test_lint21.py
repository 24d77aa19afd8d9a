"""Issues 21 (items 7 and 14) and 23: `rules lint` warns about a page that acts without spending
actions (the house Fate `miser` turning the pack's page template down); the same Fate with only
its rules takes the template and decides right; a rule file that only disables rules is valid,
and lint reads each file of a pack once for all its variants."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "lint21"
MISER = FIXTURES / "miser"  # a house Fate with only its rules: the page template does the rest
UNTEMPLATED = FIXTURES / "untemplated"  # the same, turning the template down: nothing spent
MISER_TURN = FIXTURES / "miser_turn.yaml"
HOARDER = ROOT / "knowledge" / "examples" / "house" / "hoarder.yaml"
DEMO = ROOT / "facts" / "examples" / "arcs" / "demo.yaml"


# the pack alone, then under each variant it ships
LINTED = 1 + sum(1 for p in (ROOT / "knowledge" / "arcs" / "variants").iterdir() if p.is_dir())


def _counts(run) -> tuple[int, int]:
    """The pack's own rules and files, as lint counts them (so a new rule elsewhere in the
    pack changes no assertion here)."""
    first = _lint(run)[1].splitlines()[0]
    match = re.match(r"arcs: (\d+) rules in (\d+) files", first)
    assert match, first
    return int(match[1]), int(match[2])


def _lint(run, *rules: Path) -> tuple[int, str]:
    args = [a for folder in rules for a in ("--rules", folder)]
    result = run("rules", "lint", "--pack", "arcs", *args)
    return result.exit_code, result.stdout


def test_a_house_fate_turning_the_page_template_down_is_warned_about_with_its_line(run):
    code, out = _lint(run, UNTEMPLATED)
    assert code == 0, out
    warnings = [line for line in out.splitlines() if "fate.miser.act1" in line]
    assert len(warnings) == LINTED  # the pack alone and under each of its variants
    line = warnings[0]
    assert line.startswith("warning: ") and ("untemplated/miser.yaml:11: page "
                                             "'fate.miser.act1' takes actions (rule "
                                             "'miser.act1.tax') but has no repeat_while or "
                                             "after_action, unlike all 23 other pages "
                                             "'fate.{fate}.act{act}' can lead to") in line
    assert "an action there uses nothing up" in line
    assert "did you mean to take the pack's page template 'fate' (leave out `template: " \
           "none`), which gives its repeat_while and after_action?" in line


def test_the_warned_fate_decides_wrongly_and_the_template_puts_it_right(run):
    """What the warning is about: without the budget, the Fate's Tax spends nothing, so the
    suit page Taxes the same city again and still has every action to spend. The same Fate
    with only its rules takes the pack's page template (issue 23: nothing is left to copy)."""
    wrong = json.loads(run("decide", MISER_TURN, "--rules", UNTEMPLATED, "--seed", "1",
                           "--json").stdout)["decision"]
    targets = [a["target"]["target"] for a in wrong["actions"]]
    assert targets[:2] == ["Blue city on Hexy 3", "Blue city on Hexy 3"]
    assert "Spend the 4 remaining action(s) on the administration page." in wrong["say"]
    code, out = _lint(run, MISER)
    assert code == 0 and "warning:" not in out, out
    right = json.loads(run("decide", MISER_TURN, "--rules", MISER, "--seed", "1", "--json")
                       .stdout)["decision"]
    targets = [a["target"]["target"] for a in right["actions"]]
    assert len(targets) == len(set(targets)), targets
    assert "Spend the 4 remaining action(s) on the administration page." not in right["say"]


def test_the_shipped_house_fate_and_packs_are_not_warned_about(run):
    code, out = _lint(run, HOARDER.parent)
    assert code == 0 and "warning:" not in out, out
    every = run("rules", "lint")
    assert every.exit_code == 0 and "warning:" not in every.stdout, every.stdout


def test_a_page_read_again_after_an_action_with_nothing_spent_is_warned_about(run, tmp_path):
    (tmp_path / "loop.yaml").write_text("""\
pack: arcs
procedure: fate.looper.act1
salience: 10
template: none
repeat_while: actions_left > 0
rules:
  - id: looper.act1.tax
    when: can.tax.any
    then: {select: {from: play, as: selected}, action: tax}
""", encoding="utf-8")
    code, out = _lint(run, tmp_path)
    assert code == 0, out
    assert ("loop.yaml:7: page 'fate.looper.act1' is read again after an action while "
            "'actions_left > 0' holds, but has no after_action and no rule of it sets what "
            "that reads: the same rule can act again and again (did you mean to add an "
            "after_action saying what one action uses up?)") in out
    assert "but has no after_action, unlike all 23 other pages" in out


DISABLE_ONLY = """\
pack: arcs
procedure: administration
disable:
  - {id: admin.tax-contend-declared, reason: "house: no Tax to contend"}
"""


@pytest.mark.parametrize("extra", ["", "rules: []\n"])
def test_a_file_that_only_disables_rules_is_valid_and_decides_without_them(run, tmp_path,
                                                                           extra):
    (tmp_path / "no_tax.yaml").write_text(DISABLE_ONLY + extra, encoding="utf-8")
    code, out = _lint(run, tmp_path)
    assert code == 0, out
    rules, files = _counts(run)  # one file more, one rule fewer
    assert f"arcs: {rules - 1} rules in {files + 1} files: no errors, 0 warning(s)" in out
    decided = run("decide", DEMO, "--seed", "7", "--rules", tmp_path, "--json")
    assert decided.exit_code == 0, decided.output
    fired = [a["rule"] for a in json.loads(decided.stdout)["decision"]["actions"]]
    assert fired == ["admin.tax-resources"]
    verdict = run("why", DEMO, "--seed", "7", "--rules", tmp_path, "--rule",
                  "admin.tax-contend-declared")
    assert verdict.exit_code == 0, verdict.output
    assert "disabled by a house rule: house: no Tax to" in verdict.stdout


def test_a_rule_file_with_neither_rules_nor_disable_is_still_refused(run, tmp_path):
    (tmp_path / "empty.yaml").write_text("pack: arcs\nprocedure: administration\n")
    code, out = _lint(run, tmp_path)
    assert code == 2
    assert "empty.yaml:1 ($): 'rules' is a required property" in out


def test_lint_reads_each_file_once_for_the_pack_and_its_variants(monkeypatch):
    """The speed fix of item 7, held by a count, not a clock: a pack and its variants read
    each of the pack's files once, and parse its rules once."""
    from whybot.cli import cmd_rules
    from whybot.engine.load import loaded_files

    calls: list[str] = []
    real = loaded_files.read_document

    def counted(path, *args, **kwargs):
        calls.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(loaded_files, "read_document", counted)
    cmd_rules.rules_lint(pack="arcs", rules=None, json_out=True)
    assert calls and len(calls) == len(set(calls))
    pages = ROOT / "knowledge" / "arcs" / "pages"
    assert str(pages / "administration.yaml") in calls


def test_lint_output_is_unchanged_by_reading_once(run, tmp_path):
    """A broken file still fails the pack and every variant, each with its line."""
    shutil.copytree(MISER, tmp_path / "house")
    (tmp_path / "house" / "bad.yaml").write_text(
        "pack: arcs\nprocedure: administration\nrules:\n  - {id: x, when: 'nope > 1', "
        "then: {say: hi}}\n", encoding="utf-8")
    code, out = _lint(run, tmp_path / "house")
    assert code == 2
    assert out.count("bad.yaml:4 (rule x): when: unknown name 'nope'") == LINTED
    assert "arcs (variant draft-001): 1 error(s)" in out


def _pairwise(ordered, repeats: bool) -> list[tuple[str, str]]:
    """'Can never fire' as it was checked before it was indexed: every later rule against
    every earlier one (the reference the indexed check must agree with)."""
    from whybot.engine.compile.rulesets import rule_condition
    from whybot.engine.language.expressions import All
    from whybot.engine.load.lint import always, reads_on

    def implies(later, earlier) -> bool:
        if always(earlier) or later == earlier:
            return True
        if not isinstance(later, All):
            return False
        parts = set(later.items)
        return earlier in parts or (isinstance(earlier, All) and set(earlier.items) <= parts)

    found = []
    for index, later in enumerate(ordered):
        for start in range(index):
            if implies(rule_condition(later), rule_condition(ordered[start])) and not any(
                    reads_on(r) or (repeats and r.then.action is not None)
                    for r in ordered[start:index]):
                found.append((later.id, ordered[start].id))
                break
    return found


def test_the_indexed_never_fire_check_agrees_with_every_pair_compared():
    import random
    from types import SimpleNamespace

    from whybot.engine.language.parser import parse
    from whybot.engine.load.lint import unreachable

    conditions = [parse(text) for text in ("a", "b", "c", "a and b", "b and a", "a and b and c",
                                           "a and c", "true", "x > 1", "a or b", "b and c")]
    rng = random.Random(21)
    compared = 0
    for _ in range(2000):
        ordered = [SimpleNamespace(
            id=f"r{i}", when=rng.choice(conditions), file="f.yaml", line=i, where=f"f.yaml:{i}",
            then=SimpleNamespace(stop=rng.choice([None, None, "end"]), goto=None, call=None,
                                 reads_on=rng.random() < 0.2, choices=[],
                                 action=rng.choice([None, "act"])))
            for i in range(rng.randint(1, 12))]
        repeats = rng.random() < 0.5
        found = [(w.message.split("'")[1], w.message.split("'")[3])
                 for w in unreachable(ordered, repeats)]
        assert found == _pairwise(ordered, repeats)
        compared += len(found)
    assert compared > 1000
