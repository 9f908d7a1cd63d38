"""Server time of ruling pages: the library scenario with the most steps (and the largest file),
rendered as `/scenarios/<id>` through the in-process client. Prints median and p95, cold (caches
cleared) and warm.

    .venv/bin/python bench/desk.py [runs]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time

from judge.desk import pages, runner
from judge.library import LIBRARY
from judge.web import create_app


def timed(client, url: str, runs: int, cold: bool) -> list[float]:
    out = []
    for _ in range(runs):
        if cold:
            runner._derive_cached.cache_clear()
            pages._svg_cached.cache_clear()
        start = time.perf_counter()
        response = client.get(url)
        out.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return out


def report(label: str, times: list[float]) -> None:
    times = sorted(times)
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(f"  {label}: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms ({len(times)} runs)")


def main(runs: int = 20) -> int:
    entries = LIBRARY.entries()
    if not entries:
        print("no scenarios under scenarios/")
        return 1
    steps = {}
    for entry in entries:
        try:
            steps[entry.pid] = len(runner.resolve(entry.data, source=entry.path.name)["steps"])
        except Exception as exc:  # noqa: BLE001 - the page shows the failure; the bench names it
            print(f"  {entry.pid}: the engine fails ({type(exc).__name__})")
            steps[entry.pid] = -1
    by_steps = max(entries, key=lambda e: steps[e.pid])
    by_size = max(entries, key=lambda e: e.path.stat().st_size)
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"DATABASE": f"{instance}/r.sqlite3", "INDEX_DIR": f"{instance}/index"})
        client = app.test_client()
        print(f"{len(entries)} library scenarios")
        for why, entry in (("most steps", by_steps), ("largest file", by_size)):
            url = f"/scenarios/{entry.pid}"
            print(f"{why}: {url} ({steps[entry.pid]} steps, {entry.path.stat().st_size} bytes)")
            report("cold", timed(client, url, runs, cold=True))
            report("warm", timed(client, url, runs, cold=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
