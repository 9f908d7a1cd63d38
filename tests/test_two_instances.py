"""Two app instances (real gunicorn servers on two ports, each with its own instance folder and its
own search index) sharing one PostgreSQL database through DATABASE_URL: a ruling saved through one is
served by the other, and 50 concurrent saves across both lose nothing and duplicate nothing.

Needs PostgreSQL (tests/pg.py starts a throwaway cluster; skips locally without it, fails in CI).
bench/instances.py measures the same set-up (saves/s, latency)."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from instances import request, scenario, start_instance, stop, wait_until_up

from judge.desk.runner import content_id


@pytest.fixture(scope="module")
def instances(pg_cluster, tmp_path_factory):
    """Two gunicorn servers (2 workers each) on one fresh database; stopped at the end."""
    database_url = pg_cluster.create_database()
    tmp = tmp_path_factory.mktemp("two-instances")
    started = [start_instance(name, database_url, tmp) for name in ("one", "two")]
    try:
        for (server, base), name in zip(started, ("one", "two"), strict=True):
            if problem := wait_until_up(server, base, tmp / f"{name}.log"):
                pytest.fail(problem)
        yield database_url, [base for _, base in started], tmp
    finally:
        stop([server for server, _ in started])


def rows(database_url: str) -> list[tuple[str, str]]:
    import psycopg

    with psycopg.connect(database_url) as db:
        return db.execute("SELECT id, scenario FROM rulings ORDER BY id").fetchall()


def test_each_instance_built_its_own_search_index(instances):
    _, bases, tmp = instances
    for name, base in zip(("one", "two"), bases, strict=True):
        assert (tmp / name / "index").is_dir()
        status, body = request(f"{base}/api/v1/search?q=unyielding")
        assert status == 200 and body["total"] > 0


def test_a_ruling_saved_through_one_instance_is_served_by_the_other(instances):
    _, (one, two), _ = instances
    status, saved = request(f"{one}/api/v1/rulings", scenario(1000))
    assert status == 201 and saved["id"] == content_id(scenario(1000))
    status, served = request(f"{two}/api/v1/rulings/{saved['id']}")
    assert status == 200 and served["scenario"] == scenario(1000) and served["ruling"]["steps"]
    with urllib.request.urlopen(f"{two}/r/{saved['id']}", timeout=60) as page:
        assert page.status == 200 and "Several instances #1000" in page.read().decode()


def test_fifty_concurrent_saves_across_both_lose_nothing_and_duplicate_nothing(instances):
    """30 scenarios: 20 saved through both instances at once, 10 through one: 50 saves, 30 rows."""
    database_url, (one, two), _ = instances
    jobs = [(one, n) for n in range(20)] + [(two, n) for n in range(20)] + \
           [(one if n % 2 else two, n) for n in range(20, 30)]
    before = {rid for rid, _ in rows(database_url)}
    start = threading.Barrier(len(jobs))

    def save(job):
        base, n = job
        start.wait()
        return n, request(f"{base}/api/v1/rulings", scenario(n))

    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        answers = list(pool.map(save, jobs))
    elapsed = time.perf_counter() - began
    assert [status for _, (status, _) in answers] == [201] * 50
    assert all(body["id"] == content_id(scenario(n)) for n, (_, body) in answers)  # same id from both
    after = rows(database_url)
    new = [(rid, text) for rid, text in after if rid not in before]
    assert sorted(rid for rid, _ in new) == sorted(content_id(scenario(n)) for n in range(30))  # none lost
    contents = [json.loads(text) for _, text in after]
    duplicated = len(contents) - len({json.dumps(c, sort_keys=True) for c in contents})
    assert duplicated == 0  # no scenario stored twice (under another id)
    assert all(json.loads(text) == scenario(n) for n in range(30) for rid, text in new
               if rid == content_id(scenario(n)))
    print(f"\ntwo instances: 50 concurrent saves in {elapsed:.2f} s ({50 / elapsed:.0f} saves/s across "
          f"both); {len(new)} new rows for 30 scenarios, 0 lost, {duplicated} duplicated")
