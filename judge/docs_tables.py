"""Tables in docs/ that are made from data, so that they can't drift from it.

    python -m judge.docs_tables            # rewrite every generated region of docs/scenario-format.md
    python -m judge.docs_tables --check    # exit 1 and name the region when one is out of date

A generated region sits between `<!-- generated: NAME -->` and `<!-- end generated: NAME -->`;
`tests/test_docs_tables.py` fails when one differs from what its data makes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

from judge import ROOT
from judge.engine import Field, load_field

DOC = ROOT / "docs" / "scenario-format.md"


def slot_table(field: Field | None = None) -> str:
    """The slot tree of one player's side (the edition's field.yaml, interpretation/field-tree): each
    soul slot, its rank, the slot it hangs under (towards the altar: "behind") and the slots that hang
    under it (further out: "in front of"), then the realm slots."""
    field = field or load_field()
    rows = ["| slot | rank | behind it (towards the altar) | in front of it (further out) "
            "| its branch, outwards |", "|---|---|---|---|---|"]
    for s in field.soul_defs:
        behind = f"`{s.parent}`" if s.parent else "— (the altar: the Leader's slot)"
        front = ", ".join(f"`{c}`" for c in field.children(s.name)) or "— (an outermost slot)"
        branch = ", ".join(f"`{d}`" for d in field.descendants(s.name)) or "—"
        rows.append(f"| `{s.name}` | {s.rank} | {behind} | {front} | {branch} |")
    realms = ", ".join(f"`{r.name}` (rank {r.rank})" for r in field.realm_defs)
    return "\n".join([*rows, "", f"Realm slots, beside the tree: {realms}."])


GENERATORS: dict[str, Callable[[], str]] = {"slot-table": slot_table}


def _region(name: str) -> re.Pattern[str]:
    start, end = f"<!-- generated: {name} -->", f"<!-- end generated: {name} -->"
    return re.compile(rf"({re.escape(start)}\n)(.*?)({re.escape(end)})", re.DOTALL)


def regions(text: str) -> dict[str, str]:
    """The current body of each generated region found in `text`."""
    out = {}
    for name in GENERATORS:
        m = _region(name).search(text)
        if m:
            out[name] = m.group(2)
    return out


def rewrite(text: str) -> str:
    for name, make in GENERATORS.items():
        body = make()

        def put(m: re.Match[str], body: str = body) -> str:
            return m.group(1) + body + "\n" + m.group(3)
        text = _region(name).sub(put, text)
    return text


def main(argv: list[str] | None = None, doc: Path = DOC) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    text = doc.read_text(encoding="utf-8")
    new = rewrite(text)
    if "--check" in argv:
        stale = [n for n in GENERATORS if regions(text).get(n) != regions(new).get(n)]
        for name in stale:
            print(f"{doc}: the generated region {name!r} is out of date: run python -m judge.docs_tables")
        return 1 if stale else 0
    if new != text:
        doc.write_text(new, encoding="utf-8")
        print(f"rewrote {doc}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
