"""The engine's vocabulary as data, for whoever offers it to people (the desk's custom-card form,
a JSON endpoint): read from the tables where each thing is declared, never copied.

    vocabulary() -> dict      # JSON-able
"""

from __future__ import annotations

from typing import Any

from judge.engine.data.card_records import (
    ATTRIBUTES,
    BARE_KEYWORDS,
    CARD_TYPES,
    CONDITION_KEYS,
    CONDITION_WORDS,
    DURATIONS,
    EFFECT_KINDS,
    FLAG_CONDITIONS,
    GROUP_REFS,
    KEYWORDS,
    SIDES,
    SINGLE_REFS,
    STAT_KEYS,
    TAUNT_RADII,
    TRIGGER_WORDS,
    TRIGGERS,
    VALUE_KEYWORDS,
)
from judge.engine.data.field import LINE_NAMES, load_field
from judge.engine.data.keywords import words as keyword_words
from judge.engine.data.parts import PARTS
from judge.engine.driver import verbs


def vocabulary() -> dict[str, Any]:
    """Verbs (with their keys), effect parts (with their keys and words), references, keywords,
    conditions and triggers (with their words for people), durations and the slots, as lists and
    mappings of plain values."""
    field = load_field()
    return {
        "verbs": [v.describe() for v in verbs.TABLE],
        "effect_parts": [part.vocabulary() for part in PARTS.values()],
        "references": {"single": list(SINGLE_REFS), "groups": list(GROUP_REFS),
                       "targets": "target, target2, … (the effect's targets in order)"},
        "keywords": {"all": list(KEYWORDS), "bare": list(BARE_KEYWORDS), "with_value": list(VALUE_KEYWORDS),
                     "taunt_radii": list(TAUNT_RADII)},
        "keyword_words": {name: keyword_words(name) for name in KEYWORDS},
        "conditions": list(CONDITION_KEYS),
        "flag_conditions": list(FLAG_CONDITIONS),
        "condition_words": dict(CONDITION_WORDS),
        "triggers": list(TRIGGERS),
        "trigger_words": dict(TRIGGER_WORDS),
        "durations": list(DURATIONS),
        "effect_kinds": list(EFFECT_KINDS),
        "card_types": list(CARD_TYPES),
        "attributes": list(ATTRIBUTES),
        "sides": list(SIDES),
        "stats": list(STAT_KEYS),
        "slots": {"soul": list(field.slots), "realm": list(field.realm_slots)},
        "lines": {str(n): name for n, name in LINE_NAMES.items()},
    }
