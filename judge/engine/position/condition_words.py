"""Words for the trace that depend on what a card actually has: a condition stated as the card's
own condition says it (issue 11, part 3), never another kind's words.

    condition_now(board, ref, {"damaged": True})   # -> "Last Stand Veteran has 10 damage"

A keyword's own words are its record's (keywords.words).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from judge.engine.data.field import LINE_NAMES
from judge.engine.position.conditions import Subject
from judge.engine.position.state import SlotRef

if TYPE_CHECKING:
    from judge.engine.position.board import Board


def _line(s: Subject, want: Any) -> str | None:
    return f"stands in line {s.line}" + (f", {LINE_NAMES[s.line]}" if s.line in LINE_NAMES else "")


def _front_line(s: Subject, want: Any) -> str | None:
    return "stands in the Front Line" if s.line == 1 else "is not in the Front Line"


def _damaged(s: Subject, want: Any) -> str | None:
    return f"has {s.soul.damage} damage" if s.soul.damage else "has no damage"


def _hp_at_most_half(s: Subject, want: Any) -> str | None:
    view = s.board.souls.get(s.ref)
    return None if view is None else f"has {view.hp.total} of {view.max_hp.total} HP"


def _attribute(s: Subject, want: Any) -> str | None:
    return f"is {s.card.attribute or 'of no attribute'}"


def _leader(s: Subject, want: Any) -> str | None:
    return "is a Leader" if s.card.leader else "is not a Leader"


def _rank(s: Subject, want: Any) -> str | None:
    return f"is rank {s.card.rank}"


def _captured(s: Subject, want: Any) -> str | None:
    return "is captured" if s.soul.captured else "is not captured"


def _keyword(s: Subject, want: Any) -> str | None:
    return f"has {want}" if s.board.has_keyword(s.ref, str(want)) else f"has no {want}"


# what a Soul is now, one row per key of a condition map (conditions._CHECKS says what fails)
_NOW: dict[str, Callable[[Subject, Any], str | None]] = {
    "line": _line, "front_line": _front_line, "damaged": _damaged, "hp_at_most_half": _hp_at_most_half,
    "attribute": _attribute, "leader": _leader, "rank": _rank, "captured": _captured, "keyword": _keyword,
}


def condition_now(board: Board, ref: SlotRef, cond: Mapping[str, Any]) -> str:
    """What the Soul on `ref` is now, in the terms of each key of its condition map, in order."""
    soul = board.state.soul_at(ref)
    if soul is None:
        return f"no Soul stands on {ref}"
    subject = Subject(board, ref, soul, board.state.known_card(soul.name), board.line(ref), None)
    said = (_NOW[key](subject, want) for key, want in cond.items() if key in _NOW)
    phrases = [phrase for phrase in said if phrase is not None]
    return f"{soul.name} " + " and ".join(phrases) if phrases else soul.name
