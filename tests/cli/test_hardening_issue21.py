"""Issue 21, hardening round two: each refusal names whybot's own limit, whichever parser
refuses first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import refused


@pytest.mark.parametrize("levels", [1_500, 5_000])
def test_nesting_past_libyaml_s_own_cap_is_whybot_s_depth_limit(run, tmp_path: Path, levels):
    # libyaml (PyYAML >= 6.0.4) stops at 1,000 levels with its own words; whybot reads the
    # text again with the pure-Python parser so that its `depth` limit decides, as set.
    path = tmp_path / "deep.yaml"
    path.write_text("[" * levels + "]" * levels, encoding="utf-8")
    line = refused(run("--limit", "depth=1200", "decide", path), "deep.yaml:1",
                   "depth = 1,200")
    assert "maximum nesting depth" not in line


def test_an_error_in_the_top_options_is_one_line_too(run):
    refused(run("--limit", "bogus=1", "packs"), "unknown limit 'bogus'")


def test_a_bug_is_one_line_and_exit_1_with_no_traceback(run, monkeypatch):
    from whybot.cli import cmd_decide

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(cmd_decide, "load_situation", broken)
    result = run("decide", Path(__file__).resolve().parents[2] / "facts" / "examples" / "arcs"
                 / "demo.yaml")
    assert result.exit_code == 1
    assert result.stderr.strip().startswith("internal error (a bug in whybot")
    assert "RuntimeError: boom" in result.stderr and "Traceback" not in result.output
