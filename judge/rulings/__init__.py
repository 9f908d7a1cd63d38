"""The database, in one home: saved rulings behind one interface (`RulingStorage`), two
implementations, their schema migrations (`migrations.py`), and the rate-limit counts several
instances share in PostgreSQL (`limit_storage.py`, registered with `limits` by the web app):

    SQLite      judge/rulings/sqlite.py: a file in the instance folder (`DATABASE`, env `JUDGE_DB`) —
                the default, no server to run
    PostgreSQL  judge/rulings/postgres.py: when `DATABASE_URL=postgresql://…` is set — several app
                instances share it

    store = open_store(app.config)   # the schema is created or migrated here, at start-up
    rid = store.save(scenario, codex, outcome, ruling, versions=…, view=…)   # same content, same id
    store.get(rid)                   # a Saved, or None
    store.view(rid, versions)        # the ruling kept for today's engine and Codex, or None
    store.put_view(rid, versions, ruling)
    store.health()                   # {"ok", "backend", "schema", "rulings"} for /healthz

Ids are a hash of the scenario's canonical JSON (`judge.desk.runner.content_id`), the same under
either backend, so a ruling moved from one to the other keeps its URL. Saving the same content twice
(from two workers or two machines at once) gives one row: the insert is `ON CONFLICT DO NOTHING`.
A database that cannot answer raises `StoreUnavailable` (a 503 with Retry-After on the web).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol

from judge.rulings.postgres import PostgresStore
from judge.rulings.sqlite import RulingStorage, RulingStore, RulingTooLarge, Saved, StoreUnavailable, valid_id

__all__ = ["RulingStorage", "RulingTooLarge", "Saved", "Store", "StoreUnavailable", "open_store", "valid_id"]

log = logging.getLogger(__name__)
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Store(RulingStorage, Protocol):
    """What open_store returns: the storage the web uses, plus what start-up and tests need."""

    backend: str

    def migrate(self) -> list[int]: ...

    def count(self) -> int: ...

    def close(self) -> None: ...



def open_store(config: Mapping[str, Any]) -> Store:
    """The store the config names: PostgreSQL for a `DATABASE_URL` of postgresql://…, else SQLite at
    `DATABASE`. Creates or migrates the schema (a database unusable now is migrated when it first
    answers; the app starts anyway and /healthz says why); raises ValueError for a URL of another kind."""
    url = config.get("DATABASE_URL") or ""
    if url:
        if not url.startswith(POSTGRES_SCHEMES):
            scheme = url.split(":", 1)[0]
            raise ValueError(f"DATABASE_URL must start with postgresql:// (got a {scheme}: URL); "
                             "unset it to keep saved rulings in SQLite in the instance folder")
        store: Store = PostgresStore(url)
    else:
        store = RulingStore(config["DATABASE"])
    try:
        store.migrate()
    except StoreUnavailable as exc:  # start anyway: /healthz says why, and the first use migrates
        log.warning("saved rulings unavailable at start-up (%s); the schema is migrated on first use",
                    exc.cause)
    return store
