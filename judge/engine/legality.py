"""Legality, with reasons: one `verify_<verb>` per action verb of the contract (§4), each filling
a `Check` with the violations (a sentence naming cards and slots, plus rule ids). The verb table
(verbs.py) names each verb's function and runs it (`verbs.verify`); the same functions refuse an
illegal action and list the legal ones (pokerkit: verify / do).

`window` describes the moment (see `Window`): None is the open game state, the turn player acting
in their phase outside a battle with no response window. Part 2 passes a Window while a response
window is open, with who holds priority, what is on top of the Cascade and which optional Timing
Effects are offered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.engine import tree
from judge.engine.action import Action
from judge.engine.cards import CardDef, EffectDef
from judge.engine.conditions import failed_conditions
from judge.engine.errors import Violation
from judge.engine.field import line_label
from judge.engine.state import SETUP, SlotRef, State, opponent
from judge.engine.stats import R_NEGATION, Board, derive
from judge.engine.targets import Source, choose_targets


@dataclass(frozen=True)
class Offer:
    """An optional Timing Effect offered now (11.8.4): its card's slot and the effect's label."""

    player: str
    card: SlotRef
    effect: str


@dataclass(frozen=True)
class Window:
    """The moment an action is checked in.

    response: a response window is open (12.1, glossary/response-window); priority: who holds it.
    in_battle: a battle is running (Fast effects of your own turn only outside a battle, 10.4.5).
    moment: what the top of the Cascade answers, for Ambushes that name a moment (10.4.6):
      {"trigger": "targeted", "subjects": [SlotRef, ...], "controller": "B"}.
    offered: optional Timing Effects offered in this window (11.8.4).
    """

    response: bool = False
    priority: str | None = None
    in_battle: bool = False
    moment: Mapping[str, Any] | None = None
    offered: tuple[Offer, ...] = field(default_factory=tuple)


OPEN = Window()


def actor(state: State, window: Window | None) -> str:
    """The player who may act now: the priority holder in a response window, else the turn player."""
    if window is not None and window.response and window.priority:
        return window.priority
    return state.turn_player


class Check:
    """Collects violations for one action."""

    def __init__(self, state: State, action: Action, window: Window | None, board: Board | None) -> None:
        self.state = state
        self.action = action
        self.window = window or OPEN
        self.board = board or derive(state)
        self.player = action.player(state)
        self.out: list[Violation] = []

    def no(self, text: str, *rules: str) -> None:
        self.out.append(Violation(text, tuple(dict.fromkeys(rules))))

    def label(self, ref: SlotRef) -> str:
        soul = self.state.soul_at(ref)
        if soul is not None:
            return f"{soul.name} ({ref})"
        realm = self.state.realm_at(ref) if ref.is_realm else None
        return f"{realm.name} ({ref})" if realm else f"the empty slot {ref}"

    # --- shared checks
    def card(self, ctype: str, rules: tuple[str, ...]) -> CardDef | None:
        card = self.state.card(self.action.value)
        if card is None:
            self.no(f"there is no card named {self.action.value!r}", *rules)
            return None
        if card.type != ctype:
            self.no(f"{card.name} is a {card.type}, not a{'n' if ctype[0] in 'aeiou' else ''} {ctype}", *rules)
            return None
        return card

    def in_hand(self, card: CardDef, rules: tuple[str, ...]) -> None:
        ps = self.state.players[self.player]
        if card.name not in ps.hand and ps.hand_hidden == 0:
            self.no(f"{card.name} is not in {self.player}'s hand", *rules)

    def own_turn_phase(self, phase: str, what: str, rules: tuple[str, ...]) -> None:
        state = self.state
        if state.turn_player != self.player:
            self.no(f"{what} only in their own turn: it is {state.turn_player}'s turn", *rules)
        elif state.phase != phase:
            self.no(f"{what} only in the {phase.capitalize()} Phase; this is the {state.phase.capitalize()} Phase",
                    *rules)
        elif self.window.response or self.window.in_battle:
            self.no(f"{what} only outside response windows and battles (it is not Fast)", *rules,
                    "glossary/fast")

    def fast_timing(self, what: str, rules: tuple[str, ...]) -> None:
        """10.4.5 / glossary/fast: in your own Preparation or Combat Phase outside a battle, or in any
        response window while you hold priority; never in the Emplacement Phase."""
        w, state = self.window, self.state
        if state.phase == "emplacement":
            self.no(f"{what}: no Fast effects are possible in the Emplacement Phase", *rules,
                    "glossary/emplacement-phase")
        elif w.response:
            if w.priority != self.player:
                self.no(f"{what}: {self.player} does not hold priority in this response window", *rules,
                        "glossary/priority")
        elif state.turn_player != self.player:
            self.no(f"{what}: in {state.turn_player}'s turn, {self.player} may only use Fast effects in a response "
                    "window", *rules, "12.1")
        elif w.in_battle:
            self.no(f"{what}: in your own turn, only outside a battle or in a response window", *rules)

    def slot_ref(self, key: str, rules: tuple[str, ...]) -> SlotRef | None:
        ref = self.action.ref(key, self.state)
        if ref is None:
            shown = self.action.value if key == "value" else self.action.args.get(key)
            self.no(f"{shown!r} is not a slot", *rules)
        return ref

    def own_active_soul(self, ref: SlotRef, role: str, rules: tuple[str, ...]) -> bool:
        if ref.player != self.player:
            self.no(f"{self.label(ref)} is not one of {self.player}'s Souls; the {role} must be", *rules)
            return False
        if ref.is_realm:
            self.no(f"{ref} is a realm slot; the {role} must be a Soul", *rules)
            return False
        soul = self.state.soul_at(ref)
        if soul is None:
            self.no(f"no Soul stands on {ref} to be the {role}", *rules)
            return False
        if soul.captured:
            self.no(f"{soul.name} ({ref}) is captured, so not active; the {role} must be active", *rules,
                    "glossary/active")
            return False
        return True

    def proactive(self, ref: SlotRef, role: str, rules: tuple[str, ...]) -> None:
        if not self.board.is_proactive(ref):
            ps = self.state.players[ref.player]
            self.no(f"{ref.slot} is not a proactive slot in {ref.player}'s turn {ps.turns_taken} of the Escalation "
                    f"Spiral, so {self.label(ref)} can't act as the {role}", *rules, *tree.RULES_SPIRAL)

    def slot_rank(self, ref: SlotRef, card: CardDef, role: str, rules: tuple[str, ...]) -> None:
        rank = self.state.field.rank(ref.slot)
        if rank < card.rank:
            self.no(f"{card.name} is rank {card.rank} but {ref.slot} is a rank-{rank} slot; the {role}'s slot "
                    f"must have at least the card's rank", *rules, "glossary/rank")

    def requirement(self, ref: SlotRef, card: CardDef, cond: Mapping | None, role: str,
                    rules: tuple[str, ...]) -> None:
        if cond:
            failed = failed_conditions(self.board, ref, cond)
            if failed:
                self.no(f"{card.name} names its {role}, and {self.label(ref)} {' and '.join(failed)}", *rules)

    def condition(self, ref: SlotRef, card: CardDef, eff: EffectDef) -> None:
        # 11.3.1: a condition is checked when the effect is used
        if eff.condition:
            failed = failed_conditions(self.board, ref, eff.condition)
            if failed:
                self.no(f"the condition of {card.name}'s {eff.label} does not hold: {self.label(ref)} "
                        f"{' and '.join(failed)}", "11.3.1",
                        *(line_rules(self.board.line(ref)) if "line" in eff.condition else ()))

    def targets(self, eff: EffectDef | None, source: Source, self_ref: SlotRef | None) -> None:
        if eff is None:
            return
        given = self.action.target_refs(self.state) if "targets" in self.action.args else None
        _, problems, _ = choose_targets(self.board, eff, given, source, self_ref)
        self.out.extend(problems)

    def limit(self, uid: int, card: CardDef, eff: EffectDef) -> None:
        if eff.limit is None:
            return
        this_turn, this_game = self.state.uses(uid, eff.label)
        if eff.limit.per_turn is not None and this_turn >= eff.limit.per_turn:
            self.no(f"{card.name}'s {eff.label} is {eff.limit.text}: already used {this_turn} time"
                    f"{'s' if this_turn != 1 else ''} this turn", "11.7.1", "11.7.2", "glossary/limit")
        if eff.limit.per_game is not None and this_game >= eff.limit.per_game:
            self.no(f"{card.name}'s {eff.label} is {eff.limit.text}: already used {this_game} time"
                    f"{'s' if this_game != 1 else ''} this duel", "11.7.1", "11.7.2", "glossary/limit")


def line_rules(line: int | None) -> tuple[str, ...]:
    """The glossary entries that name a line (glossary/line, /second-line, /third-line)."""
    return ("glossary/line", *({2: ("glossary/second-line",), 3: ("glossary/third-line",)}.get(line or 0, ())))


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
    if state.soul_at(ref) is not None:
        blocked = " (a captured Soul blocks its slot)" if state.soul_at(ref).captured else ""
        c.no(f"{ref} is not empty: {c.label(ref)} is there{blocked}", *r, "glossary/capture")
    c.slot_rank(ref, card, "recruited Soul", r)
    parent = state.field.parent(ref.slot)
    if parent is None or state.active_soul_at(SlotRef(ref.player, parent)) is None:
        where = f"{parent} holds no active Soul" if parent else "the altar is the Leader's"
        c.no(f"{ref.slot} is not directly under a slot holding an active Soul: {where}", *r)
    frozen = tree.is_under_frozen(state, ref, lambda up: c.board.has_keyword(up, "frozen"))
    if frozen is not None:
        c.no(f"{c.label(frozen)} is Frozen: no Soul can be recruited anywhere further out on its branch",
             "glossary/frozen", *r)
    already = [s for s in state.soul_refs(c.player, active=False) if state.soul_at(s).recruited_this_turn]
    if already and setup:
        c.no(f"{c.player} has already recruited in this recruiting round of setup ({c.label(already[0])}); one "
             "Soul per round", *R_SETUP)
    elif already:
        c.no(f"{c.player} has already recruited this turn ({c.label(already[0])}); one Soul per turn",
             "10.1.1", "5.3")


def verify_cast(c: Check) -> None:
    r = ("10.2.1",)
    card = c.card("event", r)
    c.own_turn_phase("preparation", f"{c.player} may cast Events", ("10.2.1", "glossary/cast"))
    if card is None:
        return
    c.in_hand(card, ("10.2.1", "glossary/cast"))
    state = c.state
    if state.event_slot:
        c.no(f"{state.event_slot} still lies on the event slot; only one Event fits there", "10.2.3",
             "glossary/event-slot")
    eff = card.main_effect
    source = Source(c.player, card.name, card.rank)
    if "caster" in c.action.args:
        caster = c.slot_ref("caster", r)
        if caster is None:
            return
        before = len(c.out)
        _check_caster(c, caster, card)
        if len(c.out) == before and eff is not None:
            c.condition(caster, card, eff)
        c.targets(eff, source, None)
        return
    # no Caster given: the engine picks the first legal one (contract §4)
    casters = [ref for ref in state.soul_refs(c.player) if not _caster_problems(c, ref, card)]
    if not casters:
        c.no(f"none of {c.player}'s Souls may cast {card.name}: a Caster must be active, in the Front Line and on "
             f"a proactive slot of rank {card.rank} or more" + (" and meet the Caster requirement"
                                                               if card.caster else ""), "10.2.1", "10.2.2")
        return
    c.targets(eff, source, None)


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
        ranged = c.board.has_keyword(ref, "range")
        c.no(f"{c.label(ref)} stands in {line_label(c.board.line(ref))}; the Caster must stand in the Front Line"
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
    soul = c.state.soul_at(ref)
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
    soul = c.state.soul_at(ref)
    for name, slot in c.state.players[c.player].slots.items():
        if any(amb.setter == soul.uid for amb in slot.ambushes):
            c.no(f"{c.label(ref)} already controls a set Ambush at {c.player}:{name}; each Soul may control only "
                 "one set Ambush at a time", "10.4.2", "glossary/setter")


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
    card = c.state.card(amb.name)
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
            c.no(f"{amb.name} names a moment ({eff.trigger.replace('_', ' ')}): it can only be sprung in answer to "
                 f"that moment, while the effect it answers is on top of the Cascade", "10.4.6", "12.6.1")
    c.condition(ref, card, eff)
    c.targets(eff, Source(c.player, card.name, card.rank), ref)


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
    card = state.card(holder.name)
    eff = card.effect(str(c.action.value))
    if eff is None or eff.kind != "activated":
        names = ", ".join(e.label for e in card.effects if e.kind == "activated") or "none"
        c.no(f"{card.name} has no Activated Effect {c.action.value!r} (its Activated Effects: {names})", *r)
        return
    if (getattr(holder, "captured", False) or getattr(holder, "shattered", False)):
        c.no(f"{c.label(ref)} is not active; only active cards have effects", "glossary/active", *r)
        return
    if c.board.is_negated(holder.uid):
        c.no(f"{card.name}'s effects are negated by an effect in force", *R_NEGATION)
    if eff.fast:
        c.fast_timing(f"{card.name}'s {eff.label} is Fast", ("11.1.2", "glossary/fast"))
    else:
        c.own_turn_phase("preparation", f"{card.name}'s {eff.label} may be used", r)
    if not ref.is_realm:
        c.proactive(ref, "user of an Activated Effect", ("glossary/activated-effect", "glossary/proactive"))
    c.limit(holder.uid, card, eff)
    c.condition(ref, card, eff)
    c.targets(eff, Source(c.player, card.name, card.rank, ref), ref)


def verify_use(c: Check) -> None:
    r = ("11.8.4", "12.4.3")
    ref = c.slot_ref("card", r)
    if ref is None:
        return
    name = str(c.action.value).lower()
    offer = next((o for o in c.window.offered if o.card == ref and o.effect.lower() == name
                  and o.player == c.player), None)
    if offer is None:
        c.no(f"no optional Timing Effect {c.action.value!r} of {c.label(ref)} is offered to {c.player} now", *r)
        return
    if not c.window.response or c.window.priority != c.player:
        c.no(f"{c.player} does not hold priority in a response window", *r, "glossary/priority")
    holder = c.state.realm_at(ref) if ref.is_realm else c.state.active_soul_at(ref)
    if holder is None:
        c.no(f"{c.label(ref)} is no longer active, so its effect is no longer offered", "11.8.4")
        return
    card = c.state.card(holder.name)
    eff = card.effect(offer.effect)
    if eff is not None:
        c.limit(holder.uid, card, eff)
        c.targets(eff, Source(c.player, card.name, card.rank, ref), ref)


def verify_attack(c: Check) -> None:
    r = ("glossary/attack",)
    state, board = c.state, c.board
    c.own_turn_phase("combat", f"{c.player} may attack", ("glossary/attack", "glossary/combat-phase"))
    ref = c.slot_ref("value", r)
    target = c.slot_ref("target", ("glossary/attack-target",))
    if ref is None or not c.own_active_soul(ref, "attacker", r):
        return
    soul = state.soul_at(ref)
    view = board.souls[ref]
    line = board.line(ref)
    if line != 1 and not (line == 2 and view.has("range")):
        extra = " (Range allows the Second Line)" if line == 2 else (" even with Range" if view.has("range") else "")
        c.no(f"{c.label(ref)} stands in line {line}; a Soul attacks from the Front Line{extra}",
             "glossary/attack", "glossary/range", "9.1.1")
    c.proactive(ref, "attacker", ("glossary/attack", "glossary/proactive"))
    if soul.recruited_this_turn:
        c.no(f"{c.label(ref)} was recruited this turn; a recruited Soul may attack only in a later turn",
             "glossary/attack", "glossary/recruit")
    allowed = 2 if view.has("dual_wielding") else 1  # 13.4.2: two Dual Wielding still allow two attacks
    if soul.attacks_made >= allowed:
        dual = len(view.instances("dual_wielding"))
        c.no(f"{c.label(ref)} has made {soul.attacks_made} attack{'s' if soul.attacks_made != 1 else ''} this "
             f"Combat Phase and may make {allowed}"
             + (" (Dual Wielding allows two" + (", and two instances still allow two" if dual > 1 else "") + ")"
                if dual else ""),
             "glossary/attack", *(("glossary/dual-wielding",) if dual else ()), *(("13.4.2",) if dual > 1 else ()))
    if view.has("frozen"):
        c.no(f"{c.label(ref)} is Frozen and can't attack", "glossary/frozen", "glossary/restriction")
    if view.has("cannot_attack"):
        c.no(f"{c.label(ref)} can't attack: a restriction is in force", "glossary/restriction")
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
        if realm is None or realm.shattered:
            c.no(f"no active Realm stands on {target}", *r, "10.5.3")
        return
    soul = state.soul_at(target)
    if soul is None or soul.captured:
        c.no(f"{'no Soul stands on ' + str(target) if soul is None else c.label(target) + ' is captured'}; "
             "the Attack Target must be an active Soul", *r)
        return
    if not board.is_front_line(target):
        c.no(f"{c.label(target)} stands in {line_label(board.line(target))}; only Souls in the Front Line can be "
             "attacked (glossary Attack Target)",
             *r, "glossary/front-line")
        return
    for taunter, ks in taunts_protecting(board, target):
        # glossary/taunt: an attacker Unyielding against the Taunt's source ignores it
        if board.unyielding_against(attacker, ks.source_rank, ks.controller):
            continue
        radius = ("glossary/direct-superior",) if ks.keyword.value in (None, "same_direct_superior") else ()
        # 13.6.1: an Unyielding attacker is stopped only by a Taunt whose source outranks it
        higher = ("13.6.1", "13.6.3") if board.has_keyword(attacker, "unyielding") else ()
        shared = " (it shares the Taunt Soul's Direct Superior)" if radius else ""
        why = ""
        if higher:
            att_card = state.card(state.soul_at(attacker).name)
            why = (f"; {c.label(attacker)} is Unyielding, but the Taunt's source (rank {ks.source_rank}) outranks "
                   f"it (rank {att_card.rank}), so it does not ignore the Taunt")
        given = f" (from {ks.label})" if ks.kind != "printed" else ""
        c.no(f"{c.label(taunter)} has Taunt{given} and stands in the Front Line: {c.label(target)} is in its "
             f"radius{shared} "
             f"and can't be chosen as Attack Target{why}", "glossary/taunt", "glossary/attack-target", *ks.rules,
             *radius, *higher)
        return


def taunts_protecting(board: Board, target: SlotRef) -> list[tuple[SlotRef, Any]]:
    """The (Taunt Soul, its Taunt KeywordSource) pairs that protect `target` from attacks
    (glossary/taunt): the Taunt Soul stands in the Front Line and `target` is in its radius; a target
    with Taunt itself whose own rank is at least the protector's can still be attacked."""
    state = board.state
    out = []
    target_card = state.card(state.soul_at(target).name)
    target_taunts = board.souls[target].has("taunt")
    for ref, view in board.souls.items():
        if ref.player != target.player or ref == target or view.captured or not board.is_front_line(ref):
            continue
        for ks in view.instances("taunt"):
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


# glossary/setup, glossary/recruit: before turn 1 only the recruiting rounds; Reinforcement is used in them
# (glossary/reinforcement), so its window's use and pass are allowed too (the verb table's `in_setup`,
# interpretation/setup-rounds)
R_SETUP = ("glossary/setup", "glossary/recruit", "interpretation/setup-rounds")


def run(verify_verb: Callable[[Check], None], fast: bool, state: State, action: Action,
        window: Window | None = None, board: Board | None = None, in_setup: bool = False) -> list[Violation]:
    """Every reason `action` is not legal now (empty when it is legal): the duel must not be over,
    a verb that is not Fast is the turn player's, then the verb's own check (`verify_verb`)."""
    check = Check(state, action, window, board)
    if state.winner:
        check.no(f"the duel is over: {state.winner} has won", "glossary/leader")
        return check.out
    if check.player != state.turn_player and not fast:
        check.no(f"it is {state.turn_player}'s turn; {check.player} may only act in a response window",
                 "glossary/turn-player", "glossary/response-window")
        return check.out
    if state.phase == SETUP and not in_setup:
        check.no(f"in setup, before the first turn ({state.turn_player}'s recruiting round {state.round}), players "
                 f"only recruit Souls; {action.verb.replace('_', ' ')} waits for turn 1", *R_SETUP)
        return check.out
    verify_verb(check)
    # one sentence once: the same violation found twice (e.g. by two routes) is listed once
    return list(dict.fromkeys(check.out))
