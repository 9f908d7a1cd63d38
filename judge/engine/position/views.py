"""The records of derived values (stats.Board builds them): a Contribution to a value, the Value
with its parts, a keyword in force with its source, a blocked effect, and the views of one Soul or
Realm with everything derived about it. They are frozen; nothing here reads the State.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from judge.engine.data.cards import CardDef, Keyword
from judge.engine.position.state import SlotRef

R_NEGATION = ("13.5.2", "interpretation/negation-order")
R_UNYIELDING = ("13.6.1", "13.6.3")  # an opposing Static Effect blocked by rank (its own card's rank)
R_HP = ("glossary/hp",)


@dataclass(frozen=True)
class Contribution:
    """One part of a derived value: how much, from what, by which rule."""

    amount: int
    label: str
    kind: str                    # printed | armament | moral | aura | lasting | slot | damage | floor
    source: str | None = None    # a slot reference ("A:L2") or a card name
    rules: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"amount": self.amount, "from": self.label, "kind": self.kind}
        if self.source:
            out["source"] = self.source
        if self.rules:
            out["rules"] = list(self.rules)
        return out


@dataclass(frozen=True)
class Value:
    total: int
    contributions: tuple[Contribution, ...]

    @classmethod
    def of(cls, parts: Iterable[Contribution], floor: int | None = 0) -> Value:
        parts = list(parts)
        total = sum(c.amount for c in parts)
        if floor is not None and total < floor:
            # glossary/hp: values never go below 0
            parts.append(Contribution(floor - total, "can't go below 0", "floor", None, R_HP))
            total = floor
        return cls(total, tuple(parts))


@dataclass(frozen=True)
class KeywordSource:
    """A keyword in force on a card, and where it comes from (for Unyielding: the source's rank,
    13.2.2; for 13.4.2: ability keywords don't stack, but each instance is listed)."""

    keyword: Keyword
    label: str                 # "printed", "Iron Blade (Armament)", "Harold (A:L2)", …
    kind: str                  # printed | armament | aura | lasting | slot
    source: str | None         # slot reference or card name of the source
    source_uid: int | None
    source_rank: int
    controller: str
    rules: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"keyword": self.keyword.name, "label": self.keyword.label(),
                               "from": self.label, "kind": self.kind, "source_rank": self.source_rank,
                               "controller": self.controller}
        if isinstance(self.keyword.value, (int, str)) and self.keyword.value is not None:
            out["value"] = self.keyword.value
        if self.source:
            out["source"] = self.source
        if self.rules:
            out["rules"] = list(self.rules)
        return out


@dataclass(frozen=True)
class Blocked:
    """An opposing Static Effect that does not reach an Unyielding Soul (13.6.1)."""

    what: str
    source: str
    source_rank: int

    def to_dict(self) -> dict[str, Any]:
        return {"what": self.what, "source": self.source, "source_rank": self.source_rank,
                "rules": list(R_UNYIELDING)}


@dataclass(frozen=True)
class SoulView:
    ref: SlotRef
    card: CardDef
    captured: bool
    line: int | None
    atk: Value
    def_: Value
    max_hp: Value
    hp: Value
    damage: int
    keywords: tuple[KeywordSource, ...]
    proactive: bool
    negated: bool = False
    blocked: tuple[Blocked, ...] = ()
    armament: str | None = None

    def has(self, name: str) -> bool:
        return any(k.keyword.name == name for k in self.keywords)

    def instances(self, name: str) -> list[KeywordSource]:
        return [k for k in self.keywords if k.keyword.name == name]

    def keyword_names(self) -> list[str]:
        return list(dict.fromkeys(k.keyword.name for k in self.keywords))

    def to_dict(self, detail: bool = True, contributions: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "card": self.card.name, "line": self.line, "atk": self.atk.total, "def": self.def_.total,
            "hp": self.hp.total, "max_hp": self.max_hp.total, "damage": self.damage,
            "keywords": self.keyword_names(), "proactive": self.proactive, "captured": self.captured,
        }
        if detail:
            if self.armament:
                out["armament"] = self.armament
            if contributions:
                out["contributions"] = {key: [c.to_dict() for c in val.contributions]
                                        for key, val in (("atk", self.atk), ("def", self.def_),
                                                         ("max_hp", self.max_hp), ("hp", self.hp))}
            out["keyword_sources"] = [k.to_dict() for k in self.keywords]
            if self.negated:
                out["negated"] = True
                out["negated_rules"] = list(R_NEGATION)
            if self.blocked:
                out["unyielding_blocks"] = [b.to_dict() for b in self.blocked]
        return out


@dataclass(frozen=True)
class RealmView:
    ref: SlotRef
    card: CardDef
    shattered: bool
    atk: Value
    def_: Value
    max_hp: Value
    hp: Value
    damage: int
    keywords: tuple[KeywordSource, ...] = ()
    negated: bool = False

    def has(self, name: str) -> bool:
        return any(k.keyword.name == name for k in self.keywords)

    def instances(self, name: str) -> list[KeywordSource]:
        return [k for k in self.keywords if k.keyword.name == name]

    def to_dict(self, detail: bool = True, contributions: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "card": self.card.name, "atk": self.atk.total, "def": self.def_.total, "hp": self.hp.total,
            "max_hp": self.max_hp.total, "damage": self.damage,
            "keywords": list(dict.fromkeys(k.keyword.name for k in self.keywords)),
            "proactive": True, "shattered": self.shattered,
        }
        if detail:
            if contributions:
                out["contributions"] = {key: [c.to_dict() for c in val.contributions]
                                        for key, val in (("atk", self.atk), ("def", self.def_),
                                                         ("max_hp", self.max_hp), ("hp", self.hp))}
            out["keyword_sources"] = [k.to_dict() for k in self.keywords]
            if self.negated:
                out["negated"] = True
                out["negated_rules"] = list(R_NEGATION)
        return out
