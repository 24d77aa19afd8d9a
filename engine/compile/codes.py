"""How values and names are spelled on durable_rules' facts: short codes for board values and
entity fields, numbers in the one spelling durable_rules and JSON agree on."""

from __future__ import annotations

from typing import Any


def board_code(name: str, codes: dict[str, str]) -> str:
    """The short name a board value goes by on the event and phase facts (`b40`): a phase fact
    holds every board value its band reads, and comes back in every firing of the band's
    rules (most of the JSON a derivation gets back). Numbered with the entity fields' codes,
    so no code is both."""
    return codes.setdefault("#board " + name, f"b{len(codes)}")


def field_code(name: str, codes: dict[str, str]) -> str:
    """The short name an entity field goes by in facts and patterns (`f12`, never one of the
    names whybot stamps on every fact): every byte of an entity fact is encoded, parsed and
    stored by the C core, and sent back in each firing that matched it, and most of those
    bytes were field names."""
    return codes.setdefault(name, f"f{len(codes)}")


def normal_number(value: Any) -> Any:
    """Integral floats as ints: durable_rules and JSON then agree on one spelling."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value
