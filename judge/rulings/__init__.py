"""Saved rulings behind one interface, two implementations:

    SQLite      a file in the instance folder (`DATABASE`, env `JUDGE_DB`) — the default, no server
    PostgreSQL  when `DATABASE_URL=postgresql://…` is set — several app instances share it

    store = open_store(config)          # from the app config; the schema is migrated here, at start-up
    rid = store.save(scenario, codex, outcome, ruling)   # content-addressed: same content, same id
    store.get(rid)                      # a Saved, or None
    store.health()                      # {"ok": bool, "backend": "sqlite"|"postgresql", ...}

Ids are a hash of the scenario's canonical JSON (`judge.desk.engine.content_id`), the same under
either backend, so a ruling moved from one to the other keeps its URL. Saving the same content twice
(from two workers or two machines at once) gives one row: the insert is `ON CONFLICT DO NOTHING`.
A database that cannot answer raises `StoreUnavailable` (a 503 with Retry-After on the web).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class Saved:
    id: str
    scenario: dict[str, Any]
    codex: str
    outcome: dict[str, Any]
    ruling: dict[str, Any]
    created: str


class StoreUnavailable(Exception):
    """The database cannot answer now (down, locked, full, read-only); says why, safe to show."""

    def __init__(self, message: str, retry_after: int = 5) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RulingStore(Protocol):
    backend: str

    def save(self, scenario: Mapping[str, Any], codex: str, outcome: Mapping[str, Any],
             ruling: Mapping[str, Any]) -> str: ...

    def get(self, rid: str) -> Saved | None: ...

    def health(self) -> dict[str, Any]: ...

    def migrate(self) -> list[int]: ...

    def count(self) -> int: ...

    def close(self) -> None: ...


def valid_id(rid: str) -> bool:
    """Ids are hex digests, 12 to 64 characters; anything else finds nothing (and never reaches SQL)."""
    return rid.isascii() and rid.isalnum() and len(rid) <= 64


def open_store(config: Mapping[str, Any]) -> RulingStore:
    """The store the config names: PostgreSQL for a `DATABASE_URL` of postgresql://…, else SQLite at
    `DATABASE`. Creates or migrates the schema; raises ValueError for a URL of another kind."""
    url = config.get("DATABASE_URL") or ""
    if url:
        if not url.startswith(POSTGRES_SCHEMES):
            scheme = url.split(":", 1)[0]
            raise ValueError(f"DATABASE_URL must start with postgresql:// (got a {scheme}: URL); "
                             "unset it to keep saved rulings in SQLite in the instance folder")
        from judge.rulings.postgres import PostgresStore

        store: RulingStore = PostgresStore(url)
    else:
        from judge.rulings.sqlite import SqliteStore

        store = SqliteStore(config["DATABASE"])
    store.migrate()
    return store
