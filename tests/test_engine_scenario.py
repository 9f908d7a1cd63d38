"""Loading scenarios (contract §1–§4): a well-formed file becomes a State; a malformed or
inconsistent one is refused with every problem and its key path."""

from __future__ import annotations

import copy

import pytest
import yaml
from engine_helpers import CARDS, base, build

from judge.engine import ScenarioError, SlotRef
from judge.engine.driver.scenario import load_scenario


def _problems(data) -> list[dict]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    return info.value.problems


def _has(problems, path, message=""):
    return any(p["path"] == path and message in p["message"] for p in problems)


def test_a_position_loads_with_defaults():
    s = build(A={"field": {"C3": "Warlord", "L1.0": {"card": "Grunt", "damage": 5}}})
    st = s.state
    assert (st.turn_player, st.phase, st.turn) == ("A", "preparation", 9)
    assert st.players["A"].turns_taken == 5
    assert st.soul_at(SlotRef("A", "L1·0")).damage == 5
    assert st.soul_at(SlotRef("A", "C3")).name == "Warlord"


def test_the_state_round_trips_through_to_dict():
    data = base(A={"field": {"L2": {"card": "Knight", "damage": 10, "armament": "Iron Blade",
                                    "recruited": "this_turn", "ambushes": [{"card": "Snare"}]},
                             "C2": {"card": "Knight", "captured": True}},
                   "hand": ["Chains", "Wormhole"], "deck": 12, "elysium": ["Snare"],
                   "realms": {"realm1": {"card": "Temple", "damage": 5}}},
                B={"field": {"C3": "Test Noah"}, "hand": 3})
    data["state"]["lasting"] = [{"gain": {"def": 5}, "to": "B:C3", "until": "end_of_turn", "source": "A:L2"},
                                {"lay": "frozen", "on": "B:L1", "until": "end_of_opponents_next_turn",
                                 "source": "Blizzard"}]
    first = load_scenario(data)
    dumped = first.state.to_dict()
    again = copy.deepcopy(data)
    again["state"] = dumped
    second = load_scenario(again)
    assert second.state.to_dict() == dumped
    assert dumped["players"]["A"]["field"]["L2"]["ambushes"] == [{"card": "Snare"}]
    assert dumped["players"]["B"]["hand"] == 3


def test_yaml_on_key_is_not_a_boolean():
    text = yaml.safe_dump(base())
    text += "\n"
    data = yaml.safe_load(text)
    data["state"]["lasting"] = [{True: "B:L1", "lay": "frozen", "until": "end_of_turn", "source": "Blizzard"}]
    s = load_scenario(data)
    assert s.state.lasting[0].on == SlotRef("B", "L1")


def test_yaml_syntax_error_names_its_line():
    problems = _problems("title: x\nstate: {players: [\n  - a\n bad")
    assert problems[0]["line"] >= 2
    assert "YAML" in problems[0]["message"]


def test_unknown_slot_is_refused_with_its_key_path():
    problems = _problems(base(A={"field": {"C9": "Grunt"}}))
    assert _has(problems, "state.players.A.field.C9", "no such slot")


def test_rank_3_soul_on_a_rank_2_slot_is_refused():
    problems = _problems(base(A={"field": {"C2": "Warlord"}}))
    assert _has(problems, "state.players.A.field.C2.card", "rank 3")


def test_leader_off_the_altar_is_refused():
    data = base()
    data["state"]["players"]["A"]["field"] = {"altar": "Warlord", "C3": "Test Queen"}
    problems = _problems(data)
    assert _has(problems, "state.players.A.field.altar", "not a Leader")


def test_empty_altar_is_refused():
    data = base()
    data["state"]["players"]["B"]["field"] = {"C3": "Warlord"}
    assert _has(_problems(data), "state.players.B.field.altar", "always holds the Leader")


def test_damage_not_a_multiple_of_5_is_refused():
    problems = _problems(base(A={"field": {"C3": {"card": "Warlord", "damage": 7}}}))
    assert _has(problems, "state.players.A.field.C3.damage", "multiple of 5")


def test_card_not_in_the_library_is_refused():
    problems = _problems(base(A={"field": {"C3": "Nobody Knows Me"}, "hand": ["Ghost Card"]}))
    assert _has(problems, "state.players.A.field.C3.card", "no card named")
    assert _has(problems, "state.players.A.hand[0]", "no card named")


def test_every_problem_is_listed_not_just_the_first():
    problems = _problems(base(A={"field": {"C9": "Grunt", "C2": "Warlord",
                                           "L2": {"card": "Knight", "damage": 3}}}))
    assert len(problems) >= 3


def test_active_soul_at_0_hp_is_inconsistent():
    problems = _problems(base(A={"field": {"C3": {"card": "Warlord", "damage": 45}}}))
    assert _has(problems, "state.players.A.field.C3.damage", "captured")


def test_captured_soul_with_an_armament_is_inconsistent():
    problems = _problems(base(A={"field": {"L2": {"card": "Knight", "captured": True,
                                                  "armament": "Iron Blade"}}}))
    assert _has(problems, "state.players.A.field.L2.armament", "10.3.4")


def test_two_ambushes_of_one_setter_are_inconsistent():
    problems = _problems(base(A={"field": {"C2": {"card": "Knight",
                                                  "ambushes": ["Snare", "Counter Snare"]}}}))
    assert _has(problems, "state.players.A.field.C2.ambushes", "10.4.2")


def test_spiral_choice_of_a_too_high_rank_is_inconsistent():
    problems = _problems(base(A={"turns_taken": 2, "proactive": ["C2"]}))
    assert _has(problems, "state.players.A.proactive", "rank-1")


def test_unknown_verb_and_bad_slot_in_actions():
    data = base()
    data["actions"] = [{"fly": "Grunt"}, {"recruit": "Grunt", "to": "Z9"}, {"attack": "C3"}]
    problems = _problems(data)
    assert _has(problems, "actions[0]", "exactly one verb")
    assert _has(problems, "actions[1].to", "expected a slot")
    assert _has(problems, "actions[2].target", "missing")


def test_wrong_types_are_refused():
    data = base()
    data["state"]["players"]["A"]["turns_taken"] = "many"
    data["state"]["phase"] = "upkeep"
    data["on_illegal"] = "maybe"
    problems = _problems(data)
    assert _has(problems, "state.players.A.turns_taken", "whole number")
    assert _has(problems, "state.phase", "preparation")
    assert _has(problems, "on_illegal")


def test_scenario_cards_problems_have_key_paths():
    data = base()
    data["cards"] = copy.deepcopy(CARDS) + [{"name": "Bad", "type": "soul", "rank": 1, "attribute": "light",
                                             "hp": 10, "effects": [{"kind": "activated",
                                                                    "do": [{"heal": -3, "to": "self"}]}]}]
    problems = _problems(data)
    assert _has(problems, f"cards[{len(CARDS)}].effects[0].do[0].heal", "0 or more")


def test_actions_parse_with_acting_player_and_refs():
    data = base(A={"field": {"C3": "Warlord"}})
    data["actions"] = [{"attack": "C3", "target": "B:altar"}, {"pass": True, "by": "B"}]
    s = load_scenario(data)
    first, second = s.actions
    assert first.verb == "attack" and first.player(s.state) == "A"
    assert first.ref("value", s.state) == SlotRef("A", "C3")
    assert first.ref("target", s.state) == SlotRef("B", "altar")
    assert second.player(s.state) == "B"


def test_a_yaml_alias_bomb_is_refused_not_expanded():
    levels = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 9):
        levels.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    problems = _problems("\n".join(levels) + "\nstate: {players: {A: {hand: *a8}}}\n")
    assert "aliases are expanded" in problems[0]["message"]


def test_a_self_referring_yaml_alias_is_refused():
    problems = _problems("state: &s {players: {A: {field: {altar: *s}}}}\n")
    assert "refers to itself" in problems[0]["message"]


def test_deeply_nested_yaml_is_refused_not_a_crash():
    problems = _problems("a: " + "[" * 3000 + "]" * 3000)
    assert "nested too deeply" in problems[0]["message"]
