"""Requests take turns, the lightest client first: the gunicorn worker of `gunicorn.conf.py` (gthread's,
with one change), so that a few clients reading as fast as they are answered can't slow the site down for
everyone else.

gthread gives every connection to a thread as it comes. With 16 clients each sending its next read as
soon as the last is answered, a worker's 8 threads share the interpreter lock among 8 requests at once,
and a visitor who reads a page now and then waits behind all of them (bench/solid.py `reading`: `/` at
p95 14 ms against 1 ms idle, `/healthz` 27–28 ms against 2–5 ms). Here a worker lets at most
AT_ONCE request that has run for less than LONG run at a time (the interpreter runs one at a time
anyway), and the waiting request that goes next is the one whose client has asked least lately (a count
of its requests that halves every HALF_LIFE seconds): a person reading a page now and then goes before a
client reading fifty a second (the same soak: 6–7 ms and 11–15 ms). No request is refused or dropped:
the heavy client's requests wait their turn.

- A request that runs longer than LONG (resolving a position, drawing a first page) stops counting, so
  reading waits at most LONG behind costly work; costly work has its own slots (JUDGE_ENGINE_SLOTS).
- A worker runs at most `threads` requests in all; the others wait here, in order, not in the thread
  pool's queue (first come, first served).
- A new connection waits for its request on the worker's poller, as gthread keeps a connection that has
  sent nothing yet, so a client slow to send takes no turn.
- The client is the address that connected, or, behind trusted proxies (JUDGE_PROXIES, from an address
  of JUDGE_PROXY_ADDRESSES, as judge.web.proxies.TrustedProxies), the address they forwarded, read from the
  request's first bytes without taking them from the socket. A venue behind one address is one client:
  its people take turns among themselves in the order they asked.
"""

from __future__ import annotations

import heapq
import itertools
import math
import os
import selectors
import socket
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]  # no type hints

from judge.web.proxies import proxy_addresses

AT_ONCE = 1  # requests a worker runs at once while each has run for less than LONG
LONG = 0.02  # seconds after which a running request stops counting (it is costly work, not a read)
HALF_LIFE = 1.0  # seconds in which a client's count of recent requests halves
MOST_CLIENTS = 4096  # counts kept; past that they start again from nothing
PEEK = 4096  # bytes of a request read (and left in the socket) for its forwarded address


@dataclass
class Turns:
    """Which waiting request runs next: the scheduler, apart from gunicorn. `item` is anything hashable
    (a connection); `who` its client."""

    threads: int
    at_once: int = AT_ONCE
    long: float = LONG
    waiting: list[tuple[float, int, Any]] = field(default_factory=list)  # heap: (weight, order, item)
    running: dict[Any, float] = field(default_factory=dict)  # item -> when it started
    usage: dict[str, tuple[float, float]] = field(default_factory=dict)  # who -> (count, when)
    order: itertools.count = field(default_factory=itertools.count)

    def weigh(self, who: str, now: float) -> float:
        """`who`'s count of recent requests, this one included, halved for every HALF_LIFE since the last."""
        count, when = self.usage.get(who, (0.0, now))
        count = count * math.exp2((when - now) / HALF_LIFE) + 1.0
        if who not in self.usage and len(self.usage) >= MOST_CLIENTS:
            self.usage.clear()
        self.usage[who] = (count, now)
        return count

    def add(self, item: Any, who: str, now: float) -> None:
        heapq.heappush(self.waiting, (self.weigh(who, now), next(self.order), item))

    def due(self, now: float) -> list[Any]:
        """The waiting items that start now, lightest client first (each then counts as running)."""
        started = []
        while self.waiting and len(self.running) < self.threads and self.short(now) < self.at_once:
            item = heapq.heappop(self.waiting)[2]
            self.running[item] = now
            started.append(item)
        return started

    def short(self, now: float) -> int:
        return sum(1 for began in self.running.values() if now - began < self.long)

    def done(self, item: Any) -> None:
        self.running.pop(item, None)

    def wake_in(self, now: float) -> float | None:
        """Seconds until a short running item stops counting, when something waits for that; None when
        nothing waits, or what waits waits for a thread (a finishing request wakes the worker then)."""
        if not self.waiting or len(self.running) >= self.threads:
            return None
        short = [began for began in self.running.values() if now - began < self.long]
        return max(min(short) + self.long - now, 0.0005) if short else None


def forwarded_client(head: bytes, count: int) -> str | None:
    """The client `count` proxies deep in a request's `X-Forwarded-For` (its first bytes `head`), as
    werkzeug's ProxyFix reads it; None when the header or so many addresses are not there."""
    lowered = head.lower()
    at = lowered.find(b"\r\nx-forwarded-for:")
    if at < 0:
        return None
    end = lowered.find(b"\r\n", at + 2)
    if end < 0:
        return None
    addresses = [a.strip() for a in head[at + len(b"\r\nx-forwarded-for:"):end].split(b",")]
    return addresses[-count].decode("latin-1") if len(addresses) >= count and addresses[-count] else None


def trusted_proxies() -> tuple[int, set[str]]:
    """How many proxies the app believes (JUDGE_PROXIES) and from which addresses, as create_app reads
    them: (0, ∅) when none."""
    count = int(os.environ.get("JUDGE_PROXIES") or 0)
    return count, (proxy_addresses(os.environ.get("JUDGE_PROXY_ADDRESSES")) if count else set())


class FairThreadWorker(ThreadWorker):
    """gthread's worker, taking turns (Turns) instead of handing every request to a thread as it comes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.turns = Turns(threads=self.cfg.threads)
        self.proxies, self.proxy_addresses = trusted_proxies()

    def client_of(self, conn: Any) -> str:
        peer = conn.client[0] if isinstance(conn.client, tuple) else str(conn.client)
        if self.proxies and ("*" in self.proxy_addresses or peer in self.proxy_addresses):
            try:
                head = conn.sock.recv(PEEK, socket.MSG_PEEK)
            except OSError:
                return peer
            return forwarded_client(head, self.proxies) or peer
        return peer

    def enqueue_req(self, conn: Any) -> None:
        if not conn.initialized and not conn.data_ready:
            self.wait_for_request(conn)
            return
        now = time.monotonic()
        self.turns.add(conn, self.client_of(conn), now)
        self.start_due(now)

    def wait_for_request(self, conn: Any) -> None:
        """A new connection waits on the poller until its request arrives (gthread's way with a
        connection that has sent nothing within its first wait)."""
        try:
            conn.sock.setblocking(False)
            readable = partial(self.on_pending_socket_readable, conn)
            self.poller.register(conn.sock, selectors.EVENT_READ, readable)
        except (OSError, ValueError):  # gone already: closed, as gthread closes a connection it cannot use
            self.nr_conns -= 1
            conn.close()
            return
        conn.timeout = time.monotonic() + self.cfg.keepalive
        self.pending_conns.append(conn)

    def start_due(self, now: float) -> None:
        for conn in self.turns.due(now):
            super().enqueue_req(conn)

    def finish_request(self, conn: Any, fs: Any) -> None:
        self.turns.done(conn)
        super().finish_request(conn, fs)
        self.start_due(time.monotonic())

    def wait_for_and_dispatch_events(self, timeout: float) -> None:
        wake = self.turns.wake_in(time.monotonic())
        super().wait_for_and_dispatch_events(timeout if wake is None else min(timeout, wake))
        self.start_due(time.monotonic())
