"""Server-side time of the search page against a rule page, in one process, interleaved.

    .venv/bin/python bench/page_time.py [--rounds 5]

The app runs in-process (no network: the time is the server's, from the request arriving to the last
byte of the body, in the process's CPU time: wall time on a shared machine mostly measures the
neighbours). Each round asks every one of the judges' queries (`tests/search_cases.yaml`, rule
numbers left out) of `/search` twice: made afresh (an app with its page and search caches off, as for a
query never asked before) and asked again (the caches on, as for a query asked before); and, in turn,
one of the Codex's rule pages the same two ways: rendered (a page's first visit) and served again; and
`/healthz` for scale. Printed: p50 and p95 of each, and the search page's ratio to a rule page, fresh
to fresh and again to again (the aim: at most 2x).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.codex import load_codex
from judge.web import create_app


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {Path('/proc/loadavg').read_text().split()[0]} (other processes share the cores)")
    queries = [c["q"] for c in yaml.safe_load((ROOT / "tests" / "search_cases.yaml").read_text())
               if "redirect" not in c]
    rules = [r.id for r in load_codex().rules.values() if r.kind in ("rule", "item")]
    rules = rules[:: max(1, len(rules) // len(queries))][: len(queries)]
    with tempfile.TemporaryDirectory() as tmp:
        config = {"RATELIMIT_ENABLED": False, "JUDGE_OFFLINE": False,
                  "DATABASE": str(Path(tmp) / "rulings.sqlite3"), "INDEX_DIR": str(Path(tmp) / "index")}
        rendering = create_app({**config, "JUDGE_PAGE_CACHE": 0, "JUDGE_SEARCH_CACHE": 0}).test_client()
        keeping = create_app({**config, "JUDGE_PAGE_CACHE": 512, "JUDGE_SEARCH_CACHE": 256}).test_client()
        searches = [f"/search?q={quote(q)}" for q in queries]
        pages = [f"/rules/{rule}" for rule in rules]
        paths = {"search": (rendering, searches), "search (kept)": (keeping, searches),
                 "rule": (rendering, pages), "rule (kept)": (keeping, pages),
                 "healthz": (rendering, ["/healthz"] * len(queries))}
        for client, urls in paths.values():               # warm: the library resolved, templates compiled
            for url in urls:
                status = client.get(url).status_code
                if status != 200:
                    raise SystemExit(f"{url} answered {status}")
        times: dict[str, list[list[float]]] = {kind: [[] for _ in queries] for kind in paths}
        for _ in range(args.rounds):
            for n in range(len(queries)):
                for kind, (client, urls) in paths.items():
                    started = time.process_time()
                    response = client.get(urls[n])
                    response.get_data()
                    times[kind][n].append(time.process_time() - started)
        stats = {}
        for kind, per in times.items():
            ms = [statistics.median(runs) * 1000 for runs in per]
            stats[kind] = (statistics.median(ms), percentile(ms, .95))
            print(f"{kind:<14} p50 {stats[kind][0]:6.2f} ms   p95 {stats[kind][1]:6.2f} ms   "
                  f"({len(ms)} pages, median of {args.rounds} rounds each)")
        for search, rule in (("search", "rule"), ("search (kept)", "rule (kept)")):
            print(f"{search:<14} / {rule:<12} p50 {stats[search][0] / stats[rule][0]:5.2f}x   "
                  f"p95 {stats[search][1] / stats[rule][1]:5.2f}x   (aim: at most 2x)")


if __name__ == "__main__":
    main()
