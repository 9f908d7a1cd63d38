"""The desk's runner: its one door to the engine (`judge.engine`), with the limits the web puts on
input.

Everything a user posts comes through `parse` (YAML or JSON text → mapping, with line numbers on
malformed YAML) and `load` (mapping → engine scenario, with the engine's key-path problems), after
`check_limits` has refused what is too big to be worth an engine's time.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import yaml

from judge import engine
from judge.engine import OutOfTime, ScenarioError, StepLimit, budget

log = logging.getLogger("judge.engine")

# Caps on what a posted scenario may hold (the engine caps its own steps).
MAX_ACTIONS = 60
MAX_CARDS = 60
MAX_PILE = 120
MAX_LASTING = 60
MAX_EFFECTS = 12  # effects on one custom card, and parts (`do:`) of one effect
MAX_TARGETS = 24  # target selectors of one effect (the engine's clock bounds the rest)
MAX_DEPTH = 40  # levels of nesting; a scenario needs about ten, and the desk's JSON walks recurse
# seconds at least for drawing a ruling's boards once it is resolved (past them: no pictures); each step
# carries the board the engine derived there, so drawing is painting only (bench/desk.py)
RENDER_GRACE = 0.2
TEXT_KEYS = ("id", "title", "question", "codex")  # a scenario's words about itself: text (codex: not empty)
WEB_STEP_CAP = 2000  # steps of one resolution on the web (the engine's own cap is for the CLI)
# A ruling draws the board after each of its first MAX_STEP_BOARDS steps (and after the last): a
# resolution that loops until the step cap must not cost a picture per step (nor keep a board per step)
MAX_STEP_BOARDS = 150


class DeskInputError(ValueError):
    """A posted scenario the desk can't use: `.problems` are [{path, message, line?}]."""

    def __init__(self, message: str, problems: list[dict[str, Any]]):
        super().__init__(message)
        self.problems = problems


class EngineFailure(RuntimeError):
    """The engine raised on a scenario: a bug, never a ruling. Logged with the scenario's hash (so
    the scenario can be found and replayed) and answered as a 500 in the error shape."""

    def __init__(self, data: Mapping[str, Any], failure: str):
        self.scenario_hash = content_id(data, 64)
        super().__init__(f"the engine failed on scenario {self.scenario_hash[:12]}: {failure}")
        log.error("engine failure on scenario %s: %s", self.scenario_hash, failure)


def read_yaml(text: str) -> Any:
    """YAML text as the engine reads it: YAML 1.2 booleans (the contract's `on:` stays the key "on"),
    and aliases refused once they expand past the engine's node limit (a small post can't become a
    billion nodes). Raises yaml.YAMLError or DeskInputError."""
    try:
        data = engine.safe_load(text)
    except engine.YamlTooLarge as exc:
        line = exc.problem_mark.line + 1
        raise DeskInputError(exc.headline, [{"path": "", "message": exc.problem, "line": line}]) from None
    except RecursionError:
        raise DeskInputError(
            "The scenario is nested too deeply.", [{"path": "", "message": _TOO_DEEP}]
        ) from None
    too_big = engine.expanded_size_problem(data)
    if too_big:
        raise DeskInputError("The scenario is too large.",
                             [{"path": "", "message": too_big}])
    if nesting_depth(data) > MAX_DEPTH:
        raise DeskInputError("The scenario is nested too deeply.", [{"path": "", "message": _TOO_DEEP}])
    return engine.fix_keys(data)


def parse(text: str) -> dict[str, Any]:
    """YAML (JSON is YAML too) → a mapping; malformed input names its line."""
    try:
        data = read_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        entry: dict[str, Any] = {"path": "", "message": f"not valid YAML: {problem}"}
        if mark is not None:
            entry["line"] = mark.line + 1
            entry["message"] += f" (line {mark.line + 1}, column {mark.column + 1})"
        raise DeskInputError("The scenario is not valid YAML.", [entry]) from None
    if not isinstance(data, dict):
        kind = "empty" if data is None else type(data).__name__
        raise DeskInputError(
            "A scenario is a mapping with state: and actions:.",
            [{"path": "", "message": f"expected a mapping (state:, actions:, …), got {kind}"}],
        )
    return data


def parse_action(text: str) -> dict[str, Any]:
    """One queued action written by hand (§4), e.g. `{attack: C2, target: "B:L1"}`."""
    try:
        data = read_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        raise DeskInputError("The action is not valid YAML.",
                             [{"path": "action", "message": f"not valid YAML{where}"}]) from None
    if not isinstance(data, dict) or not data:
        raise DeskInputError(
            "An action is a map with one verb.",
            [{"path": "action", "message": "expected a map such as {attack: C2, target: 'B:L1'}"}],
        )
    return data


_TOO_DEEP = f"the scenario is nested more than {MAX_DEPTH} levels deep"


def nesting_depth(data: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply mappings and lists nest in `data` (a scalar is 0), counting no further than `limit` + 1;
    without recursion, so no input is too deep to measure."""
    deepest = 0
    stack = [(data, 0)]
    while stack and deepest <= limit:
        node, depth = stack.pop()
        if isinstance(node, Mapping | list | tuple):
            deepest = max(deepest, depth + 1)
            stack.extend(
                (child, depth + 1) for child in (node.values() if isinstance(node, Mapping) else node)
            )
    return deepest


def _effect_problems(i: int, card: Any) -> list[dict[str, Any]]:
    """A custom card's effects, and each effect's parts, are capped at MAX_EFFECTS."""
    problems = []
    effects = card.get("effects") if isinstance(card, Mapping) else None
    if isinstance(effects, list) and len(effects) > MAX_EFFECTS:
        problems.append({"path": f"cards[{i}].effects", "message": f"{len(effects)} effects; at most "
                                                                   f"{MAX_EFFECTS}"})
    for j, effect in enumerate(effects if isinstance(effects, list) else ()):
        parts = effect.get("do") if isinstance(effect, Mapping) else None
        if isinstance(parts, list) and len(parts) > MAX_EFFECTS:
            problems.append({"path": f"cards[{i}].effects[{j}].do", "message": f"{len(parts)} parts; at most "
                                                                               f"{MAX_EFFECTS}"})
        targets = effect.get("targets") if isinstance(effect, Mapping) else None
        if isinstance(targets, list) and len(targets) > MAX_TARGETS:
            problems.append({"path": f"cards[{i}].effects[{j}].targets",
                             "message": f"{len(targets)} targets; at most {MAX_TARGETS}"})
    return problems


def check_limits(data: Mapping[str, Any]) -> None:
    if nesting_depth(data) > MAX_DEPTH:
        raise DeskInputError("The scenario is nested too deeply.", [{"path": "", "message": _TOO_DEEP}])
    odd = engine.value_problems(data)
    if odd:  # refused before anything echoes it back (a lone surrogate can't even be sent as UTF-8)
        raise DeskInputError("The scenario holds values a scenario can't.", odd)
    wrong = [{"path": key, "message": "expected text" if key != "codex" else
              "expected an edition's version as text, e.g. 0.4.0"}
             for key in TEXT_KEYS if key in data and not (isinstance(data[key], str) and
                                                         (data[key] or key != "codex"))]
    if wrong:  # what the API's schema says of them, so a body it refuses is refused here too
        raise DeskInputError("The scenario has problems.", wrong)
    problems = []
    actions = data.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        problems.append(
            {"path": "actions", "message": f"{len(actions)} actions; the desk takes at most {MAX_ACTIONS}"}
        )
    cards = data.get("cards")
    if isinstance(cards, list) and len(cards) > MAX_CARDS:
        problems.append({"path": "cards",
                         "message": f"{len(cards)} cards; the desk takes at most {MAX_CARDS}"})
    for i, card in enumerate(cards if isinstance(cards, list) else ()):
        problems += _effect_problems(i, card)
    state = data.get("state")
    if isinstance(state, Mapping):
        problems += _state_problems(state)
    if problems:
        raise DeskInputError("The scenario is larger than the desk accepts.", problems)


def _state_problems(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The state's lasting effects and piles past the desk's caps."""
    problems = []
    lasting = state.get("lasting")
    if isinstance(lasting, list) and len(lasting) > MAX_LASTING:
        problems.append({"path": "state.lasting", "message": f"at most {MAX_LASTING} lasting effects"})
    players = state.get("players")
    for player, pstate in (players.items() if isinstance(players, Mapping) else ()):
        if not isinstance(pstate, Mapping):
            continue
        for pile in ("hand", "deck", "elysium", "exile"):
            value = pstate.get(pile)
            size = len(value) if isinstance(value, list) else value if isinstance(value, int) else 0
            if size > MAX_PILE:
                problems.append({"path": f"state.players.{player}.{pile}",
                                 "message": f"{size} cards; the desk takes at most {MAX_PILE}"})
    return problems


def load(data: Mapping[str, Any], source: str = "desk") -> Any:
    """The engine's scenario for `data`, or DeskInputError with the engine's key paths."""
    check_limits(data)
    try:
        return engine.load_scenario(dict(data), source=source)
    except ScenarioError as exc:
        problems = [dict(p) for p in getattr(exc, "problems", [])] or [{"path": "", "message": str(exc)}]
        raise DeskInputError("The scenario has problems.", problems) from None


def resolve(data: Mapping[str, Any], source: str = "desk", snapshots: bool = True,
            edition: str | None = None) -> dict[str, Any]:
    """The §5 ruling, each step carrying the §2 `state` after it (unless `snapshots` is false), under
    the Codex `edition` (default: the scenario's `codex:`, else the current edition); a loop stops
    after WEB_STEP_CAP steps, well inside a second."""
    scenario = load(data, source)
    try:
        ruling = engine.resolve(scenario, snapshots=snapshots, max_steps=WEB_STEP_CAP,
                                max_actions=MAX_ACTIONS, edition=edition)
    except ScenarioError as exc:
        raise DeskInputError(
            "The scenario is larger than the desk accepts.", [dict(p) for p in exc.problems]
        ) from None
    if ruling.get("error"):
        raise EngineFailure(data, ruling["error"])
    steps = ruling.get("steps") or []
    for step in steps[MAX_STEP_BOARDS:-1]:   # never drawn: a kept ruling does not carry their boards
        step.pop("derived", None)
    budget.grace(RENDER_GRACE)  # drawing the ruling's boards gets its own short budget
    return ruling


def questions(data: Mapping[str, Any], source: str = "desk") -> list[dict[str, Any]]:
    """The questions the scenario's position and queue allow (contract §7), the likeliest first."""
    return engine.questions(load(data, source))


def position(data: Mapping[str, Any], source: str = "desk") -> dict[str, Any]:
    return engine.position(load(data, source))


def legal_actions(data: Mapping[str, Any], after: int | None, refused: bool = False) -> list[dict[str, Any]]:
    """The legal actions after the first `after` queued actions; with `refused`, both players' candidate
    actions that are not legal then, each with its violations (engine.refused_actions)."""
    scenario = load(data)
    try:
        return list((engine.refused_actions if refused else engine.legal_actions)(scenario, after=after))
    except ValueError as exc:  # `after` out of range
        raise DeskInputError(str(exc), [{"path": "after", "message": str(exc)}]) from None
    except (StepLimit, RecursionError, MemoryError):  # StepLimit: the budget ran out, a 422, not a bug
        raise
    except Exception as exc:
        raise EngineFailure(data, f"{type(exc).__name__}: {exc}") from exc


def derive(state: Mapping[str, Any], cards: list[Any] | None = None) -> dict[str, Any]:
    """`derived` (§5) for a bare state, e.g. one step's snapshot; {} when it does not load."""
    key = canonical_json({"cards": cards or [], "state": state})
    try:
        return _derive_cached(key)
    except OutOfTime:  # past the request's budget: the board is drawn without derived values
        return {}


@lru_cache(maxsize=1024)
def _derive_cached(key: str) -> dict[str, Any]:
    data = json.loads(key)
    if not data["cards"]:
        del data["cards"]
    try:
        return position(data, source="snapshot").get("derived") or {}
    except DeskInputError:
        return {}


def json_safe(data: Any) -> Any:
    """`data` with every mapping key a string: YAML 1.1 reads a bare `on:` as the key True, and JSON
    with sorted keys can't mix booleans and strings."""
    if isinstance(data, Mapping):
        return {
            k if isinstance(k, str) else json.dumps(k, default=str): json_safe(v) for k, v in data.items()
        }
    if isinstance(data, (list, tuple)):
        return [json_safe(v) for v in data]
    return data


def canonical_json(data: Any) -> str:
    return json.dumps(json_safe(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def content_id(data: Mapping[str, Any], length: int = 12) -> str:
    """The same scenario always gets the same id: a short hash of its canonical JSON."""
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()[:length]


def to_yaml(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100)


# The derived values an outcome promises (§5); the engine's explanations of them may be reworded freely.
OUTCOME_VALUES = ("card", "line", "atk", "def", "hp", "max_hp", "damage", "keywords", "proactive", "captured",
                  "shattered")


def outcome(ruling: Mapping[str, Any]) -> dict[str, Any]:
    """What a saved ruling promises: the winner, the rejected action, and the final board."""
    rejected = ruling.get("rejected")
    return {
        "winner": ruling.get("winner"),
        "rejected": None
        if not rejected
        else {"action": rejected.get("action"), "rules": rejected.get("rules", [])},
        "final": ruling.get("final"),
        "derived": {
            ref: {k: v for k, v in values.items() if k in OUTCOME_VALUES}
            for ref, values in (ruling.get("derived") or {}).items()
            if isinstance(values, Mapping)
        },
    }


SNAPSHOT_KEYS = ("state", "derived")   # what a step carries with snapshots: the state and board after it


def without_snapshots(ruling: Mapping[str, Any]) -> dict[str, Any]:
    """The ruling as the contract gives it (steps without their `state` and `derived`)."""
    out = dict(ruling)
    out["steps"] = [{k: v for k, v in step.items() if k not in SNAPSHOT_KEYS}
                    for step in ruling.get("steps", [])]
    return out
