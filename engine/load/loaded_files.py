"""The rule files one command reads, each read and checked against the schema once.

`rules lint` loads a pack once alone and once under each variant it ships: the pack's own files
are the same every time, so their text, parse and schema check (most of a load) are kept here
and shared; so are the rules parsed from them (`rule_file.parse_rules`, copied for each load, since
laying an overlay moves rules). One LoadedFiles lives for one command, over files it does not
change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RuleFileError
from .schema import RULE_FILE_SCHEMA
from .sources import Document, read_document
from .validation import iter_problems


@dataclass
class LoadedFiles:
    """Documents by path, their schema problems, and anything built from them by a key."""

    documents: dict[Path, Document | RuleFileError] = field(default_factory=dict)
    problems: dict[Path, list[RuleFileError]] = field(default_factory=dict)
    built: dict[Any, Any] = field(default_factory=dict)

    def document(self, path: Path) -> Document:
        """The file read and parsed (a file that cannot be read raises the same error again)."""
        if path not in self.documents:
            try:
                self.documents[path] = read_document(path, RuleFileError)
            except RuleFileError as exc:
                self.documents[path] = exc
        found = self.documents[path]
        if isinstance(found, RuleFileError):
            raise found
        return found

    def schema_problems(self, path: Path) -> list[RuleFileError]:
        """Every way the file breaks the rule-file schema (none: it is valid)."""
        if path not in self.problems:
            self.problems[path] = list(iter_problems(self.document(path), RULE_FILE_SCHEMA,
                                                     RuleFileError))
        return self.problems[path]

    def validate(self, path: Path) -> Document:
        """The file, valid, or its first schema problem raised."""
        for problem in self.schema_problems(path):
            raise problem
        return self.document(path)

    def build(self, key: Any, make: Callable[[], Any]) -> Any:
        """`make()` once per key (what it builds must not be changed by its users)."""
        if key not in self.built:
            self.built[key] = make()
        return self.built[key]
