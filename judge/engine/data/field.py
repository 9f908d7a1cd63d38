"""The field as data: the soul slots, their ranks and tree, and the realm slots.

Everything comes from the Codex edition's `field.yaml` (codex/editions/<version>/field.yaml,
interpretation/field-tree); no slot name appears in engine code except through this module.

    field = load_field()        # the active edition's (judge.engine.data.edition), cached
    field.slots                 # soul slot names, root first, in file order
    field.rank("Cm1")           # 1
    field.parent("L1·0")        # "L1"
    field.children("C3")        # ("C2", "Cm1", "Cr1")
    field.path_to_root("L1·0")  # ("L1", "L2", "altar"): every slot above, nearest first
    field.normalize("l1.0")     # "L1·0" (None for an unknown name): the one spelling rule
    line_label(2)               # "line 2 (the Second Line)"

The desk draws its board from this same Field (judge/desk/layout.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from judge.engine.data.edition import active

# contract §2: L1.0 and L1-0 both mean L1·0 (unless the field data says otherwise)
ASCII_SEPARATORS = (".", "-")

# glossary/line, /front-line, /second-line, /third-line: the lines the glossary names
LINE_NAMES = {1: "the Front Line", 2: "the Second Line", 3: "the Third Line"}


def line_label(line: int | None) -> str:
    """"line 2 (the Second Line)": the number and, where the glossary has one, the line's name."""
    name = LINE_NAMES.get(line or 0)
    return f"line {line} ({name})" if name else f"line {line}"


@dataclass(frozen=True)
class SlotDef:
    name: str
    rank: int
    parent: str | None = None
    realm: bool = False


class Field:
    """The slots of one player's side. Both players have the same field."""

    def __init__(self, soul_slots: list[SlotDef], realm_slots: list[SlotDef], root: str,
                 separator: str, ascii_separators: list[str], interpretation: str) -> None:
        self._defs = {s.name: s for s in [*soul_slots, *realm_slots]}
        self.soul_defs: tuple[SlotDef, ...] = tuple(soul_slots)
        self.realm_defs: tuple[SlotDef, ...] = tuple(realm_slots)
        self.slots: tuple[str, ...] = tuple(s.name for s in soul_slots)
        self.realm_slots: tuple[str, ...] = tuple(s.name for s in realm_slots)
        self.root = root
        self.separator = separator
        self.ascii_separators = tuple(ascii_separators)
        self.interpretation = interpretation
        self._children: dict[str, tuple[str, ...]] = {
            name: tuple(s.name for s in soul_slots if s.parent == name) for name in self.slots
        }
        self._lookup = {name.lower(): name for name in self._defs}

    # names
    def normalize(self, name: object) -> str | None:
        """The canonical slot name for `name` (case-insensitive, ASCII separators allowed)."""
        if not isinstance(name, str):
            return None
        text = name.strip()
        for sep in self.ascii_separators:
            text = text.replace(sep, self.separator)
        return self._lookup.get(text.lower())

    def is_realm_slot(self, name: str) -> bool:
        return name in self.realm_slots

    # tree
    def rank(self, slot: str) -> int:
        return self._defs[slot].rank

    def parent(self, slot: str) -> str | None:
        return self._defs[slot].parent

    def children(self, slot: str) -> tuple[str, ...]:
        return self._children[slot]

    def path_to_root(self, slot: str) -> tuple[str, ...]:
        """Every slot above `slot`, nearest first, ending with the root (empty for the root)."""
        path = []
        parent = self.parent(slot)
        while parent is not None:
            path.append(parent)
            parent = self.parent(parent)
        return tuple(path)

    def descendants(self, slot: str) -> tuple[str, ...]:
        """Every slot further out on `slot`'s branch, depth first."""
        out: list[str] = []
        for child in self.children(slot):
            out.append(child)
            out.extend(self.descendants(child))
        return tuple(out)

    def describe(self) -> str:
        return ", ".join(self.slots)

    def __deepcopy__(self, memo: dict[int, Any]) -> Field:
        return self  # read-only: a copied State shares its slot tree

    def to_dict(self) -> dict[str, Any]:
        """The tree as the desk's script reads it."""
        return {
            "soul_slots": [{"name": s.name, "rank": s.rank, "parent": s.parent} for s in self.soul_defs],
            "realm_slots": [{"name": s.name, "rank": s.rank} for s in self.realm_defs],
        }


def parse_field(data: dict[str, Any], source: str = "field data") -> Field:
    """A Field from its data (an edition's field.yaml); `root` may be left out when one soul slot
    has no parent."""
    def slot_defs(key: str, realm: bool) -> list[SlotDef]:
        out = []
        for i, item in enumerate(data.get(key) or []):
            if not isinstance(item, dict) or not isinstance(item.get("name"), str) \
                    or not isinstance(item.get("rank"), int):
                raise TypeError(f"{source}: {key}[{i}]: expected {{name, rank, parent}}")
            out.append(SlotDef(item["name"], item["rank"], item.get("parent"), realm))
        return out

    souls = slot_defs("soul_slots", False)
    realms = slot_defs("realm_slots", True)
    names = {s.name for s in souls}
    roots = [s.name for s in souls if s.parent is None]
    root = data.get("root", roots[0] if len(roots) == 1 else None)
    if roots != [root] or not isinstance(root, str):
        raise ValueError(f"{source}: exactly one soul slot, the root {root!r}, has no parent")
    for s in souls:
        if s.parent is not None and s.parent not in names:
            raise ValueError(f"{source}: slot {s.name}: parent {s.parent!r} is not a soul slot")
    return Field(souls, realms, root, data.get("separator", "·"),
                 list(data.get("ascii_separators", ASCII_SEPARATORS)),
                 data.get("interpretation", "field-tree"))


def load_field(path: Path | str | None = None) -> Field:
    """The slot tree in `path`; by default the active edition's (judge.engine.data.edition.active)."""
    return _read(str(path) if path is not None else active().field_file)


@lru_cache(maxsize=8)
def _read(path: str) -> Field:
    with open(path, encoding="utf-8") as fh:
        return parse_field(yaml.safe_load(fh), str(path))
