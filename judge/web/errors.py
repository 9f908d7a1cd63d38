"""One error shape: `{"ok": false, "error": "…", "status": N}` for JSON paths, `error.html` otherwise."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, make_response, render_template
from werkzeug.exceptions import HTTPException, InternalServerError

from judge.rulings import StoreUnavailable
from judge.web.twin import wants_json

log = logging.getLogger(__name__)


class BadInput(HTTPException):
    """A 400 whose description lists what was wrong and where (key paths, lines)."""

    code = 400

    def __init__(self, message: str, problems: list[dict] | None = None, status: int = 400):
        super().__init__(description=message)
        self.code = status
        self.problems = problems or []


def error_response(status: int, message: str, problems: list[dict] | None = None) -> Response:
    if wants_json():
        body = {"ok": False, "error": message, "status": status}
        if problems:
            body["problems"] = problems
        return make_response(jsonify(body), status)
    html = render_template("error.html", status=status, message=message, problems=problems or [])
    return make_response(html, status)


def register(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        if exc.code == 413:
            message = "The upload is larger than 256 KB; send a smaller scenario."
        else:
            message = exc.description or exc.name
        return error_response(exc.code or 500, message, getattr(exc, "problems", None))

    @app.errorhandler(StoreUnavailable)
    def store_unavailable(exc: StoreUnavailable) -> Response:
        log.error("saved rulings unavailable: %s", exc)
        response = error_response(503, f"{exc} Try again in a moment.")
        response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:
        log.exception("unhandled error")
        return error_response(500, InternalServerError.description)
