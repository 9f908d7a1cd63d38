"""The resolution context shared by the modules of part 2: the state being played, the trace,
the action queue, the Cascade, waiting triggers, and what the stored state does not keep
(how cards left the field, which optional effects are offered now).

Nothing here is a rule; the rules live in zones, effects, cascade, battle and turns.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from judge.engine.data.cards import CardDef, EffectDef
from judge.engine.data.errors import Violation
from judge.engine.play.ledger import Ledger
from judge.engine.play.sayings import Said, say
from judge.engine.play.trace import Trace
from judge.engine.position import board as stats
from judge.engine.position.action import Action
from judge.engine.position.outcome import Outcome
from judge.engine.position.state import SlotRef, State, opponent
from judge.engine.rules.moment import Window


@dataclass
class Target:
    """A target chosen when the effect was used (11.4.1), remembered by its slot (11.4.8)."""

    ref: SlotRef
    what: str                 # soul | spot | realm
    names_soul: bool          # a Soul target, or a Soul Spot whose target names the Soul (11.4.5)
    captured: bool = False    # the selector asks for a captured Soul (11.4.3)
    uid: int | None = None    # the card on the slot when chosen


@dataclass
class Entry:
    """One effect on the Cascade (or an Instant Effect while it resolves)."""

    id: int
    kind: str                 # event | ambush | activated | timing | instant
    card: str                 # the card whose effect it is (the Event, the Ambush, the Soul, the Realm)
    effect: EffectDef
    controller: str
    source_rank: int          # 13.6.3: the rank Unyielding compares with
    source_uid: int | None = None     # the Soul or Realm whose effect it is (11.6.1a)
    source_ref: SlotRef | None = None
    caster_uid: int | None = None     # Events (11.6.1b)
    ambusher_uid: int | None = None   # Ambushes (11.6.1c)
    targets: list[Target] = field(default_factory=list)
    context: dict[str, Any] = field(default_factory=dict)  # attacker/attacked uids, triggering entry id
    discard: list[str] = field(default_factory=list)       # chosen discards for the cost
    negated: bool = False
    negated_by: str = ""
    action: int | None = None         # the queued action that used it (None: it triggered)

    @property
    def target_uids(self) -> tuple[int, ...]:
        """The cards it targeted, as chosen (a Soul Spot target names the Soul that stood there)."""
        return tuple(t.uid for t in self.targets if t.uid is not None)

    @property
    def label(self) -> str:
        if self.kind in ("event", "ambush"):
            return self.card
        return f"{self.card}'s {self.effect.label}"


@dataclass
class Battle:
    """The battle being fought (battle.py): who attacks whom, by card and by slot (the attacker's slot
    follows it if it moves before the fight, battle.check)."""

    attacker: SlotRef
    attacker_uid: int
    target: SlotRef
    target_uid: int
    counts_as_attack: bool
    by_effect: bool = False


@dataclass
class Pending:
    """A Timing Effect that has triggered and waits to go on the Cascade or be offered (11.8)."""

    card_uid: int
    card: str
    effect: EffectDef
    controller: str
    source_rank: int
    mandatory: bool
    context: dict[str, Any]
    trigger_text: Said   # what triggered it, in words made from records
    granted_by: str | None = None   # a granted effect's granter (13.2.2: its rank is source_rank)


@dataclass(frozen=True)
class PlayMoment:
    """Where play stands beside the stored state, as one record: a response window open and who holds
    priority in it, the Cascade resolving (12.2: Timing Effects wait), a battle between its damage and its
    capture step (9.5.8), Instant Effects resolving one inside another (12.5.1). It changes only through
    `Game.enter`, which puts the one before back when the block ends, however it ends."""

    window_open: bool = False
    priority: str | None = None
    resolving: bool = False
    in_fight: bool = False
    instant_depth: int = 0


class Verbs(Protocol):
    """The verb table (verbs.py) as a response window uses it to take the queued answers; the
    driver (resolve.py) hands it to the Game."""

    def verify(self, state: State, action: Action, window: Window | None = None,
               board: stats.Board | None = None) -> list[Violation]: ...

    def responds(self, verb: str) -> bool: ...

    def respond(self, g: Game, action: Action) -> None: ...


@dataclass
class Game:
    state: State
    trace: Trace
    actions: tuple[Action, ...]
    verbs: Verbs
    on_illegal: str = "stop"
    pos: int = 0
    cascade: list[Entry] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    offered: list[Pending] = field(default_factory=list)
    left: dict[int, str] = field(default_factory=dict)     # uid -> "hand" | "exile" | "captured" | ...
    rejected: dict[str, Any] | None = None
    stopped: bool = False
    moment: PlayMoment = PlayMoment()   # where play stands: changed only through enter()
    battle: Battle | None = None  # the Battle being fought, if any
    next_entry: int = 1
    limit: int | None = None      # play stops when the queue reaches this many actions (state_after) ...
    paused: PlayMoment | None = None  # ... and keeps the moment it stopped at
    # (owner, name): sprung Ambushes resolving
    in_flight: list[tuple[str, str]] = field(default_factory=list)
    unnamed_discards: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    ledger: Ledger = field(default_factory=Ledger)   # facts for the answers (contract §7)
    _board: stats.Board | None = None
    _board_at: int = -1           # the state's board_version the board was derived at

    def __post_init__(self) -> None:
        self.trace.namer = self.holder_name

    # --- the moment of play: one record, one door
    @contextmanager
    def enter(self, moment: PlayMoment | None = None, **changes: Any) -> Iterator[PlayMoment]:
        """The block runs at `moment` (default: this one) with `changes`; the moment before comes back
        when it ends, also on an early exit, so no window, priority or fight is left behind."""
        before = self.moment
        self.moment = replace(moment or before, **changes)
        try:
            yield self.moment
        finally:
            self.moment = before

    @property
    def window_open(self) -> bool:
        return self.moment.window_open

    @property
    def priority(self) -> str | None:
        return self.moment.priority

    @property
    def resolving(self) -> bool:
        return self.moment.resolving

    @property
    def instant_depth(self) -> int:
        return self.moment.instant_depth

    @property
    def in_fight(self) -> bool:
        return self.moment.in_fight

    def at(self, ref: SlotRef | None) -> tuple[str, str]:
        """A card a step names, for its facts: its slot and the name of the card on it now ("" if none)."""
        holder = self.state.holder_at(ref) if ref is not None else None
        return (str(ref), holder.name if holder is not None else "")

    def holder_name(self, slot: str) -> str | None:
        """The name of the card on a slot now (a step's facts name the cards its changes touch)."""
        ref = SlotRef.parse(slot)
        holder = self.state.holder_at(ref) if ref is not None else None
        return holder.name if holder is not None else None

    # --- derived values, derived once per version of what they read (every change to it bumps
    # state.board_version: tracked.py)
    def board(self) -> stats.Board:
        version = self.state.board_version
        if self._board is None or self._board_at != version:
            # what changed since the last board: derive only what it touched where that is exact (a
            # derivation that raises leaves no board, so the next one derives the whole board)
            changes = self.state.changes()
            before, self._board = self._board, None
            self._board = stats.derive(self.state, before, changes)
            self._board_at = version
        return self._board

    def board_is_current(self, board: stats.Board | None) -> bool:
        """Whether `board` is the one derived for the state as it is now."""
        return board is not None and board is self._board and self._board_at == self.state.board_version

    # --- queue
    def peek(self) -> Action | None:
        """The next queued action, or None: the queue is done, play stopped, or it reached `limit` (play
        stops there, `paused` keeping the moment: the window the next action would be taken in)."""
        if self.limit is not None and self.pos >= self.limit:
            if self.paused is None:
                self.paused = self.moment
            self.stopped = True
            return None
        if self.stopped or self.pos >= len(self.actions):
            return None
        return self.actions[self.pos]

    def take(self) -> Action:
        action = self.actions[self.pos]
        self.pos += 1
        self.ledger.took(action.index, len(self.trace.steps) + 1)
        return action

    def actor(self, action: Action) -> str:
        return action.player(self.state)

    # --- naming, for the trace
    def card(self, name: str) -> CardDef:
        return self.state.known_card(name)

    def where(self, uid: int | None) -> SlotRef | None:
        return self.state.find_uid(uid) if uid is not None else None

    def name_at(self, ref: SlotRef) -> str:
        if ref.is_realm:
            realm = self.state.realm_at(ref)
            return f"{realm.name} ({ref})" if realm else f"the empty {ref}"
        soul = self.state.soul_at(ref)
        return f"{soul.name} ({ref})" if soul else f"the empty slot {ref}"

    def new_entry_id(self) -> int:
        n = self.next_entry
        self.next_entry += 1
        return n

    def other(self, player: str) -> str:
        return opponent(player)

    def end_duel(self, reason: str, winner: str, **words: object) -> None:
        """The duel ends (outcome.ENDINGS[reason]): the state holds its Outcome and the trace its win
        step, in the ending's own words and with its rules."""
        outcome = Outcome.of(reason, winner)
        self.state.outcome = outcome
        said = say("duel_ends", ending=outcome.says(**words), winner=winner, reason=reason)
        ended = self.trace.add("win", said, outcome.rules)
        self.ledger.ended = ended.n

    def is_active_uid(self, uid: int | None) -> bool:
        """A Soul or Realm with this uid is face up on the field (glossary/active)."""
        ref = self.where(uid)
        if ref is None:
            return False
        if ref.is_realm:
            realm = self.state.realm_at(ref)
            return realm is not None and realm.uid == uid and not realm.shattered
        soul = self.state.soul_at(ref)
        if soul is None or soul.captured:
            return False
        return soul.uid == uid or (soul.armament is not None and soul.armament.uid == uid)
