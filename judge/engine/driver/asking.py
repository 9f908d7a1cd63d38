"""Questions (contract §7) as records: `Ask`, how each kind reads its value from `ask:` (problems at
`ask.N`), and the words a question and an action are said in. The table of kinds is `answers.QUESTIONS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from judge.engine.data.input_checks import show
from judge.engine.driver.verbs import VERBS
from judge.engine.position.action import Action
from judge.engine.position.state import SlotRef, State

Bad = Callable[[str, str], None]
VALUES = {"atk": "ATK", "def": "DEF", "hp": "HP", "max_hp": "maximum HP", "damage": "damage",
          "captured": "captured", "keywords": "keywords", "line": "line", "proactive": "proactive",
          "shattered": "shattered"}   # shattered: a Realm's (glossary Realm, Shatter)
FLAGS = ("captured", "proactive", "shattered")   # the values that are yes or no
# a player's piles (`value: {player: A, of: hand}`): the pile's words, and the PlayerState fields that hold
# its named cards and its count of unnamed ones
PILES = {"hand": ("hand", "hand", "hand_hidden"), "deck": ("deck", "deck", "deck_hidden"),
         "elysium": ("Elysium", "elysium", None), "exiled": ("exile", "exile", None)}


@dataclass(frozen=True)
class Ask:
    """One question: `kind`, a key of `answers.QUESTIONS`; `action` (legal, resolves by action), `card`
    (resolves by name), `slot` (happens_to, value, can_attack), `of` (value)."""

    kind: str
    action: int | None = None
    card: str | None = None
    slot: SlotRef | None = None
    of: str | None = None
    player: str | None = None      # value of a player's pile (`of` a key of PILES)

    def to_dict(self) -> dict[str, Any]:
        """As `ask:` writes it: `{kind: its value}`."""
        value: Any
        if self.player is not None:
            value = {"player": self.player, "of": self.of}
        elif self.of is not None:
            value = {"slot": str(self.slot), "of": self.of}
        elif self.slot is not None:
            value = str(self.slot)
        elif self.action is not None:
            value = self.action
        else:
            value = self.card if self.card is not None else True
        return {self.kind: value}

    def facts(self, actions: Sequence[Action], state: State) -> dict[str, Any]:
        """What the question is about, as facts (the desk words the question from them): the queued
        action (its index from 0, and the action as the engine describes it), the card and slot."""
        out: dict[str, Any] = {}
        if self.action is not None and 0 <= self.action < len(actions):
            out["action"] = self.action
            out["action_words"] = describe(actions[self.action])
        if self.card is not None:
            out["card"] = self.card
        if self.slot is not None:
            out["slot"] = str(self.slot)
            holder = state.holder_at(self.slot)
            if holder is not None:
                out["card"] = holder.name
        if self.player is not None:
            out["player"] = self.player
        if self.of is not None:
            out["of"] = PILES[self.of][0] if self.player is not None else VALUES[self.of]
        return out

    @property
    def key(self) -> str:
        """What the ledger follows for it."""
        if self.player is not None:
            return f"{self.kind}:{self.player}:{self.of}"
        return f"{self.kind}:{self.slot}" if self.slot is not None else self.kind


# --- reading each kind's value ------------------------------------------------------------------

def count(actions: Sequence[Action]) -> str:
    return f"the queue has {len(actions)} action{'s' if len(actions) != 1 else ''}" + (
        f" (0 to {len(actions) - 1})" if actions else "")


def read_index(kind: str, value: Any, where: str, actions: Sequence[Action], state: State,
               bad: Bad) -> Ask | None:
    """`legal: N`: the index of a queued action."""
    if not isinstance(value, int) or isinstance(value, bool):
        bad(where, f"expected the number of a queued action; {count(actions)}")
        return None
    if not 0 <= value < len(actions):
        bad(where, f"no action {value}: {count(actions)}")
        return None
    return Ask(kind, action=value)


def read_resolves(kind: str, value: Any, where: str, actions: Sequence[Action], state: State,
                  bad: Bad) -> Ask | None:
    """`resolves: N` (an action that uses an Event, an Ambush or an effect) or `resolves: NAME`."""
    if not isinstance(value, int) or isinstance(value, bool):
        return _by_name(value, where, actions, state, bad)
    ask = read_index(kind, value, where, actions, state, bad)
    if ask is not None and not uses_effect(actions[value]):
        bad(where, f"action {value} ({describe(actions[value])}) uses no Event, Ambush or effect, so "
                   f"nothing of it can resolve; ask legal: {value}, or happens_to: a slot")
        return None
    return ask


def read_card_slot(kind: str, value: Any, where: str, actions: Sequence[Action], state: State,
                   bad: Bad) -> Ask | None:
    """A slot with a card on it at the start (`happens_to: "B:C3"`)."""
    ref = read_slot(value, where, bad)
    if ref is None:
        return None
    if state.holder_at(ref) is None:
        bad(where, f"{ref} is empty at the start: nothing stands there for the question to follow")
        return None
    return Ask(kind, slot=ref)


def read_value(kind: str, value: Any, where: str, actions: Sequence[Action], state: State,
               bad: Bad) -> Ask | None:
    """`value: {slot, of}`, or a player's pile: `value: {player: A, of: hand | deck | elysium | exiled}`."""
    if isinstance(value, dict) and set(value) == {"player", "of"}:
        return _read_pile(kind, value, where, bad)
    if not isinstance(value, dict) or set(value) != {"slot", "of"}:
        bad(where, f"expected {{slot: \"A:C3\", of: atk}}; got {show(value)}")
        return None
    ref = read_slot(value["slot"], f"{where}.slot", bad)
    if not isinstance(value["of"], str) or value["of"] not in VALUES:
        bad(f"{where}.of", f"expected one of {', '.join(VALUES)}; got {show(value['of'])}")
        return None
    return Ask(kind, slot=ref, of=str(value["of"])) if ref is not None else None


def _read_pile(kind: str, value: dict[str, Any], where: str, bad: Bad) -> Ask | None:
    player = str(value["player"]).upper() if isinstance(value["player"], str) else None
    if player not in ("A", "B"):
        bad(f"{where}.player", f"expected A or B; got {show(value['player'])}")
        return None
    if value["of"] not in PILES:
        bad(f"{where}.of", f"a player's pile is one of {', '.join(PILES)}; got {show(value['of'])}")
        return None
    return Ask(kind, player=player, of=str(value["of"]))


def read_card_at_start(kind: str, value: Any, where: str, actions: Sequence[Action], state: State,
                       bad: Bad) -> Ask | None:
    """`where: NAME`: a card of that name somewhere at the start (a slot, under a Soul, a pile), one only."""
    card = state.library.get(value) if isinstance(value, str) else None
    if card is None:
        bad(where, f"expected a card's name; no card named {show(value)}")
        return None
    found = start_places(state, card.name)
    if not found:
        bad(where, f"{card.name} is nowhere in the position at the start (not on the field, under a Soul or "
                   "in a pile); name a card the position holds")
        return None
    if len(found) > 1:
        bad(where, f"two or more cards named {card.name} are in the position ({', '.join(found)}); ask "
                   "happens_to: the slot of the one you mean")
        return None
    return Ask(kind, card=card.name)


# a pile as a place names it ("A.elysium": the PlayerState field) -> its words
PILE_WORDS = {named_field: words for words, named_field, _ in PILES.values()}


@dataclass(frozen=True)
class Place:
    """Where a card is, as the step records (`changes`: `from`, `to`) and `where` answers write it, read
    once here: on a slot ("B:C3"), under a slot's Soul ("under B:C3": an Armament or a set Ambush), in a
    player's pile ("A.hand"), or elsewhere ("event slot")."""

    text: str
    slot: str | None = None      # the slot it is on or under
    under: bool = False
    player: str | None = None    # with `pile`
    pile: str | None = None

    @classmethod
    def parse(cls, text: str) -> Place:
        first, _, rest = text.partition(" ")
        if first == "under" and SlotRef.parse(rest) is not None:
            return cls(text, slot=rest, under=True)
        if SlotRef.parse(first) is not None:   # "B:C3", or a set Ambush's "A:L2 (face down)"
            return cls(text, slot=first)
        player, dot, pile = text.partition(".")
        if dot and player in ("A", "B"):
            return cls(text, player=player, pile=pile)
        return cls(text)

    @property
    def words(self) -> str:
        """"A's hand", "under the Soul on B:L2", "B:C3 (on the field)"."""
        if self.pile is not None:
            return f"{self.player}'s {PILE_WORDS.get(self.pile, self.pile)}"
        if self.under:
            return f"under the Soul on {self.slot}"
        return f"{self.text} (on the field)" if self.slot is not None else self.text

    def left_from(self, came_from: Place) -> bool:
        """A move recorded as from `came_from` takes the card from here: the same place, or the slot it is
        under (an Armament leaves its Soul's slot)."""
        return came_from.text == self.text or (self.under and came_from.text == self.slot)


def start_places(state: State, name: str) -> list[str]:
    """Where cards named `name` are at the start, as a `where` answer writes a place: "B:C3" (on a slot),
    "under B:C3" (an Armament or an Ambush there), "A.hand", "A.deck", "A.elysium", "A.exile"."""
    out: list[str] = []
    for p in ("A", "B"):
        ps = state.players[p]
        for slot, s in ps.slots.items():
            if s.soul is not None and s.soul.name == name:
                out.append(f"{p}:{slot}")
            if s.soul is not None and s.soul.armament is not None and s.soul.armament.name == name:
                out.append(f"under {p}:{slot}")
            out += [f"under {p}:{slot}" for amb in s.ambushes if amb.name == name]
        out += [f"{p}:{slot}" for slot, r in ps.realms.items() if r is not None and r.name == name]
        for pile in ("hand", "deck", "elysium", "exile"):
            out += [f"{p}.{pile}"] * list(getattr(ps, pile)).count(name)
    return out


def read_true(kind: str, value: Any, where: str, actions: Sequence[Action], state: State,
              bad: Bad) -> Ask | None:
    """`winner: true`."""
    if value is not True:
        bad(where, f"expected true ({kind}: true); got {show(value)}")
        return None
    return Ask(kind)


def read_slot(value: Any, where: str, bad: Bad) -> SlotRef | None:
    ref = SlotRef.parse(value)
    if ref is None:
        bad(where, f"expected a slot with its player, like \"B:C3\" or \"A:realm2\"; got {show(value)}")
    return ref


def _by_name(value: Any, where: str, actions: Sequence[Action], state: State,
             bad: Bad) -> Ask | None:
    card = state.library.get(value) if isinstance(value, str) else None
    if card is None:
        bad(where, f"expected the number of a queued action or a card's name; no card named {show(value)}")
        return None
    used = [a for a in actions if VERBS[a.verb].value == "card" and str(a.value).lower() == card.name.lower()]
    on_field = any(h.name.lower() == card.name.lower()
                   for ref in state.soul_refs(active=False) + state.realm_refs()
                   if (h := state.holder_at(ref)) is not None)
    if not used and not on_field:
        bad(where, f"{card.name} is neither cast, sprung nor recruited by a queued action nor on the field, "
                   "so no effect of it can resolve here")
        return None
    return Ask("resolves", card=card.name)



# --- words ------------------------------------------------------------------------------------

def uses_effect(action: Action) -> bool:
    """The action uses an Event, an Ambush or an effect: taking it puts an entry on the Cascade (the verb
    table's `on_cascade`)."""
    return VERBS[action.verb].on_cascade


def describe(action: Action) -> str:
    """An action in words: "attack C2, target B:L1", "cast Firebolt, caster L2, targets B:L2"."""
    parts = [f"{action.verb} {action.value}" if action.value is not True else action.verb.replace("_", " ")]
    for key, value in action.args.items():
        shown = ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else value
        parts.append(f"{key} {shown}")
    if action.by:
        parts.append(f"by {action.by}")
    return ", ".join(parts)


def used_label(ask: Ask, actions: Sequence[Action], state: State) -> str:
    if ask.card is not None:
        return ask.card
    action = actions[ask.action or 0]
    if VERBS[action.verb].value == "card":   # an Event cast or an Ambush sprung: the card's name
        return str(action.value)
    ref = action.ref("card", state)
    holder = state.holder_at(ref) if ref is not None else None
    return f"{holder.name}'s {action.value}" if holder is not None else str(action.value)


def named(state: State, ref: SlotRef) -> str:
    holder = state.holder_at(ref)
    return f"{holder.name} ({ref})" if holder is not None else f"the card on {ref}"

