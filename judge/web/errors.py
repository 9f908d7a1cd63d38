"""One error shape: `{"ok": false, "error": "…", "status": N}` for JSON paths, `error.html` otherwise."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, make_response, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed, RequestEntityTooLarge

from judge.desk.runner import EngineFailure
from judge.rulings.sqlite import StoreUnavailable
from judge.web.twin import wants_json

log = logging.getLogger(__name__)


class BadInput(HTTPException):
    """A 400 whose description lists what was wrong and where (key paths, lines)."""

    code = 400

    def __init__(self, message: str, problems: list[dict] | None = None, status: int = 400):
        super().__init__(description=message)
        self.code = status
        self.problems = problems or []


class Unavailable(HTTPException):
    """A 503: the service can't answer now (storage locked, read-only or full); try again later."""

    code = 503

    def __init__(self, message: str, retry_after: int = 5):
        super().__init__(description=message)
        self.retry_after = retry_after


def error_response(status: int, message: str, problems: list[dict] | None = None,
                   retry_after: int | None = None) -> Response:
    if wants_json():
        body = {"ok": False, "error": message, "status": status}
        if problems:
            body["problems"] = problems
        response = make_response(jsonify(body), status)
    else:
        html = render_template("error.html", status=status, message=message, problems=problems or [])
        response = make_response(html, status)
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


def register(app: Flask) -> None:
    @app.before_request
    def body_too_large() -> None:
        if request.environ.get("judge.body_too_large"):  # a chunked body past the limit (judge.web.BodyLimit)
            raise RequestEntityTooLarge()

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        if exc.code == 413:
            message = "The upload is larger than 256 KB; send a smaller scenario."
        elif exc.code == 429:
            message = f"Too many requests from you ({exc.description}); wait a little and try again."
        else:
            message = exc.description or exc.name
        response = error_response(exc.code or 500, message, getattr(exc, "problems", None),
                                  retry_after=getattr(exc, "retry_after", None))
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:  # RFC 9110: a 405 says what is allowed
            response.headers["Allow"] = ", ".join(sorted(exc.valid_methods))
        return response

    @app.errorhandler(StoreUnavailable)
    def store_unavailable(exc: StoreUnavailable) -> Response:
        log.warning("storage unavailable: %s (%s)", exc.cause, exc.detail or "no detail")
        return error_response(503,
                              f"Saved rulings are unavailable right now: {exc.cause}. Try again shortly.",
                              retry_after=exc.retry_after)

    @app.errorhandler(EngineFailure)
    def engine_failure(exc: EngineFailure) -> Response:
        return error_response(500, f"The engine failed on this scenario (a bug, already logged as "
                                   f"{exc.scenario_hash[:12]}); please report it with the scenario.")

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:
        log.exception("unhandled error")
        return error_response(500, InternalServerError.description)
