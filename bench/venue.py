"""A venue behind one address (issue 22): a real gunicorn with its production defaults (limits on,
memory counts per worker) gets 300 page views in a minute from one client address — rule, glossary,
card, library and permalink pages, editions, `/healthz`, static files — while 30 judges at the same
address ask the engine a cheap question every 30 s and search now and then. Prints each kind's
statuses and latency. Target: no 429 at all (the probe saw 60 of 269 page views refused).

    python bench/venue.py [--port 8160] [--seconds 60] [--views 300]
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))

from served import fetch, serving, summary

PAGES = ["/", "/rules/13.6", "/rules/13.6.2", "/rules/11.4.6", "/rules/10", "/rules/11.5.1.json",
         "/glossary", "/glossary/taunt", "/glossary/unyielding", "/cards", "/cards/noah", "/scenarios",
         "/interpretations", "/editions", "/editions/0.4.0/rules/13.6", "/healthz", "/static/css/site.css",
         "/api/v1/rules/13.6.2", "/desk", "/scenarios/13-static-and-unyielding/aura-ends-when-giver-captured"]
QUESTION = {"title": "Can Chrome Chains target Noah?",
            "state": {"players": {"A": {"field": {"altar": "Queen Sol", "C3": {"card": "Storm Titan"}},
                                        "hand": ["Chrome Chains"]},
                                  "B": {"field": {"altar": "King Umbra", "C3": {"card": "Noah"}}}}},
            "actions": [{"cast": "Chrome Chains", "caster": "C3", "targets": ["B:C3"]}]}
SEARCHES = ["unyielding", "captured soul target", "13.6.2", "kind:card noah", "ambush"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8160)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--views", type=int, default=300)
    args = parser.parse_args()
    with serving(args.port) as base:
        saved = json.loads(fetch(base + "/api/v1/rulings", "POST", json.dumps(QUESTION).encode(),
                                 {"Content-Type": "application/json"})[2])["id"]
        pages = [*PAGES, f"/r/{saved}", f"/r/{saved}.json"]
        print(f"gunicorn (gunicorn.conf.py, 2 workers, production defaults) at {base}; one client address")
        results: dict[str, list[tuple[int, float]]] = {"page": [], "engine": [], "search": []}
        lock = threading.Lock()

        def record(kind: str, status: int, took: float) -> None:
            with lock:
                results[kind].append((status, took))

        def views(k: int) -> None:  # one of 5 browsers: a fifth of the page views, evenly over the run
            share = args.views // 5
            for i in range(share):
                status, took, _ = fetch(base + pages[(i * 5 + k) % len(pages)])
                record("page", status, took)
                time.sleep(max(0.0, args.seconds / share - took))

        def judge(n: int) -> None:  # one of 30 judges: a cheap question every 30 s, a search every 60 s
            time.sleep(n * args.seconds / 60)
            ends = time.monotonic() + args.seconds
            asked = 0
            while time.monotonic() < ends:
                status, took, _ = fetch(base + "/api/v1/resolve", "POST", json.dumps(QUESTION).encode(),
                                        {"Content-Type": "application/json"})
                record("engine", status, took)
                if asked % 2 == 0:
                    words = quote(SEARCHES[(n + asked) % len(SEARCHES)])
                    status, took, _ = fetch(base + f"/search?q={words}")
                    record("search", status, took)
                asked += 1
                time.sleep(30 * args.seconds / 60)

        started = time.monotonic()
        threads = [threading.Thread(target=views, args=(k,)) for k in range(5)]
        threads += [threading.Thread(target=judge, args=(n,)) for n in range(30)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        took = time.monotonic() - started
        print(f"{took:.0f} s:")
        refused = 0
        for kind, rows in results.items():
            statuses = Counter(status for status, _ in rows)
            refused += statuses[429]
            print(f"  {kind:6} {dict(sorted(statuses.items()))}  {summary([t for _, t in rows])}")
        print(f"429s: {refused} (target 0)")


if __name__ == "__main__":
    main()
