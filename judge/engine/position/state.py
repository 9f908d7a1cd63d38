"""The stored state: only what the rules can't derive (python-chess: store little, derive the rest).

Cards on slots (with damage, captured, Armament, Ambushes, recruited this turn, attacks made),
realms, hand, deck, Elysium, Exile, lasting and slot effects with their source and duration,
limits used, the turn player, the phase and the turns taken. Lines, values, keywords in force,
protections and legal actions are computed on request (tree.py, board.py, legality.py).

Every card put on the field gets a fresh uid from `State.new_uid()` (15.5.1: a card that leaves
and comes back is a new card). Lasting effects draw their `seq` from the same counter, so "newer"
(13.5.2) compares across cards and lasting effects.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from judge.engine.data.cards import CardDef, Keyword, Library
from judge.engine.data.field import Field, load_field
from judge.engine.data.parts import PARTS
from judge.engine.position.outcome import Outcome
from judge.engine.position.tracked import Tracked

PLAYERS = ("A", "B")
PHASES = ("preparation", "combat", "emplacement")
# glossary/setup: before turn 1 there are recruiting rounds (how many each player has: edition numbers)
SETUP = "setup"


def opponent(player: str) -> str:
    return "B" if player == "A" else "A"


@dataclass(frozen=True, order=True)
class SlotRef:
    """A slot of one player: `A:C3`, `B:altar`, `B:realm2`."""

    player: str
    slot: str

    def __str__(self) -> str:
        return f"{self.player}:{self.slot}"

    @classmethod
    def parse(cls, text: object, default_player: str | None = None,
              fld: Field | None = None) -> SlotRef | None:
        """`A:C3` or (with a default player) `C3`; slot names normalised. None when not a slot."""
        if not isinstance(text, str):
            return None
        fld = fld or load_field()
        written, sep, name = text.strip().partition(":")
        if not sep:
            written, name = default_player or "", text.strip()
        player = written.strip().upper()
        if player not in PLAYERS:
            return None
        slot = fld.normalize(name)
        if slot is None:
            return None
        return cls(player, slot)

    @property
    def is_realm(self) -> bool:
        return load_field().is_realm_slot(self.slot)


@dataclass
class Armament(Tracked):
    uid: int
    name: str


@dataclass
class Ambush(Tracked):
    QUIET = frozenset({"uid", "name", "owner", "setter"})   # derived values never read Ambushes

    uid: int
    name: str
    owner: str
    setter: int | None = None     # the Setter's uid; None: the Setter left the field (10.4.2)


@dataclass
class Soul(Tracked):
    QUIET = frozenset({"recruited_this_turn", "attacks_made"})   # what derived values never read

    uid: int
    name: str
    owner: str
    damage: int = 0
    captured: bool = False
    armament: Armament | None = None
    recruited_this_turn: bool = False
    attacks_made: int = 0


@dataclass
class Slot(Tracked):
    QUIET = frozenset({"ambushes"})

    soul: Soul | None = None
    ambushes: list[Ambush] = field(default_factory=list)


@dataclass
class Realm(Tracked):
    uid: int
    name: str
    owner: str
    damage: int = 0
    shattered: bool = False


@dataclass
class PlayerState(Tracked):
    QUIET = frozenset({"hand", "hand_hidden", "deck", "deck_hidden", "elysium", "exile",
                       "decked_out_turns"})

    slots: dict[str, Slot]
    realms: dict[str, Realm | None]
    hand: list[str] = field(default_factory=list)
    hand_hidden: int = 0
    deck: list[str] = field(default_factory=list)
    deck_hidden: int = 0
    elysium: list[str] = field(default_factory=list)
    exile: list[str] = field(default_factory=list)
    turns_taken: int = 5
    proactive: set[str] = field(default_factory=set)
    decked_out_turns: int | None = None
    # 10.1.1: the Souls this player recruited this turn (this recruiting round in setup), in order,
    # also those that have left the field since: "one per turn" counts recruits, not Souls still there
    recruits: list[str] = field(default_factory=list)

    @classmethod
    def empty(cls, fld: Field | None = None) -> PlayerState:
        fld = fld or load_field()
        return cls(slots={s: Slot() for s in fld.slots}, realms={r: None for r in fld.realm_slots})

    @property
    def hand_count(self) -> int:
        return len(self.hand) + self.hand_hidden

    @property
    def deck_count(self) -> int:
        return len(self.deck) + self.deck_hidden


# the effect parts that leave an effect in force (13.3), as state.lasting records them
LASTING_KINDS = tuple(key for key, part in PARTS.items() if part.LASTING)


@dataclass
class Lasting(Tracked):
    """An effect in force (13.3): on a card (by uid) or laid on a slot (13.3.3); its kind is one of
    LASTING_KINDS, the effect parts that leave something in force."""

    kind: str                     # "gain" | "grant" | "lay" | "negate"
    value: Any                    # {"atk": 5, ...} | Keyword | lay payload ("frozen", {"gain": …}) | None
    to: int | None                # card uid (gain/grant/negate); a card that leaves loses it (13.3.2)
    on: SlotRef | None            # slot (lay, 13.3.3)
    until: str                    # end_of_turn | end_of_opponents_next_turn | permanently
    controller: str
    source: str                   # the source's name as written (a card name or a slot reference)
    source_uid: int | None
    source_rank: int
    started_turn: int
    seq: int                      # from State.new_uid(): order of creation (13.5.2: the newer wins)


@dataclass
class State(Tracked):
    # what derived values never read (tracked.py): changing it bumps `version`, not `board_version`
    QUIET = frozenset({"turn_player", "phase", "turn", "used", "event_slot", "outcome", "next_uid", "round"})

    turn_player: str
    phase: str
    turn: int
    players: dict[str, PlayerState]
    lasting: list[Lasting] = field(default_factory=list)
    used: dict[tuple[int, str], list[int]] = field(default_factory=dict)  # (uid, effect) -> [turn, game]
    event_slot: str | None = None
    outcome: Outcome | None = None    # how the duel ended (outcome.py); None while it goes on
    next_uid: int = 1
    round: int = 0                # phase setup: the turn player's recruiting round (1..4 for A, 1..3 for B)
    library: Library = field(default_factory=Library, repr=False, compare=False)

    def player_of_turn(self, turn: int) -> str:
        """Whose turn number `turn` is (or was, or will be): turns alternate between the players."""
        return self.turn_player if (self.turn - turn) % 2 == 0 else opponent(self.turn_player)

    def last_turn(self, effect: Lasting) -> int | None:
        """13.3.1: the turn at whose end a lasting effect ends; None for "permanently". "This Turn" ends
        with the turn it began in; "until the end of your Opponent's next Turn" with the first turn of
        the controller's opponent that begins after the effect (the next turn when it began in the
        controller's own turn)."""
        if effect.until == "end_of_turn":
            return effect.started_turn
        if effect.until == "end_of_opponents_next_turn":
            turn = effect.started_turn + 1
            while self.player_of_turn(turn) == effect.controller:
                turn += 1
            return turn
        return None

    @property
    def winner(self) -> str | None:
        """The player who has won the duel, or None while it goes on."""
        return self.outcome.winner if self.outcome is not None else None

    # --- identity
    def new_uid(self) -> int:
        uid = self.next_uid
        self.next_uid += 1
        return uid

    def copy(self) -> State:
        """A deep copy sharing the (immutable) library and field (tracked.SHARED); the original is left
        untouched."""
        return copy.deepcopy(self)

    @property
    def field(self) -> Field:
        """The slot tree of the edition the state was read under (judge.engine.data.edition), kept once
        looked up: it is asked for at every slot lookup."""
        found: Field | None = self.__dict__.get("_field")
        if found is None:
            found = self.__dict__["_field"] = load_field()
        return found

    # --- lookups
    def card(self, name: str) -> CardDef | None:
        """The CardDef for `name` (from the scenario's library), or None."""
        return self.library.get(name)

    def known_card(self, name: str) -> CardDef:
        """The CardDef of a card on the field or named by a checked action: the scenario's load made
        sure every such name is in the library."""
        card = self.library.get(name)
        if card is None:
            raise KeyError(f"no card named {name!r} in the library")
        return card

    def soul_at(self, ref: SlotRef) -> Soul | None:
        slot = self.players[ref.player].slots.get(ref.slot)
        return slot.soul if slot else None

    def soul(self, ref: SlotRef) -> Soul:
        """The Soul on `ref`, where the rules have made sure one stands (after verify)."""
        soul = self.soul_at(ref)
        if soul is None:
            raise KeyError(f"no Soul stands on {ref}")
        return soul

    def active_soul_at(self, ref: SlotRef) -> Soul | None:
        soul = self.soul_at(ref)
        return soul if soul is not None and not soul.captured else None

    def realm_at(self, ref: SlotRef) -> Realm | None:
        return self.players[ref.player].realms.get(ref.slot)

    def realm(self, ref: SlotRef) -> Realm:
        """The Realm on `ref`, where the rules have made sure one stands (a realm_refs() slot)."""
        realm = self.realm_at(ref)
        if realm is None:
            raise KeyError(f"no Realm stands on {ref}")
        return realm

    def holder_at(self, ref: SlotRef) -> Soul | Realm | None:
        """The card on `ref`: its Soul, or its Realm for a realm slot."""
        return self.realm_at(ref) if ref.is_realm else self.soul_at(ref)

    def holder(self, ref: SlotRef) -> Soul | Realm:
        """The card on `ref`, where the rules have made sure one stands."""
        return self.realm(ref) if ref.is_realm else self.soul(ref)

    def slot(self, ref: SlotRef) -> Slot:
        return self.players[ref.player].slots[ref.slot]

    def soul_refs(self, player: str | None = None, active: bool = True) -> list[SlotRef]:
        """Slots holding a Soul (active ones only unless `active=False`), in field order."""
        out = []
        for p in ([player] if player else PLAYERS):
            for name, slot in self.players[p].slots.items():
                if slot.soul is not None and (not active or not slot.soul.captured):
                    out.append(SlotRef(p, name))
        return out

    def realm_refs(self, player: str | None = None, active: bool = True) -> list[SlotRef]:
        out = []
        for p in ([player] if player else PLAYERS):
            for name, realm in self.players[p].realms.items():
                if realm is not None and (not active or not realm.shattered):
                    out.append(SlotRef(p, name))
        return out

    def find_uid(self, uid: int) -> SlotRef | None:
        """Where the Soul, Realm or Armament with `uid` is (an Armament: its Wielder's slot)."""
        for p in PLAYERS:
            for name, slot in self.players[p].slots.items():
                soul = slot.soul
                if soul is not None and (soul.uid == uid or (soul.armament and soul.armament.uid == uid)):
                    return SlotRef(p, name)
            for name, realm in self.players[p].realms.items():
                if realm is not None and realm.uid == uid:
                    return SlotRef(p, name)
        return None

    def uses(self, uid: int, effect: str) -> tuple[int, int]:
        """(uses this turn, uses this game) of one card's effect (11.7)."""
        this_turn, this_game = self.used.get((uid, effect.lower()), [0, 0])
        return this_turn, this_game

    # --- serialisation (contract §2)
    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)


def _keyword_out(value: Any) -> Any:
    if isinstance(value, Keyword):
        return value.record.to_data(value.value)
    if isinstance(value, dict):
        return {k: _keyword_out(v) for k, v in value.items()}
    return value


def _cards_out(named: list[str], hidden: int) -> Any:
    if not hidden:
        return list(named)
    if not named:
        return hidden
    return {"cards": list(named), "unnamed": hidden}


def _soul_out(soul: Soul) -> dict[str, Any]:
    entry: dict[str, Any] = {"card": soul.name}
    if soul.damage:
        entry["damage"] = soul.damage
    if soul.captured:
        entry["captured"] = True
    if soul.armament:
        entry["armament"] = soul.armament.name
    if soul.recruited_this_turn:
        entry["recruited"] = "this_turn"
    if soul.attacks_made:
        entry["attacks_made"] = soul.attacks_made
    return entry


def _ambush_out(state: State, amb: Ambush, soul: Soul | None) -> dict[str, Any]:
    """A set Ambush; its Setter is named only when it is not the Soul on the slot (or is gone)."""
    item: dict[str, Any] = {"card": amb.name}
    if amb.setter is None:
        item["setter"] = "gone"
    elif soul is None or amb.setter != soul.uid:
        where = state.find_uid(amb.setter)
        item["setter"] = str(where) if where else "gone"
    return item


def _realm_out(realm: Realm) -> dict[str, Any]:
    item: dict[str, Any] = {"card": realm.name}
    if realm.damage:
        item["damage"] = realm.damage
    if realm.shattered:
        item["shattered"] = True
    return item


def _player_out(state: State, ps: PlayerState) -> dict[str, Any]:
    fld: dict[str, Any] = {}
    for name, slot in ps.slots.items():
        if slot.soul is None and not slot.ambushes:
            continue
        entry = _soul_out(slot.soul) if slot.soul is not None else {}
        if slot.ambushes:
            entry["ambushes"] = [_ambush_out(state, amb, slot.soul) for amb in slot.ambushes]
        fld[name] = entry
    realms = {name: _realm_out(realm) for name, realm in ps.realms.items() if realm is not None}
    out: dict[str, Any] = {"turns_taken": ps.turns_taken}
    if ps.proactive:
        order = list(load_field().slots)
        out["proactive"] = sorted(ps.proactive, key=order.index)
    out["field"] = fld
    if realms:
        out["realms"] = realms
    out["hand"] = _cards_out(ps.hand, ps.hand_hidden)
    out["deck"] = _cards_out(ps.deck, ps.deck_hidden)
    out["elysium"] = list(ps.elysium)
    out["exile"] = list(ps.exile)
    if ps.decked_out_turns is not None:
        out["decked_out_turns"] = ps.decked_out_turns
    if sorted(ps.recruits) != sorted(marked_recruits(ps)):
        out["recruited_this_turn"] = list(ps.recruits)   # one has left the field since (ours)
    return out


def marked_recruits(ps: PlayerState) -> list[str]:
    """The names of the player's Souls on the field marked as recruited this turn (captured ones too)."""
    return [slot.soul.name for slot in ps.slots.values()
            if slot.soul is not None and slot.soul.recruited_this_turn]


def _lasting_out(state: State) -> list[dict[str, Any]]:
    lasting = []
    for eff in state.lasting:
        item: dict[str, Any] = {}
        if eff.kind == "lay":
            item["lay"] = _keyword_out(eff.value)
            item["on"] = str(eff.on)
        else:
            where = state.find_uid(eff.to) if eff.to is not None else None
            if where is None:
                continue  # 13.3.2: the card has left the field, and the effect with it
            if eff.kind == "negate":
                item = {"negate": str(where)}
            else:
                item[eff.kind] = _keyword_out(eff.value)
                item["to"] = str(where)
        item["until"] = eff.until
        item["source"] = eff.source
        item["controller"] = eff.controller
        item["started_turn"] = eff.started_turn
        lasting.append(item)
    return lasting


def _used_out(state: State) -> list[dict[str, Any]]:
    used = []
    for (uid, effect), (this_turn, this_game) in state.used.items():
        where = state.find_uid(uid)
        if where is None or not (this_turn or this_game):
            continue  # 15.5.1: limits belong to the one card on the field
        used.append({"card": str(where), "effect": effect, "this_turn": this_turn, "this_game": this_game})
    return used


def state_to_dict(state: State) -> dict[str, Any]:
    players = {p: _player_out(state, state.players[p]) for p in PLAYERS}
    result: dict[str, Any] = {"turn_player": state.turn_player, "phase": state.phase, "turn": state.turn,
                              "players": players}
    if state.phase == SETUP:
        result["round"] = state.round
    lasting = _lasting_out(state)
    if lasting:
        result["lasting"] = lasting
    used = _used_out(state)
    if used:
        result["used"] = used
    if state.event_slot:
        result["event_slot"] = state.event_slot
    if state.winner:
        result["winner"] = state.winner
    return result
