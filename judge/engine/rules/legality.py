"""Legality, with reasons: one `verify_<verb>` per action verb of the contract (§4), each filling
a `Check` (moment.py) with the violations (a sentence naming cards and slots, plus rule ids). The
verb table (verbs.py) names each verb's function and runs it (`verbs.verify` → `moment.run`); the
same functions refuse an illegal action and list the legal ones (pokerkit: verify / do). Taunt's
protection (`taunts_protecting`) is here too: it decides an Attack Target.

`window` describes the moment (see `Window`): None is the open game state, the turn player acting
in their phase outside a battle with no response window. Part 2 passes a Window while a response
window is open, with who holds priority, what is on top of the Cascade and which optional Timing
Effects are offered.
"""

from __future__ import annotations

from judge.engine.data.cards import CardDef
from judge.engine.data.edition import numbers
from judge.engine.data.errors import Reason, Violation
from judge.engine.data.field import line_label
from judge.engine.data.keywords import DUAL_WIELDING, FROZEN, RANGE, TAUNT, UNYIELDING, guards, restrictions
from judge.engine.position import tree
from judge.engine.position.board import Board
from judge.engine.position.state import SETUP, SlotRef, opponent
from judge.engine.position.targets import Source
from judge.engine.position.views import R_NEGATION, KeywordSource
from judge.engine.rules.moment import R_SETUP, Check, line_rules, moment_now

# --- the verbs ---------------------------------------------------------------------------------

def verify_recruit(c: Check) -> None:
    r = ("10.1.1", "glossary/recruit")
    card = c.card("soul", r)
    setup = c.state.phase == SETUP
    c.own_turn_phase(c.state.phase if setup else "preparation", f"{c.player} may recruit",
                     R_SETUP if setup else ("10.1.1", "5.3", "glossary/preparation-phase"))
    if card:
        c.in_hand(card, r)
    ref = c.slot_ref("to", r)
    if ref is None or card is None:
        return
    if ref.player != c.player or ref.is_realm:
        c.no(f"{ref} is not one of {c.player}'s soul slots", *r)
        return
    state = c.state
    standing = state.soul_at(ref)
    if standing is not None:
        blocked = " (a captured Soul blocks its slot)" if standing.captured else ""
        c.no(f"{ref} is not empty: {c.label(ref)} is there{blocked}", *r, "glossary/capture")
    c.slot_rank(ref, card, "recruited Soul", r)
    parent = state.field.parent(ref.slot)
    if parent is None or state.active_soul_at(SlotRef(ref.player, parent)) is None:
        where = f"{parent} holds no active Soul" if parent else "the altar is the Leader's"
        c.no(f"{ref.slot} is not directly under a slot holding an active Soul: {where}", *r)
    frozen = tree.is_under_frozen(state, ref, lambda up: c.board.has_keyword(up, FROZEN.name))
    if frozen is not None:
        c.no(f"{c.label(frozen)} is Frozen: no Soul can be recruited anywhere further out on its branch",
             "glossary/frozen", *r)
    made = state.players[c.player].recruits
    limit = numbers().recruits_per_turn
    if len(made) >= limit:
        c.because(_recruits_made(c, made, limit, setup))


def _recruits_made(c: Check, made: list[str], limit: int, setup: bool) -> Reason:
    """10.1.1: "one per turn" counts the recruits made this turn (this round in setup), also those of
    Souls that have left the field since; each is named where it stands, or as gone."""
    on_field = [s for s in c.state.soul_refs(c.player, active=False) if c.state.soul(s).recruited_this_turn]
    named, gone = [], []
    for name in made:
        here = next((s for s in on_field if c.state.soul(s).name == name), None)
        if here is not None:
            on_field.remove(here)
            named.append(c.label(here))
        else:
            gone.append(name)
            named.append(f"{name}, which has left the field since")
    counts = "; a recruit made counts even when its Soul is no longer on the field" if gone else ""
    if setup:
        return Reason.of("recruit_used_up_round", player=c.player, recruited=", ".join(named), gone=gone,
                         counts=counts)
    return Reason.of("recruit_used_up", player=c.player, recruited=", ".join(named), gone=gone, counts=counts,
                     per="one Soul" if limit == 1 else f"{limit} Souls")


def verify_cast(c: Check) -> None:
    r = ("10.2.1",)
    card = c.card("event", r)
    c.own_turn_phase("preparation", f"{c.player} may cast Events", ("10.2.1", "glossary/cast"))
    if card is None:
        return
    c.in_hand(card, ("10.2.1", "glossary/cast"))
    state = c.state
    if state.event_slot:
        c.because(Reason.of("event_slot_taken", event=state.event_slot, next=card.name))
    eff = card.main_effect
    source = Source.of(c.player, card)
    if "caster" in c.action.args:
        caster = c.slot_ref("caster", r)
        if caster is None:
            return
        before = len(c.out)
        _check_caster(c, caster, card)
        if len(c.out) == before and eff is not None:
            c.condition(caster, card, eff)
        c.targets(eff, source)
        return
    # no Caster given: the engine picks the first legal one (contract §4)
    casters = [ref for ref in state.soul_refs(c.player) if not _caster_problems(c, ref, card)]
    if not casters:
        c.no(f"none of {c.player}'s Souls may cast {card.name}: a Caster must be active, in the Front Line "
             f"and on a proactive slot of rank {card.rank} or more" + (" and meet the Caster requirement"
                                                               if card.caster else ""), "10.2.1", "10.2.2")
        return
    c.targets(eff, source)


def _caster_problems(c: Check, ref: SlotRef, card: CardDef) -> list[Violation]:
    probe = Check(c.state, c.action, c.window, c.board)
    _check_caster(probe, ref, card)
    eff = card.main_effect
    if not probe.out and eff is not None:
        probe.condition(ref, card, eff)
    return probe.out


def _check_caster(c: Check, ref: SlotRef, card: CardDef) -> None:
    r = ("10.2.1", "glossary/caster")
    if not c.own_active_soul(ref, "Caster", r):
        return
    if not c.board.is_front_line(ref):
        ranged = c.board.has_keyword(ref, RANGE.name)
        c.no(f"{c.label(ref)} stands in {line_label(c.board.line(ref))}; the Caster must stand in the "
             "Front Line"
             + ("; Range lets a Soul attack from the Second Line, not cast from there" if ranged else ""), *r,
             *line_rules(c.board.line(ref)), *(("glossary/range",) if ranged else ()))
    c.proactive(ref, "Caster", r)
    c.slot_rank(ref, card, "Caster", r)
    c.requirement(ref, card, card.caster, "Caster", ("10.2.2", "11.2.2"))


def verify_equip(c: Check) -> None:
    r = ("10.3.1",)
    card = c.card("armament", r)
    c.own_turn_phase("preparation", f"{c.player} may equip Armaments", r)
    if card:
        c.in_hand(card, ("10.3.1", "glossary/equip"))
    ref = c.slot_ref("to", r)
    if ref is None or card is None or not c.own_active_soul(ref, "Wielder", r):
        return
    c.proactive(ref, "Wielder", r)
    c.slot_rank(ref, card, "Wielder", r)
    soul = c.state.soul(ref)
    if soul.armament is not None:
        c.no(f"{c.label(ref)} already carries {soul.armament.name}; a Soul carries at most one Armament",
             "10.3.2", "glossary/armament")


def verify_invoke(c: Check) -> None:
    r = ("10.5.1",)
    card = c.card("realm", r)
    c.own_turn_phase("preparation", f"{c.player} may invoke Realms", r)
    if card:
        c.in_hand(card, r)
    ref = c.slot_ref("to", r)
    if ref is None or card is None:
        return
    if ref.player != c.player or not ref.is_realm:
        c.no(f"{ref} is not one of {c.player}'s realm slots", *r, "glossary/realm-slot")
        return
    realm = c.state.realm_at(ref)
    if realm is not None:
        why = f"the shattered {realm.name} blocks it for the rest of the duel" if realm.shattered else \
            f"{realm.name} is there"
        c.no(f"{ref} is not empty: {why}", *r, *(("10.5.4",) if realm.shattered else ()))
    rank = c.state.field.rank(ref.slot)
    if rank < card.rank:
        c.no(f"{card.name} is rank {card.rank} but {ref.slot} is a rank-{rank} realm slot", *r)


def verify_set(c: Check) -> None:
    r = ("10.4.1",)
    card = c.card("ambush", r)
    c.own_turn_phase("emplacement", f"{c.player} may set Ambushes", ("10.4.1", "glossary/emplacement-phase"))
    if card:
        c.in_hand(card, r)
    ref = c.slot_ref("at", r)
    if ref is None or card is None or not c.own_active_soul(ref, "Setter", r):
        return
    c.proactive(ref, "Setter", r)
    c.slot_rank(ref, card, "Setter", r)
    soul = c.state.soul(ref)
    most = numbers().ambushes_per_setter
    held = [f"{c.player}:{name}" for name, slot in c.state.players[c.player].slots.items()
            for amb in slot.ambushes if amb.setter == soul.uid]
    if len(held) >= most:
        at_a_time = "only one set Ambush" if most == 1 else f"at most {most} set Ambushes"
        c.no(f"{c.label(ref)} already controls a set Ambush at {', '.join(held)}; each Soul may control "
             f"{at_a_time} at a time", "10.4.2", "glossary/setter")


def verify_spring(c: Check) -> None:
    r = ("10.4.3",)
    ref = c.slot_ref("at", r)
    if ref is None:
        return
    name = c.action.value
    slot = c.state.players[ref.player].slots.get(ref.slot) if not ref.is_realm else None
    amb = next((a for a in (slot.ambushes if slot else []) if a.name.lower() == str(name).lower()), None)
    if amb is None:
        c.no(f"no Ambush {name} is set at {ref}", *r)
        return
    if amb.owner != c.player:
        c.no(f"the {amb.name} at {ref} is {amb.owner}'s; only its controller springs it", *r)
        return
    card = c.state.known_card(amb.name)
    c.fast_timing(f"{c.player} can't spring {amb.name} now", ("10.4.5", "glossary/fast"))
    if not c.own_active_soul(ref, "Ambusher", ("10.4.3", "glossary/ambusher")):
        return
    if not c.board.is_front_line(ref):
        c.no(f"{c.label(ref)} stands in line {c.board.line(ref)}; the Ambusher must stand in the Front Line",
             "10.4.3", "glossary/ambusher")
    c.requirement(ref, card, card.ambusher, "Ambusher", ("10.4.3", "11.2.2"))
    eff = card.main_effect
    if eff is None:
        return
    if eff.kind == "timing" and eff.trigger:
        moment = c.window.moment or {}
        subjects = moment.get("subjects") or []
        if not c.window.response or moment.get("trigger") != eff.trigger or ref not in subjects:
            c.because(Reason.of("ambush_moment_missing", ambush=amb.name,
                                moment=eff.trigger.replace("_", " "), now=moment_now(c.state, c.window, ref),
                                ambusher=str(ref)))
    c.condition(ref, card, eff)
    c.targets(eff, Source.of(c.player, card))


def verify_activate(c: Check) -> None:
    r = ("11.1.2", "glossary/activated-effect")
    ref = c.slot_ref("card", r)
    if ref is None:
        return
    state = c.state
    holder = state.realm_at(ref) if ref.is_realm else state.soul_at(ref)
    if holder is None or ref.player != c.player:
        c.no(f"{c.label(ref)} is not one of {c.player}'s cards", *r)
        return
    card = state.known_card(holder.name)
    eff = card.effect(str(c.action.value))
    if eff is None or eff.kind != "activated":
        names = ", ".join(e.label for e in card.effects if e.kind == "activated") or "none"
        c.no(f"{card.name} has no Activated Effect {c.action.value!r} (its Activated Effects: {names})", *r)
        return
    if (getattr(holder, "captured", False) or getattr(holder, "shattered", False)):
        c.no(f"{c.label(ref)} is not active; only active cards have effects", "glossary/active", *r)
        return
    if c.board.is_negated(holder.uid):
        c.because(Reason.of("effects_negated", card=card.name, slot=str(ref), also=R_NEGATION))
    if eff.fast:
        c.fast_timing(f"{card.name}'s {eff.label} is Fast", ("11.1.2", "glossary/fast"))
    else:
        c.own_turn_phase("preparation", f"{card.name}'s {eff.label} may be used", r)
    if not ref.is_realm:
        c.proactive(ref, "user of an Activated Effect", ("glossary/activated-effect", "glossary/proactive"))
    c.limit(holder.uid, card, eff)
    c.condition(ref, card, eff)
    c.targets(eff, Source.of(c.player, card, ref))


def verify_use(c: Check) -> None:
    r = ("11.8.4", "12.4.3")
    ref = c.slot_ref("card", r)
    if ref is None:
        return
    name = str(c.action.value).lower()
    offer = next((o for o in c.window.offered if o.card == ref and o.effect.lower() == name
                  and o.player == c.player), None)
    if offer is None:
        c.no(f"no optional Timing Effect {c.action.value!r} of {c.label(ref)} is offered to {c.player} now",
             *r)
        return
    if not c.window.response or c.window.priority != c.player:
        c.no(f"{c.player} does not hold priority in a response window", *r, "glossary/priority")
    holder = c.state.realm_at(ref) if ref.is_realm else c.state.active_soul_at(ref)
    if holder is None:
        c.no(f"{c.label(ref)} is no longer active, so its effect is no longer offered", "11.8.4")
        return
    card = c.state.known_card(holder.name)
    eff = offer.effect_def or card.effect(offer.effect)
    if eff is not None:
        c.limit(holder.uid, card, eff)
        c.targets(eff, offer.source(card))   # 13.2.2: a granted effect targets with its granter's rank


def verify_attack(c: Check) -> None:
    r = ("glossary/attack",)
    state, board = c.state, c.board
    c.own_turn_phase("combat", f"{c.player} may attack", ("glossary/attack", "glossary/combat-phase"))
    ref = c.slot_ref("value", r)
    target = c.slot_ref("target", ("glossary/attack-target",))
    if ref is None or not c.own_active_soul(ref, "attacker", r):
        return
    soul = state.soul(ref)
    view = board.souls[ref]
    line = board.line(ref)
    if line != 1 and not (line == 2 and view.has(RANGE.name)):
        extra = (" (Range allows the Second Line)" if line == 2
                 else " even with Range" if view.has(RANGE.name) else "")
        c.because(Reason.of("attacker_line", card=soul.name, slot=str(ref), line=line, extra=extra))
    c.proactive(ref, "attacker", ("glossary/attack", "glossary/proactive"))
    if soul.recruited_this_turn:
        c.because(Reason.of("recruited_this_turn", card=soul.name, slot=str(ref)))
    allowed = 2 if view.has(DUAL_WIELDING.name) else 1  # 13.4.2: two Dual Wielding still allow two attacks
    if soul.attacks_made >= allowed:
        dual = len(view.instances(DUAL_WIELDING.name))
        c.no(f"{c.label(ref)} has made {soul.attacks_made} attack{'s' if soul.attacks_made != 1 else ''} "
             f"this Combat Phase and may make {allowed}"
             + (" (Dual Wielding allows two" + (", and two instances still allow two" if dual > 1 else "")
                + ")" if dual else ""),
             "glossary/attack", *(("glossary/dual-wielding",) if dual else ()),
             *(("13.4.2",) if dual > 1 else ()))
    for record, restriction in restrictions():   # each keyword that forbids attacking (keywords.py)
        if view.has(record.name):
            c.no(f"{c.label(ref)} {restriction.declaring}", *restriction.declaring_rules)
    if target is not None:
        _check_attack_target(c, ref, target)


def _check_attack_target(c: Check, attacker: SlotRef, target: SlotRef) -> None:
    r = ("glossary/attack-target",)
    state, board = c.state, c.board
    if target.player != opponent(c.player):
        c.no(f"{c.label(target)} is not an opposing Soul or Realm", *r)
        return
    if target.is_realm:
        realm = state.realm_at(target)
        if realm is None:
            c.no(f"no active Realm stands on {target}", *r, "10.5.3")
        elif realm.shattered:
            c.because(Reason.of("attack_target_shattered", card=realm.name, slot=str(target)))
        return
    soul = state.soul_at(target)
    if soul is None or soul.captured:
        c.no(f"{'no Soul stands on ' + str(target) if soul is None else c.label(target) + ' is captured'}; "
             "the Attack Target must be an active Soul", *r)
        return
    if not board.is_front_line(target):
        c.because(Reason.of("attack_target_line", card=soul.name, slot=str(target), line=board.line(target),
                            line_name=line_label(board.line(target))))
        return
    view = board.souls[target]
    for record, guard in guards():   # each keyword that keeps its Soul from being chosen (keywords.py)
        if view.has(record.name) and guard.holds(view):
            c.no(f"{c.label(target)} {guard.declaring}", *r, *guard.rules)
            return
    for taunter, ks in taunts_protecting(board, target):
        # glossary/taunt: an attacker Unyielding against the Taunt's source ignores it
        if board.unyielding_against(attacker, ks.source_rank, ks.controller):
            continue
        radius = ("glossary/direct-superior",) if ks.keyword.value in (None, "same_direct_superior") else ()
        # 13.6.1: an Unyielding attacker is stopped only by a Taunt whose source outranks it
        higher = ("13.6.1", "13.6.3") if board.has_keyword(attacker, UNYIELDING.name) else ()
        shared = " (it shares the Taunt Soul's Direct Superior)" if radius else ""
        why = ""
        if higher:
            att_card = state.known_card(state.soul(attacker).name)
            why = (f"; {c.label(attacker)} is Unyielding, but the Taunt's source (rank {ks.source_rank}) "
                   f"outranks it (rank {att_card.rank}), so it does not ignore the Taunt")
        given = f" (from {ks.label})" if ks.kind != "printed" else ""
        c.because(Reason.of("taunt_protects", taunter=state.soul(taunter).name, taunter_slot=str(taunter),
                            card=soul.name, slot=str(target), given=given, shared=shared, why=why,
                            source=ks.label, source_rank=ks.source_rank, also=(*ks.rules, *radius, *higher)))
        return


def taunts_protecting(board: Board, target: SlotRef) -> list[tuple[SlotRef, KeywordSource]]:
    """The (Taunt Soul, its Taunt KeywordSource) pairs that protect `target` from attacks
    (glossary/taunt): the Taunt Soul stands in the Front Line and `target` is in its radius; a target
    with Taunt itself whose own rank is at least the protector's can still be attacked."""
    state = board.state
    out = []
    target_card = state.known_card(state.soul(target).name)
    target_taunts = board.souls[target].has(TAUNT.name)
    for ref, view in board.souls.items():
        if ref.player != target.player or ref == target or view.captured or not board.is_front_line(ref):
            continue
        for ks in view.instances(TAUNT.name):
            if target not in taunt_radius(board, ref, ks.keyword.value):
                continue
            if target_taunts and target_card.rank >= view.card.rank:
                continue  # the Souls' own ranks count, even when an Armament grants the Taunt
            out.append((ref, ks))
    return out


def taunt_radius(board: Board, ref: SlotRef, radius: str | None) -> list[SlotRef]:
    """The Souls a Taunt on `ref` protects (glossary/taunt): by default those sharing its Direct
    Superior."""
    return tree.group(board.state, radius or "same_direct_superior", ref, ref.player)


def verify_pass(c: Check) -> None:
    if not c.window.response:
        c.no(f"no response window is open for {c.player} to pass in; the turn player ends a phase with "
             "end_phase", "glossary/priority", "glossary/response-window")
    elif c.window.priority != c.player:
        c.no(f"{c.player} does not hold priority", "glossary/priority")


def verify_end_phase(c: Check) -> None:
    if c.player != c.state.turn_player:
        c.no(f"only the turn player ({c.state.turn_player}) ends a phase", "glossary/turn-player")
    elif c.window.response or c.window.in_battle:
        c.no("a phase can't end while a response window or a battle is open", "glossary/response-window")

