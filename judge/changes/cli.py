"""`judge changes FROM TO [--json]`: what changed from one Codex edition to another, and what that
does to every library ruling and every saved ruling (judge.changes.rulings). Exit 0, or 2 when an
edition is not one we hold.

The saved rulings are read where the web app keeps them: PostgreSQL when DATABASE_URL is set, else
the SQLite file of the instance folder (or `--db FILE`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from judge.changes.diff import Change, word_diff
from judge.changes.rulings import EditionChanges, changes
from judge.codex.model import CodexError
from judge.desk.outcomes import outcome_differences
from judge.rulings import open_store
from judge.rulings.cli import default_db


def plain_url(kind: str, rid: str) -> str:
    """A ruling's path on the site, for output made outside the web app."""
    return f"/scenarios/{rid}" if kind == "library" else f"/r/{rid}"


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="judge changes", description=__doc__)
    parser.add_argument("old", metavar="FROM", help="the older edition, e.g. 0.4.0")
    parser.add_argument("new", metavar="TO", help="the newer edition, e.g. 0.4.1")
    parser.add_argument("--json", action="store_true", help="print the JSON of /changes/FROM...TO.json")
    parser.add_argument("--db", type=Path, help="a SQLite file of saved rulings (default: the web app's "
                                               "database, PostgreSQL when DATABASE_URL is set)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    try:
        url = "" if args.db else os.environ.get("DATABASE_URL", "")
        store = open_store({"DATABASE": str(args.db or default_db()), "DATABASE_URL": url})
        try:
            report = changes(args.old, args.new, store)
        finally:
            store.close()
    except CodexError as exc:
        print(f"judge changes: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict(plain_url), indent=2, ensure_ascii=False))
    else:
        print(readable(report))
    return 0


def readable(report: EditionChanges) -> str:
    lines = [f"Codex {report.old} → {report.new}"]
    for title, found in (
        ("Rules", report.rules),
        ("Glossary", report.glossary),
        ("Edition data", report.data),
    ):
        counts = ", ".join(
            f"{sum(c.change == kind for c in found)} {kind}" for kind in ("added", "removed", "changed")
        )
        lines += ["", f"{title}: {counts}"]
        lines += [f"  {c.change:<8} {c.id}: {marked(c)}" for c in found]
    lines += [
        "",
        "Rulings: "
        + ", ".join(f"{report.count(s)} {s}" for s in ("outcome-changed", "cites-changed-rule", "same")),
    ]
    for ruling in report.rulings:
        if ruling.status == "same":
            continue
        rules = f"  (cites {', '.join(ruling.changed_rules)})" if ruling.changed_rules else ""
        lines.append(f"  {ruling.status:<19} {plain_url(ruling.kind, ruling.id)}{rules}")
        if ruling.status == "outcome-changed":
            lines += [f"      {line}" for line in outcome_differences(ruling.before, ruling.after)]
    return "\n".join(lines)


def marked(change: Change) -> str:
    """The change in one line: the word diff as [-removed-]{+added+}, or the value before → after."""
    if not isinstance(change.before, str | None) or not isinstance(change.after, str | None):
        return f"{change.before!r} → {change.after!r}"
    runs = word_diff(change.before, change.after)
    text = "".join(t if op == "same" else f"[-{t}-]" if op == "del" else f"{{+{t}+}}" for op, t in runs)
    return " ".join(text.split())
