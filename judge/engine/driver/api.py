"""The engine's public entry points (docs/DEVELOPING.md), shared by the CLI, the web API and the
desk.

    scenario = load_scenario(text_or_mapping, source="file.yaml")   # raises ScenarioError
    position(scenario)                # contract §6: {"scenario", "codex", "derived", "checks"}
    resolve(scenario, snapshots=False, max_steps=None, max_actions=None)  # contract §5 ruling
    legal_actions(scenario, after=None) # legal actions after the first `after` queued actions
    can(scenario, action, after=None)   # is this one action legal there? (no list is built)
    why_not(scenario, action, after=None)  # why not, as reason records (empty when it is legal)
    refused_actions(scenario, after=None) # the candidates of both players that are not legal then

`resolve` takes the caps a caller that serves strangers needs (the desk): at most `max_steps` steps
(a loop is stopped and reported in the ruling) and at most `max_actions` queued actions (more is a
ScenarioError naming `actions`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.engine.data.edition import current_version
from judge.engine.data.errors import Reason, ScenarioError, problem
from judge.engine.driver import answers, verbs
from judge.engine.driver import resolve as resolution
from judge.engine.driver import scenario as scenario_mod
from judge.engine.driver.scenario import Scenario
from judge.engine.position.action import Action
from judge.engine.position.board import derive
from judge.engine.position.state import State
from judge.engine.rules.moment import Window


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
        "codex": scenario.codex or current_version(),
        "turn_player": state.turn_player,
        "phase": state.phase,
        **({"round": state.round} if state.phase == "setup" else {}),
        "derived": board.derived(detail=detail),
        "checks": checks,
    }


def resolve(scenario: Scenario, snapshots: bool = False, max_steps: int | None = None,
            max_actions: int | None = None, edition: str | None = None) -> dict[str, Any]:
    """The contract's §5 ruling (`judge.engine.driver.resolve.resolve`) under the Codex `edition` (default:
    the scenario's `codex:`, else the current edition), each step with the §2 `state` after it when
    `snapshots`. `max_steps` (default: the engine's own cap) stops a loop sooner; `max_actions`
    refuses a longer queue with a ScenarioError naming `actions`."""
    if max_actions is not None and len(scenario.actions) > max_actions:
        raise ScenarioError([problem("actions", "too_many_actions", count=len(scenario.actions),
                                     most=max_actions)], source=scenario.source)
    cap = resolution.STEP_CAP if max_steps is None else max_steps
    return resolution.resolve(scenario, snapshots=snapshots, cap=cap, edition=edition)


def legal_actions(scenario: Scenario, after: int | None = None) -> list[dict[str, Any]]:
    """Legal actions (contract §4 dicts, with `by`) for the player who may act after the first
    `after` queued actions (None: all of them). With after=0, in the starting position; otherwise in
    the state (and the open response window) just before action `after` would be taken
    (`judge.engine.driver.resolve.state_after`)."""
    return _dicts(verbs.legal_actions(*_position(scenario, after)))


def refused_actions(scenario: Scenario, after: int | None = None) -> list[dict[str, Any]]:
    """The candidate actions of both players that are not legal after the first `after` queued actions
    (as `legal_actions`), each with its violations: [{"action", "violations": [{text, rules}]}]."""
    state, window = _position(scenario, after)
    return [{"action": a.to_dict(), "violations": [v.to_dict() for v in why]}
            for a, why in verbs.refused_actions(state, window)]


def can(scenario: Scenario, action: Mapping[str, Any] | Action, after: int | None = None) -> bool:
    """Whether `action` (a contract §4 dict or an Action) is legal after the first `after` queued
    actions (as `legal_actions` counts them): `action in legal_actions(scenario, after)`, found by
    checking that one action (python-chess's `move in board.legal_moves`)."""
    state, window = _position(scenario, after)
    return verbs.can(state, _action(scenario, action), window)


def why_not(scenario: Scenario, action: Mapping[str, Any] | Action, after: int | None = None) -> list[Reason]:
    """Why `action` is not legal there, as reason records (`Reason.to_dict()` for JSON): the records a
    ruling's refusal of it carries, and a `refused` record for a refusal with words and rules only.
    Empty when it is legal. A malformed action raises ScenarioError naming what is wrong."""
    state, window = _position(scenario, after)
    return verbs.why_not(state, _action(scenario, action), window)


def _action(scenario: Scenario, action: Mapping[str, Any] | Action) -> Action:
    return action if isinstance(action, Action) else scenario_mod.parse_action(action, scenario)


def _position(scenario: Scenario, after: int | None) -> tuple[State, Window | None]:
    """The state and open response window just before queued action `after` (None: after them all)."""
    count = len(scenario.actions) if after is None else after
    if count < 0 or count > len(scenario.actions):
        raise ValueError(f"after must be between 0 and {len(scenario.actions)}, got {after}")
    return resolution.state_after(scenario, count) if count else (scenario.state, None)


def _dicts(actions: list[Action]) -> list[dict[str, Any]]:
    return [a.to_dict() for a in actions]


def questions(scenario: Scenario) -> list[dict[str, Any]]:
    """The questions (contract §7) the scenario's position and queue allow, the likeliest first:
    [{"ask", "question", "likely"}] (the desk's "What do you want to know?")."""
    likely = answers.likely_ask(scenario.actions, scenario.state, None)
    return [{"ask": ask.to_dict(), "question": answers.question(ask, scenario.actions, scenario.state),
             "likely": ask == likely} for ask in answers.candidates(scenario.actions, scenario.state)]
