"""Legality of spring (10.4.3–10.4.6, 10.4.9, glossary Fast, Ambusher)."""

from __future__ import annotations

from engine_helpers import check, cited

from judge.engine import SlotRef
from judge.engine.rules.moment import Window

SET = {"field": {"Cm1": {"card": "Squire", "ambushes": ["Snare"]}}}


def test_10_4_5_spring_in_own_preparation_or_combat_phase_outside_a_battle():
    for phase in ("preparation", "combat"):
        assert check({"spring": "Snare", "at": "Cm1", "targets": ["B:C3"]}, phase=phase, A=SET,
                     B={"field": {"C3": "Knight"}}) == []


def test_glossary_fast_no_spring_in_the_emplacement_phase():
    v = check({"spring": "Snare", "at": "Cm1", "targets": ["B:C3"]}, phase="emplacement", A=SET,
              B={"field": {"C3": "Knight"}})
    assert "glossary/emplacement-phase" in cited(v)


def test_10_4_5_in_the_opponents_turn_only_in_a_response_window_with_priority():
    action = {"spring": "Snare", "at": "Cm1", "targets": ["B:C3"], "by": "A"}
    v = check(action, turn_player="B", phase="combat", A=SET, B={"field": {"C3": "Knight"}})
    assert "12.1" in cited(v)
    window = Window(response=True, priority="A")
    assert check(action, window, turn_player="B", phase="combat", A=SET, B={"field": {"C3": "Knight"}}) == []
    v = check(action, Window(response=True, priority="B"), turn_player="B", phase="combat", A=SET,
              B={"field": {"C3": "Knight"}})
    assert "glossary/priority" in cited(v)


def test_10_4_5_in_own_turn_not_inside_a_battle_without_a_window():
    v = check({"spring": "Snare", "at": "Cm1", "targets": ["B:C3"]}, Window(in_battle=True), phase="combat",
              A=SET, B={"field": {"C3": "Knight"}})
    assert "10.4.5" in cited(v)


def test_10_4_3_the_ambusher_must_stand_in_the_front_line():
    field = {"Cm1": {"card": "Squire", "ambushes": ["Snare"]}, "Cr1": "Squire", "Cr1·0": "Grunt"}
    v = check({"spring": "Snare", "at": "C3", "targets": ["B:C3"]},
              A={"field": {"C3": {"card": "Warlord", "ambushes": ["Snare"]}, **field}},
              B={"field": {"C3": "Knight"}})
    assert "10.4.3" in cited(v) and "Front Line" in v[0].text


def test_10_4_3_ambusher_requirement():
    field = {"C2": {"card": "Knight", "ambushes": ["Counter Snare"]}}
    window = Window(response=True, priority="A",
                    moment={"trigger": "targeted", "subjects": [SlotRef("A", "C2")]})
    v = check({"spring": "Counter Snare", "at": "C2"}, window, A={"field": field})
    assert "10.4.3" in cited(v) and "light, not dark" in " ".join(x.text for x in v)


def test_10_4_6_an_ambush_naming_a_moment_only_answers_that_moment():
    field = {"C2": {"card": "Test Noah", "ambushes": ["Counter Snare"]}}
    v = check({"spring": "Counter Snare", "at": "C2"}, A={"field": field})
    assert "10.4.6" in cited(v)
    window = Window(response=True, priority="A",
                    moment={"trigger": "targeted", "subjects": [SlotRef("A", "C2")]})
    assert check({"spring": "Counter Snare", "at": "C2"}, window, A={"field": field}) == []
    other = Window(response=True, priority="A",
                   moment={"trigger": "targeted", "subjects": [SlotRef("A", "C3")]})
    assert "10.4.6" in cited(check({"spring": "Counter Snare", "at": "C2"}, other, A={"field": field}))


def test_10_4_9_springing_is_not_limited_by_the_spiral():
    assert check({"spring": "Snare", "at": "Cm1", "targets": ["B:C3"]},
                 A={**SET, "turns_taken": 1, "proactive": ["L0"]}, B={"field": {"C3": "Knight"}}) == []


def test_10_4_3_only_a_set_ambush_at_that_slot():
    v = check({"spring": "Snare", "at": "C3", "targets": ["B:C3"]}, A={"field": {"C3": "Warlord"}},
              B={"field": {"C3": "Knight"}})
    assert any("no Ambush Snare is set at A:C3" in x.text for x in v)


def test_10_4_4_a_new_soul_on_the_slot_may_spring_an_ambush_whose_setter_left():
    field = {"Cm1": {"card": "Squire", "ambushes": [{"card": "Snare", "setter": "gone"}]}}
    assert check({"spring": "Snare", "at": "Cm1", "targets": ["B:C3"]}, A={"field": field},
                 B={"field": {"C3": "Knight"}}) == []
