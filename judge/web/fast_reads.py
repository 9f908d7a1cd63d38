"""Cached pages answered before Flask: a WSGI middleware that keeps the whole answer (status, headers, body,
as every hook left it: security headers, compression, ETag) of each page the page cache keeps
(judge.web.caching), and sends it again for the same page without a request context, a session, the
limiter or any hook.

A read then costs a URL match and a dictionary look-up instead of Flask's whole round (about 2 ms of one
core per read), so 16 clients reading with made-up query strings leave the CPU and the workers' threads
to everyone else (bench/solid.py `reading`). What selects a kept answer is what selects the page
(caching.page_key: the site's version, the current edition, our origin, the path and the query
parameters the page reads, any other ignored) and the client's `Accept-Encoding` (the body is sent
compressed as that client asked). Only an unconditional GET or HEAD is answered here (a conditional or
ranged one goes on to Flask, which answers 304 or 206); an answer that sets a cookie is never kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from judge.codex import CodexError
from judge.web.caching import MAX_BODY, PageCache, cacheable, page_selector
from judge.web.links import origin_of
from judge.web.twin import READS

KEPT = "judge.page_cached"  # set in the environ by caching's hook on a page it keeps
MAX_BYTES = 64 * 1024 * 1024  # all kept answers of one worker together
PASS = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_RANGE", "HTTP_COOKIE")

Answer = tuple[bytes, str, list[tuple[str, str]]]


class FastReads:
    """WSGI middleware in front of the Flask app `app` (its wsgi_app is `inner`)."""

    def __init__(self, inner: Callable[..., Any], app: Flask) -> None:
        self.inner = inner
        self.app = app
        self.kept = PageCache(0, MAX_BYTES)  # sized by `register`, once the page cache's size is known

    def key(self, environ: dict[str, Any]) -> str | None:
        """What selects this request's answer, or None when it is not a read we keep."""
        path = environ.get("PATH_INFO") or "/"
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD") or not cacheable(path) or \
                any(environ.get(name) for name in PASS):
            return None
        try:
            endpoint, _ = self.app.url_map.bind_to_environ(environ).match(path)
            query = parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True)
            page = page_selector(path, READS.get(str(endpoint), ()), query,
                                 origin_of(self.app.config.get("JUDGE_ORIGIN"), environ))
        except (HTTPException, RequestRedirect, CodexError):
            return None  # Flask answers it (a 404, a redirect, a broken Codex)
        return page + "\0" + environ.get("HTTP_ACCEPT_ENCODING", "").replace(" ", "").lower()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        key = self.key(environ) if self.kept.size > 0 else None
        if key is None:
            return self.inner(environ, start_response)
        found = self.kept.get(key)
        if found is not None:
            body, status, headers = found
            start_response(status, headers)
            return [b"" if environ["REQUEST_METHOD"] == "HEAD" else body]
        answered: list[Any] = []

        def remember(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[..., Any]:
            answered[:] = [status, headers, exc_info]
            return lambda data: None  # the app returns its body; it never writes

        body = read_whole(self.inner(environ, remember))
        status, headers, exc_info = answered
        start_response(status, headers, exc_info) if exc_info else start_response(status, headers)
        if environ.get(KEPT) and status.startswith("200") and environ["REQUEST_METHOD"] == "GET" and \
                len(body) <= MAX_BODY and not any(name.lower() == "set-cookie" for name, _ in headers):
            self.kept.put(key, (body, status, list(headers)))
        return [body]


def read_whole(answer: Iterable[bytes]) -> bytes:
    """A WSGI app's body, read whole, and the answer closed (as a WSGI server would close it)."""
    try:
        return b"".join(answer)
    finally:
        close = getattr(answer, "close", None)
        if close is not None:
            close()


def wrap(app: Flask) -> None:
    """Put FastReads in front of the Flask app itself (inside the proxy and body middlewares, so the
    environ it reads is the one Flask gets)."""
    fast = FastReads(app.wsgi_app, app)
    app.wsgi_app = fast  # type: ignore[method-assign]
    app.extensions["judge_fast_reads"] = fast


def register(app: Flask) -> None:
    """Size the kept answers as the page cache (JUDGE_PAGE_CACHE pages; 0, as in tests, turns both off)."""
    app.extensions["judge_fast_reads"].kept = PageCache(int(app.config["JUDGE_PAGE_CACHE"]), MAX_BYTES)
