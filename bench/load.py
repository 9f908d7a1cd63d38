"""Throughput of the site's main pages side by side, against a real gunicorn (gunicorn.conf.py,
2 workers): `/`, a rule page, a search, a permalink `/r/<id>` and `POST /api/resolve`.

Uses wrk when it is installed, else a Python client (keep-alive connections in threads). Rate limits
are turned off for the server under test (RATELIMIT_ENABLED=0): this measures capacity, not limits.
Target (issue 13): `/r/<id>` at least half the throughput of a rule page.

    python bench/load.py [--port 8151] [--seconds 5] [--connections 8]
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from served import ROOT, fetch, serving, summary

SCENARIO = (ROOT / "scenarios" / "positions" / "spiral-turn-two.yaml")


def share(base: str) -> str:
    """Share a library scenario through the desk's form; its permalink path."""
    port = int(base.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/desk")
    response = conn.getresponse()
    page = response.read()
    cookie = response.getheader("Set-Cookie", "").split(";", 1)[0]
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    form = urlencode({"yaml": SCENARIO.read_text(), "csrf_token": token}).encode()
    conn.request("POST", "/desk/share", body=form,
                 headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
    response = conn.getresponse()
    response.read()
    return response.getheader("Location")


def python_client(base: str, method: str, path: str, body: bytes | None, headers: dict[str, str],
                  seconds: float, connections: int) -> tuple[float, list[float], int]:
    """(requests per second, latencies, non-2xx count) with `connections` keep-alive clients."""
    port = int(base.rsplit(":", 1)[1])
    times: list[float] = []
    errors = [0]
    lock = threading.Lock()
    ends = time.monotonic() + seconds

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        bad = 0
        while time.monotonic() < ends:
            status, took, _ = fetch(base + path, method, body, headers, connection=conn)
            mine.append(took)
            bad += status >= 300
        conn.close()
        with lock:
            times.extend(mine)
            errors[0] += bad

    threads = [threading.Thread(target=client) for _ in range(connections)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(times) / (time.monotonic() - started), times, errors[0]


def wrk(base: str, method: str, path: str, body: bytes | None, headers: dict[str, str],
        seconds: float, connections: int) -> str:
    script = ROOT / "bench" / ".wrk-post.lua"
    args = ["wrk", "-t2", f"-c{connections}", f"-d{int(seconds)}s", "--latency"]
    if method == "POST":
        script.write_text(f"wrk.method = 'POST'\nwrk.body = {json.dumps(body.decode())}\n"
                          f"wrk.headers['Content-Type'] = '{headers['Content-Type']}'\n")
        args += ["-s", str(script)]
    out = subprocess.run([*args, base + path], capture_output=True, text=True, check=False).stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    p50 = re.search(r"50%\s+(\S+)", out)
    p99 = re.search(r"99%\s+(\S+)", out)
    return f"{float(rate.group(1)) if rate else 0:9.1f} req/s  median {p50.group(1) if p50 else '?'}  p99 {p99.group(1) if p99 else '?'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8151)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args()
    with serving(args.port, env={"RATELIMIT_ENABLED": "0"}) as base:
        link = share(base)
        scenario = SCENARIO.read_bytes()
        targets = [
            ("GET /", "GET", "/", None, {}),
            ("GET /rules/10.4.5", "GET", "/rules/10.4.5", None, {}),
            ("GET /search?q=ambush", "GET", "/search?q=ambush", None, {}),
            (f"GET {link}", "GET", link, None, {}),
            ("POST /api/resolve", "POST", "/api/resolve", scenario, {"Content-Type": "application/yaml"}),
        ]
        for _, method, path, body, headers in targets:  # warm every worker's caches first
            for _ in range(4):
                fetch(base + path, method, body, headers)
        tool = "wrk" if shutil.which("wrk") else "python client"
        print(f"gunicorn (gunicorn.conf.py, 2 workers) at {base}; {tool}, {args.connections} connections, "
              f"{args.seconds:g} s each")
        rates = {}
        for name, method, path, body, headers in targets:
            if tool == "wrk":
                print(f"  {name:28} {wrk(base, method, path, body, headers, args.seconds, args.connections)}")
                continue
            rate, times, bad = python_client(base, method, path, body, headers, args.seconds, args.connections)
            rates[name] = rate
            print(f"  {name:28} {rate:8.1f} req/s  {summary(times)}" + (f"  {bad} not 2xx" if bad else ""))
        if rates:
            rule, permalink = rates["GET /rules/10.4.5"], rates[f"GET {link}"]
            print(f"  /r/<id> ÷ rule page: {permalink / rule:.2f} (target ≥ 0.5)")


if __name__ == "__main__":
    main()
