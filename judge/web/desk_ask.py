"""The desk's "What do you want to know?": the questions a posted scenario's position and queue allow,
in the engine's words, the likeliest first (contract §7; static/js/desk-ask.js shows them).

    POST /desk/questions.json {"scenario": {...}}  ->  {"ok": true, "questions": [{ask, question, likely}]}

The scenario's own `ask:` is left out while the questions are worked out: a question that no longer
fits the queue (its action was removed) must not hide the ones that do.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from judge.desk import runner
from judge.web.desk import desk_input_error, posted_scenario

bp = Blueprint("desk_ask", __name__)
bp.register_error_handler(runner.DeskInputError, desk_input_error)


@bp.post("/desk/questions.json")
def questions_json() -> Response:
    data = {k: v for k, v in posted_scenario().items() if k != "ask"}
    return jsonify(ok=True, questions=runner.questions(data))
