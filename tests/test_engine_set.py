"""Legality of set (10.4.1, 10.4.2, glossary Emplacement Phase, Setter)."""

from __future__ import annotations

from engine_helpers import check, cited


def test_10_4_1_set_at_an_active_soul_on_a_proactive_slot_of_enough_rank_in_emplacement():
    assert check({"set": "Snare", "at": "C3"}, phase="emplacement",
                 A={"hand": ["Snare"], "field": {"C3": "Warlord"}}) == []


def test_10_4_1_only_in_the_emplacement_phase():
    v = check({"set": "Snare", "at": "C3"}, A={"hand": ["Snare"], "field": {"C3": "Warlord"}})
    assert "10.4.1" in cited(v) and "Emplacement" in v[0].text


def test_10_4_1_setter_slot_rank_at_least_the_ambushs():
    v = check({"set": "Counter Snare", "at": "Cm1"}, phase="emplacement",
              A={"hand": ["Counter Snare"], "field": {"Cm1": "Squire"}})
    assert "10.4.1" in cited(v) and "rank-1 slot" in v[0].text


def test_10_4_1_setter_on_a_proactive_slot():
    v = check({"set": "Snare", "at": "C3"}, phase="emplacement",
              A={"hand": ["Snare"], "field": {"C3": "Warlord"}, "turns_taken": 3, "proactive": ["C2"]})
    assert "glossary/escalation-spiral" in cited(v)


def test_10_4_2_each_soul_controls_only_one_set_ambush():
    v = check({"set": "Snare", "at": "C3"}, phase="emplacement",
              A={"hand": ["Snare"], "field": {"C3": {"card": "Warlord", "ambushes": ["Counter Snare"]}}})
    assert "10.4.2" in cited(v)


def test_10_4_4_a_new_soul_may_set_its_own_where_an_old_ambush_lies():
    field = {"C3": {"card": "Warlord", "ambushes": [{"card": "Counter Snare", "setter": "gone"}]}}
    assert check({"set": "Snare", "at": "C3"}, phase="emplacement",
                 A={"hand": ["Snare"], "field": field}) == []
