"""Server time of ruling pages: the library scenario with the most steps (and the largest file),
rendered as `/scenarios/<id>` through the in-process client. Prints median and p95, cold (caches
cleared) and warm; then the desk's list of what can happen next, once per library scenario; then
what drawing every step's board of those two rulings costs, from the board each step carries (as the
pages draw them) against loading each step's state again as a scenario (as they did before).

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
        print("what can happen next (/desk/legal.json, both players, in words) at the end of each library "
              "queue:")
        report("legal", [legal_time(client, entry) for entry in entries])
        with app.test_request_context("/"):
            for why, entry in (("most steps", by_steps), ("largest file", by_size)):
                ruling = runner.resolve(entry.data, source=entry.path.name)
                print(f"drawing the boards of {entry.pid} ({why}, {len(ruling['steps'])} steps), cold:")
                for how, reload in (("from each step's board", False), ("loading each step's state", True)):
                    report(how, [draw_boards(ruling, entry.data.get("cards"), reload) for _ in range(runs)])
    return 0


def draw_boards(ruling, cards, reload: bool) -> float:
    """Milliseconds to draw every step's board with the drawing caches cleared."""
    runner._derive_cached.cache_clear()
    pages._svg_cached.cache_clear()
    start = time.perf_counter()
    for step in ruling["steps"]:
        derived = runner.derive(step["state"], cards) if reload else step.get("derived") or {}
        pages.board_figure(step["state"], cards, derived=derived, highlight=pages.touched(step))
    return (time.perf_counter() - start) * 1000


def legal_time(client, entry) -> float:
    body = {"scenario": entry.data, "after": len(entry.data.get("actions") or [])}
    start = time.perf_counter()
    client.post("/desk/legal.json", json=body)
    return (time.perf_counter() - start) * 1000


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
