"""gzip for answers that are the same for everyone: pages with an ETag and `Cache-Control: public`
(rule, glossary, card and library pages, permalinks, the offline data), to clients that accept it.

A library ruling's page is mostly board drawings (about 180 KB, 9 KB compressed); keeping the whole
site offline on a phone (judge/web/offline.py) downloads every one of them. Only public answers are
compressed: a page that carries a secret (the desk's CSRF token) beside text a visitor can choose is
never compressed (BREACH). Registered before the page cache, so that cache keeps plain bodies, and
after every other hook has run.
"""

from __future__ import annotations

import gzip

from flask import Flask, Response, request

TYPES = ("text/html", "application/json", "application/manifest+json", "text/javascript", "text/css",
         "image/svg+xml", "application/yaml")
SMALLEST = 1024   # bytes; below this gzip saves nothing worth the work
LEVEL = 6


def wants_gzip() -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def is_public(response: Response) -> bool:
    return bool(response.headers.get("ETag")) and response.cache_control.public


def register(app: Flask) -> None:
    @app.after_request
    def compress(response: Response) -> Response:
        if (response.status_code != 200 or response.direct_passthrough or not wants_gzip()
                or "Content-Encoding" in response.headers or response.mimetype not in TYPES
                or not is_public(response)):
            return response
        body = response.get_data()
        if len(body) < SMALLEST:
            return response
        response.set_data(gzip.compress(body, compresslevel=LEVEL, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        return response
