"""Rate-limit counts in PostgreSQL shared by several instances (judge/rulings/limit_storage.py), through
the `limits` library's own rate limiters, on a throwaway cluster (tests/pg.py)."""

from __future__ import annotations

import psycopg
import pytest
from limits import parse
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

from judge.rulings.limit_storage import PostgresStorage


@pytest.fixture()
def two_instances(pg_url):
    """Two storages on one database, as two app instances would have."""
    storages = storage_from_string(pg_url), storage_from_string(pg_url.replace("postgresql://", "postgres://",
                                                                               1))
    yield storages
    for storage in storages:
        storage.close()


@pytest.mark.parametrize("strategy", [FixedWindowRateLimiter, MovingWindowRateLimiter])
def test_two_instances_share_one_count(two_instances, strategy):
    assert all(isinstance(s, PostgresStorage) for s in two_instances)
    one, two = (strategy(storage) for storage in two_instances)
    limit = parse("3/minute")
    allowed = [limiter.hit(limit, "client-1") for limiter in (one, two, one, two, one)]
    assert allowed == [True, True, True, False, False]  # the 4th hit is refused, whichever instance takes it
    assert two.hit(limit, "client-2")  # another client has its own count
    stats = one.get_window_stats(limit, "client-1")
    assert stats.remaining == 0 and stats.reset_time > 0
    one.clear(limit, "client-1")
    assert two.hit(limit, "client-1")


def test_a_moving_window_forgets_old_hits(two_instances):
    one, two = (MovingWindowRateLimiter(storage) for storage in two_instances)
    limit = parse("2/second")
    assert one.hit(limit, "k") and two.hit(limit, "k") and not one.hit(limit, "k")
    start, count = two_instances[0].get_moving_window(limit.key_for("k"), 2, 1)
    assert count == 2 and start > 0
    assert not one.hit(limit, "k", cost=3)  # more than the limit at once is never allowed


def test_reset_and_check(two_instances):
    one, two = two_instances
    assert one.check() and two.check()
    assert one.incr("a", 60) == 1 and two.incr("a", 60, amount=2) == 3 and one.get("a") == 3
    assert one.get_expiry("a") > 0
    assert two.reset() >= 1 and one.get("a") == 0


def test_an_unreachable_database_fails_the_check_without_raising(tmp_path):
    storage = storage_from_string(f"postgresql://judge@/db?host={tmp_path}&port=8197")
    assert storage.check() is False


def test_expired_rows_of_every_key_are_swept_now_and_then(two_instances, monkeypatch):
    """Clients that never come back leave no rows behind: every SWEEP_EVERY writes, expired rows of
    all keys go."""
    import psycopg

    from judge.rulings import limit_storage

    monkeypatch.setattr(limit_storage, "SWEEP_EVERY", 3)
    one, _ = two_instances
    moving = MovingWindowRateLimiter(one)
    one.incr("gone-counter", 0)  # a fixed window that is over at once
    one.acquire_entry("gone-events", 5, 0)  # a moving window entry that is over at once
    assert moving.hit(parse("5/minute"), "still-here")  # the third write: the sweep runs after it
    with psycopg.connect(one.uri) as db:
        keys = {row[0] for row in db.execute("SELECT key FROM rate_limit_counters UNION ALL "
                                             "SELECT key FROM rate_limit_events")}
    assert "gone-counter" not in keys and "gone-events" not in keys
    assert any("still-here" in key for key in keys)


def test_a_table_made_before_events_expired_gets_the_column(pg_url):
    """An instance upgraded from a version whose event rows had no `expires` keeps counting."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS rate_limit_events")
        conn.execute("CREATE TABLE rate_limit_events (key TEXT NOT NULL, at DOUBLE PRECISION NOT NULL)")
    storage = storage_from_string(pg_url)
    try:
        limiter = MovingWindowRateLimiter(storage)
        limit = parse("2/minute")
        assert [limiter.hit(limit, "upgraded") for _ in range(3)] == [True, True, False]
    finally:
        storage.close()
