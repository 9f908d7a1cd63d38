"""The costliest requests one client can send within the limits, against a real gunicorn
(gunicorn.conf.py, 2 workers), each timed; then the latency of `/` while four of them are in flight.

Targets (issue 13): each costly request ≤ the engine's budget + 0.5 s (2.5 s by default);
`/` p95 under 200 ms with four in flight. Issue 22 adds the probe's two: an effect with 20 targets,
sent 9 at once over the API and the desk, and the save of a scenario whose page would be tens of
megabytes; each answered within the budget + 0.5 s while `/` and `/healthz` are timed.

The server runs with its defaults except the per-client limits, raised (JUDGE_COST_LIMIT,
JUDGE_LIMIT_ENGINE): one address here stands for many clients, each within its limits, so the load
is sustained instead of answered 429 (bench/venue.py measures the limits as they are).

    python bench/abuse.py [--port 8150] [--seconds 15]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from served import fetch, serving, summary

SLOTS = ["C3", "L2", "L1", "L0", "L1·0", "C2", "Cm1", "Cr1", "Cr1·0", "R2", "R1", "R0", "R1·0"]
MIRROR_SLOT = "C2·0"


def costly_scenario(auras_on: int = len(SLOTS)) -> dict:
    """Within every cap: two mirrors in an endless mandatory after-battle loop, every other slot of
    both players holding Souls with 12 static auras each (every step re-derives them all)."""
    auras = [{"kind": "static", "gain": {"hp": 5}, "to": "other_own_souls"} for _ in range(6)] + \
            [{"kind": "static", "gain": {"atk": 5}, "to": "other_own_souls"} for _ in range(6)]
    cards = [
        {"name": "Bench Leader", "type": "soul", "rank": 3, "leader": True, "attribute": "light",
         "atk": 5, "def": 100, "hp": 60},
        {"name": "Bench Mirror", "type": "soul", "rank": 0, "attribute": "light", "atk": 5, "def": 100,
         "hp": 1000, "effects": [{"kind": "timing", "trigger": "after_battle", "mandatory": True,
                                  "do": [{"battle": {"attacker": "self", "target": "attacker",
                                                     "counts_as_attack": True}}]}]},
    ]
    for rank in (0, 1, 2):
        cards.append({"name": f"Bench Aura {rank}", "type": "soul", "rank": rank, "attribute": "dark",
                      "atk": 5, "def": 5, "hp": 30, "effects": auras})
    rank_of = {"C3": 2, "L2": 2, "C2": 2, "R2": 2, "L1": 1, "Cm1": 1, "Cr1": 1, "R1": 1}
    field = {"altar": "Bench Leader", MIRROR_SLOT: "Bench Mirror"}
    field.update({slot: f"Bench Aura {rank_of.get(slot, 0)}" for slot in SLOTS[:auras_on]})
    return {"title": "The costliest scenario within the limits", "cards": cards,
            "state": {"phase": "combat",
                      "players": {"A": {"field": dict(field)}, "B": {"field": dict(field)}}},
            "actions": [{"attack": MIRROR_SLOT, "target": f"B:{MIRROR_SLOT}"}] * 60}


def requests(base: str) -> dict[str, tuple[str, str, bytes, dict[str, str]]]:
    scenario = costly_scenario(3)   # a loop that runs until the budget stops it
    body = json.dumps(scenario).encode()
    as_json = {"Content-Type": "application/json"}
    return {
        "POST /api/position (26 auras)": ("POST", "/api/position", json.dumps(costly_scenario()).encode(),
                                          as_json),
        "POST /api/resolve": ("POST", "/api/resolve", body, as_json),
        "POST /api/resolve?snapshots=1": ("POST", "/api/resolve?snapshots=1", body, as_json),
        "POST /api/legal?after=60": ("POST", "/api/legal?after=60", body, as_json),
        "POST /desk/resolve.json": ("POST", "/desk/resolve.json", json.dumps({"scenario": scenario}).encode(),
                                    as_json),
        "POST /desk/board.json": ("POST", "/desk/board.json", json.dumps({"scenario": scenario}).encode(),
                                  as_json),
    }


def many_targets(count: int = 20) -> dict:
    """An Event with `count` Soul Spot targets cast without naming them (the probe's 600-byte request:
    before issue 22, 11 targets took 7–15 s and 20 never finished)."""
    cards = [{"name": "Many Shot", "type": "event", "rank": 1, "effects": [
        {"kind": "activated", "targets": [{"spot": "any"}] * count, "do": [{"damage": 1, "to": "target"}]}]}]
    return {"title": f"{count} targets", "cards": cards,
            "state": {"players": {"A": {"field": {"altar": "Queen Sol", "C3": "Storm Titan"},
                                        "hand": ["Many Shot"]},
                                  "B": {"field": {"altar": "King Umbra", "C3": "Noah", "C2": "Noah"}}}},
            "actions": [{"cast": "Many Shot", "caster": "C3"}]}


def huge_view(events: int = 34, name_length: int = 3500) -> dict:
    """The probe's 242 KB link: the costly loop plus 34 custom Events with 3,500-letter names in hand."""
    data = costly_scenario(3)
    names = [f"Event {i} " + "x" * name_length for i in range(events)]
    effects = [{"kind": "activated", "do": [{"draw": 1}]}]
    data["cards"] += [{"name": n, "type": "event", "rank": 0, "effects": effects} for n in names]
    data["state"]["players"]["A"]["hand"] = names
    return data


def probe_requests(base: str, seconds: float) -> float:
    """The many-targets request 9 at once (API, legal, desk) and the huge-view save, with `/` and
    `/healthz` timed meanwhile; the slowest of them."""
    as_json = {"Content-Type": "application/json"}
    body = json.dumps(many_targets()).encode()
    desk = json.dumps({"scenario": many_targets()}).encode()
    nine = [("POST", "/api/v1/resolve", body), ("POST", "/api/v1/legal", body),
            ("POST", "/desk/board.json", desk)] * 3
    results: list[tuple[str, int, float]] = []
    reading: list[float] = []
    stop = threading.Event()

    def one(method: str, path: str, data: bytes) -> None:
        status, took, _ = fetch(base + path, method, data, as_json)
        results.append((path, status, took))

    def read() -> None:
        while not stop.is_set():
            for page in ("/", "/healthz"):
                reading.append(fetch(base + page)[1])
            time.sleep(0.02)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    ends = time.monotonic() + seconds
    rounds = 0
    while time.monotonic() < ends:
        threads = [threading.Thread(target=one, args=request) for request in nine]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        rounds += 1
    huge = json.dumps(huge_view()).encode()
    status, huge_took, answer = fetch(base + "/api/v1/rulings", "POST", huge, as_json)
    stop.set()
    reader.join(timeout=30)
    times = [t for _, _, t in results]
    statuses = sorted({(p, s) for p, s, _ in results})
    print(f"  20 targets, 9 at once × {rounds} rounds: {summary(times)}; max {max(times):.2f} s; {statuses}")
    print(f"  huge-view save ({len(huge) // 1024} KB): {status} in {huge_took:.2f} s: "
          f"{json.loads(answer).get('error', '')[:110]}")
    print(f"  / and /healthz meanwhile: {summary(reading)}  (target p95 < 200 ms)")
    return max([*times, huge_took])


def share(base: str) -> str:
    """Share the costly scenario (the desk's form, with its CSRF cookie) and return its /r/<id>."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]), timeout=60)
    conn.request("GET", "/desk")
    response = conn.getresponse()
    page = response.read()
    cookie = response.getheader("Set-Cookie", "").split(";", 1)[0]
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    from urllib.parse import urlencode

    import yaml

    form = urlencode({"yaml": yaml.safe_dump(costly_scenario(3)), "csrf_token": token}).encode()
    started = time.perf_counter()
    headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    conn.request("POST", "/desk/share", body=form, headers=headers)
    response = conn.getresponse()
    response.read()
    print(f"  {'POST /desk/share':32} {response.status}  {time.perf_counter() - started:6.2f} s")
    return response.getheader("Location", "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8150)
    parser.add_argument("--seconds", type=float, default=15.0, help="how long `/` is measured under load")
    args = parser.parse_args()
    raised = {"JUDGE_COST_LIMIT": "100000/minute", "JUDGE_LIMIT_ENGINE": "100000/minute;10000/second",
              "JUDGE_LIMIT_SAVE": "10000/minute"}
    with serving(args.port, env=raised) as base:
        print(f"gunicorn (gunicorn.conf.py, 2 workers) at {base}; budget 2 s per request")
        print("the probe's requests (issue 22):")
        probe_worst = probe_requests(base, args.seconds)
        print(f"  slowest: {probe_worst:.2f} s (target ≤ 2.5 s)")
        print("each costly request alone (status, seconds, bytes):")
        costly = requests(base)
        worst = 0.0
        for name, (method, path, body, headers) in costly.items():
            status, seconds, data = fetch(base + path, method, body, headers)
            worst = max(worst, seconds)
            print(f"  {name:32} {status}  {seconds:6.2f} s  {len(data) / 1024:8.0f} KB")
        link = share(base)
        for label in ("first view", "second view"):
            status, seconds, data = fetch(base + link)
            worst = max(worst, seconds)
            print(f"  GET {link} ({label}){'':6} {status}  {seconds:6.2f} s  {len(data) / 1024:8.0f} KB")
        print(f"  slowest: {worst:.2f} s (target ≤ 2.5 s)")

        idle = [fetch(base + "/")[1] for _ in range(50)]
        print(f"/ idle:                      {summary(idle)}")
        stop = threading.Event()
        heavy: list[float] = []

        def hammer(name: str) -> None:
            method, path, body, headers = costly[name]
            while not stop.is_set():
                heavy.append(fetch(base + path, method, body, headers)[1])

        names = ["POST /api/resolve", "POST /desk/resolve.json", "POST /api/resolve?snapshots=1",
                 "POST /api/legal?after=60"]
        threads = [threading.Thread(target=hammer, args=(n,), daemon=True) for n in names]
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        under: list[float] = []
        ends = time.monotonic() + args.seconds
        while time.monotonic() < ends:
            under.append(fetch(base + "/")[1])
            time.sleep(0.05)
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        print(f"/ with 4 costly in flight:   {summary(under)}  (target p95 < 200 ms)")
        print(f"costly requests meanwhile:   {summary(heavy)}")


if __name__ == "__main__":
    main()
