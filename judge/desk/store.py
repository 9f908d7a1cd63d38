"""Saved rulings in SQLite: one row per scenario, keyed by a hash of its content.

The database is a file named by the app config `DATABASE` (env `JUDGE_DB`), by default under the
instance folder. Nothing a user sends names a path.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from judge.desk.runner import canonical_json, content_id

SCHEMA = """
CREATE TABLE IF NOT EXISTS rulings (
    id TEXT PRIMARY KEY,
    scenario TEXT NOT NULL,      -- canonical JSON of the scenario as posted
    codex TEXT NOT NULL,         -- the Codex version the ruling was made under
    outcome TEXT NOT NULL,       -- JSON: winner, rejected, final, derived
    ruling TEXT NOT NULL,        -- JSON: the whole ruling (steps without snapshots)
    created TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class Saved:
    id: str
    scenario: dict[str, Any]
    codex: str
    outcome: dict[str, Any]
    ruling: dict[str, Any]
    created: str


class RulingStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=5)
        connection.execute(SCHEMA)
        return connection

    def save(self, scenario: Mapping[str, Any], codex: str, outcome: Mapping[str, Any],
             ruling: Mapping[str, Any]) -> str:
        """Store the scenario (once) and return its id; saving it again returns the same id."""
        text = canonical_json(scenario)
        with closing(self._connect()) as db, db:
            for length in (12, 16, 24, 64):  # a longer id only on a (vanishingly rare) clash
                rid = content_id(scenario, length)
                row = db.execute("SELECT scenario FROM rulings WHERE id = ?", (rid,)).fetchone()
                if row is None:
                    db.execute(
                        "INSERT INTO rulings (id, scenario, codex, outcome, ruling, created) "
                        "VALUES (?,?,?,?,?,?)",
                        (
                            rid,
                            text,
                            codex,
                            canonical_json(outcome),
                            canonical_json(ruling),
                            datetime.now(UTC).isoformat(timespec="seconds"),
                        ),
                    )
                    return rid
                if row[0] == text:
                    return rid
        raise RuntimeError("no free id for this scenario")

    def all(self) -> list[Saved]:
        """Every saved ruling, oldest first (none when the database does not exist yet)."""
        if not self.path.exists():
            return []
        with closing(self._connect()) as db:
            rows = db.execute("SELECT id, scenario, codex, outcome, ruling, created FROM rulings "
                              "ORDER BY created, id").fetchall()
        return [Saved(r[0], json.loads(r[1]), r[2], json.loads(r[3]), json.loads(r[4]), r[5]) for r in rows]

    def stamp(self) -> tuple[int, str]:
        """(how many rulings are saved, when the last one was): changes whenever one is saved."""
        if not self.path.exists():
            return (0, "")
        with closing(self._connect()) as db:
            count, last = db.execute("SELECT COUNT(*), COALESCE(MAX(created), '') FROM rulings").fetchone()
        return (int(count), str(last))

    def get(self, rid: str) -> Saved | None:
        if not rid.isalnum() or len(rid) > 64:
            return None
        with closing(self._connect()) as db:
            row = db.execute(
                "SELECT id, scenario, codex, outcome, ruling, created FROM rulings WHERE id = ?", (rid,)
            ).fetchone()
        if row is None:
            return None
        return Saved(row[0], json.loads(row[1]), row[2], json.loads(row[3]), json.loads(row[4]), row[5])
