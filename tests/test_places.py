"""A `where` answer's places (judge/engine/driver/asking.py `Place`): read once from the step records'
`from`/`to` and the start, then said in words and compared as records."""

from __future__ import annotations

import pytest

from judge.engine.driver.asking import Place


@pytest.mark.parametrize(("text", "words"), [
    ("A.hand", "A's hand"),
    ("B.elysium", "B's Elysium"),
    ("A.exile", "A's exile"),
    ("under B:L2", "under the Soul on B:L2"),
    ("B:C3", "B:C3 (on the field)"),
    ("A:L2 (face down)", "A:L2 (face down) (on the field)"),
    ("event slot", "event slot"),
])
def test_a_place_in_words(text: str, words: str) -> None:
    assert Place.parse(text).words == words


def test_a_place_is_read_into_its_parts() -> None:
    assert Place.parse("under B:L2") == Place("under B:L2", slot="B:L2", under=True)
    assert Place.parse("A.deck") == Place("A.deck", player="A", pile="deck")
    assert Place.parse("under the table") == Place("under the table")   # not a slot: no parts


def test_a_card_under_a_soul_leaves_from_that_slot_and_a_pile_only_from_itself() -> None:
    armament = Place.parse("under A:L2")
    assert armament.left_from(Place.parse("A:L2")) and armament.left_from(Place.parse("under A:L2"))
    assert not armament.left_from(Place.parse("A:L3"))
    hand = Place.parse("A.hand")
    assert hand.left_from(Place.parse("A.hand")) and not hand.left_from(Place.parse("B.hand"))
    soul = Place.parse("B:C3")
    assert soul.left_from(Place.parse("B:C3")) and not soul.left_from(Place.parse("under B:C3"))
