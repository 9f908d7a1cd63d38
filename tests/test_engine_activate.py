"""Legality of activate (11.1.2, 11.3.1, 11.7.1, 10.5.2, 13.5.2, glossary Activated Effect) and use
(11.8.4)."""

from __future__ import annotations

from engine_helpers import check, cited

from judge.engine import SlotRef
from judge.engine.rules.moment import Offer, Window

MEDIC = {"field": {"C3": "Warlord", "Cm1": "Medic"}}


def test_11_1_2_activate_in_own_preparation_phase():
    assert check({"activate": "Field Dressing", "card": "Cm1", "targets": ["C3"]}, A=MEDIC) == []


def test_11_1_2_a_non_fast_activated_effect_not_in_the_combat_phase():
    v = check({"activate": "Field Dressing", "card": "Cm1", "targets": ["C3"]}, phase="combat", A=MEDIC)
    assert "11.1.2" in cited(v)


def test_glossary_fast_a_fast_effect_in_the_combat_phase_and_in_the_opponents_window():
    field = {"field": {"Cm1": "Quick Medic"}}
    assert check({"activate": "Quick Patch", "card": "Cm1", "targets": ["Cm1"]}, phase="combat",
                 A=field) == []
    action = {"activate": "Quick Patch", "card": "Cm1", "targets": ["Cm1"], "by": "A"}
    assert "12.1" in cited(check(action, turn_player="B", A=field))
    assert check(action, Window(response=True, priority="A"), turn_player="B", A=field) == []


def test_11_3_1_condition_checked_when_used():
    # Field Dressing: "while in the Second Line or lower" (line max 2); Medic at C3 behind two lines fails
    field = {"field": {"C3": "Medic", "C2": "Knight", "C2·0": "Grunt"}}
    v = check({"activate": "Field Dressing", "card": "C3", "targets": ["C2"]}, A=field)
    assert "11.3.1" in cited(v) and "line 3" in v[0].text


def test_11_7_1_limit_once_per_turn():
    used = [{"card": "A:Cm1", "effect": "Field Dressing", "this_turn": 1, "this_game": 1}]
    v = check({"activate": "Field Dressing", "card": "Cm1", "targets": ["C3"]}, used=used, A=MEDIC)
    assert "11.7.1" in cited(v)


def test_11_7_1_limit_per_game_counts_across_turns():
    used = [{"card": "A:Cm1", "effect": "Quick Patch", "this_turn": 0, "this_game": 2}]
    v = check({"activate": "Quick Patch", "card": "Cm1", "targets": ["Cm1"]}, used=used,
              A={"field": {"Cm1": "Quick Medic"}})
    assert "11.7.1" in cited(v) and "this duel" in v[0].text


def test_glossary_activated_effect_a_soul_needs_a_proactive_slot():
    v = check({"activate": "Field Dressing", "card": "Cm1", "targets": ["C3"]},
              A={**MEDIC, "turns_taken": 1, "proactive": ["L0"]})
    assert "glossary/proactive" in cited(v)


def test_10_5_2_a_realms_activated_effect_needs_no_proactive_slot():
    from engine_helpers import CARDS, base

    from judge.engine.driver import verbs
    from judge.engine.driver.scenario import load_scenario

    data = base(A={"turns_taken": 1, "realms": {"realm1": "Shrine"}})
    data["cards"] = CARDS + [{"name": "Shrine", "type": "realm", "rank": 1, "hp": 20, "effects": [
        {"name": "Blessing", "kind": "activated", "targets": [{"soul": "own", "lines": "any"}],
         "do": [{"heal": 5, "to": "target"}]}]}]
    state = load_scenario(data).state
    action = verbs.action_of({"activate": "Blessing", "card": "realm1", "targets": ["altar"]})
    assert verbs.verify(state, action) == []


def test_13_5_2_a_negated_card_has_no_effects_to_activate():
    v = check({"activate": "Field Dressing", "card": "Cm1", "targets": ["C3"]}, A=MEDIC,
              B={"field": {"C3": "Negator"}})
    assert "13.5.2" in cited(v)


def test_activate_names_an_effect_the_card_has():
    v = check({"activate": "Fireball", "card": "Cm1"}, A=MEDIC)
    assert any("no Activated Effect 'Fireball'" in x.text for x in v)


def test_11_8_4_use_only_an_optional_timing_effect_offered_now():
    field = {"field": {"Cm1": "Recruiter"}}
    v = check({"use": "Reinforcement", "card": "Cm1", "targets": ["B:C3"]}, A=field,
              B={"field": {"C3": "Knight"}})
    assert "11.8.4" in cited(v)
    window = Window(response=True, priority="A", offered=(Offer("A", SlotRef("A", "Cm1"), "Reinforcement"),))
    assert check({"use": "Reinforcement", "card": "Cm1", "targets": ["B:C3"]}, window, A=field,
                 B={"field": {"C3": "Knight"}}) == []
