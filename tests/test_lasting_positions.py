"""A lasting effect in a starting position (state.lasting) is in force only within its duration (13.3.1):
one that has already ended, or begins in a later turn, is a position that can't arise and is refused at
its key path; one still running loads and ends when its duration says."""

from __future__ import annotations

import pytest
from engine_helpers import base

from judge.engine import ScenarioError, load_scenario


def _scenario(turn: int, turn_player: str, **lasting: object) -> dict:
    data = base(A={"field": {"C3": "Knight"}})
    data["state"].update(turn=turn, turn_player=turn_player)
    data["state"]["lasting"] = [{"grant": "frozen", "to": "A:C3", "source": "Chrome Chains", **lasting}]
    return data


def _problems(data: dict) -> list[dict]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    return info.value.problems


@pytest.mark.parametrize(("turn", "turn_player", "lasting", "last"), [
    # made by B in B's turn 8: A's next turn is 9
    (9, "A", {"until": "end_of_opponents_next_turn", "controller": "B", "started_turn": 8}, 9),
    # made by B in A's turn 9 (an Ambush, say): the first turn of A's that begins after it is 11
    (10, "B", {"until": "end_of_opponents_next_turn", "controller": "B", "started_turn": 9}, 11),
    (11, "A", {"until": "end_of_opponents_next_turn", "controller": "B", "started_turn": 9}, 11),
    (9, "A", {"until": "end_of_turn", "controller": "A", "started_turn": 9}, 9),
])
def test_an_effect_within_its_duration_loads(turn, turn_player, lasting, last) -> None:
    scenario = load_scenario(_scenario(turn, turn_player, **lasting))
    state = scenario.state
    (effect,) = state.lasting
    assert state.last_turn(effect) == last


@pytest.mark.parametrize(("turn", "turn_player", "lasting", "ended"), [
    (10, "B", {"until": "end_of_opponents_next_turn", "controller": "B", "started_turn": 8}, 9),
    (12, "B", {"until": "end_of_opponents_next_turn", "controller": "B", "started_turn": 9}, 11),
    (10, "B", {"until": "end_of_turn", "controller": "A", "started_turn": 9}, 9),
])
def test_an_effect_whose_duration_ended_is_refused_at_its_until(turn, turn_player, lasting, ended) -> None:
    (problem,) = _problems(_scenario(turn, turn_player, **lasting))
    assert problem["path"] == "state.lasting[0].until"
    assert f"ended at the end of turn {ended}" in problem["message"]
    assert "13.3.1" in problem["message"]


def test_an_effect_from_a_later_turn_is_refused() -> None:
    (problem,) = _problems(_scenario(9, "A", until="permanently", controller="B", started_turn=10))
    assert problem["path"] == "state.lasting[0].started_turn"
    assert "turn 10 has not begun" in problem["message"]


def test_permanently_has_no_last_turn() -> None:
    scenario = load_scenario(_scenario(9, "A", until="permanently", controller="B", started_turn=2))
    assert scenario.state.last_turn(scenario.state.lasting[0]) is None
