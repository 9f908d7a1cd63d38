"""13.2.1: an effect or keyword granted to a card works as if it were printed on that card, for every
keyword that carries a trigger and every way a card can be granted one.

The ways of granting (contract §3): an aura of another card (a Static Effect `grant:` to
`other_own_souls`, 13.1.2), an effect laid on the Soul Spot (`lay: {grant: …}`, 13.3.3), an Armament's
keyword (10.3.3), and an effect with a duration (`grant:` … `until: end_of_turn`, 13.3.1). The keywords
with a trigger are those whose kind is not Static (keywords.KEYWORDS): Reinforcement (when
recruited, 10.1.2), Defiance (when attacked) and Berserk (when it captures its Attack Target).

Each case says what the Codex makes of it, not what the engine printed: the granted keyword triggers
and does what it says (the heal, the damage to the attacker, the ATK), and the step that fires it names
the card that granted it and cites 13.2.1. Reinforcement granted by an Armament or by an effect with a
duration reaches a Soul already on the field, which is never recruited while it has it: it does not
trigger (10.1.2), exactly as a printed Reinforcement does not trigger on equipping.
"""

from __future__ import annotations

from typing import Any

import pytest

from judge.engine.data.card_records import TRIGGER_WORDS
from judge.engine.data.keywords import KEYWORDS
from judge.engine.driver.api import load_scenario, resolve

# the keyword's value as a card writes it, and the trigger it fires on
TRIGGER_KEYWORDS: dict[str, tuple[Any, str]] = {
    "reinforcement": ({"targets": [{"soul": "own", "lines": "any"}], "do": [{"heal": 10, "to": "target"}]},
                      "recruited"),
    "defiance": (10, "attacked"),
    "berserk": ([{"gain": {"atk": 10}, "to": "self", "until": "permanently"}], "captures_attack_target"),
}
WAYS = ("aura", "slot", "armament", "duration")
GRANTER = {"aura": "Granting Banner", "slot": "Granting Ground", "armament": "Granting Blade",
           "duration": "Granting Rite"}

SOUL = {"type": "soul", "rank": 1, "attribute": "light", "atk": 5, "def": 5, "hp": 25}
# the Soul that is granted the keyword: 20 ATK, so it captures a 15-HP Soul with one attack
TAKER = {"name": "Plain Recruit", "type": "soul", "rank": 1, "attribute": "light", "atk": 20, "def": 0,
         "hp": 30}


def _cards(keyword: str, value: Any) -> list[dict[str, Any]]:
    grant = {keyword: value}
    return [
        {"name": "Granting Banner", **SOUL, "text": f"Your other Souls gain {keyword}.",
         "effects": [{"kind": "static", "grant": grant, "to": "other_own_souls"}]},
        {"name": "Granting Ground", "type": "event", "rank": 1, "attribute": "light",
         "text": f"Any Soul on the targeted Spot gains {keyword} until the end of your Opponent's next "
                 "Turn.",
         "effects": [{"kind": "activated", "targets": [{"spot": "own"}],
                      "do": [{"lay": {"grant": grant}, "on": "target",
                              "until": "end_of_opponents_next_turn"}]}]},
        {"name": "Granting Blade", "type": "armament", "rank": 1, "atk": 0, "def": 0, "hp": 0,
         "text": f"The equipped Soul has {keyword}.", "keywords": [grant]},
        {"name": "Granting Rite", "type": "event", "rank": 1, "attribute": "light",
         "text": f"One of your Souls gains {keyword} this Turn.",
         "effects": [{"kind": "activated", "targets": [{"soul": "own", "lines": "any"}],
                      "do": [{"grant": grant, "to": "target", "until": "end_of_turn"}]}]},
        {"name": "Frail Scout", "type": "soul", "rank": 0, "attribute": "dark", "atk": 10, "def": 0,
         "hp": 15},
        TAKER,
    ]


def _granted(keyword: str, way: str, player: str, field: dict[str, Any], slot: str) -> list[dict[str, Any]]:
    """Put the grant of `way` in the starting position, for the Soul on (or coming to) `slot`; the
    lasting effects it needs (13.3.3 laid on the Spot, 13.3.1 with a duration)."""
    value, _ = TRIGGER_KEYWORDS[keyword]
    grant = {keyword: value}
    ref = f"{player}:{slot}"
    if way == "aura":
        field["L2"] = "Granting Banner"
    elif way == "armament" and isinstance(field.get(slot), dict):
        field[slot]["armament"] = "Granting Blade"
    elif way == "slot":
        return [{"lay": {"grant": grant}, "on": ref, "until": "end_of_opponents_next_turn",
                 "source": "Granting Ground"}]
    elif way == "duration":
        return [{"grant": grant, "to": ref, "until": "end_of_opponents_next_turn", "source": "Granting Rite"}]
    return []


def _scenario(keyword: str, way: str) -> dict[str, Any]:
    a_field: dict[str, Any] = {"altar": "Queen Sol", "C3": {"card": "Grey Knight", "damage": 10}}
    b_field: dict[str, Any] = {"altar": "King Umbra"}
    a_hand: list[str] = []
    lasting: list[dict[str, Any]] = []
    phase = "combat"
    if keyword == "reinforcement":
        # 10.1.2: the Soul must be recruited while it has the keyword. An aura or a slot effect reaches a
        # Soul as it arrives; an Armament or a granted effect only reaches a Soul already on the field
        phase = "preparation"
        if way in ("aura", "slot"):
            lasting = _granted(keyword, way, "A", a_field, "Cm1")
            a_hand = ["Plain Recruit"]
            actions: list[dict[str, Any]] = [{"recruit": "Plain Recruit", "to": "Cm1"}]
        else:
            a_field["Cm1"] = {"card": "Plain Recruit"}
            a_hand = ["Granting Blade" if way == "armament" else "Granting Rite"]
            actions = [{"equip": "Granting Blade", "to": "Cm1"} if way == "armament"
                       else {"cast": "Granting Rite", "caster": "Cm1", "targets": ["Cm1"]}]
        actions.append({"use": "Reinforcement", "card": "Cm1", "targets": ["C3"]})
    elif keyword == "defiance":
        # B's Soul has the keyword; A's Dusk Lancer attacks it and takes the Defiance damage
        b_field["Cm1"] = {"card": "Plain Recruit"}
        lasting = _granted(keyword, way, "B", b_field, "Cm1")
        a_field["L2"] = "Dusk Lancer"
        actions = [{"attack": "L2", "target": "B:Cm1"}]
    else:
        # A's Soul has the keyword and captures B's Frail Scout with its attack
        a_field["Cm1"] = {"card": "Plain Recruit"}
        lasting = _granted(keyword, way, "A", a_field, "Cm1")
        b_field["C3"] = "Frail Scout"
        actions = [{"attack": "Cm1", "target": "B:C3"}]
    state = {"phase": phase, "players": {"A": {"field": a_field, "hand": a_hand}, "B": {"field": b_field}},
             "lasting": lasting}
    return {"id": f"granted-{keyword}-{way}", "cards": _cards(keyword, TRIGGER_KEYWORDS[keyword][0]),
            "state": state, "actions": actions}


def _resolved(keyword: str, way: str) -> dict[str, Any]:
    return resolve(load_scenario(_scenario(keyword, way)))


def _final_soul(ruling: dict[str, Any], ref: str) -> dict[str, Any]:
    player, slot = ref.split(":")
    entry = ruling["final"]["players"][player]["field"][slot]
    return entry if isinstance(entry, dict) else {"card": entry}


def test_every_keyword_with_a_trigger_has_its_cases() -> None:
    """A keyword that triggers (not Static) must be listed here with its trigger, so a new one gets its
    cases; every trigger it names is one of the card format's trigger words."""
    assert {name for name, record in KEYWORDS.items() if record.kind != "static"} == set(TRIGGER_KEYWORDS)
    assert all(trigger in TRIGGER_WORDS for _, trigger in TRIGGER_KEYWORDS.values())
    assert all(KEYWORDS[name].trigger in (None, trigger) for name, (_, trigger) in TRIGGER_KEYWORDS.items())


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("keyword", sorted(TRIGGER_KEYWORDS))
def test_a_granted_trigger_works_as_if_printed(keyword: str, way: str) -> None:
    ruling = _resolved(keyword, way)
    # the step where the keyword fires names the card that granted it
    granted = [s for s in ruling["steps"] if GRANTER[way] in s["text"] and s["kind"] in ("trigger", "instant",
                                                                                         "damage")]
    if keyword == "reinforcement":
        healed = _final_soul(ruling, "A:C3").get("damage", 0) == 0
        if way in ("aura", "slot"):
            # 10.1.2 + 13.2.1: recruited with the keyword, its Reinforcement triggers and is used
            assert ruling["rejected"] is None, ruling["rejected"]
            assert healed
            assert any("Reinforcement" in s["text"] and "13.2.1" in s["rules"] for s in granted)
        else:
            # recruited before it had the keyword: "when recruited" has passed, nothing is offered
            assert ruling["rejected"] is not None and ruling["rejected"]["action"] == 1
            assert "11.8.4" in ruling["rejected"]["rules"]
            assert not healed
        return
    assert ruling["rejected"] is None, ruling["rejected"]
    if keyword == "defiance":
        lancer = _final_soul(ruling, "A:L2")
        assert lancer["card"] == "Dusk Lancer" and lancer.get("damage", 0) == 10   # Defiance 10 reached it
        assert any("Defiance" in s["text"] for s in granted)
    else:
        assert _final_soul(ruling, "B:C3").get("captured") is True
        assert ruling["derived"]["A:Cm1"]["atk"] == 30                              # 20 + Berserk's 10
        assert any("Berserk" in s["text"] and "13.2.1" in s["rules"] for s in granted)
