"""A permalink's page (`/r/<id>` and its JSON twin), made once per content id and kept with the ruling
in the database (table `kept`, kind "page"), so every worker, after any restart, sends the same bytes.

The page's boards are drawn without a visitor's clock (bounded by size: at most MAX_STEP_BOARDS boards
of a view of at most 3 MB, judge.rulings.sqlite.MAX_VIEW), so what the first view under load makes is
what an idle server makes. Concurrent first views of one id in a worker wait for the one making it
(single-flight); a page is kept per site version and origin, and a new version's page replaces the old.
"""

from __future__ import annotations

import contextlib
import json
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, Response, current_app, g, request

from judge.rulings import StoreUnavailable
from judge.web import caching
from judge.web.links import origin

ENDPOINTS = {"desk.saved": "text/html", "desk.saved_json": "application/json"}
KIND = "page"
WAIT = 30.0  # seconds a view waits for another thread making the same page, then makes its own


KEPT_HEADERS = ("Link",)   # what a view sets that is part of the page (its JSON twin), kept with it


def _key(rid: str) -> str:
    """A kept page is the page of this ruling, for this site, origin, view and engine (a new engine rules
    again: its pages are made anew)."""
    return f"{rid} {caching.site_version()} {caching.ruling_versions()} {origin()} {request.endpoint}"


_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


@contextmanager
def one_at_a_time(key: str) -> Iterator[bool]:
    """Hold the key's lock (waiting WAIT at most): True when held."""
    with _locks_lock:
        lock = _locks.setdefault(key, threading.Lock())
    held = lock.acquire(timeout=WAIT)
    try:
        yield held
    finally:
        if held:
            lock.release()
        with _locks_lock:
            if not lock.locked():
                _locks.pop(key, None)


def register(app: Flask) -> None:
    @app.before_request
    def kept_page() -> Response | None:
        mimetype = ENDPOINTS.get(request.endpoint or "")
        rid = (request.view_args or {}).get("rid")
        if mimetype is None or request.method not in ("GET", "HEAD") or not isinstance(rid, str):
            return None
        key = _key(rid)
        found = _kept(key)
        if found is None:
            g.judge_page_lock = one_at_a_time(key)
            g.judge_page_lock.__enter__()
            found = _kept(key)  # made meanwhile by the thread we waited for
        if found is None:
            g.judge_page_key = (key, f"{rid} ")
            return None
        head, _, body = found.partition(b"\n")
        return Response(body, mimetype=mimetype, headers=json.loads(head))

    @app.after_request
    def keep_page(response: Response) -> Response:
        made = g.pop("judge_page_key", None)
        if made is not None and response.status_code == 200 and not response.direct_passthrough:
            key, replaces = made
            with contextlib.suppress(StoreUnavailable):  # else made again next time
                head = json.dumps({h: response.headers[h] for h in KEPT_HEADERS if h in response.headers})
                kept = zlib.compress(head.encode() + b"\n" + response.get_data(), 6)
                current_app.extensions["rulings"].keep(KIND, key, kept, replaces=replaces)
        return response

    @app.teardown_request
    def unlock(_exc: BaseException | None) -> None:
        lock = g.pop("judge_page_lock", None)
        if lock is not None:
            lock.__exit__(None, None, None)


def _kept(key: str) -> bytes | None:
    try:
        found = current_app.extensions["rulings"].kept(KIND, key)
    except StoreUnavailable:
        return None
    return None if found is None else zlib.decompress(found)
