"""Legality of equip (10.3.1, 10.3.2, glossary Equip, Armament)."""

from __future__ import annotations

from engine_helpers import check, cited


def test_10_3_1_equip_to_an_active_soul_on_a_proactive_slot_of_enough_rank_need_not_be_front_line():
    # the altar holds the Leader behind C3: not in the Front Line, still a legal Wielder
    assert check({"equip": "Iron Blade", "to": "altar"},
                 A={"hand": ["Iron Blade"], "field": {"C3": "Warlord"}}) == []


def test_10_3_1_wielder_slot_rank_at_least_the_armaments():
    v = check({"equip": "Great Shield", "to": "Cm1"},
              A={"hand": ["Great Shield"], "field": {"Cm1": "Squire"}})
    assert "10.3.1" in cited(v) and "rank-1 slot" in v[0].text


def test_10_3_1_wielder_on_a_proactive_slot():
    v = check({"equip": "Iron Blade", "to": "Cm1"},
              A={"hand": ["Iron Blade"], "field": {"C3": "Warlord", "Cm1": "Squire"}, "turns_taken": 1,
                 "proactive": ["L0"]})
    assert "glossary/escalation-spiral" in cited(v)


def test_10_3_1_only_in_the_preparation_phase():
    v = check({"equip": "Iron Blade", "to": "altar"}, phase="emplacement", A={"hand": ["Iron Blade"]})
    assert "10.3.1" in cited(v)


def test_10_3_1_to_an_active_soul_not_a_captured_one():
    v = check({"equip": "Iron Blade", "to": "C3"},
              A={"hand": ["Iron Blade"], "field": {"C3": {"card": "Warlord", "captured": True}}})
    assert "glossary/active" in cited(v)


def test_10_3_1_to_one_of_your_own_souls():
    v = check({"equip": "Iron Blade", "to": "B:C3"}, A={"hand": ["Iron Blade"]},
              B={"field": {"C3": "Warlord"}})
    assert any("not one of A's Souls" in x.text for x in v)


def test_10_3_2_a_soul_carries_at_most_one_armament():
    v = check({"equip": "Iron Blade", "to": "C3"},
              A={"hand": ["Iron Blade"], "field": {"C3": {"card": "Warlord", "armament": "Great Shield"}}})
    assert "10.3.2" in cited(v)
