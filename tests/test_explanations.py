"""Rulings that explain what changed (issue 11): walked over the whole library of rulings.

- No silent change: whenever a card's derived ATK, DEF, maximum HP, keywords or negation change from
  one step to the next, the step that changed them, or a step that names it as its cause
  (`caused_by`), names the card and what changed, and cites a rule.
- A condition is stated in its own words: a step that speaks of a card's condition never uses the
  words of another kind of condition (no "stands in line 1" for "while damaged").
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

from judge.commands.resolve import is_scenario_file
from judge.engine import Scenario, load_scenario_file
from judge.engine.driver.resolve import resolve
from judge.engine.position import board as stats

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(p for p in (ROOT / "scenarios").rglob("*.yaml") if is_scenario_file(p))
LABELS = ("ATK", "DEF", "max HP")


def _facts(state) -> dict[int, tuple]:
    """(name, ATK, DEF, max HP, keywords, negated) of every active card, by uid, derived afresh."""
    board = stats.derive(state)
    out = {}
    for view in [*board.souls.values(), *board.realms.values()]:
        if getattr(view, "captured", False) or getattr(view, "shattered", False):
            continue
        card = state.soul_at(view.ref) if not view.ref.is_realm else state.realm_at(view.ref)
        out[card.uid] = (view.card.name, view.atk.total, view.def_.total, view.max_hp.total,
                         tuple(sorted(k.keyword.name for k in view.keywords)), view.negated)
    return out


def _printed(scenario: Scenario, name: str) -> tuple:
    card = scenario.state.card(name)
    return (card.name, card.stat("atk"), card.stat("def"), card.stat("hp"),
            tuple(sorted(k.name for k in card.keywords)), False)


@lru_cache(maxsize=1)
def walked() -> tuple[tuple[str, Scenario, dict, tuple], ...]:
    out = []
    for path in SCENARIOS:
        scenario = load_scenario_file(path)
        seen: list[tuple[int, dict[int, tuple]]] = []
        ruling = resolve(scenario, observe=lambda g,
                         seen=seen: seen.append((len(g.trace.steps), _facts(g.state))))
        out.append((str(path.relative_to(ROOT)), scenario, ruling, tuple(seen)))
    return tuple(out)


def _what_changed(old: tuple, new: tuple) -> list[str]:
    """The words a step explaining the change must contain (besides the card's name)."""
    words = [LABELS[i] for i in range(3) if old[1 + i] != new[1 + i]]
    if old[5] != new[5]:
        words.append("negated")
    elif old[4] != new[4]:
        changed = (Counter(old[4]) - Counter(new[4])) + (Counter(new[4]) - Counter(old[4]))
        words.append(min(changed).replace("_", " "))
    return words


def _explained(steps: list[dict], n: int, name: str, words: list[str]) -> bool:
    for step in steps:
        if step["n"] != n and step.get("caused_by") != n:
            continue
        text = step["text"].lower()
        if name.lower() in text and step["rules"] and all(w.lower() in text for w in words):
            return True
    return False


def test_every_change_in_derived_values_is_explained_by_a_step_citing_a_rule():
    problems, checked = [], 0
    for path, scenario, ruling, seen in walked():
        steps = ruling["steps"]
        for (_, before), (n, after) in pairwise(seen):
            for uid, new in after.items():
                old = before.get(uid) or _printed(scenario, new[0])
                if old[1:] == new[1:]:
                    continue
                checked += 1
                kind = steps[n - 1]["kind"]
                if kind == "consequence":
                    problems.append(f"{path} step {n}: a consequence step changed {new[0]}")
                    continue
                words = _what_changed(old, new)
                if not _explained(steps, n, new[0], words):
                    problems.append(f"{path} step {n} ({steps[n - 1]['text'][:90]}…): {new[0]} changed "
                                    f"{old[1:]} → {new[1:]} and no step caused by it says {words}")
    assert checked >= 40, f"only {checked} changes in the whole library: the walk checks too little"
    assert not problems, "\n".join(problems[:20])


def test_consequence_steps_name_the_step_they_follow_from_and_come_after_it():
    count = 0
    for path, _, ruling, _ in walked():
        for step in ruling["steps"]:
            if step["kind"] == "consequence":
                count += 1
                assert step.get("caused_by") and step["caused_by"] < step["n"], f"{path}: {step}"
                assert step["text"].startswith(f"Because of step {step['caused_by']}: "), f"{path}: {step}"
                assert step["rules"], f"{path}: {step}"
    assert count >= 40


# --- a condition in its own words -------------------------------------------------------------

PHRASES = {  # words that belong to one kind of condition (contract §3 Conditions)
    r"stands in line|in the front line|not in the front line": "line",
    r"\bhas (no|\d+) damage\b|\bis damaged\b": "damaged",
    r"\bhas \d+ of \d+ hp\b": "hp_at_most_half",
    r"\bis (light|dark)\b": "attribute",
}
KIN = {"front_line": "line", "line": "line"}   # the Front Line is line 1: either words may say it


def _conditioned_cards(scenario: Scenario) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for card in scenario.state.library:
        for eff in card.effects:
            if eff.condition:
                out.setdefault(card.name, set()).update(KIN.get(k, k) for k in eff.condition)
    return out


def test_a_step_about_a_condition_uses_the_words_of_the_cards_own_condition():
    problems, checked = [], 0
    for path, scenario, ruling, _ in walked():
        cards = _conditioned_cards(scenario)
        for step in ruling["steps"] + ([ruling["rejected"]] if ruling.get("rejected") else []):
            text = step["text"]
            if "condition" not in text:
                continue
            owner = next((name for name in cards if name in text), None)
            if owner is None:
                continue
            clause = text[text.index("condition"):].split(". ")[0].lower()
            for pattern, kind in PHRASES.items():
                if re.search(pattern, clause):
                    checked += 1
                    if kind not in cards[owner]:
                        problems.append(f"{path}: {text}\n  speaks of {kind}, but {owner}'s condition is "
                                        f"{sorted(cards[owner])}")
    assert checked >= 8
    assert not problems, "\n".join(problems)
