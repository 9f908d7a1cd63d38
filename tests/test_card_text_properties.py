"""The round trip as a property: effects generated from the contract's vocabulary (§3: kinds, limits,
triggers, conditions, costs, targets, actions, durations, keywords, keywords granted with their values
or with what they do) are written as text and read back to the same data (issue 28)."""

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
# what a target Soul must be (a condition map, contract §3 `where`): said before or after "Soul"
WHERE = st.fixed_dictionaries({}, optional={
    "damaged": st.just(True), "attribute": st.sampled_from(["dark", "light"]),
    "rank": st.sampled_from([{"min": 1}, {"max": 2}, {"min": 2, "max": 2}]),
    "keyword": st.sampled_from(["unyielding", "precision", "defiance", "taunt"]),
    "hp_at_most_half": st.just(True), "leader": st.just(True)})


@st.composite
def soul_target(draw: Any) -> dict[str, Any]:
    sel: dict[str, Any] = {"soul": draw(st.sampled_from(["own", "opposing", "any"])),
                           "lines": draw(st.sampled_from(["front", "any"]))}
    where = draw(WHERE) if draw(st.booleans()) else {}
    if sel["soul"] == "own":
        where.pop("leader", None)    # "one of your Leaders": there is one Leader
    if "keyword" in where:
        where.pop("hp_at_most_half", None)   # one "with …" after the Soul
    if where:
        sel["where"] = where
    return sel


SOUL_TARGET = soul_target()
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


# Keywords that carry what they do, granted ("Your other Souls gain Reinforcement: …"): Reinforcement's
# Timing Effect (a cost, a target, one or two actions) and Berserk's actions (no target).
def _cost_targets_do(draw: Any, effect: dict[str, Any]) -> dict[str, Any]:
    """An effect's cost (or none), a target and what it does to it, or what it does to a reference."""
    if draw(st.booleans()):
        effect["cost"] = [draw(st.one_of(COUNTS.map(lambda n: {"discard": n}),
                                         AMOUNTS.map(lambda n: {"pay_hp": n, "by": "self"})))]
    if draw(st.booleans()):
        effect["targets"] = [draw(TARGET)]
        effect["do"] = [draw(_action("target"))]
    else:
        effect["do"] = [draw(_action(draw(REF)))]
    return effect


@st.composite
def reinforcement(draw: Any) -> dict[str, Any]:
    return {"reinforcement": _cost_targets_do(draw, {})}


WITH_EFFECT = st.one_of(reinforcement(),
                        st.lists(st.deferred(lambda: REF.flatmap(_action)), min_size=1, max_size=2)
                        .map(lambda actions: {"berserk": actions}))
# every keyword as an aura grants it: bare, with a number, a radius, values, or what it does
GRANTED = st.one_of(GRANT, STATS.map(lambda s: {"moral": s}),
                    st.sampled_from(["same_direct_superior", "other_own_souls", "underlings"])
                    .map(lambda r: {"taunt": {"radius": r}}), WITH_EFFECT)

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
    _cost_targets_do(draw, eff)
    if draw(st.booleans()):
        eff["do"].append(draw(OTHER))
    if draw(st.integers(min_value=0, max_value=4)) == 0:   # it gives a keyword with what it does
        eff["do"].append({"grant": draw(WITH_EFFECT), "to": eff["do"][0].get("to", "self")
                          if "targets" in eff else draw(REF)})
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


# --- every card type, Soul Spots, two targets, conditions inside the effect --------------------------

GROUPS = st.sampled_from(["all_opposing_souls", "all_own_souls", "other_own_souls", "underlings"])
FLAG = st.sampled_from([{"damaged": True}, {"hp_at_most_half": True}, {"front_line": True},
                        {"leader": True}, {"attribute": "dark"}, {"attribute": "light"},
                        {"keyword": "unyielding"}, {"rank": {"min": 2}}])


@st.composite
def target_effects(draw: Any) -> dict[str, Any]:
    """An Activated effect whose parts use its targets in the ways the Codex words them."""
    shape = draw(st.sampled_from(["lay", "naming", "teleport", "battle", "if", "each"]))
    if shape == "lay":
        what = draw(st.one_of(st.just("frozen"), STATS.map(lambda s: {"gain": s}),
                              BARE.map(lambda k: {"grant": k})))
        return {"targets": [{"spot": draw(st.sampled_from(["own", "opposing", "any"]))}],
                "do": [{"lay": what, "on": "target", "until": draw(DURATION)}]}
    if shape == "naming":
        return {"targets": [{"spot": draw(st.sampled_from(["opposing", "any"])), "naming": "front"}],
                "do": [draw(_action("target"))]}
    if shape == "teleport":
        return {"targets": [draw(SOUL_TARGET), {"spot": "own"}],
                "do": [{"teleport": "target1", "to": "target2"}]}
    if shape == "battle":
        side = draw(st.sampled_from(["opposing", "any"]))
        sel = {"soul": side, "lines": "front"}
        return {"targets": [sel, dict(sel)],
                "do": [{"battle": {"attacker": "target1", "target": "target2",
                                   "counts_as_attack": draw(st.booleans())}}]}
    if shape == "if":
        part: dict[str, Any] = {"if": {**draw(FLAG), "of": "target"}, "then": [draw(_action("target"))]}
        if draw(st.booleans()):
            part["else"] = [draw(_action("target"))]
        return {"targets": [draw(SOUL_TARGET)], "do": [part]}
    count = draw(st.integers(min_value=2, max_value=3))
    sel = {"soul": draw(st.sampled_from(["opposing", "any"])),
           "lines": draw(st.sampled_from(["front", "any"]))}
    amount = draw(AMOUNTS)
    return {"targets": [dict(sel) for _ in range(count)],
            "do": [{"damage": amount, "to": f"target{i + 1}"} for i in range(count)]}


@st.composite
def cards(draw: Any) -> dict[str, Any]:
    card_type = draw(st.sampled_from(["soul", "event", "ambush", "realm", "armament"]))
    card: dict[str, Any] = {"type": card_type, "keywords": [], "effects": []}
    if card_type == "armament":
        card["values"] = draw(STATS)
        card["keywords"] = draw(st.lists(st.one_of(BARE, AMOUNTS.map(lambda n: {"defiance": n})),
                                         max_size=2, unique_by=lambda k: str(k)))
        static = [{"kind": "static", "gain": draw(STATS), "to": "self"}]
        card["effects"] = static if draw(st.booleans()) else []
        return card
    if card_type == "event" and draw(st.booleans()):
        card["caster"] = {"attribute": draw(st.sampled_from(["dark", "light"]))}
    if card_type == "ambush" and draw(st.booleans()):
        card["ambusher"] = {"attribute": draw(st.sampled_from(["dark", "light"]))}
    eff: dict[str, Any] = {"kind": "activated", **draw(target_effects())}
    if card_type in ("soul", "realm", "ambush"):
        eff["limit"] = draw(st.sampled_from(["1/Turn", "2/Game"]))
    if card_type == "ambush":
        eff["fast"] = True
        if draw(st.booleans()):
            eff = {"kind": "timing", "fast": True, "trigger": draw(st.sampled_from(["attacked", "targeted"])),
                   "do": [{"damage": draw(AMOUNTS), "to": draw(st.sampled_from(["attacker", "caster"]))}]}
    if card_type == "event" and draw(st.booleans()):
        eff["cost"] = [{"pay_hp": draw(AMOUNTS), "by": "caster"}]
    card["effects"].append(eff)
    if card_type in ("soul", "realm") and draw(st.booleans()):
        static: dict[str, Any] = {"kind": "static"}
        if draw(st.booleans()):
            static["condition"] = draw(CONDITION)
        static.update(draw(st.one_of(st.builds(lambda s, g: {"gain": s, "to": g}, STATS, GROUPS),
                                     st.builds(lambda k, g: {"grant": k, "to": g}, GRANTED, GROUPS),
                                     st.just({"negate": "all_opposing_souls"}))))
        card["effects"].append(static)
    return card


@settings(max_examples=200, deadline=None)
@given(cards())
def test_written_cards_of_every_type_read_back(card: dict[str, Any]) -> None:
    text = write_card_text(card["keywords"], card["effects"], card["type"], card.get("caster"),
                           card.get("ambusher"), card.get("values"))
    reading = read_card_text(text, card["type"])
    assert reading.problems == (), (text, [p.text for p in reading.problems])
    assert canonical_effects(reading.effects) == canonical_effects(card["effects"]), text
    assert canonical_keywords(reading.keywords) == canonical_keywords(card["keywords"]), text
    assert (reading.caster, reading.ambusher) == (card.get("caster"), card.get("ambusher")), text
    assert reading.values == (card.get("values") or {}), text
