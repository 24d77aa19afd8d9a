"""Write a pack's `sections.yaml` from a Markdown seed: every heading, nested titles joined by
" › ", with the line it starts on. `whybot rules coverage` reads the result; the seeds
themselves are not shipped. Usage: python scripts/sections.py SEED.md > knowledge/PACK/sections.yaml
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$")


def sections(text: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    trail: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _HEADING.match(line)
        if not match:
            continue
        level, title = len(match.group(1)), match.group(2)
        trail = [(lvl, t) for lvl, t in trail if lvl < level] + [(level, title)]
        found.append({"title": " › ".join(t for _, t in trail), "line": number})
    return found


def main() -> None:
    seed = Path(sys.argv[1])
    data = {"seed": seed.name, "sections": sections(seed.read_text(encoding="utf-8"))}
    sys.stdout.write(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100))


if __name__ == "__main__":
    main()
