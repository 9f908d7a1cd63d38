"""The Codex edition a resolution runs under (codex/editions.yaml; judge.codex.editions), and what
the engine reads from it: the numbers of `numbers.yaml` and the slot tree of `field.yaml`.

A scenario's `codex:` names its edition; `judge resolve --edition V` and `resolve(..., edition=V)`
override it; without either, the current edition rules. `under(version)` makes an edition the
active one for the code that runs inside it, and `active()` is how that code asks which it is.

    with under("0.4.1"):
        active().version                  # "0.4.1"
        active().numbers.spiral_turns     # 4, or whatever 0.4.1 says
        judge.engine.load_field()   # 0.4.1's slot tree
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path

from judge.codex.editions import Editions, editions
from judge.codex.loader import read_yaml
from judge.codex.model import CodexError

NUMBERS_FILE = "numbers.yaml"
FIELD_FILE = "field.yaml"


@dataclass(frozen=True)
class Numbers:
    """Every number of the Codex the engine applies, one field each (numbers.yaml has one entry per
    field: its value, the rules that say it, and those words)."""

    damage_step: int  # glossary/damage, glossary/heal: damage and healing come in steps of 5
    spiral_turns: int  # glossary/escalation-spiral: the first four turns wake slots; then all
    decked_out_turns: int  # glossary/decked-out: a Decked Out player loses at the end of the third
    recruits_per_turn: int  # 10.1.1: Souls are recruited one per turn
    recruiting_rounds_a: int  # glossary/player-a: A's recruiting rounds before the first turn (4)
    recruiting_rounds_b: int  # glossary/player-b: B's (3)
    ambushes_per_setter: int  # 10.4.2: each Soul may control only one set Ambush at a time

    def recruiting_rounds(self, player: str) -> int:
        """glossary/setup: the recruiting rounds `player` has before the first turn."""
        return self.recruiting_rounds_a if player == "A" else self.recruiting_rounds_b


@dataclass(frozen=True)
class EditionRules:
    """What the engine takes from one edition."""

    version: str
    folder: Path
    numbers: Numbers
    rules: dict[str, tuple[str, ...]]   # number name -> the rule ids that say it
    field_file: str                      # its field.yaml (a str: the engine looks it up very often)


def read_numbers(path: Path) -> tuple[Numbers, dict[str, tuple[str, ...]]]:
    """numbers.yaml → Numbers; a missing or malformed entry is a CodexError naming its key."""
    data = read_yaml(path)
    values: dict[str, int] = {}
    rules: dict[str, tuple[str, ...]] = {}
    for item in fields(Numbers):
        entry = data.get(item.name) if isinstance(data, dict) else None
        value = entry.get("value") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise CodexError(
                f"{path}: {item.name}.value: expected a whole number of 1 or more, got {value!r}"
            )
        values[item.name] = value
        rules[item.name] = tuple(str(r) for r in entry.get("rules") or ())
    return Numbers(**values), rules


@lru_cache(maxsize=16)
def _rules(version: str, folder: Path) -> EditionRules:
    numbers, rules = read_numbers(folder / NUMBERS_FILE)
    return EditionRules(version=version, folder=folder, numbers=numbers, rules=rules,
                        field_file=str(folder / FIELD_FILE))


_active: ContextVar[EditionRules | None] = ContextVar("judge_edition", default=None)


def current_version() -> str:
    return editions().current


def known(version: str) -> bool:
    return editions().get(version) is not None


def held() -> list[str]:
    return editions().versions


_current: list[tuple[Editions, EditionRules]] = []


def rules_of(version: str | None = None) -> EditionRules:
    """The edition `version` (the current one when None); UnknownEdition for one we don't hold."""
    held = editions()
    if version is None and _current and _current[0][0] is held:
        return _current[0][1]
    found = held.require(version)
    rules = _rules(found.version, found.folder)
    if version is None:
        _current[:] = [(held, rules)]
    return rules


def active() -> EditionRules:
    """The edition of the resolution running now; outside one, the current edition."""
    return _active.get() or rules_of(None)


def numbers() -> Numbers:
    """The active edition's numbers."""
    return active().numbers


@contextmanager
def under(version: str | None) -> Iterator[EditionRules]:
    """Run the code inside with edition `version` (None: the current one) active."""
    rules = rules_of(version)
    token = _active.set(rules)
    try:
        yield rules
    finally:
        _active.reset(token)
