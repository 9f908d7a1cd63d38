"""The field as data (interpretation/field-tree; glossary Slot, Altar, Realm slot) and the chain of
command derived from it (glossary Line, Front Line, Direct Superior, Underling)."""

from __future__ import annotations

import pytest
from engine_helpers import build

from judge.engine import SlotRef, load_field
from judge.engine.position import tree


def test_glossary_slot_fifteen_soul_slots_named_as_in_the_codex():
    field = load_field()
    assert set(field.slots) == {"altar", "L2", "L1", "L0", "L1·0", "C3", "C2", "C2·0", "Cm1", "Cr1", "Cr1·0",
                                "R2", "R1", "R0", "R1·0"}
    assert len(field.slots) == 15


def test_glossary_altar_is_rank_3_and_each_slot_rank_is_the_digit_in_its_name():
    field = load_field()
    assert field.rank("altar") == 3
    for slot in field.slots:
        if slot != "altar":
            digits = [c for c in slot if c.isdigit()]
            assert field.rank(slot) == int(digits[-1]), slot


def test_interpretation_field_tree_parents():
    field = load_field()
    expected = {"L2": "altar", "C3": "altar", "R2": "altar", "L1": "L2", "L0": "L2", "L1·0": "L1",
                "C2": "C3", "Cm1": "C3", "Cr1": "C3", "C2·0": "C2", "Cr1·0": "Cr1",
                "R1": "R2", "R0": "R2", "R1·0": "R1"}
    for slot, parent in expected.items():
        assert field.parent(slot) == parent
    assert field.parent("altar") is None
    assert field.children("C3") == ("C2", "Cm1", "Cr1")
    assert field.path_to_root("L1·0") == ("L1", "L2", "altar")


def test_glossary_realm_slot_three_realm_slots_of_rank_1_2_3():
    field = load_field()
    assert [(r, field.rank(r)) for r in field.realm_slots] == [("realm1", 1), ("realm2", 2), ("realm3", 3)]


@pytest.mark.parametrize("spelling", ["L1·0", "L1.0", "L1-0", "l1.0"])
def test_ascii_spellings_mean_the_middle_dot(spelling):
    assert load_field().normalize(spelling) == "L1·0"


def test_unknown_slot_normalises_to_none():
    assert load_field().normalize("C9") is None


def test_glossary_line_front_line_is_no_active_underlings_and_lines_count_back():
    s = build(A={"field": {"L2": "Knight", "L1": "Squire", "L1·0": "Grunt", "L0": "Grunt"}})
    st = s.state
    assert tree.line(st, SlotRef("A", "L1·0")) == 1
    assert tree.line(st, SlotRef("A", "L0")) == 1
    assert tree.line(st, SlotRef("A", "L1")) == 2
    # L2's furthest-back Direct Underling is L1 (line 2), so L2 is line 3 and the altar line 4
    assert tree.line(st, SlotRef("A", "L2")) == 3
    assert tree.line(st, SlotRef("A", "altar")) == 4
    assert tree.lines(st, "A") == {"altar": 4, "L2": 3, "L1": 2, "L1·0": 1, "L0": 1}


def test_glossary_capture_captured_souls_and_empty_slots_are_passed_over():
    s = build(A={"field": {"C3": {"card": "Warlord", "captured": True}, "C2": "Knight", "Cr1·0": "Grunt"}})
    st = s.state
    # C3 is captured: the altar's Direct Underlings are C2 and Cr1·0 (Cr1 is empty)
    assert tree.direct_underlings(st, SlotRef("A", "altar")) == [SlotRef("A", "C2"), SlotRef("A", "Cr1·0")]
    assert tree.direct_superior(st, SlotRef("A", "C2")) == SlotRef("A", "altar")
    assert tree.line(st, SlotRef("A", "C3")) is None
    assert tree.line(st, SlotRef("A", "altar")) == 2
    assert tree.underlings(st, SlotRef("A", "altar"), captured=True)[0] == SlotRef("A", "C3")
    assert SlotRef("A", "C3") not in tree.underlings(st, SlotRef("A", "altar"))


def test_glossary_leader_stands_in_front_line_when_nothing_active_is_in_front():
    s = build(A={"field": {"C3": {"card": "Warlord", "captured": True}}})
    assert tree.is_front_line(s.state, SlotRef("A", "altar"))


def test_5_1_3_leader_has_no_direct_superior_and_superiors_run_to_the_leader():
    s = build(A={"field": {"R2": "Knight", "R1·0": "Grunt"}})
    st = s.state
    assert tree.direct_superior(st, SlotRef("A", "altar")) is None
    assert tree.superiors(st, SlotRef("A", "R1·0")) == [SlotRef("A", "R2"), SlotRef("A", "altar")]
    assert tree.shares_direct_superior(st, SlotRef("A", "R1·0"), SlotRef("A", "R1·0"))


def test_glossary_direct_superior_souls_sharing_one():
    s = build(A={"field": {"C3": "Warlord", "Cm1": "Squire", "C2·0": "Grunt"}})
    st = s.state
    # C2 is empty: C2·0's Direct Superior is C3, the same as Cm1's
    assert tree.shares_direct_superior(st, SlotRef("A", "Cm1"), SlotRef("A", "C2·0"))
    assert not tree.shares_direct_superior(st, SlotRef("A", "Cm1"), SlotRef("A", "C3"))


@pytest.mark.parametrize("turns, chosen, expected", [
    (0, [], set()),
    (1, ["L0"], {"L0"}),
    (2, ["L0", "Cm1"], {"L0", "R0", "L1·0", "R1·0", "C2·0", "Cr1·0", "Cm1"}),
    (3, ["C2"], {"L0", "R0", "L1·0", "R1·0", "C2·0", "Cr1·0", "L1", "R1", "Cm1", "Cr1", "C2"}),
])
def test_glossary_escalation_spiral_proactive_slots(turns, chosen, expected):
    s = build(A={"turns_taken": turns, "proactive": chosen})
    assert tree.proactive_slots(s.state, "A") == expected


def test_glossary_proactive_every_slot_from_the_fourth_turn_on():
    s = build(A={"turns_taken": 4})
    assert tree.proactive_slots(s.state, "A") == set(load_field().slots)


def test_10_5_2_realm_slots_are_never_limited_by_the_spiral():
    s = build(A={"turns_taken": 1})
    assert tree.is_proactive(s.state, SlotRef("A", "realm3"))
