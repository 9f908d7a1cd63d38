"""One action read from card text (pieces.Act) to the `do:` parts of contract §3 (parts.PARTS),
its objects resolved against the effect's targets. `reader` is the Assembler (assemble.py): it resolves
objects and records problems.
"""

from __future__ import annotations

from typing import Any

from judge.engine.data.card_records import GROUP_REFS
from judge.engine.data.keywords import FROZEN
from judge.engine.data.parts import PARTS
from judge.engine.driver.card_text.pieces import EMPTY, Act

# The parts that name one card and nothing else ("capture it", "exile it", "negate that Effect"), and
# those that give an amount to one card ("deal 10 damage to …", "heal 10 damage from …"): read from
# the parts table, so a new part of either shape is read the same way.
ONE_REF = tuple(key for key, part in PARTS.items() if [k.kind for k in part.FORM] == ["ref"])
AMOUNT_TO = tuple(key for key, part in PARTS.items() if [k.kind for k in part.FORM] == ["amount", "ref"])


def _one(reader: Any, act: Act, eff: Any, key: str = "objs") -> list[str]:
    objs = act.args.get(key) or []
    return reader.ref(objs[0], eff) if objs else []


def _subject(reader: Any, act: Act, eff: Any) -> list[str]:
    subject = act.args.get("subject")
    return reader.ref(subject, eff) if subject is not None else []


def _duration(act: Act) -> dict[str, Any]:
    return {"until": act.args["dur"]} if "dur" in act.args else {}


def _grant_value(act: Act) -> Any:
    return act.args.get("kw")


def build_action(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    """The parts `act` says, in order ("each of two …" gives one part per target)."""
    verb = act.verb
    if verb in _BUILDERS:
        parts: list[dict[str, Any]] = _BUILDERS[verb](reader, act, eff)
        return parts
    if verb in AMOUNT_TO:
        return [{verb: act.args["num"], "to": ref} for ref in _one(reader, act, eff)]
    if verb in ONE_REF:
        return [{verb: ref} for ref in _one(reader, act, eff)]
    return _battle(reader, act, eff)


def _b_gain(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    stats = dict(act.args.get("stats") or {})
    if act.args.get("lose"):
        stats = {k: -v for k, v in stats.items()}
    return [{"gain": dict(stats), "to": ref, **_duration(act)} for ref in _subject(reader, act, eff)]


def _b_grant(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    granted = reader.keyword(_grant_value(act), act)   # "gain Reinforcement: …" with what it does
    return [{"grant": granted, "to": ref, **_duration(act)} for ref in _subject(reader, act, eff)]


def _b_deals(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    """"This Soul deals 10 damage to …" (glossary Defiance: "it deals the given damage"): the card that
    has the effect deals it; any other Soul named as dealing it is no part of the data, so declined."""
    dealer = _subject(reader, act, eff)
    if any(ref not in ("self", "ambusher") for ref in dealer):
        reader.problem("names_nothing", act.start, act.end,
                       why="an effect's damage comes from its card: 'Deal 10 damage to …'")
    return [{"damage": act.args["num"], "to": ref} for ref in _one(reader, act, eff)]


def _b_takes(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    """"This Soul takes 10 damage" (glossary Damage): damage dealt to it."""
    return [{"damage": act.args["num"], "to": ref} for ref in _subject(reader, act, eff)]


def _b_freeze(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    """"Freeze it this Turn" (glossary Frozen, also Freeze): it is Frozen."""
    return [{"grant": FROZEN.name, "to": ref, **_duration(act)} for ref in _one(reader, act, eff)]


def _b_enlist(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    spec = dict(act.args.get("enlist") or {})
    if spec.get("rank", 0) > 3:
        reader.problem("contradiction", act.start, act.end, why="a card's rank is 0 to 3 (glossary Rank)")
    if "name" in spec:
        spec["name"] = reader.card_name(str(spec["name"]), getattr(spec["name"], "start_pos", act.start))
    return [{"enlist": spec}]


def _b_negate(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    """13.5.1: what is negated is an effect: the one that triggered this ("negate that Effect"; "it"
    when the trigger is being targeted by an Effect names nothing else), or, while a Static Effect
    applies, the effects of a group ("the effects of opposing Souls are negated")."""
    objs = act.args.get("objs") or []
    if objs and objs[0].how == "pron" and objs[0].value == "it" and eff.trigger == "targeted" \
            and not eff.targets:
        return [{"negate": "triggering_effect"}]
    refs = _one(reader, act, eff)
    if "triggering_effect" in refs and not eff.trigger:
        reader.problem("names_nothing", act.start, act.end,
                       why="no Effect triggered this one ('When this Soul is targeted by an opposing Effect: "
                           "negate that Effect')")
    elif any(ref not in ("triggering_effect", *GROUP_REFS) for ref in refs):
        reader.problem("names_nothing", act.start, act.end,
                       why="only an effect is negated (13.5.1): 'negate that Effect', or 'the effects of "
                           "opposing Souls are negated' while a Static Effect applies")
    return [{"negate": ref} for ref in refs]


def _b_teleport(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    objs = act.args.get("objs") or []
    who = reader.ref(objs[0], eff)
    to = reader.ref(objs[1], eff) if len(objs) > 1 else ["any"]
    for ref in to:   # "to one of your empty Soul Spots": a teleport's place is empty (glossary Teleport)
        if ref.startswith("#"):
            eff.targets[int(ref[1:]) - 1].pop(EMPTY, None)
    return [{"teleport": w, "to": to[0]} for w in who]


def _b_lay(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    """13.3.3: an effect laid on a Soul Spot ("any Soul on the targeted Spot …")."""
    what: Any = _grant_value(act)      # a bare keyword is laid as it is ("lay: frozen")
    if what is None and act.args.get("stats"):
        sign = -1 if act.args.get("lose") else 1
        what = {"gain": {k: sign * v for k, v in act.args["stats"].items()}}
    elif isinstance(what, dict):
        what = {"grant": what}
    return [{"lay": what, "on": ref, **_duration(act)} for ref in _one(reader, act, eff)]


def _battle(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    attackers = _subject(reader, act, eff)
    targets = attackers if act.args.get("itself") else _one(reader, act, eff)
    return [{"battle": {"attacker": a, "target": t, "counts_as_attack": False}}
            for a, t in zip(attackers, targets, strict=False)]



def _if(reader: Any, act: Act, eff: Any) -> dict[str, Any]:
    subject = reader.ref(act.args["subject"], eff)
    if len(subject) > 1:   # "If they are damaged": each of them, or all of them?
        reader.problem("ambiguous", act.start, act.end,
                       readings=["if each of them is", "if all of them are"])
    cond = dict(act.args.get("cond") or {})
    out: dict[str, Any] = {"if": {**cond, "of": subject[0] if subject else "target"}}
    out["then"] = [part for a in act.args.get("then") or [] for part in build_action(reader, a, eff)]
    otherwise = act.args.get("else")
    if isinstance(otherwise, tuple):       # "…; if it has more than half its HP, it stays"
        _, other = otherwise
        if not _complement(cond, other or {}):
            reader.problem("contradiction", act.start, act.end,
                           why="the second condition is not the opposite of the first, so a case is left "
                               "open")
        out["else"] = []
    elif otherwise is not None:
        out["else"] = [part for a in otherwise for part in build_action(reader, a, eff)]
    return out


def _complement(first: dict[str, Any], second: dict[str, Any]) -> bool:
    """Whether `second` holds exactly when `first` does not (flags with one key each)."""
    if len(first) != 1 or len(second) != 1 or first.keys() != second.keys():
        return False
    (key, a), = first.items()
    b = second[key]
    return isinstance(a, bool) and isinstance(b, bool) and a != b


def _b_draw(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    return [{"draw": act.args["num"]}]


def _b_discard(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    return [{"discard": act.args["num"], "who": act.args["who"]}]


def _b_if(reader: Any, act: Act, eff: Any) -> list[dict[str, Any]]:
    return [_if(reader, act, eff)]


# verb -> its builder: each `_b_<verb>` above (the parts of one shape are built in build_action)
_BUILDERS: dict[str, Any] = {name[len("_b_"):]: fn for name, fn in dict(globals()).items()
                             if name.startswith("_b_") and callable(fn)}
