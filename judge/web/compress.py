"""Compressed answers: every page, JSON answer and static file of a compressible type, in brotli when the
client asks for it and the `brotli` package is installed (optional), else in gzip.

A library ruling's page is mostly board drawings (about 180 KB, 9 KB compressed); keeping the whole
site offline on a phone (judge/web/offline.py) downloads every one of them, and a phone on a slow link
waits for every byte of the first page before it paints.

BREACH: compression lets a visitor who can put text of their choice into a page (the search box, a
pasted scenario, a saved ruling) learn a secret on the same page from its compressed size. The only
secret a page of ours carries is the desk's CSRF token (`security.csrf_token`, which marks the
request). A page that carries it is compressed only when nothing the visitor sent can be in it: a
GET with no query string (the desk's own page, fresh); `POST /desk` (the pasted YAML, echoed) and
`GET /desk?r=…` (a saved ruling anyone may have written) go as they are.

Registered before the page cache, so that cache keeps plain bodies, and after every other hook has run.
A body that is the same for everyone (an ETag) is compressed once per worker and encoding, and kept.
"""

from __future__ import annotations

import gzip
import importlib
import threading
from collections import OrderedDict
from typing import Any

from flask import Flask, Response, g, request

brotli: Any
try:  # optional: brotli where the package is installed
    brotli = importlib.import_module("brotli")
except ImportError:  # pragma: no cover - depends on the environment
    brotli = None

TYPES = ("text/html", "application/json", "application/manifest+json", "text/javascript",
         "application/javascript", "text/css", "image/svg+xml", "application/yaml", "text/plain")
SMALLEST = 1024   # bytes; below this compression saves nothing worth the work
GZIP_LEVEL = 6
BROTLI_QUALITY = 5          # a page made for one request: about gzip's time, smaller
BROTLI_KEPT_QUALITY = 9     # a body compressed once and kept
KEPT_BYTES = 16 * 1024 * 1024   # compressed bodies kept per worker
SKIPPED_STATUS = (204, 206, 304)
TOKEN_SHOWN = "csrf_token_shown"   # set on `g` by security.csrf_token


def encodings() -> tuple[str, ...]:
    """What this server can send, best first."""
    return ("br", "gzip") if brotli is not None else ("gzip",)


def chosen_encoding() -> str | None:
    """The encoding the client accepts that we send, by its preference (ties: ours), or None."""
    accepted = request.accept_encodings
    best = accepted.best_match(encodings())
    return best if best is not None and accepted[best] > 0 else None


def carries_secret_beside_input() -> bool:
    """True when the answer holds the CSRF token and the request could have put text into it."""
    return bool(g.get(TOKEN_SHOWN)) and (request.method != "GET" or bool(request.query_string))


def compress_body(body: bytes, encoding: str, kept: bool = False) -> bytes:
    if encoding == "br":
        return bytes(brotli.compress(body, quality=BROTLI_KEPT_QUALITY if kept else BROTLI_QUALITY))
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


class Kept:
    """Compressed bodies by (path, ETag, encoding), least recently used dropped first."""

    def __init__(self, max_bytes: int = KEPT_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self.items: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, str, str]) -> bytes | None:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: tuple[str, str, str], body: bytes) -> None:
        with self.lock:
            old = self.items.pop(key, None)
            self.bytes += len(body) - (len(old) if old is not None else 0)
            self.items[key] = body
            while self.items and self.bytes > self.max_bytes:
                self.bytes -= len(self.items.popitem(last=False)[1])


def register(app: Flask) -> None:
    kept = Kept()
    app.extensions["judge_compressed"] = kept

    @app.after_request
    def compress(response: Response) -> Response:
        if (response.status_code in SKIPPED_STATUS or request.method == "HEAD"
                or "Content-Encoding" in response.headers or response.mimetype not in TYPES
                or (response.is_streamed and not response.direct_passthrough)
                or carries_secret_beside_input()):
            return response
        response.vary.add("Accept-Encoding")
        encoding = chosen_encoding()
        if encoding is None:
            return response
        etag = response.get_etag()[0]
        key = (request.path, etag, encoding) if etag else None
        found = kept.get(key) if key else None
        if found is None:
            if response.direct_passthrough:   # a static file: read it whole (they are small)
                response.direct_passthrough = False
            body = response.get_data()
            if len(body) < SMALLEST:
                return response
            found = compress_body(body, encoding, kept=key is not None)
            if key:
                kept.put(key, found)
        else:
            response.direct_passthrough = False
            response.close()   # the file of a static answer, opened and not read
        response.set_data(found)
        response.headers["Content-Encoding"] = encoding
        return response
