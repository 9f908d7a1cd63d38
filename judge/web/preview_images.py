"""The link-preview picture of a ruling (judge.desk.preview_image): what a chat shows large under a
shared link.

    /r/<id>.png              a saved ruling's picture
    /scenarios/<pid>.png     a library ruling's picture

Drawn once per ruling and kept in the instance folder (`previews/`) under its content id and the
versions its ruling depends on (the engine, the Codex data, its edition): a chat's crawler, and every
person who opens the link after it, read the same file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, request

from judge.codex.editions import editions
from judge.desk import pages
from judge.desk.preview_image import Preview, preview_png
from judge.web import caching
from judge.web.desk import kept_ruling, library_entry_or_404, saved_or_404, view_versions

bp = Blueprint("preview_images", __name__)


def cached_png(key: str, draw: Callable[[], bytes]) -> bytes:
    """The picture kept under `key`, drawn (once) when it is not kept yet; written whole or not at all."""
    folder = Path(current_app.instance_path) / "previews"
    path = folder / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.png"
    try:
        return path.read_bytes()
    except OSError:
        pass
    png = draw()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".tmp", delete=False) as out:
            out.write(png)
        os.replace(out.name, path)
    except OSError:  # a read-only instance still serves the picture, drawn each time
        current_app.logger.warning("could not keep the preview picture %s", path)
    return png


def deciding_slots(ruling: Mapping[str, Any] | None) -> list[str]:
    """The slots the deciding step touched (lit on the board)."""
    if not ruling:
        return []
    n = pages.deciding_step(ruling)
    step = next((s for s in ruling.get("steps") or [] if isinstance(s, Mapping) and s.get("n") == n), None)
    refs = [c.get("slot") for c in pages.touched(step)] if step else []
    return [str(r) for r in refs if r]


def png_response(png: bytes, key: str) -> Response:
    response = Response(png, mimetype="image/png")
    response.set_etag(hashlib.sha256(key.encode()).hexdigest()[:16])
    response.cache_control.public = True
    response.cache_control.max_age = caching.MAX_AGE
    response.make_conditional(request)
    return response


def draw(context: Mapping[str, Any]) -> bytes:
    return preview_png(Preview.of(context, deciding_slots(context.get("ruling"))), pages.painter())


@bp.get("/r/<rid>.png")
def saved_png(rid: str) -> Response:
    record = saved_or_404(rid)
    pinned = record.codex if editions().get(record.codex) else None
    key = f"r/{rid} {view_versions(pinned)}"

    def make() -> bytes:
        ruling = kept_ruling(rid, record.scenario, pinned)
        return draw(pages.ruling_context(record.scenario, f"r/{rid}", ruling=ruling, edition=pinned))
    return png_response(cached_png(key, make), key)


@bp.get("/scenarios/<path:pid>.png")
def library_png(pid: str) -> Response:
    entry = library_entry_or_404(pid)
    key = f"scenarios/{pid} {view_versions(None)} {hashlib.sha256(entry.path.read_bytes()).hexdigest()}"
    return png_response(cached_png(key, lambda: draw(pages.ruling_context(entry.data, entry.path.name))), key)
