"""Checking a scenario's `expect:` against a ruling (contract §6).

    check(expect, ruling) -> list[str]      # failures, each naming the key and both values

`board` spot checks read `final` and `derived`. Our extensions (docs/scenario-format.md):
`shattered`, `proactive` and `line` on a slot, `count` on `X.deck`; `answers` (§7), one item per
question in the order of `ask:` (or one for the question answered without it): its verdict, or a
mapping `{verdict, step, rules}` (`step`: the deciding step's n; `rules`: ids the answer must cite).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.engine.data.errors import REASONS
from judge.engine.position.state import SlotRef

DERIVED_KEYS = ("atk", "def", "hp", "max_hp", "line", "proactive")
ZONES = ("hand", "deck", "elysium", "exile")


def _none(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null", ""))


def check(expect: Mapping[str, Any] | None, ruling: Mapping[str, Any]) -> list[str]:
    if not expect:
        return []
    failures: list[str] = []
    if "rejected" in expect:
        want = None if _none(expect["rejected"]) else expect["rejected"]
        got = ruling["rejected"]["action"] if ruling.get("rejected") else None
        if want != got:
            why = f" ({ruling['rejected']['text']})" if ruling.get("rejected") else ""
            failures.append(f"rejected: expected {_show(want)}, got {_show(got)}{why}")
    if "winner" in expect:
        want = None if _none(expect["winner"]) else str(expect["winner"]).upper()
        if want != ruling.get("winner"):
            failures.append(f"winner: expected {_show(want)}, got {_show(ruling.get('winner'))}")
    if "cites" in expect:
        cited = {r for step in ruling.get("steps", []) for r in step.get("rules", [])}
        if ruling.get("rejected"):
            cited |= set(ruling["rejected"].get("rules", []))
        for rule in expect["cites"] or []:
            if str(rule) not in cited:
                failures.append(f"cites: {rule} is cited by no step")
    for key, spec in (expect.get("board") or {}).items():
        failures += _board(str(key), spec or {}, ruling)
    for i, want in enumerate(expect.get("reasons") or []):
        if not any(_matches(want, got) for got in given_reasons(ruling)):
            failures.append(f"reasons[{i}]: no step gives the reason {_show_reason(want)}")
    for i, want in enumerate(expect.get("answers") or []):
        failures += _answer(i, want, ruling.get("answers") or [])
    return failures


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


def answer_problems(value: Any, count: int) -> list[tuple[str, str]]:
    """What is wrong with `expect.answers`, given how many questions the scenario asks."""
    if not isinstance(value, list):
        return [("expect.answers", "expected a list, one expected verdict per question of ask:")]
    out = []
    if len(value) > count:
        out.append(("expect.answers", f"{len(value)} expected answers for {count} question"
                                      f"{'s' if count != 1 else ''}"))
    for i, item in enumerate(value):
        path = f"expect.answers.{i}"
        if isinstance(item, Mapping):
            for key in item:
                if key not in ("verdict", "step", "rules"):
                    out.append((f"{path}.{key}", "unknown check (expected verdict, step or rules)"))
            step = item.get("step")
            if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
                out.append((f"{path}.step", "expected a step number"))
            rules = item.get("rules")
            if rules is not None and not (isinstance(rules, list) and all(_scalar(r) for r in rules)):
                out.append((f"{path}.rules", "expected a list of rule ids"))
        elif not (_scalar(item) or isinstance(item, (bool, list))):
            out.append((path, "expected a verdict (yes, no, A, B, none, a value, a list) or "
                              "{verdict, step, rules}"))
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


def problems(expect: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What is wrong with an `expect:` mapping, as (key path, message): checked when the scenario
    loads, so `check` only ever meets the shapes it reads."""
    out: list[tuple[str, str]] = []
    for key in expect:
        if key not in ("rejected", "winner", "cites", "board", "reasons", "answers"):
            out.append((f"expect.{key}", "unknown check (expected rejected, winner, cites, board, reasons "
                                         "or answers)"))
    rejected = expect.get("rejected")
    if rejected is not None and not _none(rejected) and (isinstance(rejected,
                                                                    bool) or not isinstance(rejected, int)):
        out.append(("expect.rejected", "expected an action number or none"))
    winner = expect.get("winner")
    if winner is not None and not _none(winner) and str(winner).upper() not in ("A", "B"):
        out.append(("expect.winner", "expected A, B or none"))
    cites = expect.get("cites")
    if cites is not None and not (isinstance(cites, list) and all(_scalar(r) for r in cites)):
        out.append(("expect.cites", "expected a list of rule ids"))
    reasons = expect.get("reasons")
    if reasons is not None and not isinstance(reasons, list):
        out.append(("expect.reasons",
                    "expected a list of reasons, e.g. [{reason: target_unyielding, slot: B:C3}]"))
    for i, want in enumerate(reasons if isinstance(reasons, list) else []):
        if not isinstance(want, Mapping) or "reason" not in want:
            out.append((f"expect.reasons[{i}]", "expected a mapping with reason: and the facts to match"))
        elif str(want["reason"]) not in REASONS:
            out.append((f"expect.reasons[{i}].reason", f"unknown reason {want['reason']!r}; expected one of "
                                                         + ", ".join(sorted(REASONS))))
        elif not all(_scalar(v) for k, v in want.items() if k != "reason"):
            out.append((f"expect.reasons[{i}]", "expected facts as plain values (a card, a slot, a number)"))
    board = expect.get("board")
    if board is not None and not isinstance(board, Mapping):
        out.append(("expect.board", "expected a mapping of slots and zones (e.g. B:C3, A.hand)"))
    for key, spec in (board.items() if isinstance(board, Mapping) else ()):
        out += _spec_problems(f"expect.board.{key}", str(key), spec)
    return out


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _spec_problems(path: str, key: str, spec: Any) -> list[tuple[str, str]]:
    if spec is None:
        return []
    if not isinstance(spec, Mapping):
        return [(path, "expected a mapping of checks")]
    zone = "." in key and ":" not in key
    if not zone and SlotRef.parse(key) is None:
        return [(path, "not a slot or zone (expected e.g. B:C3 or A.hand)")]
    out = []
    for what, want in spec.items():
        where = f"{path}.{what}"
        if what not in (ZONE_CHECKS if zone else SLOT_CHECKS):
            out.append((where, "unknown check"))
        elif what in ("includes", "keywords_include"):
            if not (isinstance(want, list) and all(_scalar(v) for v in want)):
                out.append((where, "expected a list of names"))
        elif what in ("empty", "captured", "shattered", "proactive"):
            if not isinstance(want, bool):
                out.append((where, "expected true or false"))
        elif what == "card":
            if not _scalar(want):
                out.append((where, "expected a card name"))
        elif not (isinstance(want, int) and not isinstance(want,
                                                           bool)) and not (want is None and what != "damage"):
            out.append((where, "expected a whole number"))
    return out
