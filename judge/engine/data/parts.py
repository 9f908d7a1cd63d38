"""The parts of an effect's `do:` (contract §3, "actions"), each a frozen type: its key, the keys
it takes (with the kind of value each holds and whether it is required), its fields, and the words
that describe it. The card reader (card_reader.py) reads `PARTS` to check a part and build it; the
code that applies each part is registered for its type in effects.py (`apply_part`).

    part = Damage.build({"damage": 10, "to": "target"})   # a Mapping too: part["damage"] == 10
    part.amount, part.to                                   # 10, "target"
    part.describe()                                        # "deals 10 damage to target"

A part reads as the mapping the card wrote (its values checked), so what shows a card (the card
pages) reads it as before.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Key:
    """One key of a part: as written, the field it fills, the kind of value (card_reader's
    parsers), and whether the part needs it."""

    written: str
    field: str
    kind: str
    required: bool = True


@dataclass(frozen=True)
class Part(Mapping[str, Any]):
    written: Mapping[str, Any]    # the part as the card writes it, its values checked

    KEY: ClassVar[str]
    FORM: ClassVar[tuple[Key, ...]]
    WORDS: ClassVar[str]
    LASTING: ClassVar[bool] = False   # it leaves an effect in force (13.3; state.LASTING_KINDS)
    STATIC: ClassVar[bool] = False    # a static effect states it too (`gain:`, … with `to:`)

    @classmethod
    def build(cls, written: Mapping[str, Any]) -> Part:
        values = {k.field: written.get(k.written) for k in cls.FORM}
        return cls(written, **values)

    def describe(self) -> str:
        """The part in plain words."""
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "written"}
        return self.WORDS.format(**{k: ("" if v is None else v) for k, v in values.items()}).strip()

    def __getitem__(self, key: str) -> Any:
        return self.written[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.written)

    def __len__(self) -> int:
        return len(self.written)

    @classmethod
    def vocabulary(cls) -> dict[str, Any]:
        return {"part": cls.KEY, "words": cls.WORDS,
                "keys": [{"key": k.written, "field": k.field, "kind": k.kind, "required": k.required}
                         for k in cls.FORM]}


@dataclass(frozen=True)
class Damage(Part):
    amount: int
    to: str
    KEY = "damage"
    FORM = (Key("damage", "amount", "amount"), Key("to", "to", "ref"))
    WORDS = "deals {amount} damage to {to}"


@dataclass(frozen=True)
class Heal(Part):
    amount: int
    to: str
    KEY = "heal"
    FORM = (Key("heal", "amount", "amount"), Key("to", "to", "ref"))
    WORDS = "heals {amount} damage of {to}"


@dataclass(frozen=True)
class Capture(Part):
    who: str
    KEY = "capture"
    FORM = (Key("capture", "who", "ref"),)
    WORDS = "captures {who}"


@dataclass(frozen=True)
class Return(Part):
    who: str
    KEY = "return"
    FORM = (Key("return", "who", "ref"),)
    WORDS = "returns {who} to its owner's hand"


@dataclass(frozen=True)
class Exile(Part):
    who: str
    KEY = "exile"
    FORM = (Key("exile", "who", "ref"),)
    WORDS = "exiles {who}"


@dataclass(frozen=True)
class Unequip(Part):
    """(ours) The Armament of the Soul REF leaves it for its owner's Elysium while the Soul stays (10.3.5)."""

    who: str
    KEY = "unequip"
    FORM = (Key("unequip", "who", "ref"),)
    WORDS = "sends the Armament of {who} to its owner's Elysium"


@dataclass(frozen=True)
class Teleport(Part):
    who: str
    to: str
    KEY = "teleport"
    FORM = (Key("teleport", "who", "ref"), Key("to", "to", "slot"))
    WORDS = "teleports {who} to {to}"


@dataclass(frozen=True)
class Gain(Part):
    stats: Mapping[str, int]
    to: str
    until: str | None
    KEY = "gain"
    LASTING = True
    STATIC = True
    FORM = (Key("gain", "stats", "stats"), Key("to", "to", "ref"), Key("until", "until", "duration", False))
    WORDS = "{to} gains {stats} until {until}"


@dataclass(frozen=True)
class Grant(Part):
    keyword: Any                  # a cards.Keyword
    to: str
    until: str | None
    KEY = "grant"
    LASTING = True
    STATIC = True
    FORM = (Key("grant", "keyword", "keyword"), Key("to", "to", "ref"),
            Key("until", "until", "duration", False))
    WORDS = "{to} gains the keyword {keyword} until {until}"


@dataclass(frozen=True)
class Lay(Part):
    what: Any                     # a bare keyword, {gain: …} or {grant: Keyword}
    on: str
    until: str | None
    KEY = "lay"
    LASTING = True
    FORM = (Key("lay", "what", "slot_effect"), Key("on", "on", "ref"),
            Key("until", "until", "duration", False))
    WORDS = "lays {what} on the slot of {on} until {until}"


@dataclass(frozen=True)
class Negate(Part):
    what: str
    KEY = "negate"
    LASTING = True
    STATIC = True
    FORM = (Key("negate", "what", "ref"),)
    WORDS = "negates {what}"


@dataclass(frozen=True)
class Draw(Part):
    count: int
    KEY = "draw"
    FORM = (Key("draw", "count", "count"),)
    WORDS = "its controller draws {count}"


@dataclass(frozen=True)
class Discard(Part):
    count: int
    who: str | None
    KEY = "discard"
    FORM = (Key("discard", "count", "count"), Key("who", "who", "who", False))
    WORDS = "{who} discards {count} (the opponent unless who: self)"


@dataclass(frozen=True)
class Enlist(Part):
    spec: Mapping[str, Any]
    KEY = "enlist"
    FORM = (Key("enlist", "spec", "enlist"),)
    WORDS = "enlists a card {spec} from the deck"


@dataclass(frozen=True)
class Battle(Part):
    spec: Mapping[str, Any]
    KEY = "battle"
    FORM = (Key("battle", "spec", "battle"),)
    WORDS = "starts a battle {spec}"


@dataclass(frozen=True)
class If(Part):
    condition: Mapping[str, Any]
    then: Sequence[Part]
    otherwise: Sequence[Part] | None
    KEY = "if"
    FORM = (Key("if", "condition", "condition"), Key("then", "then", "parts"),
            Key("else", "otherwise", "parts", False))
    WORDS = "if {condition}, then {then}, else {otherwise}"


PARTS: dict[str, type[Part]] = {cls.KEY: cls for cls in (
    Damage, Heal, Capture, Return, Exile, Unequip, Teleport, Gain, Grant, Lay, Negate, Draw, Discard, Enlist,
    Battle, If)}
STATIC_PARTS = tuple(key for key, part in PARTS.items() if part.STATIC)
