"""The keyword table: each keyword of the Codex is one record, and no other module spells a keyword's
name (tests/test_engine_keywords.py fails on a keyword literal anywhere else).

    FROZEN.name                     # "frozen", as a card writes it
    FROZEN.title                    # "Frozen", as the Codex prints it
    DEFIANCE.label(10)              # "defiance 10"; words(Keyword("defiance", 10)) -> "Defiance 10"
    FROZEN.restriction.declaring    # what the attack check says when it forbids the attack
    KEYWORDS["taunt"].acts          # where the engine applies it: ("target protection", "non-events")
    for record, restriction in restrictions(): ...   # the attack checks loop over the table

A record holds what the keyword is (its value kind, the kind of effect it is, its rules, its words)
and says where it acts (`acts`, one of ACTS each); the code that applies it lives in the module ACTS
names, which reads the record (its name, its restriction texts) and never spells the keyword.
Reading a keyword's value from a card is `card_reader.KEYWORD_VALUE_PARSERS[record.value]`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# Where a keyword acts, and the module that applies it there (docs/ENGINE.md "a keyword").
ACTS: dict[str, str] = {
    "target protection": "rules/legality.py (Taunt), play/references.py and position/board.py (Unyielding)",
    "attack restriction": "rules/legality.py verify_attack, play/battle.py check and effect_battle: "
                          "they loop over restrictions() (a record's `restriction`)",
    "attack target": "rules/legality.py verify_attack, play/battle.py check: they loop over guards() "
                     "(a record's `guard`: when its Soul can't be chosen as Attack Target)",
    "attack reach": "rules/legality.py verify_attack, play/battle.py check",
    "attacks": "rules/legality.py verify_attack (how many attacks a Combat Phase allows)",
    "values": "position/board.py (values and abilities in force)",
    "battle": "play/battle.py (the fight, captures and what follows)",
    "triggers": "play/cascade.py (a Timing Effect the keyword carries)",
    "non-events": "play/nonevents.py (a step where it could have applied and did not)",
    "placing": "play/zones.py, play/cascade.py (what a card under it may not do)",
}

# The kinds of value a keyword carries (card_reader.KEYWORD_VALUE_PARSERS reads each).
VALUE_KINDS = ("none", "radius", "stats", "amount", "actions", "effect")


@dataclass(frozen=True)
class Restriction:
    """What a keyword that forbids attacking says where the attack is checked: when it is declared
    (`declaring`, after the Soul's label), when the battle checks again (`still`, after its name), and
    when an effect's battle counts as an attack (`by_effect`: "X is <by_effect>, so it does not battle")."""

    declaring: str
    declaring_rules: tuple[str, ...]
    still: str
    still_rules: tuple[str, ...]
    by_effect: str
    by_effect_rules: tuple[str, ...]


@dataclass(frozen=True)
class Guard:
    """A keyword that keeps its Soul from being chosen as Attack Target while `holds(view)` (the Soul's
    derived `SoulView`) is true: what the attack check says (`declaring`, after the Soul's label) and
    what the battle's check says when it has come to hold since (`still`, after its name)."""

    holds: Callable[[Any], bool]
    declaring: str
    still: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class KeywordDef:
    """One keyword: its name as a card writes it, its words, the kind of its value (VALUE_KINDS) and
    of the effect it is (11.1), the rules that define it, and where it acts (ACTS)."""

    name: str
    title: str
    rules: tuple[str, ...]
    acts: tuple[str, ...]
    value: str = "none"
    bare: bool = True                    # may be written as a bare name (`- frozen`)
    default: Any = None                  # the value of the bare form
    choices: tuple[str, ...] = ()        # the values a "radius" may take
    kind: str = "static"                 # static | instant | timing
    trigger: str | None = None           # the trigger of the Timing Effect it carries ("effect")
    restriction: Restriction | None = None
    guard: Guard | None = None

    @property
    def with_value(self) -> bool:
        return self.value != "none"

    def label(self, value: Any = None) -> str:
        """The keyword with its value, as the engine's records name it: "defiance 10", "moral +5 ATK",
        "taunt (underlings)"; a bare keyword, and one whose value is spelt elsewhere, by its name."""
        if self.value == "amount":
            return f"{self.name} {value}"
        if self.value == "stats" and isinstance(value, Mapping):
            return f"{self.name} " + " ".join(f"+{v} {k.upper()}" for k, v in value.items() if v)
        if self.value == "radius" and value not in (None, self.default):
            return f"{self.name} ({value})"
        return self.name

    def to_data(self, value: Any) -> Any:
        """The keyword as a scenario writes it (contract §2, §3): loadable again."""
        if self.value == "radius":
            return self.name if value in (None, self.default) else {self.name: {"radius": value}}
        if value is None:
            return self.name
        if self.value == "effect":
            return {self.name: {"name": value.name}}
        if self.value == "actions":   # Berserk's actions, as the card wrote them (plain data, JSON-able)
            return {self.name: [_written(part) for part in value]}
        return {self.name: list(value) if isinstance(value, tuple) else value}


def _written(value: Any) -> Any:
    """An effect part (a Mapping) as plain data: a keyword inside it (a `grant:`) as a scenario writes it."""
    record = getattr(value, "record", None)
    if isinstance(record, KeywordDef):
        return record.to_data(value.value)
    if isinstance(value, Mapping):
        return {k: _written(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_written(v) for v in value]
    return value


def _restriction(declaring: str, still: str, by_effect: str, *own: str) -> Restriction:
    return Restriction(declaring, (*own, "glossary/restriction"), still, own or ("glossary/restriction",),
                       by_effect, (*own, "glossary/restriction"))


UNYIELDING = KeywordDef("unyielding", "Unyielding", ("glossary/unyielding", "13.6"),
                        ("target protection", "values"))
PRECISION = KeywordDef("precision", "Precision", ("glossary/precision",), ("battle",))
RANGE = KeywordDef("range", "Range", ("glossary/range",), ("attack reach",))
DUAL_WIELDING = KeywordDef("dual_wielding", "Dual Wielding", ("glossary/dual-wielding",), ("attacks",))
FROZEN = KeywordDef("frozen", "Frozen", ("glossary/frozen",), ("attack restriction", "placing"),
                    restriction=_restriction("is Frozen and can't attack", "has become Frozen",
                                             "Frozen, a restriction", "glossary/frozen"))
TAUNT = KeywordDef("taunt", "Taunt", ("glossary/taunt",), ("target protection", "non-events"),
                   value="radius", default="same_direct_superior",
                   choices=("same_direct_superior", "other_own_souls", "underlings"))
CANNOT_ATTACK = KeywordDef("cannot_attack", "Cannot Attack", ("glossary/restriction",),
                           ("attack restriction",),
                           restriction=_restriction("can't attack: a restriction is in force",
                                                    "may no longer attack (a restriction)",
                                                    "restricted from attacking"))
MORAL = KeywordDef("moral", "Moral", ("glossary/moral", "5.1.2"), ("values",), value="stats", bare=False)
DEFIANCE = KeywordDef("defiance", "Defiance", ("glossary/defiance",), ("battle", "non-events"),
                      value="amount", bare=False, kind="instant")
BERSERK = KeywordDef("berserk", "Berserk", ("glossary/berserk", "9.5.8"), ("battle", "non-events"),
                     value="actions", bare=False, kind="instant")
REINFORCEMENT = KeywordDef("reinforcement", "Reinforcement", ("glossary/reinforcement",), ("triggers",),
                           value="effect", bare=False, kind="timing", trigger="recruited")

# The table, in the order the desk's form and the docs list them.
KEYWORDS: dict[str, KeywordDef] = {k.name: k for k in (
    UNYIELDING, PRECISION, RANGE, DUAL_WIELDING, FROZEN, TAUNT, CANNOT_ATTACK,
    MORAL, DEFIANCE, BERSERK, REINFORCEMENT)}
NAMES = tuple(KEYWORDS)
BARE = tuple(k.name for k in KEYWORDS.values() if k.bare)
WITH_VALUE = tuple(k.name for k in KEYWORDS.values() if k.with_value)


def restrictions() -> list[tuple[KeywordDef, Restriction]]:
    """The keywords that forbid attacking, in the table's order (the order their refusals are said)."""
    return [(k, k.restriction) for k in KEYWORDS.values() if k.restriction is not None]


def guards() -> list[tuple[KeywordDef, Guard]]:
    """The keywords that keep their Soul from being chosen as Attack Target, in the table's order."""
    return [(k, k.guard) for k in KEYWORDS.values() if k.guard is not None]


def words(kw: Any) -> str:
    """A keyword as the Codex prints it: "Dual Wielding", "Defiance 5", "Frozen" (a Keyword, or a name
    as a slot effect lays it)."""
    label = kw.label() if hasattr(kw, "label") else str(kw)
    name, _, rest = label.partition(" ")
    return " ".join(w.capitalize() for w in name.split("_")) + (f" {rest}" if rest else "")
