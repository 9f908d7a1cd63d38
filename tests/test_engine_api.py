"""The engine's interfaces: api.position / legal_actions, `judge position`, POST /api/position,
/api/resolve and /api/legal (contract §6; one error shape; exit 2 on invalid input)."""

from __future__ import annotations

import json

import yaml
from engine_helpers import base

from judge.cli import main
from judge.engine.driver import api, verbs


def _scenario_yaml(**players) -> str:
    data = base(**players)
    data["actions"] = [{"recruit": "Grunt", "to": "L2"}, {"recruit": "Warlord", "to": "C2"}]
    return yaml.safe_dump(data, allow_unicode=True)


def test_position_has_derived_for_every_occupied_slot_and_a_check_per_action():
    scenario = api.load_scenario(_scenario_yaml(A={"hand": ["Grunt", "Warlord"], "field": {"C3": "Knight"}}))
    out = api.position(scenario)
    assert set(out["derived"]) == {"A:altar", "A:C3", "B:altar"}
    assert [c["legal"] for c in out["checks"]] == [True, False]
    assert out["checks"][1]["violations"][0]["rules"]


def test_legal_actions_lists_only_actions_that_verify_and_includes_the_legal_recruits():
    scenario = api.load_scenario(_scenario_yaml(A={"hand": ["Grunt"], "field": {"C3": "Knight"}}))
    actions = api.legal_actions(scenario, after=0)
    recruits = {a["to"] for a in actions if "recruit" in a}
    # empty slots directly under an active Soul: under the altar (L2, R2) and under C3 (C2, Cm1, Cr1)
    assert recruits == {"L2", "R2", "C2", "Cm1", "Cr1"}
    for action in actions:
        assert verbs.verify(scenario.state, verbs.action_of(action)) == []
    assert {"end_phase": True, "by": "A"} in actions


def test_cli_position_prints_a_board_and_json(tmp_path, capsys):
    path = tmp_path / "p.yaml"
    path.write_text(_scenario_yaml(A={"hand": ["Grunt"], "field": {"C3": "Knight"}}), encoding="utf-8")
    assert main(["position", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Knight" in text and "NOT legal" in text
    assert main(["position", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scenario"] == "test" and "A:C3" in data["derived"]


def test_cli_position_refuses_an_invalid_file_with_exit_2_and_key_paths(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    data = base(A={"field": {"C9": "Grunt", "C3": {"card": "Knight", "damage": 3}}})
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert main(["position", str(path)]) == 2
    err = capsys.readouterr().err
    assert "state.players.A.field.C9" in err and "state.players.A.field.C3.damage" in err


def test_cli_position_yaml_syntax_error_names_the_line(tmp_path, capsys):
    path = tmp_path / "broken.yaml"
    path.write_text("title: x\nstate:\n  players: [a,\n b: c\n", encoding="utf-8")
    assert main(["position", str(path)]) == 2
    assert "line" in capsys.readouterr().err


def test_api_position_accepts_yaml_and_json(client):
    text = _scenario_yaml(A={"hand": ["Grunt"]})
    r = client.post("/api/position", data=text, content_type="application/yaml")
    assert r.status_code == 200 and "A:altar" in r.get_json()["derived"]
    r = client.post("/api/position", data=json.dumps(yaml.safe_load(text)), content_type="application/json")
    assert r.status_code == 200 and len(r.get_json()["checks"]) == 2


def test_api_position_invalid_scenario_is_a_400_in_the_error_shape_with_problems(client):
    r = client.post("/api/position", data=yaml.safe_dump(base(A={"field": {"C9": "Grunt"}})),
                    content_type="application/yaml")
    body = r.get_json()
    assert r.status_code == 400 and body["ok"] is False and body["status"] == 400
    assert body["problems"][0]["path"] == "state.players.A.field.C9"


def test_api_position_too_large_is_413(client):
    r = client.post("/api/position", data="#" * (257 * 1024), content_type="application/yaml")
    assert r.status_code == 413 and r.get_json()["ok"] is False


def test_api_position_empty_body_is_400(client):
    assert client.post("/api/position", data="", content_type="application/yaml").status_code == 400


def test_api_legal_lists_actions_in_the_starting_position(client):
    r = client.post("/api/legal?after=0", data=_scenario_yaml(A={"hand": ["Grunt"]}),
                    content_type="application/yaml")
    body = r.get_json()
    assert r.status_code == 200 and body["player"] == "A"
    assert {"recruit": "Grunt", "to": "C3", "by": "A"} in body["actions"]
    assert client.post("/api/legal?after=9", data=_scenario_yaml(),
                       content_type="application/yaml").status_code == 400


def test_api_resolve_answers_in_the_one_shape(client):
    r = client.post("/api/resolve", data=_scenario_yaml(A={"hand": ["Grunt", "Warlord"]}),
                    content_type="application/yaml")
    body = r.get_json()
    assert r.status_code == 200
    assert body["steps"][0]["kind"] == "action" and body["steps"][0]["rules"]
    assert body["rejected"]["action"] == 1   # Warlord (rank 3) can't go to C2


def test_every_position_scenario_prints_and_has_title_question_expect(capsys):
    from judge import SCENARIOS_DIR
    from judge.engine.driver.scenario import load_scenario_file

    files = sorted((SCENARIOS_DIR / "positions").glob("*.yaml"))
    assert len(files) >= 5
    for path in files:
        scenario = load_scenario_file(path)
        assert scenario.title and scenario.question and scenario.expect is not None, path.name
        assert main(["position", str(path), "--json"]) == 0, path.name
        json.loads(capsys.readouterr().out)


def test_10_1_1_legal_actions_after_a_recruit_offer_no_second_recruit():
    import pytest

    pytest.importorskip("judge.engine.driver.resolve", reason="part 2 resolves the queued actions")
    data = base(A={"hand": ["Grunt", "Knight"], "field": {"C3": "Warlord"}})
    data["actions"] = [{"recruit": "Grunt", "to": "L2"}]
    scenario = api.load_scenario(data)
    before = api.legal_actions(scenario, after=0)
    after = api.legal_actions(scenario, after=1)
    assert any("recruit" in a for a in before)
    assert not any("recruit" in a for a in after)
    assert {"end_phase": True, "by": "A"} in after


def test_api_position_deeply_nested_json_is_a_400(client):
    r = client.post("/api/position", data="[" * 50000 + "]" * 50000, content_type="application/json")
    assert r.status_code == 400 and r.get_json()["ok"] is False


def test_cli_position_legal_lists_the_legal_actions(tmp_path, capsys):
    path = tmp_path / "p.yaml"
    path.write_text(_scenario_yaml(A={"hand": ["Grunt"], "field": {"C3": "Knight"}}), encoding="utf-8")
    assert main(["position", str(path), "--json", "--legal"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"recruit": "Grunt", "to": "L2", "by": "A"} in data["legal_actions"]
