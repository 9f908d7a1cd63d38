"""Two app instances (real gunicorn servers on two ports, each with its own instance folder and its
own search index) sharing one PostgreSQL database through DATABASE_URL: a ruling saved through one is
served by the other, and 50 concurrent saves across both lose nothing and duplicate nothing.

Needs PostgreSQL (tests/pg.py starts a throwaway cluster; skips locally without it, fails in CI)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from judge import ROOT
from judge.desk.engine import content_id

START_TIMEOUT = 120


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(url: str, body: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method="POST" if data else "GET",
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, json.load(exc)


def start_instance(name: str, database_url: str, tmp: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "JUDGE_INSTANCE": str(tmp / name),
           "JUDGE_SECRET_KEY": "two-instances-test", "RATELIMIT_ENABLED": "false"}
    env.pop("JUDGE_DB", None)
    env.pop("JUDGE_INDEX", None)
    log = (tmp / f"{name}.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--workers", "2", "--worker-class", "gthread", "--threads", "4",
         "--bind", f"127.0.0.1:{port}", "judge.web:create_app()"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    log.close()
    return server, f"http://127.0.0.1:{port}"


def wait_until_up(server: subprocess.Popen, base: str, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"{base} exited ({server.returncode}):\n{log.read_text()[-3000:]}")
        try:
            if request(f"{base}/api/v1/rules/13.6.2")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"{base} did not answer within {START_TIMEOUT} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def instances(pg_cluster, tmp_path_factory):
    """Two gunicorn servers (2 workers each) on one fresh database; stopped at the end."""
    database_url = pg_cluster.create_database()
    tmp = tmp_path_factory.mktemp("two-instances")
    started = [start_instance(name, database_url, tmp) for name in ("one", "two")]
    try:
        for (server, base), name in zip(started, ("one", "two"), strict=True):
            wait_until_up(server, base, tmp / f"{name}.log")
        yield database_url, [base for _, base in started], tmp
    finally:
        for server, _ in started:
            server.terminate()
        for server, _ in started:
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def scenario(n: int) -> dict:
    return {"title": f"Two instances #{n}",
            "state": {"players": {"A": {"field": {"altar": "Queen Sol", "L2": "Noah"}, "hand": n % 5},
                                  "B": {"field": {"altar": "King Umbra"}}}},
            "actions": [{"end_phase": True}]}


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
        assert page.status == 200 and "Two instances #1000" in page.read().decode()


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
    assert len(after) == len({rid for rid, _ in after})  # none duplicated
    assert all(json.loads(text) == scenario(n) for n in range(30) for rid, text in new
               if rid == content_id(scenario(n)))
    print(f"\ntwo instances: 50 concurrent saves in {elapsed:.2f} s ({50 / elapsed:.0f} saves/s across both); "
          f"{len(new)} new rows for 30 scenarios, 0 lost, {len(after) - len({r for r, _ in after})} duplicated")
