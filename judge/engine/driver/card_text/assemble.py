"""Pieces (pieces.py) to the card's `keywords`, `effects`, `caster`/`ambusher` and values, in the
contract's §3 shapes, for one card type. An effect starts at a header ("Activated, 1/Turn:"), a
trigger ("When …:"), a condition ("While …,") or a sentence of actions after a finished effect; its
targets are the selectors its sentences name, in order, and "it", "that Soul", "the first" refer to
them (or, with none, to the Soul or Ambusher the trigger names). What can't be placed is a problem.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz.distance import OSA

from judge.engine.data.keywords import KEYWORDS
from judge.engine.data.parts import STATIC_PARTS
from judge.engine.driver.card_text.actions import build_action
from judge.engine.driver.card_text.effects import finish_effect, numbered, unsaid_empty
from judge.engine.driver.card_text.grammar import Correction
from judge.engine.driver.card_text.phrases import TRIGGER_PHRASES
from judge.engine.driver.card_text.pieces import Act, Obj, Piece
from judge.engine.driver.card_text.problems import TextProblem


@dataclass
class _Effect:
    start: int
    header: list[tuple[str, Any]] = field(default_factory=list)
    trigger: str | None = None
    lead_ok: bool = True
    subject: str | None = None            # what the trigger names: self | ambusher
    condition: dict[str, Any] = field(default_factory=dict)
    cost: list[dict[str, Any]] = field(default_factory=list)
    targets: list[dict[str, Any]] = field(default_factory=list)
    do: list[dict[str, Any]] = field(default_factory=list)
    mandatory: bool = False
    end: int = 0

    @property
    def has_body(self) -> bool:
        return bool(self.do)


class Assembler:
    def __init__(self, text: str, card_type: str, names: Sequence[str] = ()) -> None:
        self.text = text
        self.type = card_type
        self.names = names                      # the card names a text may name (the library's)
        self.corrections: list[Correction] = []
        self.problems: list[TextProblem] = []
        self.keywords: list[Any] = []
        self.effects: list[_Effect] = []
        self.caster: dict[str, Any] | None = None
        self.ambusher: dict[str, Any] | None = None
        self.values: dict[str, int] = {}
        self.cur: _Effect | None = None

    # --- problems
    def phrase(self, start: int, end: int) -> str:
        return " ".join(self.text[start:end].split())

    def problem(self, code: str, start: int, end: int, **facts: Any) -> None:
        self.problems.append(TextProblem.of(code, phrase=self.phrase(start, end), offset=start,
                                            type=self.type, **facts))

    def not_on_type(self, piece: Piece, what: str) -> None:
        self.problem("not_on_type", piece.start, piece.end, what=what)

    # --- effects
    def new(self, piece: Piece) -> _Effect:
        self.cur = _Effect(piece.start)
        self.effects.append(self.cur)
        return self.cur

    def fresh(self) -> _Effect | None:
        """The current effect when nothing of what it does is read yet."""
        return self.cur if self.cur is not None and not self.cur.has_body else None

    def run(self, pieces: list[Piece]) -> None:
        for piece in pieces:
            getattr(self, f"on_{piece.kind}")(piece)

    def on_header(self, piece: Piece) -> None:
        eff = self.new(piece)
        eff.header = [h.value for h in piece.value if getattr(h, "tag", "") == "head"]

    def on_trigger(self, piece: Piece) -> None:
        eff = self.fresh()
        if eff is None or eff.trigger is not None:
            eff = self.new(piece)
        lead = _value(piece.value, "lead")
        key = _value(piece.value, "trig")
        eff.trigger = key
        eff.subject = _value(piece.value, "tsubject") or "self"
        expected = TRIGGER_PHRASES[key][0]
        if lead != expected:
            self.problem("wrong_lead", piece.start, piece.end,
                         expected=repr(f"{expected} … {TRIGGER_PHRASES[key][1][0]}"))

    def on_moment(self, piece: Piece) -> None:
        """10.4.6: a moment named without "When" ("The Ambusher is targeted by an Effect: …"): a trigger
        on the card's own Soul or Ambusher; any other subject names nothing the card waits for."""
        subject = _value(piece.value, "subject")
        named = {"self": "self", "wielder": "self", "ambusher": "ambusher"}.get(
            self.own_ref(subject.value) if subject.how == "ref" else "")
        if subject.how == "pron" and subject.value == "it":
            named = "ambusher" if self.type == "ambush" else "self"
        if named is None or (named == "ambusher") != (self.type == "ambush"):
            self.problem("names_nothing", piece.start, piece.end,
                         why="a moment is this Soul's, or an Ambush's Ambusher's ('When the Ambusher is "
                             "attacked:')")
        eff = self.fresh()
        if eff is None or eff.trigger is not None:
            eff = self.new(piece)
        eff.trigger = _value(piece.value, "trig")
        eff.subject = named or "self"

    def on_cond(self, piece: Piece) -> None:
        eff = self.fresh() or self.new(piece)
        eff.condition.update(_value(piece.value, "conds") or {})

    def on_cost(self, piece: Piece) -> None:
        eff = self.fresh() or self.new(piece)
        costs = _values(piece.value, "cost")
        if self.type in ("event", "ambush") and any(c.get("by") == "self" for c in costs):
            self.no_soul(piece.start, piece.end)
        eff.cost.extend(costs)

    def on_target(self, piece: Piece) -> None:
        eff = self.cur if self.cur is not None and self.continues() else self.new(piece)
        start = len(eff.targets)
        eff.targets.extend(_value(piece.value, "sels") or [])
        eff.do.extend(self.resolve_all(_value(piece.value, "actions") or [], eff, introduced=start))
        if not _value(piece.value, "actions"):
            eff.do.append({"_targets_only": True})
        eff.end = piece.end

    def continues(self) -> bool:
        """Whether a sentence of actions joins the current effect (rather than starting a static one)."""
        eff = self.cur
        if eff is None:
            return False
        if not eff.has_body:
            return True
        return bool(eff.header or eff.trigger or self.type in ("event", "ambush"))

    def on_body(self, piece: Piece) -> None:
        acts = _value(piece.value, "actions") or []
        eff = self.cur if self.continues() else None
        if eff is not None and eff.has_body and self.type in ("soul", "realm") and _static_like(acts):
            self.problem("ambiguous", piece.start, piece.end,
                         readings=["part of the effect before it",
                                   "a Static Effect of its own ('While this Soul is active, …')"])
        eff = eff or self.new(piece)
        eff.do.extend(self.resolve_all(acts, eff))
        eff.end = piece.end

    def on_lasting(self, piece: Piece) -> None:
        """"Your other Souls gain 5 ATK while this Soul is in the Front Line.": a Static Effect with its
        condition said last (13.1.1); only where a sentence of its own can be one (a Soul's, a Realm's
        or an Armament's), never joined to an effect that is used."""
        if self.type in ("event", "ambush") or (self.cur is not None and self.continues()):
            self.problem("ambiguous", piece.start, piece.end,
                         readings=["a condition to use the effect ('While …, …' before it)",
                                   "a Static Effect of its own"])
            return
        eff = self.new(piece)
        eff.condition.update(_value(piece.value, "conds") or {})
        eff.do.extend(self.resolve_all(_value(piece.value, "actions") or [], eff))
        eff.end = piece.end
        self.cur = None

    def on_kw(self, piece: Piece) -> None:
        self.cur = None
        for kw in _values(piece.value, "kw"):
            self.keywords.append(self.keyword(kw, piece))

    def on_has(self, piece: Piece) -> None:
        if self.type != "armament":
            self.not_on_type(piece, "an equipped Soul")
        self.on_kw(piece)

    def on_req(self, piece: Piece) -> None:
        who = _value(piece.value, "who")
        cond = {k: v for k, v in _values(piece.value, "rq") if k is not None}
        if (who, self.type) not in (("caster", "event"), ("ambusher", "ambush")):
            self.not_on_type(piece, f"a {'Caster' if who == 'caster' else 'Ambusher'} requirement")
            return
        setattr(self, who, cond or None)   # "Any Soul": no requirement

    def on_values(self, piece: Piece) -> None:
        if self.type != "armament":
            self.not_on_type(piece, "a bonus to the equipped Soul's values")
            return
        self.values.update(_value(piece.value, "stats") or {})

    def on_note(self, piece: Piece) -> None:
        if self.cur is None:
            self.problem("names_nothing", piece.start, piece.end, why="no effect comes before it")
            return
        self.cur.mandatory = True
        self.cur.end = piece.end

    def on_counts(self, piece: Piece) -> None:
        battles = [d for d in (self.cur.do if self.cur else []) if "battle" in d]
        if not battles:
            self.problem("names_nothing", piece.start, piece.end, why="no battle comes before it")
            return
        battles[-1]["battle"]["counts_as_attack"] = True

    # --- keywords
    def keyword(self, kw: Any, piece: Piece) -> Any:
        if isinstance(kw, dict):
            (name, value), = kw.items()
            if isinstance(value, tuple) and value[0] == "actions":
                eff = _Effect(piece.start, subject="self")
                actions = self.resolve_all(value[1], eff)
                if eff.targets:   # glossary/berserk: its actions choose no targets
                    self.problem("contradiction", piece.start, piece.end,
                                 why=f"{KEYWORDS[name].title} chooses no target; name whom it acts on "
                                     "('the attacker', 'every opposing Soul', 'this Soul')")
                return {name: actions}
            if isinstance(value, tuple) and value[0] == "core":
                core = value[1]
                eff = _Effect(piece.start, subject="self", targets=list(core["targets"]),
                              cost=list(core["cost"]))
                eff.do = self.resolve_all(core["actions"], eff)
                unsaid_empty(self, eff.targets, (piece.start, piece.end))
                out: dict[str, Any] = {}
                if eff.cost:
                    out["cost"] = eff.cost
                if eff.targets:
                    out["targets"] = eff.targets
                out["do"] = numbered(eff.do, len(eff.targets))
                return {name: out}
        return kw

    def card_name(self, written: str, start: int) -> str:
        """A card's name as the library spells it, forgiving case and one typo (a correction noted);
        a name it does not know is kept as written (a scenario may define that card)."""
        known = {n.lower(): n for n in self.names}
        typed = " ".join(written.split())
        if typed.lower() in known:
            return known[typed.lower()]
        close = [n for low, n in known.items() if OSA.distance(low, typed.lower()) <= 1]
        if len(close) == 1:
            self.corrections.append(Correction(start, typed, close[0]))
            return close[0]
        return typed

    # --- objects
    def resolve_all(self, acts: list[Act], eff: _Effect, introduced: int = 0) -> list[dict[str, Any]]:
        return [part for act in acts for part in self.resolve(act, eff)]

    def ref(self, obj: Obj | None, eff: _Effect, subject: str | None = None) -> list[str]:
        """The references an object names (several for "each of two …")."""
        if obj is None:
            return []
        if obj.how == "ref":
            if obj.value == "self" and self.type in ("event", "ambush"):
                self.no_soul(obj.start, obj.end)
            return [self.own_ref(obj.value)]
        if obj.how == "sel":
            first = len(eff.targets)
            eff.targets.extend(obj.value)
            return [f"#{first + i + 1}" for i in range(len(obj.value))]
        if obj.how == "slot":
            return [obj.value]
        if obj.how == "pron" and obj.value == "them":   # "they", "them": every target said so far
            if not eff.targets:
                self.problem("names_nothing", obj.start, obj.end, why="the effect has no target")
            return [f"#{i + 1}" for i in range(len(eff.targets))] or ["target"]
        if obj.how == "pron":
            return [self.pronoun(obj, eff)]
        return [subject or "self"]

    def no_soul(self, start: int, end: int) -> None:
        """An Event or an Ambush is no Soul: its text names the Caster or the Ambusher (10.2, 10.4)."""
        who = "the Caster" if self.type == "event" else "the Ambusher"
        self.problem("names_nothing", start, end,
                     why=f"{'an Event' if self.type == 'event' else 'an Ambush'} is no Soul: say '{who}'")

    def own_ref(self, key: str) -> str:
        if key == "wielder" and self.type == "armament":
            return "self"
        return key

    def pronoun(self, obj: Obj, eff: _Effect) -> str:
        count = len(eff.targets)
        if isinstance(obj.value, int):
            if obj.value > count:
                self.problem("names_nothing", obj.start, obj.end,
                             why=f"the effect has {count} target{'s' if count != 1 else ''}")
                return "target"
            return f"#{obj.value}"
        if count == 1:
            return "#1"
        if count > 1:
            self.problem("ambiguous", obj.start, obj.end,
                         readings=[f"the {_ORDINAL[i]} target" for i in range(min(count, 3))])
            return "#1"
        if obj.value == "it" and eff.subject:
            return eff.subject
        if obj.value == "it" and self.type == "ambush":
            return "ambusher"
        if obj.value == "it" and self.type in ("soul", "armament", "realm"):
            return "self"
        self.problem("names_nothing", obj.start, obj.end, why="the effect has no target")
        return "target"

    def resolve(self, act: Act, eff: _Effect) -> list[dict[str, Any]]:
        return build_action(self, act, eff)

    # --- finishing
    def finish(self, unread: Sequence[TextProblem] = ()) -> list[dict[str, Any]]:
        """The effects; an Event or Ambush without one is a problem, unless some text was unread."""
        out: list[dict[str, Any]] = []
        for eff in self.effects:
            out.extend(self.finish_effect(eff))
        if self.type in ("event", "ambush") and not any(e["kind"] != "static" for e in out) \
                and not self.problems and not unread:
            self.problems.append(TextProblem.of("no_effect", phrase=self.phrase(0, len(self.text)),
                                                offset=0, type=self.type))
        return out

    def finish_effect(self, eff: _Effect) -> list[dict[str, Any]]:
        return finish_effect(self, eff)


_ORDINAL = ("first", "second", "third")


def _static_like(acts: list[Act]) -> bool:
    """Whether a sentence could be a Static Effect: values or keywords given to a card it names (not a
    target), with no duration."""
    def fits(act: Act) -> bool:
        subject = act.args.get("subject") or next(iter(act.args.get("objs") or []), None)
        return (act.verb in STATIC_PARTS and "dur" not in act.args
                and isinstance(subject, Obj) and subject.how == "ref")
    return bool(acts) and all(fits(a) for a in acts)


def _value(children: list[Any], tag: str) -> Any:
    found = _values(children, tag)
    return found[0] if found else None


def _values(children: list[Any], tag: str) -> list[Any]:
    return [c.value for c in children if getattr(c, "tag", None) == tag]
