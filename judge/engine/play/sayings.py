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
    "damage_rounded": " ({amount} rounded down to a step of {step})",
    "damage_kind_battle": "battle damage",
    "damage_kind_effect": "damage",
    "damage_no_hp_left": "{card} has no HP left, so the {amount} {kind}{rounding} from {source} does not "
                         "reach it (14.1.4).",
    "damage_dealt": "{card} takes {amount} {kind}{rounding} from {source}{arithmetic}{short}; HP {hp_before} "
                    "→ {hp_after}.",
    "damage_arithmetic": ": {arithmetic}",
    "damage_only_part": " (only {dealt} of {amount}: it had {hp} HP left)",
    "heal_nothing": "{card} has no damage, so healing {amount}{rounding} from {source} does nothing "
                    "(14.2.1).",
    "healed": "{source} heals {healed} damage{rounding} from {card}{short}: damage {before} → {after}.",
    "heal_only_part": " (heal {amount}, but it had only {damage} damage)",
    "captured": "{card} ({slot}) is captured {why}: it is turned face down and stays on its slot "
                "(10.1.3).{armament}",
    "captured_max_hp_fell": "because its maximum HP ({max_hp}) is no higher than its damage ({damage})",
    "captured_at_zero_hp": "at 0 HP (damage {damage}, maximum HP {max_hp})",
    "armament_to_elysium": " Its Armament {armament} goes to the Elysium (10.3.4).",
    "armament_to_hand_too": " Its Armament {armament} goes to the hand too (10.3.4).",
    "lasting_lost": " What lasted on it (even “permanently”) is lost: it lasts only while the card stays on "
                    "the field.",
    "no_win_leader_card": "No win: {reason}.",
    "unequip_no_armament": "{source}: {reason}.",
    "unequipped": "{armament} leaves {card} ({slot}) for {owner}'s Elysium ({source}).{stays}",
    "unequip_stays": " {card} stays and loses the Armament's values.",
    "unequip_stays_max_hp_fell": " {card} stays and loses the Armament's values: maximum HP {before} → "
                                 "{after}, damage {damage}.",
    "leader_stays_rest_happens": "{card} ({slot}) is a Leader and never leaves its altar: {source} leaves it "
                                 "where it is, and the rest of the effect still happens.",
    "leader_stays": "{card} ({slot}) is a Leader and never leaves its altar: {source} leaves it where it is.",
    "returned_to_hand": "{card} ({slot}) returns to {owner}'s hand ({source}).{armament}{lost}",
    "exiled": "{card} ({slot}) is exiled ({source}); its slot is free again.{captured}{armament}{lost}",
    "exile_reaches_captured": " (The effect asks for a captured Soul, so it reaches one.)",
    "teleport_no_active_soul": "no active Soul stands on {slot}",
    "teleport_leader": "{card} is a Leader and never leaves its altar",
    "teleport_not_own_slot": "{dest} is not one of {player}'s soul slots",
    "teleport_not_empty": "{dest} is not empty",
    "teleport_wrong_rank": "{dest} is a rank-{dest_rank} slot and {card} is rank {rank} (exactly its "
                           "rank)",
    "teleport_own_underling": "{dest} hangs directly under {card}'s own slot",
    "teleport_no_active_parent": "{dest} does not hang directly under a slot holding an active Soul, so "
                                 "nothing could be recruited there",
    "teleport_under_frozen": "{dest} is under the Frozen {frozen}",
    "teleport_refused": "{source} can't teleport {card} to {dest}: {problem}; that part is skipped "
                        "(11.6.3).",
    "teleported": "{card} is teleported from {slot} to {dest} ({source}); it stays on the field and keeps "
                  "everything.{armament}{ambushes}",
    "teleport_armament_moves": " Its Armament {armament} moves with it (10.3.4).",
    "teleport_ambushes_stay": " The Ambushes set at its old slot stay there (10.4.4).",
    "deck_empty_no_draw": "{player}'s deck is empty, so {player} draws no{more} card ({why}): drawing from "
                          "an empty deck does nothing.",
    "draw_more": " {count} more",
    "drew_one": "{player} draws 1 card ({why}): {cards}.",
    "drew_cards": "{player} draws {count} cards ({why}): {cards}.",
    "discarded": "{player} discards {cards} ({why}){chosen}.",
    "discard_no_choice": " (no choice was given, so the first cards in the hand are taken)",
    "captured_instant_idle": "{card}'s {effect} waits for {card} ({slot}) to be captured, but then {card} is "
                             "no longer active: an Instant Effect whose card is no longer active does "
                             "nothing.",
    "captured_timing_lost": "{card}'s {effect} waits for {card} ({slot}) to be captured, but then {card} is "
                            "no longer active: a Timing Effect whose card is no longer active before it goes "
                            "on the Cascade is lost.",
    # --- judge/engine/play/battle.py
    "attack_declared": "{card} ({slot}) attacks {target} (attack {count} this Combat Phase{dual}).{notes}",
    "attack_dual_wielding": ", allowed by Dual Wielding{instances}",
    "attack_dual_two_instances": "; two instances still allow two",
    "attack_notes": " {notes}",
    "attack_target_front_line": "{card} stands in the Front Line.",
    "attack_ignores_taunt": "{card} is Unyielding against the Taunt of {taunter} (rank {rank}) and ignores "
                            "it.",
    "attack_with_range": "{card} attacks from the Second Line with Range.",
    "attack_taunt_checked_now": "Taunt is checked now, at the declaration, and only now.",
    "attack_check_passes": "Check: {card} may still fight {target}; the fight begins.",
    "attack_cancelled": "The attack of {card} is cancelled before the fight: {problem}. A cancelled attack "
                        "does not count (the glossary says so under Dual Wielding).",
    "check_attacker_inactive": "the attacker is no longer active",
    "check_attacker_restricted": "{card} {still}",
    "check_beyond_reach": "{card} now stands in line {line}, beyond its reach ({reach})",
    "reach_second_line": "the Second Line with Range",
    "reach_front_line": "the Front Line",
    "check_target_changed": "the Attack Target is no longer the same card on {slot}",
    "check_target_inactive": "{card} ({slot}) is no longer active",
    "check_target_left_front_line": "{card} ({slot}) has left the Front Line (line {line})",
    "check_target_guarded": "{card} ({slot}) {still}",
    "battled_itself": "{card} battled itself: it can never trigger its own Berserk.",
    "berserk_attacker_captured_too": "{card} was captured in the same step as its target, so it is no longer "
                                     "active: its Berserk does not trigger (only active cards' effects "
                                     "trigger).",
    "attack_source": "{card}'s attack",
    "battle_source": "{card} in the battle",
    "attack_arithmetic": "{atk} − {def_} = {raw}{floor}{rounding}",
    "attack_arithmetic_precision": "{atk}, Precision ignores {def_}{rounding}",
    "arithmetic_never_below_0": ", never below 0",
    "arithmetic_rounded_down": ", rounded down to a step of {step}: {amount}",
    "defiance_stopped_by_unyielding": "{card}'s Defiance {amount} (from {source}, rank {source_rank}) does "
                                      "nothing to {attacker} ({slot}, rank {rank}, Unyielding).",
    "defiance_source": "{card}'s Defiance (from {source}, rank {source_rank}), an Instant Effect",
    "defiance_arithmetic": "effect damage, not battle damage, dealt at the same moment as the attack "
                           "damage{each}{mid}",
    "defiance_each_instance": ", each instance dealing its own",
    "defiance_mid_effect": ", in the middle of the effect that started the battle",
    "defiance_reaches_unyielding": "{card} ({slot}, rank {rank}) is Unyielding, but the Defiance from rank "
                                   "{source_rank} is of a higher rank, so it reaches it.",
    "counterblow_source": "{card}'s counterblow (a Realm strikes back with its ATK)",
    "counterblow_arithmetic": "ATK {atk} − DEF {def_} = {raw}{floor}{rounding}, at the same moment as "
                              "{against} (the amount and its being battle damage are our reading: 9.4.4 is "
                              "absent)",
    "counterblow_against_attack": "the attack damage",
    "counterblow_against_battle": "{card}'s damage",
    "capture_step": "Capture step: what the fight brought to 0 HP is captured now, not before.",
    "berserk_defiance_capture": "{card}'s Defiance captured the attacker: that is no capture in battle for "
                                "{card}, so its Berserk does not trigger.",
    "berserk_battle_not_attack": "{card}'s battle was not an attack, so it captured no Soul it attacked: its "
                                 "Berserk does not trigger.",
    "unyielding_not_against_battle": "{card} is Unyielding, but battle damage is not an effect: Unyielding "
                                     "does not protect against it.",
    "aura_not_to_itself": "{card}'s aura gives to its controller's other Souls, not to {card} itself.",
    "aura_not_to_realm": "{givers} gives to its controller's Souls; that reaches Souls only, not {realm}, a "
                         "Realm.",
    "negated_gives_nothing": "The effects of {card} are negated by an effect in force, so what it would give "
                             "is stopped for as long as that lasts.",
    "berserk_captured": "{card} ({slot}) captured the Soul it attacked",
    "berserk_negated": "{card}'s {keyword} does not trigger ({captured}): {reason}.",
    "berserk_triggers": "Berserk triggers: {captured} with the attack damage in the capture step.{granted}",
    "berserk_granted": " {grant}.",
    "battle_part_soul_gone": "{effect}: the battle can't happen, a Soul it names is no longer active; the "
                             "part is skipped.",
    "battle_by_effect_no_soul": "{effect}: only an active Soul can battle, so there is no battle.",
    "battle_by_effect_restricted": "{card} ({slot}) is {restriction}, so it does not battle in a battle that "
                                   "counts as an attack.",
    "battle_by_effect": "{effect} starts a battle: {card} ({slot}) battles {target}. It begins at the fight "
                        "and uses up no attack; {kind}.",
    "battle_counts_as_attack": "it counts as an attack{defiance}",
    "battle_defiance_triggers": ", so {card}'s Defiance triggers",
    "battle_not_an_attack": "it is not an attack{defiance}",
    "battle_defiance_idle": ", so Defiance does not trigger",
    "battles_itself": "{card} ({slot}) battles itself: it can never trigger its own Berserk.",
    "on_attacks": "{card} ({slot}) attacks",
    "on_attacked": "{card} ({slot}) is attacked",
    "on_attacked_by_itself": "{card} ({slot}) is attacked (by itself)",
    "on_captured": "{card} ({slot}) is captured",
    "on_battled": "{card} ({slot}) has battled{how}",
    "battled_but_captured": ", but was captured in it",
    "window_after_declaration": "the attack declaration of {card} ({slot})",
    "window_after_battle": "the Timing Effects triggered after the battle",
    # --- judge/engine/play/turns.py
    "phase_ends": "{player} ends the {ended} Phase; the {begins} Phase begins.",
    "setup_round_ends": "Setup: Player {player} ends recruiting round {round} of {rounds}; Player {next}'s "
                        "recruiting round {next_round} of {next_rounds} begins.",
    "setup_ends": "Setup: Player {player} ends recruiting round {round} of {rounds}, the last before the "
                  "first turn; setup is over and Player {first} takes the first turn.",
    "turn_ends": "{player} ends the Emplacement Phase, and with it turn {turn}.",
    "lasting_ends": "{source}'s effect on {on} ({until}) ends with turn {turn}.",
    "lasting_on_slot": "the slot {slot}",
    "lasting_on_card_gone": "a card that left",
    "turn_begins": "Turn {turn} begins: {player} is the turn player (their turn {count}); the Preparation "
                   "Phase begins.",
    "decked_out_begins": "{player}'s deck is empty at the start of their Preparation Phase: {player} is "
                         "Decked Out and loses at the end of their {ordinal} turn counted from this one.",
    "decked_out_turn": "{player} is Decked Out: this is their turn {turn} of {turns} counted from then.",
    "decked_out_stays": "{player} stays Decked Out for the rest of the duel, though their deck is no longer "
                        "empty: this is their turn {turn} of {turns} counted from then.",
    "draw_of_preparation": "the draw that begins the Preparation Phase",
    "spiral_wakes": "Escalation Spiral: {player} wakes the rank-{rank} slot {slot}, which becomes proactive "
                    "(no choice was given, so the first rank-{rank} slot is taken); every slot of a lower "
                    "rank is awake.",
    # --- judge/engine/play/placing.py
    "recruited": "{player} recruits {card} (rank {rank}) onto {slot}. It is active at once{statics}; a card "
                 "put on the field is a new card.",
    "recruit_statics_apply": ", and its Static Effects apply from now",
    "on_recruited": "{card} ({slot}) is recruited",
    "window_after_recruit": "the recruit of {card}, whose Timing Effects triggered",
    "equipped": "{player} equips {card} to {wielder} ({slot}); its values add to the Wielder's (equipping is "
                "not an effect and can't be answered). {wielder} now has {values}.",
    "invoked": "{player} invokes {card} (rank {rank}) onto {slot}, a rank-{slot_rank} realm slot, at least "
               "the Realm's rank; Realms belong to no Soul and are not limited by the Escalation Spiral.",
    "ambush_set": "{player} sets an Ambush face down at {slot}; {setter} is its Setter. Setting is not an "
                  "effect and can't be answered.{more}",
    "ambushes_share_slot": " {count} Ambushes now lie at this slot: an Ambush belongs to the slot, and a new "
                           "Soul there may set its own.",
    # --- judge/engine/play/nonevents.py
    "taunt_does_not_protect": "The Taunt of {taunter} (rank {taunter_rank}) does not protect {target}: the "
                              "Attack Target has Taunt itself and its own rank, {rank}, is at least the "
                              "Taunt Soul's, so it can be attacked.",
    "defiance_of_attacker": "{card}'s Defiance does not trigger: Defiance triggers when its Soul is "
                            "attacked, and {card} ({slot}) is the one that {role}.{counterblow}",
    "role_attacks": "attacks",
    "role_battles": "battles",
    "defiance_not_on_counterblow": " A Realm's counterblow does not trigger it either.",
    "berserk_not_taken": "{card}'s Berserk does not trigger: {why}.",
    "berserk_target_realm": "it attacked {target}, a Realm, which shatters and is not a Soul that can be "
                            "captured",
    "berserk_target_not_captured": "its attack did not capture {target}{left}",
    "hp_left": " ({hp} HP left)",
    "berserk_not_by_attack_damage": "{target} was captured, but the attack damage ({dealt}) did not bring it "
                                    "to 0 HP from {hp}: only a capture by the attack damage itself counts",
    "taunt_idle": "{reason}.",
    # --- judge/engine/play/consequences.py
    "consequence_reason": "Because of step {step}: {reason}.",
    "consequence_values": "Because of step {step}: {change}",
    "values_changed": "{card} ({slot}){arrives}{values}{why}.",
    "card_arrives": " arrives",
    "values_list": ": {values}",
    "value_changed": "{value} {before} → {after}",
    "because_list": " — {why}",
    "contribution_ends_card_gone": "{label} ({amounts}) ends: its card is no longer active",
    "contribution_stops_negated": "{label} ({amounts}) stops: its card is negated",
    "contribution_stays_with_slot": "{label} ({amounts}) stays with the slot {slot} it was laid on",
    "contribution_ends": "{label} ({amounts}) ends",
    "contribution_armament_gone": "{label} ({amounts}) no longer adds to it",
    "contribution_moral_gone": "{label} ({amounts}) no longer reaches it: it is no longer an Underling of "
                               "that Soul",
    "contribution_no_longer_applies": "{label} ({amounts}) no longer applies to it{why}",
    "condition_no_longer_holds": ": its condition no longer holds ({condition})",
    "no_longer_named": ": it is no longer among the Souls the effect names",
    "contribution_comes": "{label} ({amounts}) {verb}",
    "amount_plus": "+{amount} {value}",
    "amount_minus": "−{amount} {value}",
    "applies_to_it": "applies to it",
    "applies_to_soul_now_on": "applies to the Soul now on {slot}",
    "reaches_it_as_it_arrives": "reaches it as it arrives",
    "applies_from_now": "applies from now",
    "applies_condition_holds": "applies to it: its condition holds now ({condition})",
    "unyielding_reached": "{card} is Unyielding (rank {rank}), but {source} is of rank {source_rank}, "
                          "higher, so it reaches it",
    "keyword_stays_with_slot": "loses {keyword} from {source}: it stays with the slot {slot}, and the Soul "
                               "left it",
    "keyword_lost": "loses {keyword} from {source}{why}",
    "keyword_card_gone": ": its card is no longer active",
    "keyword_card_negated": ": its card is negated",
    "keyword_effect_ends": ": that effect ends",
    "keyword_gained": "gains {keyword} from {source}{slot}",
    "keyword_applies_to_new_soul": ", which applies to the Soul now on it",
    "negated_now": "it is negated{by}: its effects, printed and granted, stop working{lost}",
    "negated_by": " by {negators}",
    "negated_keywords_included": " ({keywords} included)",
    "negation_void": "it is no longer negated: {void}, which negated it, is itself negated by {newer}, "
                     "newer, and a negated card negates nothing (the newer negation wins)",
    "a_newer_effect": "a newer effect",
    "negation_ended": "it is no longer negated: the effect that negated it no longer applies",
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
    "the_cost_of": "the cost of {effect}",
    "paying_the_cost_of": "paying the cost of {effect}",
    "captured_by_effect": "by {effect}",
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
    # --- judge/engine/driver/verbs.py
    "window_after_cast": "{card} went on the Cascade",
    "window_after_answer": "a new entry on the Cascade",
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
