"""`/healthz`: what a reverse proxy or an orchestrator asks before sending traffic here.

    {"ok": true, "codex": "0.4.0", "engine": "…", "index": {"ok": true, "documents": N},
     "database": {"ok": true, "backend": "sqlite"|"postgresql", "schema": N, "rulings": N}}

200 when the index and the database both work, 503 (with the same JSON) otherwise.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from judge.search.store import current_build, read_meta, verify
from judge.web import caching

bp = Blueprint("health", __name__)


def index_health(index_dir: str) -> dict[str, Any]:
    build = current_build(index_dir)
    if build is None:
        return {"ok": False, "error": "no search index has been built"}
    problem = verify(build, deep=False)
    if problem:
        return {"ok": False, "error": problem}
    return {"ok": True, "documents": read_meta(build).get("documents", 0)}


@bp.get("/healthz")
def healthz() -> Response:
    index = index_health(current_app.config["INDEX_DIR"])
    database = current_app.extensions["rulings"].health()
    ok = bool(index["ok"] and database["ok"])
    body = {"ok": ok, "codex": caching.codex_version(), "engine": caching.engine_version(),
            "index": index, "database": database}
    response = jsonify(body)
    response.status_code = 200 if ok else 503
    response.headers["Cache-Control"] = "no-store"
    return response
