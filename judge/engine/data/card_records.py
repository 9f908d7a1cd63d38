"""The card schema's vocabulary and records (contract §3): card types, keywords, triggers,
durations, references; `CardDef`, `EffectDef`, `Keyword`, `TargetSpec`, `Limit` and the `Library`
of cards by name. The card reader (card_reader.py) builds them; cards.py loads the library and is
the module the rest of the engine imports them from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.engine.data.keywords import BARE, NAMES, TAUNT, WITH_VALUE, KeywordDef
from judge.engine.data.keywords import KEYWORDS as KEYWORD_TABLE
from judge.engine.data.parts import Part

CARD_TYPES = ("soul", "event", "armament", "ambush", "realm")
ATTRIBUTES = ("light", "dark")
EFFECT_KINDS = ("activated", "timing", "static", "instant")
# The triggers of timing and instant effects, with the words that say when each fires.
TRIGGER_WORDS = {"recruited": "when it is recruited", "attacked": "when it is attacked",
                 "attacks": "when it attacks", "after_battle": "after a battle it fought",
                 "captured": "when it is captured", "targeted": "when it is targeted",
                 "captures_attack_target": "when it captures its attack target"}
TRIGGERS = tuple(TRIGGER_WORDS)
# The same triggers as a card prints them ("When this Soul is attacked:"): the word that leads and what
# the Soul (or the Ambusher) does, the first the Codex's phrasing, the others read too (card text in
# words: judge/engine/driver/card_text/).
TRIGGER_TEXT = {"recruited": ("When", ("is recruited",)), "attacked": ("When", ("is attacked",)),
                "attacks": ("When", ("attacks",)), "after_battle": ("After", ("battles",)),
                "captured": ("When", ("is captured",)),
                "targeted": ("When", ("is targeted by an opposing Effect", "is targeted by an Effect")),
                "captures_attack_target": ("When", ("captures the Soul it attacked",))}
DURATIONS = ("end_of_turn", "end_of_opponents_next_turn", "permanently")
SIDES = ("own", "opposing", "any")
TAUNT_RADII = TAUNT.choices
# Keywords that grant an ability (13.4.2: they don't stack) and those that carry a value: read from
# the keyword table (keywords.py).
BARE_KEYWORDS = BARE
VALUE_KEYWORDS = WITH_VALUE
KEYWORDS = NAMES
GROUP_REFS = ("all_opposing_souls", "all_own_souls", "other_own_souls", "underlings")
SINGLE_REFS = ("self", "caster", "ambusher", "wielder", "attacker", "attacked", "triggering_effect")
TARGET_REF = re.compile(r"^target\d*$")
STAT_KEYS = ("atk", "def", "hp")
# contract §3 Conditions (conditions.py reads them; `of:` is added inside an "If …"), with words for
# people (the desk's custom-card form); FLAG_CONDITIONS are those a card states as true or false.
CONDITION_WORDS = {"line": "in line … (at least / at most)", "front_line": "in the Front Line",
                   "damaged": "damaged", "hp_at_most_half": "HP at most half", "attribute": "of an attribute",
                   "leader": "is a Leader", "rank": "of a rank", "captured": "captured",
                   "keyword": "has a keyword"}
CONDITION_KEYS = tuple(CONDITION_WORDS)
FLAG_CONDITIONS = ("front_line", "damaged", "hp_at_most_half", "leader", "captured")
EXTRA_CARD_KEYS = ("reconstructed", "notes", "sources", "origin")


@dataclass(frozen=True)
class Limit:
    """"1/Turn", "2/Game" or both (11.7)."""

    per_turn: int | None = None
    per_game: int | None = None
    text: str = ""


@dataclass(frozen=True)
class Keyword:
    """A keyword: `name` plus its value (Defiance 10 -> 10; Moral -> {"atk": 5, ...};
    Taunt -> its radius; Berserk -> a tuple of actions; Reinforcement -> an EffectDef)."""

    name: str
    value: Any = None

    @property
    def record(self) -> KeywordDef:
        """Its row of the keyword table."""
        return KEYWORD_TABLE[self.name]

    @property
    def kind(self) -> str:
        return self.record.kind

    def label(self) -> str:
        return self.record.label(self.value)


@dataclass(frozen=True)
class TargetSpec:
    """One target selector (11.4): a Soul, a Soul Spot or a Realm, on whose side."""

    what: str                  # "soul" | "spot" | "realm"
    side: str = "any"          # own | opposing | any
    lines: str = "front"       # souls: front | any
    captured: bool = False     # souls: asks for a captured Soul
    naming: str | None = None  # spots: "front" = names the Soul on it (11.4.5)
    where: Mapping[str, Any] | None = None  # extension: a condition map the target must meet


@dataclass(frozen=True)
class EffectDef:
    name: str | None
    kind: str
    fast: bool = False
    limit: Limit | None = None
    trigger: str | None = None
    mandatory: bool = False
    condition: Mapping[str, Any] = field(default_factory=dict)
    targets: tuple[TargetSpec, ...] = ()
    cost: tuple[Mapping[str, Any], ...] = ()
    do: tuple[Part, ...] = ()
    gain: Mapping[str, int] | None = None      # static: values given to `to`
    grant: Keyword | None = None               # static: a keyword given to `to`
    to: str | None = None                      # static: a reference (self, other_own_souls, …)
    negate: str | None = None                  # static (extension): negates the effects of `negate`
    index: int = 0                             # position in the card's effects list

    @property
    def label(self) -> str:
        return self.name or f"effect {self.index + 1}"


@dataclass(frozen=True)
class CardDef:
    name: str
    type: str
    rank: int
    attribute: str | None = None
    leader: bool = False
    atk: int = 0
    def_: int = 0
    hp: int = 0
    text: str = ""
    keywords: tuple[Keyword, ...] = ()
    effects: tuple[EffectDef, ...] = ()
    caster: Mapping[str, Any] | None = None
    ambusher: Mapping[str, Any] | None = None
    reconstructed: bool = False
    notes: str = ""
    sources: tuple[str, ...] = ()
    editions: tuple[str, ...] = ()   # the Codex editions it is legal in; () = every edition

    def stat(self, key: str) -> int:
        return {"atk": self.atk, "def": self.def_, "hp": self.hp}[key]

    def effect(self, name: str) -> EffectDef | None:
        """The effect named `name` (case-insensitive), also a Reinforcement by its keyword name."""
        for eff in self.effects:
            if eff.name and eff.name.lower() == name.lower():
                return eff
        for kw in self.keywords:   # a keyword that carries an effect (Reinforcement), by either name
            carried = kw.value if kw.record.value == "effect" else None
            if isinstance(carried, EffectDef) and \
                    name.lower() in (kw.name, (carried.name or "").lower()):
                return carried
        return None

    @property
    def main_effect(self) -> EffectDef | None:
        """The effect an Event or Ambush uses when cast or sprung: its first non-static effect."""
        return next((e for e in self.effects if e.kind != "static"), None)

    def known_effect(self, name: str) -> EffectDef:
        """The effect `name` of an action verify has passed (verify found the effect)."""
        eff = self.effect(name)
        if eff is None:
            raise KeyError(f"{self.name} has no effect {name!r}")
        return eff

    @property
    def played_effect(self) -> EffectDef:
        """The main effect of an Event cast or an Ambush sprung (the card's schema gives it one)."""
        eff = self.main_effect
        if eff is None:
            raise KeyError(f"{self.name} has no effect to resolve")
        return eff


class Library:
    """Cards by name (case-insensitive)."""

    def __init__(self, cards: Iterable[CardDef] = (), problems: list[dict[str, Any]] | None = None) -> None:
        self._cards: dict[str, CardDef] = {}
        for card in cards:
            self._cards[card.name.lower()] = card
        self.problems: list[dict[str, Any]] = list(problems or [])

    def get(self, name: object) -> CardDef | None:
        return self._cards.get(name.strip().lower()) if isinstance(name, str) else None

    def __getitem__(self, name: str) -> CardDef:
        """The card named `name`, which a check has already found in the library."""
        card = self.get(name)
        if card is None:
            raise KeyError(f"no card named {name!r} in the library")
        return card

    def __contains__(self, name: object) -> bool:
        return self.get(name) is not None

    def __iter__(self) -> Iterator[CardDef]:
        return iter(self._cards.values())

    def __len__(self) -> int:
        return len(self._cards)

    def with_cards(self, cards: Iterable[CardDef]) -> Library:
        lib = Library(self._cards.values(), self.problems)
        for card in cards:
            lib._cards[card.name.lower()] = card
        return lib
