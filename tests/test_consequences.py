"""Consequences as steps (issue 11, part 1) and what did not happen (part 2), on small positions built
from the tests' own cards: the step a consequence follows from, the values it names, and the cause
of a capture or a win."""

from __future__ import annotations

from engine_helpers import CARDS, base

from judge.engine.driver.resolve import resolve
from judge.engine.driver.scenario import load_scenario

PRINTED = {c["name"]: c for c in CARDS}


SNIPE = {"name": "Snipe", "type": "event", "rank": 0,
         "effects": [{"kind": "activated", "targets": [{"soul": "opposing", "lines": "any"}],
                      "do": [{"capture": "target"}]}]}


def _ruling(data: dict) -> dict:
    data["cards"].append(SNIPE)
    return resolve(load_scenario(data))


def _steps(ruling: dict, kind: str) -> list[dict]:
    return [s for s in ruling["steps"] if s["kind"] == kind]


def test_a_moral_soul_captured_gives_each_underling_a_step_caused_by_the_capture():
    data = base(A={"field": {"C3": "Knight"}, "hand": ["Snipe"]},
                B={"field": {"C3": "Captain", "C2": "Grunt", "Cm1": "Squire"}})
    data["actions"] = [{"cast": "Snipe", "caster": "C3", "targets": ["B:C3"]}]
    ruling = _ruling(data)
    (capture,) = [s for s in _steps(ruling, "capture") if "Captain" in s["text"]]
    consequences = _steps(ruling, "consequence")
    assert {s["caused_by"] for s in consequences} == {capture["n"]}
    for name, slot in (("Grunt", "B:C2"), ("Squire", "B:Cm1")):
        atk = PRINTED[name]["atk"]
        (step,) = [s for s in consequences if f"{name} ({slot})" in s["text"]]
        # Moral +5 ATK / +5 DEF ends with its Soul (glossary/moral, 13.1.2)
        assert f"ATK {atk + 5} → {atk}" in step["text"] and "no longer active" in step["text"]
        assert {"glossary/moral", "13.1.2"} <= set(step["rules"])
        assert step["n"] > capture["n"]


def test_a_soul_held_up_by_moral_hp_is_captured_and_the_capture_names_the_fall():
    hp = PRINTED["Grunt"]["hp"]
    data = base(A={"field": {"C3": "Knight"}, "hand": ["Snipe"]},
                B={"field": {"C3": "Bannerman", "C2": {"card": "Grunt", "damage": hp}}})
    data["actions"] = [{"cast": "Snipe", "caster": "C3", "targets": ["B:C3"]}]
    ruling = _ruling(data)
    (fall,) = [s for s in _steps(ruling, "consequence") if "Grunt" in s["text"]]
    assert f"max HP {hp + 10} → {hp}" in fall["text"]
    (captured,) = [s for s in _steps(ruling, "capture") if "Grunt" in s["text"]]
    assert captured["caused_by"] == fall["n"] and "14.4.3" in captured["rules"]


def test_capturing_the_leader_ends_the_duel_in_a_step_caused_by_the_capture():
    data = base(A={"field": {"C3": "Knight"}, "hand": ["Chains"]})
    data["state"]["players"]["B"]["field"] = {"altar": "Test King"}
    data["actions"] = [{"cast": "Chains", "caster": "C3", "targets": ["B:altar"]}]
    ruling = _ruling(data)
    (win,) = _steps(ruling, "win")
    (capture,) = _steps(ruling, "capture")
    assert ruling["winner"] == "A" and win["caused_by"] == capture["n"]


def test_a_negation_taking_hold_is_said_when_the_negator_arrives():
    data = base(A={"hand": ["Negator"]}, B={"field": {"C3": "Test Harold", "C2": "Grunt"}})
    data["actions"] = [{"recruit": "Negator", "to": "C3"}]
    ruling = _ruling(data)
    texts = [s["text"] for s in _steps(ruling, "consequence")]
    assert any("Test Harold (B:C3)" in t and "negated by Negator (A:C3)" in t for t in texts)
    # Grunt loses the Defiance Harold gave it, once (said with Harold's negation, 13.5.2)
    assert any("Grunt (B:C2)" in t and "Defiance 5" in t for t in texts)


def test_a_frozen_slot_applies_to_the_soul_that_arrives_and_stays_with_its_slot():
    data = base(A={"field": {"C3": "Knight"}, "hand": ["Blizzard"]}, B={"hand": ["Grunt"]})
    data["actions"] = [{"cast": "Blizzard", "caster": "C3", "targets": ["B:L2"]}, {"end_phase": True},
                       {"end_phase": True}, {"end_phase": True}, {"recruit": "Grunt", "to": "L2"}]
    ruling = _ruling(data)
    (arrives,) = [s for s in _steps(ruling, "consequence") if "Grunt (B:L2) arrives" in s["text"]]
    assert "Frozen" in arrives["text"] and "13.3.3" in arrives["rules"]


def test_nothing_changes_nothing_is_said():
    data = base(A={"field": {"C3": "Knight"}})
    data["actions"] = [{"end_phase": True}, {"end_phase": True}]
    assert _steps(_ruling(data), "consequence") == []


def test_an_attacker_with_defiance_is_told_it_does_not_trigger_once():
    data = base(A={"field": {"C3": "Knight", "L2": "Test Harold"}}, B={"field": {"C3": "Wall"}})
    data["state"]["phase"] = "combat"
    data["actions"] = [{"attack": "C3", "target": "B:C3"}]
    ruling = _ruling(data)
    notes = [s for s in _steps(ruling, "nonevent") if "Defiance does not trigger" in s["text"]]
    assert len(notes) == 1 and "Knight" in notes[0]["text"] and notes[0]["rules"] == ["glossary/defiance"]


def test_the_desk_links_a_consequence_to_the_step_it_follows_from(client):
    data = base(A={"field": {"C3": "Knight"}, "hand": ["Snipe"]},
                B={"field": {"C3": "Captain", "C2": "Grunt"}})
    data["cards"].append(SNIPE)
    data["actions"] = [{"cast": "Snipe", "caster": "C3", "targets": ["B:C3"]}]
    body = client.post("/desk/resolve.json", json={"scenario": data}).get_json()
    (step,) = [s for s in body["ruling"]["steps"] if s["kind"] == "consequence"]
    assert f'href="#step-{step["caused_by"]}"' in body["trace"]
