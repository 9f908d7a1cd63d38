"""Writing keywords and effects (contract §3) as card text in the Codex's phrasing, with the words of
phrases.py, so that `read_card_text(write_card_text(...))` gives the same data back (tested as inverses,
for every library card and for generated effects).

    write_card_text([{"defiance": 10}], [], "soul")        # "Defiance 10."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.data.keywords import CANNOT_ATTACK, FROZEN, KEYWORDS
from judge.engine.driver.card_text.actions import AMOUNT_TO, ONE_REF
from judge.engine.driver.card_text.part_words import (
    CannotWrite,
    article,
    condition,
    plural_selector,
    requirement,
    selector,
    stats_words,
)
from judge.engine.driver.card_text.phrases import (
    COUNT_WORDS,
    DURATIONS,
    ORDINALS,
    PLURAL_REFS,
    REFS,
    STATS,
    TAUNT_RADII,
    TRIGGER_PHRASES,
)


def write_card_text(keywords: Sequence[Any] = (), effects: Sequence[Mapping[str, Any]] = (),
                    card_type: str = "soul", caster: Mapping[str, Any] | None = None,
                    ambusher: Mapping[str, Any] | None = None,
                    values: Mapping[str, int] | None = None) -> str:
    """The card's text: requirement, values, keywords, then effects, one sentence (or a few) each."""
    w = _Writer(card_type)
    out: list[str] = []
    for who, req in (("Caster", caster), ("Ambusher", ambusher)):
        if req:
            out.append(f"{who}: {requirement(req)}.")
    if values and any(values.values()):
        out.append(", ".join(f"{v:+d} {STATS[k]}" for k, v in values.items() if v) + ".")
    for kw in keywords:
        out.append(w.keyword_sentence(kw))
    for i, eff in enumerate(effects):
        # a Static Effect after one that is used says "While … is active," so it reads as its own
        after_used = any(e.get("kind", "activated") != "static" for e in effects[:i])
        out.append(w.effect(eff, own_sentence=after_used))
    return " ".join(s for s in out if s)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def keyword_words(kw: Any) -> str:
    """A keyword as printed, with its value (not Berserk's or Reinforcement's effect)."""
    if isinstance(kw, str):
        name, value = kw, None
    else:
        (name, value), = dict(kw).items()
    record = KEYWORDS[name]
    title = record.title
    if record.value == "radius":
        radius = (value or {}).get("radius", record.default) if isinstance(value, Mapping) else record.default
        return f"{title} ({TAUNT_RADII[radius][0]})"
    if record.value == "amount":
        return f"{title} {value}"
    if record.value == "stats":
        return f"{title}: " + ", ".join(f"{v:+d} {STATS[k]}" for k, v in dict(value or {}).items() if v)
    return title


class _Writer:
    def __init__(self, card_type: str) -> None:
        self.type = card_type

    # --- keywords
    def keyword_sentence(self, kw: Any) -> str:
        name = kw if isinstance(kw, str) else next(iter(kw))
        value = None if isinstance(kw, str) else kw[name]
        record = KEYWORDS[name]
        if record.value == "actions":
            eff = _Context(self, {"do": list(value or ())}, subject=None)
            return f"{record.title}: {_cap(eff.body())}"
        if record.value == "effect":
            eff = _Context(self, dict(value or {}), subject=None)
            return f"{record.title}: {_cap(eff.body())}"
        words = keyword_words(kw)
        return f"The equipped Soul has {words}." if self.type == "armament" else f"{words}."

    # --- effects
    def effect(self, eff: Mapping[str, Any], own_sentence: bool = False) -> str:
        kind = eff.get("kind", "activated")
        if kind == "static":
            return self.static(eff, own_sentence)
        ctx = _Context(self, eff, subject=None)
        lead: list[str] = []
        heads = self.header(eff, kind)
        if heads:
            lead.append(", ".join(heads) + ":")
        cond = eff.get("condition") or {}
        trigger = eff.get("trigger")
        if trigger:
            ctx.subject = "ambusher" if self.type == "ambush" else "self"
            subject = "the Ambusher" if self.type == "ambush" else "this Soul"
            opening, events = TRIGGER_PHRASES[trigger]
            if cond:
                lead.append(f"While {self.own()} {condition(cond)}, {opening.lower()} it {events[0]}:")
            else:
                lead.append(f"{opening if not lead else opening} {subject} {events[0]}:")
        elif cond:
            lead.append(f"While {self.own()} {condition(cond)},")
        body = ctx.body()
        text = " ".join([*lead, body if lead and lead[-1].endswith(",") or trigger else _cap(body)])
        if eff.get("mandatory"):
            text += " (This effect is mandatory.)"
        return text

    def own(self) -> str:
        return "the equipped Soul" if self.type == "armament" else \
            ("this card" if self.type in ("realm", "event") else "this Soul")

    def header(self, eff: Mapping[str, Any], kind: str) -> list[str]:
        heads = []
        if kind == "activated" and self.type not in ("event",):
            heads.append("Activated")
        if kind == "instant":
            heads.append("Instant")
        if eff.get("fast") and not (self.type == "ambush" and kind == "timing"):
            heads.append("Fast")
        if eff.get("limit"):
            heads.extend(p.strip() for p in str(eff["limit"]).split(","))
        return heads

    def static(self, eff: Mapping[str, Any], own_sentence: bool = False) -> str:
        ctx = _Context(self, {"do": []}, subject="self")
        if "negate" in eff:
            body = f"the effects of {ctx.ref(eff['negate'])} are negated"
        else:
            part = {k: eff[k] for k in ("gain", "grant", "to") if k in eff}
            body = ctx.part(part)
        cond = eff.get("condition")
        if cond:
            return f"While {self.own()} {condition(cond)}, {body}."
        if own_sentence:
            return f"While {self.own()} is active, {body}."
        return _cap(body) + "."


class _Context:
    """One effect being written: which targets have been said, and how to name each reference."""

    def __init__(self, writer: _Writer, eff: Mapping[str, Any], subject: str | None) -> None:
        self.w = writer
        self.targets: list[Mapping[str, Any]] = list(eff.get("targets") or [])
        self.do: list[Mapping[str, Any]] = list(eff.get("do") or [])
        self.cost: list[Mapping[str, Any]] = list(eff.get("cost") or [])
        self.subject = subject
        self.said: set[int] = set()
        self.inline = self._can_inline()

    def index(self, ref: Any) -> int | None:
        if not isinstance(ref, str) or not ref.startswith("target"):
            return None
        rest = ref[len("target"):]
        return int(rest) if rest else 1

    def _first_refs(self) -> list[tuple[int, str]]:
        """(target index, where it is first named) in the order of the parts."""
        seen: list[tuple[int, str]] = []
        found: set[int] = set()

        def visit(part: Mapping[str, Any], where: str) -> None:
            for key, value in part.items():
                if key in ("then", "else"):
                    for sub in value:
                        visit(sub, "if")
                    continue
                if key == "if":
                    value = value.get("of")
                if key == "battle":
                    for ref in (value["attacker"], value["target"]):
                        add(ref, "battle")
                    continue
                where_now = "lay" if key == "on" else ("if" if where == "if" or key == "if" else "plain")
                i = self.index(value)
                if where_now == "plain" and i is not None and i <= len(self.targets) \
                        and "spot" in self.targets[i - 1] and not (key == "to" and "teleport" in part):
                    where_now = "spot"
                add(value, where_now)

        def add(ref: Any, where: str) -> None:
            i = self.index(ref)
            if i is not None and i not in found:
                found.add(i)
                seen.append((i, where))

        for part in self.do:
            visit(part, "plain")
        return seen

    def _can_inline(self) -> bool:
        firsts = self._first_refs()
        return (bool(self.targets) and len(firsts) == len(self.targets)
                and [i for i, _ in firsts] == list(range(1, len(self.targets) + 1))
                and all(where == "plain" for _, where in firsts))

    def body(self) -> str:
        """Cost, targets and what it does (the effect's own cost: Reinforcement's too)."""
        cost = self.cost
        out = []
        if cost:
            out.append("Cost: " + " and ".join(self.cost_words(c) for c in cost) + ".")
        lead = ""
        if self.targets and not self.inline:
            lead = "Target " + self.target_list() + ": "
            self.said = set(range(1, len(self.targets) + 1))
        sentences = self.sentences()
        if not sentences:
            sentences = [lead.rstrip(": ") + "."] if lead else []
            lead = ""
        if sentences:
            first = sentences[0]
            opening = first[:1].lower() + first[1:] if lead else (_cap(first) if cost else first)
            sentences[0] = lead + opening
        out.extend(sentences)
        return " ".join(out)

    def target_list(self) -> str:
        first = self.targets[0]
        if len(self.targets) > 1 and all(t == first for t in self.targets):
            plural = plural_selector(first, len(self.targets))
            if plural:
                return _number_word(plural)
        return " and ".join(selector(t) for t in self.targets)

    def cost_words(self, cost: Mapping[str, Any]) -> str:
        if "discard" in cost:
            n = cost["discard"]
            return f"Discard {n} card{'s' if n != 1 else ''}"
        payers = {"self": "This Soul", "caster": "The Caster", "ambusher": "The Ambusher"}
        payer = payers[str(cost.get("by", "self"))]
        return f"{payer} pays {cost['pay_hp']} HP"

    def sentences(self) -> list[str]:
        """The parts, plain ones joined in one sentence, each "if" a sentence of its own."""
        out: list[str] = []
        run: list[str] = []
        counts = False
        i = 0
        while i < len(self.do):
            part = self.do[i]
            group = self.each_of(i)
            if group:
                run.append(group[0])
                i += group[1]
                continue
            if "if" in part:
                if run:
                    out.append(", then ".join(run) + ".")
                    run = []
                out.append(_cap(self.if_words(part)) + ".")
            else:
                run.append(self.part(part))
                if "battle" in part and part["battle"].get("counts_as_attack"):
                    counts = True
                if "grant" in part and _with_effect(part["grant"]):   # what it grants ends the sentence
                    out.append(", then ".join(run) + ".")
                    run = []
            i += 1
        if run:
            out.append(", then ".join(run) + ".")
        out = [out[0]] + [_cap(s) for s in out[1:]] if out else out
        if counts:
            out.append("This battle counts as an attack.")
        return out

    def each_of(self, i: int) -> tuple[str, int] | None:
        """"Deal 10 damage to each of two opposing Souls …": parts alike but for consecutive new targets."""
        if not self.inline:
            return None
        part = self.do[i]
        verb = next(iter(part))
        key = "to" if verb in AMOUNT_TO else (verb if verb in ONE_REF else None)
        if key is None:
            return None
        start = self.index(part[key])
        if start is None or start in self.said:
            return None
        n = 1
        while i + n < len(self.do):
            other = self.do[i + n]
            if {k: v for k, v in other.items() if k != key} != {k: v for k, v in part.items() if k != key} \
                    or self.index(other.get(key)) != start + n \
                    or self.targets[start + n - 1] != self.targets[start - 1]:
                break
            n += 1
        plural = plural_selector(self.targets[start - 1], n) if n > 1 else None
        if not plural:
            return None
        self.said.update(range(start, start + n))
        words = self.part({**part, key: "__each__"}).replace("__each__", "each of " + _number_word(plural))
        return words, n

    def ref(self, ref: Any, destination: bool = False) -> str:
        i = self.index(ref)
        if i is not None:
            if i not in self.said:
                self.said.add(i)
                return selector(self.targets[i - 1], destination)
            if len(self.targets) == 1:
                return "it"
            return f"the {ORDINALS[i - 1]} target"
        if ref == "self":
            if self.subject == "self" and not self.targets:
                return "it"
            return self.w.own()
        if ref in REFS:
            return REFS[ref][0]
        return str(ref)   # a slot name

    def is_plural(self, ref: Any) -> bool:
        return ref in PLURAL_REFS

    def part(self, part: Mapping[str, Any]) -> str:
        """One part of `do:` (parts.PARTS) in words, by its verb."""
        verb = next(k for k in part if k not in ("to", "until", "on", "who"))
        words = getattr(self, f"_w_{verb}", None)
        if words is None:
            raise CannotWrite(f"no words for {verb}")
        text: str = words(part)
        return text

    @staticmethod
    def _until(part: Mapping[str, Any]) -> str:
        return f" {DURATIONS[part['until']][0]}" if part.get("until") else ""

    def _w_damage(self, part: Mapping[str, Any]) -> str:
        return f"deal {part['damage']} damage to {self.ref(part['to'])}"

    def _w_heal(self, part: Mapping[str, Any]) -> str:
        return f"heal {part['heal']} damage from {self.ref(part['to'])}"

    def _w_one_ref(self, part: Mapping[str, Any]) -> str:
        """"capture it", "exile it", "negate that Effect": the verb and the one card it names."""
        verb = next(k for k in part if k in ONE_REF)
        return f"{verb} {self.ref(part[verb])}"

    _w_capture = _w_exile = _w_negate = _w_one_ref

    def _w_return(self, part: Mapping[str, Any]) -> str:
        return f"return {self.ref(part['return'])} to its owner's hand"

    def _w_teleport(self, part: Mapping[str, Any]) -> str:
        return f"teleport {self.ref(part['teleport'])} to {self.ref(part['to'], destination=True)}"

    def _w_gain(self, part: Mapping[str, Any]) -> str:
        subject = self.ref(part["to"])
        word, stats = stats_words(part["gain"])
        return f"{subject} {self.verb(word, part['to'])} {stats}{self._until(part)}"

    def _w_grant(self, part: Mapping[str, Any]) -> str:
        if part.get("until") and _with_effect(part["grant"]):
            raise CannotWrite("a granted keyword with what it does, for a while")   # no words end it
        subject = self.ref(part["to"])
        return f"{subject} {self.grant_words(part['grant'], part['to'])}{self._until(part)}"

    def _w_lay(self, part: Mapping[str, Any]) -> str:
        what = part["lay"]
        spot = self.ref(part["on"])
        where = "any Soul on the targeted Spot" if spot == "it" else f"any Soul on {spot}"
        if isinstance(what, Mapping) and "gain" in what:
            word, stats = stats_words(what["gain"])
            return f"{where} {word} {stats}{self._until(part)}"
        grant = what["grant"] if isinstance(what, Mapping) else what
        if _with_effect(grant):
            raise CannotWrite("a keyword with what it does, laid on a Soul Spot")
        return f"{where} {self.grant_words(grant, None)}{self._until(part)}"

    def _w_draw(self, part: Mapping[str, Any]) -> str:
        n = part["draw"]
        return f"draw {n} card{'s' if n != 1 else ''}"

    def _w_discard(self, part: Mapping[str, Any]) -> str:
        n = part["discard"]
        cards = f"{n} card{'s' if n != 1 else ''}"
        return f"discard {cards}" if part.get("who") == "self" else f"your Opponent discards {cards}"

    def _w_enlist(self, part: Mapping[str, Any]) -> str:
        return "enlist " + _enlist(part["enlist"])

    def _w_battle(self, part: Mapping[str, Any]) -> str:
        b = part["battle"]
        attacker = self.ref(b["attacker"])
        if b["target"] == b["attacker"]:
            return f"{attacker} battles itself"
        return f"{attacker} battles {self.ref(b['target'])}"

    def verb(self, word: str, ref: Any) -> str:
        return word[:-1] if self.is_plural(ref) else word

    def grant_words(self, kw: Any, ref: Any) -> str:
        name = kw if isinstance(kw, str) else next(iter(kw))
        if name == FROZEN.name:
            return f"are {FROZEN.title}" if self.is_plural(ref) else f"is {FROZEN.title}"
        if name == CANNOT_ATTACK.name:
            return "can't attack"
        if _with_effect(kw):   # "gain Reinforcement: Heal 10 damage …", the granted effect's own words
            return f"{self.verb('gains', ref)} {self.w.keyword_sentence(kw).rstrip('.')}"
        return f"{self.verb('gains', ref)} {keyword_words(kw)}"

    def if_words(self, part: Mapping[str, Any]) -> str:
        inside = (*part.get("then", ()), *part.get("else", ()))
        if any("grant" in p and _with_effect(p["grant"]) for p in inside):
            raise CannotWrite("a keyword with what it does, granted inside an 'If'")
        cond = {k: v for k, v in part["if"].items() if k != "of"}
        subject = self.ref(part["if"].get("of", "target"))
        then = ", then ".join(self.part(p) for p in part.get("then") or [])
        text = f"if {subject} {condition(cond)}, {then}"
        otherwise = part.get("else") or []
        if otherwise:
            text += "; otherwise, " + ", then ".join(self.part(p) for p in otherwise)
        return text


def _with_effect(kw: Any) -> bool:
    """Whether a keyword carries what it does (Berserk's actions, Reinforcement's effect)."""
    name = kw if isinstance(kw, str) else next(iter(kw))
    return KEYWORDS[name].value in ("actions", "effect")


def _number_word(text: str) -> str:
    """"2 opposing Souls" -> "two opposing Souls"."""
    count, _, rest = text.partition(" ")
    return f"{COUNT_WORDS.get(int(count), count)} {rest}" if count.isdigit() else text


def _enlist(spec: Mapping[str, Any]) -> str:
    if "name" in spec:
        return f"a card named {spec['name']}"
    kind = str(spec.get("type", "card")).capitalize()
    attribute = f"{str(spec['attribute']).capitalize()} " if "attribute" in spec else ""
    noun = f"{attribute}{kind}"
    rank = f" of rank {spec['rank']}" if "rank" in spec else ""
    return f"{article(noun)} {noun}{rank}"


def sample_phrases() -> list[str]:
    """Phrasings the grammar knows, for "did you mean …?" (from the same tables the writer uses)."""
    out: list[str] = []
    for ps in DURATIONS.values():
        out.extend(ps)
    for ps in REFS.values():
        out.extend(ps)
    for lead, events in TRIGGER_PHRASES.values():
        out.extend(f"{lead} this Soul {e}" for e in events)
        out.extend(f"{lead} the Ambusher {e}" for e in events)
    out.extend(keyword_words(n) if record.value in ("none", "radius") else record.title
               for n, record in KEYWORDS.items())
    out.extend(("Activated", "Fast", "Instant", "1/Turn", "2/Game", "Cost: Discard 1 card",
                "Cost: This Soul pays 10 HP", "Caster: Any Dark Soul", "Ambusher: Any Dark Soul",
                "deal 10 damage to an opposing Soul in the Front Line",
                "heal 10 damage from one of your Souls",
                "return it to its owner's hand", "draw 1 card", "your Opponent discards 1 card",
                "enlist a Soul", "negate that Effect", "is Frozen", "can't attack", "battles itself",
                "This battle counts as an attack", "(This effect is mandatory.)",
                "Target an opposing Soul in the Front Line", "Target any opposing Soul Spot",
                "any Soul on the targeted Spot", "While this Soul is damaged",
                "While this Soul stands in the Second Line or lower", "If it is damaged",
                "one of your Souls", "any Soul", "any opposing Soul", "a captured Soul", "one of your Realms",
                "in the Front Line", "in any line",
                "each of two opposing Souls in the Front Line", "Your other Souls gain",
                "The equipped Soul has"))
    for sel in ({"soul": "opposing", "lines": "front"}, {"spot": "opposing", "naming": "front"},
                {"realm": "opposing"}, {"realm": "any"}):
        out.append(selector(sel))
    return out
