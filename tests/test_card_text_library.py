"""Card text in words, proved on the library: every card's printed text reads to its data, and what
the writer makes of that data reads back to it (issue 28)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from judge.engine.driver.card_text import read_card_text, write_card_text
from judge.engine.driver.card_text.canon import canonical_effects, canonical_keywords

CARDS = Path(__file__).resolve().parent.parent / "codex" / "cards"


def _library() -> list[dict[str, Any]]:
    out = []
    for path in sorted(CARDS.glob("*.yaml")):
        out.extend(yaml.safe_load(path.read_text(encoding="utf-8")))
    return out


LIBRARY = _library()


def _same(card: dict[str, Any], reading: Any) -> None:
    assert reading.problems == (), [p.text for p in reading.problems]
    assert canonical_keywords(reading.keywords) == canonical_keywords(card.get("keywords") or [])
    assert canonical_effects(reading.effects) == canonical_effects(card.get("effects") or [])
    assert reading.caster == card.get("caster")
    assert reading.ambusher == card.get("ambusher")
    if card["type"] == "armament":
        assert reading.values == {k: card[k] for k in ("atk", "def", "hp") if card.get(k)}


@pytest.mark.parametrize("card", LIBRARY, ids=[c["name"] for c in LIBRARY])
def test_printed_text_reads_as_the_data(card: dict[str, Any]) -> None:
    _same(card, read_card_text(card.get("text") or "", card["type"]))


@pytest.mark.parametrize("card", LIBRARY, ids=[c["name"] for c in LIBRARY])
def test_written_text_reads_back_to_the_data(card: dict[str, Any]) -> None:
    values = {k: card[k] for k in ("atk", "def", "hp") if card.get(k)} if card["type"] == "armament" else None
    text = write_card_text(card.get("keywords") or [], card.get("effects") or [], card["type"],
                           card.get("caster"), card.get("ambusher"), values)
    _same(card, read_card_text(text, card["type"]))


def test_the_library_has_cards_of_every_type() -> None:
    assert {c["type"] for c in LIBRARY} == {"soul", "event", "armament", "ambush", "realm"}
