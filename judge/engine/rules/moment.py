"""What every verb's check shares: the moment an action is checked in (`Window`, `Offer`, `actor`),
`Check` (collects the violations of one action, with the checks several verbs make: the card in
hand, own turn and phase, Fast timing, an own active Soul, proactive slots, rank, requirements,
conditions, targets, limits) and `run`, which runs one verb's check (legality.verify_<verb>).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.engine.data.cards import CardDef, EffectDef
from judge.engine.data.errors import Reason, Violation
from judge.engine.position import tree
from judge.engine.position.action import Action
from judge.engine.position.board import Board, derive
from judge.engine.position.conditions import failed_conditions
from judge.engine.position.state import SETUP, SlotRef, State
from judge.engine.position.targets import Source, choose_targets


@dataclass(frozen=True)
class Offer:
    """An optional Timing Effect offered now (11.8.4): its card's slot and the effect's label."""

    player: str
    card: SlotRef
    effect: str
    # a granted effect (13.2.1) is not among its card's printed ones; it targets with its granter's rank
    effect_def: EffectDef | None = field(default=None, compare=False)
    source_rank: int | None = field(default=None, compare=False)
    granted_by: str | None = field(default=None, compare=False)

    def source(self, card: CardDef) -> Source:
        """Who the offered effect counts as coming from (13.2.2: a granted one, from its granter)."""
        rank = card.rank if self.source_rank is None else self.source_rank
        name = f"{card.name}'s {self.effect} granted by {self.granted_by}" if self.granted_by else card.name
        return Source(self.player, name, rank, self.card, self.granted_by, card.type)


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

    def because(self, reason: Reason) -> None:
        """A refusal made from its reason record (its words and rules are the record's)."""
        self.out.append(Violation.because(reason))

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
            self.no(f"{card.name} is a {card.type}, not a{'n' if ctype[0] in 'aeiou' else ''} {ctype}",
                    *rules)
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
            self.no(f"{what} only in the {phase.capitalize()} Phase; this is the {state.phase.capitalize()} "
                    "Phase",
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
            self.no(f"{what}: in {state.turn_player}'s turn, {self.player} may only use Fast effects in a "
                    "response window", *rules, "12.1")
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
            holder = self.state.holder_at(ref)
            reason = Reason.of("not_proactive", slot_name=ref.slot, slot=str(ref), player=ref.player,
                               turn=ps.turns_taken, card=holder.name if holder else "", role=role,
                               also=(*rules, *tree.RULES_SPIRAL))
            text = (f"{ref.slot} is not a proactive slot in {ref.player}'s turn {ps.turns_taken} of the "
                    f"Escalation Spiral, so {self.label(ref)} can't act as the {role}")
            self.out.append(Violation(text, reason.rules, reason))

    def slot_rank(self, ref: SlotRef, card: CardDef, role: str, rules: tuple[str, ...]) -> None:
        rank = self.state.field.rank(ref.slot)
        if rank < card.rank:
            self.no(f"{card.name} is rank {card.rank} but {ref.slot} is a rank-{rank} slot; the {role}'s "
                    "slot must have at least the card's rank", *rules, "glossary/rank")

    def requirement(self, ref: SlotRef, card: CardDef, cond: Mapping[str, Any] | None, role: str,
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

    def targets(self, eff: EffectDef | None, source: Source) -> None:
        if eff is None:
            return
        given = self.action.target_refs(self.state) if "targets" in self.action.args else None
        _, problems, _ = choose_targets(self.board, eff, given, source)
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
    named = {2: ("glossary/second-line",), 3: ("glossary/third-line",)}.get(line or 0, ())
    return ("glossary/line", *named)


def moment_now(state: State, window: Window, ambusher: SlotRef) -> str:
    """10.4.6: the moment an Ambush that names one could answer now, in words: the effect on top of the
    Cascade and what it targets, or the attack just declared, or that there is none."""
    moment = window.moment if window.response else None
    if not moment:
        return ("no response window is open now" if not window.response
                else "nothing it could answer is on top of the Cascade now")
    def name(ref: SlotRef) -> str:
        soul = state.soul_at(ref)
        return f"{soul.name} ({ref})" if soul is not None else str(ref)
    subjects = [name(r) for r in moment.get("subjects") or []]
    whose = "its Ambusher " + name(ambusher)
    what = moment.get("what") or "the effect"
    if moment.get("trigger") == "attacked":
        said = f"{what} has just been declared"
    else:
        said = f"{what} is on top of the Cascade, targeting " + (
            " and ".join(subjects) if subjects else f"none of {ambusher.player}'s Souls")
    return said if ambusher in (moment.get("subjects") or []) else f"{said}, not {whose}"


# glossary/setup, glossary/recruit: before turn 1 only the recruiting rounds (interpretation/setup-rounds)
R_SETUP = ("glossary/setup", "glossary/recruit", "interpretation/setup-rounds")


def run(verify_verb: Callable[[Check], None], fast: bool, state: State, action: Action,
        window: Window | None = None, board: Board | None = None, in_setup: bool = False) -> list[Violation]:
    """Every reason `action` is not legal now (empty when it is legal): the duel must not be over,
    a verb that is not Fast is the turn player's, then the verb's own check (`verify_verb`)."""
    check = Check(state, action, window, board)
    if state.outcome is not None:
        over = state.outcome.refusal()
        check.no(over.text, *over.rules)
        return check.out
    if check.player != state.turn_player and not fast:
        # only Fast effects may be used in the opponent's turn, and only in a response window (12.1)
        code = "event_not_fast" if action.verb == "cast" else "verb_not_fast"
        check.because(Reason.of(code, player=check.player, turn_player=state.turn_player,
                                verb=action.verb.replace("_", " "), card=str(action.value)))
        return check.out
    if state.phase == SETUP and not in_setup:  # the verb table's `in_setup`
        check.no(f"in setup, before the first turn ({state.turn_player}'s recruiting round {state.round}), "
                 f"players only recruit Souls; {action.verb.replace('_', ' ')} waits for turn 1", *R_SETUP)
        return check.out
    verify_verb(check)
    # one sentence once: the same violation found twice (e.g. by two routes) is listed once
    return list(dict.fromkeys(check.out))
