"""The costliest requests one client can send within the limits, against a real gunicorn
(gunicorn.conf.py, 2 workers), each timed; then the latency of `/` while four of them are in flight.

Targets (issue 13): each costly request ≤ the engine's budget + 0.5 s (2.5 s by default);
`/` p95 under 200 ms with four in flight.

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
            "state": {"phase": "combat", "players": {"A": {"field": dict(field)}, "B": {"field": dict(field)}}},
            "actions": [{"attack": MIRROR_SLOT, "target": f"B:{MIRROR_SLOT}"}] * 60}


def requests(base: str) -> dict[str, tuple[str, str, bytes, dict[str, str]]]:
    scenario = costly_scenario(3)   # a loop that runs until the budget stops it
    body = json.dumps(scenario).encode()
    as_json = {"Content-Type": "application/json"}
    return {
        "POST /api/position (26 auras)": ("POST", "/api/position", json.dumps(costly_scenario()).encode(), as_json),
        "POST /api/resolve": ("POST", "/api/resolve", body, as_json),
        "POST /api/resolve?snapshots=1": ("POST", "/api/resolve?snapshots=1", body, as_json),
        "POST /api/legal?after=60": ("POST", "/api/legal?after=60", body, as_json),
        "POST /desk/resolve.json": ("POST", "/desk/resolve.json", json.dumps({"scenario": scenario}).encode(), as_json),
        "POST /desk/board.json": ("POST", "/desk/board.json", json.dumps({"scenario": scenario}).encode(), as_json),
    }


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
    conn.request("POST", "/desk/share", body=form, headers={"Cookie": cookie,
                                                             "Content-Type": "application/x-www-form-urlencoded"})
    response = conn.getresponse()
    response.read()
    print(f"  {'POST /desk/share':32} {response.status}  {time.perf_counter() - started:6.2f} s")
    return response.getheader("Location", "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8150)
    parser.add_argument("--seconds", type=float, default=15.0, help="how long `/` is measured under load")
    args = parser.parse_args()
    with serving(args.port) as base:
        print(f"gunicorn (gunicorn.conf.py, 2 workers) at {base}; budget 2 s per request")
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
