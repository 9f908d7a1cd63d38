"""`judge init-db [--db FILE]`: make the saved-rulings database (SQLite: even where one was made before
and is gone; PostgreSQL, from DATABASE_URL: its schema) and migrate it. The one explicit way, besides
the first start of an instance, to get an empty database: a running site never makes one again."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from judge import ROOT
from judge.rulings import StoreUnavailable, open_store
from judge.rulings.sqlite import RulingStore


def default_db() -> Path:
    """Where the web app keeps saved rulings: JUDGE_DB, else <JUDGE_INSTANCE or instance/>/rulings.sqlite3."""
    if os.environ.get("JUDGE_DB"):
        return Path(os.environ["JUDGE_DB"])
    return Path(os.environ.get("JUDGE_INSTANCE") or ROOT / "instance") / "rulings.sqlite3"


def init_db(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="judge init-db", description=__doc__)
    parser.add_argument("--db", help="the SQLite file (default: JUDGE_DB, else the instance folder's)")
    args = parser.parse_args(argv)
    url = os.environ.get("DATABASE_URL", "")
    try:
        if url:
            store = open_store({"DATABASE_URL": url})
            applied = store.migrate()
            where = store.backend
        else:
            sqlite = RulingStore(args.db or default_db())
            applied = sqlite.init()
            where = str(sqlite.path)
    except (StoreUnavailable, ValueError) as exc:
        print(f"judge init-db: {getattr(exc, 'cause', exc)}", file=sys.stderr)
        return 2
    print(f"{where}: ready (migrations applied: {', '.join(map(str, applied)) or 'none'})")
    return 0
