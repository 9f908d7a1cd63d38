"""11.3.3: a Timing Effect with a condition is checked when it triggers, and its trigger step says the
condition holds. Each effect's step says its own condition, once: a card with two conditional effects
on one event does not lend the first one's note to the second."""

from __future__ import annotations

from judge.engine.driver.api import load_scenario, resolve

WARY = {"name": "Wary Veteran", "type": "soul", "rank": 1, "attribute": "light", "atk": 5, "def": 5,
        "hp": 30, "effects": [
            {"name": name, "kind": "timing", "trigger": "attacked", "condition": {"damaged": True},
             "do": [{"gain": {"def": 5}, "to": "self", "until": "end_of_turn"}]}
            for name in ("Brace", "Hunker")]}


def test_two_conditional_effects_on_one_event_each_say_their_own_condition_once():
    scenario = load_scenario({
        "cards": [WARY],
        "state": {"turn_player": "B", "phase": "combat", "players": {
            "A": {"field": {"altar": "Queen Sol", "L2": {"card": "Wary Veteran", "damage": 5}}},
            "B": {"field": {"altar": "King Umbra", "L2": "Dusk Lancer"}}}},
        "actions": [{"attack": "L2", "target": "A:L2"}]})
    steps = [s for s in resolve(scenario)["steps"] if s["kind"] == "trigger" and " triggers: " in s["text"]]
    assert [s["text"].split("'s ", 1)[1].split(" triggers")[0] for s in steps] == [
        "optional Timing Effect Brace", "optional Timing Effect Hunker"]
    assert all(s["text"].count("its condition holds now") == 1 for s in steps), [s["text"] for s in steps]
