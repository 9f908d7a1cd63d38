"""Bad input and illegal actions, kept apart (python-chess habit):

- `ScenarioError`: the input itself is malformed or inconsistent (exit 2, HTTP 400). Its
  `.problems` list every problem with its key path: `{"path": "state.players.A.field.C9",
  "message": "no such slot; …", "code": "no_such_field_slot", "facts": {…}}`, plus `"line"` for YAML
  syntax errors (the codes and their words: input_problems.PROBLEMS).
- `Violation`: the input is fine but a rule forbids the action: a sentence naming cards and
  slots, with the rule ids behind it (the ruling's `rejected.violations`).
- `Reason`: why something was refused, fizzled, was lost, skipped or did not happen, as a record
  (below: `REASONS`, the table of why).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.engine.data import input_problems

# --- the table of why: reasons as records ---------------------------------------------------------
#
# Every refusal, fizzle, loss, skipped part and non-event the
# engine states rests on a `Reason`: a code from `REASONS`, the facts it rests on (which card, slot,
# rule, value or rank), and words made from those facts, so the same reason reads the same in the
# trace, a rejection, a violation and the desk's "not legal here".
#
#     Reason.of("limit_used_up", effect="Shield Wall", used=1, per="turn", limit="1/Turn")
#     reason.text      # "Shield Wall has been used 1 time this turn (1/Turn)"
#     reason.rules     # ("11.7.1", "11.7.4")
#     reason.to_dict() # {"reason": "limit_used_up", "facts": {...}, "text": ..., "rules": [...]}
#
# A reason's facts are plain values (str, int, bool, lists of them, or a list of nested reasons under
# `excluded`), so readers outside the engine (the answers of a ruling, the desk) can use them without
# parsing the words. Add a kind of reason here, with its words and rules, and nowhere else.

@dataclass(frozen=True)
class ReasonKind:
    """One kind of reason: its words (a format string over the facts) and the rules it applies."""

    words: str
    rules: tuple[str, ...]


REASONS: dict[str, ReasonKind] = {
    # --- targets (11.4, 13.6.2): why one candidate is not a legal choice
    "target_unyielding": ReasonKind(
        "{card} ({slot}, rank {rank}) is Unyielding against {controller}'s effects of rank {rank} or lower: "
        "{source} (rank {source_rank}) can't target it", ("11.4.7", "13.6.2", "13.6.3")),
    "target_not_front_line": ReasonKind(
        "{card} ({slot}) stands in line {line}; {source} may only target Souls in the Front Line",
        ("11.4.2",)),
    "no_legal_target": ReasonKind(
        "{source} has no legal target, so it can't be used{among}", ("11.4.1",)),
    "target_not_a_slot": ReasonKind("a target must be a slot like B:C3", ("11.4.1",)),
    "target_not_realm_slot": ReasonKind(
        "{slot} is not {whose} realm slots; {source} targets a Realm", ("11.4.1",)),
    "target_no_active_realm": ReasonKind("no active Realm stands on {slot}", ("11.6.2", "glossary/active")),
    "target_realm_slot": ReasonKind("{slot} is a realm slot; {source} targets a {wants}", ("11.4.1",)),
    "target_wrong_side": ReasonKind(
        "{label} is not {whose}: {source} targets {side_words} {wants}", ("11.4.2",)),
    "target_spot_empty": ReasonKind(
        "{slot} has no active Soul on it; {source} targets a Soul Spot with an active Soul{front} on it",
        ("11.4.5",)),
    "target_spot_not_front": ReasonKind(
        "{card} ({slot}) is in line {line}, not the Front Line; {source} targets a Soul Spot with an active "
        "Soul in the Front Line on it", ("11.4.5",)),
    "target_no_soul": ReasonKind("no Soul stands on {slot}", ("11.4.1",)),
    "target_not_captured": ReasonKind(
        "{card} ({slot}) is not captured; {source} asks for a captured Soul", ("11.4.3",)),
    "target_captured": ReasonKind(
        "{card} ({slot}) is captured; only an effect that asks for a captured Soul can target it",
        ("11.4.3",)),
    "target_condition": ReasonKind("{card} ({slot}) {failed}, which {source} does not allow", ("11.4.1",)),
    "target_chosen_twice": ReasonKind(
        "{slot} is chosen twice; the same card or slot can't be chosen twice as a target of one effect",
        ("11.4.6",)),
    "target_count": ReasonKind("{source} takes {wanted} target{wanted_plural}, {given} given", ("11.4.1",)),
    "takes_no_targets": ReasonKind("{source} takes no targets", ("11.4.1",)),
    # --- the event slot (10.2.3)
    "event_slot_taken": ReasonKind(
        "{event} still lies on the event slot; only one Event fits there, so {next} can only be cast once "
        "it has resolved", ("10.2.3", "glossary/event-slot")),
    # --- Realms (10.5.2)
    "realm_needs_no_proactive_slot": ReasonKind(
        "{card} is a Realm: it belongs to no Soul, and its Activated Effects need no proactive slot",
        ("10.5.2", "glossary/activated-effect")),
    # --- Leader cards (glossary Leader)
    "leader_card_ordinary": ReasonKind(
        "{card} on {slot} is a Leader card recruited as an ordinary Soul, not {player}'s Leader on the "
        "altar: its capture does not end the duel", ("glossary/leader",)),
    "leader_label": ReasonKind(
        "{card} on {slot} is a Leader card recruited as an ordinary Soul, but it keeps the label: text about "
        "a Leader ({effect}) reaches it too", ("glossary/leader",)),
    # --- triggers that do not fire (11.3.3, 11.7.4, 11.8.1, 13.5.2)
    "trigger_condition": ReasonKind(
        "its condition is not met, {card} {failed}", ("11.3.3",)),
    "limit_used_up": ReasonKind(
        "{effect} has been used {used} time{plural} this {per} ({limit})", ("11.7.1", "11.7.4")),
    "trigger_inactive": ReasonKind(
        "{card} ({slot}) {how} and is no longer active, and only active cards' effects trigger",
        ("11.8.1", "glossary/active")),
    "trigger_negated": ReasonKind(
        "the effects of {card} ({slot}) are negated by {negator}, so it does nothing",
        ("13.5.2",)),
    "trigger_lost_no_target": ReasonKind(
        "it has no legal target{among}", ("11.8.3",)),
    # --- rules switching on or off
    "taunt_on": ReasonKind(
        "{card} ({slot}) now stands in the Front Line{because}, so its Taunt protects {radius} from attacks "
        "declared from now on", ("glossary/taunt", "glossary/front-line")),
    "taunt_off": ReasonKind(
        "{card} ({slot}) no longer stands in the Front Line ({front} in front of it), so its Taunt protects "
        "nobody from now on", ("glossary/taunt", "glossary/front-line")),
    "taunt_idle": ReasonKind(
        "{card} ({slot}) has Taunt, but {front} stands in front of it, so it is not in the Front Line and "
        "protects nobody: {target} can be attacked", ("glossary/taunt", "glossary/front-line")),
    "static_condition_on": ReasonKind(
        "the condition of {card}'s Static Effect ({slot}) now holds ({now}), so it applies from now: the "
        "effects of {reached} are negated", ("13.1.1", "13.5.2")),
    "static_condition_off": ReasonKind(
        "the condition of {card}'s Static Effect ({slot}) no longer holds ({now}), so it stops applying: the "
        "effects of {reached} are no longer negated by it", ("13.1.1", "13.5.2")),
    "slot_effect_stays": ReasonKind(
        "the slot {slot} stays {what}{till}: {other}, laid there too, ran side by side with {ended} and "
        "lasts {until}; the one that ends later decides how long the slot is affected", ("13.3.4", "13.3.3")),
    # --- refusals of an action (legality): the facts a judge checks
    "not_proactive": ReasonKind(
        "{slot_name} is not a proactive slot in {player}'s turn {turn} of the Escalation Spiral, so {card} "
        "({slot}) can't act as the {role}", ()),
    "attacker_line": ReasonKind("{card} ({slot}) stands in line {line}; a Soul attacks from the Front "
                                "Line{extra}", ("glossary/attack", "glossary/range", "9.1.1")),
    "recruit_used_up": ReasonKind(
        "{player} has already recruited this turn ({recruited}); {per} per turn{counts}", ("10.1.1", "5.3")),
    "recruit_used_up_round": ReasonKind(
        "{player} has already recruited in this recruiting round of setup ({recruited}); one Soul per round"
        "{counts}", ("glossary/setup", "glossary/recruit", "interpretation/setup-rounds")),
    "event_not_fast": ReasonKind(
        "{turn_player} is the turn player, and Events are not Fast: an Event is cast only in its "
        "controller's own Preparation Phase, so {player} can't cast {card} in {turn_player}'s turn, not even "
        "in a response window", ("10.2.1", "glossary/cast", "glossary/fast", "glossary/turn-player")),
    "verb_not_fast": ReasonKind(
        "it is {turn_player}'s turn; {verb} is not Fast, so only the turn player may do it, in their own "
        "phase: in {turn_player}'s turn {player} may only use Fast effects, in a response window",
        ("glossary/turn-player", "glossary/fast", "glossary/response-window")),
    "recruited_this_turn": ReasonKind(
        "{card} ({slot}) was recruited this turn; a recruited Soul may attack only in a later turn",
        ("glossary/attack", "glossary/recruit")),
    "attack_target_line": ReasonKind(
        "{card} ({slot}) stands in {line_name}; only Souls in the Front Line can be attacked (glossary "
        "Attack Target)", ("glossary/attack-target", "glossary/front-line")),
    "attack_target_shattered": ReasonKind(
        "{card} lies shattered on {slot}: a shattered Realm is turned face down and is no longer active, so "
        "it is no Attack Target (only an active Realm is)",
        ("glossary/attack-target", "10.5.4", "glossary/shatter", "glossary/active")),
    "target_realm_shattered": ReasonKind(
        "{card} lies shattered on {slot}: a shattered Realm is no longer active, and effects act only on "
        "active cards", ("10.5.4", "11.6.2", "glossary/shatter", "glossary/active")),
    "ambush_moment_now": ReasonKind(
        "{ambush} names a moment ({moment}), and it is that moment now: {now}", ("10.4.6", "12.6.1")),
    "ambush_moment_missing": ReasonKind(
        "{ambush} names a moment ({moment}): it can only be sprung in answer to that moment, while the "
        "effect it answers is on top of the Cascade, and {now}", ("10.4.6", "12.6.1")),
    "taunt_protects": ReasonKind(
        "{taunter} ({taunter_slot}) has Taunt{given} and stands in the Front Line: {card} ({slot}) is in its "
        "radius{shared} and can't be chosen as Attack Target{why}",
        ("glossary/taunt", "glossary/attack-target")),
    "effects_negated": ReasonKind("{card}'s effects are negated by an effect in force", ()),
    # --- fizzles (11.6.1): why an effect about to resolve can't
    "fizzle_negated": ReasonKind(
        "it was negated{by}; a negated effect does not resolve and costs nothing",
        ("11.6.1d", "13.5.1", "11.5.3")),
    "fizzle_card_inactive": ReasonKind(
        "{card} ({slot}) is no longer active: it {went}{note}; the effect does nothing, and its cost is not "
        "paid", ("11.6.1a", "11.6.1")),
    "fizzle_caster_inactive": ReasonKind(
        "its Caster, {caster} ({slot}), is no longer active: it {went}; the Event does nothing, and its cost "
        "is not paid", ("11.6.1b", "10.2.5", "11.6.1")),
    "fizzle_ambusher_returned": ReasonKind("its Ambusher was returned to the hand", ("11.6.1c", "10.4.7")),
    "fizzle_cost": ReasonKind(
        "its cost, checked now just before it resolves, can't be paid: {problem}; nothing is paid",
        ("11.6.1d", "11.5.2", "11.2.1")),
    # --- parts of an effect that do nothing (11.6.3, 11.6.4, 13.6)
    "part_skipped": ReasonKind(
        "nothing is left for its {verb} to act on ({which}), so that part is skipped; the rest still happens",
        ("11.6.3",)),
    "unyielding_now": ReasonKind(
        "{card} ({slot}, rank {rank}) is Unyielding against {effect} (rank {source_rank}) now, so the effect "
        "does nothing to it", ("11.6.4", "13.6.2", "13.6.1", "13.6.3")),
    "unyielding_instant": ReasonKind(
        "{card} ({slot}, rank {rank}) is Unyielding against the Instant Effect {effect} "
        "(rank {source_rank}), which does nothing to it", ("13.6.6", "13.6.1", "13.6.3")),
    # --- a refusal written as words and rules only (legality's `Check.no`), kept as a record so that every
    # refusal has one: its words are the check's own, its rules the check's (facts `said`, `also`)
    "refused": ReasonKind("{said}", ()),
    "unyielding_static": ReasonKind(
        "{what} (from {source}, rank {source_rank}) does not reach {card} ({slot}, rank {rank}){given}: it "
        "is Unyielding against its opponent's Static Effects of rank {rank} or lower", ("13.6.1", "13.6.3")),
    "payer_captured": ReasonKind(
        "paying {hp} HP captured {card} ({slot}){went}, but {effect} still resolves as far as it can: a "
        "Soul that pays HP must be active to pay, and being captured by paying does not stop the effect",
        ("11.5.5", "14.3.1", "glossary/pay-hp")),
    "granted_by": ReasonKind(
        "this {keyword} is granted by {source} and works as if printed on {card}", ("13.2.1",)),
}


@dataclass(frozen=True)
class Reason:
    """Why something did not happen, or happened as it did: a code of `REASONS` and its facts."""

    code: str
    facts: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in REASONS:
            raise KeyError(f"unknown reason {self.code!r}; add it to REASONS")

    def __hash__(self) -> int:
        return hash((self.code, repr(sorted(self.facts.items()))))

    @classmethod
    def of(cls, code: str, **facts: Any) -> Reason:
        return cls(code, facts)

    @property
    def kind(self) -> ReasonKind:
        return REASONS[self.code]

    @property
    def text(self) -> str:
        return self.kind.words.format_map(_Words(self.facts))

    @property
    def rules(self) -> tuple[str, ...]:
        """The kind's rules, those a fact adds (`also`: e.g. 15.5.1 for a card that came back), and the
        rules of the nested reasons."""
        nested = [r for sub in self.facts.get("excluded", ()) if isinstance(sub, Reason) for r in sub.rules]
        return tuple(dict.fromkeys((*self.kind.rules, *self.facts.get("also", ()), *nested)))

    def to_dict(self) -> dict[str, Any]:
        facts = {k: [v.to_dict() if isinstance(v, Reason) else v for v in val]
                 if isinstance(val, (list, tuple)) else val for k, val in self.facts.items()}
        return {"reason": self.code, "facts": facts, "text": self.text, "rules": list(self.rules)}


class _Words(dict[str, Any]):
    """The facts as words: lists of nested reasons are joined, a few derived words are offered."""

    def __init__(self, facts: Mapping[str, Any]) -> None:
        super().__init__(facts)
        excluded = [r for r in facts.get("excluded", ()) if isinstance(r, Reason)]
        self["among"] = (": " + "; ".join(r.text for r in excluded)) if excluded else ""
        used = facts.get("used")
        self["plural"] = "" if used == 1 else "s"
        self["wanted_plural"] = "" if facts.get("wanted") == 1 else "s"
        for key, words in _target_words(facts).items():
            self.setdefault(key, words)   # a fact of that name wins

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _target_words(facts: Mapping[str, Any]) -> dict[str, str]:
    """A target refusal's words about sides and kinds (11.4.2): whose slots, what the effect targets."""
    out: dict[str, str] = {}
    side, controller = facts.get("side"), facts.get("controller")
    if side is not None and controller is not None:
        other = "B" if controller == "A" else "A"
        whose = {"own": f"one of {controller}'s", "opposing": f"one of {other}'s"}
        out["whose"] = whose.get(str(side), "any")
        out["side_words"] = "an opposing" if side == "opposing" else "your own"
    if "what" in facts:
        out["wants"] = "Soul Spot" if facts["what"] == "spot" else "Soul"
    if "slot" in facts:
        card, slot = facts.get("card"), facts["slot"]
        out["label"] = f"{card} ({slot})" if card else f"the empty slot {slot}"
    if "naming" in facts:
        out["front"] = " in the Front Line" if facts["naming"] == "front" else ""
    return out


@dataclass(frozen=True)
class Violation:
    """Why an action is not legal: a sentence naming cards and slots, plus the rule ids."""

    text: str
    rules: tuple[str, ...]
    reason: Reason | None = None   # the facts the refusal rests on, when it has a record (reasons.py)

    @classmethod
    def because(cls, reason: Reason) -> Violation:
        """A refusal whose words and rules are made from its reason record."""
        return cls(reason.text, reason.rules, reason)

    @property
    def record(self) -> Reason:
        """Its reason record, or (a refusal with words and rules only) a `refused` record of them."""
        if self.reason is not None:
            return self.reason
        return Reason.of("refused", said=self.text, also=list(self.rules))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "rules": list(self.rules)}
        if self.reason is not None:
            out["reason"] = self.reason.to_dict()
        return out


class StepLimit(RuntimeError):
    """Raised when a resolution takes more steps than the cap allows (a loop), or runs out of its budget."""


class ScenarioError(ValueError):
    def __init__(self, problems: list[dict[str, Any]], source: str | None = None) -> None:
        self.problems = problems
        self.source = source
        super().__init__(self.describe())

    def describe(self) -> str:
        head = f"{self.source}: " if self.source else ""
        count = len(self.problems)
        lines = [f"{head}{count} problem{'s' if count != 1 else ''} in the scenario:"]
        for p in self.problems:
            where = p.get("path") or "(top)"
            if p.get("line"):
                where += f" (line {p['line']})"
            lines.append(f"  {where}: {p['message']}")
        return "\n".join(lines)


def problem(path: str, code: str, line: int | None = None, **facts: Any) -> dict[str, Any]:
    """One input problem as a ScenarioError lists it: its key path, its words made from its code and
    facts (input_problems.PROBLEMS), the code and the facts, and the YAML line where there is one."""
    item: dict[str, Any] = {"path": path, "message": input_problems.words(code, facts)}
    if line is not None:
        item["line"] = line
    item["code"] = code
    item["facts"] = facts
    return item


class Problems:
    """Collects problems while loading so that every one is reported, not just the first."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def problem(self, path: str, code: str, line: int | None = None, **facts: Any) -> None:
        """A problem of `input_problems.PROBLEMS` at `path`, its words made from `facts`."""
        self.items.append(problem(path, code, line, **facts))

    def add(self, path: str, message: str, line: int | None = None) -> None:
        """A problem given as words only (code `input`, the words its fact `said`)."""
        self.problem(path, "input", line, said=message)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def raise_if_any(self, source: str | None = None) -> None:
        if self.items:
            raise ScenarioError(self.items, source)
