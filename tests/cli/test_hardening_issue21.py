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
