"""Validating the card schema (contract §3): every unknown key and wrong type is reported with its
key path (`cards[2].effects[0].do[1].heal: expected 0 or more`). The records it builds are in
`cards.py`; `docs/scenario-format.md` lists our extensions of the vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from judge.engine.data.card_records import (
    ATTRIBUTES,
    BARE_KEYWORDS,
    CARD_TYPES,
    CONDITION_KEYS,
    DURATIONS,
    EFFECT_KINDS,
    EXTRA_CARD_KEYS,
    FLAG_CONDITIONS,
    GROUP_REFS,
    KEYWORDS,
    SIDES,
    SINGLE_REFS,
    STAT_KEYS,
    TARGET_REF,
    TRIGGERS,
    VALUE_KEYWORDS,
    CardDef,
    EffectDef,
    Keyword,
    Limit,
    TargetSpec,
)
from judge.engine.data.errors import Problems
from judge.engine.data.field import load_field
from judge.engine.data.input_checks import Checker, show
from judge.engine.data.keywords import KEYWORDS as KEYWORD_TABLE
from judge.engine.data.keywords import KeywordDef
from judge.engine.data.parts import PARTS, STATIC_PARTS, Part


class _Checker(Checker):
    """The card schema's checks, on top of the shared ones (checker.Checker)."""

    def stats(self, value: Any, path: str) -> dict[str, int]:
        data = self.mapping(value, path)
        if data is None:
            return {}
        self.keys(data, STAT_KEYS, path)
        out = {}
        for key in STAT_KEYS:
            if key in data:
                out[key] = self.whole(data[key], f"{path}.{key}", signed=True) or 0
        if not data:
            self.problem(path, "no_stat")
        return out

    def condition(self, value: Any, path: str, allow_of: bool = False) -> dict[str, Any]:
        data = self.mapping(value, path)
        if data is None:
            return {}
        allowed = [*CONDITION_KEYS, *(["of"] if allow_of else [])]
        self.keys(data, allowed, path)
        out: dict[str, Any] = {}
        for key, val in data.items():
            sub = f"{path}.{key}"
            if key in ("line", "rank"):
                bounds = self.mapping(val, sub)
                if bounds is not None:
                    self.keys(bounds, ("max", "min"), sub)
                    out[key] = {k: self.integer(v, f"{sub}.{k}", 0) for k, v in bounds.items()
                                if k in ("max", "min")}
            elif key in FLAG_CONDITIONS:
                out[key] = self.boolean(val, sub)
            elif key == "attribute":
                out[key] = self.choice(val, ATTRIBUTES, sub)
            elif key == "keyword":
                out[key] = self.choice(val, KEYWORDS, sub)
            elif key == "of":
                out[key] = self.ref(val, sub)
        return out

    def ref(self, value: Any, path: str, groups: bool = True) -> str | None:
        if isinstance(value, str) and (TARGET_REF.match(value) or value in SINGLE_REFS
                                       or (groups and value in GROUP_REFS)):
            return value
        refs = list(SINGLE_REFS + (GROUP_REFS if groups else ()))
        self.problem(path, "not_a_ref", refs=refs, got=show(value))
        return None

    def keyword(self, value: Any, path: str) -> Keyword | None:
        if isinstance(value, str):
            name = value.lower()
            if name in BARE_KEYWORDS:
                return Keyword(name, KEYWORD_TABLE[name].default)
            if name in VALUE_KEYWORDS:
                self.problem(path, "keyword_needs_value", name=name)
                return None
            self.problem(path, "unknown_keyword", name=value, keywords=list(KEYWORDS))
            return None
        data = self.mapping(value, path)
        if data is None:
            return None
        if len(data) != 1:
            self.problem(path, "keyword_shape", keys=[str(key) for key in data])
            return None
        (name, val), = data.items()
        sub = f"{path}.{name}"
        record = KEYWORD_TABLE.get(str(name).lower())
        if record is None:
            self.problem(sub, "unknown_keyword_key", name=str(name), keywords=list(KEYWORDS))
            return None
        if record.with_value:
            return KEYWORD_VALUE_PARSERS[record.value](self, record, val, sub)
        if val not in (None, True):
            self.problem(sub, "keyword_takes_no_value", name=record.name)
        return Keyword(record.name)

    def limit(self, value: Any, path: str) -> Limit | None:
        if not isinstance(value, str):
            self.problem(path, "limit_shape", got=show(value))
            return None
        per_turn = per_game = None
        for part in value.split(","):
            m = re.fullmatch(r"\s*(\d+)\s*/\s*(turn|game)\s*", part, re.IGNORECASE)
            if not m:
                self.problem(path, "limit_words", written=value)
                return None
            if m.group(2).lower() == "turn":
                per_turn = int(m.group(1))
            else:
                per_game = int(m.group(1))
        return Limit(per_turn, per_game, value)

    def selector(self, value: Any, path: str) -> TargetSpec | None:
        data = self.mapping(value, path)
        if data is None:
            return None
        whats = [k for k in ("soul", "spot", "realm") if k in data]
        if len(whats) != 1:
            self.problem(path, "selector_kind")
            return None
        what = whats[0]
        allowed = {"soul": ("soul", "lines", "captured", "where"),
                   "spot": ("spot", "naming", "where"),
                   "realm": ("realm", "where")}[what]
        self.keys(data, allowed, path)
        side = self.choice(data[what], SIDES, f"{path}.{what}") or "any"
        spec = TargetSpec(what, side)
        kwargs: dict[str, Any] = {}
        if "lines" in data:
            kwargs["lines"] = self.choice(data["lines"], ("front", "any"), f"{path}.lines") or "front"
        if "captured" in data:
            kwargs["captured"] = self.boolean(data["captured"], f"{path}.captured")
        if "naming" in data:
            kwargs["naming"] = self.choice(data["naming"], ("front", "any"), f"{path}.naming")
        if "where" in data:
            kwargs["where"] = self.condition(data["where"], f"{path}.where")
        return TargetSpec(**{**spec.__dict__, **kwargs})

    def cost(self, value: Any, path: str) -> dict[str, Any]:
        data = self.mapping(value, path)
        if data is None:
            return {}
        if "discard" in data:
            self.keys(data, ("discard",), path)
            return {"discard": self.integer(data["discard"], f"{path}.discard", 1)}
        if "pay_hp" in data:
            self.keys(data, ("pay_hp", "by"), path)
            return {"pay_hp": self.whole(data["pay_hp"], f"{path}.pay_hp", positive=True),
                    "by": self.choice(data.get("by", "self"), ("self", "caster", "ambusher"), f"{path}.by")}
        self.problem(path, "unknown_cost")
        return {}

    def actions(self, value: Any, path: str) -> list[Part]:
        parts = (self.action(item, f"{path}[{i}]") for i, item in enumerate(self.seq(value, path)))
        return [part for part in parts if part is not None]

    def action(self, value: Any, path: str) -> Part | None:
        """One part of `do:` (parts.PARTS), its values checked by kind (VALUE_PARSERS)."""
        data = self.mapping(value, path)
        if data is None:
            return None
        verbs = [k for k in PARTS if k in data]
        if len(verbs) != 1:
            self.problem(path, "part_count", parts=list(PARTS), keys=[str(key) for key in data])
            return None
        part = PARTS[verbs[0]]
        self.keys(data, tuple(k.written for k in part.FORM), path)
        for key in part.FORM[1:]:
            if key.required and key.written not in data:
                self.problem(f"{path}.{key.written}", "missing_part_key", part=part.KEY, key=key.written)
        kinds = {k.written: k.kind for k in part.FORM}
        out: dict[str, Any] = {}
        for written, val in data.items():
            kind = kinds.get(written)
            out[written] = val if kind is None else VALUE_PARSERS[kind](self, val, f"{path}.{written}")
        return part.build(out)

    def given(self, data: Mapping[str, Any], key: str, path: str, read: Callable[[Any, str], Any],
              default: Any = None) -> Any:
        """`data[key]` read by `read` at `path.key`, or `default` where the key is not written."""
        return read(data[key], f"{path}.{key}") if key in data else default

    def listed(self, data: Mapping[str, Any], key: str, path: str,
               read: Callable[[Any, str], Any]) -> tuple[Any, ...]:
        """Each item of the list under `key`, read by `read` at `path.key[i]`; the unreadable left out."""
        items = self.seq(data.get(key), f"{path}.{key}")
        read_items = (read(item, f"{path}.{key}[{i}]") for i, item in enumerate(items))
        return tuple(item for item in read_items if item is not None)

    def effect_kind(self, data: Mapping[str, Any], path: str, default_kind: str | None) -> str:
        """`kind:` (or the keyword's default); a missing or wrong one reads as activated."""
        kind = None
        if "kind" in data or default_kind:
            kind = self.choice(data.get("kind", default_kind), EFFECT_KINDS, f"{path}.kind")
        if kind is None:
            if "kind" not in data:
                self.problem(f"{path}.kind", "missing_kind", kinds=list(EFFECT_KINDS))
            kind = "activated"
        return kind

    def effect_trigger(self, data: Mapping[str, Any], path: str, kind: str,
                       default_trigger: str | None) -> str | None:
        """`trigger:`: timing and instant effects need one, activated and static ones have none."""
        trigger = data.get("trigger", default_trigger)
        if trigger is None:
            if kind in ("timing", "instant"):
                self.problem(f"{path}.trigger", "missing_trigger", kind=kind, triggers=list(TRIGGERS))
            return None
        trigger = self.choice(trigger, TRIGGERS, f"{path}.trigger")
        if kind in ("activated", "static") and "trigger" in data:
            self.problem(f"{path}.trigger", "trigger_not_allowed", kind=kind)
        return trigger

    def effect_shape(self, data: Mapping[str, Any], path: str, kind: str) -> None:
        """A static effect gives (gain:, grant:, negate: with to:); any other kind does (do:)."""
        static_keys = [k for k in STATIC_PARTS if k in data]
        if kind != "static":
            for key in [*static_keys, *(["to"] if "to" in data else [])]:
                self.problem(f"{path}.{key}", "static_key_elsewhere", key=key, kind=kind)
            if "do" not in data:
                self.problem(f"{path}.do", "missing_do", kind=kind)
            return
        if "do" in data:
            self.problem(f"{path}.do", "static_has_do")
        if not static_keys:
            self.problem(path, "static_gives_nothing")
        if ("gain" in data or "grant" in data) and "to" not in data:
            self.problem(f"{path}.to", "static_missing_to")

    def effect(self, value: Any, path: str, index: int, default_kind: str | None = None,
               default_trigger: str | None = None, default_name: str | None = None) -> EffectDef | None:
        data = self.mapping(value, path)
        if data is None:
            return None
        self.keys(data, ("name", "kind", "fast", "limit", "trigger", "mandatory", "condition", "targets",
                         "cost", "do", "gain", "grant", "to", "negate"), path)
        kind = self.effect_kind(data, path, default_kind)
        trigger = self.effect_trigger(data, path, kind, default_trigger)
        if "mandatory" in data and kind != "timing":
            self.problem(f"{path}.mandatory", "mandatory_not_timing")
        self.effect_shape(data, path, kind)
        return EffectDef(
            name=self.given(data, "name", path, self.text, default_name),
            kind=kind,
            fast=self.given(data, "fast", path, self.boolean, False),
            limit=self.given(data, "limit", path, self.limit),
            trigger=trigger,
            mandatory=self.given(data, "mandatory", path, self.boolean, False),
            condition=self.given(data, "condition", path, self.condition, {}),
            targets=self.listed(data, "targets", path, self.selector),
            cost=self.listed(data, "cost", path, self.cost),
            do=tuple(self.actions(data.get("do"), f"{path}.do")),
            gain=self.given(data, "gain", path, self.stats),
            grant=self.given(data, "grant", path, self.keyword),
            to=self.given(data, "to", path, self.ref),
            negate=self.given(data, "negate", path, self.ref),
            index=index,
        )

    def card(self, value: Any, path: str) -> CardDef | None:
        """One card's mapping checked (the one entry point for a card, `cards:` or the library's):
        the card, or None with every problem reported under `path`."""
        data = self.mapping(value, path)
        if data is None:
            return None
        before = len(self.p)
        self.keys(data, ("name", "type", "rank", "attribute", "leader", "atk", "def", "hp", "text",
                         "keywords", "effects", "caster", "ambusher", "editions", *EXTRA_CARD_KEYS), path)
        name, ctype, rank, attribute = self.card_head(data, path)
        values = self.card_values(data, ctype, path)
        leader = self.card_leader(data, ctype, rank, path)
        for key, allowed_type in (("caster", "event"), ("ambusher", "ambush")):
            if key in data and ctype not in (None, allowed_type):
                self.problem(f"{path}.{key}", "names_wrong_role", type=allowed_type, key=key)
        keywords = self.listed(data, "keywords", path, self.keyword)
        effects = self.card_effects(data, path)
        sources = tuple(str(s) for s in self.seq(data.get("sources"), f"{path}.sources"))
        if ctype in ("event", "ambush") and all(e.kind == "static" for e in effects) \
                and len(self.p) == before:
            self.problem(f"{path}.effects", "needs_effect", type=ctype)
        editions = tuple(self.version(v, f"{path}.editions[{i}]")
                         for i, v in enumerate(self.seq(data.get("editions"), f"{path}.editions")))
        if len(self.p) > before:
            if name:
                self.refused.add(name.lower())  # still named: no follow-on "no card named" (issue 11)
            return None
        counted = {k: v or 0 for k, v in values.items()}
        return CardDef(
            name=name, type=ctype or "soul", rank=rank or 0, attribute=attribute, leader=leader,
            atk=counted.get("atk", 0), def_=counted.get("def", 0), hp=counted.get("hp", 0),
            text=self.given(data, "text", path, self.text, ""),
            keywords=keywords, effects=effects,
            caster=self.given(data, "caster", path, self.condition),
            ambusher=self.given(data, "ambusher", path, self.condition),
            reconstructed=bool(data.get("reconstructed", False)),
            notes=str(data.get("notes", "")), sources=sources, editions=editions,
        )

    def card_head(self, data: Mapping[str, Any], path: str) -> tuple[str, str | None, int | None, str | None]:
        """Name, type, rank and attribute: the first three required, the attribute a Soul's."""
        for key in ("name", "type", "rank"):
            if key not in data:
                self.problem(f"{path}.{key}", "missing", key=key)
        name = self.given(data, "name", path, self.text, "").strip()
        if "name" in data and not name:
            self.problem(f"{path}.name", "empty_name")
        ctype = self.given(data, "type", path, lambda v, p: self.choice(v, CARD_TYPES, p))
        rank = self.given(data, "rank", path, lambda v, p: self.integer(v, p, 0, 3))
        attribute = self.given(data, "attribute", path, lambda v, p: self.choice(v, ATTRIBUTES, p))
        if "attribute" not in data and ctype == "soul":
            self.problem(f"{path}.attribute", "missing_attribute")
        return name, ctype, rank, attribute

    def card_effects(self, data: Mapping[str, Any], path: str) -> tuple[EffectDef, ...]:
        items = self.seq(data.get("effects"), f"{path}.effects")
        read = (self.effect(item, f"{path}.effects[{i}]", i) for i, item in enumerate(items))
        return tuple(effect for effect in read if effect is not None)

    def card_values(self, data: Mapping[str, Any], ctype: str | None, path: str) -> dict[str, int | None]:
        """ATK, DEF and HP as written (None where a value is wrong, already reported); a Soul or Realm
        needs HP above 0, an Event or Ambush has none of them."""
        values = {}
        for key in STAT_KEYS:
            if key in data:
                if ctype in ("event", "ambush"):
                    self.problem(f"{path}.{key}", "stat_on_event", type=ctype, stat=key.upper())
                values[key] = self.whole(data[key], f"{path}.{key}")
        if ctype in ("soul", "realm") and not values.get("hp"):
            if "hp" not in data:
                self.problem(f"{path}.hp", "missing_hp", type=ctype)
            elif values.get("hp") == 0:  # None: already said what is wrong with it (one mistake, one message)
                self.problem(f"{path}.hp", "zero_hp", type=ctype)
        return values

    def card_leader(self, data: Mapping[str, Any], ctype: str | None, rank: int | None, path: str) -> bool:
        """`leader:`: only a Soul, and of rank 3 (glossary/leader)."""
        if "leader" not in data:
            return False
        leader = self.boolean(data["leader"], f"{path}.leader")
        if ctype not in (None, "soul") and leader:
            self.problem(f"{path}.leader", "leader_not_soul", type=ctype)
        if leader and rank is not None and rank != 3:
            self.problem(f"{path}.rank", "leader_rank", rank=rank)
        return leader


def _v_ref(c: _Checker, v: Any, p: str) -> Any:
    return c.ref(v, p)


def _v_amount(c: _Checker, v: Any, p: str) -> Any:
    return c.whole(v, p)


def _v_count(c: _Checker, v: Any, p: str) -> Any:
    return c.integer(v, p, 1)


def _v_until(c: _Checker, v: Any, p: str) -> Any:
    return c.choice(v, DURATIONS, p)


def _v_stats(c: _Checker, v: Any, p: str) -> Any:
    return c.stats(v, p)


def _kw_radius(c: _Checker, record: KeywordDef, val: Any, sub: str) -> Keyword | None:
    if val is None:
        return Keyword(record.name, record.default)
    spec = c.mapping(val, sub)
    if spec is None:
        return None
    c.keys(spec, ("radius",), sub)
    return Keyword(record.name, c.choice(spec.get("radius", record.default), record.choices, f"{sub}.radius"))


def _kw_effect(c: _Checker, record: KeywordDef, val: Any, sub: str) -> Keyword | None:
    effect = c.effect(val, sub, 0, default_kind=record.kind, default_trigger=record.trigger,
                      default_name=record.title)
    return Keyword(record.name, effect)


# How a keyword's value is read, per kind of value of the keyword table (keywords.VALUE_KINDS).
KEYWORD_VALUE_PARSERS: dict[str, Callable[[_Checker, KeywordDef, Any, str], Keyword | None]] = {
    "radius": _kw_radius,
    "stats": lambda c, record, val, sub: Keyword(record.name, c.stats(val, sub)),
    "amount": lambda c, record, val, sub: Keyword(record.name, c.whole(val, sub, positive=True)),
    "actions": lambda c, record, val, sub: Keyword(record.name, tuple(c.actions(val, sub))),
    "effect": _kw_effect,
}


def _v_keyword(c: _Checker, v: Any, p: str) -> Any:
    kw = c.keyword(v, p)
    return kw


def _v_lay(c: _Checker, v: Any, p: str) -> Any:
    if isinstance(v, str):
        if v.lower() in BARE_KEYWORDS:
            return v.lower()
        c.problem(p, "lay_shape", written=v)
        return None
    data = c.mapping(v, p)
    if data is None:
        return None
    c.keys(data, ("gain", "grant"), p)
    if "gain" in data:
        return {"gain": c.stats(data["gain"], f"{p}.gain")}
    if "grant" in data:
        return {"grant": c.keyword(data["grant"], f"{p}.grant")}
    c.problem(p, "lay_map_shape")
    return None


def _v_slot(c: _Checker, v: Any, p: str) -> Any:
    if isinstance(v, str) and TARGET_REF.match(v):
        return v  # a Soul Spot chosen as a target when the effect is used (Portal Mage's Blink)
    slot = load_field().normalize(v)
    if slot is None and v != "any":
        c.problem(p, "no_such_part_slot", got=show(v), slots=load_field().describe())
    return slot or v


def _v_who(c: _Checker, v: Any, p: str) -> Any:
    return c.choice(v, ("self", "opponent"), p)


def _v_enlist(c: _Checker, v: Any, p: str) -> Any:
    data = c.mapping(v, p)
    if data is None:
        return {}
    c.keys(data, ("type", "attribute", "rank", "name"), p)
    out = dict(data)
    if "type" in data:
        out["type"] = c.choice(data["type"], CARD_TYPES, f"{p}.type")
    if "attribute" in data:
        out["attribute"] = c.choice(data["attribute"], ATTRIBUTES, f"{p}.attribute")
    if "rank" in data:
        out["rank"] = c.integer(data["rank"], f"{p}.rank", 0, 3)
    return out


def _v_battle(c: _Checker, v: Any, p: str) -> Any:
    data = c.mapping(v, p)
    if data is None:
        return {}
    c.keys(data, ("attacker", "target", "counts_as_attack"), p)
    for key in ("attacker", "target"):
        if key not in data:
            c.problem(f"{p}.{key}", "missing", key=key)
    return {"attacker": c.ref(data.get("attacker"), f"{p}.attacker",
                              groups=False) if "attacker" in data else None,
            "target": c.ref(data.get("target"), f"{p}.target", groups=False) if "target" in data else None,
            "counts_as_attack": c.boolean(data.get("counts_as_attack", False), f"{p}.counts_as_attack")}


def _v_if(c: _Checker, v: Any, p: str) -> Any:
    return c.condition(v, p, allow_of=True)


def _v_actions(c: _Checker, v: Any, p: str) -> Any:
    return c.actions(v, p)


# the kinds of value a part's keys hold (parts.Key.kind)
VALUE_PARSERS = {
    "amount": _v_amount, "ref": _v_ref, "slot": _v_slot, "stats": _v_stats, "keyword": _v_keyword,
    "slot_effect": _v_lay, "duration": _v_until, "count": _v_count, "who": _v_who, "enlist": _v_enlist,
    "battle": _v_battle, "condition": _v_if, "parts": _v_actions,
}


def parse_card(data: Any, path: str, problems: Problems) -> CardDef | None:
    """One card; problems go to `problems` with key paths under `path`."""
    return _Checker(problems).card(data, path)


def parse_cards(data: Any, path: str, problems: Problems, refused: set[str] | None = None) -> list[CardDef]:
    """The valid cards; the lower-cased names of the refused ones go to `refused` (they still count as
    named, so a scenario that uses them gets one message per mistake)."""
    checker = _Checker(problems)
    out = []
    for i, item in enumerate(checker.seq(data, path)):
        card = checker.card(item, f"{path}[{i}]")
        if card is not None:
            out.append(card)
    if refused is not None:
        refused |= checker.refused
    return out


def parse_keyword(data: Any, path: str = "keyword") -> Keyword:
    """A keyword from its contract form; raises ScenarioError when malformed."""
    problems = Problems()
    kw = _Checker(problems).keyword(data, path)
    problems.raise_if_any()
    assert kw is not None
    return kw


