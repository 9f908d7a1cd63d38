"""What the desk's custom-card form offers for each card type: the effect kinds, triggers and references
a card of that type can have (contract §3), and who pays an HP cost. One table, read by the form
(static/js/desk-custom.js) through /desk/vocabulary.json; nothing is offered that the type can't have
(an Ambush has no Caster; an Event has no trigger), so what the form writes always loads.

The library's own cards bear it out: Souls have activated, timing and static effects on every trigger;
Events are activated (cast) and act on their targets, their Caster and whole sides; Ambushes are
activated or triggered by their Ambusher being attacked or targeted, and act on their Ambusher, the
attacker and the triggering effect; Realms and Armaments are activated or static.
"""

from __future__ import annotations

from typing import Any

from judge.engine import TRIGGER_WORDS

SIDES = ["all_opposing_souls", "all_own_souls", "other_own_souls"]

CARD_FORM: dict[str, dict[str, Any]] = {
    "soul": {"kinds": ["activated", "timing", "static", "instant"], "fast": "choice",
             "triggers": list(TRIGGER_WORDS),
             "refs": ["target", "self", "attacker", "attacked", "triggering_effect", *SIDES, "underlings"],
             "payer": "self"},
    "event": {"kinds": ["activated"], "fast": "choice", "triggers": [],
              "refs": ["target", "caster", *SIDES], "payer": "caster"},
    "ambush": {"kinds": ["activated", "timing"], "fast": "always", "triggers": ["attacked", "targeted"],
               "trigger_words": {"attacked": "when the Ambusher is attacked",
                                 "targeted": "when the Ambusher is targeted by an opposing effect"},
               "refs": ["target", "ambusher", "attacker", "attacked", "triggering_effect", *SIDES],
               "payer": "ambusher"},
    "armament": {"kinds": ["activated", "static"], "fast": "choice", "triggers": [],
                 "refs": ["target", "wielder", *SIDES], "payer": "self"},
    "realm": {"kinds": ["activated", "static"], "fast": "choice", "triggers": [],
              "refs": ["target", *SIDES], "payer": "self"},
}

# A keyword granted by an effect, with the value the form gives it from the effect's amount (N) and stat:
# the shapes of §3's keyword table, the valued ones as the library's cards print them.
GRANTS = {
    "defiance": "Defiance N",
    "moral": "Moral +N (the stat chosen)",
    "berserk": "Berserk: this Soul gains N ATK permanently",
    "reinforcement": "Reinforcement: heal N damage from one of your Souls",
}
