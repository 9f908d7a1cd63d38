"""`ask: [{can_attack: "A:C3"}]` (contract §7, ours): may the Soul on that slot attack in the position the
queue leaves? Yes with the Souls it may attack; no with what forbids it, from the attack's own checks
(glossary Attack, Front Line, Combat Phase), its rules and the step that acted on the Soul last. Added
through the question table (judge/engine/driver/answers.py QUESTIONS), offered at the desk."""

from __future__ import annotations

import copy

from judge import engine
from judge.engine.driver.answers import QUESTIONS


def scenario(a: dict, b: dict, actions: list, asks: list, **top) -> dict:
    return {"state": {"phase": "combat", **top,
                      "players": {"A": {"field": {"altar": "Queen Sol", **a}, "deck": 5},
                                  "B": {"field": {"altar": "King Umbra", **b}, "deck": 5}}},
            "actions": actions, "ask": asks}


def answer(data: dict) -> tuple[dict, dict]:
    ruling = engine.resolve(engine.load_scenario(copy.deepcopy(data)))
    return ruling, ruling["answers"][0]


def test_a_front_line_soul_in_its_combat_phase_may_attack_and_the_answer_names_its_targets():
    _, said = answer(scenario({"L2": "Dusk Lancer"}, {"L2": "Grey Knight"}, [], [{"can_attack": "A:L2"}]))
    assert said["verdict"] == "yes" and said["text"].startswith("Yes:")
    assert "Grey Knight (B:L2)" in said["text"] and "glossary/attack" in said["rules"]
    assert said["ask"] == {"can_attack": "A:L2"} and said["facts"] == {"slot": "A:L2", "card": "Dusk Lancer"}


def test_a_soul_that_has_attacked_may_not_again_and_the_answer_rests_on_its_attack():
    ruling, said = answer(scenario({"L2": "Dusk Lancer"}, {"L2": "Grey Knight"},
                                   [{"attack": "L2", "target": "B:L2"}], [{"can_attack": "A:L2"}]))
    declared = next(s for s in ruling["steps"] if s["kind"] == "battle")
    assert said["verdict"] == "no" and "1 attack" in said["text"]
    assert said["step"] is not None and said["step"] >= declared["n"]
    assert "glossary/attack" in said["rules"]


def test_a_soul_outside_the_front_line_may_not_attack_with_the_line_rule():
    _, said = answer(scenario({"C2": "Grey Knight", "C3": "Dusk Lancer"}, {"L2": "Grey Knight"}, [],
                              [{"can_attack": "A:C3"}]))
    assert said["verdict"] == "no" and "9.1.1" in said["rules"] and "line" in said["text"]


def test_not_in_its_own_combat_phase_no_soul_may_attack():
    _, said = answer(scenario({"L2": "Dusk Lancer"}, {"L2": "Grey Knight"}, [], [{"can_attack": "A:L2"}],
                              phase="preparation"))
    assert said["verdict"] == "no" and "glossary/combat-phase" in said["rules"]


def test_can_attack_is_read_checked_and_offered_through_the_table():
    assert QUESTIONS["can_attack"].offered and QUESTIONS["can_attack"].offer is not None
    bad = scenario({"L2": "Dusk Lancer"}, {}, [], [{"can_attack": "A:C9"}])
    try:
        engine.load_scenario(bad)
    except engine.ScenarioError as exc:
        assert [p["path"] for p in exc.problems] == ["ask.0.can_attack"]
    else:
        raise AssertionError("an empty slot was accepted")
    data = scenario({"L2": "Dusk Lancer"}, {"L2": "Grey Knight"}, [{"attack": "L2", "target": "B:L2"}], [])
    loaded = engine.load_scenario(data)
    offered = [q["ask"] for q in engine.questions(loaded)]
    assert {"can_attack": "A:L2"} in offered and {"can_attack": "B:L2"} in offered


def test_every_kind_of_question_is_written_in_the_format_page():
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    missing = [kind for kind in QUESTIONS if f"`{kind}" not in page]
    assert missing == [], f"write these ask: kinds in docs/scenario-format.md, §7 additions: {missing}"
