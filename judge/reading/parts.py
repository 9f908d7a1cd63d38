"""What one sentence of a dispute says, as records: the grammar's tree made into facts, actions,
questions and settings (each with the words it was read from), in the order they were said."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer, Tree, v_args

from judge.reading.lexicon import VERB_WORDS


@dataclass
class Mention:
    """A card, a slot or "it" as a sentence names it."""

    name: str | None = None  # a card name (None: named by slot or by "it")
    player: str | None = None  # "A", "B", "speaker", "other" or None (not said)
    slot: str | None = None  # a slot name when said
    slot_player: str | None = None
    pronoun: bool = False
    words: str = ""
    relative: tuple[str, Mention] | None = None  # ("behind" | "in_front", the card it is said against)


@dataclass
class Part:
    """One part of a sentence: kind is "fact", "action", "ask", "setting" or "speaker"."""

    kind: str
    what: str  # e.g. "at_slot", "attack", "legal", "turn_of"
    data: dict[str, Any] = field(default_factory=dict)
    words: str = ""


def _text(items: list[Any]) -> str:
    out = []
    for it in items:
        if isinstance(it, Token):
            out.append(str(it))
        elif isinstance(it, Mention):
            out.append(it.words)
    return " ".join(o for o in out if o)


def _toks(items: list[Any], kind: str) -> list[Token]:
    return [t for t in items if isinstance(t, Token) and t.type == kind]


def _on(soul: Mention, where: Mention) -> Mention:
    """A card and the slot said after it ("Harold on B's C3")."""
    soul.slot, soul.slot_player = where.slot, where.slot_player or soul.player
    soul.player = soul.player or where.slot_player
    soul.relative = where.relative
    return soul


def _verb_of(token_type: str) -> str | None:
    low = token_type.lower()
    return low if low in VERB_WORDS else None


@v_args(meta=True)
class ToParts(Transformer[Token, list[Part]]):
    """The grammar's tree (dispute.lark) as a list of Parts, each with the words it was read from."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def span(self, meta: Any, items: list[Any]) -> str:
        if getattr(meta, "empty", True):
            return _text(items)
        return self.text[meta.start_pos : meta.end_pos]

    # --- references
    def owner(self, meta: Any, items: list[Any]) -> str:
        return str(_toks(items, "PLAYER")[0].value)

    def place(self, meta: Any, items: list[Any]) -> Mention:
        return next(i for i in items if isinstance(i, Mention))

    def slotref(self, meta: Any, items: list[Any]) -> Mention:
        player = next((i for i in items if isinstance(i, str) and not isinstance(i, Token)), None)
        slot = _toks(items, "SLOT")[0]
        return Mention(
            slot=str(slot.value),
            slot_player=player,
            player=player,
            words=f"{player + chr(39) + 's ' if player else ''}{slot.value}",
        )

    def card(self, meta: Any, items: list[Any]) -> Mention:
        player = next((i for i in items if isinstance(i, str) and not isinstance(i, Token)), None)
        name = str(_toks(items, "CARD")[0].value)
        place = next((i for i in items if isinstance(i, Mention)), None)
        m = Mention(name=name, player=player, words=self.span(meta, items))
        if place is not None:
            m.slot, m.slot_player = place.slot, place.slot_player
            m.player = m.player or place.slot_player
        return m

    def card_in_parens(self, meta: Any, items: list[Any]) -> Mention:
        player = next((i for i in items if isinstance(i, str) and not isinstance(i, Token)), None)
        return Mention(
            name=str(_toks(items, "CARD")[0].value),
            player=player,
            slot=str(_toks(items, "SLOT")[0]),
            slot_player=player,
            words=str(_toks(items, "CARD")[0].value),
        )

    def by_card(self, meta: Any, items: list[Any]) -> Mention:
        return items[0]

    def by_slot(self, meta: Any, items: list[Any]) -> Mention:
        player = items[0]
        slot = str(_toks(items, "SLOT")[0].value)
        return Mention(slot=slot, slot_player=player, player=player, words=self.span(meta, items))

    def actor(self, meta: Any, items: list[Any]) -> Mention:
        return items[0]

    def actor_on(self, meta: Any, items: list[Any]) -> Mention:
        """"A's Grey Knight on C3 attacks …": the one who acts, and where it stands."""
        soul, where = [i for i in items if isinstance(i, Mention)]
        return _on(soul, where)

    def by_it(self, meta: Any, items: list[Any]) -> Mention:
        return Mention(pronoun=True, words=str(items[0]))

    def cards(self, meta: Any, items: list[Any]) -> list[str]:
        return [str(t.value) for t in _toks(items, "CARD")]

    def target(self, meta: Any, items: list[Any]) -> Mention:
        mentions = [i for i in items if isinstance(i, Mention)]
        if len(mentions) == 2:
            return _on(mentions[0], mentions[1])
        if len(items) == 1:
            return items[0]
        return self.by_slot(meta, items)

    def aim(self, meta: Any, items: list[Any]) -> list[Mention]:
        return [i for i in items if isinstance(i, Mention)]

    def caster(self, meta: Any, items: list[Any]) -> Mention:
        return next(i for i in items if isinstance(i, Mention))

    def onslot(self, meta: Any, items: list[Any]) -> Mention:
        return next(i for i in items if isinstance(i, Mention))

    def face(self, meta: Any, items: list[Any]) -> None:
        return None

    def phase(self, meta: Any, items: list[Any]) -> str:
        return str(items[0].type).lower()

    def joiner(self, meta: Any, items: list[Any]) -> None:
        return None

    # --- details of a Soul on the board
    def damage(self, meta: Any, items: list[Any]) -> dict[str, Any]:
        return {"damage": int(_toks(items, "NUM")[0].value)}

    def armed(self, meta: Any, items: list[Any]) -> dict[str, Any]:
        return {"armament": str(_toks(items, "CARD")[0].value)}

    def captured(self, meta: Any, items: list[Any]) -> dict[str, Any]:
        return {"captured": True}

    def fresh(self, meta: Any, items: list[Any]) -> dict[str, Any]:
        return {"recruited": "this_turn"}

    def paren(self, meta: Any, items: list[Any]) -> dict[str, Any]:
        return next(i for i in items if isinstance(i, dict))

    # --- facts
    def _fact(self, what: str, meta: Any, items: list[Any], **data: Any) -> Part:
        details: dict[str, Any] = {}
        for i in items:
            if isinstance(i, dict):
                details.update(i)
        return Part("fact", what, {**data, **details}, self.span(meta, items))

    def at_slot(self, meta: Any, items: list[Any]) -> Part:
        soul, where = [i for i in items if isinstance(i, Mention)][:2]
        return self._fact("at_slot", meta, items, soul=soul, where=where)

    def details(self, meta: Any, items: list[Any]) -> Part:
        return self._fact("details", meta, items, soul=items[0])

    def has_at(self, meta: Any, items: list[Any]) -> Part:
        where = next(i for i in items if isinstance(i, Mention))
        name = str(_toks(items, "CARD")[0].value)
        return self._fact(
            "at_slot", meta, items, soul=Mention(name=name, player=items[0], words=name), where=where
        )

    def in_hand(self, meta: Any, items: list[Any]) -> Part:
        return Part(
            "fact",
            "hand",
            {"player": items[0], "cards": next(i for i in items if isinstance(i, list))},
            self.span(meta, items),
        )

    def in_hand_of(self, meta: Any, items: list[Any]) -> Part:
        player = next(i for i in items if isinstance(i, str) and not isinstance(i, Token))
        return Part("fact", "hand", {"player": player, "cards": items[0]}, self.span(meta, items))

    def hand_list(self, meta: Any, items: list[Any]) -> Part:
        return Part(
            "fact",
            "hand",
            {"player": items[0], "cards": next(i for i in items if isinstance(i, list))},
            self.span(meta, items),
        )

    def set_at(self, meta: Any, items: list[Any]) -> Part:
        where = next(i for i in items if isinstance(i, Mention))
        return Part(
            "fact",
            "set",
            {"card": str(_toks(items, "CARD")[0].value), "where": where},
            self.span(meta, items),
        )

    def has_set_at(self, meta: Any, items: list[Any]) -> Part:
        where = next(i for i in items if isinstance(i, Mention))
        where.player = where.player or items[0]
        where.slot_player = where.slot_player or items[0]
        return Part(
            "fact",
            "set",
            {"card": str(_toks(items, "CARD")[0].value), "where": where, "player": items[0]},
            self.span(meta, items),
        )

    def set_on(self, meta: Any, items: list[Any]) -> Part:
        soul = next(i for i in items if isinstance(i, Mention))
        return Part(
            "fact", "set", {"card": str(_toks(items, "CARD")[0].value), "on": soul}, self.span(meta, items)
        )

    # --- actions
    def _act(self, verb: str, meta: Any, items: list[Any], **data: Any) -> Part:
        owner = items[0] if items and isinstance(items[0], str) and not isinstance(items[0], Token) else None
        return Part("action", verb, {"by": owner, **data}, self.span(meta, items))

    def attack(self, meta: Any, items: list[Any]) -> Part:
        souls = [i for i in items if isinstance(i, Mention)]
        if len(souls) == 1:  # "owner SLOT" as the target
            player = next(i for i in items if isinstance(i, str) and not isinstance(i, Token))
            souls.append(Mention(slot=str(_toks(items, "SLOT")[0].value), slot_player=player, player=player))
        elif len(souls) == 3:  # "… attacks Harold on C3": the target and where it stands
            _on(souls[1], souls[2])
        return Part("action", "attack", {"attacker": souls[0], "target": souls[1]}, self.span(meta, items))

    def cast_by(self, meta: Any, items: list[Any]) -> Part:
        caster = items[0]
        targets = next((i for i in items if isinstance(i, list)), [])
        return Part(
            "action",
            "cast",
            {"card": str(_toks(items, "CARD")[0].value), "caster": caster, "targets": targets},
            self.span(meta, items),
        )

    def cast(self, meta: Any, items: list[Any]) -> Part:
        mentions = [i for i in items if isinstance(i, Mention)]
        return self._act(
            "cast",
            meta,
            items,
            card=str(_toks(items, "CARD")[0].value),
            caster=mentions[0] if mentions else None,
            targets=next((i for i in items if isinstance(i, list)), []),
        )

    def spring(self, meta: Any, items: list[Any]) -> Part:
        at = next((i for i in items if isinstance(i, Mention)), None)
        return self._act(
            "spring",
            meta,
            items,
            card=str(_toks(items, "CARD")[0].value),
            at=at,
            targets=next((i for i in items if isinstance(i, list)), []),
        )

    def answer(self, meta: Any, items: list[Any]) -> Part:
        part = self.spring(meta, items)
        part.what = "answer"  # by the card's type: an Ambush is sprung, an Event cast, an effect used
        return part

    def recruit(self, meta: Any, items: list[Any]) -> Part:
        return self._act(
            "recruit",
            meta,
            items,
            card=str(_toks(items, "CARD")[0].value),
            to=next((i for i in items if isinstance(i, Mention)), None),
        )

    def equip(self, meta: Any, items: list[Any]) -> Part:
        return self._act(
            "equip",
            meta,
            items,
            card=str(_toks(items, "CARD")[0].value),
            to=next(i for i in items if isinstance(i, Mention)),
        )

    def equip_to(self, meta: Any, items: list[Any]) -> Part:
        cards = _toks(items, "CARD")
        return self._act(
            "equip",
            meta,
            items,
            card=str(cards[-1].value),
            to=next(i for i in items if isinstance(i, Mention)),
        )

    def invoke(self, meta: Any, items: list[Any]) -> Part:
        return self._act(
            "invoke",
            meta,
            items,
            card=str(_toks(items, "CARD")[0].value),
            to=next((i for i in items if isinstance(i, Mention)), None),
        )

    def set(self, meta: Any, items: list[Any]) -> Part:
        return self._act(
            "set",
            meta,
            items,
            card=str(_toks(items, "CARD")[0].value),
            at=next(i for i in items if isinstance(i, Mention)),
        )

    def activate(self, meta: Any, items: list[Any]) -> Part:
        return Part(
            "action",
            "activate",
            {"card": items[0], "targets": next((i for i in items if isinstance(i, list)), [])},
            self.span(meta, items),
        )

    def activate_card(self, meta: Any, items: list[Any]) -> Part:
        name = str(_toks(items, "CARD")[0].value)
        return self._act(
            "activate",
            meta,
            items,
            card=Mention(name=name, player=items[0], words=name),
            targets=next((i for i in items if isinstance(i, list)), []),
        )

    def use(self, meta: Any, items: list[Any]) -> Part:
        kw = _toks(items, "KEYWORD")
        return self._act(
            "use",
            meta,
            items,
            card=next(i for i in items if isinstance(i, Mention)),
            effect=str(kw[0].value) if kw else None,
            targets=next((i for i in items if isinstance(i, list)), []),
        )

    def end(self, meta: Any, items: list[Any]) -> Part:
        whole_turn = bool(_toks(items, "TURN"))
        return self._act("end_phase", meta, items, turn=whole_turn)

    def pass_(self, meta: Any, items: list[Any]) -> Part:
        return self._act("pass", meta, items)

    # --- questions
    def _ask(self, what: str, meta: Any, items: list[Any], **data: Any) -> Part:
        return Part("ask", what, data, self.span(meta, items))

    def q_legal_last(self, meta: Any, items: list[Any]) -> Part:
        return self._ask("legal", meta, items)

    def q_legal_nth(self, meta: Any, items: list[Any]) -> Part:
        nth = int(_toks(items, "ORD")[0].value)
        verb = next((_verb_of(t.type) for t in items if isinstance(t, Token) and _verb_of(t.type)), None)
        return self._ask("legal", meta, items, nth=nth, verb=verb)

    def q_legal_verb(self, meta: Any, items: list[Any]) -> Part:
        """ "Is the attack legal?": the last action of that verb said before."""
        verb = next((_verb_of(t.type) for t in items if isinstance(t, Token) and _verb_of(t.type)), None)
        return self._ask("legal", meta, items, nth=-1, verb=verb)

    def q_legal_action(self, meta: Any, items: list[Any]) -> Part:
        return self._ask("legal", meta, items, action=next(i for i in items if isinstance(i, Part)))

    def q_can(self, meta: Any, items: list[Any]) -> Part:
        return self._ask("legal", meta, items, action=next(i for i in items if isinstance(i, Part)))

    def q_can_attack(self, meta: Any, items: list[Any]) -> Part:
        return self._ask("can_attack", meta, items, soul=next(i for i in items if isinstance(i, Mention)))

    def q_resolves(self, meta: Any, items: list[Any]) -> Part:
        cards = _toks(items, "CARD")
        return self._ask("resolves", meta, items, card=str(cards[0].value) if cards else None)

    def q_resolves_of(self, meta: Any, items: list[Any]) -> Part:
        soul = next(i for i in items if isinstance(i, Mention))
        return self._ask("resolves", meta, items, of=soul, attack=bool(_toks(items, "ATTACK")))

    def q_happens(self, meta: Any, items: list[Any]) -> Part:
        return self._ask("happens_to", meta, items, soul=next(i for i in items if isinstance(i, Mention)))

    def q_happens_default(self, meta: Any, items: list[Any]) -> Part:
        return self._ask("default", meta, items)

    def q_value(self, meta: Any, items: list[Any]) -> Part:
        return self._ask(
            "value",
            meta,
            items,
            soul=next(i for i in items if isinstance(i, Mention)),
            of=str(_toks(items, "STAT")[0].value),
        )

    q_value_of = q_value

    def q_captured(self, meta: Any, items: list[Any]) -> Part:
        return self._ask(
            "value", meta, items, soul=next(i for i in items if isinstance(i, Mention)), of="captured"
        )

    def q_winner(self, meta: Any, items: list[Any]) -> Part:
        return self._ask("winner", meta, items)

    # --- settings
    def turn_of(self, meta: Any, items: list[Any]) -> Part:
        return Part(
            "setting",
            "turn_of",
            {"player": next(i for i in items if isinstance(i, str) and not isinstance(i, Token))},
            self.span(meta, items),
        )

    def phase_of(self, meta: Any, items: list[Any]) -> Part:
        player = next(
            (
                i
                for i in items
                if isinstance(i, str)
                and not isinstance(i, Token)
                and i not in ("preparation", "combat", "emplacement")
            ),
            None,
        )
        phase = next(i for i in items if isinstance(i, str) and i in ("preparation", "combat", "emplacement"))
        return Part("setting", "phase_of", {"player": player, "phase": phase}, self.span(meta, items))

    def turn_nth(self, meta: Any, items: list[Any]) -> Part:
        return Part(
            "setting",
            "turn_nth",
            {
                "player": items[0]
                if isinstance(items[0], str) and not isinstance(items[0], Token)
                else next(i for i in items if isinstance(i, str) and not isinstance(i, Token)),
                "nth": int(_toks(items, "ORD")[0].value),
            },
            self.span(meta, items),
        )

    def turn_number(self, meta: Any, items: list[Any]) -> Part:
        return Part(
            "setting", "turn_number", {"turn": int(_toks(items, "NUM")[0].value)}, self.span(meta, items)
        )

    def during_attack(self, meta: Any, items: list[Any]) -> Part:
        return Part("setting", "during_attack", {}, self.span(meta, items))

    def speaker(self, meta: Any, items: list[Any]) -> Part:
        players = [str(t.value) for t in _toks(items, "PLAYER")]
        return Part("speaker", "speaker", {"player": players[-1]}, self.span(meta, items))

    def speaker_as(self, meta: Any, items: list[Any]) -> Part:
        return Part(
            "speaker", "speaker", {"player": str(_toks(items, "PLAYER")[0].value)}, self.span(meta, items)
        )

    def start(self, meta: Any, items: list[Any]) -> list[Part]:
        out: list[Part] = []
        for i in items:
            if isinstance(i, Part):
                out.append(i)
            elif isinstance(i, list):
                out += [x for x in i if isinstance(x, Part)]
        return out

    def with_setting(self, meta: Any, items: list[Any]) -> list[Part]:
        """ "… attacks Harold during A's Combat Phase": the setting holds from the start."""
        action, setting = [i for i in items if isinstance(i, Part)]
        return [setting, action]

    def behind(self, meta: Any, items: list[Any]) -> Mention:
        return Mention(
            relative=("behind", next(i for i in items if isinstance(i, Mention))),
            words=self.span(meta, items),
        )

    def in_front(self, meta: Any, items: list[Any]) -> Mention:
        return Mention(
            relative=("in_front", next(i for i in items if isinstance(i, Mention))),
            words=self.span(meta, items),
        )

    def when_(self, meta: Any, items: list[Any]) -> list[Part]:
        """ "B springs Shadow Trap when Grey Knight attacks": what follows "when" happens first."""
        first, then = [i for i in items if isinstance(i, Part)]
        return [then, first]

    def again(self, meta: Any, items: list[Any]) -> Part:
        return next(i for i in items if isinstance(i, Part))


def is_tree(x: Any) -> bool:
    return isinstance(x, Tree)
