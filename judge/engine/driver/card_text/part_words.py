"""The words of a card text's parts that the writer (write.py) puts into its sentences: requirements,
bounds and values, conditions, and target selectors, in the Codex's phrasing (phrases.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.engine.data.keywords import KEYWORDS
from judge.engine.driver.card_text.phrases import ORDINALS, STATS


class CannotWrite(ValueError):
    """The data holds something the Codex's phrasing has no words for here."""


def requirement(req: Mapping[str, Any]) -> str:
    adjs = [str(req["attribute"]).capitalize()] if "attribute" in req else []
    if req.get("damaged"):
        adjs.append("damaged")
    noun = "Leader" if req.get("leader") else "Soul"
    tails = []
    if "rank" in req:
        tails.append("of rank " + bounded(req["rank"]))
    if "keyword" in req:
        tails.append("with " + KEYWORDS[req["keyword"]].title)
    if req.get("front_line"):
        tails.append("in the Front Line")
    return " ".join(["Any", *adjs, noun, *tails])


def bounded(bounds: Mapping[str, int]) -> str:
    lo, hi = bounds.get("min"), bounds.get("max")
    if lo is not None and hi is not None and lo == hi:
        return str(lo)
    if hi is not None and lo is None:
        return f"{hi} or lower"
    if lo is not None and hi is None:
        return f"{lo} or higher"
    raise CannotWrite(f"a range {dict(bounds)} has no words")


def stats_words(stats: Mapping[str, int]) -> tuple[str, str]:
    """(verb, words): "gains"/"loses" and "10 ATK and 5 DEF" (signed when the signs mix)."""
    items = [(k, v) for k, v in stats.items() if v]
    if not items:
        raise CannotWrite("a gain of nothing")
    if all(v < 0 for _, v in items):
        verb, words = "loses", [f"{-v} {STATS[k]}" for k, v in items]
    elif all(v > 0 for _, v in items):
        verb, words = "gains", [f"{v} {STATS[k]}" for k, v in items]
    else:
        verb, words = "gains", [f"{v:+d} {STATS[k]}" for k, v in items]
    return verb, words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def condition(cond: Mapping[str, Any]) -> str:
    parts = []
    for key, value in cond.items():
        parts.append(one_condition(key, value))
    return " and ".join(parts)


def one_condition(key: str, value: Any) -> str:
    flags = {("damaged", True): "is damaged", ("damaged", False): "is not damaged",
             ("hp_at_most_half", True): "has half its HP or less",
             ("hp_at_most_half", False): "has more than half its HP",
             ("front_line", True): "is in the Front Line", ("front_line", False): "is not in the Front Line",
             ("leader", True): "is a Leader", ("leader", False): "is not a Leader",
             ("captured", True): "is captured", ("captured", False): "is not captured"}
    if isinstance(value, bool) and (key, value) in flags:
        return flags[(key, value)]
    if key == "attribute":
        return f"is {str(value).capitalize()}"
    if key == "keyword":
        return f"has {KEYWORDS[value].title}"
    if key == "rank":
        return "is of rank " + bounded(value)
    if key == "line":
        lo, hi = value.get("min"), value.get("max")
        n = hi if hi is not None else lo
        if n is None or n > len(ORDINALS) - 1:
            raise CannotWrite(f"line {dict(value)}")
        bound = bounded(value).replace(str(n), "").strip()
        return f"stands in the {ORDINALS[n - 1].capitalize()} Line" + (f" {bound}" if bound else "")
    raise CannotWrite(f"condition {key}: {value!r}")


def selector(sel: Mapping[str, Any], destination: bool = False) -> str:
    where = dict(sel.get("where") or {})
    if "soul" in sel:
        return _soul_selector(sel, where)
    if where:
        raise CannotWrite(f"a target that must meet {where}")
    if "spot" in sel:
        return _spot_selector(sel, destination)
    side = str(sel.get("realm"))
    return {"own": "one of your Realms", "opposing": "an opposing Realm"}.get(side, "any Realm")


def _soul_adjectives(sel: Mapping[str, Any], where: dict[str, Any]) -> str:
    """"damaged Dark captured": the words before "Soul" (what `where` asks is taken out of it)."""
    adjs = []
    if where.pop("damaged", None):
        adjs.append("damaged")
    if "attribute" in where:
        adjs.append(str(where.pop("attribute")).capitalize())
    if sel.get("captured", False):
        adjs.append("captured")
    return " ".join(adjs)


def _soul_tail(where: dict[str, Any]) -> str:
    """" of rank 2 with Unyielding": what a target Soul must be, said after it."""
    rank = where.pop("rank", None)
    text = f" of rank {bounded(rank)}" if rank else ""
    if "keyword" in where and "hp_at_most_half" in where:
        raise CannotWrite("a target with a keyword and with half its HP: one 'with …' is said")
    if "keyword" in where:
        text += f" with {KEYWORDS[where.pop('keyword')].title}"
    if where.get("hp_at_most_half") is True:
        where.pop("hp_at_most_half")
        text += " with half its HP or less"
    return text


def _soul_selector(sel: Mapping[str, Any], where: dict[str, Any]) -> str:
    side, lines, captured = sel["soul"], sel.get("lines", "front"), sel.get("captured", False)
    adj = _soul_adjectives(sel, where)
    leader = side != "own" and where.pop("leader", None) is True
    tail = _soul_tail(where)
    if where:
        raise CannotWrite(f"a target that must meet {where}")
    front = "" if captured or lines == "any" else " in the Front Line"
    if side == "own":
        text = f"one of your {adj + ' ' if adj else ''}Souls{front}"
    else:
        kind = "Leader" if leader else "Soul"
        noun = f"{'opposing ' if side == 'opposing' else ''}{adj + ' ' if adj else ''}{kind}"
        lead = "any" if lines == "any" and not captured else article(noun)
        text = f"{lead} {noun}{front}"
    return text + tail


def _spot_selector(sel: Mapping[str, Any], destination: bool) -> str:
    naming = {"front": " with an active Soul in the Front Line on it",
              "any": " with an active Soul on it"}.get(sel.get("naming") or "", "")
    empty = "empty " if destination else ""
    if sel["spot"] == "own":
        return f"one of your {empty}Soul Spots" + naming
    return ("any opposing " if sel["spot"] == "opposing" else "any ") + f"{empty}Soul Spot" + naming


def article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"


def plural_selector(sel: Mapping[str, Any], count: int) -> str | None:
    """"two opposing Souls in the Front Line" for identical Soul selectors, where the words exist."""
    if "soul" not in sel or sel["soul"] == "own" or sel.get("captured") or sel.get("where"):
        return None
    side = "opposing " if sel["soul"] == "opposing" else ""
    lines = " in the Front Line" if sel.get("lines", "front") == "front" else " in any line"
    return f"{count} {side}Souls{lines}"
