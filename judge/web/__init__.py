"""The web app: `create_app(config=None)` builds it; each area is a blueprint of its own module."""

from __future__ import annotations

import importlib
import io
import os
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask

from judge import ROOT
from judge.rulings import open_store
from judge.web import caching, compress, errors, fast_reads, kept_pages, limits, previews, security
from judge.web.proxies import TrustedProxies, proxy_addresses

# Each area's blueprint, as "module:attribute". Order matters only for URL clashes (none expected).
BLUEPRINTS = [
    "judge.web.codex_pages:bp",   # /, /rules/…, /glossary/…, /interpretations  (Codex library)
    "judge.web.search_views:bp",  # /search, /search.json, /search/suggest      (search)
    "judge.web.api:bp",           # /api/position, /api/resolve                (engine)
    "judge.web.api_v1:bp",        # /api/v1/…                                  (the API for bots)
    "judge.web.api_docs:bp",      # /api, /api/openapi.json                     (its documentation)
    "judge.web.desk:bp",          # /desk, /r/<id>                             (ruling desk)
    "judge.web.library_pages:bp",  # /scenarios, /scenarios/<pid>              (scenario library)
    "judge.web.preview_images:bp",  # /r/<id>.png, /scenarios/<pid>.png        (link-preview pictures)
    "judge.web.desk_ask:bp",      # /desk/questions.json                       (the desk's questions)
    "judge.web.card_pages:bp",    # /cards, /cards/<slug>                      (card library)
    "judge.web.health:bp",        # /healthz                                   (for a proxy)
    "judge.web.edition_pages:bp",  # /editions, /changes/<from>...<to>        (Codex editions)
    "judge.web.offline:bp",       # /manifest.webmanifest, /sw.js, /offline…   (the site offline)
    "judge.web.styles:bp",        # /styles/<name>.css                         (one stylesheet a page)
]

# Settings read from the environment when set (numbers and booleans parsed), below create_app's config.
ENV_SETTINGS: dict[str, Callable[[str], object]] = {
    "JUDGE_BUDGET_SECONDS": float, "JUDGE_BUDGET_STEPS": int, "JUDGE_MAX_RESPONSE": int,
    "RATELIMIT_ENABLED": lambda v: v.lower() not in ("0", "false", "no", "off"),
    "RATELIMIT_STORAGE_URI": str, "JUDGE_LIMIT_API": str, "JUDGE_LIMIT_DESK": str,
    "JUDGE_LIMIT_SHARE": str, "JUDGE_LIMIT_SEARCH": str, "JUDGE_LIMIT_ENGINE": str, "JUDGE_LIMIT_SAVE": str,
    "JUDGE_LIMIT_CHANGES": str, "JUDGE_COST_LIMIT": str, "JUDGE_ENGINE_SLOTS": int,
    "JUDGE_HTTPS": lambda v: v.lower() in ("1", "true", "yes", "on"), "JUDGE_PROXIES": int,
    "JUDGE_OFFLINE": lambda v: v.lower() not in ("0", "false", "no", "off"),
    "JUDGE_PAGES_AT_SAVE": lambda v: v.lower() not in ("0", "false", "no", "off"),
    "JUDGE_ORIGIN": str, "JUDGE_PROXY_ADDRESSES": str,
}


class InstanceUnusable(SystemExit):
    """The instance folder can't be made or written: start-up stops with one line saying so (on
    stderr), exit code 3, which gunicorn reads as "the app can't boot" and stops instead of retrying."""

    def __init__(self, message: str) -> None:
        super().__init__(3)
        self.message = message
        print(message, file=sys.stderr, flush=True)

    def __str__(self) -> str:
        return self.message

MAX_UPLOAD = 256 * 1024
class BodyLimit:
    """WSGI middleware: a body sent without a Content-Length (chunked) is read here up to MAX_UPLOAD + 1
    bytes; past that the request is marked (`judge.body_too_large`, a 413 before any view), instead of
    werkzeug cutting it at the limit without a word (the view then saw malformed text: a 400)."""

    def __init__(self, app: Callable, limit: int = MAX_UPLOAD) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Any:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not environ.get("CONTENT_LENGTH") and (chunked or environ.get("wsgi.input_terminated")):
            stream = environ.get("wsgi.input")
            body = stream.read(self.limit + 1) if stream is not None else b""
            if len(body) > self.limit:
                environ["judge.body_too_large"] = True
                body = b""
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input_terminated"] = False
        return self.app(environ, start_response)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    instance = Path(os.environ.get("JUDGE_INSTANCE", ROOT / "instance"))
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_path=str(instance.resolve()),
        instance_relative_config=False,
    )
    _check_instance(Path(app.instance_path))
    app.config.update(
        SECRET_KEY=os.environ.get("JUDGE_SECRET_KEY") or _instance_secret(Path(app.instance_path)),
        MAX_CONTENT_LENGTH=MAX_UPLOAD,
        DATABASE=os.environ.get("JUDGE_DB", str(Path(app.instance_path) / "rulings.sqlite3")),
        DATABASE_URL=os.environ.get("DATABASE_URL", ""),  # postgresql://… : saved rulings in PostgreSQL
        INDEX_DIR=os.environ.get("JUDGE_INDEX", str(Path(app.instance_path) / "index")),
        JSON_SORT_KEYS=False,
    )
    for name, parse in ENV_SETTINGS.items():
        if os.environ.get(name):
            app.config[name] = parse(os.environ[name])
    if config:
        app.config.update(config)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # Flask 3 ignores JSON_SORT_KEYS; mixed key types can't sort
    fast_reads.wrap(app)  # cached pages answered before Flask (innermost: it reads the environ Flask gets)
    if app.config.get("JUDGE_PROXIES"):  # behind N reverse proxies: the client is in X-Forwarded-For
        count = int(app.config["JUDGE_PROXIES"])
        addresses = proxy_addresses(app.config.get("JUDGE_PROXY_ADDRESSES"))
        app.wsgi_app = TrustedProxies(app.wsgi_app, count, addresses)  # type: ignore[method-assign]

    app.wsgi_app = BodyLimit(app.wsgi_app)  # type: ignore[method-assign]
    errors.register(app)
    compress.register(app)  # first registered, so it runs last: after the page cache kept the plain body
    security.register(app)
    previews.register(app)
    if "RATELIMIT_STORAGE_URI" not in app.config and not app.config["DATABASE_URL"]:
        # saved rulings in SQLite: the counts beside them, shared by the instance's workers, kept across
        # a recycle (memory:// counted per worker, from zero after each)
        app.config["RATELIMIT_STORAGE_URI"] = f"sqlite://{Path(app.config['DATABASE']).with_name('limits.sqlite3')}"
    if str(app.config.get("RATELIMIT_STORAGE_URI", "")).startswith(("postgresql://", "postgres://")):
        importlib.import_module("judge.rulings.limit_storage")  # registers postgresql:// with `limits`
    if str(app.config.get("RATELIMIT_STORAGE_URI", "")).startswith("sqlite://"):
        importlib.import_module("judge.rulings.limit_sqlite")  # registers sqlite:// with `limits`
    # A shared limit store (PostgreSQL, Redis) that fails must not fail requests: count per process
    # meanwhile, and go back to it once it answers again.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    limits.register(app)
    caching.register(app)
    fast_reads.register(app)
    kept_pages.register(app)  # after the page cache: a worker's own copy is looked up first
    app.extensions["rulings"] = open_store(app.config)  # creates or migrates the schema
    for target in BLUEPRINTS:
        module_name, attr = target.split(":")
        app.register_blueprint(getattr(importlib.import_module(module_name), attr))
    if app.config.setdefault("JUDGE_WARM_AT_START", not app.testing):
        importlib.import_module("judge.web.warm").warm_own_data(app)
    return app


def _check_instance(instance: Path) -> None:
    """Make the instance folder if needed and make sure it can be written (the secret key, the
    database and the index live there); otherwise stop with one line naming the folder and the fix."""
    try:
        instance.mkdir(parents=True, exist_ok=True)
        probe = instance / f".write-test-{os.getpid()}"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise InstanceUnusable(f"judge: the instance folder {instance} is not usable "
                               f"({exc.strerror or exc}); make it writable or set JUDGE_INSTANCE to a folder "
                               "that is") from None


def _instance_secret(instance: Path) -> str:
    """The key that signs sessions (and so the CSRF token): `JUDGE_SECRET_KEY`, or a random key kept in
    the instance folder, made once and shared by every worker, so no key is ever public."""
    path = instance / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
        # another worker is writing it this very moment: fall through to read it again below
    else:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(secrets.token_hex(32))
    for _ in range(50):
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
        time.sleep(0.01)
    raise RuntimeError(f"{path} is empty; delete it or set JUDGE_SECRET_KEY")
