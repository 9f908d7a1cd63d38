"""The ruling's shape (contract §5), the trace's steps, snapshots, the step cap, on_illegal and
the end of the duel."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge import engine
from judge.commands.resolve import is_scenario_file
from judge.engine.driver.resolve import resolve, state_after
from judge.engine.driver.scenario import load_scenario, load_scenario_file

ROOT = Path(__file__).resolve().parent.parent / "scenarios"
BASE_CARDS = [
    {"name": "Queen Sol", "type": "soul", "rank": 3, "attribute": "light", "leader": True, "atk": 20,
     "def": 10,
     "hp": 50},
    {"name": "King Umbra", "type": "soul", "rank": 3, "attribute": "dark", "leader": True, "atk": 20,
     "def": 10,
     "hp": 50},
    {"name": "Knight", "type": "soul", "rank": 2, "attribute": "light", "atk": 25, "def": 5, "hp": 40},
    {"name": "Wall", "type": "soul", "rank": 2, "attribute": "dark", "atk": 5, "def": 10, "hp": 40},
]


def scenario(state: dict, actions: list, cards: list | None = None, **extra):
    return load_scenario({"cards": BASE_CARDS + (cards or []), "state": state, "actions": actions, **extra},
                         source="test")


def combat(a_field: dict, b_field: dict, **state) -> dict:
    return {"phase": "combat", "players": {"A": {"field": {"altar": "Queen Sol", **a_field}, "deck": 5},
                                           "B": {"field": {"altar": "King Umbra", **b_field}, "deck": 5}},
            **state}


def test_ruling_has_the_contract_keys_and_steps_have_their_fields():
    ruling = resolve(scenario(combat({"C3": "Knight"}, {"C3": "Wall"}), [{"attack": "C3", "target": "B:C3"}]))
    assert set(ruling) >= {"scenario", "codex", "ok", "steps", "rejected", "final", "derived", "winner"}
    assert ruling["ok"] is True and ruling["rejected"] is None and ruling["winner"] is None
    for step in ruling["steps"]:
        assert set(step) == {"n", "kind", "text", "rules", "changes", "facts"}
    assert [s["n"] for s in ruling["steps"]] == list(range(1, len(ruling["steps"]) + 1))
    fight = next(s for s in ruling["steps"] if s["kind"] == "damage")
    # glossary/atk: ATK 25 - DEF 10 = 15, shown in the text, the change recorded
    assert "ATK 25 − DEF 10 = 15" in fight["text"] and "Wall (B:C3)" in fight["text"]
    assert {"slot": "B:C3", "damage": [0, 15]} in fight["changes"]
    # its facts: the card it names as slot and name, the value before and after
    assert {"slot": "B:C3", "name": "Wall"} in fight["facts"]["cards"]
    assert {"slot": "B:C3", "of": "damage", "before": 0, "after": 15} in fight["facts"]["values"]
    declared = next(s for s in ruling["steps"] if s["kind"] == "battle")
    assert [c["name"] for c in declared["facts"]["cards"]][:2] == ["Knight", "Wall"]
    assert ruling["derived"]["B:C3"]["hp"] == 25


@pytest.mark.parametrize("path", sorted(p for p in ROOT.rglob("*.yaml") if is_scenario_file(p)),
                         ids=lambda p: p.name)
def test_every_step_cites_a_rule(path):
    ruling = resolve(load_scenario_file(path))
    for step in ruling["steps"]:
        assert step["rules"], f"step {step['n']} cites nothing: {step['text']}"


def test_snapshots_carry_the_state_after_each_step_and_the_last_is_final():
    ruling = resolve(load_scenario_file(ROOT / "mechanics" / "cascade-last-in-first-out.yaml"),
                     snapshots=True)
    assert all("state" in step for step in ruling["steps"])
    assert ruling["steps"][-1]["state"] == ruling["final"]
    damages = [s["state"]["players"]["B"]["field"]["C3"].get("damage", 0) for s in ruling["steps"]]
    assert damages[0] == 5 and damages[-1] == 10 and 0 in damages  # healed to 0, then Spark


def test_final_is_loadable_as_a_new_scenario_state():
    path = ROOT / "mechanics" / "fizzle-ambush-resolves-ambusher-captured.yaml"
    original = load_scenario_file(path)
    ruling = resolve(original)
    again = load_scenario({"cards": original.cards_raw, "state": ruling["final"]}, source="continued")
    assert again.state.to_dict() == ruling["final"]


def test_a_loop_hits_the_step_cap_and_is_reported():
    echo = {"name": "Echo", "type": "soul", "rank": 2, "attribute": "light", "atk": 0, "def": 5, "hp": 30,
            "effects": [{"name": "Again", "kind": "timing", "trigger": "after_battle", "mandatory": True,
                         "targets": [{"soul": "opposing"}],
                         "do": [{"battle": {"attacker": "self", "target": "target"}}]},
                        {"name": "Start", "kind": "activated", "targets": [{"soul": "opposing"}],
                         "do": [{"battle": {"attacker": "self", "target": "target"}}]}]}
    s = scenario(combat({"C3": "Echo"}, {"C3": "Wall"}, phase="preparation"),
                 [{"activate": "Start", "card": "C3", "targets": ["B:C3"]}], [echo])
    ruling = resolve(s, cap=300)
    assert ruling["ok"] is False and ruling["loop"] is True
    last = ruling["steps"][-1]
    assert last["kind"] == "limit" and "300 steps" in last["text"] and "loop" in last["text"]
    assert len(ruling["steps"]) == 301


def test_instant_effects_triggering_each_other_are_stopped_as_a_loop_not_a_crash():
    # 12.5.1: an Instant Effect resolves at once, even in the middle of another one; two Souls whose
    # Instant Effect answers "attacked" with a battle that counts as an attack would nest for ever.
    mirror = {"name": "Mirror", "type": "soul", "rank": 2, "attribute": "light", "atk": 5, "def": 100,
              "hp": 1000,
              "effects": [{"kind": "instant", "trigger": "attacked",
                           "do": [{"battle": {"attacker": "self", "target": "attacker",
                                              "counts_as_attack": True}}]}]}
    s = scenario(combat({"C3": "Mirror"}, {"C3": "Mirror"}), [{"attack": "C3", "target": "B:C3"}], [mirror])
    ruling = resolve(s)
    assert ruling["ok"] is False and ruling["loop"] is True
    assert not any(step["kind"] == "error" for step in ruling["steps"])
    last = ruling["steps"][-1]
    assert last["kind"] == "limit" and "Mirror" in last["text"] and "loop" in last["text"]


def test_a_loop_fails_its_expectations():
    echo = {"name": "Echo", "type": "soul", "rank": 2, "attribute": "light", "atk": 0, "def": 5, "hp": 30,
            "effects": [{"name": "Again", "kind": "timing", "trigger": "after_battle", "mandatory": True,
                         "targets": [{"soul": "opposing"}],
                         "do": [{"battle": {"attacker": "self", "target": "target"}}]}]}
    s = scenario(combat({"C3": "Echo"}, {"C3": "Wall"}), [{"attack": "C3", "target": "B:C3"}], [echo],
                 expect={"winner": "none"})
    ruling = resolve(s, cap=200)
    assert ruling["expect"]["passed"] is False
    assert "step" in ruling["expect"]["failures"][0]


def test_stop_is_the_default_and_continue_plays_on():
    state = combat({"C3": "Knight"}, {"C3": "Wall", "L2": "Wall"})
    actions = [{"attack": "L2", "target": "B:C3"}, {"attack": "C3", "target": "B:L2"}]
    stopped = resolve(scenario(state, actions))
    assert stopped["rejected"]["action"] == 0
    assert stopped["final"]["players"]["B"]["field"]["L2"].get("damage", 0) == 0
    went_on = resolve(scenario(state, actions, on_illegal="continue"))
    assert went_on["rejected"]["action"] == 0
    assert went_on["final"]["players"]["B"]["field"]["L2"]["damage"] == 15


def test_nothing_is_played_after_the_duel_is_won():
    state = combat({"C3": "Knight", "L2": "Knight"}, {"altar": {"card": "King Umbra", "damage": 40}})
    ruling = resolve(scenario(state,
                              [{"attack": "C3", "target": "B:altar"}, {"attack": "L2", "target": "B:altar"}]))
    assert ruling["winner"] == "A"
    assert ruling["rejected"]["action"] == 1
    rules = ruling["rejected"]["rules"]
    assert "interpretation/duel-over" in rules or "glossary/leader" in rules


def test_counterblow_says_it_rests_on_our_reading():
    temple = {"name": "Temple", "type": "realm", "rank": 1, "atk": 15, "def": 5, "hp": 40}
    state = combat({"C3": "Knight"}, {})
    state["players"]["B"]["realms"] = {"realm1": "Temple"}
    ruling = resolve(scenario(state, [{"attack": "C3", "target": "B:realm1"}], [temple]))
    blow = next(s for s in ruling["steps"] if "counterblow" in s["text"])
    assert "interpretation/realm-counterblow" in blow["rules"] and "our reading" in blow["text"]
    assert ruling["final"]["players"]["A"]["field"]["C3"]["damage"] == 10   # 15 - DEF 5
    assert ruling["final"]["players"]["B"]["realms"]["realm1"]["damage"] == 20  # 25 - DEF 5


def test_state_after_reports_the_open_window():
    s = load_scenario_file(ROOT / "mechanics" / "cascade-last-in-first-out.yaml")
    state, window = state_after(s, 1)
    assert window is not None and window.response and window.priority == "A"
    assert state.event_slot == "Spark"
    state0, window0 = state_after(s, 0)
    assert window0 is None and state0.event_slot is None
    assert {"pass": True, "by": "A"} in engine.legal_actions(s, after=1)


def test_api_resolve_delegates_here(client):
    text = (ROOT / "mechanics" / "win-capture-leader.yaml").read_text()
    resp = client.post("/api/resolve", data=text, content_type="application/yaml")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["winner"] == "A" and body["expect"]["passed"] is True


def test_an_engine_failure_is_reported_in_the_ruling_not_hidden(monkeypatch):
    from judge.engine.play import effects

    def broken(*args, **kwargs):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(effects, "run_do", broken)
    s = load_scenario_file(ROOT / "mechanics" / "window-implicit-pass.yaml")
    ruling = resolve(s)
    assert ruling["ok"] is False and "simulated bug" in ruling["error"]
    assert ruling["steps"][-1]["kind"] == "error"
    assert ruling["expect"]["passed"] is False
