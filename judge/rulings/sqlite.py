"""Saved rulings in SQLite: one row per scenario, keyed by a hash of its content.

The database is a file named by the app config `DATABASE` (env `JUDGE_DB`), by default under the
instance folder. Nothing a user sends names a path.

`RulingStorage` is the interface the web uses (another backend, e.g. PostgreSQL, implements the same
four methods); `RulingStore` is the SQLite one. Beside each saved scenario it keeps the ruling made for
the current engine and Codex (`versions`), compressed, so opening a permalink reads and never resolves.
The database runs in WAL mode with a busy timeout; a database that is locked, read-only, full or
corrupt raises `StoreUnavailable` naming the cause (the web answers 503 with Retry-After).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
import uuid
import zlib
from collections.abc import Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from judge.desk.runner import canonical_json, content_id
from judge.rulings import migrations

SCHEMA = migrations.SQLITE_SCHEMA

MAX_ROW = 512 * 1024   # bytes of one compressed ruling; a longer one is not saved
MAX_VIEW = 3 * 1024 * 1024  # bytes of a kept view's JSON (snapshots included): a larger page is refused
BUSY_SECONDS = 2.0     # how long a writer waits for another's lock before giving up (503)


class StoreUnavailable(RuntimeError):
    """The database can't be used right now; `.cause` says why in a few words, for anyone to read;
    `.detail` (the driver's own line, a host or a path) is for the log only, never a public body."""

    def __init__(self, cause: str, retry_after: int = 5, detail: str = ""):
        super().__init__(cause)
        self.cause = cause
        self.retry_after = retry_after
        self.detail = detail


CORRUPT = "the database file is corrupt"


class RulingTooLarge(ValueError):
    """A ruling whose compressed JSON passes MAX_ROW."""


@dataclass(frozen=True)
class Saved:
    id: str
    scenario: dict[str, Any]
    codex: str
    outcome: dict[str, Any]
    ruling: dict[str, Any]
    created: str


class RulingStorage(Protocol):
    def save(self, scenario: Mapping[str, Any], codex: str, outcome: Mapping[str, Any],
             ruling: Mapping[str, Any], versions: str = "", view: Mapping[str, Any] | None = None) -> str: ...

    def get(self, rid: str) -> Saved | None: ...

    def view(self, rid: str, versions: str) -> dict[str, Any] | None: ...

    def put_view(self, rid: str, versions: str, ruling: Mapping[str, Any]) -> None: ...

    def health(self) -> dict[str, Any]: ...

    def all(self) -> list[Saved]: ...

    def stamp(self) -> tuple[int, str]: ...

    def ids(self) -> list[str]: ...

    def scenarios(self, ids: Sequence[str]) -> list[tuple[str, dict[str, Any]]]: ...

    def kept(self, kind: str, key: str) -> bytes | None: ...

    def kept_keys(self, kind: str) -> set[str]: ...

    def kept_some(self, kind: str, keys: Sequence[str]) -> dict[str, bytes]: ...

    def keep(self, kind: str, key: str, value: bytes, replaces: str = "") -> None: ...

    def keep_many(self, kind: str, values: Sequence[tuple[str, bytes]]) -> None: ...

    def lease(self, key: str, seconds: float) -> str | None: ...

    def release(self, key: str, holder: str) -> None: ...


def valid_id(rid: str) -> bool:
    """Ids are hex digests, 12 to 64 characters; anything else finds nothing (and never reaches SQL)."""
    return rid.isascii() and rid.isalnum() and len(rid) <= 64


def pack(data: Any) -> bytes:
    return zlib.compress(canonical_json(data).encode("utf-8"), 6)


def pack_view(view: Mapping[str, Any]) -> bytes:
    """A view (the ruling as its page shows it, snapshots included) packed to keep, or RulingTooLarge
    naming what is too large: a view that can't be kept would be made again on every visit. Every step
    carries a board about as large as the last, so one board × the steps says at once (without writing
    tens of megabytes first) when a view is far too large."""
    steps = view.get("steps")
    states = [step["state"] for step in steps if isinstance(step, Mapping) and step.get("state")] \
        if isinstance(steps, list) else []
    estimate = len(canonical_json(states[-1])) * len(states) if states else 0
    if estimate > 2 * MAX_VIEW:
        raise RulingTooLarge(f"its page (every step's board) would be built from about {estimate // 1024} KB "
                             f"of ruling, more than the {MAX_VIEW // 1024} KB a shared page may take; use "
                             "fewer actions, shorter names or fewer cards")
    text = canonical_json(view).encode("utf-8")
    if len(text) > MAX_VIEW:
        raise RulingTooLarge(f"its page (every step's board) would be built from {len(text) // 1024} KB of "
                             f"ruling, more than the {MAX_VIEW // 1024} KB a shared page may take; use "
                             "fewer actions, shorter names or fewer cards")
    packed = zlib.compress(text, 6)
    if len(packed) > MAX_ROW:
        raise RulingTooLarge(f"its page's ruling is {len(packed) // 1024} KB compressed; a shared ruling "
                             f"may take at most {MAX_ROW // 1024} KB")
    return packed


def too_large_view(exc: RulingTooLarge) -> bytes:
    """What is kept instead of a view too large to keep: the reason, so the page refuses at once."""
    return pack({"too_large": str(exc)})


def health_body(backend: str, schema: int | None, count: int) -> dict[str, Any]:
    """/healthz's answer for a database that reads: ok when its schema is the latest."""
    body: dict[str, Any] = {"ok": schema == migrations.latest(), "backend": backend, "schema": schema,
                            "rulings": count}
    if schema != migrations.latest():
        body["error"] = "the database's schema is missing or not the latest (its migrations did not run)"
    return body


def unpack(value: str | bytes) -> Any:
    return json.loads(zlib.decompress(value) if isinstance(value, bytes) else value)


def _cause(exc: sqlite3.Error) -> StoreUnavailable:
    text = str(exc).lower()
    for needle, cause, wait in (("locked", "the database is busy (locked by another writer)", 2),
                                ("busy", "the database is busy (locked by another writer)", 2),
                                ("readonly", "the database is read-only", 60),
                                ("read-only", "the database is read-only", 60),
                                ("full", "the disk holding the database is full", 60),
                                ("malformed", CORRUPT, 60),
                                ("not a database", CORRUPT, 60),
                                ("unable to open", "the database file can't be opened", 60),
                                ("disk i/o", "the disk holding the database failed (I/O error)", 30)):
        if needle in text:
            return StoreUnavailable(cause, wait)
    return StoreUnavailable("the database failed", 10, detail=str(exc))


MIN_FREE = 1024 * 1024  # bytes free on the database's disk below which /healthz says saves would fail
CHECK_EVERY = 300.0     # seconds between two `PRAGMA quick_check`s of a worker (and one at start)
NO_SAVES_READ_ONLY = "the database is read-only: saves would fail"
NO_SAVES_FULL = "the disk holding the database is full: saves would fail"
WRITE_CAUSES = ("the database is read-only", "the disk holding the database is full",
                "the database file can't be opened", "the disk holding the database failed (I/O error)",
                NO_SAVES_READ_ONLY, NO_SAVES_FULL)
# (a read may still work on a read-only connection, or an immutable one where not even the WAL's index
# can be made: a read-only mount, a full disk)


class RulingStore:
    """Saved rulings in one SQLite file. The file is made only where none was ever made (a marker
    `<file>.made` beside it says one was) or by `init()` (`judge init-db`): a database deleted or moved
    is reported (503, /healthz), never made again empty by the next worker to start. Corruption is looked
    for with `PRAGMA quick_check` at start and every CHECK_EVERY seconds, and on any error saying so; it
    is kept in `<file>.corrupt` so every worker reports it alike, until a check passes again. On a
    read-only or full disk, reads go on through a read-only connection."""

    backend = "sqlite"

    def __init__(self, path: str | Path, busy_seconds: float = BUSY_SECONDS) -> None:
        self.path = Path(path)
        self.busy_seconds = busy_seconds
        self._migrated = False   # set once the migrations have run
        self._identity: tuple[int, int] | None = None  # the file migrated (device, inode)
        self._checked = 0.0      # monotonic time of the last quick_check
        self._may_create = False  # init() allows making the file even where one was made before

    @property
    def made_marker(self) -> Path:
        return self.path.with_name(self.path.name + ".made")

    @property
    def corrupt_marker(self) -> Path:
        return self.path.with_name(self.path.name + ".corrupt")

    def init(self) -> list[int]:
        """Make the database (even where one was made before and is gone) and migrate it."""
        self._may_create = True
        try:
            return self.migrate()
        finally:
            self._may_create = False

    def migrate(self) -> list[int]:
        """Apply the schema migrations this database lacks (judge/rulings/migrations.py); the versions
        applied; then a quick_check. At start-up; else on the first connection."""
        try:
            with closing(self._connect(migrating=True)) as db:
                applied = self._apply_migrations(db)
        except sqlite3.Error as exc:
            raise self._failure(exc) from None
        self.check()
        return applied

    def _apply_migrations(self, db: sqlite3.Connection) -> list[int]:
        db.isolation_level = None
        db.execute("BEGIN IMMEDIATE")  # one migrating process at a time
        try:
            applied = migrations.apply(db.cursor(), self.backend, "?")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        db.isolation_level = "DEFERRED"  # back to implicit transactions for the callers ("" is its alias)
        self._migrated = True
        try:
            found = self.path.stat()
            self._identity = (found.st_dev, found.st_ino)
            if not self.made_marker.exists():
                self.made_marker.write_text(f"{self.path.name} was made here; it is never made again empty "
                                            "(run `judge init-db` to start a new one)\n")
        except OSError:
            self._identity = None
        return applied

    def check(self) -> str | None:
        """`PRAGMA quick_check` now: None when the file is sound, else the cause (kept in the marker)."""
        self._checked = time.monotonic()
        try:
            with closing(self._readonly()) as db:
                rows = db.execute("PRAGMA quick_check").fetchall()
            problem = None if rows == [("ok",)] else CORRUPT
        except sqlite3.DatabaseError as exc:
            problem = _cause(exc).cause if _cause(exc).cause == CORRUPT else None
        except StoreUnavailable:
            return None  # missing or unreadable: said elsewhere
        self._mark_corrupt(problem)
        return problem

    def _mark_corrupt(self, problem: str | None) -> None:
        try:
            if problem:
                self.corrupt_marker.write_text(problem + "\n")
            else:
                self.corrupt_marker.unlink(missing_ok=True)
        except OSError:
            pass

    def _corrupt(self) -> str | None:
        if time.monotonic() - self._checked > CHECK_EVERY:
            return self.check()
        try:
            return self.corrupt_marker.read_text().strip() or CORRUPT
        except OSError:
            return None

    def _failure(self, exc: sqlite3.Error) -> StoreUnavailable:
        failure = _cause(exc)
        if failure.cause == CORRUPT:
            self._mark_corrupt(CORRUPT)
        elif failure.cause in WRITE_CAUSES:  # say why, when the disk says it: read-only or full
            failure = StoreUnavailable(self._save_problem() or failure.cause, failure.retry_after,
                                       failure.detail)
        return failure

    def _check_identity(self) -> None:
        """The file migrated is still the one here: a database deleted (or replaced) while the site runs
        is reported, never silently made again empty (every saved link would then be a 404)."""
        if self._identity is None:
            return
        try:
            found = self.path.stat()
        except FileNotFoundError:
            raise StoreUnavailable("the database file is gone (deleted or moved while the site ran); restore "
                                   "it, or run `judge init-db` to start an empty one", 60,
                                   detail=str(self.path)) from None
        except OSError as exc:
            raise StoreUnavailable("the database file can't be read", 60, detail=str(exc)) from None
        if (found.st_dev, found.st_ino) != self._identity:
            raise StoreUnavailable("the database file was replaced while the site ran; restart the site to "
                                   "use the new one", 60, detail=str(self.path))

    def count(self) -> int:
        return self._read(lambda db: db.execute("SELECT count(*) FROM rulings").fetchone()[0])

    def close(self) -> None:
        """Nothing to close: every operation opens and closes its own connection."""

    def _readonly(self) -> sqlite3.Connection:
        if not self.path.exists():
            raise StoreUnavailable("the database file is missing", 60, detail=str(self.path))
        try:
            return sqlite3.connect(f"file:{quote(str(self.path))}?mode=ro", uri=True,
                                   timeout=self.busy_seconds)
        except sqlite3.Error as exc:
            raise _cause(exc) from None

    def _connect(self, migrating: bool = False) -> sqlite3.Connection:
        if not migrating:
            self._check_identity()
        create = not self.path.exists()
        if create:
            if not (self._may_create or not self.made_marker.exists()):
                raise StoreUnavailable("the database file is missing (it was made here before, and is never "
                                       "made again empty); restore it, or run `judge init-db` to start an "
                                       "empty one", 60, detail=str(self.path))
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreUnavailable("the database folder can't be made", 60, detail=str(exc)) from None
        mode = "rwc" if create else "rw"
        try:
            connection = sqlite3.connect(f"file:{quote(str(self.path))}?mode={mode}", uri=True,
                                         timeout=self.busy_seconds, check_same_thread=False)
        except sqlite3.Error as exc:
            raise self._failure(exc) from None
        try:
            connection.execute(f"PRAGMA busy_timeout = {int(self.busy_seconds * 1000)}")
            if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                connection.execute("PRAGMA journal_mode = WAL")
            if not self._migrated:  # once migrated, the file (its identity checked above) has the schema
                connection.executescript(SCHEMA)
                if not migrating:
                    self._apply_migrations(connection)
        except sqlite3.Error as exc:
            connection.close()
            raise self._failure(exc) from None
        return connection

    def _read(self, work: Any) -> Any:
        """work(connection) on a connection for reading; where the disk refuses writes (read-only,
        full), on a read-only one (with `immutable` when not even the WAL's index can be made)."""
        try:
            with closing(self._connect()) as db:
                return work(db)
        except sqlite3.Error as exc:
            failure = self._failure(exc)
        except StoreUnavailable as exc:
            failure = exc
        if failure.cause not in WRITE_CAUSES:
            raise failure from None
        for uri in ("mode=ro", "mode=ro&immutable=1"):
            try:
                with closing(sqlite3.connect(f"file:{quote(str(self.path))}?{uri}", uri=True,
                                             timeout=self.busy_seconds)) as db:
                    return work(db)
            except sqlite3.Error:
                continue
        raise failure

    def _write(self, work: Any) -> Any:
        """work(connection) in one transaction; a file known corrupt takes no more writes."""
        corrupt = self._corrupt()
        if corrupt:
            raise StoreUnavailable(corrupt, 60)
        try:
            with closing(self._connect()) as db, db:
                return work(db)
        except sqlite3.Error as exc:
            raise self._failure(exc) from None

    def save(self, scenario: Mapping[str, Any], codex: str, outcome: Mapping[str, Any],
             ruling: Mapping[str, Any], versions: str = "", view: Mapping[str, Any] | None = None) -> str:
        """Store the scenario (once) and return its id; saving it again returns the same id. With
        `versions`, `view` (the ruling as pages show it, snapshots included) is kept for them too."""
        text = canonical_json(scenario)
        packed = pack(ruling)
        if len(packed) + len(text) > MAX_ROW:
            raise RulingTooLarge(f"the ruling is {(len(packed) + len(text)) // 1024} KB compressed; "
                                 f"a shared ruling may take at most {MAX_ROW // 1024} KB")
        shown = packed if view is None else pack_view(view)  # refused here, never on each visit

        def work(db: sqlite3.Connection) -> str:
            rid = self._insert(db, scenario, text, codex, outcome, packed)
            if versions:
                db.execute("INSERT OR REPLACE INTO views (id, versions, ruling) VALUES (?,?,?)",
                           (rid, versions, shown))
            return rid
        return self._write(work)

    def _insert(self, db: sqlite3.Connection, scenario: Mapping[str, Any], text: str, codex: str,
                outcome: Mapping[str, Any], packed: bytes) -> str:
        for length in (12, 16, 24, 64):  # a longer id only on a (vanishingly rare) clash
            rid = content_id(scenario, length)
            # Write first: the transaction holds the write lock from here, so two processes saving the
            # same content never both see "absent" (one inserts, the other finds the row).
            inserted = db.execute(
                "INSERT INTO rulings (id, scenario, codex, outcome, ruling, created) VALUES (?,?,?,?,?,?) "
                "ON CONFLICT (id) DO NOTHING",
                (rid, text, codex, canonical_json(outcome), packed,
                 datetime.now(UTC).isoformat(timespec="seconds")),
            ).rowcount
            if inserted == 1:
                return rid
            row = db.execute("SELECT scenario FROM rulings WHERE id = ?", (rid,)).fetchone()
            if row is not None and row[0] == text:
                return rid
        raise RuntimeError("no free id for this scenario")

    def all(self) -> list[Saved]:
        """Every saved ruling, oldest first (the CLI's `judge changes`; the web pages through `pending`)."""
        rows = self._read(lambda db: db.execute("SELECT id, scenario, codex, outcome, ruling, created FROM "
                                                "rulings ORDER BY created, id").fetchall())
        return [Saved(r[0], json.loads(r[1]), r[2], json.loads(r[3]), unpack(r[4]), r[5]) for r in rows]

    def stamp(self) -> tuple[int, str]:
        """(how many rulings are saved, when the last one was): changes whenever one is saved."""
        count, last = self._read(lambda db: db.execute(
            "SELECT COUNT(*), COALESCE(MAX(created), '') FROM rulings").fetchone())
        return (int(count), str(last))

    def ids(self) -> list[str]:
        """Every saved ruling's id, oldest first (nothing else decoded)."""
        return [r[0] for r in self._read(lambda db: db.execute(
            "SELECT id FROM rulings ORDER BY created, id").fetchall())]

    def scenarios(self, ids: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        """(id, scenario) of those of `ids` still saved, in the order of `ids` (one query)."""
        marks = ",".join("?" * len(ids))
        rows = dict(self._read(lambda db: db.execute(
            f"SELECT id, scenario FROM rulings WHERE id IN ({marks})", tuple(ids)).fetchall())) if ids else {}
        return [(rid, json.loads(rows[rid])) for rid in ids if rid in rows]

    def kept(self, kind: str, key: str) -> bytes | None:
        row = self._read(lambda db: db.execute("SELECT value FROM kept WHERE kind = ? AND key = ?",
                                               (kind, key)).fetchone())
        return None if row is None else bytes(row[0])

    def kept_keys(self, kind: str) -> set[str]:
        return {r[0] for r in self._read(lambda db: db.execute("SELECT key FROM kept WHERE kind = ?",
                                                               (kind,)).fetchall())}

    def kept_some(self, kind: str, keys: Sequence[str]) -> dict[str, bytes]:
        """What is kept under `kind` for those of `keys` that have a value (a few hundred at a time)."""
        if not keys:
            return {}
        marks = ",".join("?" * len(keys))
        rows = self._read(lambda db: db.execute(
            f"SELECT key, value FROM kept WHERE kind = ? AND key IN ({marks})", (kind, *keys)).fetchall())
        return {r[0]: bytes(r[1]) for r in rows}

    def keep(self, kind: str, key: str, value: bytes, replaces: str = "") -> None:
        """Keep `value` under (kind, key); with `replaces`, first drop the kind's rows whose key starts
        with it (the same page made by older versions)."""
        def work(db: sqlite3.Connection) -> None:
            if replaces:
                db.execute("DELETE FROM kept WHERE kind = ? AND substr(key, 1, ?) = ?",
                           (kind, len(replaces), replaces))
            db.execute("INSERT OR REPLACE INTO kept (kind, key, value) VALUES (?,?,?)", (kind, key, value))
        self._write(work)

    def keep_many(self, kind: str, values: Sequence[tuple[str, bytes]]) -> None:
        """Keep each (key, value) under `kind`, all in one transaction (one commit for a batch)."""
        if values:
            self._write(lambda db: db.executemany(
                "INSERT OR REPLACE INTO kept (kind, key, value) VALUES (?,?,?)",
                [(kind, key, value) for key, value in values]))

    def lease(self, key: str, seconds: float) -> str | None:
        """Take the work `key` for `seconds` (a holder's token), or None while another holds it."""
        holder, now = uuid.uuid4().hex, time.time()
        taken = self._write(lambda db: db.execute(
            "INSERT INTO leases (key, holder, expires) VALUES (?,?,?) ON CONFLICT (key) DO UPDATE SET "
            "holder = excluded.holder, expires = excluded.expires WHERE leases.expires < ?",
            (key, holder, now + seconds, now)).rowcount)
        return holder if taken == 1 else None

    def release(self, key: str, holder: str) -> None:
        with contextlib.suppress(StoreUnavailable):  # else it expires by itself
            self._write(lambda db: db.execute("DELETE FROM leases WHERE key = ? AND holder = ?",
                                              (key, holder)))

    def get(self, rid: str) -> Saved | None:
        if not rid.isalnum() or len(rid) > 64:
            return None
        row = self._read(lambda db: db.execute(
            "SELECT id, scenario, codex, outcome, ruling, created FROM rulings WHERE id = ?",
            (rid,)).fetchone())
        if row is None:
            return None
        return Saved(row[0], json.loads(row[1]), row[2], json.loads(row[3]), unpack(row[4]), row[5])

    def view(self, rid: str, versions: str) -> dict[str, Any] | None:
        """The ruling kept for `rid` under `versions`, or None (never made, or made by other versions)."""
        row = self._read(lambda db: db.execute("SELECT ruling FROM views WHERE id = ? AND versions = ?",
                                               (rid, versions)).fetchone())
        return None if row is None else unpack(row[0])

    def put_view(self, rid: str, versions: str, ruling: Mapping[str, Any]) -> None:
        """Keep `ruling` as rid's view for `versions` (replacing one made by older versions). A store
        that can't write now is no reason to fail a page: the view is made again next time. A view too
        large to keep is kept as its reason (`{"too_large": …}`), so it is never made again per visit."""
        try:
            packed = pack_view(ruling)
        except RulingTooLarge as exc:
            packed = too_large_view(exc)
        try:
            self._write(lambda db: db.execute("INSERT OR REPLACE INTO views (id, versions, ruling) "
                                              "VALUES (?,?,?)", (rid, versions, packed)))
        except StoreUnavailable:
            return

    def health(self) -> dict[str, Any]:
        """{"ok", "backend", "schema", "rulings"} or {"ok": False, "backend", "error": cause}: for /healthz.
        Not ok either when the schema is not the latest, the file is corrupt, or saves would fail now
        (every worker answers alike: from the disk and the file, never from what one worker saw)."""
        try:
            count, schema = self._read(lambda db: db.execute(
                "SELECT (SELECT count(*) FROM rulings), (SELECT max(version) FROM schema_migrations)"
            ).fetchone())
        except StoreUnavailable as exc:
            return {"ok": False, "backend": self.backend, "error": exc.cause}
        body = health_body(self.backend, schema, count)
        problem = self._corrupt() or self._save_problem()
        if problem:
            body.update(ok=False, error=problem)
        return body

    def _save_problem(self) -> str | None:
        """Why a save would fail now, though the database reads: its disk is read-only or full."""
        folder = self.path.parent
        if not (os.access(folder, os.W_OK) and os.access(self.path, os.W_OK)):
            return NO_SAVES_READ_ONLY
        try:
            disk = os.statvfs(folder)
        except OSError:
            return None
        if disk.f_bavail * disk.f_frsize < MIN_FREE:
            return NO_SAVES_FULL
        return None
