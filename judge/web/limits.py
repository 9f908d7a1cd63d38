"""What one request may cost: the engine's budget, per-client rate limits, and the size of an answer.

Configured from the app config (each has an environment variable of the same name, read by
`create_app`):

    JUDGE_BUDGET_SECONDS   wall clock for the engine in one request (2.0; 0 turns the deadline off)
    JUDGE_BUDGET_STEPS     steps of one resolution (2000)
    JUDGE_MAX_RESPONSE     bytes in one answer (8 MB); a larger one is a 422 in the error shape
    RATELIMIT_ENABLED      rate limits on (True) — tests turn them off through create_app(config)
    RATELIMIT_STORAGE_URI  where the counts live: "memory://" (one process), or e.g.
                           "redis://host:6379" to share them between several instances
    JUDGE_LIMIT_API / JUDGE_LIMIT_DESK / JUDGE_LIMIT_SHARE / JUDGE_LIMIT_SEARCH   per client and group
                           (every endpoint of the group counts together), e.g. "60/minute"

Every request runs under one `Budget`; the engine stops a resolution that passes it (a ruling that
says where and why) and a 422 answers where no partial answer makes sense (the legal actions).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, request
from flask_limiter import Limit, Limiter
from flask_limiter.util import get_remote_address

from judge.engine import budget as engine_budget
from judge.web.errors import error_response

DEFAULTS: dict[str, Any] = {
    "JUDGE_BUDGET_SECONDS": 2.0,
    "JUDGE_BUDGET_STEPS": 2000,
    "JUDGE_MAX_RESPONSE": 8 * 1024 * 1024,
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": True,
    "RATELIMIT_STRATEGY": "moving-window",
    "JUDGE_LIMIT_API": "120/minute;20/second",
    "JUDGE_LIMIT_DESK": "240/minute;20/second",
    "JUDGE_LIMIT_SHARE": "20/minute",
    "JUDGE_LIMIT_SEARCH": "240/minute;20/second",
}

# Which requests are limited, by path: (group, test). The first match wins; others are not limited.
GROUPS = (
    ("SHARE", lambda path, method: path == "/desk/share"),
    ("API", lambda path, method: path.startswith("/api/")),
    ("DESK", lambda path, method: path.startswith("/desk") and method == "POST"),
    ("SEARCH", lambda path, method: path.startswith("/search")),
)

def _group() -> str | None:
    for name, test in GROUPS:
        if test(request.path, request.method):
            return name
    return None


def _limit_for_request() -> str:
    return str(current_app.config[f"JUDGE_LIMIT_{_group() or 'API'}"])


def web_budget() -> engine_budget.Budget:
    seconds = float(current_app.config["JUDGE_BUDGET_SECONDS"])
    return engine_budget.Budget(seconds=seconds or None, steps=int(current_app.config["JUDGE_BUDGET_STEPS"]))


def register(app: Flask) -> None:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    # One Limiter per app (tests build many apps). A client's requests count per group, not per
    # endpoint: all of /api/* share one count (scope = the group's name), so spreading requests over
    # the endpoints of a group does not multiply the limit.
    group_limit = Limit(_limit_for_request, scope=lambda _endpoint: f"group:{_group()}", shared=True)
    Limiter(get_remote_address, app=app, default_limits=[group_limit],
            default_limits_exempt_when=lambda: _group() is None)

    @app.before_request
    def start_budget() -> None:
        engine_budget.CURRENT.set(web_budget())

    @app.teardown_request
    def end_budget(_exc: BaseException | None) -> None:
        engine_budget.CURRENT.set(None)

    @app.errorhandler(engine_budget.OutOfTime)
    def out_of_time(exc: engine_budget.OutOfTime) -> Response:
        return error_response(422, f"This request needs more work than one request may take: {exc}.")

    @app.after_request
    def bounded(response: Response) -> Response:
        limit = int(current_app.config["JUDGE_MAX_RESPONSE"])
        if response.direct_passthrough or response.is_streamed:
            return response
        size = response.calculate_content_length() or 0
        if size > limit:
            current_app.logger.warning("answer of %d bytes to %s refused (limit %d)", size, request.path,
                                       limit)
            return error_response(422, f"The answer would be {size // 1024} KB, more than the "
                                       f"{limit // 1024} KB one request may return; ask for less (no "
                                       "snapshots, fewer actions).")
        return response
