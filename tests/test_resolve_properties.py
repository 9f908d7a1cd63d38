"""Never wrong quietly: generated legal positions, random legal action queues (each action drawn
from `legal_actions` in the position the queue so far reaches), and invariants checked after
every step of the resolution:

- nothing raises;
- no card is lost or duplicated across all zones (field, Armaments, Ambushes, Realms, hand, deck,
  Elysium, Exile, the event slot, Ambushes in flight);
- damage comes in steps of 5; Leaders stay on their altars;
- every cited rule id exists in the Codex;
- the board the game keeps for the state's version is the one a fresh derivation gives;
- at the end of each queued action (when the game has captured what it must), no active Soul has
  more damage than its maximum HP.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.codex import load_codex
from judge.engine import PLAYERS, load_field
from judge.engine.driver.resolve import extend_with_legal, resolve
from judge.engine.driver.scenario import Scenario, load_scenario
from judge.engine.play.game import Game
from judge.engine.position.board import derive

LEADERS = {"A": "Queen Sol", "B": "King Umbra"}
CARDS = [
    {"name": "Queen Sol", "type": "soul", "rank": 3, "attribute": "light", "leader": True, "atk": 20,
     "def": 10,
     "hp": 50},
    {"name": "King Umbra", "type": "soul", "rank": 3, "attribute": "dark", "leader": True, "atk": 20,
     "def": 10,
     "hp": 50, "keywords": [{"defiance": 5}]},
    {"name": "Knight", "type": "soul", "rank": 2, "attribute": "light", "atk": 25, "def": 5, "hp": 30,
     "keywords": [{"berserk": [{"gain": {"atk": 5}, "to": "self", "until": "permanently"}]}]},
    {"name": "Thorn", "type": "soul", "rank": 1, "attribute": "dark", "atk": 10, "def": 5, "hp": 20,
     "keywords": [{"defiance": 10}]},
    {"name": "Archer", "type": "soul", "rank": 1, "attribute": "light", "atk": 15, "def": 0, "hp": 15,
     "keywords": ["range", "precision"]},
    {"name": "Twin", "type": "soul", "rank": 2, "attribute": "dark", "atk": 15, "def": 5, "hp": 25,
     "keywords": ["dual_wielding"]},
    {"name": "Warden", "type": "soul", "rank": 2, "attribute": "dark", "atk": 10, "def": 10, "hp": 30,
     "keywords": ["unyielding", "taunt"]},
    {"name": "Banner", "type": "soul", "rank": 0, "attribute": "light", "atk": 5, "def": 0, "hp": 10,
     "effects": [{"kind": "static", "gain": {"hp": 10}, "to": "other_own_souls"}]},
    {"name": "Medic", "type": "soul", "rank": 1, "attribute": "light", "atk": 5, "def": 5, "hp": 15,
     "keywords": [{"reinforcement": {"targets": [{"soul": "own", "lines": "any"}],
                                     "do": [{"heal": 10, "to": "target"}]}}],
     "effects": [{"name": "Mend", "kind": "activated", "fast": True, "limit": "1/Turn",
                  "targets": [{"soul": "own", "lines": "any"}], "do": [{"heal": 5, "to": "target"}]}]},
    {"name": "Zealot", "type": "soul", "rank": 0, "attribute": "dark", "atk": 10, "def": 0, "hp": 10,
     "effects": [{"name": "Burn", "kind": "activated", "cost": [{"pay_hp": 5, "by": "self"}],
                  "targets": [{"soul": "opposing"}], "do": [{"damage": 10, "to": "target"}]},
                 {"name": "Spite", "kind": "timing", "trigger": "attacked", "mandatory": True,
                  "do": [{"damage": 5, "to": "attacker"}]}]},
    {"name": "Spark", "type": "event", "rank": 0,
     "effects": [{"kind": "activated", "targets": [{"soul": "opposing"}],
                  "do": [{"damage": 10, "to": "target"}]}]},
    {"name": "Wormhole", "type": "event", "rank": 2,
     "effects": [{"kind": "activated", "targets": [{"spot": "opposing", "naming": "front"}],
                  "cost": [{"discard": 1}],
                  "do": [{"if": {"hp_at_most_half": True, "of": "target"},
                          "then": [{"return": "target"}]}]}]},
    {"name": "Blizzard", "type": "event", "rank": 1,
     "effects": [{"kind": "activated", "targets": [{"spot": "opposing"}],
                  "do": [{"lay": "frozen", "on": "target", "until": "end_of_opponents_next_turn"}]}]},
    {"name": "Duel", "type": "event", "rank": 1,
     "effects": [{"kind": "activated", "targets": [{"soul": "opposing"}],
                  "do": [{"battle": {"attacker": "caster", "target": "target", "counts_as_attack": True}},
                         {"draw": 1}]}]},
    {"name": "Snare", "type": "ambush", "rank": 0,
     "effects": [{"kind": "activated", "fast": True, "targets": [{"soul": "opposing"}],
                  "do": [{"damage": 10, "to": "target"}]}]},
    {"name": "Stolen", "type": "ambush", "rank": 1,
     "effects": [{"kind": "timing", "fast": True, "trigger": "targeted",
                  "do": [{"negate": "triggering_effect"}]}]},
    {"name": "Blade", "type": "armament", "rank": 0, "atk": 5, "hp": 5},
    {"name": "Temple", "type": "realm", "rank": 1, "atk": 10, "def": 5, "hp": 20},
]
BY_NAME = {c["name"]: c for c in CARDS}
SOULS = [c["name"] for c in CARDS if c["type"] == "soul" and not c.get("leader")]
HAND_CARDS = [c["name"] for c in CARDS if not c.get("leader")]
AMBUSHES = [c["name"] for c in CARDS if c["type"] == "ambush"]


@st.composite
def positions(draw) -> dict:
    fld = load_field()
    players = {}
    for p in PLAYERS:
        field: dict = {"altar": {"card": LEADERS[p], "damage": draw(st.sampled_from([0, 10, 25]))}}
        occupied = {"altar"}
        for slot in fld.slots:
            if slot == "altar" or fld.parent(slot) not in occupied or not draw(st.booleans()):
                continue
            options = [n for n in SOULS if BY_NAME[n]["rank"] <= fld.rank(slot)]
            name = draw(st.sampled_from(options))
            hp = BY_NAME[name]["hp"]
            entry = {"card": name, "damage": draw(st.sampled_from([d for d in (0, 5, 10) if d < hp]))}
            if draw(st.integers(0, 4)) == 0:
                entry["armament"] = "Blade"
            if draw(st.integers(0, 3)) == 0:
                fitting = [a for a in AMBUSHES if BY_NAME[a]["rank"] <= fld.rank(slot)]
                entry["ambushes"] = [{"card": draw(st.sampled_from(fitting))}]
            field[slot] = entry
            occupied.add(slot)
        player = {"field": field, "hand": draw(st.lists(st.sampled_from(HAND_CARDS), max_size=4)),
                  "deck": draw(st.integers(0, 3))}
        if draw(st.booleans()):
            player["realms"] = {"realm1": "Temple"}
        players[p] = player
    return {"cards": CARDS, "state": {"turn_player": draw(st.sampled_from(PLAYERS)),
                                      "phase": draw(st.sampled_from(["preparation", "combat"])),
                                      "players": players}}


def count_cards(g: Game) -> int:
    state = g.state
    total = 0
    for p in PLAYERS:
        ps = state.players[p]
        for slot in ps.slots.values():
            total += len(slot.ambushes)
            if slot.soul is not None:
                total += 1 + (slot.soul.armament is not None)
        total += sum(1 for r in ps.realms.values() if r is not None)
        total += ps.hand_count + ps.deck_count + len(ps.elysium) + len(ps.exile) + g.unnamed_discards[p]
    total += 1 if state.event_slot else 0
    total += len(g.in_flight)
    return total


def queue(data, scenario: Scenario, length: int) -> Scenario:
    return extend_with_legal(scenario, length, lambda legal: data.draw(st.sampled_from(legal)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), length=st.integers(1, 8), data=st.data())
def test_random_legal_play_keeps_the_invariants(position, length, data):
    scenario = queue(data, load_scenario(position, source="generated"), length)
    codex = load_codex()
    start = None
    seen_positions: list[int] = []

    def observe(g: Game) -> None:
        nonlocal start
        total = count_cards(g)
        if start is None:
            start = total
        assert total == start, f"cards {start} -> {total} after: {g.trace.steps[-1].text}"
        for p in PLAYERS:
            leader = g.state.players[p].slots["altar"].soul
            assert leader is not None and g.state.card(leader.name).leader, f"{p}'s Leader left its altar"
            for slot in g.state.players[p].slots.values():
                if slot.soul is not None:
                    assert slot.soul.damage % 5 == 0, f"damage {slot.soul.damage} is not a step of 5"
        step = g.trace.steps[-1]
        fresh = derive(g.state)   # the board kept for the state's version is the one it derives now
        assert g.board().derived() == fresh.derived() and g.board().negated == fresh.negated, \
            f"a stale board after: {step.text}"
        unknown = [r for r in step.rules if not codex.knows(r)]
        assert not unknown, f"unknown rule ids {unknown} in: {step.text}"
        if g.pos not in seen_positions and not g.window_open and not g.cascade and not g.in_fight:
            seen_positions.append(g.pos)
            for ref, view in g.board().souls.items():
                if not view.captured:
                    assert view.damage <= view.max_hp.total or view.hp.total > 0 or g.state.winner, \
                        f"{ref} has {view.damage} damage over a maximum HP of {view.max_hp.total}"

    ruling = resolve(scenario, observe=observe)
    assert ruling["rejected"] is None, f"a legal action was rejected: {ruling['rejected']}"
    assert not ruling.get("loop")
    assert "error" not in ruling, ruling.get("error")
    # the final state is loadable as a new scenario's state (contract §5)
    again = load_scenario({"cards": CARDS, "state": ruling["final"]}, source="final")
    assert again.state.to_dict() == ruling["final"]
    for ref, view in resolve(again)["derived"].items():
        if not view.get("captured") and "shattered" not in view:
            assert view["damage"] <= view["max_hp"], f"{ref}: damage above maximum HP at the end"
