"""The web app: `create_app(config=None)` builds it; each area is a blueprint of its own module."""

from __future__ import annotations

import importlib
import os
import secrets
import time
from pathlib import Path
from typing import Any

from flask import Flask

from judge import ROOT
from judge.rulings import open_store

# Each area's blueprint, as "module:attribute". Order matters only for URL clashes (none expected).
BLUEPRINTS = [
    "judge.web.codex_pages:bp",   # /, /rules/…, /glossary/…, /interpretations  (Codex library)
    "judge.web.search_views:bp",  # /search, /search.json, /search/suggest      (search)
    "judge.web.api:bp",           # /api/position, /api/resolve                (engine)
    "judge.web.api_v1:bp",        # /api/v1/…                                  (the API for bots)
    "judge.web.api_docs:bp",      # /api, /api/openapi.json                     (its documentation)
    "judge.web.desk:bp",          # /desk, /r/<id>, /scenarios                 (ruling desk)
    "judge.web.card_pages:bp",    # /cards, /cards/<slug>                      (card library)
]

MAX_UPLOAD = 256 * 1024


def create_app(config: dict[str, Any] | None = None) -> Flask:
    instance = Path(os.environ.get("JUDGE_INSTANCE", ROOT / "instance"))
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_path=str(instance.resolve()),
        instance_relative_config=False,
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.update(
        SECRET_KEY=os.environ.get("JUDGE_SECRET_KEY") or _instance_secret(Path(app.instance_path)),
        MAX_CONTENT_LENGTH=MAX_UPLOAD,
        DATABASE=os.environ.get("JUDGE_DB", str(Path(app.instance_path) / "rulings.sqlite3")),
        DATABASE_URL=os.environ.get("DATABASE_URL", ""),  # postgresql://… : saved rulings in PostgreSQL
        INDEX_DIR=os.environ.get("JUDGE_INDEX", str(Path(app.instance_path) / "index")),
        JSON_SORT_KEYS=False,
    )
    if config:
        app.config.update(config)

    from judge.web import errors, security

    errors.register(app)
    security.register(app)
    app.extensions["rulings"] = open_store(app.config)  # creates or migrates the schema
    for target in BLUEPRINTS:
        module_name, attr = target.split(":")
        app.register_blueprint(getattr(importlib.import_module(module_name), attr))
    return app


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
