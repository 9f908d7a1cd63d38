"""Requests take turns, the lightest client first (judge/web/fair.py): the scheduler apart from gunicorn,
the forwarded client read from a request's first bytes, and the worker gunicorn.conf.py names, with the
gthread hooks it relies on. Real gunicorn serves with it in every test that starts one (tests/instances.py,
the venue, the two instances); bench/solid.py `reading` measures what it is for."""

from __future__ import annotations

import runpy
import selectors
import socket
from pathlib import Path

from gunicorn.config import Config
from gunicorn.util import load_class
from gunicorn.workers.gthread import TConn, ThreadWorker

from judge.web.fair import HALF_LIFE, LONG, FairThreadWorker, Turns, forwarded_client, trusted_proxies

ROOT = Path(__file__).resolve().parent.parent


def heavy(turns: Turns, who: str, now: float, asked: int) -> None:
    """`who` has asked `asked` times just now (its requests already answered)."""
    for _ in range(asked):
        turns.weigh(who, now)


def test_the_client_that_asked_least_goes_first():
    turns = Turns(threads=8)
    heavy(turns, "10.0.0.1", 0.0, 50)
    turns.add("running", "10.0.0.1", 0.0)
    assert turns.due(0.0) == ["running"]
    for n in range(5):
        turns.add(f"heavy {n}", "10.0.0.1", 0.001)
    turns.add("light", "10.0.0.2", 0.002)
    assert turns.due(0.003) == []  # one short request runs at a time
    turns.done("running")
    assert turns.due(0.004) == ["light"]
    turns.done("light")
    assert turns.due(0.005) == ["heavy 0"]  # then the heavy client's, in the order they came


def test_equal_clients_are_served_in_the_order_they_asked():
    turns = Turns(threads=8, at_once=8)
    for n, who in enumerate(["a", "b", "c"]):
        turns.add(who, who, n * 0.001)
    assert turns.due(0.01) == ["a", "b", "c"]


def test_a_request_running_past_long_stops_counting_so_reading_never_waits_behind_costly_work():
    turns = Turns(threads=8)
    turns.add("resolving", "a", 0.0)
    assert turns.due(0.0) == ["resolving"]
    turns.add("a read", "b", 0.001)
    assert turns.due(0.001) == []
    assert turns.wake_in(0.001) == LONG - 0.001  # the worker wakes when the costly one stops counting
    assert turns.due(LONG) == ["a read"]
    assert turns.short(LONG) == 1 and len(turns.running) == 2


def test_no_more_run_at_once_than_the_worker_has_threads():
    turns = Turns(threads=2)
    for n in range(3):
        turns.add(n, f"client {n}", 0.0)
    assert turns.due(0.0) == [0]
    assert turns.due(1.0) == [1]
    assert turns.due(2.0) == []  # two running (both long): the third waits for a thread
    assert turns.wake_in(2.0) is None  # no timer spins meanwhile: the finishing request wakes the worker
    turns.done(0)
    assert turns.due(2.0) == [2]
    assert turns.wake_in(2.0) is None  # nothing waits


def test_a_clients_count_halves_every_half_life():
    turns = Turns(threads=8)
    heavy(turns, "a", 0.0, 9)
    assert turns.weigh("a", 0.0) == 10
    assert turns.weigh("a", HALF_LIFE) == 10 / 2 + 1
    assert turns.weigh("b", 5.0) == 1


def test_the_counts_kept_are_bounded(monkeypatch):
    monkeypatch.setattr("judge.web.fair.MOST_CLIENTS", 3)
    turns = Turns(threads=8)
    for n in range(10):
        turns.weigh(f"10.0.0.{n}", 0.0)
        assert len(turns.usage) <= 3


def test_the_forwarded_client_is_read_as_proxyfix_reads_it():
    head = b"GET / HTTP/1.1\r\nHost: judge.example.org\r\nX-Forwarded-For: 203.0.113.9, 198.51.100.7\r\n\r\n"
    assert forwarded_client(head, 1) == "198.51.100.7"
    assert forwarded_client(head, 2) == "203.0.113.9"
    assert forwarded_client(head, 3) is None  # fewer addresses than proxies: the one that connected
    assert forwarded_client(head.replace(b"X-Forwarded-For", b"x-forwarded-for"), 1) == "198.51.100.7"
    assert forwarded_client(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 1) is None
    assert forwarded_client(b"GET / HTTP/1.1\r\nX-Forwarded-For: 198.51", 1) is None  # not all there yet


class FakeConn:
    def __init__(self, sock: socket.socket, peer: str) -> None:
        self.sock, self.client = sock, (peer, 50000)


def test_behind_a_trusted_proxy_the_client_is_the_forwarded_one_and_the_request_stays_whole(monkeypatch):
    monkeypatch.setenv("JUDGE_PROXIES", "1")
    monkeypatch.setenv("JUDGE_PROXY_ADDRESSES", "127.0.0.1")
    worker = FairThreadWorker.__new__(FairThreadWorker)  # its client_of alone, without a gunicorn arbiter
    worker.proxies, worker.proxy_addresses = trusted_proxies()
    ours, theirs = socket.socketpair()
    request = b"GET / HTTP/1.1\r\nX-Forwarded-For: 198.51.100.7\r\n\r\n"
    with ours, theirs:
        theirs.sendall(request)
        assert worker.client_of(FakeConn(ours, "127.0.0.1")) == "198.51.100.7"
        assert worker.client_of(FakeConn(ours, "10.1.1.1")) == "10.1.1.1"  # not the proxy: its address
        assert ours.recv(1024) == request  # read, not taken
    monkeypatch.delenv("JUDGE_PROXIES")
    worker.proxies, worker.proxy_addresses = trusted_proxies()
    with socket.socket() as unread:
        assert worker.client_of(FakeConn(unread, "127.0.0.1")) == "127.0.0.1"  # no proxies: never read


def test_gunicorn_conf_names_the_worker_and_gthread_still_has_its_hooks(monkeypatch):
    monkeypatch.delenv("GUNICORN_WORKER_CLASS", raising=False)
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert load_class(conf["worker_class"]) is FairThreadWorker
    assert issubclass(FairThreadWorker, ThreadWorker)
    hooks = ("enqueue_req", "finish_request", "wait_for_and_dispatch_events", "on_pending_socket_readable",
             "on_client_socket_readable")
    for hook in hooks:
        assert callable(getattr(ThreadWorker, hook, None)), f"gunicorn's gthread no longer has {hook}"
    ours, theirs = socket.socketpair()
    with ours, theirs:
        conn = TConn(Config(), ours, ("127.0.0.1", 50000), ("127.0.0.1", 8000))
        assert conn.initialized is False and conn.data_ready is False  # what enqueue_req reads
    monkeypatch.setenv("GUNICORN_WORKER_CLASS", "gthread")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["worker_class"] == "gthread"


class FakeTConn:
    """What enqueue_req reads of gthread's TConn: a new connection that has sent nothing yet."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.client = sock, ("127.0.0.1", 50000)
        self.initialized = self.data_ready = self.closed = False

    def close(self) -> None:
        self.closed = True
        self.sock.close()


def test_a_connection_gone_before_it_could_wait_is_closed_and_uncounted_without_stopping_the_worker():
    worker = FairThreadWorker.__new__(FairThreadWorker)
    worker.nr_conns, worker.pending_conns, worker.poller = 1, [], selectors.DefaultSelector()
    gone = socket.socket()
    gone.close()
    conn = FakeTConn(gone)
    worker.enqueue_req(conn)  # an OSError here would end the worker's loop
    assert conn.closed and worker.nr_conns == 0 and worker.pending_conns == []
    worker.poller.close()
