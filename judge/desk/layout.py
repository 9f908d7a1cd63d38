"""Where each slot goes on the board picture, computed from the field tree data (codex/field.yaml).

No slot is named here: the tree's root is the altar, each slot's children hang further out, and the
picture is a tidy tree (leaves in data order, each parent centred over its children). Player A sits at
the bottom with the altar at the back (the bottom edge); Player B at the top, turned round as if
across a table: altar at the top edge, and their left on A's right.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from judge import ROOT

FIELD_FILE = ROOT / "codex" / "field.yaml"


@dataclass(frozen=True)
class SlotSpec:
    name: str
    rank: int
    parent: str | None


@dataclass(frozen=True)
class FieldSpec:
    """The field tree as the desk needs it: soul slots in data order, realm slots, aliases."""

    soul_slots: tuple[SlotSpec, ...]
    realm_slots: tuple[SlotSpec, ...]
    separator: str = "·"
    ascii_separators: tuple[str, ...] = (".", "-")

    @property
    def root(self) -> str:
        return next(s.name for s in self.soul_slots if s.parent is None)

    def children(self, name: str) -> list[str]:
        return [s.name for s in self.soul_slots if s.parent == name]

    def rank(self, name: str) -> int | None:
        for spec in (*self.soul_slots, *self.realm_slots):
            if spec.name == name:
                return spec.rank
        return None

    def normalize(self, name: str) -> str:
        """`L1.0` and `L1-0` mean `L1·0` (contract §2)."""
        names = {s.name for s in (*self.soul_slots, *self.realm_slots)}
        if name in names:
            return name
        for sep in self.ascii_separators:
            candidate = name.replace(sep, self.separator)
            if candidate in names:
                return candidate
        return name

    def to_dict(self) -> dict[str, Any]:
        return {
            "soul_slots": [{"name": s.name, "rank": s.rank, "parent": s.parent} for s in self.soul_slots],
            "realm_slots": [{"name": s.name, "rank": s.rank} for s in self.realm_slots],
        }


def field_from_mapping(data: dict[str, Any]) -> FieldSpec:
    souls = tuple(SlotSpec(str(s["name"]), int(s["rank"]), s.get("parent")) for s in data["soul_slots"])
    realms = tuple(SlotSpec(str(s["name"]), int(s["rank"]), None) for s in data.get("realm_slots", []))
    return FieldSpec(
        souls,
        realms,
        separator=data.get("separator", "·"),
        ascii_separators=tuple(data.get("ascii_separators", (".", "-"))),
    )


@lru_cache(maxsize=4)
def load_field(path: Path = FIELD_FILE) -> FieldSpec:
    """The project's field tree (the same data file the engine reads)."""
    with open(path, encoding="utf-8") as handle:
        return field_from_mapping(yaml.safe_load(handle))


@dataclass(frozen=True)
class Layout:
    """Grid positions of one player's soul slots: column (may be fractional) and depth (0 = altar)."""

    positions: dict[str, tuple[float, int]]
    columns: int
    depth: int


def tree_layout(field: FieldSpec) -> Layout:
    positions: dict[str, tuple[float, int]] = {}
    next_leaf = [0]

    def place(name: str, depth: int) -> float:
        kids = field.children(name)
        if not kids:
            column = float(next_leaf[0])
            next_leaf[0] += 1
        else:
            placed = [place(kid, depth + 1) for kid in kids]
            column = (placed[0] + placed[-1]) / 2
        positions[name] = (column, depth)
        return column

    place(field.root, 0)
    depth = max(d for _, d in positions.values()) + 1
    return Layout(positions, max(next_leaf[0], 1), depth)
