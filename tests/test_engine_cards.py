"""Cards as data (contract §3): the schema loads into typed records, and every malformed card is
refused with the key path of the problem."""

from __future__ import annotations

import pytest
from engine_helpers import CARDS

from judge.engine import Library, Problems, load_library, parse_card, parse_cards
from judge.engine.data import parts


def _problems(card: dict) -> list[dict]:
    problems = Problems()
    parse_cards([card], "cards", problems)
    return problems.items


def test_the_test_cards_all_load():
    problems = Problems()
    cards = parse_cards(CARDS, "cards", problems)
    assert problems.items == []
    assert len(cards) == len(CARDS)


def test_keywords_load_with_their_values():
    problems = Problems()
    harold = parse_card({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10,
                         "keywords": ["range", {"defiance": 10}, {"moral": {"atk": 5}}, "taunt",
                                      {"taunt": {"radius": "underlings"}}]}, "c", problems)
    assert problems.items == []
    names = [(k.name, k.value) for k in harold.keywords]
    assert names == [("range", None), ("defiance", 10), ("moral", {"atk": 5}),
                     ("taunt", "same_direct_superior"),
                     ("taunt", "underlings")]


def test_effects_load_with_limit_targets_and_do():
    card = Library(parse_cards(CARDS, "cards", Problems())).get("medic")
    eff = card.effect("field dressing")
    assert eff.kind == "activated" and eff.limit.per_turn == 1 and eff.limit.per_game is None
    assert eff.targets[0].what == "soul" and eff.targets[0].side == "own" and eff.targets[0].lines == "any"
    assert eff.condition == {"line": {"max": 2}}
    heal = eff.do[0]
    assert isinstance(heal, parts.Heal) and (heal.amount, heal.to) == (10, "target")
    assert dict(heal) == {"heal": 10, "to": "target"}    # it reads as the card wrote it


def test_limit_with_both_parts():
    card = Library(parse_cards(CARDS, "cards", Problems())).get("Quick Medic")
    assert (card.effects[0].limit.per_game, card.effects[0].limit.per_turn) == (2, 1)


def test_reinforcement_is_a_timing_effect_on_recruit():
    card = Library(parse_cards(CARDS, "cards", Problems())).get("Recruiter")
    eff = card.effect("Reinforcement")
    assert eff.kind == "timing" and eff.trigger == "recruited"


def test_library_names_match_case_insensitively_and_scenario_cards_win():
    lib = Library(parse_cards(CARDS, "cards", Problems()))
    assert lib.get("GRUNT").name == "Grunt"
    problems = Problems()
    other = parse_cards([{"name": "grunt", "type": "soul", "rank": 0, "attribute": "dark", "hp": 5}], "c",
                        problems)
    assert lib.with_cards(other).get("Grunt").attribute == "dark"


BAD = [
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10,
      "effects": [{"kind": "activated", "do": [{"damage": 5, "to": "target"}, {"heal": -7, "to": "self"}]}]},
     "cards[0].effects[0].do[1].heal", "0 or more"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10, "colour": "red"},
     "cards[0].colour", "unknown key"),
    ({"name": "X", "type": "soul", "rank": 4, "attribute": "light", "hp": 10}, "cards[0].rank", "0..3"),
    ({"name": "X", "type": "spell", "rank": 1}, "cards[0].type", "expected one of"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "grey", "hp": 10}, "cards[0].attribute",
     "light, dark"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": -12}, "cards[0].hp", "0 or more"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": "ten"}, "cards[0].hp",
     "whole number"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10, "keywords": ["flying"]},
     "cards[0].keywords[0]", "unknown keyword"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10, "keywords": [{"defiance": 0}]},
     "cards[0].keywords[0].defiance", "above 0"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10,
      "effects": [{"kind": "activated", "limit": "often", "do": []}]}, "cards[0].effects[0].limit", "N/Turn"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10,
      "effects": [{"kind": "timing", "do": []}]}, "cards[0].effects[0].trigger", "needs a trigger"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10,
      "effects": [{"kind": "activated", "targets": [{"soul": "mine"}], "do": []}]},
     "cards[0].effects[0].targets[0].soul", "own, opposing, any"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10,
      "effects": [{"kind": "activated", "do": [{"heal": 5, "to": "everyone"}]}]},
     "cards[0].effects[0].do[0].to", "reference"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10,
      "effects": [{"kind": "activated", "do": [{"explode": 5}]}]}, "cards[0].effects[0].do[0]", "exactly one "
                                                                                                "of"),
    ({"name": "X", "type": "event", "rank": 1, "atk": 5}, "cards[0].atk", "no ATK"),
    ({"name": "X", "type": "soul", "rank": 2, "attribute": "light", "hp": 10, "leader": True},
     "cards[0].rank", "Leaders are rank 3"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10,
      "effects": [{"kind": "activated", "cost": [{"pay_hp": 5, "by": "opponent"}], "do": []}]},
     "cards[0].effects[0].cost[0].by", "self, caster, ambusher"),
    ({"name": "X", "type": "soul", "rank": 1, "attribute": "light", "hp": 10,
      "effects": [{"kind": "static", "grant": "range"}]}, "cards[0].effects[0].to", "missing"),
    ({"type": "soul", "rank": 1, "attribute": "light", "hp": 10}, "cards[0].name", "missing"),
]


@pytest.mark.parametrize("card, path, message", BAD, ids=[b[1] for b in BAD])
def test_malformed_card_names_the_key_path(card, path, message):
    problems = _problems(card)
    assert any(p["path"] == path and message in p["message"] for p in problems), problems


def test_library_cards_all_load():
    """Every card in codex/cards/ passes validation (the list is empty until the card library lands)."""
    library = load_library()
    assert library.problems == [], "\n".join(f"{p['path']}: {p['message']}" for p in library.problems)


def test_values_that_are_not_steps_of_5_are_accepted():
    # glossary/damage: the Codex rounds damage and healing where they are dealt, so a card's values,
    # bonuses and amounts may be any whole number (issue 11, part 4)
    card = {"name": "Odd", "type": "soul", "rank": 1, "attribute": "light", "atk": 7, "def": 3, "hp": 33,
            "keywords": [{"defiance": 8}, {"moral": {"atk": 2}}],
            "effects": [{"kind": "activated", "cost": [{"pay_hp": 4}],
                         "do": [{"damage": 13, "to": "self"}, {"heal": 1, "to": "self"},
                                {"gain": {"atk": 6}, "to": "self"}]}]}
    assert _problems(card) == []
    problems = Problems()
    (odd,) = parse_cards([card], "cards", problems)
    assert (odd.stat("atk"), odd.stat("def"), odd.stat("hp")) == (7, 3, 33)
    assert odd.effects[0].do[0]["damage"] == 13 and odd.effects[0].cost[0]["pay_hp"] == 4
