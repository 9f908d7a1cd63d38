"""How far a change to the state reaches on the board derived before it: the cards whose views must be
derived again, when those alone are all it changed (board.Board.patched shares every other view), or
None when it may reach further (a card moving, a capture, a negation, an aura: the whole board again).

Exact by construction: a change is listed here only with every derived value it can change.
`tests/test_state_version.py` checks, after every step of every library scenario, that the board kept
this way equals a fresh derivation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from judge.engine.data.cards import CardDef
from judge.engine.data.keywords import MORAL
from judge.engine.position import tree
from judge.engine.position.state import PLAYERS, Lasting, PlayerState, Realm, SlotRef, Soul, State

# a player's fields as derived values read them: the Escalation Spiral's (tree.proactive_slots:
# glossary/escalation-spiral), and 10.1.1's recruits, which no derived value reads (legality counts them)
SPIRAL_FIELDS = frozenset({"turns_taken", "proactive"})
UNREAD_PLAYER_FIELDS = frozenset({"recruits"})
NOWHERE = SlotRef("", "")


@dataclass(frozen=True)
class Before:
    """What the board before the change knew: where each card was (by uid), the lasting effects it was
    derived with, each player's proactive slots, and the cards whose Static Effects reach other cards."""

    where: Mapping[int, SlotRef]
    lasting: tuple[Lasting, ...]
    proactive: Mapping[str, set[str]]
    auras: frozenset[int]


def touched(state: State, changes: list[tuple[Any, str]],
            before: Before) -> tuple[frozenset[SlotRef], dict[str, set[str]]] | None:
    """The Souls and Realms `changes` (tracked.Version.changes) touched, and the proactive slots now; None
    when a change may reach further. They reach only: damage dealt to or healed from a Soul or a Realm;
    lasting gains, keywords granted (but Moral, an aura: glossary/moral) and slot effects laid or lifted
    (13.3) on Souls; a player's turns taken or woken slots (the Souls whose slot became proactive or
    stopped being); the recruits counted for 10.1.1; and each touched card must be one whose Static
    Effects reach itself alone (a Realm: what it gives does not read its HP)."""
    found: set[SlotRef] = set()
    spiral = False
    for part, what in changes:
        if what == "damage" and isinstance(part, Soul | Realm):
            found.add(before.where.get(part.uid) or NOWHERE)
        elif (held := _player_field(state, part, what)) in UNREAD_PLAYER_FIELDS:
            continue
        elif held in SPIRAL_FIELDS:
            spiral = True
        elif not (part is state.lasting or (part is state and what == "lasting")) or \
                not _lasting_changes(state, before, found):
            return None
    proactive = ({p: tree.proactive_slots(state, p) for p in PLAYERS} if spiral
                 else {p: before.proactive[p] for p in PLAYERS})
    found |= {SlotRef(p, slot) for p in PLAYERS for slot in proactive[p] ^ before.proactive[p]
              if state.soul_at(SlotRef(p, slot)) is not None}
    if not all(_is_local(state, ref, before.auras) for ref in found):
        return None
    return frozenset(found), proactive


def reaches_others(card: CardDef) -> bool:
    """Whether a Static Effect of the card may reach another card than its own (or its Wielder's)."""
    return any(eff.kind == "static" and (bool(eff.negate) or eff.to not in ("self", "wielder"))
               for eff in card.effects)


def _is_local(state: State, ref: SlotRef, auras: frozenset[int]) -> bool:
    """Whether deriving the card on `ref` again is all a change to it needs: a Realm not shattered, or an
    active Soul whose effects (and its Armament's) reach it alone."""
    if not ref.player:
        return False
    if ref.is_realm:
        realm = state.realm_at(ref)
        return realm is not None and not realm.shattered
    soul = state.soul_at(ref)
    return soul is not None and not soul.captured and soul.uid not in auras and \
        (soul.armament is None or soul.armament.uid not in auras)


def _lasting_changes(state: State, before: Before, found: set[SlotRef]) -> bool:
    """Whether the lasting effects that came or went since `before` each reach one Soul at most (their
    Souls added to `found`), the others kept in their order."""
    was = {id(e): e for e in before.lasting}
    now = {id(e): e for e in state.lasting}
    kept_before = [e for e in before.lasting if id(e) in now]
    kept_now = [e for e in state.lasting if id(e) in was]
    if any(a is not b for a, b in zip(kept_before, kept_now, strict=True)):
        return False
    came_or_went = [e for e in before.lasting if id(e) not in now] + \
        [e for e in state.lasting if id(e) not in was]
    return all(_reaches_one_soul(state, before, eff, found) for eff in came_or_went)


def _reaches_one_soul(state: State, before: Before, eff: Lasting, found: set[SlotRef]) -> bool:
    """Whether a lasting effect reaches at most one Soul and nothing through it: a gain, a keyword but
    Moral, a slot effect (13.3); its Soul added to `found`."""
    if _grants_moral(eff):
        return False
    if eff.kind == "lay" and eff.on is not None and not eff.on.is_realm:
        if state.active_soul_at(eff.on) is not None:   # 13.3.3: on the Soul that stands on that slot
            found.add(eff.on)
        return True
    if eff.kind not in ("gain", "grant") or eff.to is None:
        return False
    ref = before.where.get(eff.to)
    if ref is not None:
        if ref.is_realm:
            return False
        found.add(ref)
    return True


def _player_field(state: State, part: Any, what: str) -> str | None:
    """The player's field a change is to: one set on the player, or the list or set held there that
    changed (a recruit appended, a slot woken)."""
    if isinstance(part, PlayerState):
        return what
    for ps in state.players.values():
        for name in (*SPIRAL_FIELDS, *UNREAD_PLAYER_FIELDS):
            if part is getattr(ps, name):
                return name
    return None


def _grants_moral(eff: Lasting) -> bool:
    """Whether a lasting effect gives Moral (an aura along the tree: it reaches the Underlings)."""
    value = eff.value.get("grant") if isinstance(eff.value, Mapping) else eff.value
    name = value if isinstance(value, str) else getattr(value, "name", None)
    return name == MORAL.name
