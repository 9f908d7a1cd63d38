"""The words of the trace: one table of what a step can say, and the one renderer that makes a step's
text from its record.

A step is made from a record, never from a sentence written where it happens:

    g.trace.add("heal", say("heal_nothing", card=name, amount=amount, rounding=rounding, source=source),
                rules)

`say(code, **facts)` is a `Said`: a code of `SAYINGS` and the facts its words are made of. The trace
keeps the record on the step (`Step.said`) and renders its `text` once, here. A fact may itself be a
`Said` (a clause that is there only sometimes), a `Reason` (its words), a list or tuple of those (joined
with a space: sentences one after another) or None (nothing: a clause that is not there).

Adding a kind of step sentence: a row here (its code, its words as a format string over its facts),
the call that says it, a ruling or test that shows it (docs/ENGINE.md, "Adding a step's words").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Any

from judge.engine.data.errors import Reason

# code -> words: a format string over the facts (str.format syntax, e.g. "{value:+d}"). The rows are
# grouped by the module that says them; a module's rows stay in its own group.
SAYINGS: dict[str, str] = {
    # --- judge/engine/play/zones.py
    "realm_shatters": "{card} ({slot}) is at 0 HP and shatters: turned face down, it blocks its slot for "
                      "the rest of the duel.",
    # --- judge/engine/play/battle.py
    # --- judge/engine/play/turns.py
    # --- judge/engine/play/placing.py
    # --- judge/engine/play/nonevents.py
    # --- judge/engine/play/consequences.py
    # --- judge/engine/play/effects.py
    "cost_paid_in_full": "{effect}'s cost is paid now, just before it resolves, in full; a paid cost stays "
                         "paid even if the effect then has nothing to do.",
    "payer_captured": "{reason}.",
    "resolve_begins": "{effect} ({controller}), on top of the Cascade, begins to resolve.",
    "caster_still_active": "Its Caster, {caster}, is still active, so {card} resolves (having left the Front "
                           "Line or moved would not matter).",
    "condition_not_checked_again": "{effect}'s condition was checked when it was used; it is not checked "
                                   "again now{now}.",
    "condition_at_this_point": " (at this point {holds})",
    "ambush_resolves_anyway": "{card}'s Ambusher is no longer active ({how}), but an Ambush resolves anyway: "
                              "it fizzles only if its Ambusher went back to the hand.",
    "fizzles": "{effect} fizzles: {reason}.",
    "goes_to_elysium": "{card} goes to {owner}'s Elysium.",
    "if_met": "{effect}: the “If …” is checked now, as this part resolves: {who} meets it.",
    "if_not_met": "{effect}: the “If …” is checked now, as this part resolves: {who} {failed}, so it "
                  "is not met.",
    "unyielding_spot_laid": "{soul} is Unyielding, but {effect} is laid on its Soul Spot without naming the "
                            "Soul, so Unyielding does not protect against it.",
    "slot_effect_laid": "{effect} lays “{what}” on the slot {slot} ({span}): every Soul on it has it while "
                        "it stays there.{alongside}{now_has}",
    "slot_effects_side_by_side": " It runs side by side with {others} on that slot; the one that ends later "
                                 "decides how long the slot is affected.",
    "stats_gained": "{card} gains {what} ({span}) from {effect}.{negated}{now_has}",
    "keyword_granted": "{card} is granted {what} ({span}) from {effect}.{negated}{now_has}",
    "granted_negated_at_once": " But {card} is negated, so the granted {what} is negated at once: granted "
                               "and negated, it does nothing while the negation lasts.",
    "now_has": " {card} now has {values}.",
    "negate_target_gone": "{effect}: the effect it would negate is no longer on the Cascade; that part is "
                          "skipped.",
    "negate_unyielding": "{effect} (rank {rank}) can't negate {victim}: {card} ({slot}, rank {card_rank}) is "
                         "Unyielding against it.",
    "negates": "{effect} negates {victim}: it will not resolve and costs nothing.",
    "enlists": "{player} enlists {card}: shown and taken into the hand; the deck is shuffled.",
    "enlists_nothing": "{effect} enlists: nothing in {player}'s deck matches, so nothing is taken; the deck "
                       "is still shuffled.",
    "instant_card_inactive": "{card} is no longer active, so it does nothing",
    "instant_does_nothing": "{effect} would resolve ({trigger}), but {why}.",
    "instant_resolves": "{effect}, an Instant Effect, resolves at once ({trigger}); it can't be answered.",
    # --- judge/engine/play/cascade.py
    "targeting": ", targeting {targets}{picked}",
    "target_spot": "the spot {slot}",
    "target_spot_held": "the spot {slot} ({card})",
    "first_legal_targets": " (no targets were given, so the first legal choice is taken)",
    "use_counted": " ({limit}: this card's use {turn} this turn, {game} this duel; it counts now, even if it "
                   "later fizzles.)",
    "goes_on_cascade": "{used}{counted} It goes on the Cascade ({depth} entry).",
    "goes_on_cascade_top": "{used}{counted} It goes on the Cascade (top of {depth} entries).",
    "targeted_by": "{card} ({slot}) is targeted by {effect}",
    "leader_label": "{reason}.",
    "first_legal_caster": " (no Caster was given, so the first legal one is taken)",
    "frozen_caster": "; {card} is Frozen, but a Frozen Soul may still cast Events",
    "caster_requirement_met": "; {card} meets the Caster requirement",
    "casts_event": "{player} casts {card} (rank {rank}) through {caster} ({slot}) as its "
                   "Caster{picked}{frozen}{meets}{targets}; it lies on the event slot. Its cost, if any, is "
                   "paid only when it resolves.",
    "condition_holds_at_use": " Its condition is checked now, as it is used, and holds ({holds}).",
    "spiral_does_not_limit": "{reason}, so the Escalation Spiral does not limit {card}'s {effect}.",
    "does_not_reach_it": "{what} (from {source}, rank {rank}) does not reach it",
    "unyielding_keeps_off": "{card} ({slot}) is Unyielding: {kept}.",
    "uses_activated": "{player} uses {card}'s Activated Effect {effect} ({slot}){targets}.{condition}",
    "uses_fast_activated": "{player} uses {card}'s Fast Activated Effect {effect} "
                           "({slot}){targets}.{condition}",
    "ambush_set_by_another": " The Ambush belongs to the slot, so {card}, now on it, springs it though "
                             "another Soul set it.",
    "springing_not_limited": " Springing is not limited by the Escalation Spiral.",
    "ambush_answers": " in answer to {moment} ({now})",
    "springs_ambush": "{player} springs {card} (rank {rank}) at {slot}{answer}: it is turned face up; "
                      "{ambusher} is its Ambusher{targets}.{set_by_other}{not_limited}",
    "uses_offered": "{player} uses {card}'s optional Timing Effect {effect} ({slot}), offered since "
                    "{trigger}{targets}.",
    "trigger_lost": "{card}'s {effect} is lost: {reason}.",
    "trigger_lost_card_gone": "{card}'s {effect} is lost: {card} is no longer active before it goes on the "
                              "Cascade.",
    "turn_player_first": " {player} is the turn player, so their simultaneous triggers are handled first.",
    "after_turn_player": " It comes after {player}'s, the turn player's, which are handled first.",
    "targets_chosen_now": ", its targets chosen now",
    "mandatory_used": "{card}'s mandatory Timing Effect {effect} ({slot}) is used for {player} by the game "
                      "({trigger}){chosen_now}{targets}.{order}",
    "but_no_target": ", but {reason}",
    "optional_offered": "{card}'s optional {effect} ({slot}) is offered to {player} in the window that "
                        "follows; they may use it while they hold priority{no_target}.",
    "opened_by_triggers": "the Timing Effects that triggered",
    "window_opens": "A response window opens after {opened_by}; {player}, the turn player, holds priority "
                    "first.",
    "queued_action_waits": "{player}'s next queued action, {action}, waits: {reason}.",
    "passes": "{player} passes",
    "passes_not_legal": "{player} passes (their next queued action, {action}, is not legal now: {why})",
    "nobody_acts": "Nobody acts",
    "window_passes": "{passes}.",
    "window_closes_passes_over": "{passes}: the window closes, as {over}.",
    "window_closes_over": "The window closes, as {over}.",
    "closed_after_response": "one pass after a response closes it",
    "closed_both_passed": "both players passed in a row",
    "window_closes": "{passes}: the window closes ({why}).",
    # --- judge/engine/play/triggers.py
    "trigger_condition_fails": "{card}'s {effect} does not trigger ({trigger}): {reason}.",
    "trigger_condition_holds": "{trigger}; its condition holds now, at the trigger ({holds})",
    "limit_stops_trigger": "{card}'s {effect} does not trigger ({trigger}): {card}'s {reason}, and a "
                           "triggered effect whose limit is used up does not trigger.",
    "limit_stops_mandatory_trigger": "{card}'s mandatory {effect} does not trigger ({trigger}): {card}'s "
                                     "{reason}, and a triggered effect whose limit is used up does not "
                                     "trigger.",
    "granted_clause": " {grant}.",
    "trigger_granted": "{trigger}{granted}",
    "trigger_waits": " It waits and goes on a new Cascade once this one has resolved.",
    "timing_triggers": "{card}'s {kind} Timing Effect {effect} triggers: {trigger}.{granted}{wait}",
    "inactive_instant_does_nothing": "; an Instant Effect whose card is no longer active does nothing",
    "effects_do_not_trigger": "{card}'s {effects} does not trigger ({trigger}): {reason}{instant}.",
    # --- judge/engine/play/references.py
    "target_remembered_by_slot": "{effect} remembers its target by its slot: {card} now stands on {slot}, so "
                                 "the effect acts on it.",
    "unyielding_kept_off": "{reason}.",
    "captured_one_not_reached": "{effect} acts only on active cards: {cards} (captured) is not reached.",
    "captured_ones_not_reached": "{effect} acts only on active cards: {cards} (captured) are not reached.",
    "part_skipped": "{effect}: {reason}.",
    "unyielding_does_not_protect": "{card} ({slot}) is Unyielding, but {why}.",
    "unyielding_own_controller": "Unyielding does not protect against its own controller's effects",
    "unyielding_outranked": "the source of {effect} has rank {rank}, higher than {card}'s rank {card_rank}, "
                            "so Unyielding does not protect it",
    "unyielding_not_targeted": "the effect neither targets it nor is Static or Instant, so Unyielding does "
                               "not protect against it",
    "answered_caster": "{effect}: “the Caster” is {caster}, the Caster of {event}, the Event it answers.",
    # --- judge/engine/play/game.py
    "duel_ends": "{ending}",
    # --- judge/engine/driver/resolve.py
    "engine_failed": "The engine failed here ({failure}); this ruling is incomplete and must not be relied "
                     "on. Please report the scenario.",
    "at_action": " at action {action}",
    "stopped_out_of_time": "Stopped after {steps} steps{where}: {why}; this ruling is incomplete.",
    "stopped_in_a_loop": "Stopped after {steps} steps{where}: the resolution does not end (a loop): {why}",
    "position_as_given": "Nothing is queued; the position as given, with what the rules derive for its "
                         "active cards. {derived}",
    "position_cards": "{cards}.",
    "printed_values_only": "Every card has its printed values.",
    "position_card": "{card} ({slot}, line {line}): {derived}",
    "keyword_from": "{keyword} from {source}",
    "blocked_by_unyielding": "{what} (from {source}, rank {rank}) does not reach it, as it is Unyielding "
                             "against its opponent's effects of rank {card_rank} or lower",
    "not_legal": "{action} is not legal: {why}.",
    "action_refused": "Action {action} ({player}): {refused}",
}


@dataclass(frozen=True)
class Said:
    """What a step says, as a record: a code of SAYINGS and its facts."""

    code: str
    facts: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in SAYINGS:
            raise KeyError(f"unknown step words {self.code!r}; add a row to SAYINGS")

    @property
    def text(self) -> str:
        return render(self)


def say(code: str, **facts: Any) -> Said:
    return Said(code, facts)


def render(said: Said) -> str:
    """The one place a step's words are made: its code's words, filled from its facts."""
    return SAYINGS[said.code].format_map(_Facts(said.facts))


def fields(code: str) -> set[str]:
    """The facts the words of `code` name (tests check every row against the calls that say it)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in Formatter().parse(SAYINGS[code]) if name}


def words(value: Any) -> Any:
    """A fact as it goes into words: a Said or a Reason as its text, a list of them joined, None as
    nothing; anything else as it is (so format specs like {n:+d} apply)."""
    if isinstance(value, (Said, Reason)):
        return value.text
    if value is None:
        return ""
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (Said, Reason)) for v in value):
        return " ".join(v.text for v in value)
    return value


class _Facts(dict[str, Any]):
    def __init__(self, facts: Mapping[str, Any]) -> None:
        super().__init__({k: words(v) for k, v in facts.items()})

    def __missing__(self, key: str) -> str:
        raise KeyError(f"step words need the fact {key!r}")
