"""Inputs the Codex allows (issue 11, part 4): values that are not steps of 5, positions before the
first turn (contract §2: `phase: setup`, `turn: 0`, `round: N`), and one message per mistake with a
did-you-mean for misspelt card and slot names."""

from __future__ import annotations

import json

import pytest
import yaml
from engine_helpers import base

from judge import engine
from judge.cli import main
from judge.engine import ScenarioError
from judge.engine.driver.resolve import resolve
from judge.engine.driver.scenario import load_scenario

ODD = [
    {"name": "Odd Knight", "type": "soul", "rank": 2, "attribute": "light", "atk": 27, "def": 3, "hp": 41},
    {"name": "Odd Wall", "type": "soul", "rank": 2, "attribute": "dark", "atk": 4, "def": 8, "hp": 33},
    {"name": "Jab", "type": "event", "rank": 0, "effects": [
        {"kind": "activated", "targets": [{"soul": "opposing"}], "do": [{"damage": 14, "to": "target"}]}]},
]


def _problems(data: dict) -> list[dict]:
    with pytest.raises(ScenarioError) as err:
        load_scenario(data)
    return err.value.problems


def _odd(**players) -> dict:
    data = base(**players)
    data["cards"] += ODD
    return data


# --- values that are not steps of 5 -----------------------------------------------------------

def test_battle_damage_of_odd_values_rounds_down_in_the_step_that_deals_it():
    data = _odd(A={"field": {"C3": "Odd Knight"}}, B={"field": {"C3": "Odd Wall"}})
    data["state"]["phase"] = "combat"
    data["actions"] = [{"attack": "C3", "target": "B:C3"}]
    ruling = resolve(load_scenario(data))
    (hit,) = [s for s in ruling["steps"] if s["kind"] == "damage"]
    # 27 - 8 = 19, rounded down to a step of 5 (glossary/atk)
    assert "19" in hit["text"] and "rounded down" in hit["text"] and "glossary/atk" in hit["rules"]
    assert hit["changes"] == [{"slot": "B:C3", "damage": [0, 15]}]
    assert ruling["derived"]["B:C3"]["hp"] == 33 - 15


def test_effect_damage_rounds_down_and_the_step_cites_the_rounding():
    data = _odd(A={"field": {"C3": "Odd Knight"}, "hand": ["Jab"]}, B={"field": {"C3": "Odd Wall"}})
    data["actions"] = [{"cast": "Jab", "caster": "C3", "targets": ["B:C3"]}]
    ruling = resolve(load_scenario(data))
    (hit,) = [s for s in ruling["steps"] if s["kind"] == "damage"]
    assert "14 rounded down to a step of 5" in hit["text"] and "glossary/damage" in hit["rules"]
    assert hit["changes"][0]["damage"] == [0, 10]


def test_stored_damage_stays_a_multiple_of_5_when_the_maximum_hp_is_not():
    # Odd Wall: 33 HP with 30 damage has 3 HP; 14 rounds to 10, of which 3 reach it, and it is captured
    data = _odd(A={"field": {"C3": "Odd Knight"}, "hand": ["Jab"]},
                B={"field": {"C3": {"card": "Odd Wall", "damage": 30}}})
    data["actions"] = [{"cast": "Jab", "caster": "C3", "targets": ["B:C3"]}]
    ruling = resolve(load_scenario(data))
    soul = ruling["final"]["players"]["B"]["field"]["C3"]
    assert soul["damage"] % 5 == 0 and soul["captured"] is True
    (capture,) = [s for s in ruling["steps"] if s["kind"] == "capture"]
    assert "at 0 HP" in capture["text"] and "14.4.3" not in capture["rules"]


def test_slot_damage_in_a_position_must_still_be_a_multiple_of_5():
    data = _odd(B={"field": {"C3": {"card": "Odd Wall", "damage": 7}}})
    assert any(p["path"] == "state.players.B.field.C3.damage" and "multiple of 5" in p["message"]
               for p in _problems(data))


# --- setup: the recruiting rounds before turn 1 -----------------------------------------------

def _setup(player: str = "A", rnd: int = 1, **players) -> dict:
    data = base(**players)
    data["state"].update({"phase": "setup", "turn": 0, "round": rnd, "turn_player": player})
    return data


def test_a_setup_position_loads_and_writes_phase_turn_and_round_back():
    scenario = load_scenario(_setup("B", 3))
    state = scenario.state.to_dict()
    assert (state["phase"], state["turn"], state["round"], state["turn_player"]) == ("setup", 0, 3, "B")
    again = load_scenario({**_setup("B", 3), "state": state})
    assert again.state.to_dict() == state


@pytest.mark.parametrize("change, path, words", [
    ({"round": 5}, "state.round", "A has 4 recruiting rounds"),
    ({"round": 4, "turn_player": "B"}, "state.round", "B has 3 recruiting rounds"),
    ({"turn": 3}, "state.turn", "expected 0 with phase: setup"),
])
def test_setup_positions_that_cannot_arise_are_refused_with_the_key(change, path, words):
    data = _setup()
    data["state"].update(change)
    assert any(p["path"] == path and words in p["message"] for p in _problems(data))


def test_round_without_setup_is_refused():
    data = base()
    data["state"]["round"] = 2
    assert any(p["path"] == "state.round" and "only with phase: setup" in p["message"]
               for p in _problems(data))


def test_the_last_round_of_a_hands_turn_1_to_b_and_a_setup_soul_attacks_then():
    data = _setup("A", 4, A={"hand": ["Knight"]}, B={"field": {"C3": "Grunt"}})
    data["actions"] = [{"recruit": "Knight", "to": "C3"}, {"end_phase": True}]
    ruling = resolve(load_scenario(data))
    assert ruling["rejected"] is None
    final = ruling["final"]
    assert (final["turn"], final["turn_player"], final["phase"]) == (1, "B", "preparation")
    assert "round" not in final
    assert any("glossary/player-b" in s["rules"] and "first turn" in s["text"] for s in ruling["steps"])


def test_rounds_alternate_from_a_and_only_recruiting_is_legal():
    data = _setup("A", 1, A={"hand": ["Grunt", "Chains"], "field": {"C3": "Knight"}},
                  B={"field": {"C3": "Grunt"}})
    scenario = load_scenario(data)
    legal = engine.legal_actions(scenario, after=0)
    assert {next(iter(d)) for d in legal} == {"recruit", "end_phase"}
    data["actions"] = [{"end_phase": True}]
    final = resolve(load_scenario(data))["final"]
    assert (final["turn_player"], final["round"], final["turn"]) == ("B", 1, 0)


def test_setup_position_and_resolve_through_the_web_api(client):
    data = _setup("A", 2, A={"hand": ["Grunt"]})
    data["actions"] = [{"recruit": "Grunt", "to": "C3"}]
    r = client.post("/api/position", data=json.dumps(data), content_type="application/json")
    body = r.get_json()
    assert r.status_code == 200 and body["phase"] == "setup" and body["round"] == 2
    assert body["checks"][0]["legal"] is True
    r = client.post("/api/resolve", data=yaml.safe_dump(data), content_type="application/yaml")
    assert r.status_code == 200 and r.get_json()["final"]["players"]["A"]["field"]["C3"]["card"] == "Grunt"
    bad = _setup("A", 9)
    r = client.post("/api/position", data=json.dumps(bad), content_type="application/json")
    assert r.status_code == 400 and r.get_json()["problems"][0]["path"] == "state.round"


def test_cli_position_says_it_is_a_recruiting_round(tmp_path, capsys):
    path = tmp_path / "setup.yaml"
    path.write_text(yaml.safe_dump(_setup("B", 2)), encoding="utf-8")
    assert main(["position", str(path)]) == 0
    assert "B's recruiting round 2" in capsys.readouterr().out


# --- one mistake, one message -----------------------------------------------------------------

def test_a_card_refused_for_one_bad_value_is_still_named():
    data = base(A={"field": {"C3": "Broken"}, "hand": ["Broken"]})
    data["cards"].append({"name": "Broken", "type": "soul", "rank": 2, "attribute": "light", "hp": "ten"})
    data["actions"] = [{"recruit": "Broken", "to": "L2"}]
    problems = _problems(data)
    assert [p["path"] for p in problems] == [f"cards[{len(data['cards']) - 1}].hp"]


def test_misspelt_card_and_slot_names_get_a_did_you_mean():
    data = base(A={"field": {"C3": "Grunnt"}})
    problems = {p["path"]: p["message"] for p in _problems(data)}
    assert problems["state.players.A.field.C3.card"].endswith("did you mean Grunt?")
    data = base(A={"field": {"Cr10": "Grunt"}})
    problems = {p["path"]: p["message"] for p in _problems(data)}
    assert "did you mean Cr1·0" in problems["state.players.A.field.Cr10"]


def test_a_name_far_from_every_card_gets_no_guess():
    data = base(A={"field": {"C3": "Xylophone"}})
    (problem,) = _problems(data)
    assert "did you mean" not in problem["message"]


# --- the desk, through the same engine ----------------------------------------------------------

def test_the_desk_resolves_a_setup_position_and_odd_values(client):
    data = _setup("A", 4, A={"hand": ["Grunt"]})
    data["actions"] = [{"recruit": "Grunt", "to": "C3"}, {"end_phase": True}]
    r = client.post("/desk/board.json", json={"scenario": data})
    assert r.status_code == 200 and r.get_json()["ok"] is True
    r = client.post("/desk/resolve.json", json={"scenario": data})
    body = r.get_json()
    assert r.status_code == 200 and body["ruling"]["final"]["turn_player"] == "B"
    assert "recruiting round 4 of 4" in body["trace"]
    odd = _odd(A={"field": {"C3": "Odd Knight"}, "hand": ["Jab"]}, B={"field": {"C3": "Odd Wall"}})
    odd["actions"] = [{"cast": "Jab", "caster": "C3", "targets": ["B:C3"]}]
    r = client.post("/desk/resolve.json", json={"scenario": odd})
    assert r.status_code == 200 and "14 rounded down to a step of 5" in r.get_json()["trace"]
