"""Rate-limit counts in a SQLite file beside the rulings database, for one instance's workers: a storage
for the `limits` library registered for `sqlite:///path` URIs, the default when saved rulings are in
SQLite (`RATELIMIT_STORAGE_URI` unset): every worker of the instance counts together, and the counts
survive a worker's recycle or crash (with `memory://` each worker counted alone, from zero after each
recycle). PostgreSQL (judge/rulings/limit_storage.py) does the same across instances.

Both strategies work: fixed window (a counter per key and window) and moving window (one row per
request in the window). Counts are not precious: the file runs without fsync (a crash may lose the
last few), and a failure falls back to counting in memory (Flask-Limiter's fallback, on in the app).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from limits.storage import MovingWindowSupport, Storage

SCHEMA = """
CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events (key TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS events_key_at ON events (key, at);
"""
SWEEP_EVERY = 500  # writes between two sweeps of every key's expired rows


class SqliteStorage(Storage, MovingWindowSupport):
    STORAGE_SCHEME = ["sqlite"]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = Path(uri.removeprefix("sqlite://"))
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._writes = 0

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _run(self, work: Any, write: bool = False) -> Any:
        with self._lock:
            if self._db is None:
                db = sqlite3.connect(self.path, timeout=2.0, isolation_level=None, check_same_thread=False)
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = OFF")
                db.executescript(SCHEMA)
                self._db = db
            db = self._db
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                result = work(db, time.time())
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            if write:
                self._writes += 1
                if self._writes % SWEEP_EVERY == 0:
                    now = time.time()
                    db.execute("DELETE FROM counters WHERE expires <= ?", (now,))
                    db.execute("DELETE FROM events WHERE at <= ?", (now - 86400,))
            return result

    # -- fixed window ------------------------------------------------------------------------------
    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        def work(db: sqlite3.Connection, now: float) -> int:
            db.execute("INSERT INTO counters (key, count, expires) VALUES (?, ?, ?) ON CONFLICT (key) "
                       "DO UPDATE SET count = CASE WHEN expires <= ? THEN excluded.count "
                       "ELSE count + excluded.count END, "
                       "expires = CASE WHEN expires <= ? THEN excluded.expires ELSE expires END",
                       (key, amount, now + expiry, now, now))
            return int(db.execute("SELECT count FROM counters WHERE key = ?", (key,)).fetchone()[0])
        return int(self._run(work, write=True))

    def get(self, key: str) -> int:
        row = self._run(lambda db, now: db.execute("SELECT count FROM counters WHERE key = ? AND expires > ?",
                                                   (key, now)).fetchone())
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._run(lambda db, now: db.execute(
            "SELECT expires FROM counters WHERE key = ? AND expires > ?", (key, now)).fetchone())
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        try:
            return bool(self._run(lambda db, now: db.execute("SELECT 1").fetchone()[0] == 1))
        except sqlite3.Error:
            return False

    def reset(self) -> int | None:
        def work(db: sqlite3.Connection, now: float) -> int:
            return db.execute("DELETE FROM counters").rowcount + db.execute("DELETE FROM events").rowcount
        return int(self._run(work, write=True))

    def clear(self, key: str) -> None:
        def work(db: sqlite3.Connection, now: float) -> None:
            db.execute("DELETE FROM counters WHERE key = ?", (key,))
            db.execute("DELETE FROM events WHERE key = ?", (key,))
        self._run(work, write=True)

    # -- moving window -----------------------------------------------------------------------------
    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False

        def work(db: sqlite3.Connection, now: float) -> bool:
            db.execute("DELETE FROM events WHERE key = ? AND at <= ?", (key, now - expiry))
            taken = db.execute("SELECT count(*) FROM events WHERE key = ?", (key,)).fetchone()[0]
            if taken + amount > limit:
                return False
            db.executemany("INSERT INTO events (key, at) VALUES (?, ?)", [(key, now)] * amount)
            return True
        return bool(self._run(work, write=True))

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        start, count = self._run(lambda db, now: db.execute(
            "SELECT coalesce(min(at), ?), count(*) FROM events WHERE key = ? AND at > ?",
            (now, key, now - expiry)).fetchone())
        return float(start), int(count)
