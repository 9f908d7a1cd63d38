"""One queued action (contract §4) as a typed record. Its slot references are parsed once, when
the action is made (`Action.of` or the scenario loader), into `Place`s; the rest of the engine
asks `action.ref(key, state)` and never parses a slot name again.

    action = Action.of({"recruit": "Grunt", "to": "L2", "by": "A"}, index=0)
    action.ref("to", state)   # SlotRef("A", "L2"), or None when the key names no slot
    action.slot("to", state)  # the same, for an action verify has passed (never None)
    action.to_dict()          # back to the contract's dict

What each verb takes (its keys, its card type, whether it is Fast) is the verb table's
(judge/engine/driver/verbs.py); an Action holds what was written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.engine.data.field import load_field
from judge.engine.position.state import PLAYERS, SlotRef, State

# keys that hold names, not slots
_NOT_SLOTS = ("targets", "discard")


@dataclass(frozen=True)
class Place:
    """A slot as an action writes it: `B:C3` (player given) or `C3` (the acting player's)."""

    player: str | None
    slot: str

    @classmethod
    def parse(cls, text: object) -> Place | None:
        """`A:C3` or `C3`, the slot name normalised; None when `text` is not a slot."""
        if not isinstance(text, str):
            return None
        player: str | None
        player, sep, name = text.strip().partition(":")
        if sep:
            player = player.strip().upper()
            if player not in PLAYERS:
                return None
        else:
            player, name = None, text.strip()
        slot = load_field().normalize(name)
        return cls(player, slot) if slot is not None else None

    def ref(self, actor: str) -> SlotRef | None:
        player = self.player or actor.upper()
        return SlotRef(player, self.slot) if player in PLAYERS else None


@dataclass(frozen=True)
class Action:
    """One queued action. `value` is the verb's own value: a card name (recruit, cast, equip,
    invoke, set, spring), an effect name (activate, use), the attacker's slot (attack) or True
    (pass, end_phase). `args` holds the other keys as written; `places` and `target_places` are
    their slot references, parsed when the action is made. Two actions are equal when they do the
    same thing, wherever they stand in a queue: `action in verbs.legal_actions(state)` works."""

    index: int = field(compare=False)   # its place in the queue, not part of what it does
    verb: str
    value: Any
    by: str | None = None
    args: Mapping[str, Any] = field(default_factory=dict)
    places: Mapping[str, Place | None] = field(init=False, compare=False, repr=False)
    target_places: tuple[Place | None, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        places = {k: Place.parse(v) for k, v in self.args.items() if k not in _NOT_SLOTS}
        places["value"] = Place.parse(self.value)
        object.__setattr__(self, "places", places)
        targets = tuple(Place.parse(t) for t in self.args.get("targets") or ())
        object.__setattr__(self, "target_places", targets)

    @classmethod
    def of(cls, data: Mapping[str, Any], index: int = 0, verbs: tuple[str, ...] = ()) -> Action:
        """A contract §4 dict (already valid) as an Action: the verb is its first key, or the first
        of `verbs` it holds."""
        verb = next((v for v in verbs if v in data), None) or next(k for k in data if k != "by")
        args = {k: v for k, v in data.items() if k not in (verb, "by")}
        return cls(index=index, verb=verb, value=data[verb], by=data.get("by"), args=args)

    def player(self, state: State) -> str:
        """The acting player: `by:` or else the turn player."""
        return self.by or state.turn_player

    def ref(self, key: str, state: State) -> SlotRef | None:
        """The slot in `args[key]` (or the value, for key "value"); unprefixed = the actor's."""
        place = self.places.get(key)
        return place.ref(self.player(state)) if place is not None else None

    def slot(self, key: str, state: State) -> SlotRef:
        """The slot in `args[key]` of an action verify has found legal (so it names a slot)."""
        ref = self.ref(key, state)
        if ref is None:
            raise ValueError(f"action {self.index} ({self.describe()}): {key} names no slot")
        return ref

    def target_refs(self, state: State) -> list[SlotRef | None]:
        actor = self.player(state)
        return [p.ref(actor) if p is not None else None for p in self.target_places]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {self.verb: self.value}
        out.update(self.args)
        if self.by:
            out["by"] = self.by
        return out

    def describe(self) -> str:
        parts = [f"{self.verb} {self.value}" if self.value is not True else self.verb]
        parts += [f"{k} {v}" for k, v in self.args.items()]
        if self.by:
            parts.append(f"by {self.by}")
        return ", ".join(parts)
