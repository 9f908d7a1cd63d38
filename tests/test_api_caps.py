"""`judge.engine.engine.resolve` takes the caps the desk needs: at most `max_steps` steps of play and at
most `max_actions` queued actions; the desk's runner calls it with its own caps."""

from __future__ import annotations

import pytest
import yaml
from engine_helpers import base

from judge import SCENARIOS_DIR, engine
from judge.desk import runner
from judge.engine import ScenarioError

LONG = SCENARIOS_DIR / "13-static-and-unyielding" / "until-opponents-next-turn-ends.yaml"  # 12 actions


def _recruits(count: int) -> dict:
    data = base(A={"hand": ["Grunt"] * count})
    data["actions"] = [{"recruit": "Grunt", "to": to} for to in ("L2", "R2", "C2")[:count]]
    return data


def test_max_steps_stops_a_resolution_and_says_so_in_the_ruling():
    scenario = engine.load_scenario(LONG.read_text(encoding="utf-8"), source=LONG.name)
    whole = engine.resolve(scenario)
    assert len(whole["steps"]) > 10 and "loop" not in whole and whole["ok"]
    capped = engine.resolve(scenario, max_steps=5)
    assert capped["loop"] is True and capped["ok"] is False
    assert capped["steps"][-1]["kind"] == "limit"
    assert capped["steps"][:5] == whole["steps"][:5]
    assert len(capped["steps"]) == 6


def test_max_actions_refuses_a_longer_queue_naming_actions():
    scenario = engine.load_scenario(yaml.safe_dump(_recruits(3)))
    with pytest.raises(ScenarioError) as caught:
        engine.resolve(scenario, max_actions=2)
    assert caught.value.problems[0]["path"] == "actions"
    assert "3 actions" in caught.value.problems[0]["message"]
    assert engine.resolve(scenario, max_actions=3)["steps"]


def test_the_desk_resolves_through_the_api_with_its_step_cap(monkeypatch):
    seen = {}
    real = engine.resolve

    def spy(scenario, snapshots=False, max_steps=None, max_actions=None, edition=None):
        seen.update(max_steps=max_steps, max_actions=max_actions)
        return real(scenario, snapshots=snapshots, max_steps=max_steps, max_actions=max_actions,
                    edition=edition)

    monkeypatch.setattr(engine, "resolve", spy)
    ruling = runner.resolve(_recruits(1))
    assert ruling["steps"]
    assert seen == {"max_steps": runner.WEB_STEP_CAP, "max_actions": runner.MAX_ACTIONS}
