"""The end of a duel has a shape (judge/engine/position/outcome.py): an `Outcome(winner, reason, rules)`
set where the duel ends, from one `Ending` record per way it can end, and read by everything that
speaks of it — the win step, the refusal of what is queued after it, the window it closes."""

from __future__ import annotations

import copy

import pytest

from judge import SCENARIOS_DIR
from judge.codex import load_codex
from judge.engine.driver import verbs
from judge.engine.driver.resolve import resolve
from judge.engine.driver.scenario import load_scenario, load_scenario_file
from judge.engine.position.outcome import ENDINGS, Outcome

WINS = {"leader captured": "mechanics/win-capture-leader.yaml",
        "both leaders captured": "mechanics/win-both-leaders-turn-player.yaml",
        "decked out": "mechanics/turns-decked-out-loses.yaml"}


def _ended(path: str) -> tuple[dict, Outcome]:
    seen: list[Outcome] = []

    def watch(g):
        if g.state.outcome is not None and not seen:
            seen.append(g.state.outcome)

    ruling = resolve(load_scenario_file(SCENARIOS_DIR / path), observe=watch)
    return ruling, seen[0]


def test_every_ending_cites_rules_the_codex_knows_and_names_them():
    codex = load_codex()
    for ending in ENDINGS.values():
        assert ending.rules and all(codex.knows(r) for r in ending.rules), ending.name


@pytest.mark.parametrize("reason", sorted(WINS))
def test_where_a_duel_ends_it_holds_its_outcome_and_the_win_step_cites_that_endings_rules(reason):
    ruling, outcome = _ended(WINS[reason])
    assert outcome.reason == reason and outcome.winner == ruling["winner"]
    win = [s for s in ruling["steps"] if s["kind"] == "win"]
    assert len(win) == 1 and tuple(win[0]["rules"]) == ENDINGS[reason].rules
    assert ruling["winner"] in win[0]["text"]


def test_an_action_after_a_decked_out_win_is_refused_for_that_win_not_a_leaders_capture():
    data = load_scenario_file(SCENARIOS_DIR / WINS["decked out"]).to_dict()
    data = copy.deepcopy(data)
    data["actions"].append({"end_phase": True, "by": "A"})
    rejected = resolve(load_scenario(data))["rejected"]
    assert rejected["action"] == len(data["actions"]) - 1
    assert "Decked Out" in rejected["violations"][0]["text"]
    assert "glossary/decked-out" in rejected["rules"] and "glossary/leader" not in rejected["rules"]
    assert "interpretation/duel-over" in rejected["rules"]


def test_a_winner_the_state_states_refuses_every_action_on_our_reading_alone():
    data = load_scenario_file(SCENARIOS_DIR / WINS["decked out"]).to_dict()
    data["state"]["winner"] = "B"
    ruling = resolve(load_scenario(data))
    assert ruling["winner"] == "B" and ruling["rejected"]["action"] == 0
    assert ruling["rejected"]["rules"] == ["interpretation/duel-over"]


def test_a_window_the_duel_ends_in_closes_for_that_not_for_passes_in_a_row(monkeypatch):
    """No verb of ours ends a duel inside a window yet; one that does (a concession, say) is stood in
    for by an answer that ends it."""
    monkeypatch.setattr(verbs, "respond",
                        lambda g, action: g.end_duel("leader captured", "A", loser="B", leader="King Umbra"))
    path = SCENARIOS_DIR / "10-card-types" / "ambush-answers-attack-in-opponents-turn.yaml"
    ruling = resolve(load_scenario_file(path))
    assert ruling["winner"] == "A"
    kinds = [s["kind"] for s in ruling["steps"]]
    close = ruling["steps"][kinds.index("win") + 1]
    assert close["kind"] == "window" and "closes" in close["text"]
    assert "passed in a row" not in close["text"] and "duel is over" in close["text"]
    assert {"interpretation/duel-over", "glossary/leader"} <= set(close["rules"])
