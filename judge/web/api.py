"""The engine over HTTP. Each endpoint takes a scenario (YAML or JSON body, at most 256 KB: the
app's MAX_CONTENT_LENGTH answers 413 above that) and answers JSON:

    POST /api/position            contract §6 position JSON (derived values, checks)
    POST /api/resolve[?snapshots=1]  contract §5 ruling
    POST /api/legal[?after=N]     {"after": N, "player": …, "actions": [contract §4 dicts]}

Bad input gets the one error shape with the problems and their key paths (judge/web/errors.py).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, jsonify, request

from judge import engine
from judge.desk import runner
from judge.engine import Scenario, ScenarioError, StepLimit
from judge.web.errors import BadInput

bp = Blueprint("api", __name__)


BODY_TYPES = ("application/json", "application/yaml", "application/x-yaml", "text/yaml")


@bp.before_request
def body_type() -> None:
    """A body must say it is JSON or YAML: a cross-site form can only send text/plain and the like
    without asking first (a CORS preflight), so such a POST is refused before any work (415)."""
    if request.method == "POST" and request.mimetype not in BODY_TYPES:
        raise BadInput(f"Send the scenario as application/json or application/yaml, not "
                       f"{request.mimetype or 'a body without a Content-Type'}.", status=415)


def scenario_mapping() -> dict[str, Any]:
    """The body as a scenario mapping (JSON or YAML), within the desk's limits."""
    raw = request.get_data(cache=False)  # werkzeug raises 413 above MAX_CONTENT_LENGTH
    if not raw.strip():
        raise BadInput("Send a scenario (YAML or JSON) as the request body.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"The body is not UTF-8 text (byte {exc.start}).") from None
    try:
        data = _parse(text)
        runner.check_limits(data)
    except runner.DeskInputError as exc:
        raise BadInput(str(exc), exc.problems) from None
    except ScenarioError as exc:  # YAML that does not parse: the line is named
        raise _invalid(exc) from None
    return data


def _scenario() -> Scenario:
    data = scenario_mapping()
    try:
        return engine.load_scenario(data, source="request")
    except ScenarioError as exc:
        raise _invalid(exc) from None


def _invalid(exc: ScenarioError) -> BadInput:
    count = len(exc.problems)
    return BadInput(f"The scenario is invalid: {count} problem{'s' if count != 1 else ''}.", exc.problems)


def _parse(text: str) -> dict[str, Any]:
    """The body as a mapping: JSON (huge numbers kept for the loader to refuse by key path) or YAML."""
    if request.mimetype == "application/json":
        try:
            data = engine.json_loads(text)
        except RecursionError:
            raise BadInput("The JSON body is nested too deeply.") from None
        except json.JSONDecodeError as exc:
            raise BadInput("The JSON body is malformed.",
                           [{"path": "", "message": exc.msg, "line": exc.lineno}]) from None
    else:
        try:
            data = engine.parse_yaml(text, source="request")
        except RecursionError:
            raise BadInput("The YAML body is nested too deeply.") from None
        too_big = engine.expanded_size_problem(data)
        if too_big:
            raise BadInput("The scenario is too large.", [{"path": "", "message": too_big}])
    if not isinstance(data, dict):
        raise BadInput("A scenario is a mapping (an object) with state: and actions:.",
                       [{"path": "", "message": "expected a mapping"}])
    return engine.fix_keys(data)


FLAG_VALUES = {"": False, "0": False, "1": True}  # what the OpenAPI document allows (judge.web.openapi)


def _flag(name: str) -> bool:
    value = request.args.get(name, "")
    if value.lower() in ("true", "yes", "false", "no"):  # older spellings, still read
        return value.lower() in ("true", "yes")
    if value not in FLAG_VALUES:
        raise BadInput(f"`{name}` is 1 or 0 (got {value[:20]!r}).",
                       [{"path": name, "message": "expected 1 or 0"}])
    return FLAG_VALUES[value]


@bp.post("/api/position")
def position():
    return jsonify(engine.position(_scenario()))


@bp.post("/api/resolve")
def resolve():
    scenario = _scenario()
    ruling = engine.resolve(scenario, snapshots=_flag("snapshots"))
    if ruling.get("error"):  # the engine failed: a 500 in the error shape, never a ruling
        raise runner.EngineFailure(scenario.to_dict(), ruling["error"])
    return jsonify(ruling)


@bp.post("/api/legal")
def legal():
    scenario = _scenario()
    after_text = request.args.get("after")
    after = None
    if after_text not in (None, ""):
        try:
            after = int(after_text)
        except ValueError:
            raise BadInput(f"after must be a whole number, got {after_text!r}.") from None
        if not 0 <= after <= len(scenario.actions):
            raise BadInput(f"after must be between 0 and {len(scenario.actions)}, got {after}.")
    try:
        actions = engine.legal_actions(scenario, after=after)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    except StepLimit:
        raise
    except Exception as exc:
        raise runner.EngineFailure(scenario.to_dict(), f"{type(exc).__name__}: {exc}") from exc
    count = len(scenario.actions) if after is None else after
    player = actions[0]["by"] if actions else None
    return jsonify({"scenario": scenario.id, "after": count, "player": player, "actions": actions})
