"""Does a card's printed text say what its data says? The card pages show the answer for every
library card, and the tests require it: the text read (`read_card_text`) against the card's
`keywords`, `effects`, `caster`/`ambusher` and an Armament's values, compared in one form (canon.py).

    check_card_text(card_mapping).agrees   # True
    check_card_text(card_mapping).words    # the writer's words for the card's data
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from judge.engine.driver.card_text.canon import canonical_effects, canonical_keywords
from judge.engine.driver.card_text.part_words import CannotWrite
from judge.engine.driver.card_text.read import CARD_TYPES, read_card_text
from judge.engine.driver.card_text.write import write_card_text

_VALUE_KEYS = ("atk", "def", "hp")


@dataclass(frozen=True)
class TextCheck:
    agrees: bool
    words: str                      # the writer's words for the card's data ("" if it has none)
    differs: tuple[str, ...] = ()   # which of keywords, effects, caster, ambusher, values differ
    problems: tuple[str, ...] = ()  # what of the printed text could not be read

    def to_dict(self) -> dict[str, Any]:
        return {"agrees": self.agrees, "words": self.words, "differs": list(self.differs),
                "problems": list(self.problems)}


def check_card_text(card: Mapping[str, Any]) -> TextCheck:
    """The printed text of `card` (contract §3 mapping) read and compared with its data."""
    card_type = str(card.get("type", "soul"))
    if card_type not in CARD_TYPES:
        return TextCheck(False, "", problems=(f"unknown card type {card_type!r}",))
    values = {k: card[k] for k in _VALUE_KEYS if card.get(k)} if card_type == "armament" else {}
    try:
        words = write_card_text(card.get("keywords") or [], card.get("effects") or [], card_type,
                                card.get("caster"), card.get("ambusher"), values)
    except (CannotWrite, KeyError, TypeError, ValueError):
        words = ""
    reading = read_card_text(str(card.get("text") or ""), card_type)
    if reading.problems:
        return TextCheck(False, words, problems=tuple(p.text for p in reading.problems))
    differs = tuple(name for name, same in (
        ("keywords", canonical_keywords(reading.keywords) == canonical_keywords(card.get("keywords") or [])),
        ("effects", canonical_effects(reading.effects) == canonical_effects(card.get("effects") or [])),
        ("caster", reading.caster == card.get("caster")),
        ("ambusher", reading.ambusher == card.get("ambusher")),
        ("values", reading.values == values)) if not same)
    return TextCheck(not differs, words, differs)
