"""Words for the trace that depend on what a card actually has: a condition stated as the card's
own condition says it (issue 11, part 3), never another kind's words.

    condition_now(board, ref, {"damaged": True})   # -> "Last Stand Veteran has 10 damage"

A keyword's own words are its record's (keywords.words).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from judge.engine.data.field import LINE_NAMES
from judge.engine.position.state import SlotRef

if TYPE_CHECKING:
    from judge.engine.position.board import Board


def condition_now(board: Board, ref: SlotRef, cond: Mapping[str, Any]) -> str:
    """What the Soul on `ref` is now, in the terms of each key of its condition map, in order."""
    soul = board.state.soul_at(ref)
    if soul is None:
        return f"no Soul stands on {ref}"
    card = board.state.known_card(soul.name)
    view = board.souls.get(ref)
    line = board.line(ref)
    phrases = []
    for key, want in cond.items():
        if key == "line":
            phrases.append(f"stands in line {line}" + (f", {LINE_NAMES[line]}" if line in LINE_NAMES else ""))
        elif key == "front_line":
            phrases.append("stands in the Front Line" if line == 1 else "is not in the Front Line")
        elif key == "damaged":
            phrases.append(f"has {soul.damage} damage" if soul.damage else "has no damage")
        elif key == "hp_at_most_half" and view is not None:
            phrases.append(f"has {view.hp.total} of {view.max_hp.total} HP")
        elif key == "attribute":
            phrases.append(f"is {card.attribute or 'of no attribute'}")
        elif key == "leader":
            phrases.append("is a Leader" if card.leader else "is not a Leader")
        elif key == "rank":
            phrases.append(f"is rank {card.rank}")
        elif key == "captured":
            phrases.append("is captured" if soul.captured else "is not captured")
        elif key == "keyword":
            phrases.append(f"has {want}" if board.has_keyword(ref, str(want)) else f"has no {want}")
    return f"{soul.name} " + " and ".join(phrases) if phrases else soul.name
