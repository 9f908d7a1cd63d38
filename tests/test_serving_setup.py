"""`make serve` installs only what serving needs, and each server's gunicorn control socket is its own
or off (two servers on one machine must not take one socket from each other)."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def targets() -> dict[str, tuple[list[str], list[str]]]:
    """The Makefile's rules: target → (prerequisites, recipe lines)."""
    rules: dict[str, tuple[list[str], list[str]]] = {}
    current = None
    for line in (ROOT / "Makefile").read_text().splitlines():
        if line.startswith("\t"):
            if current:
                rules[current][1].append(line.strip())
            continue
        m = re.match(r"^([^\s:#=]+):(?!=)\s*(.*)$", line)
        current = m[1] if m and not line.startswith(".") else None
        if current:
            rules[current] = (m[2].split(), [])
    return rules


def installs(rules, target: str, seen: frozenset[str] = frozenset()) -> list[str]:
    """Every recipe line `target` runs, its prerequisites' first."""
    prereqs, recipe = rules.get(target, ([], []))
    out: list[str] = []
    for p in prereqs:
        if p not in seen:
            out += installs(rules, p, seen | {target})
    return out + recipe


def test_serve_installs_no_test_extras():
    rules = targets()
    serve = installs(rules, "serve")
    assert any("pip install" in line for line in serve), serve
    assert not any("[test]" in line for line in serve), serve
    assert any("[test]" in line for line in installs(rules, "test"))


def test_control_socket_is_off_unless_named(monkeypatch):
    monkeypatch.delenv("GUNICORN_CONTROL_SOCKET", raising=False)
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert conf.get("control_socket_disable") is True
    assert "control_socket" not in conf


def test_control_socket_is_the_servers_own(monkeypatch, tmp_path):
    own = str(tmp_path / "judge-8001.ctl")
    monkeypatch.setenv("GUNICORN_CONTROL_SOCKET", own)
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert conf["control_socket"] == own
    assert not conf.get("control_socket_disable")


def test_access_log_is_the_proxys_unless_asked(monkeypatch):
    """gunicorn writes no access log line of its own by default (the proxy in front logs every request);
    GUNICORN_ACCESSLOG asks for one."""
    monkeypatch.delenv("GUNICORN_ACCESSLOG", raising=False)
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["accesslog"] is None
    monkeypatch.setenv("GUNICORN_ACCESSLOG", "-")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["accesslog"] == "-"
    before_healthz = (ROOT / "deploy" / "nginx.conf").read_text().split("location = /healthz")[0]
    assert "access_log off" not in before_healthz  # the proxy logs every page


def test_workers_are_recycled_rarely(monkeypatch):
    """A recycled worker starts with an empty page cache: at 1,000 reads a second a worker must last
    minutes, not seconds; the jitter spreads the two workers' recycles apart."""
    monkeypatch.delenv("GUNICORN_MAX_REQUESTS", raising=False)
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert conf["max_requests"] >= 1000 * 30
    assert 0 < conf["max_requests_jitter"] < conf["max_requests"]
    monkeypatch.setenv("GUNICORN_MAX_REQUESTS", "0")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["max_requests"] == 0
