"""No 5xx from any input (issue 22), at volume: the shapes of tests/fuzz_shapes.py (every route with odd
query names, a null or a wrong type at every key path of library scenarios on every POST route, the
desk's redraw with a mistyped board, nesting to 5,000 levels), each seed picking other scenarios and
names, sent by 4 clients to a real gunicorn (gunicorn.conf.py, 2 workers) until `--requests` have been
answered. Rate limits are off so every request reaches its view. Prints the count, the time, the
statuses and every 5xx (target: none).

    python bench/fuzz.py [--port 8170] [--requests 20000] [--clients 4]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from fuzz_shapes import requests_for
from served import fetch, serving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8170)
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    from judge.web import create_app

    with tempfile.TemporaryDirectory() as scratch:  # an app of our own, only to list its routes
        app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "DATABASE": f"{scratch}/r.sqlite3",
                          "INDEX_DIR": f"{scratch}/index"})
    with serving(args.port, env={"RATELIMIT_ENABLED": "0"}) as base:
        saved = fetch(base + "/api/v1/rulings", "POST",
                      b'{"state": {"players": {"A": {"field": {"altar": "Queen Sol"}}, '
                      b'"B": {"field": {"altar": "King Umbra"}}}}}', {"Content-Type": "application/json"})
        rid = saved[2].split(b'"id":"')[1].split(b'"')[0].decode()
        shapes = itertools.chain.from_iterable(requests_for(app, rid, seed) for seed in itertools.count())
        lock = threading.Lock()
        statuses: Counter = Counter()
        failures: list[str] = []
        slowest = [0.0, ""]
        sent = [0]

        def client() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
            while True:
                with lock:
                    if sent[0] >= args.requests:
                        return
                    sent[0] += 1
                    method, path, body, mimetype = next(shapes)
                headers = {"Content-Type": mimetype} if mimetype else {}
                try:
                    status, took, data = fetch(base + path, method, body, headers, connection=conn)
                except (OSError, http.client.HTTPException) as exc:
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
                    status, took, data = 599, 0.0, str(exc).encode()
                with lock:
                    statuses[status] += 1
                    if took > slowest[0]:
                        slowest[:] = [took, f"{method} {path[:80]}"]
                    if status >= 500:
                        sample = (body or b"")[:100]
                        failures.append(f"{status} {method} {path[:100]} {sample!r} {data[:200]!r}")

        started = time.monotonic()
        threads = [threading.Thread(target=client) for _ in range(args.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        took = time.monotonic() - started
    total = sum(statuses.values())
    print(f"{total} requests in {took:.0f} s ({total / took:.0f}/s) by {args.clients} clients; "
          f"statuses {dict(sorted(statuses.items()))}; slowest {slowest[0]:.2f} s ({slowest[1]})")
    print(f"5xx: {len(failures)} (target 0)")
    for line in failures[:20]:
        print("  ", line)


if __name__ == "__main__":
    main()
