"""Storage faults, made the same way by the suite (tests/test_solid.py) and the soak against real
gunicorn (bench/solid.py): one place, so both reproduce the same defect."""

from __future__ import annotations

import sqlite3
from pathlib import Path

PAGE = 4096  # SQLite's default page size


def damage(db: Path) -> None:
    """Overwrite the middle of every page after the first (its WAL checkpointed into it first), as a disk
    that lost writes would: the header still opens, `PRAGMA quick_check` fails."""
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    for page in range(1, len(data) // PAGE):
        data[page * PAGE + 8: page * PAGE + 600] = b"\xa5" * 592
    db.write_bytes(bytes(data))
