"""The README and docs/ stay true: every sample output is what the command prints now, and
every relative link leads to a file (and a heading) that exists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)


@pytest.mark.parametrize("page", [str(page.relative_to(ROOT)) for page in PAGES])
def test_every_sample_in_the_readme_and_docs_is_what_the_commands_print(page):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "readme_samples.py"),
                           "--check", page], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_readme_is_read_in_ten_minutes():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) < 250


def _anchors(page: Path) -> set[str]:
    """GitHub's ids for a page's headings: lower case, punctuation dropped, spaces to '-'."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    headings = re.findall(r"^#{1,6}\s+(.+?)\s*$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def _links() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        text = FENCE.sub("", page.read_text(encoding="utf-8"))
        found += [(str(page.relative_to(ROOT)), target) for target in LINK.findall(text)
                  if not re.match(r"[a-z]+:", target)]
    return found


@pytest.mark.parametrize(("page", "target"), _links())
def test_every_relative_link_leads_somewhere(page, target):
    path, _, anchor = target.partition("#")
    source = ROOT / page
    goal = (source.parent / path).resolve() if path else source
    assert goal.exists(), f"{page}: the link {target} leads to no file"
    assert goal.is_relative_to(ROOT), f"{page}: the link {target} leaves the repository"
    if anchor:
        assert goal.suffix == ".md", f"{page}: {target}: an anchor into a page that is not Markdown"
        assert anchor in _anchors(goal), f"{page}: {target}: no such heading in {path or page}"


def test_the_link_check_reads_links_of_every_kind():
    kinds = {target.split("#")[0].rsplit(".", 1)[-1] for _, target in _links()}
    assert {"md", "png", "yaml"} <= kinds
