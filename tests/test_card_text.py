"""Card text in words (issue 28): each phrase family reads to the data it means, each kind of decline
names the phrase, where it starts and what it could be, and a table of card texts written from the
Codex's phrasing reads with no misreading."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from judge.engine import read_card_text, write_card_text
from judge.engine.driver.card_text.canon import canonical_effects, canonical_keywords
from judge.engine.driver.card_text.phrases import vocabulary_keys

TABLE = yaml.safe_load((Path(__file__).parent / "fixtures" / "card_texts.yaml").read_text(encoding="utf-8"))


def _reads_as(case: dict[str, Any]) -> str:
    reading = read_card_text(case["text"], case["type"])
    if reading.problems:
        return "declined"
    same = (canonical_keywords(reading.keywords) == canonical_keywords(case.get("keywords") or [])
            and canonical_effects(reading.effects) == canonical_effects(case.get("effects") or [])
            and reading.caster == case.get("caster") and reading.ambusher == case.get("ambusher")
            and reading.values == (case.get("values") or {}))
    return "read" if same and not case.get("declined") else "misread"


def test_the_table_of_card_texts_reads_with_no_misreading() -> None:
    assert len(TABLE) >= 60
    outcomes = {"read": 0, "declined": 0, "misread": 0}
    misread = []
    for case in TABLE:
        outcome = _reads_as(case)
        outcomes[outcome] += 1
        if outcome == "misread" or (outcome == "declined") != bool(case.get("declined")):
            misread.append((case["text"], outcome))
    print(f"\ncard texts: {len(TABLE)}; read {outcomes['read']}, declined {outcomes['declined']}, "
          f"misread {outcomes['misread']}")
    assert outcomes["misread"] == 0
    assert misread == []    # each text meant to be read is read, each meant to be declined is declined


@pytest.mark.parametrize("case", [c for c in TABLE if not c.get("declined")], ids=lambda c: c["text"][:50])
def test_what_the_writer_makes_of_a_table_card_reads_back(case: dict[str, Any]) -> None:
    text = write_card_text(case.get("keywords") or [], case.get("effects") or [], case["type"],
                           case.get("caster"), case.get("ambusher"), case.get("values"))
    reading = read_card_text(text, case["type"])
    assert reading.problems == (), (text, [p.text for p in reading.problems])
    assert canonical_effects(reading.effects) == canonical_effects(case.get("effects") or []), text
    assert canonical_keywords(reading.keywords) == canonical_keywords(case.get("keywords") or []), text


def test_every_word_of_the_engine_vocabulary_has_its_phrasing() -> None:
    for name, (engine, worded) in vocabulary_keys().items():
        assert sorted(engine) == sorted(worded), name


# --- phrase families ------------------------------------------------------------------------------

def _effects(text: str, card_type: str = "soul") -> list[dict[str, Any]]:
    reading = read_card_text(text, card_type)
    assert reading.problems == (), [p.text for p in reading.problems]
    return reading.effects


def test_durations() -> None:
    for words, until in (("this Turn", "end_of_turn"), ("until the end of the Turn", "end_of_turn"),
                         ("until the end of your Opponent's next Turn", "end_of_opponents_next_turn"),
                         ("permanently", "permanently")):
        do = _effects(f"Your Souls gain 5 ATK {words}.", "event")[0]["do"]
        assert do == [{"gain": {"atk": 5}, "to": "all_own_souls", "until": until}]


def test_limits_and_kinds() -> None:
    eff = _effects("Activated, Fast, 2/Game, 1/Turn: Draw 1 card.")[0]
    assert (eff["kind"], eff["fast"], eff["limit"]) == ("activated", True, "2/Game, 1/Turn")
    assert _effects("When this Soul is attacked: draw 1 card.")[0]["kind"] == "timing"
    assert _effects("Instant: When this Soul is attacked: draw 1 card.")[0]["kind"] == "instant"
    assert _effects("Your other Souls gain 5 HP.")[0]["kind"] == "static"
    assert _effects("Draw 1 card.", "event")[0]["kind"] == "activated"     # Events are Activated (11.1)
    assert _effects("Activated: Draw 1 card.", "ambush")[0]["fast"] is True   # every Ambush is Fast


def test_numbers_written_as_words() -> None:
    do = _effects("Deal twenty-five damage to any Soul.", "event")[0]["do"]
    assert do == [{"damage": 25, "to": "target"}]
    assert read_card_text("Defiance ten.").keywords == [{"defiance": 10}]


def test_targets() -> None:
    cases = {
        "an opposing Soul in the Front Line": {"soul": "opposing", "lines": "front"},
        "any opposing Soul": {"soul": "opposing", "lines": "any"},
        "any Soul": {"soul": "any", "lines": "any"},
        "one of your Souls": {"soul": "own", "lines": "any"},
        "a captured Soul": {"soul": "any", "lines": "any", "captured": True},
        "an opposing Dark Soul in the Front Line": {"soul": "opposing", "lines": "front",
                                                    "where": {"attribute": "dark"}},
        "any opposing Soul of rank 1 or lower": {"soul": "opposing", "lines": "any",
                                                 "where": {"rank": {"max": 1}}},
        "any Realm": {"realm": "any"},
        "an opposing Realm": {"realm": "opposing"},
    }
    for words, selector in cases.items():
        eff = _effects(f"Deal 5 damage to {words}.", "event")[0]
        assert eff["targets"] == [selector], words


def test_conditions() -> None:
    cases = {"is damaged": {"damaged": True}, "stands in the Second Line or lower": {"line": {"max": 2}},
             "is in the Front Line": {"front_line": True}, "is not in the Front Line": {"front_line": False},
             "has half its HP or less": {"hp_at_most_half": True}, "is a Leader": {"leader": True},
             "is of rank 2 or higher": {"rank": {"min": 2}}, "has Unyielding": {"keyword": "unyielding"}}
    for words, condition in cases.items():
        eff = _effects(f"Activated: While this Soul {words}, draw 1 card.")[0]
        assert eff["condition"] == condition, words


def test_costs() -> None:
    eff = _effects("Caster: Any Dark Soul. Cost: Discard 1 card and the Caster pays 5 HP. Draw 2 cards.",
                   "event")[0]
    assert eff["cost"] == [{"discard": 1}, {"pay_hp": 5, "by": "caster"}]


def test_every_action_of_the_contract_is_read() -> None:
    texts = {
        "damage": "Deal 5 damage to the attacker.", "heal": "Heal 5 damage from this Soul.",
        "capture": "Capture the attacker.", "return": "Return the attacker to its owner's hand.",
        "exile": "Exile the attacker.", "teleport": "Teleport this Soul to L2.",
        "gain": "This Soul gains 5 ATK this Turn.", "grant": "This Soul gains Range this Turn.",
        "negate": "Negate that Effect.", "draw": "Draw 1 card.", "discard": "Discard 1 card.",
        "enlist": "Enlist an Event.", "battle": "This Soul battles the attacker.",
        "if": "If the attacker is damaged, capture it.",
    }
    for verb, text in texts.items():
        do = _effects(f"When this Soul is attacked: {text}")[0]["do"]
        assert verb in do[0], (verb, do)
    lay = _effects("Target any Soul Spot: any Soul on the targeted Spot is Frozen this Turn.",
                   "event")[0]["do"]
    assert lay == [{"lay": "frozen", "on": "target", "until": "end_of_turn"}]


def test_case_and_one_typo_are_forgiven_and_said() -> None:
    reading = read_card_text("DEFAINCE 5. activated, 1/turn: drwa 1 card.")
    assert reading.problems == ()
    assert reading.keywords == [{"defiance": 5}]
    fixed = [(c.written, c.read_as) for c in reading.corrections]
    assert fixed == [("defaince", "defiance"), ("drwa", "draw")]


def test_the_two_disputes_of_the_issue_read() -> None:
    trap = read_card_text("When the Ambusher is targeted by an Effect: return the Caster to its owner's "
                          "hand.",
                          "ambush")
    assert trap.effects == [{"kind": "timing", "fast": True, "trigger": "targeted",
                             "do": [{"return": "caster"}]}]
    aura = read_card_text("Your other Souls gain Reinforcement: Heal 10 damage from one of your Souls.")
    assert aura.problems == ()
    assert aura.effects == [{"kind": "static", "to": "other_own_souls",
                             "grant": {"reinforcement": {"targets": [{"soul": "own", "lines": "any"}],
                                                         "do": [{"heal": 10, "to": "target"}]}}}]
    bare, = read_card_text("Your other Souls gain Reinforcement.").problems
    # Reinforcement needs its effect: declined, never read as a bare keyword, and the problem says so
    assert (bare.code, bare.facts["nearest"]) == ("unfinished", "Reinforcement: …")


def test_a_granted_keyword_that_carries_its_effect_is_written_as_printed_and_reads_back() -> None:
    berserk = {"berserk": [{"gain": {"atk": 10}, "to": "self", "until": "permanently"}]}
    reinforcement = {"reinforcement": {"cost": [{"discard": 1}],
                                       "targets": [{"soul": "opposing", "lines": "front"}],
                                       "do": [{"damage": 10, "to": "target"}]}}
    effects = [{"kind": "static", "grant": berserk, "to": "other_own_souls"},
               {"kind": "activated", "targets": [{"soul": "own", "lines": "any"}],
                "do": [{"grant": reinforcement, "to": "target"}, {"draw": 1}]}]
    text = write_card_text([], effects, "soul")
    assert "gain Berserk: This Soul gains 10 ATK permanently." in text
    assert "gains Reinforcement: Cost: Discard 1 card. Deal 10 damage to an opposing Soul" in text
    reading = read_card_text(text, "soul")
    assert reading.problems == ()
    assert canonical_effects(reading.effects) == canonical_effects(effects)
    # a Reinforcement's own cost is written too (it was left out once)
    assert write_card_text([{"reinforcement": {"cost": [{"discard": 1}], "do": [{"draw": 1}]}}]) == \
        "Reinforcement: Cost: Discard 1 card. Draw 1 card."


# --- declines -------------------------------------------------------------------------------------

def test_an_unreadable_phrase_is_named_with_where_and_the_nearest_phrasing() -> None:
    text = "Your Souls gain 5 ATK this trunn."
    problem, = read_card_text(text, "event").problems
    assert problem.code == "unreadable"
    assert (problem.facts["phrase"], problem.facts["nearest"]) == ("trunn", "this Turn")
    assert text[problem.offset:].startswith(problem.facts["phrase"])


def test_no_sentence_is_silently_dropped() -> None:
    reading = read_card_text("Unyielding. Flibber the gadget. Glorp. Range.")
    assert [p.code for p in reading.problems] == ["unreadable", "unreadable"]
    assert reading.keywords == ["unyielding", "range"]


def test_an_ambiguous_pronoun_names_both_readings() -> None:
    text = "Target two opposing Souls in the Front Line: deal 5 damage to it."
    problem, = read_card_text(text, "event").problems
    assert problem.code == "ambiguous"
    assert problem.facts["readings"] == ["the first target", "the second target"]


def test_what_a_type_cannot_have_is_declined() -> None:
    assert [p.code for p in read_card_text("When this Soul is attacked: draw 1 card.", "event").problems] == \
        ["not_on_type"]
    assert [p.code for p in read_card_text("Caster: Any Dark Soul.", "ambush").problems] == ["not_on_type"]
    assert [p.code for p in read_card_text("+10 ATK.", "soul").problems] == ["not_on_type"]


def test_an_effect_without_a_kind_or_an_action_is_declined() -> None:
    assert [p.code for p in read_card_text("Your Souls gain 5 ATK this Turn.").problems] == ["needs_kind"]
    assert [p.code for p in read_card_text("Activated, 1/Turn:").problems] == ["needs_action"]
    assert [p.code for p in read_card_text("", "event").problems] == ["no_effect"]


def test_a_half_sentence_is_declined_as_unfinished() -> None:
    problem, = read_card_text("Deal 10 damage to", "event").problems
    assert problem.code == "unfinished"


def test_problems_are_records_with_words_made_from_their_facts() -> None:
    problem, = read_card_text("Deal 10 damage to an opposing Soul this trunn.", "event").problems
    data = problem.to_dict()
    assert data["problem"] == "unreadable" and data["facts"]["offset"] == 35
    assert data["text"] == "can't read 'this trunn' (at 35); did you mean 'this Turn'?"


def test_known_words_where_the_codex_never_puts_them_are_named_as_out_of_place_not_as_a_typo() -> None:
    # a duration after damage: suggesting 'this Turn' for 'this Turn' would help no one
    problem, = read_card_text("Deal 10 damage to an opposing Soul this Turn.", "event").problems
    assert problem.code == "misplaced"
    assert problem.text == ("'this Turn' (at 35) can't follow 'Deal 10 damage to an opposing Soul': "
                            "the Codex doesn't say it there")


def test_a_scenario_card_given_as_text_is_read_and_its_problems_have_its_key_path() -> None:
    from judge.engine import ScenarioError, load_scenario
    scenario = {"cards": [{"name": "Trap", "type": "ambush", "rank": 1, "attribute": "dark",
                           "text": "When the Ambusher is targeted by an Effect: return the Caster to its "
                                   "owner's hand."}],
                "state": {"players": {"A": {"field": {"altar": "Queen Sol", "C3": "Grey Knight"}},
                                      "B": {"field": {"altar": "King Umbra"}, "hand": ["Trap"]}}}}
    loaded = load_scenario(scenario)
    assert loaded.library["Trap"].effects[0].trigger == "targeted"
    scenario["cards"][0]["text"] = "When the Ambusher is targetted by an Effect: return the Caster home."
    with pytest.raises(ScenarioError) as exc:
        load_scenario(scenario)
    assert {p["path"] for p in exc.value.problems} == {"cards[0].text"}


def test_berserk_chooses_no_target_so_a_selector_in_it_is_declined() -> None:
    problem, = read_card_text("Berserk: Deal 10 damage to any opposing Soul.").problems
    assert problem.code == "contradiction"
    assert read_card_text("Berserk: Deal 10 damage to the attacker.").keywords == \
        [{"berserk": [{"damage": 10, "to": "attacker"}]}]


def test_any_mark_it_does_not_know_is_named_not_skipped() -> None:
    text = "Deal 10 damage to the attacker @ once."
    problem, = read_card_text(text, "event").problems
    assert problem.code == "unreadable" and problem.offset == text.index("@")


def test_a_text_that_stops_after_a_bracket_is_read_and_named_without_looping() -> None:
    reading = read_card_text("When this Soul is recruited: draw 1 card. (This effect is mandatory.) Deal")
    assert [p.code for p in reading.problems] == ["unfinished"]
    assert reading.effects[0]["mandatory"] is True


def test_any_soul_as_a_requirement_is_no_requirement() -> None:
    assert read_card_text("Caster: Any Soul. Draw 1 card.", "event").caster is None


# --- the Codex's other words for the same things ------------------------------------------------------

@pytest.mark.parametrize(("text", "card_type", "same_as"), [
    # glossary DEF: "'Shield' on a card means DEF"
    ("+10 Shield.", "armament", "+10 DEF."),
    ("Your Souls gain 5 Shield this Turn.", "event", "Your Souls gain 5 DEF this Turn."),
    # "a card" is one card
    ("Draw a card, then your Opponent discards a card.", "event",
     "Draw 1 card, then your Opponent discards 1 card."),
    # glossary Limit: "'1/Turn' means the effect can be used once per turn, '2/Game' twice per duel"
    ("Activated, twice per Game, once per Turn: Draw 1 card.", "soul",
     "Activated, 2/Game, 1/Turn: Draw 1 card."),
    ("Whenever this Soul attacks, it gains 5 ATK this Turn.", "soul",
     "When this Soul attacks: it gains 5 ATK this Turn."),
    # 10.4.6 names a moment without "When": "The Ambusher is targeted by an Effect"
    ("The Ambusher is targeted by an Effect: return the Caster to its owner's hand.", "ambush",
     "When the Ambusher is targeted by an Effect: return the Caster to its owner's hand."),
    ("Capture a damaged opposing Soul in the Front Line.", "event",
     "Capture an opposing damaged Soul in the Front Line."),
    # an Effect marked Fast is used: Activated (glossary Activated Effect, Fast)
    ("Fast, 1/Turn: This Soul gains 10 DEF this Turn.", "soul",
     "Activated, Fast, 1/Turn: This Soul gains 10 DEF this Turn."),
    ("While this Soul is undamaged, it gains 5 ATK.", "soul",
     "While this Soul is not damaged, it gains 5 ATK."),
    ("+5 HP. The Wielder has Range.", "armament", "+5 HP. The equipped Soul has Range."),
    # only an effect is negated (13.5.1): "it", when being targeted by an Effect is the trigger
    ("When this Soul is targeted by an opposing Effect: negate it.", "soul",
     "When this Soul is targeted by an opposing Effect: negate that Effect."),
    ("Range, Precision.", "soul", "Range. Precision."),
    ("Unyielding and Defiance: 10.", "soul", "Unyielding. Defiance 10."),
    # 13.1.1: a Static Effect's condition, said after what it gives
    ("Your other Souls gain 5 ATK while this Soul is in the Front Line.", "soul",
     "While this Soul is in the Front Line, your other Souls gain 5 ATK."),
    ("While this Realm is damaged, your Souls gain 5 DEF.", "realm",
     "While this card is damaged, your Souls gain 5 DEF."),
    ("Caster: A Dark Soul. Draw 1 card.", "event", "Caster: Any Dark Soul. Draw 1 card."),
    ("All of your other Souls gain Precision.", "soul", "Your other Souls gain Precision."),
    ("While this Soul is your Leader, your Souls gain 5 ATK.", "soul",
     "While this Soul is a Leader, your Souls gain 5 ATK."),
    ("Moral 5 ATK, 5 HP.", "soul", "Moral: +5 ATK, +5 HP."),
    # glossary Pay HP: "the named Soul takes that much damage"
    ("Caster: Any Soul. Cost: The Caster takes 5 damage. Discard 1 card from your hand.", "event",
     "Cost: The Caster pays 5 HP. Discard 1 card."),
    ("Target an opposing Soul in the Front Line: it takes 10 damage.", "event",
     "Deal 10 damage to an opposing Soul in the Front Line."),
    ("Your Opponent's Souls lose 5 ATK this Turn.", "event", "Every opposing Soul loses 5 ATK this Turn."),
])
def test_other_codex_words_read_as_the_usual_ones(text: str, card_type: str, same_as: str) -> None:
    reading, usual = read_card_text(text, card_type), read_card_text(same_as, card_type)
    assert reading.problems == () and usual.problems == ()
    assert reading.to_dict() | {"corrections": []} == usual.to_dict() | {"corrections": []}


def test_what_is_not_an_effect_is_not_negated_and_a_moment_names_the_cards_own_soul() -> None:
    negated, = read_card_text("Activated: Negate this Soul.", "soul").problems
    assert negated.code == "names_nothing" and "13.5.1" in negated.text
    untriggered, = read_card_text("Activated, Fast: Negate that Effect.", "soul").problems
    assert untriggered.code == "names_nothing" and "no Effect triggered" in untriggered.text
    moment = read_card_text("The Ambusher is attacked: draw 1 card.", "soul").problems
    assert [p.code for p in moment] == ["names_nothing"]




def test_a_requirement_or_condition_names_a_keyword_without_its_value() -> None:
    assert read_card_text("Ambusher: Any Soul with Defiance. Activated: Draw 1 card.", "ambush").ambusher == \
        {"keyword": "defiance"}
    # a value in a condition has no place in the data: declined, not dropped
    assert read_card_text("While this Soul has Defiance 10, it gains 5 ATK.").problems


def test_an_event_or_ambush_is_no_soul_and_a_condition_said_last_on_an_event_is_declined() -> None:
    paid, = read_card_text("Cost: This Soul pays 10 HP. Draw 1 card.", "event").problems
    assert paid.code == "names_nothing" and "the Caster" in paid.text
    self_named, = read_card_text("Activated: This Soul gains 5 ATK this Turn.", "ambush").problems
    assert "the Ambusher" in self_named.text
    lasting, = read_card_text("Your Souls gain 5 ATK while this card is damaged.", "event").problems
    assert lasting.code == "ambiguous"


def test_an_empty_soul_spot_is_read_only_as_where_a_soul_is_moved_to() -> None:
    moved = read_card_text("Activated: Teleport this Soul to one of your empty Soul Spots.")
    assert moved.problems == () and moved.effects[0]["targets"] == [{"spot": "own"}]
    # a target Soul Spot may be empty or not (glossary Soul Spot): "empty" there is declined, not dropped
    laid, = read_card_text("Target one of your empty Soul Spots: any Soul on the targeted Spot gains 5 ATK "
                           "this Turn.", "event").problems
    assert laid.code == "contradiction" and "empty" in laid.text


@pytest.mark.parametrize("case", [c for c in TABLE if not c.get("declined")], ids=lambda c: c["text"][:50])
def test_what_a_table_card_reads_as_is_a_card_the_engine_loads(case: dict[str, Any]) -> None:
    from judge.engine import load_scenario
    reading = read_card_text(case["text"], case["type"])
    card = {"name": "Probe", "type": case["type"], "rank": 1, "attribute": "dark", **reading.card_data(),
            **reading.values}
    if case["type"] in ("soul", "realm"):
        card.update({"atk": 5, "def": 5, "hp": 20})
    loaded = load_scenario({"cards": [card],
                            "state": {"players": {"A": {"field": {"altar": "Queen Sol"}},
                                                  "B": {"field": {"altar": "King Umbra"}}}}})
    assert "Probe" in loaded.library


def test_a_rank_no_card_has_is_declined() -> None:
    problem, = read_card_text("Enlist a Dark Soul of rank 5.", "event").problems
    assert problem.code == "contradiction" and "0 to 3" in problem.text
