"""SUPERCAT fixtures: one compiled engine per overlay set for the whole session."""

from __future__ import annotations

import pytest

from tests.conftest import KNOWLEDGE, engine_for

HOUSE = KNOWLEDGE / "examples" / "house"


@pytest.fixture(scope="session")
def arcs():
    return engine_for(KNOWLEDGE, "arcs")


@pytest.fixture(scope="session")
def arcs_house():
    return engine_for(KNOWLEDGE, "arcs", (HOUSE,))
