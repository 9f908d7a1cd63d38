"""Conditions (contract §3): what of a condition map does not hold for a Soul, as phrases for the
violation and the trace. Checked when an effect is used (11.3.1), for an "If …" when it resolves
(11.3.2), for Caster and Ambusher requirements (11.2.2), and for Static Effects while they apply
(13.1.1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from judge.engine.data.cards import CardDef
from judge.engine.data.field import LINE_NAMES, line_label
from judge.engine.position.state import SlotRef, Soul, State


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


@dataclass(frozen=True)
class Subject:
    """What one condition check reads: the board, the Soul, its card and its line."""

    board: Board
    ref: SlotRef
    soul: Soul
    card: CardDef
    line: int | None
    prelim: Mapping[SlotRef, int] | None


def _outside(value: int, bounds: Mapping[str, Any]) -> bool:
    lo, hi = bounds.get("min"), bounds.get("max")
    return (hi is not None and value > hi) or (lo is not None and value < lo)


def _bounds_words(bounds: Mapping[str, Any]) -> str:
    lo, hi = bounds.get("min"), bounds.get("max")
    if hi is not None and lo is None:
        return f"{hi} or lower"
    if lo is not None and hi is None:
        return f"{lo} or higher"
    return f"{lo}–{hi}"


Phrase = Callable[[Subject, Any], "str | None"]


@dataclass(frozen=True)
class ConditionKind:
    """One key of a condition map (contract §3, card_records.CONDITION_KEYS): the phrase saying what
    fails when it does not hold (None when it holds), and what the Soul is now in its terms."""

    key: str
    fails: Phrase
    now: Phrase


# the rows, in the order a failed condition's phrases are written
CONDITIONS: dict[str, ConditionKind] = {}


def _row(key: str, fails: Phrase, now: Phrase) -> None:
    CONDITIONS[key] = ConditionKind(key, fails, now)


def _captured(s: Subject, want: Any) -> str | None:
    if want == s.soul.captured:
        return None
    return "is captured" if want else "is not captured"


_row("captured", _captured, lambda s, want: "is captured" if s.soul.captured else "is not captured")


def _line(s: Subject, bounds: Any) -> str | None:
    if s.line is None or not _outside(s.line, bounds):
        return None
    return f"stands in {line_label(s.line)}, the condition asks for line {_bounds_words(bounds)}"


def _line_now(s: Subject, want: Any) -> str | None:
    return f"stands in line {s.line}" + (f", {LINE_NAMES[s.line]}" if s.line in LINE_NAMES else "")


_row("line", _line, _line_now)


def _front_line(s: Subject, want: Any) -> str | None:
    if (s.line == 1) == want:
        return None
    return "is not in the Front Line" if want else "is in the Front Line"


_row("front_line", _front_line,
     lambda s, want: "stands in the Front Line" if s.line == 1 else "is not in the Front Line")


def _attribute(s: Subject, want: Any) -> str | None:
    if s.card.attribute == want:
        return None
    return f"is {s.card.attribute or 'of no attribute'}, not {want}"


_row("attribute", _attribute, lambda s, want: f"is {s.card.attribute or 'of no attribute'}")


def _leader(s: Subject, want: Any) -> str | None:
    if s.card.leader == want:
        return None
    return "is not a Leader" if want else "is a Leader"


_row("leader", _leader, lambda s, want: "is a Leader" if s.card.leader else "is not a Leader")


def _rank(s: Subject, bounds: Any) -> str | None:
    return f"is rank {s.card.rank}" if _outside(s.card.rank, bounds) else None


_row("rank", _rank, lambda s, want: f"is rank {s.card.rank}")


def _damaged(s: Subject, want: Any) -> str | None:
    if (s.soul.damage > 0) == want:
        return None
    return "has no damage" if want else "is damaged"


_row("damaged", _damaged, lambda s, want: f"has {s.soul.damage} damage" if s.soul.damage else "has no damage")


def _hp_at_most_half(s: Subject, want: Any) -> str | None:
    if s.prelim is not None:
        hp = s.prelim.get(s.ref, 0)
        max_hp = hp + s.soul.damage
    else:
        view = s.board.souls[s.ref]
        hp, max_hp = view.hp.total, view.max_hp.total
    return None if (hp * 2 <= max_hp) == want else f"has {hp} of {max_hp} HP"


def _hp_now(s: Subject, want: Any) -> str | None:
    view = s.board.souls.get(s.ref)
    return None if view is None else f"has {view.hp.total} of {view.max_hp.total} HP"


_row("hp_at_most_half", _hp_at_most_half, _hp_now)


def _keyword(s: Subject, name: Any) -> str | None:
    # keywords are not known yet while the preliminary stats are computed (13.1.1)
    if s.prelim is not None or s.board.has_keyword(s.ref, name):
        return None
    return f"has no {name}"


_row("keyword", _keyword,
     lambda s, want: f"has {want}" if s.board.has_keyword(s.ref, str(want)) else f"has no {want}")


def _failed(board: Board, ref: SlotRef, cond: Mapping[str, Any],
            prelim: Mapping[SlotRef, int] | None = None) -> list[str]:
    state = board.state
    soul = state.soul_at(ref)
    if soul is None:
        return ["no Soul stands there"]
    subject = Subject(board, ref, soul, state.known_card(soul.name), board.line(ref), prelim)
    phrases = (kind.fails(subject, cond[kind.key]) for kind in CONDITIONS.values() if kind.key in cond)
    return [phrase for phrase in phrases if phrase is not None]


def failed_conditions(board: Board, ref: SlotRef, cond: Mapping[str, Any]) -> list[str]:
    """What of a condition map (contract §3 Conditions) does not hold for the Soul on `ref`, as
    phrases ("stands in line 3, …"); empty when it holds. Used for 11.3 checks and caster limits."""
    return _failed(board, ref, cond) if cond else []
