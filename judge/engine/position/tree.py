"""The chain of command, derived from the stored state: lines, Superiors and Underlings, and the
proactive slots of the Escalation Spiral.

Only active Souls count: empty slots and captured Souls are passed over (glossary/direct-superior,
glossary/underling). The tree of slots is the edition's `field.yaml` (interpretation/field-tree);
the number of turns the Spiral takes is the edition's `spiral_turns` (judge.engine.data.edition).
"""

from __future__ import annotations

from collections.abc import Callable

from judge.engine.data.edition import numbers
from judge.engine.position.state import SlotRef, State, opponent

# Rule ids cited for what this module derives.
RULES_LINE = ("glossary/line", "glossary/front-line", "5.2.2")
RULES_SUPERIOR = ("glossary/direct-superior", "glossary/superior", "5.1.3")
RULES_UNDERLING = ("glossary/underling", "glossary/direct-underling", "5.1.2")
RULES_SPIRAL = ("glossary/escalation-spiral", "glossary/proactive", "interpretation/escalation-spiral")


def _active(state: State, player: str, slot: str) -> bool:
    soul = state.players[player].slots[slot].soul
    return soul is not None and not soul.captured


def superiors(state: State, ref: SlotRef) -> list[SlotRef]:
    """Every active Soul on the way from `ref` back to the Leader, nearest first (glossary/superior)."""
    return [SlotRef(ref.player, s) for s in state.field.path_to_root(ref.slot) if _active(state, ref.player,
                                                                                          s)]


def direct_superior(state: State, ref: SlotRef) -> SlotRef | None:
    """The nearest active Soul towards the Leader (glossary/direct-superior, 5.1.3); None for the Leader."""
    ups = superiors(state, ref)
    return ups[0] if ups else None


def direct_underlings(state: State, ref: SlotRef) -> list[SlotRef]:
    """The nearest active Souls further out on `ref`'s branch (glossary/direct-underling)."""
    out: list[SlotRef] = []

    def walk(slot: str) -> None:
        for child in state.field.children(slot):
            if _active(state, ref.player, child):
                out.append(SlotRef(ref.player, child))
            else:
                walk(child)  # empty slots and captured Souls are passed over

    walk(ref.slot)
    return out


def underlings(state: State, ref: SlotRef, captured: bool = False) -> list[SlotRef]:
    """Every Soul further out on `ref`'s branch (glossary/underling): active ones, plus captured ones
    when `captured` is true ("captured Underlings")."""
    out = []
    for slot in state.field.descendants(ref.slot):
        soul = state.players[ref.player].slots[slot].soul
        if soul is not None and (not soul.captured or captured):
            out.append(SlotRef(ref.player, slot))
    return out


def line(state: State, ref: SlotRef) -> int | None:
    """1 for the Front Line (no active Underlings), else one behind the furthest-back Direct
    Underling (glossary/line). None for an empty slot or a captured Soul (it has no line)."""
    if not _active(state, ref.player, ref.slot):
        return None
    below = direct_underlings(state, ref)
    if not below:
        return 1
    return 1 + max(line(state, d) or 0 for d in below)


def lines(state: State, player: str) -> dict[str, int]:
    """Every active Soul's line for one player, computed in one pass from the leaves up."""
    out: dict[str, int] = {}

    def walk(slot: str) -> int:
        # the deepest line among active Souls in this subtree, counting the slot itself
        deepest = 0
        for child in state.field.children(slot):
            deepest = max(deepest, walk(child))
        if _active(state, player, slot):
            out[slot] = deepest + 1
            return deepest + 1
        return deepest

    walk(state.field.root)
    return out


def is_front_line(state: State, ref: SlotRef) -> bool:
    return line(state, ref) == 1


def shares_direct_superior(state: State, a: SlotRef, b: SlotRef) -> bool:
    """Both have the same Direct Superior (glossary/direct-superior)."""
    if a.player != b.player:
        return False
    da, db = direct_superior(state, a), direct_superior(state, b)
    return da is not None and da == db


def proactive_slots(state: State, player: str) -> set[str]:
    """The slots of `player` that may act (glossary/escalation-spiral, glossary/proactive;
    interpretation/escalation-spiral).

    With t = turns taken: t >= the edition's spiral_turns (4), every slot; otherwise every slot of rank
    below t - 1 plus the slot of rank t - 1 woken by choice (`proactive:`); t = 0, none. The altar counts
    as rank 3.
    """
    ps = state.players[player]
    t = ps.turns_taken
    fld = state.field
    if t >= numbers().spiral_turns:
        return set(fld.slots)
    woken = {s for s in fld.slots if fld.rank(s) < t - 1}
    woken |= {s for s in ps.proactive if fld.rank(s) <= t - 1}
    return woken


def is_proactive(state: State, ref: SlotRef) -> bool:
    if ref.is_realm:
        return True  # 10.5.2: Realms are not limited by the Escalation Spiral
    return ref.slot in proactive_slots(state, ref.player)


def is_under_frozen(state: State, ref: SlotRef, frozen: Callable[[SlotRef], bool]) -> SlotRef | None:
    """The first active Soul above `ref` that is Frozen (`frozen(slotref) -> bool`), or None."""
    for up in superiors(state, ref):
        if frozen(up):
            return up
    return None


def group(state: State, name: str | None, holder: SlotRef | None, controller: str) -> list[SlotRef]:
    """The active Souls a group reference names (contract §3 references; Taunt's radii), seen from
    the card on `holder` whose controller is `controller`: the one reading used by effects, Static
    Effects (stats) and Taunt (legality). Not a group: an empty list."""
    if name == "all_own_souls":
        return state.soul_refs(controller)
    if name == "other_own_souls":
        return [r for r in state.soul_refs(controller) if r != holder]
    if name == "all_opposing_souls":
        return state.soul_refs(opponent(controller))
    if name == "underlings":
        return underlings(state, holder) if holder is not None and not holder.is_realm else []
    if name == "same_direct_superior" and holder is not None:
        return [r for r in state.soul_refs(controller)
                if r != holder and shares_direct_superior(state, r, holder)]
    return []
