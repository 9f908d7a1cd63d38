"""Small test cards and a builder for scenario mappings, shared by the tests/test_engine_*.py modules.

The cards are the tests' own (scenario `cards:`), so the tests never wait for the card library.
"""

from __future__ import annotations

import copy
from typing import Any

from judge.engine.data import yamlio
from judge.engine.driver.scenario import Scenario, load_scenario

CARDS: list[dict[str, Any]] = yamlio.safe_load("""
- {name: Test Queen, type: soul, rank: 3, attribute: light, leader: true, atk: 20, def: 10, hp: 50}
- {name: Test King, type: soul, rank: 3, attribute: dark, leader: true, atk: 20, def: 10, hp: 50}
- {name: Test Heir, type: soul, rank: 3, attribute: dark, leader: true, atk: 15, def: 5, hp: 40}
- {name: Grunt, type: soul, rank: 0, attribute: light, atk: 10, def: 0, hp: 20}
- {name: Shade, type: soul, rank: 0, attribute: dark, atk: 10, def: 5, hp: 15}
- {name: Squire, type: soul, rank: 1, attribute: light, atk: 15, def: 5, hp: 25}
- {name: Knight, type: soul, rank: 2, attribute: light, atk: 20, def: 10, hp: 35}
- {name: Warlord, type: soul, rank: 3, attribute: dark, atk: 30, def: 10, hp: 45}
- name: Test Harold
  type: soul
  rank: 1
  attribute: light
  atk: 15
  def: 5
  hp: 30
  text: "Your other Souls gain Defiance 5."
  effects:
    - {kind: static, grant: {defiance: 5}, to: other_own_souls}
- {name: Test Noah, type: soul, rank: 2, attribute: dark, atk: 15, def: 5, hp: 40, keywords: [unyielding]}
- {name: Captain, type: soul, rank: 2, attribute: light, atk: 15, def: 5, hp: 30,
   keywords: [{moral: {atk: 5, def: 5}}]}
- {name: Bannerman, type: soul, rank: 1, attribute: light, atk: 10, def: 5, hp: 25,
   keywords: [{moral: {hp: 10}}]}
- {name: Archer, type: soul, rank: 1, attribute: light, atk: 15, def: 0, hp: 20, keywords: [range]}
- {name: Twinblade, type: soul, rank: 1, attribute: dark, atk: 15, def: 0, hp: 20, keywords: [dual_wielding]}
- {name: Wall, type: soul, rank: 1, attribute: light, atk: 5, def: 15, hp: 30, keywords: [taunt]}
- {name: Big Wall, type: soul, rank: 2, attribute: dark, atk: 5, def: 15, hp: 40, keywords: [taunt]}
- {name: Ice Statue, type: soul, rank: 1, attribute: dark, atk: 10, def: 10, hp: 25, keywords: [frozen]}
- name: Medic
  type: soul
  rank: 1
  attribute: light
  atk: 10
  def: 5
  hp: 25
  effects:
    - name: Field Dressing
      kind: activated
      limit: "1/Turn"
      condition: {line: {max: 2}}
      targets: [{soul: own, lines: any}]
      do: [{heal: 10, to: target}]
- name: Quick Medic
  type: soul
  rank: 0
  attribute: light
  atk: 5
  def: 0
  hp: 15
  effects:
    - name: Quick Patch
      kind: activated
      fast: true
      limit: "2/Game, 1/Turn"
      targets: [{soul: own}]
      do: [{heal: 5, to: target}]
- name: Recruiter
  type: soul
  rank: 1
  attribute: dark
  atk: 10
  def: 5
  hp: 20
  keywords:
    - reinforcement: {targets: [{soul: opposing}], do: [{damage: 5, to: target}]}
- name: Negator
  type: soul
  rank: 2
  attribute: dark
  atk: 10
  def: 5
  hp: 30
  effects:
    - {kind: static, negate: all_opposing_souls}
- {name: Iron Blade, type: armament, rank: 1, atk: 10, def: 0, hp: 5}
- {name: Great Shield, type: armament, rank: 2, def: 10, hp: 10, keywords: [taunt]}
- {name: Chains, type: event, rank: 0,
   effects: [{kind: activated, targets: [{soul: opposing}], do: [{capture: target}]}]}
- name: Wormhole
  type: event
  rank: 2
  effects:
    - kind: activated
      targets: [{spot: opposing, naming: front}]
      cost: [{discard: 1}]
      do: [{return: target}]
- name: Dark Rite
  type: event
  rank: 1
  caster: {attribute: dark}
  effects:
    - {kind: activated, targets: [{soul: any, lines: any}], do: [{damage: 10, to: target}]}
- name: Grave Call
  type: event
  rank: 1
  effects:
    - {kind: activated, targets: [{soul: own, lines: any, captured: true}], do: [{exile: target}]}
- name: Blizzard
  type: event
  rank: 2
  effects:
    - {kind: activated, targets: [{spot: opposing}],
       do: [{lay: frozen, on: target, until: end_of_opponents_next_turn}]}
- name: Snare
  type: ambush
  rank: 1
  effects:
    - {kind: activated, fast: true, targets: [{soul: opposing}], do: [{damage: 10, to: target}]}
- name: Counter Snare
  type: ambush
  rank: 2
  ambusher: {attribute: dark}
  effects:
    - {kind: timing, trigger: targeted, do: [{negate: triggering_effect}]}
- {name: Temple, type: realm, rank: 1, atk: 10, def: 0, hp: 30}
- {name: Fortress, type: realm, rank: 3, atk: 20, def: 10, hp: 60}
""")


def base(**players: dict) -> dict[str, Any]:
    """A scenario mapping with both Leaders on their altars; `A=` / `B=` update the players."""
    data: dict[str, Any] = {
        "id": "test",
        "cards": copy.deepcopy(CARDS),
        "state": {
            "turn_player": "A",
            "phase": "preparation",
            "players": {
                "A": {"field": {"altar": "Test Queen"}},
                "B": {"field": {"altar": "Test King"}},
            },
        },
        "actions": [],
    }
    for p, extra in players.items():
        pdata = data["state"]["players"][p]
        extra = copy.deepcopy(extra)
        pdata["field"].update(extra.pop("field", {}))
        pdata.update(extra)
    return data


def build(data: dict[str, Any] | None = None, **players: dict) -> Scenario:
    return load_scenario(data if data is not None else base(**players))


def position(phase: str = "preparation", turn_player: str = "A", lasting: list | None = None,
             used: list | None = None, **players: dict) -> Scenario:
    data = base(**players)
    data["state"]["phase"] = phase
    data["state"]["turn_player"] = turn_player
    if lasting:
        data["state"]["lasting"] = lasting
    if used:
        data["state"]["used"] = used
    return load_scenario(data)


def check(action: dict, window=None, **kwargs) -> list:
    """The violations of one action (a contract §4 dict) in the position built from kwargs."""
    from judge.engine.driver import verbs

    scenario = position(**kwargs)
    return verbs.verify(scenario.state, verbs.action_of(action), window)


def cited(violations) -> set[str]:
    return {rule for v in violations for rule in v.rules}
