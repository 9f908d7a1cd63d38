"""The slot table in docs/scenario-format.md is made from the field data and can't drift from it."""

from __future__ import annotations

import re

import yaml

from judge import ROOT, docs_tables
from judge.engine.data.edition import active

DOC = ROOT / "docs" / "scenario-format.md"


def _rows() -> dict[str, list[str]]:
    body = docs_tables.regions(DOC.read_text(encoding="utf-8"))["slot-table"]
    out = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`"):
            out[cells[0].strip("`")] = cells
    return out


def _names(cell: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", cell))


def test_the_docs_table_is_up_to_date() -> None:
    assert docs_tables.main(["--check"]) == 0


def test_every_slot_of_the_field_file_is_a_row_with_its_rank_and_neighbours() -> None:
    """Read against field.yaml itself (not through the engine's Field), so a wrong generator fails too."""
    raw = yaml.safe_load((ROOT / "codex" / "editions" / active().version / "field.yaml").read_text())
    rows = _rows()
    souls = raw["soul_slots"]
    assert set(rows) == {s["name"] for s in souls}
    for s in souls:
        _, rank, behind, front, _ = rows[s["name"]]
        assert int(rank) == s["rank"], s["name"]
        assert _names(behind) == ({s["parent"]} if s["parent"] else set()), s["name"]
        assert _names(front) == {c["name"] for c in souls if c["parent"] == s["name"]}, s["name"]
    realm_line = docs_tables.regions(DOC.read_text(encoding="utf-8"))["slot-table"]
    for r in raw["realm_slots"]:
        assert f"`{r['name']}` (rank {r['rank']})" in realm_line


def test_a_stale_table_is_named(tmp_path, capsys) -> None:
    doc = tmp_path / "scenario-format.md"
    doc.write_text(DOC.read_text(encoding="utf-8").replace("| `L2` | 2 |", "| `L2` | 1 |"), encoding="utf-8")
    assert docs_tables.main(["--check"], doc=doc) == 1
    assert "slot-table" in capsys.readouterr().out
    assert docs_tables.main([], doc=doc) == 0
    assert docs_tables.main(["--check"], doc=doc) == 0


def test_the_words_behind_and_in_front_are_explained_beside_the_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## The slot tree", 1)[1].split("<!-- generated: slot-table -->", 1)[0]
    for word in ("**Behind**", "**in front of**", "**Direct Superior**"):
        assert word in section
