"""Cards as data: the card schema of the contract (§3) loaded into frozen records.

    library = load_library()                  # codex/cards/*.yaml, cached
    library = library.with_cards(defs)        # plus a scenario's own `cards:` (they win on a clash)
    card = library.get("harold")              # CardDef or None; names match case-insensitively

Validation (card_reader.py) names the key path of every problem (`cards[2].effects[0].do[1].heal:
expected a multiple of 5`); see `parse_card` and `parse_cards`. The vocabulary (types, keywords,
triggers, references, durations) and the records are in card_records.py, the effect parts in
parts.py; this module is where the rest of the engine imports them from.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from judge import CODEX_DIR
from judge.engine.data import yamlio
from judge.engine.data.card_reader import parse_card, parse_cards, parse_keyword
from judge.engine.data.card_records import (
    ATTRIBUTES,
    BARE_KEYWORDS,
    CARD_TYPES,
    CONDITION_KEYS,
    DURATIONS,
    EFFECT_KINDS,
    EXTRA_CARD_KEYS,
    GROUP_REFS,
    KEYWORDS,
    SIDES,
    SINGLE_REFS,
    STAT_KEYS,
    TARGET_REF,
    TAUNT_RADII,
    TRIGGERS,
    VALUE_KEYWORDS,
    CardDef,
    EffectDef,
    Keyword,
    Library,
    Limit,
    TargetSpec,
)
from judge.engine.data.errors import Problems

__all__ = [
    "ATTRIBUTES",
    "BARE_KEYWORDS",
    "CARDS_DIR",
    "CARD_TYPES",
    "CONDITION_KEYS",
    "DURATIONS",
    "EFFECT_KINDS",
    "EXTRA_CARD_KEYS",
    "GROUP_REFS",
    "KEYWORDS",
    "SIDES",
    "SINGLE_REFS",
    "STAT_KEYS",
    "TARGET_REF",
    "TAUNT_RADII",
    "TRIGGERS",
    "VALUE_KEYWORDS",
    "CardDef",
    "EffectDef",
    "Keyword",
    "Library",
    "Limit",
    "TargetSpec",
    "load_library",
    "load_library_dir",
    "parse_card",
    "parse_cards",
    "parse_keyword",
]

CARDS_DIR = CODEX_DIR / "cards"

def _file_cards(data: Any) -> Any:
    # A library file holds one card (a mapping with `name`), a list of cards, or {cards: [...]}.
    if isinstance(data, Mapping) and "cards" in data and "name" not in data:
        return data["cards"], "cards"
    if isinstance(data, Mapping):
        return [data], None
    return data, ""


def load_library_dir(directory: Path) -> Library:
    """Every card under `directory` (*.yaml); invalid cards are left out and listed in `.problems`."""
    problems = Problems()
    cards: list[CardDef] = []
    seen: dict[str, str] = {}
    for path in sorted(directory.glob("**/*.yaml")) if directory.is_dir() else []:
        rel = path.relative_to(directory.parent.parent) if directory.parent.parent in path.parents else path
        try:
            data = yamlio.fix_keys(yamlio.load_project_file(path.read_text(encoding="utf-8")))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problems.problem(str(rel), "library_yaml", mark.line + 1 if mark else None,
                             said=str(getattr(exc, "problem", exc)))
            continue
        items, key = _file_cards(data)
        if key is None:
            prefix = str(rel)
            card = parse_card(items[0], prefix, problems)
            found = [card] if card else []
        else:
            found = parse_cards(items, f"{rel}:{key}" if key else str(rel), problems)
        for card in found:
            if card.name.lower() in seen:
                problems.problem(str(rel), "duplicate_card", name=card.name, other=seen[card.name.lower()])
            seen[card.name.lower()] = str(rel)
            cards.append(card)
    return Library(cards, problems.items)


@lru_cache(maxsize=1)
def load_library() -> Library:
    """The project's card library, `codex/cards/*.yaml` (cached)."""
    return load_library_dir(CARDS_DIR)
