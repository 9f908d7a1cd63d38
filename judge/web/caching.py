"""Pages that depend only on the site's content and code: ETag, Cache-Control, 304, and a small
in-process cache of their bodies.

The Codex's index, rule, glossary, interpretation and card pages, library rulings and permalinks
(`/r/<id>`), with their JSON twins, are the same for everyone until the Codex data, the engine or the
templates change. Their ETag is a hash of the site's version (every file they are made from), our
origin (judge.web.links) and the path with the query parameters the page reads (`twin(reads=…)`; any
other is ignored), so a query string made up per request neither misses the cache nor evicts it, and
`If-None-Match` answers 304 without any work, and a repeated view is served from memory
(`JUDGE_PAGE_CACHE` bodies per worker, least recently used dropped first; the whole answer again,
before Flask, by judge.web.fast_reads).

Search answers (`/search`, its twin, `/search/suggest`) are the same for everyone too, given what they
read (`q`, `page`): a search asked again is served the same way, from a cache of their own
(`JUDGE_SEARCH_CACHE` bodies), so that queries made up by the thousand evict other searches, never the
rule pages. No search page carries a secret (the desk's CSRF token is on the desk alone), so a kept
search is compressed as any page is (judge.web.compress).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from flask import Flask, Response, current_app, g, request

from judge import ROOT
from judge.codex import editions
from judge.web.compress import TOKEN_SHOWN
from judge.web.links import origin
from judge.web.twin import READS, selected_args

CACHEABLE = ("/rules/", "/glossary", "/interpretations", "/cards", "/r/", "/scenarios/", "/editions/")
CACHEABLE_PAGES = ("/",)  # and these exact paths (the Codex's index)
SEARCHES = ("/search",)   # /search, /search.json, /search/suggest: kept apart from the pages
MAX_AGE = 300  # seconds a browser or proxy may reuse a page before asking again (with its ETag)
MAX_BODY = 8 * 1024 * 1024    # a body larger than this is not kept in memory
MAX_BYTES = 96 * 1024 * 1024  # all kept bodies of one worker together


def _digest(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _files(*patterns: str) -> list[Path]:
    return [p for pattern in patterns for p in ROOT.glob(pattern) if p.is_file()]


@lru_cache(maxsize=1)
def engine_version() -> str:
    """A hash of what a ruling is made from: the engine's code and the Codex data (cards included)."""
    return _digest(_files("judge/engine/**/*.py", "codex/**/*"))[:16]


@lru_cache(maxsize=1)
def site_version() -> str:
    """A hash of everything a cacheable page is made from."""
    return _digest(_files("judge/**/*.py", "codex/**/*", "templates/**/*", "static/**/*",
                          "scenarios/**/*"))[:16]


@lru_cache(maxsize=1)
def codex_version() -> str:
    try:
        return editions().current  # the current edition's version, without loading its chapters
    except Exception:  # noqa: BLE001 - the version is a label; a broken Codex shows elsewhere
        return "unknown"


def ruling_versions() -> str:
    """The key a kept ruling is valid for: the engine's and the Codex's versions."""
    return f"engine {engine_version()} codex {codex_version()}"


class PageCache:
    """Bodies of cacheable pages, least recently used dropped first; shared by a worker's threads."""

    def __init__(self, size: int, max_bytes: int = MAX_BYTES) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        self.items: OrderedDict[str, tuple[bytes, str, Any]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> tuple[bytes, str, Any] | None:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: str, value: tuple[bytes, str, Any]) -> None:
        with self.lock:
            old = self.items.pop(key, None)
            self.bytes -= len(old[0]) if old else 0
            self.items[key] = value
            self.bytes += len(value[0])
            while self.items and (len(self.items) > self.size or self.bytes > self.max_bytes):
                self.bytes -= len(self.items.popitem(last=False)[1][0])


KEPT_HEADERS = ("Link", "Content-Disposition")


def page_key() -> str:
    """What selects a cacheable page: the site's version, our origin, the path and the query parameters
    the page reads (none for most)."""
    return page_selector(request.path, READS.get(request.endpoint or "", ()), request.args.items(multi=True),
                         origin())


def page_selector(path: str, reads: tuple[str, ...], query: Iterable[tuple[str, str]],
                  our_origin: str) -> str:
    """page_key from its parts (also before Flask: judge.web.fast_reads): the query's parameters among
    `reads`, any other ignored."""
    args = urlencode(selected_args(reads, query))
    # the current edition selects the content too: an edition made current in a running server (judge
    # import-codex --current) makes every page anew
    return f"{site_version()} {editions().current} {our_origin} {path}?{args}"


def cacheable(path: str) -> bool:
    """A page kept in the page cache (and answered before Flask, judge.web.fast_reads); searches have
    their own cache and go through Flask."""
    return path.startswith(CACHEABLE) or path in CACHEABLE_PAGES


def _etag() -> str | None:
    if request.method not in ("GET", "HEAD"):
        return None
    if not (cacheable(request.path) or request.path.startswith(SEARCHES)):
        return None
    return hashlib.sha256(page_key().encode()).hexdigest()[:24]


def _kept_in(caches: tuple[PageCache, PageCache]) -> PageCache:
    """The cache this request's page goes in: the searches' own, or the pages'."""
    return caches[1] if request.path.startswith(SEARCHES) else caches[0]


def _conditional(response: Response, etag: str) -> Response:
    response.set_etag(etag)
    response.headers["Cache-Control"] = f"public, max-age={MAX_AGE}"
    response.vary.add("Accept-Encoding")
    if request.environ.get("judge.trusted_proxy") and not current_app.config.get("JUDGE_ORIGIN"):
        response.vary.add("Host")  # its absolute links follow the host the proxy forwarded
    return response


def register(app: Flask) -> None:
    app.config.setdefault("JUDGE_PAGE_CACHE", 0 if app.testing else 512)  # tests swap content under one app
    app.config.setdefault("JUDGE_SEARCH_CACHE", 0 if app.testing else 256)
    pages = PageCache(int(app.config["JUDGE_PAGE_CACHE"]))
    searches = PageCache(int(app.config["JUDGE_SEARCH_CACHE"]), MAX_BYTES // 4)
    app.extensions["judge_page_cache"] = pages
    app.extensions["judge_search_cache"] = searches
    caches = (pages, searches)

    @app.before_request
    def answer_from_cache() -> Response | None:
        etag = _etag()
        if etag is None:
            return None
        if etag in request.if_none_match:
            return _conditional(Response(status=304), etag)
        kept = _kept_in(caches).get(etag)
        if kept is None:
            return None
        body, mimetype, headers = kept
        response = Response(body, mimetype=mimetype, headers=headers)
        return _conditional(response, etag)

    @app.after_request
    def keep(response: Response) -> Response:
        etag = _etag()
        if etag is None or response.status_code != 200 or response.direct_passthrough:
            return response
        _conditional(response, etag)
        if not g.get(TOKEN_SHOWN):  # the same for everyone: judge.web.fast_reads keeps the answer
            request.environ["judge.page_cached"] = True
        body = response.get_data()
        cache = _kept_in(caches)
        if len(body) <= MAX_BODY and cache.size > 0:
            headers = {k: v for k, v in response.headers.items() if k in KEPT_HEADERS}
            cache.put(etag, (body, response.mimetype or "text/html", headers))
        return response


def page_cache() -> PageCache:
    return current_app.extensions["judge_page_cache"]
