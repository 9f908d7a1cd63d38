"""References in an effect (contract §3): what `self`, `caster`, `target2`, `all_own_souls`, … mean
while the effect resolves (`resolve_ref`; group references through tree.group, the reader Static
Effects and Taunt use too), and whether Unyielding protects a card from it (13.6.2, 13.6.7).
Targets are remembered by slot (11.4.8).
"""

from __future__ import annotations

from collections.abc import Callable

from judge.engine.data.errors import Reason
from judge.engine.data.keywords import UNYIELDING
from judge.engine.play.clauses import Series
from judge.engine.play.game import Entry, Game, Target
from judge.engine.play.sayings import Said, say
from judge.engine.position import tree
from judge.engine.position.state import SlotRef


def uid_ref(g: Game, uid: int | None) -> SlotRef | None:
    return g.where(uid) if uid is not None and g.is_active_uid(uid) else None


def target_named(entry: Entry, name: str) -> Target | None:
    """The effect's target a `do` reference names ("target", "target2", …), or None past the last."""
    index = int(name[6:] or 1) - 1
    return entry.targets[index] if index < len(entry.targets) else None


def resolve_ref(g: Game, entry: Entry, name: str, *,
                allow_captured: bool = False) -> list[tuple[SlotRef, bool]]:
    """The cards a reference in `do` means now, each with whether the effect targets it (so that
    Unyielding protects it, 13.6.2). Targets are remembered by slot (11.4.8)."""
    if name.startswith("target"):
        return _target_ref(g, entry, name, allow_captured)
    if name in ONE_CARD:
        ref = uid_ref(g, ONE_CARD[name](g, entry))
        return [(ref, False)] if ref else []
    return [(r, False) for r in tree.group(g.state, name, uid_ref(g, entry.source_uid), entry.controller)]


# the references that name one card by what it is to the effect: its uid now
ONE_CARD: dict[str, Callable[[Game, Entry], int | None]] = {
    "self": lambda g, entry: entry.source_uid,
    "wielder": lambda g, entry: entry.source_uid,
    "caster": lambda g, entry: entry.caster_uid if entry.caster_uid is not None
    else _answered_caster(g, entry),
    "ambusher": lambda g, entry: entry.ambusher_uid,
    "attacker": lambda g, entry: entry.context.get("attacker"),
    "attacked": lambda g, entry: entry.context.get("attacked"),
}


def _target_ref(g: Game, entry: Entry, name: str, allow_captured: bool) -> list[tuple[SlotRef, bool]]:
    """A target, remembered by its slot (11.4.8): whatever stands there now, if it still may be acted on."""
    state = g.state
    t = target_named(entry, name)
    if t is None:
        return []
    if t.ref.is_realm:
        realm = state.realm_at(t.ref)
        return [(t.ref, True)] if realm is not None and not realm.shattered else []
    soul = state.soul_at(t.ref)
    if soul is None:
        return []
    if soul.captured and not (t.captured or allow_captured):
        return []
    if t.uid is not None and soul.uid != t.uid:
        g.trace.add("effect", say("target_remembered_by_slot", effect=entry.label, card=soul.name,
                                  slot=str(t.ref)), ("11.4.8", "11.6.4"), cards=[(t.ref, soul.name)])
    return [(t.ref, t.names_soul)]


def protected(g: Game, entry: Entry, ref: SlotRef, targeted: bool) -> bool:
    """13.6.1/13.6.2/13.6.6: an Unyielding Soul is unaffected by its opponent's targeting and Instant
    Effects whose source has its rank or lower (checked again at resolution, 11.6.4)."""
    if ref.is_realm or not (targeted or entry.kind == "instant"):
        return False
    return g.board().unyielding_against(ref, entry.source_rank, entry.controller)


def protected_note(g: Game, entry: Entry, ref: SlotRef, targeted: bool) -> None:
    soul = g.state.soul(ref)
    rank = g.card(soul.name).rank
    reason = Reason.of("unyielding_now" if targeted else "unyielding_instant", card=soul.name, slot=str(ref),
                       rank=rank, effect=entry.label, source_rank=entry.source_rank)
    g.trace.add("nonevent", say("unyielding_kept_off", reason=reason), reason.rules, reasons=[reason],
                what="kept_off", of=entry.card)


def teleport_destination(entry: Entry, ref: SlotRef, to: str) -> SlotRef:
    """`to:` is a slot name, or a Soul Spot target chosen when the effect was used ("target2")."""
    if to.startswith("target"):
        t = target_named(entry, to)
        if t is not None:
            return t.ref
    return SlotRef(ref.player, to)


GROUP_SIDES = {"all_own_souls": "own", "other_own_souls": "own", "all_opposing_souls": "opposing"}


def refs_for(g: Game, entry: Entry, name: str, verb: str, *, allow_captured: bool = False) -> list[SlotRef]:
    found = resolve_ref(g, entry, name, allow_captured=allow_captured)
    if name in GROUP_SIDES:
        player = entry.controller if GROUP_SIDES[name] == "own" else g.other(entry.controller)
        passed = [r for r in g.state.soul_refs(player, active=False) if g.state.soul(r).captured]
        if passed:
            names = Series(tuple(g.name_at(r) for r in passed))
            said = say("captured_one_not_reached", effect=entry.label, cards=names) if len(passed) == 1 \
                else say("captured_ones_not_reached", effect=entry.label, cards=names)
            g.trace.add("effect", said, ("11.6.2",), cards=[g.at(r) for r in passed])
    if not found:
        # 11.4.8 for a target that is gone; 11.6.3 for any part with nothing left to act on
        is_target = name.startswith("target")
        which = (f"its target{' ' + name[6:] if name[6:] else ''} is no longer there" if is_target
                 else "no active card it names is there")
        reason = Reason.of("part_skipped", effect=entry.label, verb=verb, which=which, ref=name,
                           also=("11.4.8",) if is_target else ())
        g.trace.add("effect", say("part_skipped", effect=entry.label, reason=reason), reason.rules,
                    reasons=[reason])
        return []
    out = []
    for ref, targeted in found:
        if protected(g, entry, ref, targeted):
            protected_note(g, entry, ref, targeted)
            continue
        unprotected_note(g, entry, ref, targeted)
        out.append(ref)
    return out


def unprotected_note(g: Game, entry: Entry, ref: SlotRef, targeted: bool) -> None:
    """13.6.7: say why an Unyielding Soul is reached after all."""
    if ref.is_realm or not g.board().has_keyword(ref, UNYIELDING.name):
        return
    soul = g.state.soul(ref)
    rank = g.card(soul.name).rank
    why: Said
    if entry.controller == ref.player:
        why = say("unyielding_own_controller")
        rules: tuple[str, ...] = ("13.6.7", "13.6.7a")
    elif entry.source_rank > rank:
        why = say("unyielding_outranked", effect=entry.label, rank=entry.source_rank, card=soul.name,
                  card_rank=rank)
        rules = ("13.6.3", "13.6.7", "13.6.7e")
    elif not targeted:
        why = say("unyielding_not_targeted")
        rules = ("13.6.7", "13.6.7c")
    else:
        return
    g.trace.add("effect", say("unyielding_does_not_protect", card=soul.name, slot=str(ref), why=why), rules,
                cards=[(ref, soul.name)])


def _answered_caster(g: Game, entry: Entry) -> int | None:
    """interpretation/answered-caster: "the Caster" in an effect that has none of its own (an Ambush, a
    Timing Effect) is the Caster of the Event it answers, the entry whose moment triggered it."""
    wanted = entry.context.get("triggering_entry")
    answered = next((e for e in g.cascade if e.id == wanted), None)
    if answered is None or answered.caster_uid is None:
        return None
    ref = uid_ref(g, answered.caster_uid)
    if ref is not None:
        g.trace.add("effect", say("answered_caster", effect=entry.label, caster=g.name_at(ref),
                                  event=answered.card),
                    ("10.4.6", "interpretation/answered-caster"), cards=[g.at(ref)])
    return answered.caster_uid
