"""The Codex's words for the engine's vocabulary: one phrasing (the writer's, first) and the other
phrasings the reader accepts, keyed by the engine's own tables (card_records, keywords, parts). No key
here is new: tests/test_card_text.py checks that every trigger, duration, reference and keyword of the
engine has its words, and the grammar (grammar.py) is generated from these tables, so reading and
writing share one vocabulary.

    DURATIONS["end_of_turn"]      # ("this Turn",)
    REFS["other_own_souls"]       # ("your other Souls", ...)
"""

from __future__ import annotations

from judge.engine.data.card_records import DURATIONS as DURATION_KEYS
from judge.engine.data.card_records import GROUP_REFS, SINGLE_REFS, STAT_KEYS, TRIGGER_TEXT, TRIGGERS
from judge.engine.data.keywords import KEYWORDS

# 13.3.1: how long a lasting effect lasts (the Codex's own words).
DURATIONS: dict[str, tuple[str, ...]] = {
    "end_of_turn": ("this Turn", "until the end of the Turn", "until the end of this Turn",
                    "until end of Turn", "until the end of Turn", "for the rest of the Turn",
                    "for the rest of this Turn"),
    "end_of_opponents_next_turn": ("until the end of your Opponent's next Turn",
                                   "until the end of the Opponent's next Turn",
                                   "until the end of your Opponent's next turn"),
    "permanently": ("permanently",),
}

# Triggers (contract §3): the word that leads ("When"/"After") and what the subject does, from the
# trigger table itself (card_records.TRIGGER_TEXT).
TRIGGER_PHRASES: dict[str, tuple[str, tuple[str, ...]]] = TRIGGER_TEXT

# References in `do:` (contract §3) that a card names in words. `target…` is said by the selector
# that chose it ("an opposing Soul in the Front Line") and then "it", "that Soul", "the first", …
REFS: dict[str, tuple[str, ...]] = {
    "self": ("this Soul", "this card", "this Realm"),
    "caster": ("the Caster",),
    "ambusher": ("the Ambusher",),
    "wielder": ("the equipped Soul", "the Wielder"),
    "attacker": ("the attacker", "the attacking Soul"),
    "attacked": ("the attacked Soul",),
    "triggering_effect": ("that Effect", "the triggering Effect", "the Effect"),
    "all_opposing_souls": ("every opposing Soul", "each opposing Soul", "all opposing Souls",
                           "opposing Souls", "your Opponent's Souls", "all of your Opponent's Souls"),
    "all_own_souls": ("your Souls", "each of your Souls", "all your Souls", "all of your Souls"),
    "other_own_souls": ("your other Souls", "each of your other Souls", "all your other Souls",
                        "all of your other Souls"),
    "underlings": ("its Underlings", "this Soul's Underlings"),
}
PLURAL_REFS = frozenset({"all_own_souls", "other_own_souls", "underlings"})

# The words of a stat (Moral +5 ATK, gains 10 DEF).
STATS: dict[str, str] = {key: key.upper() for key in STAT_KEYS}
# ... and the other words the Codex gives them (glossary ATK, DEF: "'Shield' on a card means DEF", HP).
STAT_WORDS: dict[str, tuple[str, ...]] = {key: (word,) for key, word in STATS.items()}
STAT_WORDS["atk"] += ("Attack",)
STAT_WORDS["def"] += ("Shield", "Defence", "Defense")
STAT_WORDS["hp"] += ("hit points",)

# Taunt's radius (glossary/taunt), as printed in brackets after the keyword.
TAUNT_RADII: dict[str, tuple[str, ...]] = {
    "same_direct_superior": ("Your Souls that share the same Direct Superior as this Soul",),
    "other_own_souls": ("Your other Souls",),
    "underlings": ("Its Underlings", "This Soul's Underlings", "Underlings"),
}

# Lines counted from the front (glossary/line): "the Second Line or lower" = line 1 or 2.
ORDINALS: tuple[str, ...] = ("first", "second", "third", "fourth", "fifth", "sixth")

# Numbers written as words.
NUMBER_WORDS: dict[str, int] = {w: i for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"))}
NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
                     "ninety": 90, "hundred": 100})
for _tens in ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"):
    for _unit in ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine"):
        NUMBER_WORDS[f"{_tens}-{_unit}"] = NUMBER_WORDS[_tens] + NUMBER_WORDS[_unit]
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}   # "each of two …"

# The engine's keyword table, by the title the Codex prints ("Dual Wielding" -> dual_wielding).
KEYWORD_TITLES: dict[str, str] = {record.title: name for name, record in KEYWORDS.items()}


def vocabulary_keys() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each engine vocabulary beside the keys that have words here (tests check they are equal)."""
    return {
        "durations": (tuple(DURATION_KEYS), tuple(DURATIONS)),
        "triggers": (tuple(TRIGGERS), tuple(TRIGGER_PHRASES)),
        "refs": (tuple(SINGLE_REFS + GROUP_REFS), tuple(REFS)),
        "keywords": (tuple(KEYWORDS), tuple(KEYWORD_TITLES.values())),
    }
