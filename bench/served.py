"""Shared by bench/abuse.py and bench/load.py: a real gunicorn (gunicorn.conf.py) on a loopback port
with its own instance folder, and a small HTTP client.

    with serving(port, env={...}) as base:  # "http://127.0.0.1:PORT", once /healthz answers
        status, seconds, body = fetch(base + "/", method="GET")
"""

from __future__ import annotations

import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).parent / "gunicorn"


@contextmanager
def serving(port: int, workers: int = 2, env: dict[str, str] | None = None) -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="judge-bench-") as instance:
        environment = {**os.environ, "JUDGE_INSTANCE": instance, **(env or {})}  # no access log: the default
        log = open(Path(instance) / "gunicorn.log", "w")  # noqa: SIM115 (closed below)
        process = subprocess.Popen(
            [str(GUNICORN), "-c", str(ROOT / "gunicorn.conf.py"), "--workers", str(workers),
             "--bind", f"127.0.0.1:{port}", "judge.web:create_app()"],
            cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            _wait(base, process)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=30)
            log.close()


def _wait(base: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn exited with {process.returncode}")
        try:
            status, _, _ = fetch(base + "/healthz")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit("gunicorn did not become healthy within 120 s")


def fetch(url: str, method: str = "GET", body: bytes | None = None, headers: dict[str, str] | None = None,
          connection: http.client.HTTPConnection | None = None,
          timeout: float = 60) -> tuple[int, float, bytes]:
    """(status, seconds, body) of one request."""
    parts = urlsplit(url)
    own = connection is None
    conn = connection or http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    started = time.perf_counter()
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return response.status, time.perf_counter() - started, data
    finally:
        if own:
            conn.close()


def summary(times: list[float]) -> str:
    if not times:
        return "no requests"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"median {statistics.median(ordered) * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms  "
            f"({len(ordered)} requests)")
