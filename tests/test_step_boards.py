"""Each step of a ruling with snapshots carries the board the engine derived after it; the desk draws a
step's board from it and never loads a step's state again as a scenario."""

from __future__ import annotations

import pytest

from judge import SCENARIOS_DIR
from judge.desk import pages, runner
from judge.engine import load_scenario_file
from judge.engine.driver.resolve import resolve
from judge.engine.play.game import Game
from judge.web import create_app

NEGATION = SCENARIOS_DIR / "13-static-and-unyielding" / "newer-negation-wins.yaml"
STEPS = SCENARIOS_DIR / "13-static-and-unyielding" / "until-opponents-next-turn-ends.yaml"


@pytest.mark.parametrize("path", [NEGATION, STEPS], ids=lambda p: p.stem)
def test_each_step_carries_the_board_the_game_had_after_it(path):
    seen: list[dict] = []

    def observe(g: Game) -> None:
        seen.append((len(g.trace.steps), g.board().derived(detail=True, contributions=False)))

    ruling = resolve(load_scenario_file(path), snapshots=True, observe=observe)
    by_step = dict(seen)
    assert ruling["steps"] and all("derived" in step for step in ruling["steps"])
    for step in ruling["steps"]:
        if step["n"] in by_step:
            assert step["derived"] == by_step[step["n"]], f"step {step['n']}"
    last = ruling["steps"][-1]["derived"]
    final = {ref: {k: v for k, v in values.items() if k != "contributions"}
             for ref, values in ruling["derived"].items()}
    assert last == final


def test_without_snapshots_a_step_carries_neither_state_nor_board():
    ruling = resolve(load_scenario_file(STEPS))
    assert not any("derived" in step or "state" in step for step in ruling["steps"])
    kept = runner.without_snapshots(resolve(load_scenario_file(STEPS), snapshots=True))
    assert not any("derived" in step or "state" in step for step in kept["steps"])


def test_a_negation_shows_on_the_step_boards_as_the_engine_derived_it():
    """A lasting negation and the order of two negations live in the engine's state, not in a step's
    §2 snapshot: a board loaded again from the snapshot lost them; the step's own board keeps them."""
    ruling = resolve(load_scenario_file(NEGATION), snapshots=True)
    final = ruling["derived"]
    negated = {ref for ref, values in final.items() if values.get("negated")}
    assert negated, "the scenario negates a card"
    assert {ref for ref, values in ruling["steps"][-1]["derived"].items() if values.get("negated")} == negated


def test_a_ruling_page_draws_its_steps_without_loading_their_states(tmp_path, monkeypatch):
    app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "JUDGE_BUDGET_SECONDS": 60,
                      "DATABASE": str(tmp_path / "r.sqlite3"), "INDEX_DIR": str(tmp_path / "index")})
    pid = STEPS.relative_to(SCENARIOS_DIR).with_suffix("").as_posix()
    loaded: list[object] = []
    monkeypatch.setattr(runner, "_derive_cached", lambda key: loaded.append(key) or {})
    pages._svg_cached.cache_clear()
    response = app.test_client().get(f"/scenarios/{pid}")
    assert response.status_code == 200
    assert b"The board after step" in response.data
    assert loaded == []
