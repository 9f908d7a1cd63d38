"""Real app servers for the multi-instance test and bench: gunicorn processes on 127.0.0.1, each with
its own instance folder (and so its own search index), sharing whatever DATABASE_URL they are given."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from judge import ROOT

START_TIMEOUT = 120


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(url: str, body: dict | None = None) -> tuple[int, dict]:
    """GET (or POST a JSON body) → (status, JSON answer), errors included."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method="POST" if data else "GET",
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, json.load(exc)


def start_instance(name: str, database_url: str, tmp: Path, port: int | None = None,
                   workers: int = 2, budget_seconds: float = 60) -> tuple[subprocess.Popen, str]:
    """gunicorn (the project's gunicorn.conf.py: gthread workers) serving create_app() on 127.0.0.1:port
    with DATABASE_URL; its log in tmp/<name>.log. The engine's budget is 60 s by default (as the other
    tests' apps), so that no result depends on how busy the machine is; the bench may pass 2 (the web's)."""
    port = port or free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "JUDGE_INSTANCE": str(tmp / name),
           "JUDGE_SECRET_KEY": "several-instances", "RATELIMIT_ENABLED": "false",
           "JUDGE_BUDGET_SECONDS": str(budget_seconds)}
    for own in ("JUDGE_DB", "JUDGE_INDEX"):
        env.pop(own, None)
    with (tmp / f"{name}.log").open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--workers", str(workers),
             "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null", "judge.web:create_app()"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    return server, f"http://127.0.0.1:{port}"


def wait_until_up(server: subprocess.Popen, base: str, log: Path) -> str | None:
    """None once /healthz answers 200; else why not (the server exited, or the time ran out)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return f"{base} exited ({server.returncode}):\n{log.read_text()[-3000:]}"
        try:
            if request(f"{base}/healthz")[0] == 200:
                return None
        except OSError:
            pass
        time.sleep(0.3)
    return f"{base} did not answer within {START_TIMEOUT} s:\n{log.read_text()[-3000:]}"


def stop(servers: list[subprocess.Popen]) -> None:
    for server in servers:
        server.terminate()
    for server in servers:
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def scenario(n: int) -> dict:
    """The n-th of a family of small, distinct scenarios."""
    return {"title": f"Several instances #{n}",
            "state": {"players": {"A": {"field": {"altar": "Queen Sol", "L2": "Noah"}, "hand": n % 5},
                                  "B": {"field": {"altar": "King Umbra"}}}},
            "actions": [{"end_phase": True}]}
