"""The parse tree of card text to pieces: one record per header, trigger, condition, cost, sentence of
actions, keyword, requirement, … in the order printed (`assemble.py` joins them into effects). Objects
of actions stay unresolved here (`Obj`): "it" and "the first" mean what the effect's targets make them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer, Tree
from lark.tree import Meta

from judge.engine.data.keywords import CANNOT_ATTACK, FROZEN, KEYWORDS

# A Soul Spot said to be empty ("one of your empty Soul Spots"): the contract's selectors have no such
# key (a target Soul Spot may be empty or not, glossary Soul Spot), so only where a Soul is moved to
# (teleport, where the spot must be empty anyway) are these words read; anywhere else they are declined.
EMPTY = "_empty"


@dataclass(frozen=True)
class Obj:
    """Who or what an action names: a reference (`ref`), target selectors (`sel`, one or more), a
    pronoun ("it", "that Soul", "the first"), a slot, or "itself"."""

    how: str                      # ref | sel | pron | slot | itself
    value: Any
    start: int = 0
    end: int = 0


@dataclass(frozen=True)
class Act:
    """One action before its objects are resolved: `verb` is a part of parts.PARTS (or "may")."""

    verb: str
    args: dict[str, Any]
    start: int = 0
    end: int = 0


@dataclass
class Piece:
    kind: str        # header trigger cond cost body target kw has req values note counts
    value: Any
    start: int
    end: int
    extra: dict[str, Any] = field(default_factory=dict)


class _Tagged:
    """A small value the transformer passes up, told apart by its tag."""

    def __init__(self, tag: str, value: Any = None) -> None:
        self.tag, self.value = tag, value

    def __repr__(self) -> str:
        return f"<{self.tag} {self.value!r}>"


def _tags(children: list[Any], tag: str) -> list[Any]:
    return [c.value for c in children if isinstance(c, _Tagged) and c.tag == tag]


def _tag(children: list[Any], tag: str, default: Any = None) -> Any:
    found = _tags(children, tag)
    return found[0] if found else default


def _span(meta: Meta) -> tuple[int, int]:
    return (getattr(meta, "start_pos", 0), getattr(meta, "end_pos", 0)) if not meta.empty else (0, 0)


class ToPieces(Transformer[Token, list[Piece]]):
    """Tree -> list[Piece]."""

    def __default__(self, data: Any, children: list[Any], meta: Meta) -> Any:
        name = str(data)
        prefix, _, key = name.partition("__")
        if key:
            return _generated(prefix, key, children)
        handler = _HANDLERS.get(name)
        if handler is None:
            return _Tagged(name, children)
        return handler(children, meta)

    def start(self, children: list[Any]) -> list[Piece]:
        return [c for c in children if isinstance(c, Piece)]


def _generated(prefix: str, key: str, children: list[Any]) -> Any:
    if prefix == "kw":
        return _Tagged("kw", _keyword(key, children))
    return _Tagged(prefix, key)


def _keyword(name: str, children: list[Any]) -> Any:
    radius = _tag(children, "radius")
    stats = _tag(children, "stats")
    num = _tag(children, "num")
    actions = _tag(children, "actions")
    core = _tag(children, "core")
    record = KEYWORDS[name]
    if record.value == "radius":
        return {name: {"radius": radius or record.default}}
    if num is not None:
        return {name: num}
    if stats is not None:
        return {name: {k: stats.get(k, 0) for k in ("atk", "def", "hp")}}
    if actions is not None:
        return {name: ("actions", actions)}
    if core is not None:
        return {name: ("core", core)}
    return name


def _num(children: list[Any], meta: Meta) -> _Tagged:
    return _Tagged("num", int(children[0]))


def _stats(children: list[Any], meta: Meta) -> _Tagged:
    out: dict[str, int] = {}
    for pair in _tags(children, "stat_amount"):
        amount, stat = pair
        out[stat] = out.get(stat, 0) + amount
    return _Tagged("stats", out)


def _stat_amount(children: list[Any], meta: Meta) -> _Tagged:
    amount = _tag(children, "num")
    if amount is None:
        amount = next(int(c) for c in children if isinstance(c, Token) and c.type == "SIGNED")
    return _Tagged("stat_amount", (amount, _tag(children, "stat")))


def _piece(kind: str) -> Any:
    def make(children: list[Any], meta: Meta) -> Piece:
        start, end = _span(meta)
        return Piece(kind, children, start, end)
    return make


def _pass(tag: str) -> Any:
    return lambda children, meta: _Tagged(tag, children)


def _object(children: list[Any], meta: Meta) -> _Tagged:
    start, end = _span(meta)
    child = children[0]
    if isinstance(child, _Tagged) and child.tag == "ref":
        return _Tagged("obj", Obj("ref", child.value, start, end))
    if isinstance(child, _Tagged) and child.tag in ("sel", "multi"):
        return _Tagged("obj", Obj("sel", child.value, start, end))
    if isinstance(child, _Tagged) and child.tag == "pron":
        return _Tagged("obj", Obj("pron", child.value, start, end))
    if isinstance(child, _Tagged) and child.tag == "slot":
        return _Tagged("obj", Obj("slot", child.value, start, end))
    raise ValueError(f"unexpected object {child!r}")


def _selector(what: str, side_default: str, lines_default: str, own: bool = False) -> Any:
    def make(children: list[Any], meta: Meta) -> _Tagged:
        article = _tag(children, "article", "a")
        side = "own" if own else _tag(children, "side", side_default)
        adjs = _tags(children, "adj")
        sel: dict[str, Any] = {what: side}
        count = _tag(children, "num", 1) if own else 1
        if what == "soul":
            captured = any(a == ("captured", True) for a in adjs)
            lines = _tag(children, "lines")
            if lines is None:
                lines = "any" if (own or article == "any" or captured) else lines_default
            sel["lines"] = lines
            if captured:
                sel["captured"] = True
            where = {k: v for k, v in adjs if k != "captured" and k is not None}
            rank = _tag(children, "rank")
            if rank:
                where["rank"] = rank
            if where:
                sel["where"] = where
        if what == "spot":
            naming = _tag(children, "naming")
            if naming:
                sel["naming"] = naming
            if _tag(children, "empty"):
                sel[EMPTY] = True   # words for a place to move to, kept until the action says so
        return _Tagged("sel", [dict(sel) for _ in range(count)] if own else [sel])
    return make


def _multi(children: list[Any], meta: Meta) -> _Tagged:
    count = _tag(children, "num", 2)
    side = _tag(children, "side", "any")
    lines = _tag(children, "lines", "front")
    sel: dict[str, Any] = {"soul": side, "lines": lines}
    adjs = _tags(children, "adj")
    if any(a == ("captured", True) for a in adjs):
        sel["captured"] = True
    where = {k: v for k, v in adjs if k != "captured" and k is not None}
    if _tag(children, "rank"):
        where["rank"] = _tag(children, "rank")
    if where:
        sel["where"] = where
    return _Tagged("multi", [dict(sel) for _ in range(count)])


def _bound(children: list[Any], num: int) -> dict[str, int]:
    b = _tag(children, "bound")
    if b == "lower":
        return {"max": num}
    if b == "higher":
        return {"min": num}
    return {"min": num, "max": num}


def _cond(key: str, value: Any) -> Any:
    return lambda children, meta: _Tagged("cond", {key: value})


def _c_line(children: list[Any], meta: Meta) -> _Tagged:
    line = _tag(children, "line")
    if line == 1 and _tag(children, "bound") is None:
        return _Tagged("cond", {"front_line": True})
    return _Tagged("cond", {"line": _bound(children, line)})


def _c_line_number(children: list[Any], meta: Meta) -> _Tagged:
    return _Tagged("cond", {"line": _bound(children, _tag(children, "num"))})


def _c_rank(children: list[Any], meta: Meta) -> _Tagged:
    return _Tagged("cond", {"rank": _bound(children, _tag(children, "num"))})


def _c_attribute(children: list[Any], meta: Meta) -> _Tagged:
    return _Tagged("cond", {"attribute": _tag(children, "attribute")})


def _c_keyword(children: list[Any], meta: Meta) -> _Tagged:
    kw = _tag(children, "kw")
    return _Tagged("cond", {"keyword": kw if isinstance(kw, str) else next(iter(kw))})


def _conds(children: list[Any], meta: Meta) -> _Tagged:
    out: dict[str, Any] = {}
    for c in _tags(children, "cond"):
        out.update(c)
    return _Tagged("conds", out)


def _act(verb: str, **fixed: Any) -> Any:
    def make(children: list[Any], meta: Meta) -> _Tagged:
        start, end = _span(meta)
        args: dict[str, Any] = dict(fixed)
        objs = _tags(children, "obj")
        args["objs"] = objs
        for tag in ("num", "stats", "dur", "kw", "enlist", "subject"):
            value = _tag(children, tag)
            if value is not None:
                args[tag] = value
        subjects = _tags(children, "subject")
        if subjects:
            args["subject"] = subjects[0]
        return _Tagged("act", Act(verb, args, start, end))
    return make


def _subject(children: list[Any], meta: Meta) -> _Tagged:
    return _Tagged("subject", _object(children, meta).value)


def _obj_tagged(children: list[Any], meta: Meta) -> _Tagged:
    return _object(children, meta)


def _actions(children: list[Any], meta: Meta) -> _Tagged:
    return _Tagged("actions", [c.value for c in children if isinstance(c, _Tagged) and c.tag == "act"])


def _may(children: list[Any], meta: Meta) -> _Tagged:
    act = _tag(children, "act")
    return _Tagged("act", Act(act.verb, {**act.args, "may": True}, act.start, act.end))


def _if(children: list[Any], meta: Meta) -> _Tagged:
    start, end = _span(meta)
    subject = _tag(children, "subject")
    conds = _tag(children, "conds")
    then = _tag(children, "actions") or []
    otherwise = _tag(children, "else")
    args = {"subject": subject, "cond": conds, "then": then, "else": otherwise}
    return _Tagged("act", Act("if", args, start, end))


def _else_do(children: list[Any], meta: Meta) -> _Tagged:
    return _Tagged("else", _tag(children, "actions") or [])


def _else_stays(children: list[Any], meta: Meta) -> _Tagged:
    return _Tagged("else", ("stays", _tag(children, "conds")))


def _enlist_kind(children: list[Any], meta: Meta) -> _Tagged:
    spec: dict[str, Any] = {}
    kind = _tag(children, "card_kind")
    if kind and kind != "card":
        spec["type"] = kind
    attribute = _tag(children, "attribute")
    if attribute:
        spec["attribute"] = attribute
    rank = _tag(children, "enlist_rank")
    if rank is not None:
        spec["rank"] = rank
    return _Tagged("enlist", spec)


def _enlist_name(children: list[Any], meta: Meta) -> _Tagged:
    name = next(c for c in children if isinstance(c, Token) and c.type == "NAME")
    return _Tagged("enlist", {"name": name})   # a Token: it knows where the name starts


def _pronoun(which: str | int) -> Any:
    return lambda children, meta: _Tagged("pron", which)


def _value(tag: str, value: Any) -> Any:
    return lambda children, meta: _Tagged(tag, value)


def _head(kind: str) -> Any:
    def make(children: list[Any], meta: Meta) -> _Tagged:
        if kind == "limit":
            return _Tagged("head", ("limit", str(children[0])))
        return _Tagged("head", (kind, None))
    return make


def _sel_list(children: list[Any], meta: Meta) -> _Tagged:
    sels: list[Any] = []
    for c in children:
        if isinstance(c, _Tagged) and c.tag in ("sel", "multi"):
            sels.extend(c.value)
    return _Tagged("sels", sels)


def _core(children: list[Any], meta: Meta) -> _Tagged:
    return _Tagged("core", {"cost": _tag(children, "cost_clause") or [],
                            "targets": _tag(children, "sels") or [],
                            "actions": _tag(children, "actions") or []})


def _costs(children: list[Any]) -> list[dict[str, Any]]:
    return _tags(children, "cost")


_HANDLERS: dict[str, Any] = {
    "num_int": _num, "num_word": _num,
    "stats": _stats, "signed_stats": _stats, "stat_amount": _stat_amount, "signed_stat": _stat_amount,
    "header_piece": _piece("header"), "trigger_piece": _piece("trigger"), "cond_piece": _piece("cond"),
    "cost_piece": _piece("cost"), "body_piece": _piece("body"), "target_piece": _piece("target"),
    "kw_piece": _piece("kw"), "has_piece": _piece("has"), "req_piece": _piece("req"),
    "values_piece": _piece("values"), "lasting_piece": _piece("lasting"),
    "moment_piece": _piece("moment"), "note_piece": _piece("note"), "counts_piece": _piece("counts"),
    "h_activated": _head("activated"), "h_fast": _head("fast"), "h_instant": _head("instant"),
    "h_limit": _head("limit"),
    "h_times": lambda ch, m: _Tagged("head", ("limit", f"{_tag(ch, 'times')}/{_tag(ch, 'per')}")),
    "once": _value("times", 1), "twice": _value("times", 2),
    "per_turn": _value("per", "Turn"), "per_game": _value("per", "Game"),
    "num_one": lambda ch, m: _Tagged("num", 1), "count": lambda ch, m: ch[0],
    "lead_when": _value("lead", "When"), "lead_after": _value("lead", "After"),
    "ts_self": _value("tsubject", "self"), "ts_ambusher": _value("tsubject", "ambusher"),
    "c_active": lambda ch, m: _Tagged("cond", {}),
    "c_damaged": _cond("damaged", True), "c_undamaged": _cond("damaged", False),
    "c_half": _cond("hp_at_most_half", True), "c_more_than_half": _cond("hp_at_most_half", False),
    "c_line": _c_line, "c_line_number": _c_line_number, "c_not_front": _cond("front_line", False),
    "c_leader": _cond("leader", True), "c_not_leader": _cond("leader", False),
    "c_attribute": _c_attribute, "c_captured": _cond("captured", True),
    "c_not_captured": _cond("captured", False), "c_keyword": _c_keyword, "c_rank": _c_rank,
    "conds": _conds,
    **{f"line_{i}": _value("line", i) for i in range(1, 6)},
    "b_lower": _value("bound", "lower"), "b_higher": _value("bound", "higher"),
    "attr_dark": _value("attribute", "dark"), "attr_light": _value("attribute", "light"),
    "cost_discard": lambda ch, m: _Tagged("cost", {"discard": _tag(ch, "num")}),
    "cost_pay": lambda ch, m: _Tagged("cost", {"pay_hp": _tag(ch, "num"), "by": _tag(ch, "payer")}),
    "cost_clause": lambda ch, m: _Tagged("cost_clause", _costs(ch)),
    "rq_caster": _value("who", "caster"), "rq_ambusher": _value("who", "ambusher"),
    "rqa_attribute": lambda ch, m: _Tagged("rq", ("attribute", _tag(ch, "attribute"))),
    "rqa_damaged": _value("rq", ("damaged", True)),
    "rqn_soul": _value("rq", (None, None)), "rqn_leader": _value("rq", ("leader", True)),
    "rqt_rank": lambda ch, m: _Tagged("rq", ("rank", _bound(ch, _tag(ch, "num")))),
    "rqt_keyword": lambda ch, m: _Tagged("rq", ("keyword", _c_keyword(ch, m).value["keyword"])),
    "rqt_front": _value("rq", ("front_line", True)),
    "req_adj": lambda ch, m: ch[0], "req_noun": lambda ch, m: ch[0], "req_tail": lambda ch, m: ch[0],
    "radius": lambda ch, m: _Tagged("radius", _tag(ch, "radius")),
    "sel_list": _sel_list, "core": _core, "target_clause": lambda ch, m: _Tagged("sels", _tag(ch, "sels")),
    "actions": _actions, "plain_list": _actions, "may_action": _may, "if_action": _if,
    "else_do": _else_do, "else_stays": _else_stays,
    "a_damage": _act("damage"), "a_deals": _act("deals"), "a_takes": _act("takes"),
    "from_hand": _value("place", None),
    "a_freeze": _act("freeze", kw=FROZEN.name), "a_heal": _act("heal"), "a_capture": _act("capture"),
    "a_return": _act("return"), "a_exile": _act("exile"), "a_teleport": _act("teleport"),
    "a_gain": _act("gain"), "a_lose": _act("gain", lose=True), "a_grant": _act("grant"),
    "a_frozen": _act("grant", kw=FROZEN.name), "a_cannot_attack": _act("grant", kw=CANNOT_ATTACK.name),
    "a_lay_gain": _act("lay"), "a_lay_lose": _act("lay", lose=True), "a_lay_grant": _act("lay"),
    "a_lay_frozen": _act("lay", kw=FROZEN.name), "a_lay_cannot_attack": _act("lay", kw=CANNOT_ATTACK.name),
    "a_negate": _act("negate"), "a_draw": _act("draw"), "a_discard_self": _act("discard", who="self"),
    "a_discard_opponent": _act("discard", who="opponent"), "a_enlist": _act("enlist"),
    "a_battle": _act("battle"), "a_battle_itself": _act("battle", itself=True),
    "enlist_kind": _enlist_kind, "enlist_name": _enlist_name,
    "enlist_rank": lambda ch, m: _Tagged("enlist_rank", _tag(ch, "num")),
    "ck_soul": _value("card_kind", "soul"), "ck_event": _value("card_kind", "event"),
    "ck_armament": _value("card_kind", "armament"), "ck_ambush": _value("card_kind", "ambush"),
    "ck_realm": _value("card_kind", "realm"), "ck_card": _value("card_kind", "card"),
    "subject": _subject, "object": _obj_tagged, "destination": _obj_tagged,
    "dest_slot": lambda ch, m: _Tagged("obj", Obj("slot", str(ch[0]), *_span(m))),
    "pr_it": _pronoun("it"), "pr_them": _pronoun("them"), "pr_that": _pronoun("that"),
    "pr_first": _pronoun(1), "pr_second": _pronoun(2), "pr_third": _pronoun(3),
    "sel_soul": _selector("soul", "any", "front"), "sel_own_soul": _selector("soul", "own", "any", own=True),
    "sel_spot": _selector("spot", "any", "front"), "sel_own_spot": _selector("spot", "own", "any", own=True),
    "sel_realm": _selector("realm", "any", "front"),
    "sel_own_realm": _selector("realm", "own", "any", own=True),
    "multi_soul": _multi,
    "art_a": _value("article", "a"), "art_any": _value("article", "any"),
    "side_opposing": _value("side", "opposing"),
    "adj_captured": _value("adj", ("captured", True)), "adj_damaged": _value("adj", ("damaged", True)),
    "adj_attribute": lambda ch, m: _Tagged("adj", ("attribute", _tag(ch, "attribute"))),
    "adj_active": _value("adj", (None, None)),
    "leader": _value("adj", ("leader", True)),
    "tail_keyword": lambda ch, m: _Tagged("adj", ("keyword", _c_keyword(ch, m).value["keyword"])),
    "tail_half": _value("adj", ("hp_at_most_half", True)),
    "soul_tail": lambda ch, m: ch[0],
    "lines_front": _value("lines", "front"), "lines_any": _value("lines", "any"),
    "rank_tail": lambda ch, m: _Tagged("rank", _bound(ch, _tag(ch, "num"))),
    "naming_front": _value("naming", "front"), "naming_any": _value("naming", "any"),
    "gain_verb": _value("verb", None), "lose_verb": _value("verb", None), "be": _value("verb", None),
    "return_place": _value("place", None), "spot_ref": lambda ch, m: _Tagged("obj", Obj("pron", "spot",
                                                                                         *_span(m))),
    "card_word": _value("word", None), "empty": _value("empty", True), "sep": _value("sep", None),
    "cond_lead": _value("lead", None),
    "cond_subject": _value("csubject", None), "article": lambda ch, m: ch[0],
    "trig_subject": lambda ch, m: ch[0], "lead": lambda ch, m: ch[0],
}


def pieces_of(tree: Tree[Token]) -> list[Piece]:
    result = ToPieces().transform(tree)
    return result if isinstance(result, list) else []
