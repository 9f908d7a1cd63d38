"""`can` / `why_not` beside `verify` (pokerkit's verify / can / do; python-chess's `move in
board.legal_moves`): one action checked alone agrees with the list of every legal action, and its
refusal carries the same reason records as a ruling's refusal of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge.commands.resolve import is_scenario_file
from judge.engine import (
    Reason,
    ScenarioError,
    can,
    legal_actions,
    load_field,
    load_scenario,
    load_scenario_file,
    resolve,
    why_not,
)
from judge.engine.driver import resolve as resolution
from judge.engine.rules.moves import PER_EFFECT

ROOT = Path(__file__).parent.parent / "scenarios"
LIBRARY = sorted(p for p in ROOT.rglob("*.yaml") if is_scenario_file(p))
FIELD = load_field()
SLOTS = list(FIELD.slots)
REL_KEYS = ("to", "at", "caster", "card")       # written unprefixed for the actor's own slots
FROM_HAND = ("recruit", "cast", "equip", "invoke", "set")
TAKES_TARGETS = ("cast", "spring", "activate", "use")


def _split(text: str, by: str) -> tuple[str, str]:
    player, sep, slot = str(text).partition(":")
    if not sep:
        player, slot = by, player
    return player.upper(), FIELD.normalize(slot) or slot


def _canonical(action: dict[str, Any]) -> dict[str, Any]:
    """An action written as `legal_actions` writes it: the actor's own slots unprefixed, attack
    targets and effect targets with their player."""
    by, out = action["by"], dict(action)
    for key in (*REL_KEYS, "attack"):
        if isinstance(action.get(key), str):
            player, slot = _split(action[key], by)
            out[key] = slot if player == by else f"{player}:{slot}"
    if "target" in action:
        out["target"] = "{}:{}".format(*_split(action["target"], by))
    if "targets" in action:
        out["targets"] = ["{}:{}".format(*_split(t, by)) for t in action["targets"]]
    return out


def _variants(action: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Near misses of a legal action: the other player, another slot, another target."""
    yield {**action, "by": "B" if action["by"] == "A" else "A"}
    for slot in SLOTS[::4]:
        for key in REL_KEYS:
            if key in action:
                yield {**action, key: slot}
        for player in ("A", "B"):
            if "target" in action:
                yield {**action, "target": f"{player}:{slot}"}
            if action.get("targets"):
                yield {**action, "targets": [f"{player}:{slot}", *action["targets"][1:]]}


def _candidates(scenario: Any, legal: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    yield from legal
    for action in legal:
        yield from (_canonical(v) for v in _variants(action))
    for queued in (a.to_dict() for a in scenario.actions):
        # an effect's targets left to the engine: legal when some choice is, listed once per choice
        if queued.get("targets") or next(iter(queued)) not in TAKES_TARGETS:
            yield from (_canonical({**queued, "by": p}) for p in ("A", "B"))


def _outside_the_list(scenario: Any, after: int, action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Where the list of legal actions says less than `can` by design (moves.py): at most PER_EFFECT
    target lists per effect, discards left to the engine, and only the known cards of a hand that
    also holds hidden ones."""
    verb = next(iter(action))
    same = [a for a in legal if all(a.get(k) == action.get(k) for k in action if k != "targets")]
    if action.get("targets") and len(same) >= PER_EFFECT:
        return True
    if "discard" in action:
        return True
    if verb in FROM_HAND and after:
        state, _ = resolution.state_after(scenario, after)
    else:
        state = scenario.state
    return verb in FROM_HAND and state.players[action["by"]].hand_hidden > 0


def _known_gap(action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """A `use` given targets where the listed use of that effect takes none: verify does not check the
    targets of a keyword's effect (test_use_of_a_keywords_effect_checks_its_targets, below)."""
    plain = {k: v for k, v in action.items() if k != "targets"}
    return "use" in action and bool(action.get("targets")) and plain in legal


# every 4th library ruling, each at its start, halfway through its queue and at its end
POSITIONS = [(path, at) for path in LIBRARY[::4] for at in ("start", "middle", "end")]


@pytest.mark.parametrize(("path", "at"), POSITIONS,
                         ids=[f"{p.parent.name}/{p.stem}@{at}" for p, at in POSITIONS])
def test_can_agrees_with_the_list_of_legal_actions(path: Path, at: str) -> None:
    scenario = load_scenario_file(path)
    after = {"start": 0, "middle": len(scenario.actions) // 2, "end": len(scenario.actions)}[at]
    legal = legal_actions(scenario, after)
    checked = 0
    for action in _candidates(scenario, legal):
        listed = action in legal
        if not listed and (_outside_the_list(scenario, after, action, legal) or _known_gap(action, legal)):
            continue
        said = [r.text for r in why_not(scenario, action, after)]
        assert can(scenario, action, after) == listed, (action, said)
        assert (why_not(scenario, action, after) == []) == listed, action
        checked += 1
    assert checked >= len(legal)


def _refused_outside_a_window(scenario: Any) -> bool:
    """A ruling that refuses an action taken outside a response window. Inside one, a queued action
    is first tried as an answer (legal_actions and can ask about that moment) and, when it is none,
    the window closes and the action is checked again in the position after it (cascade.py)."""
    index = (scenario.expect or {}).get("rejected")
    return isinstance(index, int) and resolution.state_after(scenario, index)[1] is None


REFUSED = [(path, scenario) for path in LIBRARY
           if _refused_outside_a_window(scenario := load_scenario_file(path))]


@pytest.mark.parametrize(("path", "scenario"), REFUSED, ids=[f"{p.parent.name}/{p.stem}" for p, _ in REFUSED])
def test_why_not_gives_the_records_of_the_rulings_refusal(path: Path, scenario: Any) -> None:
    ruling = resolve(scenario)
    refused = ruling["rejected"]
    index = refused["action"]
    reasons = why_not(scenario, scenario.actions[index], index)
    assert not can(scenario, scenario.actions[index], index)
    # one record per violation, with the violation's words; those the ruling keeps as records are its own
    assert [r.text for r in reasons] == [v["text"] for v in refused["violations"]]
    assert [r.to_dict() for r in reasons if r.code != "refused"] == \
        [v["reason"] for v in refused["violations"] if "reason" in v]
    step = next(s for s in ruling["steps"] if s.get("rules") == refused["rules"] and "not legal" in s["text"])
    assert [r.to_dict() for r in reasons if r.code != "refused"] == step.get("reasons", [])
    # a refusal kept as words and rules only becomes a `refused` record with those rules
    for reason, violation in zip(reasons, refused["violations"], strict=True):
        if reason.code == "refused":
            assert list(reason.rules) == violation["rules"]


# 11.4.3: B's Grey Knight lies captured on R2; Recall asks for an active Soul
CAPTURED = {"card": "Grey Knight", "captured": True}
TARGETS = {
    "state": {"players": {"A": {"field": {"altar": "Queen Sol", "L2": "Grey Knight"}, "hand": ["Recall"]},
                          "B": {"field": {"altar": "King Umbra", "R2": CAPTURED, "L2": "Shade Scout"}}}},
    "actions": [{"cast": "Recall", "caster": "L2", "targets": ["B:R2"]}],
}


def test_a_target_refusal_is_a_record_checked_by_its_facts() -> None:
    scenario = load_scenario(TARGETS)
    [reason] = why_not(scenario, scenario.actions[0], 0)
    assert reason == Reason.of("target_captured", card="Grey Knight", slot="B:R2")
    assert "11.4.3" in reason.rules
    # 11.4.3: the same refusal, checked by its facts in `expect.reasons`
    good = load_scenario({**TARGETS, "expect": {"reasons": [{"reason": "target_captured", "slot": "B:R2"}]}})
    assert resolve(good)["expect"] == {"passed": True, "failures": []}
    wrong = load_scenario({**TARGETS, "expect": {"reasons": [{"reason": "target_captured", "slot": "B:L2"}]}})
    assert resolve(wrong)["expect"]["failures"] == [
        "reasons[0]: no step gives the reason target_captured, slot B:L2"]


def test_a_legal_action_has_no_reason_and_a_malformed_one_is_bad_input() -> None:
    scenario = load_scenario(TARGETS)
    fine = {"cast": "Recall", "caster": "L2", "targets": ["B:L2"], "by": "A"}
    assert can(scenario, fine, 0) and why_not(scenario, fine, 0) == []
    assert fine in legal_actions(scenario, 0)
    with pytest.raises(ScenarioError) as caught:
        can(scenario, {"cast": "Recal", "caster": "L2"}, 0)
    assert caught.value.problems[0]["path"] == "action.cast"
    with pytest.raises(ScenarioError):
        why_not(scenario, {"recruit": "Grey Knight", "to": "Q9"}, 0)


@pytest.mark.xfail(strict=True, reason="verify_use does not check the targets of a keyword's effect "
                                       "(rules.moment.Offer holds only the effect's label)")
def test_use_of_a_keywords_effect_checks_its_targets() -> None:
    scenario = load_scenario_file(next(p for p in LIBRARY if p.stem == "granted-reinforcement-from-an-aura"))
    listed = {"use": "Reinforcement", "card": "Cm1", "by": "A"}
    assert listed in legal_actions(scenario, 1)
    assert not can(scenario, {**listed, "targets": ["A:C3"]}, 1)
