"""Where each slot goes on the board picture, computed from the field tree data (the edition's field.yaml).

No slot is named here: the tree's root is the altar, each slot's children hang further out, and the
picture is a tidy tree (leaves in data order, each parent centred over its children). Player A sits at
the bottom with the altar at the back (the bottom edge); Player B at the top, turned round as if
across a table: altar at the top edge, and their left on A's right.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.engine import Field, load_field

__all__ = ["Field", "Layout", "load_field", "tree_layout"]   # the desk reads the engine's field tree


@dataclass(frozen=True)
class Layout:
    """Grid positions of one player's soul slots: column (may be fractional) and depth (0 = altar)."""

    positions: dict[str, tuple[float, int]]
    columns: int
    depth: int


def tree_layout(field: Field) -> Layout:
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
