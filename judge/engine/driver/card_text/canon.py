"""One written form for card data, so that two cards that say the same thing compare equal: the
contract's defaults made explicit or dropped (`fast: false`, `else: []`, `captured: false`, `who:
opponent`, `by: self`, a bare `taunt`), a single target called `target`, and effect names dropped (a
label the printed text never carries).

    canonical_effects(card["effects"]) == canonical_effects(read_card_text(card["text"]).effects)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.data.keywords import KEYWORDS
from judge.engine.data.parts import STATIC_PARTS


def canonical_keyword(kw: Any) -> Any:
    if isinstance(kw, str):
        name, value = kw.lower(), None
    else:
        (name, value), = dict(kw).items()
        name = str(name).lower()
    record = KEYWORDS.get(name)
    if record is None:
        return kw
    if record.value == "radius":
        radius = value.get("radius", record.default) if isinstance(value, Mapping) else record.default
        return {name: {"radius": radius}}
    if record.value == "stats":
        return {name: {k: int((value or {}).get(k, 0)) for k in ("atk", "def", "hp")}}
    if record.value == "actions":
        return {name: _parts(value or [], count=0)}
    if record.value == "effect":
        return {name: _effect(value or {}, default_kind="timing")}
    if record.value == "amount":
        return {name: value}
    return name


def canonical_keywords(keywords: Sequence[Any]) -> list[Any]:
    return [canonical_keyword(k) for k in keywords or []]


def canonical_effects(effects: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [_effect(e) for e in effects or []]


def _selector(sel: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "soul" in sel:
        captured = bool(sel.get("captured", False))
        out = {"soul": sel["soul"] or "any", "lines": "any" if captured else sel.get("lines", "front")}
        if captured:
            out["captured"] = True
    elif "spot" in sel:
        out = {"spot": sel["spot"]}
        if sel.get("naming"):
            out["naming"] = sel["naming"]
    elif "realm" in sel:
        out = {"realm": sel["realm"]}
    if sel.get("where"):
        out["where"] = dict(sel["where"])
    return out


def _ref(value: Any, count: int) -> Any:
    if count == 1 and value == "target1":
        return "target"
    return value


def _part(part: Mapping[str, Any], count: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in part.items():
        if key in ("then", "else"):
            if value:
                out[key] = _parts(value, count)
        elif key == "if":
            out[key] = {k: (_ref(v, count) if k == "of" else v) for k, v in value.items()}
        elif key == "battle":
            out[key] = {"attacker": _ref(value.get("attacker"), count),
                        "target": _ref(value.get("target"), count),
                        "counts_as_attack": bool(value.get("counts_as_attack", False))}
        elif key == "gain":
            out[key] = {k: v for k, v in value.items() if v}
        elif key == "grant":
            out[key] = canonical_keyword(value)
        elif key == "lay":
            out[key] = _lay(value)
        else:
            out[key] = _ref(value, count)
    if "discard" in out:
        out.setdefault("who", "opponent")
    return out


def _lay(value: Any) -> Any:
    if isinstance(value, Mapping) and "gain" in value:
        return {"gain": {k: v for k, v in value["gain"].items() if v}}
    if isinstance(value, Mapping) and "grant" in value:
        kw = canonical_keyword(value["grant"])
        return kw if isinstance(kw, str) else {"grant": kw}
    return canonical_keyword(value)


def _parts(parts: Sequence[Mapping[str, Any]], count: int) -> list[dict[str, Any]]:
    return [_part(p, count) for p in parts]


def _effect(eff: Mapping[str, Any], default_kind: str | None = None) -> dict[str, Any]:
    targets = [_selector(t) for t in eff.get("targets") or []]
    count = len(targets)
    out: dict[str, Any] = {}
    kind = eff.get("kind", default_kind)
    if kind is not None and default_kind is None:
        out["kind"] = kind
    for key in ("fast", "mandatory"):
        if eff.get(key):
            out[key] = True
    if eff.get("limit"):
        out["limit"] = ", ".join(p.strip() for p in str(eff["limit"]).split(","))
    if eff.get("trigger") and default_kind is None:
        out["trigger"] = eff["trigger"]
    if eff.get("condition"):
        out["condition"] = dict(eff["condition"])
    if targets:
        out["targets"] = targets
    if eff.get("cost"):
        out["cost"] = [({**c, "by": c.get("by", "self")} if "pay_hp" in c else dict(c)) for c in eff["cost"]]
    if eff.get("do"):
        out["do"] = _parts(eff["do"], count)
    for key in (*STATIC_PARTS, "to"):
        if key in eff:
            out[key] = _part({key: eff[key]}, count)[key]
    return out
