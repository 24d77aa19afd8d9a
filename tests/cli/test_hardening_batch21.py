"""Issue 21, hardening round two, `whybot batch`: the same rows on a cluster (a snapshot's
`variant:`), output that never replaces a special file or an input, --resume that notices an
edited input, a scheduler that never answers, and an --out name too long for its `.partial`.

Every refusal is one line naming the file or option, exit 2, no traceback.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
import yaml

from tests.conftest import refused

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "facts" / "examples"
DEMO = EXAMPLES / "arcs" / "demo.yaml"
DEMO_DATA = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
VARIANTS = EXAMPLES / "arcs" / "variants"


def demo_line(**changes) -> str:
    return json.dumps({**DEMO_DATA, **changes}, ensure_ascii=False)


# --- item 1: a snapshot's `variant:` on a cluster ---------------------------------------------


@pytest.fixture(scope="module")
def scheduler():
    """The address of a running two-worker LocalCluster."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as cluster:
        yield cluster.scheduler_address


def variant_lines(tmp_path: Path) -> Path:
    """A variant example as one JSON line, and the refusals a `variant:` can meet: a name the
    pack does not ship, and a variant set by an included file (the snapshot's own wins)."""
    example = yaml.safe_load((VARIANTS / "draft_000_bot_round_passes.yaml").read_text())
    (tmp_path / "shared.yaml").write_text(yaml.safe_dump({"variant": "draft-001"}))
    without = {k: v for k, v in DEMO_DATA.items() if k != "variant"}
    lines = tmp_path / "lines.jsonl"
    lines.write_text("\n".join([
        json.dumps(example), demo_line(variant="draft-999"), demo_line(variant="draft-0001"),
        json.dumps({**without, "include": "shared.yaml"}),
        json.dumps({**example, "include": "shared.yaml"}),
    ]) + "\n")
    return lines


def both(run, tmp_path: Path, address: str, *args: str | Path) -> tuple[bytes, bytes]:
    """The rows of one batch decided here and on the cluster."""
    rows = []
    for name, where in (("here", ()), ("there", ("--cluster", address))):
        out = tmp_path / f"{name}.jsonl"
        result = run("batch", *args, "--out", out, *where)
        assert result.exit_code == 0, result.output
        rows.append(out.read_bytes())
    return rows[0], rows[1]


def test_every_example_of_every_pack_and_variant_gives_the_same_bytes_on_a_cluster(
        run, tmp_path, scheduler):
    here, there = both(run, tmp_path, scheduler, EXAMPLES, variant_lines(tmp_path))
    assert here == there
    rows = [json.loads(line) for line in here.splitlines()]
    assert len(rows) == len(list(EXAMPLES.rglob("*.yaml"))) + 5
    assert all(r["ok"] for r in rows if "/variants/" in r["snapshot"])
    errors = [r["error"] for r in rows if r["snapshot"].endswith(("lines.jsonl:2",
                                                                    "lines.jsonl:3"))]
    assert "no variant 'draft-999' of pack 'arcs'" in errors[0]
    assert "draft-000" in errors[1]  # did you mean


def test_a_variant_another_than_the_runs_is_refused_alike_on_a_cluster(run, tmp_path,
                                                                      scheduler):
    here, there = both(run, tmp_path, scheduler, VARIANTS, variant_lines(tmp_path),
                       "--pack", "arcs", "--variant", "draft-001")
    assert here == there
    assert b"this run lays variant 'draft-001' over every snapshot" in here
