"""Checking a scenario's `expect:` against a ruling (contract §6).

    check(expect, ruling) -> list[str]      # failures, each naming the key and both values

`board` spot checks read `final` and `derived`. Our extensions (docs/scenario-format.md):
`shattered`, `proactive` and `line` on a slot, `count` on `X.deck`; `answers` (§7), one item per
question in the order of `ask:` (or one for the question answered without it): its verdict, or a
mapping `{verdict, step, rules}` (`step`: the deciding step's n; `rules`: ids the answer must cite).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from judge.engine.data.errors import REASONS
from judge.engine.position.state import SlotRef

DERIVED_KEYS = ("atk", "def", "hp", "max_hp", "line", "proactive")
ZONES = ("hand", "deck", "elysium", "exile")
# a problem of `expect:` as (key path, code of input_problems.PROBLEMS, facts)
Problem = tuple[str, str, dict[str, Any]]


def _none(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null", ""))


def check(expect: Mapping[str, Any] | None, ruling: Mapping[str, Any]) -> list[str]:
    if not expect:
        return []
    return [failure for _key, checker in _CHECKED for failure in checker(expect, ruling)]


def _rejected(expect: Mapping[str, Any], ruling: Mapping[str, Any]) -> list[str]:
    if "rejected" not in expect:
        return []
    want = None if _none(expect["rejected"]) else expect["rejected"]
    got = ruling["rejected"]["action"] if ruling.get("rejected") else None
    if want == got:
        return []
    why = f" ({ruling['rejected']['text']})" if ruling.get("rejected") else ""
    return [f"rejected: expected {_show(want)}, got {_show(got)}{why}"]


def _winner(expect: Mapping[str, Any], ruling: Mapping[str, Any]) -> list[str]:
    if "winner" not in expect:
        return []
    want = None if _none(expect["winner"]) else str(expect["winner"]).upper()
    if want == ruling.get("winner"):
        return []
    return [f"winner: expected {_show(want)}, got {_show(ruling.get('winner'))}"]


def _cites(expect: Mapping[str, Any], ruling: Mapping[str, Any]) -> list[str]:
    if "cites" not in expect:
        return []
    cited = {r for step in ruling.get("steps", []) for r in step.get("rules", [])}
    if ruling.get("rejected"):
        cited |= set(ruling["rejected"].get("rules", []))
    return [f"cites: {rule} is cited by no step" for rule in expect["cites"] or [] if str(rule) not in cited]


def _boards(expect: Mapping[str, Any], ruling: Mapping[str, Any]) -> list[str]:
    return [failure for key, spec in (expect.get("board") or {}).items()
            for failure in _board(str(key), spec or {}, ruling)]


def _reasons(expect: Mapping[str, Any], ruling: Mapping[str, Any]) -> list[str]:
    given = given_reasons(ruling)
    return [f"reasons[{i}]: no step gives the reason {_show_reason(want)}"
            for i, want in enumerate(expect.get("reasons") or [])
            if not any(_matches(want, got) for got in given)]


def _answers(expect: Mapping[str, Any], ruling: Mapping[str, Any]) -> list[str]:
    return [failure for i, want in enumerate(expect.get("answers") or [])
            for failure in _answer(i, want, ruling.get("answers") or [])]


# One row per check of `expect:` (contract §6 and our additions), in the order failures are listed.
_CHECKED: tuple[tuple[str, Callable[[Mapping[str, Any], Mapping[str, Any]], list[str]]], ...] = (
    ("rejected", _rejected), ("winner", _winner), ("cites", _cites), ("board", _boards),
    ("reasons", _reasons), ("answers", _answers),
)


def given_reasons(ruling: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every reason record of the ruling (the steps', nested ones included: the candidates a "no legal
    target" excluded), as dicts (reasons.py `Reason.to_dict`)."""
    out: list[Mapping[str, Any]] = []
    todo = [r for step in ruling.get("steps", []) for r in step.get("reasons", [])]
    while todo:
        reason = todo.pop(0)
        out.append(reason)
        todo += [v for val in (reason.get("facts") or {}).values() if isinstance(val, list)
                 for v in val if isinstance(v, Mapping) and "reason" in v]
    return out


def _matches(want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    facts = got.get("facts") or {}
    return str(want.get("reason")) == got.get("reason") and all(
        str(facts.get(k)).lower() == str(v).lower() for k, v in want.items() if k != "reason")


def _show_reason(want: Mapping[str, Any]) -> str:
    return str(want.get("reason")) + "".join(f", {k} {v}" for k, v in want.items() if k != "reason")


def _verdict(value: Any) -> Any:
    """A verdict as it compares: words lower-cased, lists as sets, `none` as none."""
    if isinstance(value, (list, tuple)):
        return frozenset(str(v).lower() for v in value)
    if isinstance(value, str):
        return value.strip().lower()
    return value


def _answer(i: int, want: Any, answers: list[Mapping[str, Any]]) -> list[str]:
    spec = want if isinstance(want, Mapping) else {"verdict": want}
    if i >= len(answers):
        return [f"answers[{i}]: expected an answer, but the ruling has {len(answers)}"]
    got = answers[i]
    out = []
    if "verdict" in spec and _verdict(spec["verdict"]) != _verdict(got.get("verdict")):
        out.append(f"answers[{i}].verdict: expected {_show(spec['verdict'])}, got "
                   f"{_show(got.get('verdict'))} ({got.get('text')})")
    if "step" in spec and spec["step"] != got.get("step"):
        out.append(f"answers[{i}].step: expected step {spec['step']}, got {_show(got.get('step'))}")
    for rule in spec.get("rules") or []:
        if str(rule) not in (got.get("rules") or []):
            out.append(f"answers[{i}].rules: {rule} is not among the answer's rules {got.get('rules')}")
    return out


def answer_problems(value: Any, count: int) -> list[Problem]:
    """What is wrong with `expect.answers`, given how many questions the scenario asks."""
    if not isinstance(value, list):
        return [("expect.answers", "expect_answers_shape", {})]
    out: list[Problem] = []
    if len(value) > count:
        out.append(("expect.answers", "expect_answers_count", {"answers": len(value),
                                                               "questions": count}))
    for i, item in enumerate(value):
        path = f"expect.answers.{i}"
        if isinstance(item, Mapping):
            for key in item:
                if key not in ("verdict", "step", "rules"):
                    out.append((f"{path}.{key}", "expect_answer_check", {"key": str(key)}))
            step = item.get("step")
            if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
                out.append((f"{path}.step", "expect_answer_step", {}))
            rules = item.get("rules")
            if rules is not None and not (isinstance(rules, list) and all(_scalar(r) for r in rules)):
                out.append((f"{path}.rules", "expect_rule_ids", {}))
        elif not (_scalar(item) or isinstance(item, (bool, list))):
            out.append((path, "expect_verdict", {}))
    return out


def _show(value: Any) -> str:
    return "none" if value is None else str(value)


def _board(key: str, spec: Mapping[str, Any], ruling: Mapping[str, Any]) -> list[str]:
    final = ruling.get("final") or {}
    if "." in key and ":" not in key:
        player, _, zone = key.partition(".")
        return _zone(key, player.upper(), zone, spec, final)
    ref = SlotRef.parse(key)
    if ref is None:
        return [f"{key}: not a slot or zone (expected e.g. B:C3 or A.hand)"]
    out: list[str] = []
    entry = _slot_entry(ref, final)
    derived = (ruling.get("derived") or {}).get(str(ref)) or {}
    for what, want in spec.items():
        if what == "empty":
            is_empty = entry is None
            if bool(want) != is_empty:
                out.append(f"{key}.empty: expected {str(bool(want)).lower()}, got {str(is_empty).lower()}"
                           + (f" ({entry.get('card')} is there)" if entry else ""))
        elif entry is None:
            out.append(f"{key}.{what}: expected {want}, but the slot is empty")
        else:
            out += _slot_check(key, what, want, entry, derived)
    return out


def _slot_entry(ref: SlotRef, final: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The card on `ref` in the final state (a slot with only Ambushes on it holds none)."""
    pdata = (final.get("players") or {}).get(ref.player) or {}
    if ref.is_realm:
        entry: Mapping[str, Any] | None = (pdata.get("realms") or {}).get(ref.slot)
    else:
        entry = (pdata.get("field") or {}).get(ref.slot)
        if entry is not None and "card" not in entry:
            entry = None     # only Ambushes lie there
    return entry


def _slot_check(key: str, what: str, want: Any, entry: Mapping[str, Any],
                derived: Mapping[str, Any]) -> list[str]:
    """One expectation of a slot that holds a card."""
    if what == "card":
        got = entry.get("card")
        return [] if str(got).lower() == str(want).lower() else [f"{key}.card: expected {want}, got {got}"]
    if what == "damage":
        got = entry.get("damage", 0)
        return [] if got == want else [f"{key}.damage: expected {want}, got {got}"]
    if what in ("captured", "shattered"):
        flag = bool(entry.get(what, False))
        return [] if flag == bool(want) else \
            [f"{key}.{what}: expected {str(bool(want)).lower()}, got {str(flag).lower()}"]
    if what in DERIVED_KEYS:
        got = derived.get(what)
        return [] if got == want else [f"{key}.{what}: expected {want}, got {got}"]
    if what == "keywords_include":
        have = set(derived.get("keywords") or [])
        shown = ", ".join(sorted(have)) or "none"
        return [f"{key}.keywords_include: {kw} is not in force (keywords: {shown})"
                for kw in want or [] if str(kw).lower() not in have]
    return [f"{key}.{what}: unknown check"]


def _zone(key: str, player: str, zone: str, spec: Mapping[str, Any], final: Mapping[str, Any]) -> list[str]:
    if player not in ("A", "B") or zone not in ZONES:
        return [f"{key}: not a zone (expected A.hand, B.elysium, A.deck or B.exile)"]
    raw = ((final.get("players") or {}).get(player) or {}).get(zone, [])
    if isinstance(raw, int):
        names, count = [], raw
    elif isinstance(raw, Mapping):
        names = list(raw.get("cards") or [])
        count = len(names) + int(raw.get("unnamed") or 0)
    else:
        names, count = list(raw), len(raw)
    out = []
    for what, want in spec.items():
        if what == "count":
            if count != want:
                out.append(f"{key}.count: expected {want}, got {count} "
                           f"({', '.join(names) or 'no named cards'})")
        elif what == "includes":
            lower = [n.lower() for n in names]
            for name in want or []:
                if str(name).lower() not in lower:
                    out.append(f"{key}.includes: {name} is not there ({', '.join(names) or 'empty'})")
                else:
                    lower.remove(str(name).lower())
        else:
            out.append(f"{key}.{what}: unknown check")
    return out


SLOT_CHECKS = ("empty", "card", "damage", "captured", "shattered", "keywords_include", *DERIVED_KEYS)
ZONE_CHECKS = ("count", "includes")


def problems(expect: Mapping[str, Any]) -> list[Problem]:
    """What is wrong with an `expect:` mapping, as (key path, message): checked when the scenario
    loads, so `check` only ever meets the shapes it reads."""
    out: list[Problem] = []
    for key in expect:
        if key not in EXPECT_KEYS:
            out.append((f"expect.{key}", "expect_unknown_check", {"key": str(key)}))
    for key, shape in _SHAPES:
        value = expect.get(key)
        if value is not None:
            out += shape(value)
    return out


def _rejected_shape(rejected: Any) -> list[Problem]:
    if _none(rejected) or (isinstance(rejected, int) and not isinstance(rejected, bool)):
        return []
    return [("expect.rejected", "expect_rejected_shape", {})]


def _winner_shape(winner: Any) -> list[Problem]:
    if _none(winner) or str(winner).upper() in ("A", "B"):
        return []
    return [("expect.winner", "expect_winner_shape", {})]


def _cites_shape(cites: Any) -> list[Problem]:
    if isinstance(cites, list) and all(_scalar(r) for r in cites):
        return []
    return [("expect.cites", "expect_rule_ids", {})]


def _reasons_shape(reasons: Any) -> list[Problem]:
    if not isinstance(reasons, list):
        return [("expect.reasons", "expect_reasons_shape", {})]
    return [problem for i, want in enumerate(reasons) for problem in _reason_shape(i, want)]


def _reason_shape(i: int, want: Any) -> list[Problem]:
    if not isinstance(want, Mapping) or "reason" not in want:
        return [(f"expect.reasons[{i}]", "expect_reason_shape", {})]
    if str(want["reason"]) not in REASONS:
        return [(f"expect.reasons[{i}].reason", "expect_unknown_reason",
                 {"reason": want["reason"], "reasons": sorted(REASONS)})]
    if not all(_scalar(v) for k, v in want.items() if k != "reason"):
        return [(f"expect.reasons[{i}]", "expect_reason_facts", {})]
    return []


def _board_shape(board: Any) -> list[Problem]:
    if not isinstance(board, Mapping):
        return [("expect.board", "expect_board_shape", {})]
    return [problem for key, spec in board.items()
            for problem in _spec_problems(f"expect.board.{key}", str(key), spec)]


EXPECT_KEYS = ("rejected", "winner", "cites", "board", "reasons", "answers")
# the shape each key of `expect:` must have, checked in this order (`answers` is checked against the
# questions asked: `answer_problems`)
_SHAPES: tuple[tuple[str, Callable[[Any], list[Problem]]], ...] = (
    ("rejected", _rejected_shape), ("winner", _winner_shape), ("cites", _cites_shape),
    ("reasons", _reasons_shape), ("board", _board_shape),
)


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _names(want: Any) -> bool:
    return isinstance(want, list) and all(_scalar(v) for v in want)


def _count(want: Any) -> bool:
    return isinstance(want, int) and not isinstance(want, bool)


# what each spot check of `expect.board` holds: (test of the value, the message when it fails);
# a derived value may be none (the Soul has none), a slot's damage may not
_SPOT_VALUES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "includes": (_names, "a list of names"),
    "keywords_include": (_names, "a list of names"),
    **{flag: ((lambda want: isinstance(want, bool)), "true or false")
       for flag in ("empty", "captured", "shattered", "proactive")},
    "card": (_scalar, "a card name"),
    "damage": (_count, "a whole number"),
}
_NUMBER_OR_NONE = ((lambda want: want is None or _count(want)), "a whole number")


def _spec_problems(path: str, key: str, spec: Any) -> list[Problem]:
    if spec is None:
        return []
    if not isinstance(spec, Mapping):
        return [(path, "expect_spot_shape", {"key": key})]
    zone = "." in key and ":" not in key
    if not zone and SlotRef.parse(key) is None:
        return [(path, "expect_spot_key", {"key": key})]
    out = []
    for what, want in spec.items():
        where = f"{path}.{what}"
        if what not in (ZONE_CHECKS if zone else SLOT_CHECKS):
            out.append((where, "expect_spot_check", {"key": key, "check": str(what)}))
            continue
        holds, shape = _SPOT_VALUES.get(what, _NUMBER_OR_NONE)
        if not holds(want):
            out.append((where, "expect_spot_value", {"key": key, "check": str(what), "shape": shape}))
    return out
