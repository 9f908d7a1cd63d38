"""Legality of cast (10.2.1–10.2.3, 11.2.2, glossary Caster) and of its targets (11.4, 13.6.2)."""

from __future__ import annotations

from engine_helpers import check, cited

FIELD = {"C3": "Warlord", "C2": "Knight", "Cm1": "Squire"}


def test_10_2_1_cast_by_a_front_line_soul_on_a_proactive_slot_of_enough_rank_is_legal():
    v = check({"cast": "Chains", "caster": "C2", "targets": ["B:C3"]}, A={"hand": ["Chains"], "field": FIELD},
              B={"field": {"C3": "Knight"}})
    assert v == []


def test_10_2_1_caster_must_stand_in_front_line():
    v = check({"cast": "Chains", "caster": "C3", "targets": ["B:C3"]}, A={"hand": ["Chains"], "field": FIELD},
              B={"field": {"C3": "Knight"}})
    assert any("line 2" in x.text and "Front Line" in x.text for x in v)
    assert "10.2.1" in cited(v)


def test_10_2_1_caster_slot_rank_at_least_the_events():
    v = check({"cast": "Wormhole", "caster": "Cm1", "targets": ["B:C3"], "discard": ["Chains"]},
              A={"hand": ["Wormhole", "Chains"], "field": FIELD}, B={"field": {"C3": "Knight"}})
    assert any("Wormhole is rank 2" in x.text and "rank-1 slot" in x.text for x in v)


def test_10_2_1_caster_on_a_proactive_slot():
    v = check({"cast": "Chains", "caster": "C2", "targets": ["B:C3"]},
              A={"hand": ["Chains"], "field": FIELD, "turns_taken": 2, "proactive": ["Cm1"]},
              B={"field": {"C3": "Knight"}})
    assert "glossary/escalation-spiral" in cited(v) and "10.2.1" in cited(v)


def test_10_2_1_cast_only_in_the_preparation_phase():
    v = check({"cast": "Chains", "caster": "C2", "targets": ["B:C3"]}, phase="combat",
              A={"hand": ["Chains"], "field": FIELD}, B={"field": {"C3": "Knight"}})
    assert "10.2.1" in cited(v)


def test_10_2_1_cast_only_from_the_hand():
    v = check({"cast": "Chains", "caster": "C2", "targets": ["B:C3"]}, A={"field": FIELD},
              B={"field": {"C3": "Knight"}})
    assert any("not in A's hand" in x.text for x in v)


def test_10_2_2_caster_requirement_names_which_souls_may_cast():
    v = check({"cast": "Dark Rite", "caster": "C2", "targets": ["B:C3"]},
              A={"hand": ["Dark Rite"], "field": FIELD},
              B={"field": {"C3": "Knight"}})
    assert "10.2.2" in cited(v) and "light, not dark" in v[0].text
    ok = check({"cast": "Dark Rite", "caster": "C2", "targets": ["B:C3"]},
               A={"hand": ["Dark Rite"], "field": {**FIELD, "C2": "Test Noah"}},
               B={"field": {"C3": "Knight"}})
    assert ok == []


def test_10_2_3_only_one_event_on_the_event_slot():
    from engine_helpers import base

    from judge.engine.driver import verbs
    from judge.engine.driver.scenario import load_scenario

    data = base(A={"hand": ["Chains"], "field": FIELD}, B={"field": {"C3": "Knight"}})
    data["state"]["event_slot"] = "Wormhole"
    state = load_scenario(data).state
    v = verbs.verify(state, verbs.action_of({"cast": "Chains", "caster": "C2", "targets": ["B:C3"]}))
    assert "10.2.3" in cited(v)


def test_10_2_1_without_a_caster_given_the_engine_needs_some_legal_caster():
    assert check({"cast": "Chains", "targets": ["B:C3"]}, A={"hand": ["Chains"], "field": FIELD},
                 B={"field": {"C3": "Knight"}}) == []
    v = check({"cast": "Wormhole", "targets": ["B:C3"]}, A={"hand": ["Wormhole"], "field": {"C3": "Warlord",
                                                                                           "Cm1": "Squire"}},
              B={"field": {"C3": "Knight"}})
    assert any("none of A's Souls may cast Wormhole" in x.text for x in v)


def test_13_6_2_unyielding_soul_cannot_be_targeted_by_an_opposing_event_of_its_rank_or_lower():
    # 13.6.3's example: Noah (rank 2) can't be targeted by Chrome Chains (rank 0) or Cyber-Wormhole (rank 2)
    for event, extra in (("Chains", {}), ("Wormhole", {"discard": ["Grunt"]})):
        v = check({"cast": event, "caster": "C2", "targets": ["B:C3"], **extra},
                  A={"hand": [event, "Grunt"], "field": FIELD}, B={"field": {"C3": "Test Noah"}})
        assert {"13.6.2"} <= cited(v), event


def test_13_6_3_a_higher_rank_source_reaches_an_unyielding_soul():
    from engine_helpers import CARDS, base

    from judge.engine.driver import verbs
    from judge.engine.driver.scenario import load_scenario

    data = base(A={"hand": ["Big Hole"], "field": {"C3": "Warlord"}}, B={"field": {"C3": "Test Noah"}})
    data["cards"] = CARDS + [{"name": "Big Hole", "type": "event", "rank": 3, "effects": [
        {"kind": "activated", "targets": [{"spot": "opposing", "naming": "front"}],
         "do": [{"return": "target"}]}]}]
    state = load_scenario(data).state
    assert verbs.verify(state, verbs.action_of({"cast": "Big Hole", "caster": "C3",
                                                      "targets": ["B:C3"]})) == []


def test_11_4_2_default_targets_are_front_line_souls_only():
    v = check({"cast": "Chains", "caster": "C2", "targets": ["B:C3"]}, A={"hand": ["Chains"], "field": FIELD},
              B={"field": {"C3": "Knight", "C2": "Knight"}})
    assert "11.4.2" in cited(v)
