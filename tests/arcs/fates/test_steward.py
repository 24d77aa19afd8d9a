"""Steward: how its page changes the other pages' reading of Council Intrigue (§ Vox Cards:
Council Intrigue — Check Fate to determine whether effective; readings R35)."""

from __future__ import annotations

from tests.arcs.fates.helpers import derive, named

INTRIGUE = "options: [{action: secure, court_card: vox, vox: council_intrigue, target: CI}]\n"


def test_council_intrigue_is_effective_for_a_steward_who_seeks_it(arcs):
    seeking = derive(arcs, "fate: steward\nfirst_regent: false\nimperial_council: decided\n"
                     + INTRIGUE)
    assert named(seeking, "option", "target", "CI")["effective"] is True
    assert seeking.values["can.secure.vox_council"]  # [4,5] and General Priorities' 1.5 see it
    regent = derive(arcs, "fate: steward\nfirst_regent: true\nimperial_council: decided\n"
                    + INTRIGUE)
    assert named(regent, "option", "target", "CI")["effective"] is False
    other = derive(arcs, "fate: magnate\nfirst_regent: false\nimperial_council: decided\n"
                   + INTRIGUE)
    assert named(other, "option", "target", "CI")["effective"] is False
