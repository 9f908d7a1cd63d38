"""Saved rulings in PostgreSQL (psycopg 3), for several app instances sharing one database.

`DATABASE_URL=postgresql://user:password@host:5432/dbname` (any libpq URL: `?host=/run/postgresql`
for a Unix socket, `sslmode=…`, …). Connections are kept open between operations (a few idle ones
per worker process) and opened again after the server drops them; each statement is its own
transaction (autocommit), except the migrations, which run in one.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import conninfo

from judge.desk.runner import canonical_json, content_id
from judge.rulings import migrations
from judge.rulings.sqlite import (
    MAX_ROW,
    RulingTooLarge,
    Saved,
    StoreUnavailable,
    health_body,
    pack,
    pack_view,
    too_large_view,
    unpack,
    valid_id,
)

MIGRATION_LOCK = 0x436F646578  # pg_advisory_xact_lock key: one migrating instance at a time
ID_LENGTHS = (12, 16, 24, 64)  # a longer id only on a (vanishingly rare) clash of the short one
CONNECT_TIMEOUT = 5
_INHERITED: list[psycopg.Connection] = []  # a forked worker's copies of its parent's connections
log = logging.getLogger(__name__)
MAX_IDLE = 8          # connections kept open between requests, per store (per worker)


class PostgresStore:
    backend = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url
        self._idle: list[psycopg.Connection] = []   # open connections no thread is using
        self._lock = threading.Lock()
        self._pid = os.getpid()
        self._migrated = False   # set once the migrations have run (at start-up, or on first use after)

    def where(self) -> str:
        """host/dbname for messages — never the password."""
        try:
            parts = conninfo.conninfo_to_dict(self.url)
        except psycopg.ProgrammingError:
            return "the DATABASE_URL"
        return f"{parts.get('host') or 'localhost'}/{parts.get('dbname') or ''}"

    def _connect(self) -> psycopg.Connection:
        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except psycopg.OperationalError as exc:
            raise StoreUnavailable("the database server can't be reached", 10,
                                   detail=f"{self.where()}: {_first_line(exc)}") from None

    def _run(self, work, migrating: bool = False):
        """work(connection) on an idle connection (or a new one), returned to the idle list after; once
        more on a fresh connection when the server had dropped the old one. The migrations run first
        when they have not yet (the database was down at start-up)."""
        for attempt in (1, 2):
            with self._lock:
                self._after_fork()
                db = self._idle.pop() if self._idle else None
            db = db or self._connect()
            try:
                if not (self._migrated or migrating):
                    self._apply_migrations(db)
                result = work(db)
            except psycopg.OperationalError as exc:
                db.close()
                if attempt == 2 or not db.broken:
                    raise StoreUnavailable("the database server failed", 10,
                                           detail=f"{self.where()}: {_first_line(exc)}") from None
                continue
            except BaseException:
                db.close()
                raise
            with self._lock:
                keep = len(self._idle) < MAX_IDLE
                if keep:
                    self._idle.append(db)
            if not keep:
                db.close()
            return result
        raise AssertionError("unreachable")

    def _after_fork(self) -> None:
        """In a forked worker (gunicorn --preload), connections opened by the parent are its own: they
        are set aside unclosed (closing one would end the parent's session) and never used here."""
        if os.getpid() != self._pid:
            _INHERITED.extend(self._idle)
            self._idle, self._pid = [], os.getpid()

    def migrate(self) -> list[int]:
        """Apply the migrations the database lacks (judge/rulings/migrations.py); the versions applied."""
        return self._run(self._apply_migrations, migrating=True)

    def _apply_migrations(self, db: psycopg.Connection) -> list[int]:
        with db.transaction(), db.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            applied = migrations.apply(cur, self.backend, "%s")
        self._migrated = True
        return applied

    def save(self, scenario: Mapping[str, Any], codex: str, outcome: Mapping[str, Any],
             ruling: Mapping[str, Any], versions: str = "", view: Mapping[str, Any] | None = None) -> str:
        """Store the scenario (once) and return its id; saving it again returns the same id. With
        `versions`, `view` (the ruling as pages show it) is kept for them too."""
        text = _text(canonical_json(scenario))
        packed = pack(ruling)
        if len(packed) + len(text) > MAX_ROW:
            raise RulingTooLarge(f"the ruling is {(len(packed) + len(text)) // 1024} KB compressed; "
                                 f"a shared ruling may take at most {MAX_ROW // 1024} KB")
        row = (text, _text(codex), _text(canonical_json(outcome)), packed,
               datetime.now(UTC).isoformat(timespec="seconds"))
        shown = packed if view is None else pack_view(view)  # refused here, never on each visit

        def work(db: psycopg.Connection) -> str:
            with db.transaction():
                rid = self._insert(db, scenario, text, row)
                if versions:
                    self._upsert_view(db, rid, versions, shown)
            return rid
        return self._run(work)

    @staticmethod
    def _insert(db: psycopg.Connection, scenario: Mapping[str, Any], text: str, row: tuple) -> str:
        for length in ID_LENGTHS:
            rid = content_id(scenario, length)
            inserted = db.execute(
                "INSERT INTO rulings (id, scenario, codex, outcome, ruling, created) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING RETURNING id",
                                  (rid, *row)).fetchone()
            if inserted is not None:
                return rid
            found = db.execute("SELECT scenario FROM rulings WHERE id = %s", (rid,)).fetchone()
            if found is not None and found[0] == text:
                return rid
        raise RuntimeError("no free id for this scenario")

    @staticmethod
    def _upsert_view(db: psycopg.Connection, rid: str, versions: str, packed: bytes) -> None:
        db.execute("INSERT INTO views (id, versions, ruling) VALUES (%s, %s, %s) "
                   "ON CONFLICT (id) DO UPDATE SET versions = excluded.versions, ruling = excluded.ruling",
                   (rid, versions, packed))

    def get(self, rid: str) -> Saved | None:
        if not valid_id(rid):
            return None
        row = self._run(lambda db: db.execute(
            "SELECT id, scenario, codex, outcome, ruling, created FROM rulings WHERE id = %s",
                                              (rid,)).fetchone())
        if row is None:
            return None
        return Saved(row[0], json.loads(row[1]), row[2], json.loads(row[3]), unpack(bytes(row[4])), row[5])

    def view(self, rid: str, versions: str) -> dict[str, Any] | None:
        """The ruling kept for `rid` under `versions`, or None (never made, or made by other versions)."""
        if not valid_id(rid):
            return None
        row = self._run(lambda db: db.execute(
            "SELECT ruling FROM views WHERE id = %s AND versions = %s", (rid, versions)).fetchone())
        return None if row is None else unpack(bytes(row[0]))

    def put_view(self, rid: str, versions: str, ruling: Mapping[str, Any]) -> None:
        """Keep `ruling` as rid's view for `versions`; a database that can't write now fails no page. One
        too large to keep is kept as its reason, so it is never made again per visit."""
        try:
            packed = pack_view(ruling)
        except RulingTooLarge as exc:
            packed = too_large_view(exc)
        try:
            self._run(lambda db: self._upsert_view(db, rid, versions, packed))
        except (StoreUnavailable, psycopg.Error):
            return

    def count(self) -> int:
        return self._run(lambda db: db.execute("SELECT count(*) FROM rulings").fetchone()[0])

    def all(self) -> list[Saved]:
        """Every saved ruling, oldest first (what `judge changes` re-judges)."""
        rows = self._run(lambda db: db.execute(
            "SELECT id, scenario, codex, outcome, ruling, created FROM rulings "
            "ORDER BY created, id").fetchall())
        return [Saved(r[0], json.loads(r[1]), r[2], json.loads(r[3]), unpack(bytes(r[4])),
                      r[5]) for r in rows]

    def stamp(self) -> tuple[int, str]:
        """(how many rulings are saved, when the last one was): changes whenever one is saved."""
        count, last = self._run(lambda db: db.execute(
            "SELECT count(*), COALESCE(max(created), '') FROM rulings").fetchone())
        return (int(count), str(last))

    def ids(self) -> list[str]:
        """Every saved ruling's id, oldest first (nothing else decoded)."""
        rows = self._run(lambda db: db.execute("SELECT id FROM rulings ORDER BY created, id").fetchall())
        return [r[0] for r in rows]

    def scenarios(self, ids: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        """(id, scenario) of those of `ids` still saved, in the order of `ids`."""
        rows = dict(self._run(lambda db: db.execute("SELECT id, scenario FROM rulings WHERE id = ANY(%s)",
                                                    (list(ids),)).fetchall())) if ids else {}
        return [(rid, json.loads(rows[rid])) for rid in ids if rid in rows]

    def kept(self, kind: str, key: str) -> bytes | None:
        row = self._run(lambda db: db.execute("SELECT value FROM kept WHERE kind = %s AND key = %s",
                                              (kind, key)).fetchone())
        return None if row is None else bytes(row[0])

    def kept_keys(self, kind: str) -> set[str]:
        return {r[0] for r in self._run(lambda db: db.execute("SELECT key FROM kept WHERE kind = %s",
                                                              (kind,)).fetchall())}

    def kept_some(self, kind: str, keys: Sequence[str]) -> dict[str, bytes]:
        """What is kept under `kind` for those of `keys` that have a value."""
        if not keys:
            return {}
        rows = self._run(lambda db: db.execute(
            "SELECT key, value FROM kept WHERE kind = %s AND key = ANY(%s)", (kind, list(keys))).fetchall())
        return {r[0]: bytes(r[1]) for r in rows}

    def keep(self, kind: str, key: str, value: bytes, replaces: str = "") -> None:
        """Keep `value` under (kind, key); with `replaces`, first drop the kind's rows whose key starts
        with it (the same page made by older versions)."""
        def work(db: psycopg.Connection) -> None:
            with db.transaction():
                if replaces:
                    db.execute("DELETE FROM kept WHERE kind = %s AND left(key, %s) = %s",
                               (kind, len(replaces), replaces))
                db.execute("INSERT INTO kept (kind, key, value) VALUES (%s, %s, %s) ON CONFLICT (kind, key) "
                           "DO UPDATE SET value = excluded.value", (kind, key, value))
        self._run(work)

    def keep_many(self, kind: str, values: Sequence[tuple[str, bytes]]) -> None:
        """Keep each (key, value) under `kind`, all in one transaction."""
        def work(db: psycopg.Connection) -> None:
            with db.transaction(), db.cursor() as cursor:
                cursor.executemany("INSERT INTO kept (kind, key, value) VALUES (%s, %s, %s) ON CONFLICT "
                                   "(kind, key) DO UPDATE SET value = excluded.value",
                                   [(kind, key, value) for key, value in values])
        if values:
            self._run(work)

    def lease(self, key: str, seconds: float) -> str | None:
        """Take the work `key` for `seconds` (a holder's token), or None while another holds it."""
        holder, now = uuid.uuid4().hex, time.time()
        row = self._run(lambda db: db.execute(
            "INSERT INTO leases (key, holder, expires) VALUES (%s, %s, %s) ON CONFLICT (key) DO UPDATE SET "
            "holder = excluded.holder, expires = excluded.expires WHERE leases.expires < %s RETURNING holder",
            (key, holder, now + seconds, now)).fetchone())
        return holder if row is not None and row[0] == holder else None

    def release(self, key: str, holder: str) -> None:
        with contextlib.suppress(StoreUnavailable):  # else it expires by itself
            self._run(lambda db: db.execute("DELETE FROM leases WHERE key = %s AND holder = %s",
                                            (key, holder)))

    def health(self) -> dict[str, Any]:
        """{"ok", "backend", "schema", "rulings"} or {"ok": False, "backend", "error"}: for /healthz."""
        try:
            schema, count = self._run(lambda db: db.execute(
                "SELECT (SELECT max(version) FROM schema_migrations), "
                "(SELECT count(*) FROM rulings)").fetchone())
        except StoreUnavailable as exc:
            log.warning("health: %s (%s)", exc.cause, exc.detail)
            return {"ok": False, "backend": self.backend, "error": exc.cause}
        except psycopg.Error as exc:
            log.warning("health: the database failed (%s: %s)", self.where(), _first_line(exc))
            return {"ok": False, "backend": self.backend, "error": "the database failed"}
        return health_body(self.backend, schema, count)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for db in idle:
            db.close()


def _text(json_text: str) -> str:
    """PostgreSQL text can't hold NUL: in JSON it can only sit inside a string, where \\u0000 means the
    same."""
    return json_text.replace("\x00", "\\u0000")


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
