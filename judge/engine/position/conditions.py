"""Conditions (contract §3): what of a condition map does not hold for a Soul, as phrases for the
violation and the trace. Checked when an effect is used (11.3.1), for an "If …" when it resolves
(11.3.2), for Caster and Ambusher requirements (11.2.2), and for Static Effects while they apply
(13.1.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from judge.engine.data.field import line_label
from judge.engine.position.state import SlotRef, State


class _Total(Protocol):
    @property
    def total(self) -> int: ...


class _Hp(Protocol):
    """What a condition reads of a derived Soul (derived.SoulView)."""

    @property
    def hp(self) -> _Total: ...

    @property
    def max_hp(self) -> _Total: ...


class Board(Protocol):
    """What a condition reads of the derived board (stats.Board)."""

    state: State

    @property
    def souls(self) -> Mapping[SlotRef, _Hp]: ...

    def line(self, ref: SlotRef) -> int | None: ...

    def has_keyword(self, ref: SlotRef, name: str) -> bool: ...


def failed_conditions_realm(cond: Mapping[str, Any]) -> list[str]:
    """Realms have no line, attribute or damage conditions of their own; any such key fails."""
    return [f"{key}" for key in cond]


def _failed(board: Board, ref: SlotRef, cond: Mapping[str, Any],
            prelim: Mapping[SlotRef, int] | None = None) -> list[str]:
    state = board.state
    soul = state.soul_at(ref)
    if soul is None:
        return ["no Soul stands there"]
    card = state.known_card(soul.name)
    out = []
    line = board.line(ref)
    if "captured" in cond and cond["captured"] != soul.captured:
        out.append("is captured" if cond["captured"] else "is not captured")
    if "line" in cond and line is not None:
        lo, hi = cond["line"].get("min"), cond["line"].get("max")
        if (hi is not None and line > hi) or (lo is not None and line < lo):
            out.append(f"stands in {line_label(line)}, the condition asks for line "
                       + (f"{hi} or lower" if hi is not None and lo is None else
                          f"{lo} or higher" if lo is not None and hi is None else f"{lo}–{hi}"))
    if "front_line" in cond and (line == 1) != cond["front_line"]:
        out.append("is not in the Front Line" if cond["front_line"] else "is in the Front Line")
    if "attribute" in cond and card.attribute != cond["attribute"]:
        out.append(f"is {card.attribute or 'of no attribute'}, not {cond['attribute']}")
    if "leader" in cond and card.leader != cond["leader"]:
        out.append("is not a Leader" if cond["leader"] else "is a Leader")
    if "rank" in cond:
        lo, hi = cond["rank"].get("min"), cond["rank"].get("max")
        if (hi is not None and card.rank > hi) or (lo is not None and card.rank < lo):
            out.append(f"is rank {card.rank}")
    if "damaged" in cond and (soul.damage > 0) != cond["damaged"]:
        out.append("has no damage" if cond["damaged"] else "is damaged")
    if "hp_at_most_half" in cond:
        if prelim is not None:
            hp = prelim.get(ref, 0)
            max_hp = hp + soul.damage
        else:
            view = board.souls[ref]
            hp, max_hp = view.hp.total, view.max_hp.total
        if (hp * 2 <= max_hp) != cond["hp_at_most_half"]:
            out.append(f"has {hp} of {max_hp} HP")
    if "keyword" in cond and prelim is None and not board.has_keyword(ref, cond["keyword"]):
        out.append(f"has no {cond['keyword']}")
    return out


def failed_conditions(board: Board, ref: SlotRef, cond: Mapping[str, Any]) -> list[str]:
    """What of a condition map (contract §3 Conditions) does not hold for the Soul on `ref`, as
    phrases ("stands in line 3, …"); empty when it holds. Used for 11.3 checks and caster limits."""
    return _failed(board, ref, cond) if cond else []
