"""Questions and answers (contract §7): `ask:` read once into `Ask` records, and each answered from what
the resolution did (the game's ledger, its steps and its final board), verdict first.

    asks = parse(data.get("ask"), actions, state, bad)    # problems at ask.N (exit 2, HTTP 400)
    follow(g, asks or likely_candidates(actions, state))  # before play: what the questions follow
    answers(g, asks, actions)                             # after play: [{ask, question, verdict, …}]

The deciding step of each kind of question:
- `legal`: the refusal of the action (a `reject` step), or, when it is legal, the step that took it,
  unless a non-event step attached to it says why a restriction did not apply (a Taunt that protects
  nobody): then that one.
- `resolves`: the negation, or the fizzle, or the step that let it resolve (its Caster still active,
  its Ambusher gone but an Ambush resolving anyway), as play recorded them for that Cascade entry.
- `happens_to`: the step where the card last changed in the most telling way (leaving, capture,
  damage, healing, a move, a value); a change of values explained by a consequence step is that
  step; when nothing happened, why not (`_why_nothing`): the non-event about it (an Unyielding block),
  the fizzle or negation of an effect aimed at it or its own, a trigger that did not fire or was lost.
- `value`: the step where the value took its final form (its consequence step when there is one); when
  the queue never changed it, the non-event of its card's own trigger that would have, or none.
- `winner`: the step that ended the duel; no winner: a Leader card captured off the altar, or none.

Steps are read by their reason records (`Step.reasons`, data/errors.py REASONS) wherever they carry one;
the words are matched only for steps that have no record (each place says which).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judge.engine.data.errors import Reason
from judge.engine.data.input_checks import show
from judge.engine.driver.verbs import VERBS
from judge.engine.position.action import Action
from judge.engine.position.state import SlotRef, State

if TYPE_CHECKING:
    from judge.engine.play.game import Game
    from judge.engine.play.ledger import Used
    from judge.engine.play.trace import Step

KINDS = ("legal", "resolves", "happens_to", "value", "winner")
VALUES = {"atk": "ATK", "def": "DEF", "hp": "HP", "max_hp": "maximum HP", "damage": "damage",
          "captured": "captured", "keywords": "keywords", "line": "line", "proactive": "proactive"}
# what can happen to a card, most telling first (the order of a happens_to verdict)
HAPPENINGS = ("captured", "returned", "exiled", "damaged", "healed", "moved", "changed")
LEFT_WORDS = {"hand": "returned", "exile": "exiled", "captured": "captured"}
QUIET = ("window", "turn", "cascade", "resolve", "zone")   # steps that name a card without acting on it
# the reasons of a trigger that does not fire or is lost (data/errors.py REASONS)
TRIGGER_REASONS = ("trigger_condition", "limit_used_up", "trigger_inactive", "trigger_negated",
                   "trigger_lost_no_target")
SLOT_FACTS = ("slot", "taunter_slot")   # the facts of a reason that name a card's slot


@dataclass(frozen=True)
class Ask:
    """One question: `kind` of KINDS; `action` (legal, resolves by action), `card` (resolves by name),
    `slot` (happens_to, value), `of` (value)."""

    kind: str
    action: int | None = None
    card: str | None = None
    slot: SlotRef | None = None
    of: str | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "legal":
            return {"legal": self.action}
        if self.kind == "resolves":
            return {"resolves": self.action if self.action is not None else self.card}
        if self.kind == "happens_to":
            return {"happens_to": str(self.slot)}
        if self.kind == "value":
            return {"value": {"slot": str(self.slot), "of": self.of}}
        return {"winner": True}

    @property
    def key(self) -> str:
        """What the ledger follows for it."""
        return f"{self.kind}:{self.slot}" if self.slot is not None else self.kind


# --- reading ask: ----------------------------------------------------------------------------

def parse(value: Any, actions: Sequence[Action], state: State,
          bad: Callable[[str, str], None]) -> tuple[Ask, ...]:
    """`ask:` → Ask records; each question that can't be answered as asked is a problem at `ask.N`."""
    if value is None:
        return ()
    if not isinstance(value, list):
        bad("ask", "expected a list of questions, e.g. [{legal: 0}, {happens_to: \"B:C3\"}]")
        return ()
    out = []
    for i, item in enumerate(value):
        ask = _one(item, f"ask.{i}", actions, state, bad)
        if ask is not None:
            out.append(ask)
    return tuple(out)


def _one(item: Any, path: str, actions: Sequence[Action], state: State,
         bad: Callable[[str, str], None]) -> Ask | None:
    if not isinstance(item, Mapping) or len(item) != 1 or next(iter(item)) not in KINDS:
        bad(path, f"a question is a one-key mapping, one of {', '.join(KINDS)}; got {show(item)}")
        return None
    kind, value = next(iter(item.items()))
    where = f"{path}.{kind}"
    count = f"the queue has {len(actions)} action{'s' if len(actions) != 1 else ''}" + (
        f" (0 to {len(actions) - 1})" if actions else "")
    if kind in ("legal", "resolves") and (isinstance(value, int) and not isinstance(value, bool)):
        if not 0 <= value < len(actions):
            bad(where, f"no action {value}: {count}")
            return None
        if kind == "resolves" and not uses_effect(actions[value]):
            bad(where, f"action {value} ({describe(actions[value])}) uses no Event, Ambush or effect, so "
                       f"nothing of it can resolve; ask legal: {value}, or happens_to: a slot")
            return None
        return Ask(kind, action=value)
    if kind == "legal":
        bad(where, f"expected the number of a queued action; {count}")
        return None
    if kind == "resolves":
        return _by_name(value, where, actions, state, bad)
    if kind == "happens_to":
        ref = _slot(value, where, state, bad)
        if ref is None:
            return None
        if state.holder_at(ref) is None:
            bad(where, f"{ref} is empty at the start: nothing stands there for the question to follow")
            return None
        return Ask(kind, slot=ref)
    if kind == "value":
        if not isinstance(value, Mapping) or set(value) != {"slot", "of"}:
            bad(where, f"expected {{slot: \"A:C3\", of: atk}}; got {show(value)}")
            return None
        ref = _slot(value["slot"], f"{where}.slot", state, bad)
        if not isinstance(value["of"], str) or value["of"] not in VALUES:
            bad(f"{where}.of", f"expected one of {', '.join(VALUES)}; got {show(value['of'])}")
            return None
        return Ask(kind, slot=ref, of=str(value["of"])) if ref is not None else None
    if value is not True:
        bad(where, f"expected true (winner: true); got {show(value)}")
        return None
    return Ask(kind)


def _slot(value: Any, where: str, state: State, bad: Callable[[str, str], None]) -> SlotRef | None:
    ref = SlotRef.parse(value)
    if ref is None:
        bad(where, f"expected a slot with its player, like \"B:C3\" or \"A:realm2\"; got {show(value)}")
    return ref


def _by_name(value: Any, where: str, actions: Sequence[Action], state: State,
             bad: Callable[[str, str], None]) -> Ask | None:
    card = state.library.get(value) if isinstance(value, str) else None
    if card is None:
        bad(where, f"expected the number of a queued action or a card's name; no card named {show(value)}")
        return None
    used = [a for a in actions if VERBS[a.verb].value == "card" and str(a.value).lower() == card.name.lower()]
    on_field = any(h.name.lower() == card.name.lower()
                   for ref in state.soul_refs(active=False) + state.realm_refs()
                   if (h := state.holder_at(ref)) is not None)
    if not used and not on_field:
        bad(where, f"{card.name} is neither cast, sprung nor recruited by a queued action nor on the field, "
                   "so no effect of it can resolve here")
        return None
    return Ask("resolves", card=card.name)


# --- the questions in words --------------------------------------------------------------------

def question(ask: Ask, actions: Sequence[Action], state: State) -> str:
    """The question as a judge would ask it, with the names of the position as given."""
    if ask.kind == "legal" and ask.action is not None:
        return f"Is action {ask.action} ({describe(actions[ask.action])}) legal where it stands in the queue?"
    if ask.kind == "resolves":
        return f"Does {used_label(ask, actions, state)} resolve?"
    if ask.kind == "happens_to" and ask.slot is not None:
        return f"What happens to {_named(state, ask.slot)}?"
    if ask.kind == "value" and ask.slot is not None and ask.of is not None:
        return f"What is the {VALUES[ask.of]} of {_named(state, ask.slot)} after the queue?"
    return "Does the duel end, and who wins?"


def uses_effect(action: Action) -> bool:
    """The action uses an Event, an Ambush or an effect: taking it puts an entry on the Cascade (the verb
    table's `on_cascade`)."""
    return VERBS[action.verb].on_cascade


def describe(action: Action) -> str:
    """An action in words: "attack C2, target B:L1", "cast Firebolt, caster L2, targets B:L2"."""
    parts = [f"{action.verb} {action.value}" if action.value is not True else action.verb.replace("_", " ")]
    for key, value in action.args.items():
        shown = ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else value
        parts.append(f"{key} {shown}")
    if action.by:
        parts.append(f"by {action.by}")
    return ", ".join(parts)


def used_label(ask: Ask, actions: Sequence[Action], state: State) -> str:
    if ask.card is not None:
        return ask.card
    action = actions[ask.action or 0]
    if VERBS[action.verb].value == "card":   # an Event cast or an Ambush sprung: the card's name
        return str(action.value)
    ref = action.ref("card", state)
    holder = state.holder_at(ref) if ref is not None else None
    return f"{holder.name}'s {action.value}" if holder is not None else str(action.value)


def _named(state: State, ref: SlotRef) -> str:
    holder = state.holder_at(ref)
    return f"{holder.name} ({ref})" if holder is not None else f"the card on {ref}"


def candidates(actions: Sequence[Action], state: State) -> list[Ask]:
    """The questions this position and queue allow, the likeliest first (the desk offers them): for each
    queued action, the last first, whether it is legal and whether what it used resolves; what happens to
    the cards the queue names (targets first), and their values; who wins."""
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
    for ref in cards:
        out.append(Ask("happens_to", slot=ref))
    for ref in cards:
        out += [Ask("value", slot=ref, of=of) for of in ("hp", "atk", "def")]
    out.append(Ask("winner"))
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
    target = last.ref("target", state) if VERBS[last.verb].value == "slot" else None   # an attack's target
    if target is not None and state.holder_at(target) is not None:
        return Ask("happens_to", slot=target)
    return Ask("legal", action=last.index)


# --- following, during play --------------------------------------------------------------------

def follow(g: Game, asks: Sequence[Ask]) -> None:
    """Before play: have the ledger look, after every step, at what the questions are about."""
    for ask in asks:
        if ask.kind == "happens_to" and ask.slot is not None:
            holder = g.state.holder_at(ask.slot)
            if holder is not None:
                g.ledger.follow(ask.key, _card_look(g, holder.uid))
        elif ask.kind == "value" and ask.slot is not None and ask.of is not None:
            g.ledger.follow(ask.key, _slot_look(g, ask.slot))


@dataclass(frozen=True)
class Seen:
    """A followed card as it was after a step."""

    place: str                       # its slot, or hand | exile | elysium | gone once it left
    damage: int = 0
    captured: bool = False
    values: tuple[int, int, int] = (0, 0, 0)      # ATK, DEF, max HP
    keywords: tuple[str, ...] = ()


def _card_look(g: Game, uid: int) -> Callable[[], Seen]:
    def look() -> Seen:
        ref = g.state.find_uid(uid)
        holder = g.state.holder_at(ref) if ref is not None else None
        if ref is None or holder is None or holder.uid != uid:
            return Seen(g.left.get(uid, "gone"))
        view = g.board().view(ref)
        if view is None:
            return Seen(str(ref), holder.damage, True)
        down = bool(getattr(view, "captured", False) or getattr(view, "shattered", False))
        return Seen(str(ref), view.damage, down, (view.atk.total, view.def_.total, view.max_hp.total),
                    tuple(sorted({k.keyword.name for k in view.keywords})))
    return look


def _slot_look(g: Game, ref: SlotRef) -> Callable[[], Any]:
    def look() -> Any:
        view = g.board().view(ref)
        if view is None:
            return None
        holder = g.state.holder_at(ref)
        return (holder.uid if holder is not None else None, _freeze(view.to_dict(detail=False)))
    return look


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


# --- answering, after play ---------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    ask: Ask
    question: str
    verdict: Any
    text: str
    step: int | None
    rules: tuple[str, ...]
    default: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ask": self.ask.to_dict(), "question": self.question, "verdict": self.verdict,
                               "text": self.text, "step": self.step, "rules": list(self.rules)}
        if self.default:
            out["default"] = True
        return out


Said = tuple[Any, str, "int | None", Sequence[str]]   # verdict, text, deciding step, rules


class _Reader:
    """What one resolution did, as the answers read it."""

    def __init__(self, g: Game, actions: Sequence[Action], start: State) -> None:
        self.g = g
        self.actions = actions
        self.start = start
        self.steps: list[Step] = g.trace.steps
        self.by_n = {s.n: s for s in self.steps}

    def step(self, n: int | None) -> Step | None:
        return self.by_n.get(n) if n is not None else None

    def rules(self, n: int | None) -> tuple[str, ...]:
        step = self.step(n)
        return step.rules if step is not None else ()

    def answer(self, ask: Ask, default: bool = False) -> Answer:
        verdict, text, n, rules = getattr(self, f"_{ask.kind}")(ask)
        return Answer(ask, question(ask, self.actions, self.start), verdict, text, n, tuple(rules), default)

    # --- legal: the refusal, or the step that took the action (or the non-event attached to it)
    def _legal(self, ask: Ask) -> Said:
        index = ask.action or 0
        action = self.actions[index]
        refused = self.g.ledger.rejected.get(index)
        if refused is not None:
            return "no", f"No: {_sentence(self.g.ledger.reasons[index])}", refused, self.rules(refused)
        taken = self._taking_step(self.g.ledger.taken.get(index))
        if taken is None:
            stop = min(self.g.ledger.rejected.items(), default=None)
            why = (f"play stopped at action {stop[0]}, which is not legal (step {stop[1]})" if stop
                   else "play stopped before it")
            n = stop[1] if stop else None
            return "no", f"No: action {index} ({describe(action)}) is never taken: {why}.", n, self.rules(n)
        deciding = self._attached_nonevent(taken) or taken
        text = f"Yes: {describe(action)} is legal."
        waited = self._waited(action, taken)
        if waited is not None:   # it had to wait for the event slot: when it could be taken (10.2.3)
            step, reason = waited
            text += f" It waits (step {step.n}): {_sentence(reason.text)}"
        text += f" {_sentence(taken.text)}"
        if deciding is not taken:
            text += f" {_sentence(deciding.text)}"
        return "yes", text, deciding.n, deciding.rules

    def _waited(self, action: Action, taken: Step) -> tuple[Step, Reason] | None:
        """The non-event, before the step that took a cast, whose record says it waited for the event slot
        (the record's `next` is the card it casts)."""
        card = str(action.value).lower()
        for step in self.steps[:taken.n - 1]:
            for r in step.reasons:
                if r.code == "event_slot_taken" and str(r.facts.get("next", "")).lower() == card:
                    return step, r
        return None

    def _taking_step(self, n: int | None) -> Step | None:
        """The step that takes an action: an answer in a window is taken after the passes noted first."""
        if n is None:
            return None
        return next((s for s in self.steps[n - 1:] if s.kind != "window"), self.step(n))

    def _attached_nonevent(self, first: Step) -> Step | None:
        """A non-event said right after the step that took an action, before anything else happens."""
        for step in self.steps[first.n:]:
            if step.kind == "nonevent":
                return step
            if step.kind != "consequence":
                return None
        return None

    # --- resolves: the negation, the fizzle, or the step that let it resolve
    def _resolves(self, ask: Ask) -> Said:
        label = used_label(ask, self.actions, self.start)
        used = self._used(ask)
        if used is None:
            refused = self.g.ledger.rejected.get(ask.action) if ask.action is not None else None
            if refused is not None and ask.action is not None:
                why = _sentence(self.g.ledger.reasons[ask.action])
                return "no", f"No: {label} is never used: {why}", refused, self.rules(refused)
            missed = self._missed(label)
            if missed is not None:   # a trigger that did not trigger, or was lost
                return "no", f"No: {_sentence(missed.text)}", missed.n, missed.rules
            return "no", (f"No: nothing of {label} is used: no effect of it goes on the Cascade or "
                          "resolves."), None, ()
        outcome = self.g.ledger.outcomes.get(used.entry)
        if outcome is None:
            return "no", (f"No: {used.label} goes on the Cascade (step {used.pushed}) but never resolves: "
                          "play stops first."), used.pushed, self.rules(used.pushed)
        if outcome.how == "negated":
            return "no", (f"No: {used.label} is negated by {outcome.why}, so it does not resolve (and costs "
                          "nothing)."), outcome.step, outcome.rules
        if outcome.how == "fizzled":
            return "no", f"No: {used.label} fizzles: {_sentence(outcome.why)}", outcome.step, outcome.rules
        step = self.step(outcome.step)
        # the check that let it resolve says why (its Caster still active, an Ambush resolving anyway)
        said = "" if step is None or step.kind != "resolve" or "begins to" in step.text else step.text
        text = f"Yes: {used.label} resolves. " + (_sentence(said) if said else
                                                   "Nothing that makes an effect fizzle (11.6.1) holds.")
        did = self._first_effect(outcome.step)
        if did is not None:
            text += f" {_sentence(did.text)}"
        return "yes", text, outcome.step, self.rules(outcome.step)

    def _missed(self, card: str) -> Step | None:
        """A non-event about one of `card`'s effects (it does not trigger, or is lost), read from its reason
        record: the record's `card` (or `source`, for a trigger lost for want of a target) is the card.
        Only a non-event without such a record (a trigger lost because its card is gone, a Berserk that
        captured nothing, a limit used up: that record names the effect, not its card) is matched by its
        words, which open with the card's name."""
        for step in self.steps:
            if step.kind != "nonevent":
                continue
            records = [r for r in step.reasons if r.code in TRIGGER_REASONS]
            named = [r for r in records if "card" in r.facts or "source" in r.facts]
            if named and any(card in (r.facts.get("card"), r.facts.get("source")) for r in named):
                return step
            if not named and (records or not step.reasons) and step.text.startswith(f"{card}'s "):
                return step   # no record naming a card: the words (see above)
        return None

    def _used(self, ask: Ask) -> Used | None:
        used = self.g.ledger.used
        if ask.action is not None:
            return next((u for u in used if u.action == ask.action), None)
        name = (ask.card or "").lower()
        return next((u for u in reversed(used) if u.card.lower() == name), None)

    def _first_effect(self, after: int) -> Step | None:
        for step in self.steps[after:]:
            if step.kind in ("effect", "damage", "heal", "capture", "instant"):
                return step
            if step.kind in ("resolve", "fizzle", "reject", "window", "turn"):
                return None
        return None

    # --- happens_to: the most telling change, or the non-event that kept something off it
    def _happens_to(self, ask: Ask) -> Said:
        history = self.g.ledger.seen.get(ask.key, [])
        name = _named(self.start, ask.slot) if ask.slot is not None else "the card"
        events: dict[str, int] = {}          # what happened, in the order it first happened -> its last step
        for (_, old), (n, new) in zip(history, history[1:], strict=False):
            for what in _happenings(old, new):
                events[what] = n
        if not events:
            holder = self.start.holder_at(ask.slot) if ask.slot is not None else None
            why = self._why_nothing(history, holder.uid if holder is not None else None)
            if why is not None:
                return ["nothing"], f"Nothing: {_sentence(why.text)}", why.n, why.rules
            return ["nothing"], f"Nothing: no step of the ruling touches {name}.", None, ()
        place = getattr(history[-1][1], "place", None) if history else None
        steps = {what: (self._explained_by(n, place) or n) if what == "changed" else n
                 for what, n in events.items()}
        main = next(w for w in HAPPENINGS if w in events)   # the most telling decides
        said = list(dict.fromkeys(_sentence(s.text) for w in events
                                  if (s := self.step(steps[w])) is not None))
        head = " and ".join(events).capitalize()
        return list(events), f"{head}: " + " ".join(said), steps[main], self.rules(steps[main])

    def _explained_by(self, n: int, place: str | None) -> int | None:
        """A consequence step that follows from step `n` (or is step `n`) and is about the card on `place`:
        its reason record names the card's slot (a Taunt switching, a slot effect outliving another), or,
        for a consequence of values, which carries no record and no changes, its words name the slot."""
        start = self.step(n)
        if start is not None and start.kind == "consequence":
            return n
        for step in self.steps[n:]:
            if step.kind != "consequence":
                break
            if step.caused_by == n and place and _about(step, {place}):
                return step.n
        return None

    def _why_nothing(self, history: list[tuple[int, Any]], uid: int | None) -> Step | None:
        """Why nothing happened to the followed card, the first of:
        - a non-event about it, what kept something off it (an Unyielding block): its reason record names
          the card's slot, or, for a non-event without a record, its words do;
        - the fizzle or negation of an effect that targeted it, or that was its own (a cost not paid): the
          ledger's Cascade entries and their outcomes;
        - the last non-event of a trigger that did not fire or was lost (negated, condition not met, limit
          used up, no target, its card gone), of the card itself or of an opposing card: the effect that
          would have reached it;
        - else the last step of play that names it (0 damage, say), or None."""
        places = {p for p in {getattr(seen, "place", "") for _, seen in history} if ":" in p}
        naming = [s for s in self.steps if _about(s, places)]
        found = next((s for s in reversed(naming) if s.kind == "nonevent"), None)
        if found is not None:
            return found
        if uid is not None:
            for used in reversed(self.g.ledger.used):
                outcome = self.g.ledger.outcomes.get(used.entry)
                if outcome is not None and outcome.how != "resolved" and (
                        uid in used.targets or uid == used.source):
                    return self.step(outcome.step)
        lost = next((s for s in reversed(self.steps)
                     if s.kind == "nonevent" and _trigger_lost(s) and _could_reach(s, places)), None)
        return lost or next((s for s in reversed(naming) if s.kind not in QUIET), None)

    # --- value: the step where it took its final form
    def _value(self, ask: Ask) -> Said:
        history = self.g.ledger.seen.get(ask.key, [])
        final = history[-1][1] if history else None
        label = VALUES[ask.of or "atk"]
        if final is None:
            return None, f"None: no card stands on {ask.slot} after the queue, so it has no {label}.", \
                None, ()
        value = _value_of(final, ask.of)
        card = dict(final[1]).get("card")
        values = [(n, _value_of(seen, ask.of)) for n, seen in history]
        changes = [(n, before) for (_, before), (n, after) in zip(values, values[1:], strict=False)
                   if before != after]
        what = (f"{card} ({ask.slot}) is {'' if value else 'not '}{label} after the queue"
                if isinstance(value, bool) else f"the {label} of {card} ({ask.slot}) after the queue")
        if not changes:
            parts, rules = self._made_of(ask)
            said = self._why_unchanged(ask)
            if said is not None:   # 0 damage dealt, a heal with nothing to heal: the step that says so
                return value, f"{_shown(value)}: {what}. {_sentence(said.text)}", said.n, said.rules
            kept = self._trigger_kept_off(ask, card)
            if kept is not None:   # its own trigger that would have changed it did not fire: why not
                return value, f"{_shown(value)}: {what}; {_sentence(kept.text)}", kept.n, kept.rules
            shrugged = self._static_kept_off(ask)
            if shrugged is not None:   # an opposing aura that would have changed it does not reach it
                at, reason = shrugged[0].n, shrugged[1]
                return value, f"{_shown(value)}: {what}; {reason.text}.", at, reason.rules
            return value, f"{_shown(value)}: {what}; no step changes it{parts}.", None, rules
        n, before = changes[-1]
        deciding = self._explained_by(n, str(ask.slot)) or n
        was = ("the slot was empty" if before is None else "it had none" if before == []
               else f"it was {_shown(before)}")
        text = f"{_shown(value)}: {what}; {was} before step {deciding}."
        step = self.step(deciding)
        if step is not None:
            text += f" {_sentence(step.text)}"
        stays = self._static_kept_off(ask)
        if stays is not None and stays[0].n > deciding:   # it stayed so later, for a reason a step gives
            text += f" It stays so at step {stays[0].n}: {stays[1].text}."
            return value, text, stays[0].n, stays[1].rules
        return value, text, deciding, self.rules(deciding)

    def _trigger_kept_off(self, ask: Ask, card: Any) -> Step | None:
        """For a value no step changed: a non-event of a trigger of the card on the slot that did not fire
        (negated, its limit used up, its condition not met), read from its reason record: the record names
        the slot, or, for a limit used up (whose record names the effect, not its card), the effect is one of
        that card's. Only values a triggered effect can change."""
        if ask.of not in ("atk", "def", "max_hp", "hp", "damage", "keywords") or not isinstance(card, str):
            return None
        definition = self.start.library.get(card)
        for step in self.steps:
            if step.kind != "nonevent":
                continue
            for r in step.reasons:
                if r.code not in TRIGGER_REASONS:
                    continue
                if r.facts.get("slot") == str(ask.slot) and r.facts.get("card", card) == card:
                    return step
                if r.code == "limit_used_up" and definition is not None and \
                        definition.effect(str(r.facts.get("effect", ""))) is not None:
                    return step
        return None

    def _static_kept_off(self, ask: Ask) -> tuple[Step, Reason] | None:
        """For a value no step changed: the step that says why it stayed, and its reason record: an opposing
        Static Effect that did not reach the Soul on the slot (Unyielding, 13.6.1), or a slot effect that
        outlived a shorter one laid beside it (13.3.4)."""
        shrug = ("unyielding_static",)
        codes = {"atk": shrug, "def": shrug, "max_hp": shrug, "hp": shrug,
                 "keywords": (*shrug, "slot_effect_stays")}
        return next(((s, r) for s in reversed(self.steps) for r in s.reasons
                     if r.code in codes.get(ask.of or "", ()) and r.facts.get("slot") == str(ask.slot)), None)

    def _why_unchanged(self, ask: Ask) -> Step | None:
        """For damage or HP that no step changed: the last damage or heal step on the slot (0 damage)."""
        if ask.of not in ("damage", "hp"):
            return None
        return next((s for s in reversed(self.steps) if s.kind in ("damage", "heal")
                     and any(c.get("slot") == str(ask.slot) for c in s.changes)), None)

    def _made_of(self, ask: Ask) -> tuple[str, tuple[str, ...]]:
        """What an unchanged ATK, DEF or maximum HP is made of (printed, Armament, auras…), and its rules."""
        view = self.g.board().view(ask.slot) if ask.slot is not None else None
        key = {"atk": "atk", "def": "def_", "max_hp": "max_hp", "hp": "max_hp"}.get(ask.of or "")
        if view is None or key is None:
            return "", ()
        parts = [c for c in getattr(view, key).contributions if c.kind not in ("damage", "floor")]
        if len(parts) < 2:
            return "", ()
        words = ", ".join(f"{c.amount:+d} {c.label}" if i else f"{c.amount} {c.label}"
                          for i, c in enumerate(parts))
        return f" ({words})", tuple(dict.fromkeys(r for c in parts for r in c.rules))

    # --- winner: the step that ended the duel
    def _winner(self, ask: Ask) -> Said:
        won = self.step(self.g.ledger.ended)
        winner = self.g.state.winner
        if winner and won is not None:
            return winner, f"{winner} wins: {_sentence(won.text)}", won.n, won.rules
        if winner:
            return winner, f"{winner} wins: the duel was already over in the position as given.", None, ()
        ordinary = next(((s, r) for s in self.steps for r in s.reasons if r.code == "leader_card_ordinary"),
                        None)
        if ordinary is not None:   # a Leader card captured off the altar: its record says why that is no win
            step, reason = ordinary
            return "none", f"None: the duel goes on: {_sentence(reason.text)}", step.n, step.rules
        return "none", "None: the duel goes on; no Leader is captured and no one is Decked Out for good.", \
            None, ()


def _records(reasons: Sequence[Reason]) -> list[Reason]:
    """A step's reason records with the ones nested in them (the candidates a target excluded)."""
    out: list[Reason] = []
    for r in reasons:
        out.append(r)
        out += _records([x for x in r.facts.get("excluded", ()) if isinstance(x, Reason)])
    return out


def _about(step: Step, places: set[str]) -> bool:
    """The step is about the card that stood on one of `places`: a fact of its reason records names the
    slot. A step without a record (most steps: a consequence of values, an Unyielding block by an Instant
    Effect, a damage step) is matched by its words naming the slot, "(B:L2)" or "(B:L2, rank 1…"."""
    if step.reasons:
        return any(r.facts.get(k) in places for r in _records(step.reasons) for k in SLOT_FACTS)
    return any(f"({p})" in step.text or f"({p}," in step.text for p in places)


def _trigger_lost(step: Step) -> bool:
    """A non-event of a trigger that did not fire or was lost: its reason record says so; a non-event
    without a record (a trigger lost because its card is gone, a Berserk that captured nothing) by its
    words, the only place that says it."""
    if step.reasons:
        return any(r.code in TRIGGER_REASONS for r in step.reasons)
    return " does not trigger" in step.text or " is lost" in step.text


def _could_reach(step: Step, places: set[str]) -> bool:
    """A trigger's non-event may be why nothing happened to the card on `places`: its record's slot is the
    card's own, or the other player's (an opposing effect). A record without a slot, or a non-event without
    a record, says nothing of the side, so it may."""
    sides = {p.split(":", 1)[0] for p in places}
    slots = [str(r.facts["slot"]) for r in step.reasons if r.code in TRIGGER_REASONS and "slot" in r.facts]
    return not slots or any(slot in places or slot.split(":", 1)[0] not in sides for slot in slots)


def _happenings(old: Any, new: Any) -> list[str]:
    if not isinstance(old, Seen) or not isinstance(new, Seen):
        return []
    out = []
    on_field = ":" in new.place
    if not on_field and ":" in old.place:
        return [LEFT_WORDS.get(new.place, "moved")]
    if new.captured and not old.captured:
        out.append("captured")
    if new.damage > old.damage:
        out.append("damaged")
    if new.damage < old.damage:
        out.append("healed")
    if on_field and new.place != old.place:
        out.append("moved")
    if (new.values, new.keywords) != (old.values, old.keywords) and not new.captured:
        out.append("changed")
    return out


def _value_of(seen: Any, of: str | None) -> Any:
    """One value of a followed slot as it was after a step (keywords as a list)."""
    if seen is None or of is None:
        return None
    value = dict(seen[1]).get(of)
    return list(value) if isinstance(value, tuple) else value


def _shown(value: Any) -> str:
    """A value as an answer opens with it: 25, Yes/No for true/false, keywords listed."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, list):
        return (", ".join(map(str, value)) or "none").capitalize()
    return "None" if value is None else str(value)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def answers(g: Game, asks: Sequence[Ask], actions: Sequence[Action], start: State) -> list[dict[str, Any]]:
    """The ruling's `answers`: one per question, in order; without questions, the likeliest one about the
    last queued action (marked `default`), or none when nothing is queued."""
    reader = _Reader(g, actions, start)
    if asks:
        return [reader.answer(ask).to_dict() for ask in asks]
    likely = likely_ask(actions, start, g)
    return [reader.answer(likely, default=True).to_dict()] if likely is not None else []
