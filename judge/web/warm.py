"""The project's own data, loaded once per process at start (create_app), never under a visitor's budget,
then set aside from the garbage collector's full passes."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import tempfile
from pathlib import Path

from flask import Flask

from judge.codex import editions, load_edition
from judge.desk import cards as card_index
from judge.desk import pages
from judge.desk.layout import load_field
from judge.engine import budget, load_library
from judge.library import LIBRARY
from judge.web import caching, card_pages, desk


def warm_own_data(app: Flask) -> None:
    """Load the project's own data (cards, their YAML, the Codex editions, the field, the desk's starts and
    vocabulary, the versions) once per process, now, under no visitor's budget: a cold worker's first
    visitors never pay for it, nor get a 422 because their 2 s ran out while it loaded."""
    with budget.unlimited(), app.app_context():
        load_library()
        adopt_kept_library(app)
        LIBRARY.warm_in_background(done=lambda: keep_library(app))  # what was not kept, then keep it
        card_pages._by_slug()
        card_pages._raw_yaml()
        held = editions()
        for version in held.versions:
            load_edition(version)
        load_field()
        pages.starts()
        card_index.library_records()
        desk.vocabulary_json()
        caching.site_version()
        caching.engine_version()
        caching.codex_version()
    _set_aside()


_frozen = False


def _set_aside() -> None:
    """Everything loaded so far (the Codex, the cards, the library, the search index) lives as long as the
    process: moved out of the collector's generations, a full collection no longer walks it (several ms,
    charged to whichever request happened to trigger it: most of a search's p95). Once per process (a
    gunicorn worker makes one app); a frozen object is still freed when nothing refers to it."""
    global _frozen
    if not _frozen:
        gc.freeze()
        _frozen = True


def kept_library(app: Flask) -> Path:
    """Where the library's cites and answers are kept for this site version and current edition (every
    worker, and every worker after a recycle, reads them instead of resolving the whole library)."""
    held = editions()
    key = hashlib.sha256(f"{caching.site_version()} {held.root} {held.current}".encode()).hexdigest()[:16]
    return Path(app.instance_path) / f"library-cites-{key}.json"


def adopt_kept_library(app: Flask) -> int:
    """The kept cites and answers taken (how many rulings'); 0 when none are kept or they can't be read."""
    try:
        worked = json.loads(kept_library(app).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    return LIBRARY.adopt(worked) if isinstance(worked, dict) else 0


def keep_library(app: Flask) -> None:
    """Keep what the library worked out (once per site version and edition; a folder that can't be
    written keeps nothing: each worker then resolves the library itself, as before)."""
    path = kept_library(app)
    if path.exists():
        return
    with contextlib.suppress(OSError, TypeError, ValueError):
        text = json.dumps(LIBRARY.worked_out(), sort_keys=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=".library-", delete=False,
                                         encoding="utf-8") as out:
            out.write(text)
        os.replace(out.name, path)
        for older in path.parent.glob("library-cites-*.json"):  # an older version's
            if older != path:
                older.unlink(missing_ok=True)
