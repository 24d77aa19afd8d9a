"""Sparta vs Athens fixtures: the pack is compiled once per test session."""

from __future__ import annotations

import pytest

from tests.conftest import KNOWLEDGE, engine_for


@pytest.fixture(scope="session")
def sa():
    return engine_for(KNOWLEDGE, "sparta_athens")
