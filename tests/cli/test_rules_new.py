"""Issue 23: `whybot rules new fate NAME --pack arcs` writes a house Fate that lints, checks and
decides.

The skeleton comes from the pack (the `fate` template's `new:`); the expected decision is its
example's own `expect:` (a poor bot Taxes first: § General Priorities reads the Fate page).
"""

from __future__ import annotations

import json

import yaml


def test_a_new_fate_lints_clean_and_decides_its_example(run, tmp_path):
    result = run("rules", "new", "fate", "miser", "--pack", "arcs", "--out", tmp_path / "m")
    assert result.exit_code == 0, result.output
    page, example = tmp_path / "m" / "miser.yaml", tmp_path / "m" / "miser_example.yaml"
    assert f"wrote {page} and {example}" in result.stdout
    data = yaml.safe_load(page.read_text(encoding="utf-8"))
    assert data["procedure"] == "fate.miser.act1" and "repeat_while" not in data
    lint = run("rules", "lint", "--pack", "arcs", "--rules", tmp_path / "m")
    assert lint.exit_code == 0 and "warning:" not in lint.stdout, lint.stdout
    assert "no errors, 0 warning(s)" in lint.stdout
    check = run("rules", "check", "--pack", "arcs", "--rules", tmp_path / "m")
    assert check.exit_code == 0, check.stdout  # every finding excused: none is the new page's
    assert "0 never applies, 0 never fires, 0 never reached" in check.stdout
    expect = yaml.safe_load(example.read_text(encoding="utf-8"))["expect"]
    decided = run("decide", example, "--rules", tmp_path / "m", "--seed", str(expect["seed"]),
                  "--json")
    decision = json.loads(decided.stdout)["decision"]
    assert decision["result"] == expect["result"]
    assert [{"action": a["action"], "rule": a["rule"]} for a in decision["actions"]] == \
        expect["actions"]


def test_nothing_is_overwritten_and_mistakes_are_one_line(run, tmp_path):
    assert run("rules", "new", "fate", "miser", "--pack", "arcs", "--out",
               tmp_path).exit_code == 0
    before = (tmp_path / "miser.yaml").read_text(encoding="utf-8")
    again = run("rules", "new", "fate", "miser", "--pack", "arcs", "--out", tmp_path)
    assert again.exit_code == 2 and "already exists: nothing was written" in again.stderr
    assert (tmp_path / "miser.yaml").read_text(encoding="utf-8") == before
    taken = run("rules", "new", "fate", "steward", "--pack", "arcs", "--out", tmp_path / "s")
    assert taken.exit_code == 2 and "already has a page 'fate.steward.act1'" in taken.stderr
    typo = run("rules", "new", "fates", "x", "--pack", "arcs", "--out", tmp_path / "x")
    assert typo.exit_code == 2 and "no template 'fates'" in typo.stderr
    assert "did you mean 'fate'?" in typo.stderr
    bad = run("rules", "new", "fate", "Miser Fate", "--pack", "arcs", "--out", tmp_path / "b")
    assert bad.exit_code == 2 and "not a name for a page" in bad.stderr
    for result in (again, taken, typo, bad):
        assert "Traceback" not in result.output
