"""Several instances on one PostgreSQL: two gunicorn servers (2 gthread workers each), rounds of 50
concurrent saves spread across both (each scenario saved through both at once, plus some saved once),
then reads of each saved ruling through the other instance. Prints saves/s across both, the latency
of a save and of a read (median, p95), and rows lost or duplicated (both must be 0).

    python bench/instances.py [--rounds 5] [--ports 8190 8191] [--budget 2] [--database-url postgresql://…]

--budget is the engine's wall clock per request (JUDGE_BUDGET_SECONDS; the web's default is 2 s, the
bench's 60 s so that a busy machine measures storage, not refusals). A save the budget refused (422)
is counted apart; only saves answered 201 must be in the database.

Without --database-url it starts a throwaway PostgreSQL cluster (tests/pg.py) and removes it after.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import psycopg
from instances import request, scenario, start_instance, stop, wait_until_up
from pg import start_cluster, stop_cluster

from judge.desk.runner import content_id

SAVES = 50


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def one_round(bases: list[str], first: int) -> tuple[float, list[float], set[int], Counter]:
    """50 saves at once: 20 scenarios through both instances, 10 through one.
    → (seconds, latencies, numbers saved (answered 201), statuses)."""
    one, two = bases
    numbers = range(first, first + 30)
    jobs = [(one, n) for n in numbers[:20]] + [(two, n) for n in numbers[:20]] + \
           [(one if n % 2 else two, n) for n in numbers[20:]]
    gate = threading.Barrier(len(jobs))

    def save(job: tuple[str, int]) -> tuple[int, int, float]:
        base, n = job
        gate.wait()
        began = time.perf_counter()
        status, body = request(f"{base}/api/v1/rulings", scenario(n))
        if status == 201 and body["id"] != content_id(scenario(n)):
            raise RuntimeError(f"save {n} through {base}: id {body['id']}, not {content_id(scenario(n))}")
        return n, status, (time.perf_counter() - began) * 1000
    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        answers = list(pool.map(save, jobs))
    seconds = time.perf_counter() - began
    saved = {n for n, status, _ in answers if status == 201}
    return seconds, [ms for _, _, ms in answers], saved, Counter(status for _, status, _ in answers)


def read_back(bases: list[str], numbers: set[int]) -> list[float]:
    latencies = []
    for i, n in enumerate(sorted(numbers)):  # only those answered 201
        began = time.perf_counter()
        status, body = request(f"{bases[i % 2]}/api/v1/rulings/{content_id(scenario(n))}")
        latencies.append((time.perf_counter() - began) * 1000)
        if status != 200 or body["scenario"] != scenario(n):
            raise RuntimeError(f"read {n}: {status}")
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ports", type=int, nargs=2, default=[8190, 8191])
    parser.add_argument("--database-url", default="")
    parser.add_argument("--budget", type=float, default=60.0)
    args = parser.parse_args()
    cluster = None
    if args.database_url:
        url = args.database_url
    else:
        cluster = start_cluster()
        url = cluster.create_database()
    tmp = Path(tempfile.mkdtemp(prefix="codex-instances-"))
    servers = [start_instance(f"i{p}", url, tmp, port=p, budget_seconds=args.budget) for p in args.ports]
    try:
        for (server, base), port in zip(servers, args.ports, strict=True):
            if problem := wait_until_up(server, base, tmp / f"i{port}.log"):
                raise SystemExit(problem)
        bases = [base for _, base in servers]
        rates, saves, reads, expected, statuses = [], [], [], set(), Counter()
        for r in range(args.rounds):
            seconds, latencies, numbers, answered = one_round(bases, r * 30)
            rates.append(answered[201] / seconds)
            saves += latencies
            expected |= numbers
            statuses += answered
            reads += read_back(bases, numbers)
        with psycopg.connect(url) as db:
            rows = db.execute("SELECT id, scenario FROM rulings").fetchall()
        ids = [rid for rid, _ in rows]
        contents = {json.dumps(json.loads(text), sort_keys=True) for _, text in rows}
        want = {content_id(scenario(n)) for n in expected}
        print(f"{args.rounds} rounds of {SAVES} concurrent saves across 2 instances (2 gthread workers "
              f"each), engine budget {args.budget:g} s; answers: {dict(sorted(statuses.items()))}")
        print(f"saves/s across both: median {statistics.median(rates):.0f}, min {min(rates):.0f}")
        print(f"save latency ms:     median {statistics.median(saves):.1f}, p95 {p95(saves):.1f}")
        print(f"read latency ms:     median {statistics.median(reads):.1f}, p95 {p95(reads):.1f} (the other "
              "instance)")
        print(f"rows: {len(ids)} for {len(want)} scenarios; lost {len(want - set(ids))}, "
              f"duplicated {len(rows) - len(contents)} (the same scenario stored twice)")
    finally:
        stop([server for server, _ in servers])
        if cluster:
            stop_cluster(cluster)


if __name__ == "__main__":
    main()
