"""The round trip as a property: effects generated from the contract's vocabulary (§3: kinds, limits,
triggers, conditions, costs, targets, actions, durations, keywords) are written as text and read back
to the same data (issue 28)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.engine import KEYWORDS, read_card_text, write_card_text
from judge.engine.driver.card_text.canon import canonical_effects, canonical_keywords
from judge.engine.driver.card_text.phrases import DURATIONS, TRIGGER_PHRASES

AMOUNTS = st.integers(min_value=1, max_value=12).map(lambda n: n * 5)
COUNTS = st.integers(min_value=1, max_value=4)
DURATION = st.sampled_from(sorted(DURATIONS))
STATS = st.dictionaries(st.sampled_from(["atk", "def", "hp"]), AMOUNTS, min_size=1, max_size=3)
BARE = st.sampled_from([name for name, k in KEYWORDS.items() if k.value == "none"])
GRANT = st.one_of(BARE, AMOUNTS.map(lambda n: {"defiance": n}))
SOUL_TARGET = st.fixed_dictionaries({"soul": st.sampled_from(["own", "opposing", "any"]),
                                     "lines": st.sampled_from(["front", "any"])})
TARGET = st.one_of(SOUL_TARGET, st.fixed_dictionaries({"realm": st.sampled_from(["own", "opposing", "any"])}))
REF = st.sampled_from(["self", "all_opposing_souls", "all_own_souls", "other_own_souls", "underlings"])
CONDITION = st.one_of(st.just({"damaged": True}), st.just({"front_line": True}),
                      st.just({"hp_at_most_half": True}), st.just({"line": {"max": 2}}),
                      st.just({"line": {"min": 3}}), st.just({"leader": True}))


def _action(to: str) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        AMOUNTS.map(lambda n: {"damage": n, "to": to}),
        AMOUNTS.map(lambda n: {"heal": n, "to": to}),
        st.just({"capture": to}), st.just({"return": to}), st.just({"exile": to}),
        st.builds(lambda s, d: {"gain": s, "to": to, "until": d}, STATS, DURATION),
        st.builds(lambda k, d: {"grant": k, "to": to, "until": d}, GRANT, DURATION),
    )


OTHER = st.one_of(COUNTS.map(lambda n: {"draw": n}),
                  st.builds(lambda n, w: {"discard": n, "who": w}, COUNTS,
                            st.sampled_from(["self", "opponent"])),
                  st.just({"enlist": {"type": "soul"}}))


@st.composite
def effects(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(["activated", "timing"]))
    eff: dict[str, Any] = {"kind": kind}
    if kind == "activated" and draw(st.booleans()):
        eff["fast"] = True
    if draw(st.booleans()):
        eff["limit"] = draw(st.sampled_from(["1/Turn", "2/Game", "2/Game, 1/Turn"]))
    if kind == "timing":
        eff["trigger"] = draw(st.sampled_from(sorted(TRIGGER_PHRASES)))
        if draw(st.booleans()):
            eff["mandatory"] = True
    if draw(st.booleans()):
        eff["condition"] = draw(CONDITION)
    if draw(st.booleans()):
        eff["cost"] = [draw(st.one_of(COUNTS.map(lambda n: {"discard": n}),
                                      AMOUNTS.map(lambda n: {"pay_hp": n, "by": "self"})))]
    if draw(st.booleans()):
        eff["targets"] = [draw(TARGET)]
        eff["do"] = [draw(_action("target"))]
    else:
        eff["do"] = [draw(_action(draw(REF)))]
    if draw(st.booleans()):
        eff["do"].append(draw(OTHER))
    return eff


@settings(max_examples=150, deadline=None)
@given(st.lists(effects(), min_size=1, max_size=2))
def test_written_effects_read_back(generated: list[dict[str, Any]]) -> None:
    text = write_card_text([], generated, "soul")
    reading = read_card_text(text, "soul")
    assert reading.problems == (), (text, [p.text for p in reading.problems])
    assert canonical_effects(reading.effects) == canonical_effects(generated), text


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(BARE, AMOUNTS.map(lambda n: {"defiance": n}),
                          STATS.map(lambda s: {"moral": s}),
                          st.sampled_from(["same_direct_superior", "other_own_souls", "underlings"])
                          .map(lambda r: {"taunt": {"radius": r}})), min_size=1, max_size=3))
def test_written_keywords_read_back(keywords: list[Any]) -> None:
    text = write_card_text(keywords, [], "soul")
    reading = read_card_text(text, "soul")
    assert reading.problems == (), (text, [p.text for p in reading.problems])
    assert canonical_keywords(reading.keywords) == canonical_keywords(keywords), text
