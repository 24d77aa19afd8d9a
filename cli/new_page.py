"""`whybot rules new TEMPLATE NAME`: the files of a new house page, from the pack's own skeleton.

A page template of the pack (`templates:` in pack.yaml) may say what a new page of its kind
starts as (`new:`: the page's name, title and source, a first rule in the seed's shape, and a
snapshot that rule decides, with its `expect:`), the words in braces filled with the name
given. The folder written holds the page file and the example; it lints, checks and decides
as it is, and nothing the user has is overwritten.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from whybot.engine import Pack, WhybotError, did_you_mean

NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def filled(value: Any, name: str) -> Any:
    """A skeleton value with {name} and {Name} written in."""
    if isinstance(value, str):
        return value.replace("{name}", name).replace("{Name}", name.replace("_", " ").title())
    if isinstance(value, list):
        return [filled(item, name) for item in value]
    if isinstance(value, dict):
        return {filled(k, name): filled(v, name) for k, v in value.items()}
    return value


def new_page(pack: Pack, template: str, name: str, folder: Path) -> tuple[Path, Path]:
    """Write the page file and its example snapshot into `folder` (made; it must not hold
    them already); their paths."""
    skeleton = _skeleton(pack, template)
    if not NAME.match(name):
        raise WhybotError(f"{name!r} is not a name for a page: lowercase letters, digits and _",
                          path="NAME", hint="for example: miser")
    spec = filled(skeleton, name)
    if spec["page"] in pack.pages:
        raise WhybotError(f"the pack already has a page {spec['page']!r}", path="NAME",
                          hint="choose another name")
    page = folder / f"{name}.yaml"
    example = folder / f"{name}_example.yaml"
    for path in (page, example):
        if path.exists():
            raise WhybotError("already exists: nothing was written", file=str(path),
                              hint="choose another --out folder or name")
    folder.mkdir(parents=True, exist_ok=True)
    header = (f"# A new page from the pack's {template!r} template (`whybot rules new`): the "
              "template\n# gives it what every such page says; this file holds its rules. Edit "
              "them, then\n# lint and check them, and decide the example with them.\n")
    body = {"pack": pack.name, "procedure": spec["page"],
            **{k: spec[k] for k in ("title", "source") if k in spec}, "rules": spec["rules"]}
    page.write_text(header + _dump(body), encoding="utf-8")
    example.write_text(_dump({"pack": pack.name, **spec["example"]}), encoding="utf-8")
    return page, example


def _skeleton(pack: Pack, template: str) -> dict[str, Any]:
    made = {n: t for n, t in pack.templates.items() if t.new}
    if template not in made:
        raise WhybotError(f"the pack {pack.name!r} has no template {template!r} to start a page "
                          "from", path="TEMPLATE",
                          hint=did_you_mean(template, set(made)) or
                          (f"its templates with a skeleton: {', '.join(sorted(made))}" if made
                           else "its pack.yaml declares none (templates: ... new:)"))
    skeleton = made[template].new
    assert skeleton is not None
    return skeleton


def _dump(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


__all__ = ["filled", "new_page"]
