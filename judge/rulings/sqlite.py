"""Saved rulings in SQLite: a file named by the app config `DATABASE` (env `JUDGE_DB`), by default in
the instance folder. Nothing a user sends names a path. One connection per operation."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from judge.desk.engine import canonical_json, content_id
from judge.rulings import Saved, StoreUnavailable, migrations, valid_id

ID_LENGTHS = (12, 16, 24, 64)  # a longer id only on a (vanishingly rare) clash of the short one
BUSY_TIMEOUT = 5


class SqliteStore:
    backend = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise StoreUnavailable(f"The rulings database {self.path.name} cannot be opened: {exc}") from None

    def _run(self, work):
        with closing(self._connect()) as db:
            try:
                return work(db)
            except sqlite3.OperationalError as exc:
                raise StoreUnavailable(f"The rulings database {self.path.name} failed: {exc}") from None

    def migrate(self) -> list[int]:
        def work(db: sqlite3.Connection) -> list[int]:
            db.execute("BEGIN IMMEDIATE")  # one migrating process at a time
            try:
                applied = migrations.apply(db.cursor(), self.backend, "?")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return applied
        return self._run(work)

    def save(self, scenario: Mapping[str, Any], codex: str, outcome: Mapping[str, Any],
             ruling: Mapping[str, Any]) -> str:
        """Store the scenario (once) and return its id; saving it again returns the same id."""
        text = canonical_json(scenario)
        row = (text, codex, canonical_json(outcome), canonical_json(ruling),
               datetime.now(UTC).isoformat(timespec="seconds"))

        def work(db: sqlite3.Connection) -> str:
            for length in ID_LENGTHS:
                rid = content_id(scenario, length)
                inserted = db.execute(
                    "INSERT INTO rulings (id, scenario, codex, outcome, ruling, created) VALUES (?,?,?,?,?,?) "
                    "ON CONFLICT (id) DO NOTHING", (rid, *row)).rowcount
                if inserted == 1:
                    return rid
                found = db.execute("SELECT scenario FROM rulings WHERE id = ?", (rid,)).fetchone()
                if found is not None and found[0] == text:
                    return rid
            raise RuntimeError("no free id for this scenario")
        return self._run(work)

    def get(self, rid: str) -> Saved | None:
        if not valid_id(rid):
            return None
        row = self._run(lambda db: db.execute(
            "SELECT id, scenario, codex, outcome, ruling, created FROM rulings WHERE id = ?", (rid,)).fetchone())
        if row is None:
            return None
        return Saved(row[0], json.loads(row[1]), row[2], json.loads(row[3]), json.loads(row[4]), row[5])

    def count(self) -> int:
        return self._run(lambda db: db.execute("SELECT count(*) FROM rulings").fetchone()[0])

    def health(self) -> dict[str, Any]:
        try:
            version = self._run(lambda db: db.execute("SELECT max(version) FROM schema_migrations").fetchone()[0])
        except StoreUnavailable as exc:
            return {"ok": False, "backend": self.backend, "error": str(exc)}
        return {"ok": version == migrations.latest(), "backend": self.backend, "schema": version}

    def close(self) -> None:
        pass
