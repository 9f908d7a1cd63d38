"""The project's own data, loaded once per process at start (create_app), never under a visitor's budget,
then set aside from the garbage collector's full passes."""

from __future__ import annotations

import gc

from flask import Flask

from judge.codex import editions, load_edition
from judge.desk import cards as card_index
from judge.desk import pages
from judge.desk.layout import load_field
from judge.engine import budget, load_library
from judge.web import caching, card_pages, desk


def warm_own_data(app: Flask) -> None:
    """Load the project's own data (cards, their YAML, the Codex editions, the field, the desk's starts and
    vocabulary, the versions) once per process, now, under no visitor's budget: a cold worker's first
    visitors never pay for it, nor get a 422 because their 2 s ran out while it loaded."""
    with budget.unlimited(), app.app_context():
        load_library()
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
