"""The verb table: every action verb of the contract (§4) in one place, each row one unit — the keys
it takes, the card type it plays, whether it is Fast, its words, whether it is offered among the legal
actions, and the functions that make it a rule (pokerkit's verify / do side by side):

    verify      verify_<verb>: what makes it illegal now (violations with rule ids); legality.py
                holds those of the contract's verbs, a verb of our own may keep it beside its row
    do          what taking it does, from the open game state (placing, cascade, battle, turns)
    respond     what taking it does inside a response window (the verbs that answer), else None
    candidates  every action of the verb the acting player could try now (moves.py)
    words       the verb in a judge's words, for the desk (a template: see `Verb.words`); the trace's
                words are the steps its `do` adds

    verify(state, action, window=None, board=None) -> list[Violation]
    can(state, action, window=None, board=None) -> bool      # not verify(...): one action, no list
    why_not(state, action, window=None, board=None) -> list[Reason]   # verify's refusals as records
    apply(g, action)                      # the verb's `do`
    legal_actions(state, window=None) -> list[Action]   # `action in legal_actions(...)` works
    refused_actions(state, window=None) -> [(Action, [Violation])]  # both players' candidates refused now
    action_of(data, index=0) -> Action    # a contract §4 dict as an Action

Adding a verb: one `Verb(...)` row below with its verify_<verb>, its do and its candidates (beside the
row, or where the mechanism lives), and their tests; the scenario loader, legality, resolution, the
lists of legal actions, the vocabulary and the desk's words all read this table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from judge.engine.data import budget
from judge.engine.data.errors import Reason, Violation
from judge.engine.play import battle, cascade, placing, turns
from judge.engine.play.game import Game
from judge.engine.play.sayings import say
from judge.engine.position.action import Action
from judge.engine.position.board import Board, derive
from judge.engine.position.state import PLAYERS, State
from judge.engine.rules import legality, moves
from judge.engine.rules import moment as checks
from judge.engine.rules.moment import Check, Window

Do = Callable[[Game, Action], None]

# what the verb's own key holds
VALUE_KINDS = ("card", "effect", "slot", "true")


@dataclass(frozen=True)
class Verb:
    """One action verb and everything the engine knows about it."""

    name: str
    value: str                        # one of VALUE_KINDS
    keys: tuple[str, ...]             # its other keys, besides by, targets and discard
    required: str | None              # the key it can't be without
    card_type: str | None             # the type of the card it plays (value "card")
    fast: bool                        # may be taken by a player who is not the turn player (glossary/fast)
    verify: Callable[[Check], None]
    do: Do
    candidates: Callable[[moves.Moment], Iterator[dict[str, Any]]]
    respond: Do | None = None         # taken inside a response window: it answers (12.1)
    realm_slot: bool = False          # its slot key may name a realm slot
    on_cascade: bool = False          # taking it puts an entry (its card or effect) on the Cascade (12.1)
    in_setup: bool = False            # may be taken in the recruiting rounds before turn 1 (glossary/setup)
    # Its words for the desk: a template over `by`, `value` (the verb's own key), its other keys,
    # `targets` (" at X and Y", or nothing) and `phase` ("the Combat Phase", "their recruiting round").
    # A slot key reads as the card on it ("B's Harold (C3)"); `:written` as written, `:slot` its slot
    # alone, `:own` with the owner's name even for the actor's own.
    words: str = ""
    in_answer: bool = True            # its words say what it answers when it follows an opponent's play
    named: str | None = None          # how an answer to it names it when it plays no card ("the attack")
    places: bool = False              # it puts its card on its `to` slot (the desk names it there after)
    offered: bool = True              # legal_actions() lists it (a verb only ever queued by hand: False)
    phase: str | None = None          # the phase the turn player takes it in, where it has one
    said: tuple[str, ...] = ()        # the verb as people say it, for reading a dispute in words

    def describe(self) -> dict[str, Any]:
        """The verb as data (vocabulary()): JSON-able, without the functions."""
        return {"verb": self.name, "value": self.value, "keys": list(self.keys), "required": self.required,
                "card_type": self.card_type, "fast": self.fast, "responds": self.respond is not None,
                "on_cascade": self.on_cascade, "in_setup": self.in_setup, "words": self.words,
                "offered": self.offered}


def _cast(g: Game, action: Action) -> None:
    cascade.cast(g, action)
    cascade.run_window(g, say("window_after_cast", card=action.value))


def _answering(respond: Do) -> Do:
    """From the open game state, a verb that answers puts its entry on the Cascade and a window opens."""
    def do(g: Game, action: Action) -> None:
        respond(g, action)
        cascade.run_window(g, say("window_after_answer"))
    return do


def _nothing(g: Game, action: Action) -> None:
    """Passing outside a window: verify refuses it, so nothing is ever done."""


def _end_phase(g: Game, action: Action) -> None:
    turns.end_phase(g)


TABLE: tuple[Verb, ...] = (
    # name, value kind, keys, required key, card type, Fast; then verify, do, candidates
    Verb("recruit", "card", ("to",), "to", "soul", False,
         legality.verify_recruit, placing.recruit, moves.recruit, in_setup=True,
         words="{by} recruits {value} to {to:written}", places=True,
         said=("recruit", "recruits", "recruited", "recruiting", "summons", "summoned"),
         phase="preparation"),
    Verb("cast", "card", ("caster",), None, "event", False,
         legality.verify_cast, _cast, moves.cast, on_cascade=True,
         words="{by} casts {value} with {caster}{targets}",
         said=("cast", "casts", "casting"), phase="preparation"),
    Verb("equip", "card", ("to",), "to", "armament", False,
         legality.verify_equip, placing.equip, moves.equip,
         words="{by} equips {value} to {to}",
         said=("equip", "equips", "equipped", "equipping", "attaches", "wielding", "wields"),
         phase="preparation"),
    Verb("invoke", "card", ("to",), "to", "realm", False,
         legality.verify_invoke, placing.invoke, moves.invoke, realm_slot=True,
         words="{by} invokes {value} on {to:written}", places=True,
         said=("invoke", "invokes", "invoked", "invoking"), phase="preparation"),
    Verb("set", "card", ("at",), "at", "ambush", False,
         legality.verify_set, placing.set_ambush, moves.set_ambush,
         words="{by} sets {value} face down under {at}",
         said=("set", "sets", "setting"), phase="emplacement"),
    Verb("spring", "card", ("at",), "at", "ambush", True,
         legality.verify_spring, _answering(cascade.spring), moves.spring, respond=cascade.spring,
         on_cascade=True, words="{by} springs {value} (set on {at:slot}){targets}",
         said=("spring", "springs", "sprang", "sprung", "springing", "flips", "reveals")),
    Verb("activate", "effect", ("card",), "card", None, True,
         legality.verify_activate, _answering(cascade.activate), moves.activate, respond=cascade.activate,
         on_cascade=True, words="{by} activates {value} of {card}{targets}",
         said=("activate", "activates", "activated", "activating")),
    Verb("use", "effect", ("card",), "card", None, True,
         legality.verify_use, _answering(cascade.use), moves.use, respond=cascade.use,
         on_cascade=True, in_setup=True, words="{by} uses {value} of {card}{targets}",
         said=("use", "uses", "using")),
    Verb("attack", "slot", ("target",), "target", None, False,
         legality.verify_attack, battle.declare, moves.attack,
         words="{value:own} attacks {target}", named="the attack",
         said=("attack", "attacks", "attacked", "attacking", "swings"), phase="combat"),
    Verb("pass", "true", (), None, None, True,
         legality.verify_pass, _nothing, moves.pass_, in_setup=True,
         words="{by} passes", in_answer=False,
         said=("pass", "passes", "passed", "passing")),
    Verb("end_phase", "true", (), None, None, False,
         legality.verify_end_phase, _end_phase, moves.end_phase, in_setup=True,
         words="{by} ends {phase}", in_answer=False,
         said=("end", "ends", "ended", "ending")),
)
VERBS: Mapping[str, Verb] = {v.name: v for v in TABLE}
NAMES: tuple[str, ...] = tuple(VERBS)


def verify(state: State, action: Action, window: Window | None = None,
           board: Board | None = None) -> list[Violation]:
    """Every reason `action` is not legal now (empty when it is legal)."""
    verb = VERBS[action.verb]
    return checks.run(verb.verify, verb.fast, state, action, window, board, in_setup=verb.in_setup)


def why_not(state: State, action: Action, window: Window | None = None,
            board: Board | None = None) -> list[Reason]:
    """Why `action` is not legal now, as reason records (errors.REASONS), one per violation of
    `verify`; empty when it is legal."""
    return [violation.record for violation in verify(state, action, window, board)]


def can(state: State, action: Action, window: Window | None = None, board: Board | None = None) -> bool:
    """Whether `action` is legal now: `verify` finds nothing against it. It checks that one action
    (`can(state, a) == (a in legal_actions(state))` without building the list)."""
    return not verify(state, action, window, board)


def apply(g: Game, action: Action) -> None:
    """Take `action` (verify has found it legal) from the open game state."""
    VERBS[action.verb].do(g, action)


def responds(verb: str) -> bool:
    """Whether `verb` is taken inside a response window as an answer."""
    return VERBS[verb].respond is not None


def respond(g: Game, action: Action) -> None:
    answer = VERBS[action.verb].respond
    if answer is None:
        raise ValueError(f"{action.verb} does not answer in a response window")
    answer(g, action)


def action_of(data: Mapping[str, Any], index: int = 0) -> Action:
    """A contract §4 dict (already valid) as an Action."""
    return Action.of(data, index, NAMES)


def checked_actions(state: State, window: Window | None = None,
                    players: tuple[str, ...] | None = None) -> Iterator[tuple[Action, list[Violation]]]:
    """Every candidate action of `players` (default: the player who may act), with concrete targets and
    `by`, in the table's order, each with every reason it is not legal now (none: it is legal)."""
    board = derive(state)
    for player in players or (checks.actor(state, window),):
        moment = moves.Moment(state, window, player, board, state.soul_refs(player))
        seen: set[str] = set()
        for verb in (v for v in TABLE if v.offered):
            for data in verb.candidates(moment):
                budget.check_time()  # candidates grow with hand × souls × target lists: bounded by the clock
                data = {**data, "by": player}
                key = repr(sorted(data.items(), key=lambda kv: kv[0]))
                if key in seen:
                    continue
                seen.add(key)
                action = action_of(data)
                yield action, checks.run(verb.verify, verb.fast, state, action, window, board,
                                         in_setup=verb.in_setup)


def legal_actions(state: State, window: Window | None = None) -> list[Action]:
    """Every legal action of the player who may act, with concrete targets and `by`, in the table's
    order."""
    return [action for action, why in checked_actions(state, window) if not why]


REFUSABLE = ("pass", "end_phase")   # verbs never refused in a way worth posing


def refused_actions(state: State, window: Window | None = None) -> list[tuple[Action, list[Violation]]]:
    """The candidate actions of both players that are not legal now, each with why (a dispute is often
    about an action that may not be taken: the desk offers them to queue, to be ruled on)."""
    return [(action, why) for action, why in checked_actions(state, window, PLAYERS)
            if why and action.verb not in REFUSABLE]
