"""Questions and answers (contract §7): **the question table**, one `Question` row per kind of `ask:`, as
the verb table is for actions. A row says how its value is read (`read`, problems at `ask.N`), the question
in words (`words`), what play must follow for it (`follows`), how it is answered (`answer`, a method of
`reading.Reader` or a function of its own taking the reader), and which of its questions the desk offers
for a position and queue (`offer`). Everything else reads the table: the scenario loader, the ruling's
answers, the desk's "What do you want to know?", the OpenAPI schema (`schema`), the docs' check.

    asks = parse(data.get("ask"), actions, state, bad)    # problems at ask.N (exit 2, HTTP 400)
    follow(g, asks or likely_asks(actions, state))        # before play: what the questions follow
    answers(g, asks, actions, start)                      # after play: [{ask, question, verdict, …}]

Adding a kind: its row here (with its `read`, `words`, `answer`, `offer` and `schema` beside it when no
existing one fits), its tests, and its line in docs/scenario-format.md, "Questions and answers (§7)".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judge.engine.data.errors import Violation
from judge.engine.data.input_checks import show
from judge.engine.driver import asking, reading, verbs
from judge.engine.driver.asking import (
    FLAGS,
    PILES,
    VALUES,
    Ask,
    Bad,
    describe,
    named,
    used_label,
    uses_effect,
)
from judge.engine.driver.reading import Reader
from judge.engine.driver.values import Answer, Said, sentence
from judge.engine.position.action import Action
from judge.engine.position.state import SlotRef, State

if TYPE_CHECKING:
    from judge.engine.play.game import Game

__all__ = ["QUESTIONS", "Ask", "Question", "answers", "candidates", "describe", "follow", "likely_ask",
           "likely_asks", "parse", "question", "used_label", "uses_effect"]

Read = Callable[[str, Any, str, Sequence[Action], State, Bad], "Ask | None"]
Words = Callable[[Ask, Sequence[Action], State], str]
Answering = Callable[[Reader, Ask], Said]
Offer = Callable[[Sequence[Action], State, Sequence[SlotRef]], list[Ask]]


@dataclass(frozen=True)
class Question:
    """One kind of question: its key in `ask:`, how its value is read, its words, what play follows for
    it, how it is answered, what the desk offers of it (for the cards the queue names), its JSON schema."""

    kind: str
    read: Read
    words: Words
    answer: Answering
    schema: Mapping[str, Any]
    follows: Callable[[Game, Ask], None] | None = None
    offer: Offer | None = None
    offered: bool = True     # the desk offers it (its `offer`, or per queued action for legal/resolves)


# --- the words of each kind

def _legal_words(ask: Ask, actions: Sequence[Action], state: State) -> str:
    action = actions[ask.action or 0]
    return f"Is action {ask.action} ({describe(action)}) legal where it stands in the queue?"


def _resolves_words(ask: Ask, actions: Sequence[Action], state: State) -> str:
    return f"Does {used_label(ask, actions, state)} resolve?"


def _happens_words(ask: Ask, actions: Sequence[Action], state: State) -> str:
    return f"What happens to {named(state, ask.slot)}?" if ask.slot is not None else ""


def _value_words(ask: Ask, actions: Sequence[Action], state: State) -> str:
    if ask.player is not None:
        return f"How many cards are in {ask.player}'s {PILES[ask.of or 'hand'][0]} after the queue?"
    if ask.slot is None:
        return ""
    if ask.of in FLAGS:   # a yes-or-no value: "Is Mending Spring (B:realm1) shattered after the queue?"
        return f"Is {named(state, ask.slot)} {VALUES[ask.of]} after the queue?"
    return f"What is the {VALUES[ask.of or 'atk']} of {named(state, ask.slot)} after the queue?"


def _winner_words(ask: Ask, actions: Sequence[Action], state: State) -> str:
    return "Does the duel end, and who wins?"


def _can_attack_words(ask: Ask, actions: Sequence[Action], state: State) -> str:
    return f"May {named(state, ask.slot)} attack now, after the queue?" if ask.slot is not None else ""


# --- can_attack: may the Soul on a slot attack now (after the queue)? The attack checks of the verb table.

def _can_attack(reader: Reader, ask: Ask) -> Said:
    """Yes, with the Souls it may attack, when the verb table offers an attack from the slot in the position
    the queue leaves; else no, with what forbids it (the attack's own check against an opposing Soul: its
    line, its turn and phase, an attack already made, a keyword that forbids it, Taunt), its rules, and the
    last step that acted on the Soul."""
    g, ref = reader.g, ask.slot
    soul = g.state.active_soul_at(ref) if ref is not None else None
    if ref is None or soul is None:
        return "no", f"No: no active Soul stands on {ref} after the queue, so nothing there can attack.", \
            None, ("glossary/attack",)
    last = reader.last_about({str(ref)})
    n = last.n if last is not None else None
    attacks = [a for a in verbs.legal_actions(g.state)
               if a.verb == "attack" and a.ref("value", g.state) == ref]
    if attacks:
        targets = ", ".join(dict.fromkeys(named(g.state, t) for a in attacks
                                          if (t := a.ref("target", g.state)) is not None))
        return "yes", f"Yes: {soul.name} ({ref}) may attack now; it may attack {targets}.", n, \
            ("glossary/attack", "glossary/attack-target")
    violations = _attack_refusal(g, ref)
    why = "; ".join(v.text for v in violations) or "no Soul or Realm of the opponent can be its Attack Target"
    rules = tuple(dict.fromkeys(r for v in violations for r in v.rules)) or ("glossary/attack-target",)
    return "no", f"No: {sentence(why)}", n, rules


def _attack_refusal(g: Game, ref: SlotRef) -> list[Violation]:
    """Why an attack from `ref` is refused: the attack checked against each opposing card that could be its
    target, the refusal shared by all of them (what is about the attacker itself) or else the first."""
    other = "B" if ref.player == "A" else "A"
    tried = []
    for target in g.state.soul_refs(other) + g.state.realm_refs(other):
        action = Action(index=0, verb="attack", value=ref.slot, by=ref.player, args={"target": str(target)})
        tried.append(verbs.verify(g.state, action))
    if not tried:
        return []
    shared = [v for v in tried[0] if all(v in t for t in tried[1:])]
    return shared or tried[0]


# --- where: the place a card is in after the queue, from the step records of what moved where

def _where_words(ask: Ask, actions: Sequence[Action], state: State) -> str:
    return f"Where is {ask.card} after the queue?"


def _where(reader: Reader, ask: Ask) -> Said:
    """The card's place at the start, then each step's record of a move of a card of that name from where
    it was (its `changes`: `{card, from, to}`); the last move decides. A Soul captured stays on its slot; an
    Event or Ambush played from a pile leaves it for the event slot or face up without a record of its own,
    so its next move is read from there."""
    at = asking.Place.parse(asking.start_places(reader.start, ask.card or "")[0])
    moved: int | None = None
    for step in reader.steps:
        for c in step.changes:
            if c.get("card") != ask.card:
                continue
            came_from = asking.Place.parse(str(c.get("from", "")))
            played = at.pile is not None and came_from.text in ("event slot", "")
            if at.left_from(came_from) or played:
                at, moved = asking.Place.parse(str(c.get("to"))), step.n
    place, where = at.text, at.words
    head = f"{place} ({where})" if where != place else place   # the verdict first, then in words
    down = next((s for s in reversed(reader.steps) for c in s.changes
                 if c.get("slot") == place and (c.get("captured") == [False, True] or
                                                c.get("shattered") == [False, True])), None)
    if moved is None and down is not None:   # captured or shattered, it stays on its slot face down
        text = f"{head}: {ask.card} stays on its slot, face down (step {down.n}). {down.said}"
        return place, text, down.n, down.rules
    if moved is None:
        return place, f"{head}: {ask.card} is still where it was at the start; no step moves it.", None, \
            ("10.1.3",)
    said = reader.step(moved)
    more = f" {said.said}" if said is not None else ""
    return place, f"{head}: {ask.card} ends the queue there (step {moved}).{more}", moved, reader.rules(moved)


# --- value of a player's pile: how many cards, which, and the step that last changed it

def _follow_value(g: Game, ask: Ask) -> None:
    if ask.player is None:
        reading.follow_slot(g, ask)
        return
    ps = g.state.players[ask.player]
    _, named_field, hidden_field = PILES[ask.of or "hand"]

    def look() -> tuple[int, tuple[str, ...]]:
        cards = tuple(getattr(ps, named_field))
        return len(cards) + (getattr(ps, hidden_field) if hidden_field else 0), cards
    g.ledger.follow(ask.key, look)


def _value(reader: Reader, ask: Ask) -> Said:
    """A value of a slot (the reader's), or the count of a player's pile with the cards in it named: the
    step that last changed it decides; unchanged, the position as given states it."""
    if ask.player is None:
        return reader.value(ask)
    history = reader.g.ledger.seen.get(ask.key, [])
    pile = f"{ask.player}'s {PILES[ask.of or 'hand'][0]}"
    if not history:
        return 0, f"0: after the queue, {pile} holds no card.", None, PILE_RULES[ask.of or "hand"]
    count, cards = history[-1][1]
    unnamed = count - len(cards)
    listed = [*cards, *([f"{unnamed} unnamed card{'s' if unnamed != 1 else ''}"] if unnamed else [])]
    held = f"{pile} holds {count} card{'s' if count != 1 else ''}"
    held += f": {', '.join(listed)}" if listed else ""
    changed = [n for (_, before), (n, after) in zip(history, history[1:], strict=False) if before != after]
    if not changed:
        return count, f"{count}: after the queue, {held}; no step changes it.", None, \
            PILE_RULES[ask.of or "hand"]
    n = changed[-1]
    step = reader.step(n)
    said = f" {step.said}" if step is not None else ""
    return count, f"{count}: after the queue, {held}; step {n} last changed it.{said}", n, reader.rules(n)


# what moves cards into or out of a pile, for an answer no step decides (the position as given holds it)
PILE_RULES = {"hand": ("glossary/draw", "glossary/discard"), "deck": ("glossary/draw", "glossary/decked-out"),
              "elysium": ("glossary/elysium",), "exiled": ("glossary/exile",)}


# --- the offers of each kind, for the cards the queue names

def _offer_happens(actions: Sequence[Action], state: State, cards: Sequence[SlotRef]) -> list[Ask]:
    return [Ask("happens_to", slot=ref) for ref in cards]


def _offer_values(actions: Sequence[Action], state: State, cards: Sequence[SlotRef]) -> list[Ask]:
    """Their HP, ATK and DEF (a Realm: whether it is shattered); and, when the queue uses an Event or an
    effect (which may draw or discard), the hands of both players."""
    out = [Ask("value", slot=ref, of=of) for ref in cards
           for of in (("shattered",) if ref.is_realm else ("hp", "atk", "def"))]
    if any(uses_effect(a) for a in actions):
        out += [Ask("value", player=p, of="hand") for p in ("A", "B")]
    return out


def _offer_where(actions: Sequence[Action], state: State, cards: Sequence[SlotRef]) -> list[Ask]:
    """Where the cards the queue names end up, and their Armaments (each name once, where one card has it)."""
    names: list[str] = []
    for ref in cards:
        holder = state.holder_at(ref)
        soul = state.soul_at(ref) if not ref.is_realm else None
        if holder is not None:
            names.append(holder.name)
        if soul is not None and soul.armament is not None:
            names.append(soul.armament.name)
    return [Ask("where", card=n) for n in dict.fromkeys(names) if len(asking.start_places(state, n)) == 1]


def _offer_winner(actions: Sequence[Action], state: State, cards: Sequence[SlotRef]) -> list[Ask]:
    return [Ask("winner")]


def _offer_can_attack(actions: Sequence[Action], state: State, cards: Sequence[SlotRef]) -> list[Ask]:
    """The Souls the queue names, each once (a Realm can't attack)."""
    return [Ask("can_attack", slot=ref) for ref in cards if state.soul_at(ref) is not None]


SLOT = {"type": "string", "example": "B:C3"}
INDEX = {"type": "integer", "minimum": 0}

QUESTIONS: dict[str, Question] = {q.kind: q for q in (
    Question("legal", asking.read_index, _legal_words, Reader.legal, INDEX),
    Question("resolves", asking.read_resolves, _resolves_words, Reader.resolves,
             {"oneOf": [INDEX, {"type": "string"}]}),
    Question("happens_to", asking.read_card_slot, _happens_words, Reader.happens_to, SLOT,
             follows=reading.follow_card, offer=_offer_happens),
    Question("value", asking.read_value, _value_words, _value,
             {"oneOf": [{"type": "object", "required": ["slot", "of"], "additionalProperties": False,
                         "properties": {"slot": {"type": "string"}, "of": {"enum": list(VALUES)}}},
                        {"type": "object", "required": ["player", "of"], "additionalProperties": False,
                         "properties": {"player": {"enum": ["A", "B"]}, "of": {"enum": list(PILES)}}}]},
             follows=_follow_value, offer=_offer_values),
    Question("can_attack", asking.read_card_slot, _can_attack_words, _can_attack, SLOT,
             offer=_offer_can_attack),
    Question("winner", asking.read_true, _winner_words, Reader.winner, {"const": True},
             offer=_offer_winner),
    Question("where", asking.read_card_at_start, _where_words, _where,
             {"type": "string", "example": "Iron Blade"}, offer=_offer_where),
)}
KINDS = tuple(QUESTIONS)


# --- reading ask: ----------------------------------------------------------------------------

def parse(value: Any, actions: Sequence[Action], state: State, bad: Bad) -> tuple[Ask, ...]:
    """`ask:` → Ask records; each question that can't be answered as asked is a problem at `ask.N`."""
    if value is None:
        return ()
    if not isinstance(value, list):
        bad("ask", "expected a list of questions, e.g. [{legal: 0}, {happens_to: \"B:C3\"}]")
        return ()
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, Mapping) or len(item) != 1 or next(iter(item)) not in QUESTIONS:
            bad(f"ask.{i}", f"a question is a one-key mapping, one of {', '.join(KINDS)}; got {show(item)}")
            continue
        kind, given = next(iter(item.items()))
        ask = QUESTIONS[kind].read(kind, given, f"ask.{i}.{kind}", actions, state, bad)
        if ask is not None:
            out.append(ask)
    return tuple(out)


def question(ask: Ask, actions: Sequence[Action], state: State) -> str:
    """The question as a judge would ask it, with the names of the position as given."""
    return QUESTIONS[ask.kind].words(ask, actions, state)


def candidates(actions: Sequence[Action], state: State) -> list[Ask]:
    """The questions this position and queue allow, the likeliest first (the desk offers them): for each
    queued action, the last first, whether it is legal and whether what it used resolves; then each kind's
    offer for the cards the queue names (targets first): what happens to them, their values, whether they
    may attack; who wins."""
    out: list[Ask] = []
    cards: list[SlotRef] = []
    for action in reversed(actions):
        if uses_effect(action):
            out.append(Ask("resolves", action=action.index))
        out.append(Ask("legal", action=action.index))
        for ref in [*action.target_refs(state), action.ref("target", state), action.ref("value", state),
                    action.ref("card", state), action.ref("caster", state), action.ref("at", state)]:
            if ref is not None and ref not in cards and state.holder_at(ref) is not None:
                cards.append(ref)
    likely = likely_ask(actions, state, None)
    if likely is not None and likely in out:
        out.remove(likely)
        out.insert(0, likely)
    for row in QUESTIONS.values():
        if row.offered and row.offer is not None:
            out += row.offer(actions, state, cards)
    return out


def likely_asks(actions: Sequence[Action], state: State) -> list[Ask]:
    """Before play, the question a ruling without `ask:` will most likely answer (to follow it)."""
    likely = likely_ask(actions, state, None)
    return [likely] if likely is not None else []


def likely_ask(actions: Sequence[Action], state: State, g: Game | None) -> Ask | None:
    """The question a judge most likely has about the last queued action: whether it was legal (when it
    was refused or never taken, or uses nothing), whether what it used resolves, what happened to the Soul
    it attacked. Before play (`g` None) it assumes the action will be taken."""
    if not actions:
        return None
    last = actions[-1]
    if g is not None and last.index not in g.ledger.taken:
        return Ask("legal", action=last.index)
    if uses_effect(last):
        return Ask("resolves", action=last.index)
    target = last.ref("target", state) if verbs.VERBS[last.verb].value == "slot" else None   # an attack's
    if target is not None and state.holder_at(target) is not None:
        return Ask("happens_to", slot=target)
    return Ask("legal", action=last.index)


def follow(g: Game, asks: Sequence[Ask]) -> None:
    """Before play: have the ledger look, after every step, at what the questions are about."""
    for ask in asks:
        follows = QUESTIONS[ask.kind].follows
        if follows is not None:
            follows(g, ask)


def answer(reader: Reader, ask: Ask, default: bool = False) -> Answer:
    verdict, text, n, rules = QUESTIONS[ask.kind].answer(reader, ask)
    return Answer(ask, question(ask, reader.actions, reader.start), verdict, text, n, tuple(rules), default)


def answers(g: Game, asks: Sequence[Ask], actions: Sequence[Action], start: State) -> list[dict[str, Any]]:
    """The ruling's `answers`: one per question, in order; without questions, the likeliest one about the
    last queued action (marked `default`), or none when nothing is queued. Each carries the `facts` of what
    it asks about (the action's index and words, the card and slot)."""
    reader = Reader(g, actions, start)
    if asks:
        return [answer(reader, ask).with_facts(ask.facts(actions, start)) for ask in asks]
    likely = likely_ask(actions, start, g)
    return [answer(reader, likely, default=True).with_facts(likely.facts(actions, start))] \
        if likely is not None else []


def schema() -> dict[str, Any]:
    """The OpenAPI `Ask`: one one-key object per row."""
    return {"oneOf": [{"type": "object", "required": [q.kind], "additionalProperties": False,
                       "properties": {q.kind: dict(q.schema)}} for q in QUESTIONS.values()]}
