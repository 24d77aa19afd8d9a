"""A document checked against a JSON Schema: the first problem (`validate`, for deciding) or
all of them (`iter_problems`, for `rules lint`), each as one line naming file, line and field
path (the jsonschema convention). Validators are built once per schema."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from ..errors import WhybotError
from .sources import Document, json_path

_Error = TypeVar("_Error", bound=WhybotError)


_VALIDATORS: dict[int, tuple[dict[str, Any], Any]] = {}


def _validator(schema: dict[str, Any]) -> Any:
    """One validator per schema (a module's constant), built when first used."""
    import jsonschema

    found = _VALIDATORS.get(id(schema))
    if found is None or found[0] is not schema:
        found = _VALIDATORS[id(schema)] = schema, jsonschema.Draft202012Validator(schema)
    return found[1]


def validate(document: Document, schema: dict[str, Any], error: type[WhybotError]) -> None:
    """Raise the first schema violation as one line naming file, line and field path."""
    for problem in iter_problems(document, schema, error):
        raise problem


def iter_problems(document: Document, schema: dict[str, Any], error: type[_Error],
                  ) -> Iterator[_Error]:
    found = sorted(_validator(schema).iter_errors(document.data),
                   key=lambda e: list(map(str, e.path)))
    for problem in found:
        path = tuple(problem.absolute_path)
        yield error(_message(problem), file=document.file, line=document.line(path),
                    path=json_path(path))


def _message(problem: Any) -> str:
    if problem.validator == "additionalProperties":
        return problem.message.replace("Additional properties are not allowed", "unknown field")
    if problem.validator == "oneOf" and problem.context:
        return min(problem.context, key=lambda e: len(e.message)).message
    return problem.message
