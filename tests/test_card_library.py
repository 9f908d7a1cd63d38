"""The card library (`codex/cards/*.yaml`): every card loads through the engine's card loader,
names are unique, the ten cards the Codex names are there and marked reconstructed, and the
starter set uses every keyword, trigger, target selector, action verb, cost kind and card type
of the scenario format (contract §3).

The required vocabularies below are copied from the contract (shared/spec/scenario-format.md
§3), not from the cards, so a card that is dropped or changed makes a test fail."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from judge import CODEX_DIR

CARDS_DIR = CODEX_DIR / "cards"

# Contract §3, "Keywords".
KEYWORDS = {"unyielding", "precision", "range", "dual_wielding", "frozen", "taunt", "moral",
            "defiance", "berserk", "reinforcement"}
# Contract §3, "Triggers".
TRIGGERS = {"recruited", "attacked", "attacks", "after_battle", "captured", "targeted",
            "captures_attack_target"}
# Contract §3, "Actions in do".
VERBS = {"damage", "heal", "capture", "return", "exile", "teleport", "gain", "grant", "lay",
         "negate", "draw", "discard", "enlist", "battle", "if"}
# Contract §3, "Costs".
COSTS = {"discard", "pay_hp"}
# Contract §3, "Target selectors": every form, with each value of each key.
SELECTOR_FORMS = {"soul:own", "soul:opposing", "soul:any", "lines:front", "lines:any",
                  "captured:true", "spot:own", "spot:opposing", "spot:any", "spot-naming:front",
                  "realm:own", "realm:opposing", "realm:any"}
# The ten cards the Codex names in its examples (codex-gaps §8), with the rank it gives.
CODEX_CARDS = {"Head Nurse Jeanne": None, "Cyber-Wormhole": 2, "Mystic Wormhole": 3,
               "Chrome Chains": 0, "Harold": 1, "Noah": 2, "Principle of Stolen Energy": None,
               "Baltic Blizzard": None, "Confusion": None, "Final Resting Place": None}


def raw_cards() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(CARDS_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        items = data if isinstance(data, list) else data.get("cards", [data])
        out += [(path.name, card) for card in items]
    return out


CARDS = raw_cards()
STARTER = [card for _, card in CARDS if card.get("origin") == "starter"]


def walk_actions(actions: list[dict]) -> Iterator[dict]:
    for action in actions or []:
        yield action
        if "if" in action:
            yield from walk_actions(action.get("then"))
            yield from walk_actions(action.get("else"))


def effects_of(card: dict) -> Iterator[dict]:
    yield from card.get("effects") or []
    for kw in card.get("keywords") or []:
        if isinstance(kw, dict) and "reinforcement" in kw:
            yield {"kind": "timing", "trigger": "recruited", **kw["reinforcement"]}


def keyword_names(card: dict) -> set[str]:
    names = {kw if isinstance(kw, str) else next(iter(kw)) for kw in card.get("keywords") or []}
    for effect in effects_of(card):
        if "grant" in effect:
            grant = effect["grant"]
            names.add(grant if isinstance(grant, str) else next(iter(grant)))
    return names


def used(cards: list[dict]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {"keywords": set(), "triggers": set(), "verbs": set(),
                                  "costs": set(), "selectors": set(), "types": set()}
    for card in cards:
        found["keywords"] |= keyword_names(card)
        kind = card["type"] + (":leader" if card.get("leader") else "")
        if card["type"] == "event":
            kind += ":caster" if card.get("caster") else ":any-caster"
        if card["type"] == "ambush":
            kind += ":ambusher" if card.get("ambusher") else ":any-ambusher"
        found["types"].add(kind)
        for kw in card.get("keywords") or []:
            if isinstance(kw, dict) and "berserk" in kw:
                found["verbs"] |= {next(iter(a)) for a in walk_actions(kw["berserk"])}
        for effect in effects_of(card):
            if effect.get("trigger"):
                found["triggers"].add(effect["trigger"])
            found["verbs"] |= {next(iter(a)) for a in walk_actions(effect.get("do"))}
            found["costs"] |= {next(iter(c)) for c in effect.get("cost") or []}
            for sel in effect.get("targets") or []:
                if "soul" in sel:
                    found["selectors"] |= {f"soul:{sel['soul']}", f"lines:{sel.get('lines', 'front')}"}
                    if sel.get("captured"):
                        found["selectors"].add("captured:true")
                elif "spot" in sel:
                    found["selectors"].add(f"spot-naming:{sel['naming']}" if "naming" in sel
                                           else f"spot:{sel['spot']}")
                elif "realm" in sel:
                    found["selectors"].add(f"realm:{sel['realm']}")
    return found


def test_card_files_are_lists_of_cards():
    assert CARDS, "codex/cards/ holds no card"
    for filename, card in CARDS:
        assert isinstance(card, dict) and card.get("name"), f"{filename}: a card without a name"


def test_names_are_unique():
    seen: dict[str, str] = {}
    for filename, card in CARDS:
        key = card["name"].lower()
        assert key not in seen, f"{card['name']!r} is in {seen[key]} and {filename}"
        seen[key] = filename


def test_every_card_loads_through_the_engine_loader():
    cards = pytest.importorskip("judge.engine.data.cards", reason="the engine's card loader is not merged")
    library = cards.load_library_dir(CARDS_DIR)
    assert library.problems == []
    assert len(library) == len(CARDS)
    for _, card in CARDS:
        assert library.get(card["name"]) is not None, card["name"]


@pytest.mark.parametrize("name", sorted(CODEX_CARDS))
def test_codex_card_is_reconstructed(name):
    card = next((c for _, c in CARDS if c["name"] == name), None)
    assert card is not None, f"{name} is named by the Codex but missing from the library"
    assert card.get("reconstructed") is True
    assert card.get("sources"), f"{name}: list the Codex sentences it rests on"
    assert card.get("origin") != "starter"
    if CODEX_CARDS[name] is not None:
        assert card["rank"] == CODEX_CARDS[name]


def test_codex_card_sources_are_known_rule_ids():
    from judge.codex import load_codex

    codex = load_codex()
    for _, card in CARDS:
        for rid in card.get("sources") or []:
            assert codex.knows(rid), f"{card['name']}: unknown source {rid!r}"


def test_reconstructed_shapes_follow_the_codex():
    by_name = {c["name"]: c for _, c in CARDS}
    # Head Nurse Jeanne heals only while in the Second Line or lower (11.3.1's example).
    jeanne = by_name["Head Nurse Jeanne"]["effects"][0]
    assert jeanne["condition"] == {"line": {"max": 2}}
    assert any("heal" in a for a in jeanne["do"])
    # Cyber- and Mystic Wormhole: a cost, a Soul Spot target naming the Soul, an "If" (11.3.2, 11.4.5).
    for name in ("Cyber-Wormhole", "Mystic Wormhole"):
        effect = by_name[name]["effects"][0]
        assert effect["targets"][0].get("naming") == "front"
        assert effect["cost"] and any("if" in a for a in effect["do"])
    # Harold: "Your other Souls gain Defiance 5" as a static grant (13.2.2).
    assert by_name["Harold"]["effects"][0] == {"kind": "static", "grant": {"defiance": 5},
                                                 "to": "other_own_souls"}
    assert "unyielding" in by_name["Noah"]["keywords"]
    assert by_name["Principle of Stolen Energy"]["effects"][0]["trigger"] == "targeted"
    blizzard = by_name["Baltic Blizzard"]["effects"][0]
    assert "naming" not in blizzard["targets"][0] and blizzard["do"][0]["lay"] == "frozen"
    confusion = by_name["Confusion"]["effects"][0]["do"][0]["battle"]
    assert confusion == {"attacker": "target", "target": "target", "counts_as_attack": True}
    assert by_name["Final Resting Place"]["effects"][0]["targets"][0]["captured"] is True


def test_starter_set_size_and_values():
    assert len(STARTER) >= 30
    for card in STARTER:
        for key in ("atk", "def", "hp"):
            if key in card:
                assert card[key] % 5 == 0, f"{card['name']}.{key} is not a multiple of 5"
        if card.get("leader"):
            assert card["type"] == "soul" and card["rank"] == 3


@pytest.mark.parametrize("what, required", [
    ("keywords", KEYWORDS), ("triggers", TRIGGERS), ("verbs", VERBS), ("costs", COSTS),
    ("selectors", SELECTOR_FORMS),
    ("types", {"soul", "soul:leader", "event:caster", "event:any-caster", "armament",
               "ambush:ambusher", "ambush:any-ambusher", "realm"}),
])
def test_starter_set_uses_the_whole_vocabulary(what, required):
    missing = required - used(STARTER)[what]
    assert not missing, f"no starter card uses {what}: {sorted(missing)}"


def test_vocabulary_check_can_fail():
    # The check above is not vacuous: without the Soul cards, keywords go missing.
    without_souls = [c for c in STARTER if c["type"] != "soul"]
    assert KEYWORDS - used(without_souls)["keywords"]
