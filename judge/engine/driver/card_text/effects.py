"""An effect read from card text, finished for its card type: its kind (11.1: Events are Activated,
every Ambush is Fast, an Armament's effects are Static), its limits, and a static effect's one
`gain:`/`grant:`/`negate:` with `to:` per part. `reader` is the Assembler (assemble.py).
"""

from __future__ import annotations

from typing import Any

from judge.engine.data.card_records import GROUP_REFS, SINGLE_REFS
from judge.engine.data.parts import STATIC_PARTS as _STATIC_PARTS
from judge.engine.driver.card_text.pieces import EMPTY


def _limit(header: list[tuple[str, Any]]) -> str | None:
    limits = []
    for kind, value in header:
        if kind == "limit":
            count, _, per = value.replace(" ", "").partition("/")
            limits.append(f"{int(count)}/{per.capitalize()}")
    return ", ".join(limits) or None


def _kind(reader: Any, eff: Any, heads: set[str]) -> str:
    if "instant" in heads:
        return "instant"
    if eff.trigger:
        return "timing"
    if heads & {"activated", "fast"} or reader.type in ("event", "ambush"):   # "Fast:" is used: Activated
        return "activated"
    return "static"


def numbered(do: Any, count: int) -> Any:
    """Target placeholders "#i" -> "target" (the effect has one target) or "targetI"."""
    if isinstance(do, str) and do.startswith("#"):
        return "target" if count == 1 else f"target{do[1:]}"
    if isinstance(do, dict):
        return {k: numbered(v, count) for k, v in do.items()}
    if isinstance(do, list):
        return [numbered(v, count) for v in do]
    return do


def _check_type(reader: Any, eff: Any, kind: str, heads: set[str]) -> bool:
    span = (eff.start, eff.end or eff.start + 1)
    if reader.type == "event" and kind in ("timing", "instant"):
        reader.problem("not_on_type", *span, what="a trigger (an Event's effect is Activated)")
        return False
    if reader.type == "armament" and (kind != "static" or "fast" in heads or eff.cost):
        reader.problem("not_on_type", *span, what="an effect that is used (an Armament's effects are Static)")
        return False
    if kind == "instant" and not eff.trigger:
        reader.problem("needs_kind", *span)
        return False
    if eff.mandatory and kind != "timing":
        reader.problem("contradiction", *span, why="only a Timing Effect can be mandatory")
        return False
    return True


def unsaid_empty(reader: Any, targets: list[dict[str, Any]], span: tuple[int, int]) -> None:
    """A target Soul Spot said to be empty where nothing is moved to it: the data can't say "empty"
    (a Soul Spot target is any slot, empty or not: glossary Soul Spot), so it is declined, never
    dropped."""
    if any(EMPTY in t for t in targets):
        reader.problem("contradiction", *span,
                       why="a target Soul Spot may be empty or not (glossary Soul Spot); 'empty' says only "
                           "where a Soul is moved to ('Teleport it to one of your empty Soul Spots')")
    for t in targets:
        t.pop(EMPTY, None)


def finish_effect(reader: Any, eff: Any) -> list[dict[str, Any]]:
    heads = {kind for kind, _ in eff.header}
    do = [d for d in eff.do if "_targets_only" not in d]
    span = (eff.start, eff.end or len(reader.text))
    unsaid_empty(reader, eff.targets, span)
    if not do:
        reader.problem("needs_action", *span)
        return []
    kind = _kind(reader, eff, heads)
    if not _check_type(reader, eff, kind, heads):
        return []
    if kind == "static":
        return _statics(reader, eff, do, span)
    out: dict[str, Any] = {"kind": kind}
    if "fast" in heads or reader.type == "ambush":
        out["fast"] = True
    limit = _limit(eff.header)
    if limit:
        out["limit"] = limit
    if eff.trigger:
        out["trigger"] = eff.trigger
    if eff.mandatory:
        out["mandatory"] = True
    if eff.condition:
        out["condition"] = dict(eff.condition)
    if eff.targets:
        out["targets"] = [dict(t) for t in eff.targets]
    if eff.cost:
        out["cost"] = [dict(c) for c in eff.cost]
    out["do"] = numbered(do, len(eff.targets))
    return [out]


def _statics(reader: Any, eff: Any, do: list[dict[str, Any]], span: tuple[int, int]) -> list[dict[str, Any]]:
    refs = (*SINGLE_REFS, *GROUP_REFS)
    fits = not eff.targets and not eff.cost and not eff.header and all(
        len([k for k in part if k in _STATIC_PARTS]) == 1 and "until" not in part
        and (part.get("to") in refs or part.get("negate") in refs) for part in do)
    if not fits:
        reader.problem("needs_kind", *span)
        return []
    out = []
    for part in do:
        static: dict[str, Any] = {"kind": "static"}
        if eff.condition:
            static["condition"] = dict(eff.condition)
        static.update(part)
        out.append(static)
    return out
