"""The web app: `create_app(config=None)` builds it; each area is a blueprint of its own module."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

from flask import Flask

from judge import ROOT

# Each area's blueprint, as "module:attribute". Order matters only for URL clashes (none expected).
BLUEPRINTS = [
    "judge.web.codex_pages:bp",   # /, /rules/…, /glossary/…, /interpretations  (Codex library)
    "judge.web.search_views:bp",  # /search, /search.json, /search/suggest      (search)
    "judge.web.api:bp",           # /api/position, /api/resolve                (engine)
    "judge.web.desk:bp",          # /desk, /r/<id>, /scenarios                 (ruling desk)
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
    app.config.update(
        SECRET_KEY=os.environ.get("JUDGE_SECRET_KEY", "codex-judge-dev-key"),
        MAX_CONTENT_LENGTH=MAX_UPLOAD,
        DATABASE=os.environ.get("JUDGE_DB", str(Path(app.instance_path) / "rulings.sqlite3")),
        INDEX_DIR=os.environ.get("JUDGE_INDEX", str(Path(app.instance_path) / "index")),
        JSON_SORT_KEYS=False,
    )
    if config:
        app.config.update(config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    from judge.web import errors, security

    errors.register(app)
    security.register(app)
    for target in BLUEPRINTS:
        module_name, attr = target.split(":")
        app.register_blueprint(getattr(importlib.import_module(module_name), attr))
    return app
