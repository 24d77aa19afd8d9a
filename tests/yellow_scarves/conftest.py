"""Yellow Scarves fixtures: the pack is compiled once per test session."""

from __future__ import annotations

import pytest

from tests.conftest import KNOWLEDGE, engine_for


@pytest.fixture(scope="session")
def ys():
    return engine_for(KNOWLEDGE, "yellow_scarves")
