"""Response headers every page gets, and the CSRF token for the few POST forms that change things."""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, Response, abort, g, request, session

from judge.web.compress import TOKEN_SHOWN

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

# No page needs any powerful feature.
PERMISSIONS = ("camera=(), microphone=(), geolocation=(), payment=(), usb=()")


def csrf_token() -> str:
    """The session's token; the request is marked as showing it (judge.web.compress reads the mark)."""
    setattr(g, TOKEN_SHOWN, True)
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def check_csrf() -> None:
    """Abort 403 unless the request carries the session's token (form field or X-CSRF-Token header)."""
    sent = request.form.get("csrf_token") or request.headers.get("X-CSRF-Token") or ""
    expected = session.get("csrf", "")
    if not expected or not hmac.compare_digest(sent, expected):
        abort(
            403, description="This form has expired or came from another site; reload the page and try again."
        )


def register(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = csrf_token

    https = bool(app.config.get("JUDGE_HTTPS"))
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.config["SESSION_COOKIE_SECURE"] = app.config.get("SESSION_COOKIE_SECURE") or https
    if https:
        app.config["PREFERRED_URL_SCHEME"] = "https"

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Permissions-Policy", PERMISSIONS)
        if https:
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        return response
