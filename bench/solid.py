"""A site no one can knock over (issue 32): a bounded soak of real gunicorn (gunicorn.conf.py, the
production defaults: limits on, 2 s budget, page cache, 2 workers × 8 threads) on 127.0.0.1, one check
per defect of the probe, each printing its figures and PASS or FAIL.

    .venv/bin/python bench/solid.py                  # every check (about 6 minutes)
    .venv/bin/python bench/solid.py changes reading  # some of them
    .venv/bin/python bench/solid.py --root /tmp/old  # the same soak against another checkout (before)

Clients come from their own loopback addresses (127.0.0.N), as a venue's phones would from theirs.
The storage checks mount a small tmpfs for the database (they need root; skipped otherwise).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "tests"))
from faults import damage  # the suite's own way of corrupting a database

GUNICORN = Path(sys.executable).parent / "gunicorn"
JUDGE = Path(sys.executable).parent / "judge"
SAVED = int(os.environ.get("SOLID_SAVED", "2000"))  # saved rulings for the /changes check
MEMORY_BOUND_MB = 400  # stated bound of one worker's resident memory during the /changes check
CHANGES_BOUND = 2.0 + 2 * 1.0 + 1.0  # budget + one saved ruling's two judgements + slack, seconds
SIMPLE = {"title": "plain", "state": {"players": {"A": {"field": {"altar": "Queen Sol", "C3": "Storm Titan"}},
                                                  "B": {"field": {"altar": "King Umbra", "C3": "Noah"}}}}}
# two Souls that battle each other after every battle until one falls: 238 steps, a board after each
BATTLE_BACK = {"battle": {"attacker": "self", "target": "attacker", "counts_as_attack": True}}
MIRROR = {"name": "Soak Mirror", "type": "soul", "rank": 0, "attribute": "light", "atk": 40, "def": 0,
          "hp": 800, "effects": [{"kind": "timing", "trigger": "after_battle", "mandatory": True,
                                  "do": [BATTLE_BACK]}]}
SIDE_A = {"altar": "Queen Sol", "C2": "Soak Mirror", "C3": "Storm Titan", "L2": "Dusk Lancer"}
SIDE_B = {"altar": "King Umbra", "C2": "Soak Mirror", "C3": "Noah", "L2": "Dusk Lancer"}
HEAVY = {"title": "a long fight", "cards": [MIRROR],
         "state": {"phase": "combat", "players": {"A": {"field": SIDE_A}, "B": {"field": SIDE_B}}},
         "actions": [{"attack": "C2", "target": "B:C2"}]}
results: list[tuple[str, bool, str]] = []


# -- serving ----------------------------------------------------------------------------------------------
@contextmanager
def serving(root: Path, port: int, env: dict[str, str] | None = None, instance: Path | None = None
            ) -> Iterator[tuple[str, subprocess.Popen, Path]]:
    with tempfile.TemporaryDirectory(prefix="judge-solid-") as folder:
        instance = instance or Path(folder)
        environment = {**os.environ, "JUDGE_INSTANCE": str(instance), "PYTHONPATH": str(root),
                       **(env or {})}  # gunicorn.conf.py's own access log: none by default
        log = open(Path(folder) / "gunicorn.log", "w")  # noqa: SIM115 (closed below)
        process = subprocess.Popen([str(GUNICORN), "-c", str(root / "gunicorn.conf.py"), "--workers", "2",
                                    "--bind", f"127.0.0.1:{port}", "judge.web:create_app()"],
                                   cwd=root, env=environment, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                if process.poll() is not None:
                    raise SystemExit(f"gunicorn exited with {process.returncode}: "
                                     f"{(Path(folder) / 'gunicorn.log').read_text()[-2000:]}")
                try:
                    if get(base, "/healthz", timeout=5)[0] in (200, 503):
                        break
                except OSError:
                    pass
                time.sleep(0.5)
            yield base, process, instance
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
            log.close()


def request(base: str, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            source: int = 1, timeout: float = 60) -> tuple[int, float, bytes, dict[str, str]]:
    """(status, seconds, body, headers); from 127.0.0.`source`."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout,
                                      source_address=(f"127.0.0.{source}", 0))
    started = time.perf_counter()
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return response.status, time.perf_counter() - started, data, dict(response.getheaders())
    finally:
        conn.close()


def get(base: str, path: str, **kw) -> tuple[int, float, bytes, dict[str, str]]:
    return request(base, "GET", path, **kw)


def post_json(base: str, path: str, data: dict, headers: dict | None = None, **kw
              ) -> tuple[int, float, bytes, dict[str, str]]:
    return request(base, "POST", path, json.dumps(data).encode(),
                   {"Content-Type": "application/json", **(headers or {})}, **kw)


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else 0.0


def figures(times: list[float]) -> str:
    if not times:
        return "no requests"
    return f"median {statistics.median(times) * 1000:.0f} ms, p95 {p95(times) * 1000:.0f} ms, n={len(times)}"


def verdict(name: str, ok: bool, detail: str) -> None:
    results.append((name, ok, detail))
    print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}", flush=True)


def workers(process: subprocess.Popen) -> list[int]:
    found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(process.pid)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def in_parallel(count: int, work) -> list:
    out: list = [None] * count

    def run(i: int) -> None:
        try:
            out[i] = work(i)
        except Exception as exc:  # noqa: BLE001 - a failed client is a figure, not a crash
            out[i] = exc
    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


# -- 1. /changes ------------------------------------------------------------------------------------------
def seed(db: Path, root: Path, count: int) -> None:
    """`count` saved rulings written straight into the database (their scenarios are all a judge needs)."""
    sys.path.insert(0, str(root))
    from judge.rulings.sqlite import RulingStore

    store = RulingStore(db)
    store.migrate()
    with sqlite3.connect(db) as conn:
        rows = [(f"{n:012x}", json.dumps({**SIMPLE, "title": f"ruling {n}"}), "0.4.0", "{}",
                 store_pack({}), f"2026-01-01T00:00:{n % 60:02d}+00:00") for n in range(count)]
        conn.executemany("INSERT OR IGNORE INTO rulings (id, scenario, codex, outcome, ruling, created) "
                         "VALUES (?,?,?,?,?,?)", rows)


def store_pack(data: dict) -> bytes:
    import zlib
    return zlib.compress(json.dumps(data).encode())


def two_editions(folder: Path, root: Path) -> dict[str, str]:
    codex = folder / "codex"
    codex.mkdir()
    shutil.copy2(root / "codex" / "editions.yaml", codex / "editions.yaml")
    shutil.copytree(root / "codex" / "editions", codex / "editions")
    env = {**os.environ, "JUDGE_CODEX_DIR": str(codex), "PYTHONPATH": str(root)}
    fixture = HERE / "tests/fixtures/codex-0.4.1"
    pages = sorted(str(p) for p in fixture.iterdir() if p.suffix in {".txt", ".yaml"})
    subprocess.run([str(JUDGE), "import-codex", "--edition", "0.4.1", *pages], env=env, check=True,
                   capture_output=True, cwd=root)
    return {"JUDGE_CODEX_DIR": str(codex)}


def check_changes(root: Path, port: int) -> None:
    with tempfile.TemporaryDirectory(prefix="judge-solid-changes-") as folder:
        env = two_editions(Path(folder), root)
        instance = Path(folder) / "instance"
        instance.mkdir()
        seed(instance / "rulings.sqlite3", root, SAVED)
        with serving(root, port, env, instance) as (base, process, _):
            peak = [0.0]
            stop = threading.Event()

            def sample() -> None:
                while not stop.is_set():
                    peak[0] = max([peak[0], *(rss_mb(p) for p in workers(process))])
                    time.sleep(0.3)
            sampler = threading.Thread(target=sample)
            sampler.start()
            statuses: Counter = Counter()
            times: list[float] = []

            def client(i: int, until: float, statuses: Counter, times: list[float]) -> bool:
                """Read the report, following each 503's Retry-After, until a 200 (True) or `until`."""
                while time.monotonic() < until:
                    try:
                        status, seconds, _, headers = get(base, "/changes/0.4.0...0.4.1.json", source=10 + i,
                                                          timeout=max(1.0, until - time.monotonic()))
                    except OSError:
                        statuses["timed out"] += 1
                        return False
                    statuses[status] += 1
                    times.append(seconds)
                    if status == 200:
                        return True
                    if status != 503 or "Retry-After" not in headers:
                        return False
                    time.sleep(min(float(headers["Retry-After"]), 1.0))
                return False
            started = time.monotonic()
            done = in_parallel(6, lambda i: client(i, started + 400, statuses, times))
            first = time.monotonic() - started
            # one more save: the report judges that ruling alone; a request whose answer no longer fits
            # its budget while another judges it answers 503 with Retry-After, as the first ones did
            post_json(base, "/api/v1/rulings", {**SIMPLE, "title": "one more"}, source=30)
            answered: Counter = Counter()
            after: list[float] = []
            began = time.monotonic()
            again = in_parallel(6, lambda i: client(30 + i, began + 30, answered, after))
            stop.set()
            sampler.join()
        after_ok = sum(a is True for a in again)
        ok = all(d is True for d in done) and max(times + after, default=99) <= CHANGES_BOUND and \
            peak[0] <= MEMORY_BOUND_MB and after_ok == 6
        verdict("changes", ok, f"{SAVED} saved rulings, 6 concurrent clients: report complete for "
                f"{sum(d is True for d in done)}/6 in {first:.0f} s; each request {figures(times)}, "
                f"max {max(times, default=0):.2f} s (bound {CHANGES_BOUND:.0f} s); "
                f"statuses {dict(statuses)}; "
                f"peak worker RSS {peak[0]:.0f} MB (bound {MEMORY_BOUND_MB}); after one save, 6 concurrent: "
                f"{after_ok}/6 reached 200, answers {dict(answered)}, each request {figures(after)}")


# -- 2. reading whatever the query --------------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settle(process: subprocess.Popen, seconds: float = 90) -> float:
    """Wait until the workers are idle (under 5 % of a core each over a second: their start-up work, such
    as resolving the library in the background, is done), so that the idle and loaded figures are of a
    server past its start; the seconds waited."""
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        pids = workers(process)
        before = [cpu_seconds(p) for p in pids]
        time.sleep(1.0)
        if all(cpu_seconds(p) - b < 0.05 for p, b in zip(pids, before, strict=True)):
            break
    return time.monotonic() - began


def hammer(base: str, targets: list[str], clients: int, stop, answers, rate: float | None = None,
           nice: int = 0) -> None:
    """`clients` threads reading `targets` (with made-up query strings where they have `{n}` or `{junk}`)
    until `stop`; in a process of its own, so the measuring client never waits for these threads'
    interpreter lock (a phone at a venue shares none with the others): its statuses go to the queue
    `answers`. With `rate`, the clients together send about that many reads a second (each its share,
    at random intervals); without it, each sends its next read as soon as the last is answered. With
    `nice`, the process runs at that CPU priority (19: only the CPU nobody else wants, as clients on
    machines of their own would take none of the server's)."""
    os.nice(nice)
    statuses: Counter = Counter()

    def client(i: int) -> None:
        while not stop.is_set():
            if rate:
                time.sleep(random.expovariate(rate / clients))
            path = random.choice(targets).format(n=random.randrange(10**9),
                                                 junk=random.choice("abcxyz") * random.randrange(1, 4))
            try:
                statuses[get(base, path, source=50 + i, timeout=30)[0]] += 1
            except OSError:
                statuses["error"] += 1
    in_parallel(clients, client)
    answers.put(dict(statuses))


@dataclass(frozen=True)
class Load:
    """One way the 16 clients read: `rate` reads a second in all (None: each as fast as it is answered),
    at CPU priority `nice`, with made-up query strings or (`queries` False) the same pages plainly."""
    words: str
    rate: float | None = None
    nice: int = 0
    queries: bool = True
    judged: bool = True  # a verdict on ≤ 3× idle; False: figures for comparison only


READING_LOADS = [
    Load("each as fast as it is answered, beside the server on its 2 cores"),
    Load("each as fast as it is answered, the same pages without query strings (what plain reads cost "
         "under the same load)", queries=False, judged=False),
    Load("each as fast as it is answered, at CPU priority 19 (only the CPU the server leaves, as on "
         "machines of their own)", nice=19),
    Load("paced at 200 reads/s in all (a venue: 200 phones each reading a page every second or so)",
         rate=200.0),
    Load("paced at 400 reads/s in all", rate=400.0),
]


def check_reading(root: Path, port: int) -> None:
    """16 clients reading with made-up query strings, each way of READING_LOADS; `/` and `/healthz`
    measured by a 17th client, idle and under that load."""
    for load in READING_LOADS:
        _reading(root, port, load)


IDLE_READS = 200  # the idle p95 is the 10th slowest of these


def _reading(root: Path, port: int, load: Load) -> None:
    with serving(root, port) as (base, process, _):
        status, _, body, _ = post_json(base, "/api/v1/rulings", HEAVY, source=2)
        rid = json.loads(body)["id"] if status == 201 else None
        get(base, f"/r/{rid}")
        settled = settle(process)
        idle = {path: [get(base, path, source=3)[1] for _ in range(IDLE_READS)] for path in ("/", "/healthz")}
        targets = [f"/r/{rid}?b={{n}}", "/scenarios/positions/taunt-protects-its-radius?x={n}",
                   "/rules/13.6.2{junk}", "/cards/noah?v={n}"]
        if not load.queries:
            targets = [target.split("?")[0].replace("{junk}", "") for target in targets]
        context = multiprocessing.get_context("fork")
        stop, answers = context.Event(), context.Queue()
        clients = context.Process(target=hammer,
                                  args=(base, targets, 16, stop, answers, load.rate, load.nice))
        clients.start()
        loaded: dict[str, list[float]] = {"/": [], "/healthz": []}
        until = time.monotonic() + 20
        while time.monotonic() < until:
            for path in loaded:
                loaded[path].append(get(base, path, source=4, timeout=30)[1])
            time.sleep(0.1)
        stop.set()
        statuses = answers.get(timeout=60)
        clients.join()
    ratios = {path: p95(loaded[path]) / max(p95(idle[path]), 0.001) for path in loaded}
    failed = sum(n for status, n in statuses.items() if status != 200)  # a read never fails (no 422)
    detail = (f"(workers settled after {settled:.0f} s; 16 clients {load.words}) " +
              "; ".join(f"{path} idle {figures(idle[path])}, loaded {figures(loaded[path])} "
                        f"({ratios[path]:.1f}× idle p95)" for path in loaded) +
              f"; the clients' statuses {statuses} in 20 s ({sum(statuses.values()) / 20:.0f} reads/s)")
    if load.judged:
        verdict("reading", all(r <= 3.0 for r in ratios.values()) and failed == 0, detail)
    else:
        print(f"----  reading: {detail}", flush=True)


# -- 3. 24 concurrent first requests, at start and after a worker restart ----------------------------------
READING = ["/cards/noah", "/cards/queen-sol", "/rules/13.6.2", "/glossary/unyielding", "/scenarios",
           "/cards", "/scenarios/positions/taunt-protects-its-radius", "/editions"]


def check_first_requests(root: Path, port: int) -> None:
    statuses: Counter = Counter()
    slow: list[float] = []
    rounds: list[str] = []
    with serving(root, port) as (base, process, _):
        for round_ in range(3):
            if round_:
                os.kill(workers(process)[0], signal.SIGTERM)  # a recycle: one worker replaced
                time.sleep(0.5)
            answers = in_parallel(24, lambda i: get(base, READING[i % len(READING)], source=60 + i,
                                                    timeout=60))
            rounds.append(figures([a[1] for a in answers if isinstance(a, tuple)]))
            for answer in answers:
                statuses[answer[0] if isinstance(answer, tuple) else "error"] += 1
                if isinstance(answer, tuple):
                    slow.append(answer[1])
    ok = statuses.get(422, 0) == 0 and set(statuses) == {200}
    verdict("first requests", ok, f"3 rounds (start, then a worker replaced, twice) × 24 concurrent reads: "
                                  f"{dict(statuses)}; per round: {' | '.join(rounds)}")


# -- 4. Host and forwarded headers ------------------------------------------------------------------------
def og_url(body: bytes) -> str:
    found = re.search(rb'property="og:url" content="([^"]+)"', body)
    return found.group(1).decode() if found else ""


def check_host(root: Path, port: int) -> None:
    with serving(root, port) as (base, _, _):
        status, _, body, _ = post_json(base, "/api/v1/rulings", SIMPLE, source=2)
        rid = json.loads(body)["id"] if status == 201 else "none"
        pages = ["/rules/13.6.2", f"/r/{rid}", "/cards/noah", "/glossary/unyielding"]
        poisoned = 0
        for _ in range(3):
            for path in pages:
                get(base, path, headers={"Host": "evil.example", "X-Forwarded-Host": "evil.example",
                                         "X-Forwarded-Proto": "https"}, source=5)
                for visitor in range(2):
                    poisoned += "evil" in og_url(get(base, path, source=6 + visitor)[2])
    verdict("host", poisoned == 0, f"{poisoned} of {3 * len(pages) * 2} normal visitors got og:url on "
                                   "evil.example after Host: evil.example requests")
    env = {"JUDGE_PROXIES": "1", "JUDGE_PROXY_ADDRESSES": "127.0.0.1", "JUDGE_LIMIT_SAVE": "60/minute",
           "JUDGE_LIMIT_SHARE": "60/minute"}
    with serving(root, port, env) as (base, _, _):
        codes = Counter(post_json(base, "/api/v1/rulings", {**SIMPLE, "title": f"rotated {n}"},
                                  headers={"X-Forwarded-For": f"203.0.113.{n % 250}"}, source=9)[0]
                        for n in range(150))
    verdict("limit key", codes.get(201, 0) <= 60,
            f"150 saves from 127.0.0.9 straight to gunicorn, each with its own X-Forwarded-For (save limit "
            f"60/minute, the default counts shared by both workers: at most 60): {dict(codes)}")


def check_parse(root: Path, port: int) -> None:
    with serving(root, port) as (base, _, _):
        codes = [post_json(base, "/desk/parse.json", {"yaml": text}, source=2)[0]
                 for text in ("{altar: Queen Sol, 3: Noah}", "{~: a, b: c}", "{false: a, b: c}")]
    verdict("mixed keys", codes == [200, 200, 200], f"/desk/parse.json with mixed key types: {codes}")


# -- 6. storage faults ------------------------------------------------------------------------------------
def health(base: str) -> tuple[int, str]:
    status, _, body, _ = get(base, "/healthz", source=3)
    database = json.loads(body).get("database", {})
    return status, str(database.get("error", "ok"))


def check_storage(root: Path, port: int) -> None:
    if os.geteuid() != 0:
        verdict("storage", True, "skipped (needs root for a tmpfs)")
        return
    mount = Path(tempfile.mkdtemp(prefix="judge-solid-disk-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)], check=True)
    try:
        _storage(root, port, mount)
    except Exception as exc:  # noqa: BLE001 - a fault the server did not survive is a result too
        verdict("storage", False, f"the soak stopped: {type(exc).__name__}: {exc}")
    finally:
        if subprocess.run(["umount", str(mount)], check=False).returncode:
            subprocess.run(["umount", "-l", str(mount)], check=False)
        mount.rmdir()


def remount(mount: Path, mode: str) -> None:
    """Remount the tmpfs `mode` ("ro" or "rw"); the kernel refuses "ro" while a file is being written
    (a worker's write just finishing), so try again for up to 5 s."""
    command = ["mount", "-o", f"remount,{mode}", str(mount)]
    for _ in range(10):
        if subprocess.run(command, capture_output=True, check=False).returncode == 0:
            return
        time.sleep(0.5)
    subprocess.run(command, check=True)


def _storage(root: Path, port: int, mount: Path) -> None:
    db = mount / "rulings.sqlite3"
    counts = Path(tempfile.mkdtemp(prefix="judge-solid-counts-")) / "limits.sqlite3"  # off the faulty disk
    env = {"JUDGE_DB": str(db)}
    if (root / "judge/rulings/limit_sqlite.py").exists():
        env["RATELIMIT_STORAGE_URI"] = f"sqlite://{counts}"
    with serving(root, port, env) as (base, process, _):
        rid = json.loads(post_json(base, "/api/v1/rulings", SIMPLE, source=2)[2])["id"]
        get(base, f"/r/{rid}", source=2)  # its page, made after the save, is written by now
        # read-only disk
        remount(mount, "ro")
        read = get(base, f"/api/v1/rulings/{rid}", source=2)[0]
        saved = post_json(base, "/api/v1/rulings", {**SIMPLE, "title": "ro"}, source=2)
        checks = [health(base) for _ in range(6)]
        remount(mount, "rw")
        after = [health(base)[0] for _ in range(10)]
        verdict("read-only disk", read == 200 and saved[0] == 503 and b"read-only" in saved[2]
                and all(c[0] == 503 and "read-only" in c[1] for c in checks) and set(after) == {200},
                f"intact ruling read: {read}; save: {saved[0]} "
                f"{json.loads(saved[2]).get('error', '')[:60]!r}; "
                f"/healthz {Counter(checks)}; once writable again, 10 × /healthz: {Counter(after)}")
        # full disk
        filler = mount / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], capture_output=True, check=False)
        read = get(base, f"/api/v1/rulings/{rid}", source=2)[0]
        saved = post_json(base, "/api/v1/rulings", {**SIMPLE, "title": "full " * 2000}, source=2)
        checks = [health(base) for _ in range(6)]
        filler.unlink()
        after = [health(base)[0] for _ in range(10)]
        verdict("full disk", read == 200 and saved[0] == 503 and all(c[0] == 503 for c in checks)
                and set(after) == {200},
                f"intact ruling read: {read}; save: {saved[0]}; /healthz {Counter(checks)}; after freeing "
                f"space 10 × /healthz: {Counter(after)}")
        # corruption
        with sqlite3.connect(db) as conn:
            for n in range(40):
                conn.execute("INSERT OR IGNORE INTO rulings VALUES (?,?,?,?,?,?)",
                             (f"c{n:011x}", json.dumps({**SIMPLE, "title": f"c{n}"}), "0.4.0", "{}",
                              store_pack({}), "2026-01-01T00:00:00+00:00"))
        damage(db)
        for pid in workers(process):
            os.kill(pid, signal.SIGTERM)
        time.sleep(8)
        checks = [health(base) for _ in range(6)]
        saved = post_json(base, "/api/v1/rulings", {**SIMPLE, "title": "corrupt"}, source=2)
        changes = get(base, "/changes/0.4.0...0.4.0.json", source=2)[0]
        verdict("corrupt file", all(c[0] == 503 and "corrupt" in c[1] for c in checks) and saved[0] == 503
                and changes == 503, f"/healthz {Counter(checks)}; save {saved[0]}; /changes {changes}")
        # deleted file, then a worker replaced
        db.unlink()
        for side in ("-wal", "-shm"):
            Path(f"{db}{side}").unlink(missing_ok=True)
        for pid in workers(process):
            os.kill(pid, signal.SIGTERM)
        time.sleep(8)
        read = get(base, f"/r/{rid}", source=2)[0]
        saved = post_json(base, "/api/v1/rulings", {**SIMPLE, "title": "after delete"}, source=2)[0]
        checks = [health(base) for _ in range(6)]
        verdict("deleted file", read == 503 and saved == 503 and not db.exists()
                and all(c[0] == 503 for c in checks),
                f"old link {read}, save {saved}, file made again: {db.exists()}, /healthz {Counter(checks)}")


# -- 7. a permalink under load ----------------------------------------------------------------------------
def resolving(base: str, clients: int):
    """`clients` threads resolving the heavy scenario over and over (a loaded server) until the stop event
    returned is set; the threads to join."""
    stop = threading.Event()

    def load(i: int) -> None:
        while not stop.is_set():
            post_json(base, "/api/v1/resolve", HEAVY, source=80 + i, timeout=30)
    threads = [threading.Thread(target=load, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    return stop, threads


def check_permalink(root: Path, port: int) -> None:
    made_at_view: dict[str, bytes] = {}
    lines = []
    with tempfile.TemporaryDirectory(prefix="judge-solid-permalink-") as folder:
        made = Path(folder) / "made"
        made.mkdir()
        at_view = {"JUDGE_PAGES_AT_SAVE": "0"}  # the page drawn at its first view (a save's is made after it)
        with serving(root, port, at_view, instance=made) as (base, _, _):
            status, _, body, _ = post_json(base, "/api/v1/rulings", HEAVY, source=2)
            rid = json.loads(body)["id"]
        for name in ("idle", "loaded"):
            shutil.copytree(made, Path(folder) / name)
            with serving(root, port, at_view, instance=Path(folder) / name) as (base, process, _):
                settle(process)
                stop, threads = resolving(base, 12 if name == "loaded" else 0)
                time.sleep(2 if threads else 0)
                status, seconds, made_at_view[name], _ = get(base, f"/r/{rid}", source=3)
                stop.set()
                for t in threads:
                    t.join()
                lines.append(f"drawn at its first view, {name}: {status} in {seconds:.2f} s")
        at_save: dict[str, bytes] = {}
        first: dict[str, float] = {}
        later: list[float] = []
        with serving(root, port) as (base, process, _):  # the default: a save makes its pages soon after
            settle(process)
            for name in ("idle", "loaded"):
                stop, threads = resolving(base, 12 if name == "loaded" else 0)
                time.sleep(2 if threads else 0)
                status, _, body, _ = post_json(base, "/api/v1/rulings", {**HEAVY, "title": f"a long {name}"},
                                               source=2, timeout=60)
                saved = json.loads(body)["id"]
                time.sleep(1.0)  # a link is opened a moment after it is made
                status, first[name], at_save[name], _ = get(base, f"/r/{saved}", source=3 + len(first))
                later += [get(base, f"/r/{saved}", source=5)[1] for _ in range(10)]
                stop.set()
                for t in threads:
                    t.join()
                lines.append(f"made after its save, {name}: first view 1 s after the save {status} in "
                             f"{first[name]:.2f} s")
    for line in lines:
        print(f"      {line}", flush=True)
    missing = {k: v.count(b"ran past the time") for k, v in {**made_at_view, **at_save}.items()}
    same = made_at_view["idle"] == made_at_view["loaded"]
    verdict("permalink", same and not any(missing.values()) and first["idle"] < 1.0,
            f"first view drawn at the view: identical idle and under 12 clients resolving {same}, boards "
            f"missing {missing}; " + "; ".join(lines) + f"; later views {figures(later)}")


CHECKS = {"changes": check_changes, "reading": check_reading, "first": check_first_requests,
          "host": check_host, "parse": check_parse, "storage": check_storage, "permalink": check_permalink}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checks", nargs="*", help=f"which (default: all): {', '.join(CHECKS)}")
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout to serve (default: this one)")
    parser.add_argument("--port", type=int, default=8791)
    args = parser.parse_args()
    unknown = [name for name in args.checks if name not in CHECKS]
    if unknown:
        parser.error(f"no check {unknown[0]!r}; there are {', '.join(CHECKS)}")
    for name in args.checks or CHECKS:
        CHECKS[name](args.root.resolve(), args.port)
    failed = [name for name, ok, _ in results if not ok]
    print(f"\n{len(results) - len(failed)} of {len(results)} checks passed"
          + (f"; failed: {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
