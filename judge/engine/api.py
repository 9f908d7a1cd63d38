"""The engine's public entry points (docs/DEVELOPING.md), shared by the CLI, the web API and the
desk.

    scenario = load_scenario(text_or_mapping, source="file.yaml")   # raises ScenarioError
    position(scenario)                # contract §6: {"scenario", "codex", "derived", "checks"}
    resolve(scenario, snapshots=False)  # contract §5 ruling (part 2: judge.engine.resolve)
    legal_actions(scenario, after=None) # legal actions after the first `after` queued actions
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from judge.engine import scenario as scenario_mod
from judge.engine import verbs
from judge.engine.action import Action
from judge.engine.scenario import Scenario
from judge.engine.stats import derive


def load_scenario(data: str | bytes | Mapping[str, Any], source: str | None = None) -> Scenario:
    return scenario_mod.load_scenario(data, source=source)


def position(scenario: Scenario, detail: bool = True) -> dict[str, Any]:
    """The position as given: `derived` for every occupied slot and, for each queued action,
    whether it would be legal in this starting position, with the violations."""
    state = scenario.state
    board = derive(state)
    checks = []
    for action in scenario.actions:
        violations = verbs.verify(state, action, board=board)
        checks.append({"action": action.index, "do": action.to_dict(), "legal": not violations,
                       "violations": [v.to_dict() for v in violations]})
    return {
        "scenario": scenario.id,
        "title": scenario.title,
        "codex": scenario.codex or _codex_version(),
        "turn_player": state.turn_player,
        "phase": state.phase,
        **({"round": state.round} if state.phase == "setup" else {}),
        "derived": board.derived(detail=detail),
        "checks": checks,
    }


def _resolver():
    try:
        return importlib.import_module("judge.engine.resolve")
    except ModuleNotFoundError as exc:
        if exc.name == "judge.engine.resolve":
            raise NotImplementedError("resolution (judge.engine.resolve) is not built yet") from None
        raise


def resolve(scenario: Scenario, snapshots: bool = False) -> dict[str, Any]:
    """The contract's §5 ruling; delegates to part 2 (`judge.engine.resolve.resolve`)."""
    return _resolver().resolve(scenario, snapshots=snapshots)


def legal_actions(scenario: Scenario, after: int | None = None) -> list[dict[str, Any]]:
    """Legal actions (contract §4 dicts, with `by`) for the player who may act after the first
    `after` queued actions (None: all of them). With after=0, in the starting position.

    After one or more actions this asks part 2: `judge.engine.resolve.state_after(scenario, n)`
    returning `(state, window)` when it exists; otherwise the first `n` actions are resolved and the
    list is made in the `final` state, with every window closed. An illegal action among them is a
    ValueError naming it."""
    count = len(scenario.actions) if after is None else after
    if count < 0 or count > len(scenario.actions):
        raise ValueError(f"after must be between 0 and {len(scenario.actions)}, got {after}")
    if count == 0:
        return _dicts(verbs.legal_actions(scenario.state))
    resolver = _resolver()
    if hasattr(resolver, "state_after"):
        state, window = resolver.state_after(scenario, count)
        return _dicts(verbs.legal_actions(state, window))
    data = scenario.to_dict()
    data["actions"] = data["actions"][:count]
    data.pop("expect", None)
    data["on_illegal"] = "stop"
    ruling = resolver.resolve(scenario_mod.load_scenario(data, source=scenario.source))
    rejected = ruling.get("rejected")
    if rejected:
        raise ValueError(f"action {rejected.get('action')} is not legal: {rejected.get('text')}")
    data["state"] = ruling["final"]
    data["actions"] = []
    return _dicts(verbs.legal_actions(scenario_mod.load_scenario(data, source=scenario.source).state))


def _dicts(actions: list[Action]) -> list[dict[str, Any]]:
    return [a.to_dict() for a in actions]


def _codex_version() -> str:
    try:
        from judge.codex import load_codex

        return load_codex().version
    except Exception:  # noqa: BLE001 (the Codex data is another area's; position works without it)
        return "0.4.0"
