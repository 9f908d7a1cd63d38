"""The schema of saved rulings, as numbered migrations applied once each, in order, at start-up
(`judge.rulings.open_store`), for SQLite (judge/rulings/sqlite.py) and PostgreSQL (judge/rulings/postgres.py).

A table `schema_migrations(version, name, applied)` records what has run. Each migration has its
statements per backend; add a new one at the end, never edit one that has shipped. Instances starting
at once are serialised by the backend's lock (PostgreSQL: an advisory lock; SQLite: BEGIN IMMEDIATE),
so each migration runs exactly once. Version 1 uses CREATE … IF NOT EXISTS, so a database made before
migrations existed is adopted as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

TABLE = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied TEXT NOT NULL
)"""


def rulings_table(blob: str) -> str:
    return f"""CREATE TABLE IF NOT EXISTS rulings (
    id TEXT PRIMARY KEY,
    scenario TEXT NOT NULL,      -- canonical JSON of the scenario as posted
    codex TEXT NOT NULL,         -- the Codex version the ruling was made under
    outcome TEXT NOT NULL,       -- JSON: winner, rejected, final, derived
    ruling {blob} NOT NULL,        -- zlib-compressed JSON of the whole ruling (steps without snapshots);
                                 -- in SQLite rows saved before compression, plain JSON text
    created TEXT NOT NULL
)"""


def views_table(blob: str) -> str:
    return f"""CREATE TABLE IF NOT EXISTS views (
    id TEXT PRIMARY KEY,         -- a rulings.id
    versions TEXT NOT NULL,      -- engine and Codex versions the ruling below was made with
    ruling {blob} NOT NULL         -- zlib-compressed JSON of that ruling, as the page shows it
)"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sqlite: tuple[str, ...]
    postgresql: tuple[str, ...]

    def statements(self, backend: str) -> tuple[str, ...]:
        return getattr(self, backend)


def kept_tables(blob: str, real: str) -> tuple[str, ...]:
    return (f"""CREATE TABLE IF NOT EXISTS kept (
    kind TEXT NOT NULL,          -- what is kept: "page" (a permalink's page), "changes …" (a ruling judged)
    key TEXT NOT NULL,           -- which one: a ruling's id (with the versions it was made by)
    value {blob} NOT NULL,         -- zlib-compressed bytes (a page's body, a judgement's JSON)
    PRIMARY KEY (kind, key)
)""", f"""CREATE TABLE IF NOT EXISTS leases (
    key TEXT PRIMARY KEY,        -- a piece of work one process does at a time (an edition pair's report)
    holder TEXT NOT NULL,        -- who does it now
    expires {real} NOT NULL        -- until when (seconds since the epoch); after that anyone may take it
)""")


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "rulings", (rulings_table("TEXT"),), (rulings_table("BYTEA"),)),
    Migration(2, "views: the ruling kept per engine and Codex version", (views_table("BLOB"),),
              (views_table("BYTEA"),)),
    Migration(3, "kept: permalink pages and edition-change judgements; leases: one worker at a time",
              kept_tables("BLOB", "REAL"), kept_tables("BYTEA", "DOUBLE PRECISION")),
)

# What SQLite's every connection makes sure of (a database file deleted while running comes back).
SQLITE_SCHEMA = ";\n".join([TABLE, *(s for m in MIGRATIONS for s in m.sqlite)]) + ";"


def latest() -> int:
    return MIGRATIONS[-1].version


def apply(cursor: Any, backend: str, placeholder: str) -> list[int]:
    """Run the migrations `cursor`'s database lacks, inside the caller's (locked) transaction;
    returns the versions applied."""
    cursor.execute(TABLE)
    cursor.execute("SELECT version FROM schema_migrations")
    done = {row[0] for row in cursor.fetchall()}
    applied = []
    for migration in MIGRATIONS:
        if migration.version in done:
            continue
        for statement in migration.statements(backend):
            cursor.execute(statement)
        marks = ", ".join([placeholder] * 3)
        cursor.execute(f"INSERT INTO schema_migrations (version, name, applied) VALUES ({marks})",
                       (migration.version, migration.name, datetime.now(UTC).isoformat(timespec="seconds")))
        applied.append(migration.version)
    return applied
