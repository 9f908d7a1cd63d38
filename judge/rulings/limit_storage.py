"""Rate-limit counts in PostgreSQL, for several app instances: a storage for the `limits` library
(which Flask-Limiter uses) registered for `postgresql://` and `postgres://` URIs.

    RATELIMIT_STORAGE_URI=memory://                 the default: counts per worker process
    RATELIMIT_STORAGE_URI=$DATABASE_URL             shared by every instance, in the rulings database
    RATELIMIT_STORAGE_URI=redis://host:6379         also works (limits' own storage), one more service

Why PostgreSQL and not Redis: several instances already need one PostgreSQL for saved rulings, so
counting there adds no server to run, secure, back up or monitor; a limited request costs one short
transaction (≈1 ms on a LAN). Redis is the better choice only past thousands of limited requests a second.

Both of Flask-Limiter's usual strategies work: fixed window (a counter per key and window) and moving
window (one row per request in the window, counted under a per-key advisory lock). Time comes from
the database server, so instances whose clocks differ still agree. Rows past their window are deleted
as their key is used, and about once every SWEEP_EVERY writes for all keys (clients that never
come back). The two tables are created on first use.
"""

from __future__ import annotations

import threading
from typing import Any

import psycopg
from limits.storage import MovingWindowSupport, Storage

SCHEMA = (
    ("CREATE TABLE IF NOT EXISTS rate_limit_counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL, "
     "expires DOUBLE PRECISION NOT NULL)"),
    ("CREATE TABLE IF NOT EXISTS rate_limit_events (key TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, "
     "expires DOUBLE PRECISION NOT NULL)"),
    # a table made before events expired gets the column (its old rows count as expired: swept)
    "ALTER TABLE rate_limit_events ADD COLUMN IF NOT EXISTS expires DOUBLE PRECISION NOT NULL DEFAULT 0",
    "CREATE INDEX IF NOT EXISTS rate_limit_events_key_at ON rate_limit_events (key, at)",
)
NOW = "extract(epoch from clock_timestamp())"
SCHEMA_LOCK = 0x4C696D6974  # advisory lock key while creating the tables
SWEEP_EVERY = 500           # writes between two sweeps of every key's expired rows


def _scalar(row: tuple[Any, ...] | None) -> Any:
    """The one value of a query that always returns a row (now(), an aggregate)."""
    if row is None:
        raise RuntimeError("the query returned no row")
    return row[0]


class PostgresStorage(Storage, MovingWindowSupport):
    STORAGE_SCHEME = ["postgresql", "postgres"]  # a list: limits reads it as one

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.uri = uri
        self._db: psycopg.Connection | None = None
        # one connection per process (per worker), used by one thread at a time
        self._lock = threading.Lock()
        self._writes = 0

    @property
    def base_exceptions(self) -> type[Exception]:
        return psycopg.Error

    def _run(self, work, write: bool = False):
        """work(connection) inside one transaction; a dropped connection is opened again next time."""
        with self._lock:
            if self._db is None or self._db.closed or self._db.broken:
                self._db = psycopg.connect(self.uri, autocommit=True, connect_timeout=5)
                with self._db.transaction():
                    self._db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                    for statement in SCHEMA:
                        self._db.execute(statement)
            try:
                with self._db.transaction():
                    result = work(self._db)
                if write:
                    self._writes += 1
                    if self._writes % SWEEP_EVERY == 0:
                        self._sweep(self._db)
                return result
            except psycopg.OperationalError:
                self._db.close()
                raise

    @staticmethod
    def _sweep(db: psycopg.Connection) -> None:
        """Delete every key's rows past their window (a client that never came back)."""
        with db.transaction():
            db.execute(f"DELETE FROM rate_limit_counters WHERE expires <= {NOW}")
            db.execute(f"DELETE FROM rate_limit_events WHERE expires <= {NOW}")

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    # -- fixed window ------------------------------------------------------------------------------
    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        return self._run(lambda db: db.execute(
            f"INSERT INTO rate_limit_counters AS c (key, count, expires) VALUES (%s, %s, {NOW} + %s) "
            f"ON CONFLICT (key) DO UPDATE SET "
            f"count = CASE WHEN c.expires <= {NOW} THEN excluded.count ELSE c.count + excluded.count END, "
            f"expires = CASE WHEN c.expires <= {NOW} THEN excluded.expires ELSE c.expires END "
            "RETURNING count",
            (key, amount, expiry)).fetchone()[0], write=True)

    def get(self, key: str) -> int:
        row = self._run(lambda db: db.execute(
            f"SELECT count FROM rate_limit_counters WHERE key = %s AND expires > {NOW}", (key,)).fetchone())
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        return float(self._run(lambda db: db.execute(
            f"SELECT coalesce((SELECT expires FROM rate_limit_counters WHERE key = %s AND expires > {NOW}), "
            f"{NOW})",
            (key,)).fetchone()[0]))

    def check(self) -> bool:
        try:
            return self._run(lambda db: db.execute("SELECT 1").fetchone()[0] == 1)
        except psycopg.Error:
            return False

    def reset(self) -> int | None:
        def work(db: psycopg.Connection) -> int:
            counters = db.execute("DELETE FROM rate_limit_counters").rowcount
            return counters + db.execute("DELETE FROM rate_limit_events").rowcount
        return self._run(work)

    def clear(self, key: str) -> None:
        def work(db: psycopg.Connection) -> None:
            db.execute("DELETE FROM rate_limit_counters WHERE key = %s", (key,))
            db.execute("DELETE FROM rate_limit_events WHERE key = %s", (key,))
        self._run(work)

    # -- moving window -----------------------------------------------------------------------------
    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False

        def work(db: psycopg.Connection) -> bool:
            db.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (key,))
            now = _scalar(db.execute(f"SELECT {NOW}").fetchone())
            db.execute("DELETE FROM rate_limit_events WHERE key = %s AND at <= %s", (key, now - expiry))
            taken = _scalar(db.execute("SELECT count(*) FROM rate_limit_events WHERE key = %s",
                                       (key,)).fetchone())
            if taken + amount > limit:
                return False
            with db.cursor() as cur:
                cur.executemany("INSERT INTO rate_limit_events (key, at, expires) VALUES (%s, %s, %s)",
                                [(key, now, now + expiry)] * amount)
            return True
        return self._run(work, write=True)

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        start, count = self._run(lambda db: db.execute(
            f"SELECT coalesce(min(at), {NOW}), count(*) FROM rate_limit_events WHERE key = %s AND at > {NOW} "
            "- %s",
            (key, expiry)).fetchone())
        return float(start), int(count)
