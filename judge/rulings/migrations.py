"""The schema of saved rulings, as numbered migrations applied once each, in order, at start-up.

A table `schema_migrations(version, name, applied)` records what has run. Each migration has its
SQL per backend; add a new one at the end (never edit one that has shipped). Two instances starting
at once are serialised by the backend's lock (PostgreSQL: an advisory lock; SQLite: BEGIN IMMEDIATE),
so each migration runs exactly once.
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

RULINGS_V1 = """CREATE TABLE IF NOT EXISTS rulings (
    id TEXT PRIMARY KEY,
    scenario TEXT NOT NULL,      -- canonical JSON of the scenario as posted
    codex TEXT NOT NULL,         -- the Codex version the ruling was made under
    outcome TEXT NOT NULL,       -- JSON: winner, rejected, final, derived
    ruling TEXT NOT NULL,        -- JSON: the whole ruling (steps without snapshots)
    created TEXT NOT NULL
)"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sqlite: tuple[str, ...]
    postgresql: tuple[str, ...]

    def statements(self, backend: str) -> tuple[str, ...]:
        return getattr(self, backend)


# Version 1 adopts a database made before migrations existed (CREATE … IF NOT EXISTS).
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "rulings table", (RULINGS_V1,), (RULINGS_V1,)),
)


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
