"""What a decision point's rules can read before its walk (`walk/can_read.py`): the leaves of
every rule of the pages the walk can reach, an observation not given yet leading anywhere its
values may, in the order the links lead to the pages."""

from __future__ import annotations

import pytest

from tests.conftest import TOY_PACKS, engine_for
from whybot.engine import KIND, NAME, can_read


@pytest.fixture(scope="module")
def reach():
    return engine_for(TOY_PACKS, "reach")


def test_a_given_observation_reads_only_the_page_it_leads_to(reach):
    assert can_read(reach, {"mode": "north"}) == [(NAME, "mode"), (NAME, "wind")]
    # the south page reads `stormy`: what its derivation reads, through `windy` too
    assert can_read(reach, {"mode": "south"}) == [(NAME, "mode"), (NAME, "wind"),
                                                  (NAME, "rain")]


def test_an_observation_not_given_yet_leads_to_every_page_it_may(reach):
    graph = reach.walk_subset.graph
    assert graph.reachable({}) == {"start", "north", "south", "sky"}
    assert graph.reachable({"mode": "sky"}) == {"start", "sky"}
    # the pages as the links lead to them: start's links in their order, the template last
    assert graph.in_order(graph.reachable({})) == ["start", "north", "south", "sky"]
    assert can_read(reach, {}) == [(NAME, "mode"), (NAME, "wind"), (NAME, "rain"),
                                   (KIND, "cloud")]
