"""Words for the trace that depend on what a card actually has: a condition stated as the card's
own condition says it (issue 11, part 3), never another kind's words.

    condition_now(board, ref, {"damaged": True})   # -> "Last Stand Veteran has 10 damage"

A keyword's own words are its record's (keywords.words).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from judge.engine.position.conditions import CONDITIONS, Subject
from judge.engine.position.state import SlotRef

if TYPE_CHECKING:
    from judge.engine.position.board import Board


def condition_now(board: Board, ref: SlotRef, cond: Mapping[str, Any]) -> str:
    """What the Soul on `ref` is now, in the terms of each key of its condition map, in order."""
    soul = board.state.soul_at(ref)
    if soul is None:
        return f"no Soul stands on {ref}"
    subject = Subject(board, ref, soul, board.state.known_card(soul.name), board.line(ref), None)
    said = (CONDITIONS[key].now(subject, want) for key, want in cond.items() if key in CONDITIONS)
    phrases = [phrase for phrase in said if phrase is not None]
    return f"{soul.name} " + " and ".join(phrases) if phrases else soul.name
