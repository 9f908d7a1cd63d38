"""A throwaway PostgreSQL cluster for the tests: `initdb` + `pg_ctl` in a temporary folder, listening
only on a Unix socket inside it, stopped (and the folder removed) at the end of the session.

`initdb` refuses to run as root (and CI runs as root), so as root the cluster belongs to an
unprivileged user: `nobody` when it exists, else a dedicated `codexjudge-pg` made with `useradd`.
Without PostgreSQL the tests that need it skip with how to get it; with `CI=true` they fail instead.

The binaries come from `PG_BIN` (a folder holding initdb and pg_ctl), else the newest
`/usr/lib/postgresql/<version>/bin` (Debian), else `PATH`.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

HOW_TO_GET = ("PostgreSQL is not installed: `apt-get install postgresql` (Debian/Ubuntu) or set PG_BIN to "
              "the folder holding initdb and pg_ctl; `pip install 'psycopg[binary]'` for the driver")
PORT = 8198            # only names the socket file (`.s.PGSQL.8198`): nothing listens on TCP
DEDICATED_USER = "codexjudge-pg"


@dataclass(frozen=True)
class Cluster:
    bin_dir: Path
    root: Path          # the temporary folder: data/, the socket and the log
    user: str | None    # the unprivileged owner when we run as root, else None (ourselves)

    @property
    def socket_dir(self) -> Path:
        return self.root

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={PORT}"

    def create_database(self) -> str:
        """A new, empty database; its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def missing(reason: str) -> None:
    """Skip locally; fail in CI, where PostgreSQL is installed by `.ci/run`."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {reason}")
    pytest.skip(reason)


def find_bin_dir() -> Path | None:
    candidates = [os.environ.get("PG_BIN", "")]
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    candidates += sorted(versions,
                         key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
                         reverse=True)
    on_path = shutil.which("initdb")
    candidates.append(str(Path(on_path).resolve().parent) if on_path else "")
    for folder in filter(None, candidates):
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    return None


def unprivileged_user() -> str | None:
    """None when we are not root; else a user initdb accepts (made with useradd when none exists)."""
    if os.geteuid() != 0:
        return None
    for name in ("nobody", DEDICATED_USER):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                    DEDICATED_USER],
                   check=True, capture_output=True)
    return DEDICATED_USER


def _run(cluster_user: str | None, argv: list[str]) -> subprocess.CompletedProcess:
    if cluster_user:
        argv = ["runuser", "-u", cluster_user, "--", *argv]
    return subprocess.run(argv, check=False, capture_output=True, text=True, timeout=120, cwd="/")


def start_cluster() -> Cluster:
    """initdb + pg_ctl start; raises RuntimeError with PostgreSQL's own words when either fails."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise FileNotFoundError(HOW_TO_GET)
    user = unprivileged_user()
    root = Path(tempfile.mkdtemp(prefix="codex-pg-", dir="/tmp"))  # short: a socket path has ≤107 bytes
    if user:
        entry = pwd.getpwnam(user)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    cluster = Cluster(bin_dir, root, user)
    data = root / "data"
    steps = [
        [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
         "--no-sync", "--locale=C"],
        [str(bin_dir / "pg_ctl"), "start", "-w", "-t", "60", "-D", str(data), "-l", str(root / "log"),
         "-o", (f"-c listen_addresses='' -c unix_socket_directories={root} -p {PORT} -c fsync=off "
                "-c max_connections=120 -c full_page_writes=off")],
    ]
    for argv in steps:
        done = _run(user, argv)
        if done.returncode != 0:
            log = (root / "log").read_text(errors="replace") if (root / "log").exists() else ""
            stop_cluster(cluster)
            raise RuntimeError(f"{Path(argv[0]).name} failed ({done.returncode}): "
                               f"{done.stderr.strip()} {log}")
    atexit.register(stop_cluster, cluster)  # also when the session is interrupted
    return cluster


def stop_cluster(cluster: Cluster) -> None:
    if (cluster.root / "data" / "postmaster.pid").exists():
        _run(cluster.user, [str(cluster.bin_dir / "pg_ctl"), "stop", "-w", "-m", "fast", "-D",
                            str(cluster.root / "data")])
    shutil.rmtree(cluster.root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster():
    """The session's cluster (started on first use); skips (fails in CI) without PostgreSQL."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing(HOW_TO_GET)
    try:
        cluster = start_cluster()
    except FileNotFoundError as exc:
        missing(str(exc))
    yield cluster
    stop_cluster(cluster)


@pytest.fixture()
def pg_url(pg_cluster) -> str:
    """The URL of a fresh, empty database in the session's cluster."""
    return pg_cluster.create_database()
