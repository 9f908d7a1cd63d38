"""A permalink's page (`/r/<id>` and its JSON twin), made once per content id and kept with the ruling
in the database (table `kept`, kind "page"), so every worker, after any restart, sends the same bytes.

The page's boards are drawn without a visitor's clock (bounded by size: at most MAX_STEP_BOARDS boards
of a view of at most 3 MB, judge.rulings.sqlite.MAX_VIEW), so what the first view under load makes is
what an idle server makes. Concurrent first views of one id in a worker wait for the one making it
(single-flight); a page is kept per site version and origin, and a new version's page replaces the old.

A save makes its permalink's pages soon after it answers (`make_soon`: one worker thread, one page at a
time, a few waiting at most, so saves can't pile up work), so the first visitor reads a kept page
instead of waiting for a heavy ruling's boards (seconds) to be drawn; a visitor who comes while it is
being made waits for it (the same lock), and one who comes to another worker makes it as before.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, Response, current_app, g, request, url_for

from judge.rulings import StoreUnavailable
from judge.web import caching
from judge.web.links import origin

ENDPOINTS = {"desk.saved": "text/html", "desk.saved_json": "application/json"}
KIND = "page"
WAIT = 30.0  # seconds a view waits for another thread making the same page, then makes its own
LEASE_SECONDS = 60.0  # how long one process may hold the making of a page before another may


KEPT_HEADERS = ("Link",)   # what a view sets that is part of the page (its JSON twin), kept with it


def _key(rid: str) -> str:
    """A kept page is the page of this ruling, for this site, origin, view and engine (a new engine rules
    again: its pages are made anew)."""
    return f"{rid} {request.endpoint} {caching.site_version()} {caching.ruling_versions()} {origin()}"


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


def _made_elsewhere(rid: str, key: str) -> bytes | None:
    """While another process makes the page `key` (it holds the store's lease on it), wait for it (WAIT at
    most); None when this request is to make it (it now holds the lease, `g.judge_page_lease`) or there
    is no such ruling (a made-up id writes nothing)."""
    store = current_app.extensions["rulings"]
    deadline = time.monotonic() + WAIT
    try:
        if store.get(rid) is None:
            return None
    except StoreUnavailable:
        return None
    while time.monotonic() < deadline:
        try:
            holder = store.lease(f"{KIND} {key}", LEASE_SECONDS)
        except StoreUnavailable:
            return None
        if holder is not None:
            g.judge_page_lease = (f"{KIND} {key}", holder)
            return None
        time.sleep(0.1)
        found = _kept(key)
        if found is not None:
            return found
    return None


def register(app: Flask) -> None:
    app.config.setdefault("JUDGE_PAGES_AT_SAVE", not app.testing)

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
            found = _made_elsewhere(rid, key)  # or by another worker, after a save
        if found is None:
            g.judge_page_key = (key, f"{rid} {request.endpoint} ")  # replaces this view's older pages only
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
        lease = g.pop("judge_page_lease", None)
        if lease is not None:
            current_app.extensions["rulings"].release(*lease)
        lock = g.pop("judge_page_lock", None)
        if lock is not None:
            lock.__exit__(None, None, None)


def _kept(key: str) -> bytes | None:
    try:
        found = current_app.extensions["rulings"].kept(KIND, key)
    except StoreUnavailable:
        return None
    return None if found is None else zlib.decompress(found)


WAITING = 8  # saved rulings whose pages wait to be made in a worker; a save past them is made at first view
_made: queue.Queue[tuple[Flask, list[str], str]] = queue.Queue(maxsize=WAITING)
_maker: list[threading.Thread] = []
log = logging.getLogger(__name__)


def make_soon(rid: str) -> None:
    """After a save: make and keep ruling `rid`'s page and JSON twin in the background, as a visitor would
    ask for them (on this request's origin), unless JUDGE_PAGES_AT_SAVE is off or enough already wait."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if not app.config.get("JUDGE_PAGES_AT_SAVE"):
        return
    base = request.host_url if request.environ.get("judge.trusted_proxy") else "http://localhost/"
    with contextlib.suppress(queue.Full):
        _made.put_nowait((app, [url_for("desk.saved", rid=rid), url_for("desk.saved_json", rid=rid)], base))
        with _locks_lock:
            if not _maker or not _maker[0].is_alive():
                _maker[:] = [threading.Thread(target=_make_pages, name="permalink-pages", daemon=True)]
                _maker[0].start()


def _make_pages() -> None:
    while True:
        app, paths, base = _made.get()
        for path in paths:
            try:
                app.test_client().get(path, base_url=base)
            except Exception:  # a page not made now is made at its first view
                log.warning("making %s after its save failed", path, exc_info=True)
        _made.task_done()


def pages_waiting() -> int:
    """Pages still to be made (the tests wait for 0)."""
    return _made.unfinished_tasks
