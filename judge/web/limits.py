"""What one request may cost: the engine's budget, per-client limits on costly work, and the size of
an answer.

Reading is never limited: rule, glossary, card, library and permalink pages, editions, `/healthz`,
static files and the API's GETs of the same things (they are cached and cheap). Costly work is, per
client address, in four groups (see GROUPS):

    ENGINE   the engine: POST /api/* (position, resolve, legal) and the desk's POSTs
    SEARCH   /search, /search.json, /search/suggest, GET /api/v1/search
    SAVE     sharing a ruling: POST /desk/share, POST /api/v1/rulings
    CHANGES  /changes/<from>...<to> (every ruling judged twice)

Each group has a request count (JUDGE_LIMIT_<GROUP>, e.g. "1200/minute;40/second"), and all four share
one budget of *seconds of work* per client (JUDGE_COST_LIMIT, e.g. "60/minute"): a request reserves its
whole budget (JUDGE_BUDGET_SECONDS) before any work, and is refunded what it did not use after (it is
charged the wall-clock time it took, in hundredths of a second, at least one), counted per fixed window;
so concurrent requests can't overspend a window that each alone would fit.
Thirty judges behind one NAT asking cheap questions (20–50 ms each) spend a few seconds a minute;
one client looping the engine (2 s a request) is refused after 30 such requests a minute. A refusal
is a 429 with `Retry-After` (seconds until the window has room again).

    JUDGE_BUDGET_SECONDS   wall clock for the engine in one request (2.0; 0 turns the deadline off)
    JUDGE_BUDGET_STEPS     steps of one resolution (2000)
    JUDGE_MAX_RESPONSE     bytes in one answer (8 MB); a larger one is a 422 in the error shape
    JUDGE_ENGINE_SLOTS     costly requests one worker runs at once (3 of gunicorn.conf.py's 8 threads, so
                           reading always finds a thread, even with costly requests waiting); a request
                           waits 1 s for a slot, then 503 with Retry-After
    RATELIMIT_ENABLED      limits on (True) — most tests turn them off through create_app(config)
    RATELIMIT_STORAGE_URI  where the counts live: "memory://" (one process), or a postgresql:// or
                           redis:// URI to share them between workers and instances

Every request runs under one `Budget`; the engine stops a resolution that passes it (a ruling that
says where and why) and a 422 answers where no partial answer makes sense (the legal actions).
"""

from __future__ import annotations

import math
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, g, request
from flask_limiter import Limit, Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.limits import RateLimitItem
from limits.strategies import FixedWindowRateLimiter

from judge.engine import budget as engine_budget
from judge.web.errors import Unavailable, error_response

DEFAULTS: dict[str, Any] = {
    "JUDGE_BUDGET_SECONDS": 2.0,
    "JUDGE_BUDGET_STEPS": 2000,
    "JUDGE_MAX_RESPONSE": 8 * 1024 * 1024,
    "JUDGE_ENGINE_SLOTS": 3,
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_HEADERS_ENABLED": False,  # its Retry-After would overwrite the storage's own (a 503's)
    "RATELIMIT_STRATEGY": "moving-window",
    "JUDGE_LIMIT_ENGINE": "1200/minute;40/second",
    "JUDGE_LIMIT_SEARCH": "1200/minute;40/second",
    "JUDGE_LIMIT_SAVE": "1200/minute;40/second",  # saving is limited by its cost, not a count a room exceeds
    "JUDGE_LIMIT_CHANGES": "120/minute",
    "JUDGE_COST_LIMIT": "60/minute",
}
# Older names, still read: the API's and the desk's limits were two groups, sharing was "SHARE".
ALIASES = {"JUDGE_LIMIT_API": "JUDGE_LIMIT_ENGINE", "JUDGE_LIMIT_DESK": "JUDGE_LIMIT_ENGINE",
           "JUDGE_LIMIT_SHARE": "JUDGE_LIMIT_SAVE"}
SLOT_WAIT = 1.0  # seconds a costly request waits for an engine slot before a 503
COST_UNIT = 0.01  # seconds of work in one unit of the cost budget (a request costs at least one)
RESERVE_SHARE = 10  # a request reserves its budget, but never more than a tenth of the window's seconds

READING_API = ("/api/v1/rules/", "/api/v1/glossary/", "/api/v1/cards/", "/api/v1/rulings/", "/api/openapi")

# Which requests are limited, by path: (group, test). The first match wins; others are reading.
GROUPS = (
    ("SAVE", lambda path, method: path == "/desk/share" or (path == "/api/v1/rulings" and method == "POST")),
    ("SEARCH", lambda path, method: path.startswith(("/search", "/api/v1/search"))),
    ("CHANGES", lambda path, method: path.startswith("/changes/")),
    ("ENGINE", lambda path, method: method == "POST" and path.startswith(("/api/", "/desk"))),
)


def group_of(path: str, method: str) -> str | None:
    """The costly group a request belongs to, or None: reading, never limited."""
    if path.startswith(READING_API) and method in ("GET", "HEAD"):
        return None
    for name, test in GROUPS:
        if test(path, method):
            return name
    return None


def _group() -> str | None:
    return group_of(request.path, request.method)


def _limit_for_request() -> str:
    return str(current_app.config[f"JUDGE_LIMIT_{_group() or 'ENGINE'}"])


def _cost_item() -> RateLimitItem:
    """JUDGE_COST_LIMIT ("60/minute": seconds of work) in units of COST_UNIT."""
    item = parse_many(str(current_app.config["JUDGE_COST_LIMIT"]))[0]
    return type(item)(int(item.amount / COST_UNIT), item.multiples, "cost")


class Limited(Exception):
    """A client past its budget of work: a 429 with the seconds until the window has room."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def web_budget() -> engine_budget.Budget:
    seconds = float(current_app.config["JUDGE_BUDGET_SECONDS"])
    return engine_budget.Budget(seconds=seconds or None, steps=int(current_app.config["JUDGE_BUDGET_STEPS"]),
                                gone=client_gone(request.environ))


GONE_EVERY = 0.05  # seconds between two looks at the client's socket


def client_gone(environ: dict[str, Any]) -> Callable[[], bool] | None:
    """A test of whether the client closed its connection (gunicorn's socket, looked at every GONE_EVERY
    seconds at most): work for a client that went away stops at the next budget check."""
    sock = environ.get("gunicorn.socket")
    if sock is None:
        return None
    last = [0.0, False]

    def gone() -> bool:
        now = time.monotonic()
        if last[1] or now - last[0] < GONE_EVERY:
            return bool(last[1])
        last[0] = now
        try:
            last[1] = sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except BlockingIOError:
            last[1] = False
        except OSError:
            last[1] = True
        return bool(last[1])
    return gone


def _retry_after(counter: FixedWindowRateLimiter, item: RateLimitItem, *identifiers: str) -> int:
    try:
        reset = counter.get_window_stats(item, *identifiers).reset_time
    except Exception:  # noqa: BLE001 - a storage that fails: a guess is better than none
        return int(item.get_expiry())
    return max(1, math.ceil(reset - time.time()))


def register(app: Flask) -> None:
    for old, new in ALIASES.items():
        if old in app.config:
            app.config.setdefault(new, app.config[old])
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    # One Limiter per app (tests build many apps). A client's requests count per group, not per
    # endpoint: all of a group share one count (scope = the group's name), so spreading requests over
    # the endpoints of a group does not multiply the limit. Reading is filtered out before any count
    # (`request_filter`: Flask-Limiter ignores `default_limits_exempt_when` for a Limit built here).
    group_limit = Limit(_limit_for_request, scope=lambda _endpoint: f"group:{_group()}", shared=True)
    limiter = Limiter(get_remote_address, app=app, default_limits=[group_limit])
    limiter.request_filter(lambda: _group() is None)
    app.extensions["judge_limiter"] = limiter
    slots = threading.BoundedSemaphore(max(1, int(app.config["JUDGE_ENGINE_SLOTS"])))

    @app.before_request
    def start_budget() -> None:
        engine_budget.CURRENT.set(web_budget())
        group = _group()
        if group is None:
            return
        if limiter.enabled:
            g.judge_reserved = _reserve(limiter)
        # a costly request takes one of the worker's engine slots (waiting SLOT_WAIT at most), so
        # threads are always left for reading
        if not slots.acquire(timeout=SLOT_WAIT):
            raise Unavailable("Every engine of this server is busy; try again in a moment.", retry_after=2)
        g.judge_slot = slots
        g.judge_started = time.monotonic()

    @app.teardown_request
    def end_budget(_exc: BaseException | None) -> None:
        engine_budget.CURRENT.set(None)
        slot = g.pop("judge_slot", None)
        if slot is not None:
            slot.release()
        started = g.pop("judge_started", None)
        reserved = g.pop("judge_reserved", None)
        if started is not None and reserved is not None and limiter.enabled:
            _settle(limiter, reserved, time.monotonic() - started)

    @app.errorhandler(Limited)
    def limited(exc: Limited) -> Response:
        return error_response(429, str(exc), retry_after=exc.retry_after)

    @app.errorhandler(engine_budget.OutOfTime)
    def out_of_time(exc: engine_budget.OutOfTime) -> Response:
        return error_response(422, f"This request needs more work than one request may take: {exc}.")

    app.after_request(lambda response: _bounded(limiter, response))


def _bounded(limiter: Limiter, response: Response) -> Response:
    """A 429 says when to retry; an answer past JUDGE_MAX_RESPONSE is a 422."""
    if response.status_code == 429 and "Retry-After" not in response.headers:
        current = limiter.current_limit
        if current is not None:
            response.headers["Retry-After"] = str(max(1, math.ceil(current.reset_at - time.time())))
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


def _cost_counter(limiter: Limiter) -> FixedWindowRateLimiter:
    """Seconds are counted in a fixed window (one counter per client, however long a request took),
    on the storage Flask-Limiter uses now (its in-memory fallback while a shared store is down)."""
    return FixedWindowRateLimiter(limiter.limiter.storage)


def _units(seconds: float) -> int:
    return max(1, round(seconds / COST_UNIT))


def _reserve(limiter: Limiter) -> int | None:
    """Reserve this request's whole budget of seconds before any work (a 429 when the client's window
    has no room for it): the units reserved, or None when the storage failed (not counted)."""
    item, who, counter = _cost_item(), get_remote_address(), _cost_counter(limiter)
    budget_seconds = float(current_app.config["JUDGE_BUDGET_SECONDS"]) or 2.0
    units = min(_units(budget_seconds), max(1, item.amount // RESERVE_SHARE))
    try:
        room = counter.hit(item, who, cost=units)
    except Exception:
        current_app.logger.warning("the cost limit's storage failed; not counted", exc_info=True)
        return None
    if not room:
        _adjust(limiter, item, who, -units)
        seconds = item.amount * COST_UNIT
        raise Limited(f"this address has used its {seconds:g} seconds of engine, search and saving work "
                      f"per {item.get_expiry()} s", _retry_after(counter, item, who))
    return units


def _settle(limiter: Limiter, reserved: int, seconds: float) -> None:
    """After the request: refund what it did not use of its reservation (or charge what it ran over)."""
    item, who = _cost_item(), get_remote_address()
    _adjust(limiter, item, who, _units(seconds) - reserved)


def _adjust(limiter: Limiter, item: RateLimitItem, who: str, units: int) -> None:
    if units == 0:
        return
    try:
        limiter.limiter.storage.incr(item.key_for(who), item.get_expiry(), amount=units)
    except Exception:
        current_app.logger.warning("the cost limit's storage failed; not settled", exc_info=True)
