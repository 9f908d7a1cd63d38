"""Trusted reverse proxies: whose `X-Forwarded-*` headers are believed, for the app (TrustedProxies, a WSGI
middleware) and for the worker that takes turns by client (judge.web.fair)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from werkzeug.middleware.proxy_fix import ProxyFix

DEFAULT_PROXY_ADDRESSES = "127.0.0.1,::1"  # the reverse proxy on this machine (deploy/nginx.conf)


def proxy_addresses(configured: str | None) -> set[str]:
    """The addresses whose forwarded headers are believed: `configured` (JUDGE_PROXY_ADDRESSES), else
    gunicorn's FORWARDED_ALLOW_IPS, else the proxy on this machine; comma-separated, "*" for any."""
    text = configured or os.environ.get("FORWARDED_ALLOW_IPS") or DEFAULT_PROXY_ADDRESSES
    return {a.strip() for a in text.split(",") if a.strip()}


class TrustedProxies:
    """WSGI middleware: X-Forwarded-For/-Proto/-Host are believed (werkzeug's ProxyFix, `count` proxies
    deep) only on a connection from one of `addresses` (proxy_addresses; "*" for any), the proxy's own;
    anyone else reaching the app directly has those headers removed, so the per-client limit key is the
    address that connected, which a client can't rotate by writing a header."""

    def __init__(self, app: Callable, count: int, addresses: set[str]) -> None:
        self.plain = app
        self.fixed = ProxyFix(app, x_for=count, x_proto=count, x_host=count)
        self.addresses = addresses

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Any:
        if "*" in self.addresses or environ.get("REMOTE_ADDR") in self.addresses:
            environ["judge.trusted_proxy"] = True
            return self.fixed(environ, start_response)
        for header in ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
                       "HTTP_X_FORWARDED_PORT", "HTTP_X_FORWARDED_PREFIX", "HTTP_FORWARDED"):
            environ.pop(header, None)
        return self.plain(environ, start_response)
