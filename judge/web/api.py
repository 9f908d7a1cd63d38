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

from judge.engine import api
from judge.engine.errors import ScenarioError
from judge.engine.scenario import Scenario
from judge.web.errors import BadInput

bp = Blueprint("api", __name__)


def _scenario() -> Scenario:
    raw = request.get_data(cache=False)  # werkzeug raises 413 above MAX_CONTENT_LENGTH
    if not raw.strip():
        raise BadInput("Send a scenario (YAML or JSON) as the request body.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"The body is not UTF-8 text (byte {exc.start}).") from None
    data: Any = text
    if request.mimetype == "application/json":
        try:
            data = json.loads(text)
        except RecursionError:
            raise BadInput("The JSON body is nested too deeply.") from None
        except json.JSONDecodeError as exc:
            raise BadInput("The JSON body is malformed.",
                           [{"path": "", "message": exc.msg, "line": exc.lineno}]) from None
        if not isinstance(data, dict):
            raise BadInput("A scenario is a JSON object.", [{"path": "", "message": "expected an object"}])
    try:
        return api.load_scenario(data, source="request")
    except ScenarioError as exc:
        count = len(exc.problems)
        raise BadInput(f"The scenario is invalid: {count} problem{'s' if count != 1 else ''}.",
                       exc.problems) from None


def _flag(name: str) -> bool:
    return request.args.get(name, "").lower() in ("1", "true", "yes")


@bp.post("/api/position")
def position():
    return jsonify(api.position(_scenario()))


@bp.post("/api/resolve")
def resolve():
    return jsonify(api.resolve(_scenario(), snapshots=_flag("snapshots")))


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
        actions = api.legal_actions(scenario, after=after)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    count = len(scenario.actions) if after is None else after
    player = actions[0]["by"] if actions else None
    return jsonify({"scenario": scenario.id, "after": count, "player": player, "actions": actions})
