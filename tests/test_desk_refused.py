"""What may not be done at a point of the queue, with why (POST /desk/refused.json): both players'
candidate actions the engine refuses there, none of them legal, each with the engine's reasons and
rules, so that the desk can queue one to be ruled on."""

from __future__ import annotations

from judge.desk import pages, runner

ATTACKER, TAUNT = "L2", "Iron Sentinel"


def into_radius(item) -> bool:
    return item["action"].get("attack") == ATTACKER and item["action"]["target"] == "B:C3"


def taunting():
    scenario = pages.start("attack")
    scenario["state"]["players"]["B"]["field"]["L2"] = TAUNT
    return scenario


def test_an_attack_into_a_taunts_radius_is_offered_as_refused_with_the_taunt_rule(client):
    scenario = taunting()
    refused = client.post("/desk/refused.json", json={"scenario": scenario}).get_json()["refused"]
    legal = runner.legal_actions(scenario, None)
    found = [r for r in refused if into_radius(r)]
    assert found, refused
    assert "glossary/taunt" in found[0]["rules"] and TAUNT in found[0]["why"]
    assert "attacks" in found[0]["words"] and "Harold" in found[0]["words"]
    assert not any(r["action"] in legal for r in refused)   # none of them is legal
    # both players: B's attacks in A's turn are refused too, saying whose turn it is
    assert any(r["action"].get("by") == "B" and "glossary/turn-player" in r["rules"] for r in refused)


def test_a_refused_action_queued_is_ruled_not_legal_for_the_reason_given(client):
    scenario = taunting()
    refused = client.post("/desk/refused.json", json={"scenario": scenario}).get_json()["refused"]
    item = next(r for r in refused if into_radius(r))
    ruling = runner.resolve(dict(scenario, actions=[item["action"]], ask=[{"legal": 0}]), snapshots=False)
    assert ruling["answers"][0]["verdict"] == "no"
    assert set(item["rules"]) & set(ruling["answers"][0]["rules"])


def test_refused_needs_a_sensible_point(client):
    response = client.post("/desk/refused.json", json={"scenario": taunting(), "after": -1})
    assert response.status_code == 400
