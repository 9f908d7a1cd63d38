"""A reason is a record (judge/engine/data/errors.py REASONS): the words of a refusal, a fizzle or a
non-event are made from its facts, so the same reason reads the same in the trace, in `rejected` and in
its violation; `expect.reasons` checks the facts a ruling must give."""

from __future__ import annotations

from typing import Any

import pytest

from judge.engine import ScenarioError
from judge.engine.data.errors import REASONS, Reason
from judge.engine.driver.api import load_scenario, resolve

# 11.4.1 / 13.6.2 / 11.4.2: B's only Soul in the Front Line is Unyielding at rank 1; King Umbra stands
# behind it. A rank-0 Event with no target given can't be cast, and each candidate's reason is named.
NO_TARGET: dict[str, Any] = {
    "state": {"players": {"A": {"field": {"altar": "Queen Sol", "C3": "Dusk Lancer"},
                                "hand": ["Chrome Chains"]},
                          "B": {"field": {"altar": "King Umbra", "C3": "Stubborn Squire"}}}},
    "actions": [{"cast": "Chrome Chains", "caster": "C3"}],
}


def _with_expect(expect: dict[str, Any]) -> dict[str, Any]:
    return {**NO_TARGET, "expect": expect}


def test_no_legal_target_names_each_candidate_and_reads_the_same_everywhere() -> None:
    ruling = resolve(load_scenario(NO_TARGET))
    violation = ruling["rejected"]["violations"][0]
    reason = violation["reason"]
    assert reason["reason"] == "no_legal_target"
    excluded = {r["facts"]["slot"]: r for r in reason["facts"]["excluded"]}
    assert excluded["B:C3"]["reason"] == "target_unyielding" and excluded["B:C3"]["facts"]["rank"] == 1
    assert excluded["B:altar"]["reason"] == "target_not_front_line"
    assert excluded["B:altar"]["facts"]["line"] == 2
    # one reason, one wording: the violation, the rejection and the reject step say the same words
    assert violation["text"] == reason["text"]
    assert reason["text"] in ruling["rejected"]["text"]
    step = ruling["steps"][-1]
    assert step["kind"] == "reject" and step["reasons"] == [reason]
    assert {"11.4.1", "13.6.2", "11.4.2"} <= set(step["rules"])


def test_expect_reasons_holds_on_the_facts_and_fails_on_a_wrong_one() -> None:
    good = resolve(load_scenario(_with_expect({"reasons": [
        {"reason": "target_unyielding", "slot": "B:C3", "rank": 1}]})))
    assert good["expect"]["passed"], good["expect"]
    bad = resolve(load_scenario(_with_expect({"reasons": [
        {"reason": "target_unyielding", "slot": "B:altar"}]})))
    assert not bad["expect"]["passed"]
    assert "reasons[0]" in bad["expect"]["failures"][0]


@pytest.mark.parametrize("reasons, path", [
    ([{"reason": "no_such_reason"}], "expect.reasons[0].reason"),
    ([{"slot": "B:C3"}], "expect.reasons[0]"),
    ("target_unyielding", "expect.reasons"),
])
def test_a_bad_expect_reasons_is_a_problem_at_its_key_path(reasons: Any, path: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(_with_expect({"reasons": reasons}))
    assert path in [p["path"] for p in caught.value.problems]


def test_every_reason_kind_reads_from_its_facts() -> None:
    """Each kind has words and rules; a fact missing from a reason shows as {fact}, never crashes."""
    for code, kind in REASONS.items():
        assert kind.words and isinstance(kind.rules, tuple), code
        assert Reason.of(code).text   # facts missing: the placeholders stay, nothing raises
    with pytest.raises(KeyError):
        Reason.of("not_a_reason")
