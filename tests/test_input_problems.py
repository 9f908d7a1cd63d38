"""Input problems are records (judge/engine/data/input_problems.py): each problem of a ScenarioError
has a code of the table and the facts it rests on, its message is made from them, and the desk picks
its one-click fix by the code and finds the place by the key path's keys, never by the words."""

from __future__ import annotations

import copy
import inspect
import random
from pathlib import Path
from typing import Any

import pytest

from judge import ROOT
from judge.desk import hints
from judge.engine import PROBLEMS, ScenarioError, key_path, load_scenario
from judge.engine.data.card_records import CONDITION_KEYS
from judge.engine.data.input_problems import words
from judge.engine.position.conditions import CONDITIONS

BASE: dict[str, Any] = {
    "state": {"players": {"A": {"field": {"altar": "Queen Sol", "C3": "Grey Knight"}, "hand": ["Firebolt"]},
                          "B": {"field": {"altar": "King Umbra", "L2": "Shade Scout"}}}},
    "actions": [{"cast": "Firebolt", "caster": "C3", "targets": ["B:L2"]}],
}


def _with(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    node = data
    keys = path.split("/")
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    node[keys[-1]] = value
    return data


def _problems(data: Any) -> list[dict[str, Any]]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(data)
    return caught.value.problems


BAD = [
    _with("state/players/A/hand", ["Firebalt"]),
    _with("state/players/A/field/altar", None),
    _with("state/players/A/field/C9", "Grey Knight"),
    _with("state/players/A/field/L1", "King Umbra"),
    _with("state/players/A/field/L0", {"card": "Shade Scout", "ambushes": [
        {"card": "Hidden Snare", "setter": "here"}, {"card": "Hidden Snare", "setter": "here"}]}),
    _with("state/players/A/field/altar", "Grey Knight"),
    _with("state/players/A/realms/realm1", {"card": "Grey Knight"}),
    _with("state/turn_player", "C"),
    _with("state/players/A/field/C3", {"card": "Grey Knight", "damage": 7}),
    _with("cards", [{"name": "E1", "type": "event", "rank": 0, "atk": 5, "keywords": ["moral", "flyy"],
                     "effects": [{"kind": "activated", "trigger": "recruited", "mandatory": True,
                                  "do": [{"heal": -5, "to": "someone"}]}]}]),
    _with("cards", [{"name": "S1", "type": "soul", "rank": 1, "attribute": "light", "leader": True,
                     "hp": 0}]),
    _with("expect", {"rejected": "first", "reasons": [{"reason": "nope"}], "board": {"Z9": {"atk": "x"}}}),
    _with("actions", [{"cast": "Firebolt", "caster": "Q9", "by": "C"}, {"pass": 1, "attack": "C3"}]),
    _with("on_illegal", "maybe"),
]


@pytest.mark.parametrize("data", BAD, ids=range(len(BAD)))
def test_every_problem_has_a_code_and_its_words_are_made_from_its_facts(data: dict[str, Any]) -> None:
    for problem in _problems(data):
        assert problem["code"] in PROBLEMS and problem["code"] != "input", problem
        assert problem["message"] == words(problem["code"], problem["facts"])


def test_mutated_library_scenarios_only_ever_give_coded_problems() -> None:
    rng = random.Random(26)
    bad_values = [None, "x", -5, 3.5, True, [], {}, {"zz": 1}, "B:Q9", "Grey Knigt", ["a"]]
    files = sorted((ROOT / "scenarios").rglob("*.yaml"))[::9]
    seen: set[str] = set()
    for path in files:
        data = load_scenario_data(path)
        for _ in range(6):
            mutated = _mutate(data, rng, bad_values)
            try:
                load_scenario(mutated)
            except ScenarioError as exc:
                for problem in exc.problems:
                    assert problem["code"] in PROBLEMS, problem
                    assert problem["message"] == words(problem["code"], problem["facts"])
                    seen.add(problem["code"])
    assert len(seen) >= 15


def load_scenario_data(path: Path) -> Any:
    from judge.engine import safe_load
    return safe_load(path.read_text(encoding="utf-8"))


def _mutate(data: Any, rng: random.Random, bad_values: list[Any]) -> Any:
    data = copy.deepcopy(data)
    node = data
    for _ in range(rng.randint(1, 4)):
        if not isinstance(node, (dict, list)) or not node:
            break
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        if rng.random() < 0.4 or not isinstance(node[key], (dict, list)):
            node[key] = rng.choice(bad_values)
            break
        node = node[key]
    return data


def test_messages_read_as_before_codes() -> None:
    # the words people and saved problem lists know, written out by hand
    by_code = {p["code"]: p for data in BAD for p in _problems(data)}
    assert by_code["unknown_card"]["message"] == \
        "no card named 'Firebalt' in the library or the scenario's `cards:`; did you mean Firebolt?"
    assert by_code["unknown_card"]["facts"] == {"name": "Firebalt", "near": ["Firebolt"]}
    assert by_code["empty_altar"]["message"] == "empty; the altar always holds the Leader (glossary/altar)"
    assert by_code["soul_rank_over_slot"]["message"] == "King Umbra is rank 3 but L1 is a rank-1 slot"
    assert by_code["not_a_step"]["message"] == "expected a multiple of 5, got 7"
    assert by_code["not_a_player"]["message"] == "expected A or B, got 'C'"


@pytest.mark.parametrize(("path", "keys"), [
    ("state.players.A.field.C3", ("state", "players", "A", "field", "C3")),
    ("state.players.B.hand[2]", ("state", "players", "B", "hand", 2)),
    ("cards[2].effects[0].do[1].heal", ("cards", 2, "effects", 0, "do", 1, "heal")),
    ("state.players.A.field.C2·0.ambushes[1].card", ("state", "players", "A", "field", "C2·0", "ambushes", 1,
                                                      "card")),
    ("", ()),
])
def test_a_key_path_is_its_keys(path: str, keys: tuple[Any, ...]) -> None:
    assert key_path(path) == keys


def _fix(data: dict[str, Any], code: str) -> dict[str, Any]:
    (problem,) = [p for p in hints.explain(_problems(data), data) if p["code"] == code]
    return problem


def test_the_desks_fixes_are_chosen_by_code() -> None:
    typo = _fix(BAD[0], "unknown_card")
    assert typo["suggest"] == "Firebolt" and typo["fix"] == {"do": "rename", "label": "Use Firebolt"}
    altar = _fix(BAD[1], "empty_altar")
    assert altar["fix"] == {"do": "pick", "ref": "A:altar", "label": "Choose A's Leader"}
    assert _fix(BAD[2], "no_such_field_slot")["fix"]["do"] == "remove"
    assert _fix(BAD[3], "soul_rank_over_slot")["fix"] == {"do": "remove", "ref": "A:L1",
                                                          "label": "Take the card off L1"}
    assert _fix(BAD[4], "two_ambushes")["fix"]["do"] == "one-ambush"
    assert _fix(BAD[5], "altar_not_leader")["fix"]["do"] == "remove"
    assert _fix(BAD[9], "stat_on_event")["fix"] == {"do": "edit-card", "card": "E1", "label": "Edit E1"}
    assert _fix(BAD[12], "not_an_action_slot")["words"].startswith("Action 1 in the queue: ")
    # the same words without the code: no fix is guessed from them
    words_only = {"path": "state.players.A.field.L1", "message": "X is rank 3 but L1 is a rank-1 slot"}
    (plain,) = hints.explain([words_only])
    assert "fix" not in plain and plain["ref"] == "A:L1"


def test_the_desks_hints_hold_no_regex_over_the_engines_words() -> None:
    source = inspect.getsource(hints)
    assert "import re" not in source and "re.compile" not in source


def test_every_code_is_documented_and_every_condition_key_has_its_row() -> None:
    doc = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    assert [code for code in PROBLEMS if f"`{code}`" not in doc] == []
    assert list(CONDITIONS) == [k for k in CONDITIONS if k in CONDITION_KEYS]
    assert set(CONDITIONS) == set(CONDITION_KEYS)
