"""Disputes in words (tests/disputes_in_words.yaml): each is read, its reading checked against the position
meant, and ruled; the verdicts are the Codex's, worked out by hand. A decline must name the words."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from judge.engine import load_scenario, resolve
from judge.reading import Declined, read_dispute

CASES = yaml.safe_load((Path(__file__).with_name("disputes_in_words.yaml")).read_text(encoding="utf-8"))


def _card_at(scenario: dict, ref: str) -> str | None:
    player, slot = ref.split(":")
    pdata = scenario["state"]["players"][player]
    entry = (pdata.get("field") or {}).get(slot) or (pdata.get("realms") or {}).get(slot)
    return entry if isinstance(entry, str) or entry is None else entry.get("card")


def _same(verdict: object, expected: object) -> bool:
    if isinstance(expected, list):
        return isinstance(verdict, list) and sorted(map(str, verdict)) == sorted(map(str, expected))
    return verdict == expected


def test_the_set_is_large_and_varied() -> None:
    ruled = [c for c in CASES if "verdicts" in c]
    assert len(CASES) >= 60
    assert sum(1 for c in ruled if c.get("claim")) * 3 >= len(ruled)   # a third: a player's claim is wrong
    assert sum(1 for c in CASES if "declined" in c) >= 5


@pytest.mark.parametrize("case", [c for c in CASES if "verdicts" in c], ids=lambda c: c["text"][:60])
def test_a_dispute_is_read_as_meant_and_ruled_as_the_codex_says(case: dict) -> None:
    reading = read_dispute(case["text"], speaker=case.get("as"))
    scenario = reading.scenario
    for ref, card in (case.get("at") or {}).items():
        assert _card_at(scenario, ref) == card, f"{ref}: {reading.reading}"
    if "verbs" in case:
        other_keys = ("by", "to", "at", "targets", "caster", "target", "card")
        verbs = [next(k for k in a if k not in other_keys) for a in scenario["actions"]]
        assert verbs == case["verbs"], reading.reading
    ruling = resolve(load_scenario(scenario))
    answers = [a for a in ruling["answers"] if not a.get("default")]
    assert [a["verdict"] for a in answers] and len(answers) == len(case["verdicts"]), reading.reading
    for answer, expected in zip(answers, case["verdicts"], strict=True):
        assert _same(answer["verdict"], expected), f"{answer['text']}\n{reading.reading}"
        assert answer["rules"], answer


@pytest.mark.parametrize("case", [c for c in CASES if "declined" in c], ids=lambda c: c["text"][:60])
def test_what_it_cannot_read_for_certain_it_declines_naming_the_words(case: dict) -> None:
    with pytest.raises(Declined) as info:
        read_dispute(case["text"], speaker=case.get("as"))
    said = " ".join(p.message for p in info.value.problems)
    for word in case["declined"]:
        assert word in said, said
