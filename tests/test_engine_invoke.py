"""Legality of invoke (10.5.1, 10.5.2, 10.5.4)."""

from __future__ import annotations

from engine_helpers import check, cited


def test_10_5_1_invoke_onto_an_empty_realm_slot_of_enough_rank():
    assert check({"invoke": "Temple", "to": "realm1"}, A={"hand": ["Temple"]}) == []
    v = check({"invoke": "Fortress", "to": "realm2"}, A={"hand": ["Fortress"]})
    assert "10.5.1" in cited(v) and "rank-2 realm slot" in v[0].text


def test_10_5_1_realm_slot_must_be_empty():
    v = check({"invoke": "Temple", "to": "realm2"}, A={"hand": ["Temple"], "realms": {"realm2": "Temple"}})
    assert "10.5.1" in cited(v)


def test_10_5_4_a_shattered_realm_blocks_its_slot():
    v = check({"invoke": "Temple", "to": "realm2"},
              A={"hand": ["Temple"], "realms": {"realm2": {"card": "Temple", "shattered": True}}})
    assert "10.5.4" in cited(v)


def test_10_5_1_only_in_own_preparation_phase():
    assert "10.5.1" in cited(check({"invoke": "Temple", "to": "realm1"}, phase="combat",
                                   A={"hand": ["Temple"]}))


def test_10_5_2_invoking_is_not_limited_by_the_spiral():
    assert check({"invoke": "Temple", "to": "realm1"}, A={"hand": ["Temple"], "turns_taken": 1}) == []


def test_10_5_1_onto_a_realm_slot_not_a_soul_slot():
    v = check({"invoke": "Temple", "to": "L2"}, A={"hand": ["Temple"]})
    assert any("realm slots" in x.text for x in v)
