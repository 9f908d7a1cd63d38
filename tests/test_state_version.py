"""The stored state has one door (judge/engine/position/tracked.py): every change to a State, or to
anything it holds, bumps its version, and the board a Game keeps is derived again when it moved.

The strong check: after every step of every library scenario, the board the Game hands out is the
board a fresh derivation of the state gives."""

from __future__ import annotations

import copy

import pytest

from judge import SCENARIOS_DIR
from judge.commands.resolve import is_scenario_file
from judge.engine import load_scenario_file
from judge.engine.driver.resolve import resolve
from judge.engine.play.game import Game
from judge.engine.play.trace import Trace
from judge.engine.position import board as stats
from judge.engine.position.state import Ambush, Armament, Lasting, PlayerState, Soul, State
from judge.engine.position.tracked import TrackedDict, TrackedList, TrackedSet


def _state() -> State:
    return State("A", "combat", 3, {"A": PlayerState.empty(), "B": PlayerState.empty()})


def _changes() -> list[tuple[str, object]]:
    """(what, a change to a state made by `_state()`), one per kind of change the engine makes."""
    def put_soul(s: State) -> None:
        s.players["A"].slots["C3"].soul = Soul(s.new_uid(), "Knight", "A")

    def on_soul(change):  # a change to a Soul already on the field
        def run(s: State) -> None:
            put_soul(s)
            before = s.version
            change(s.players["A"].slots["C3"].soul)
            assert s.version != before
        return run

    lasting = Lasting("gain", {"atk": 5}, 1, None, "permanently", "A", "Banner", None, 1, 3, 9)
    return [
        ("a field", lambda s: setattr(s, "phase", "emplacement")),
        ("a Soul put on a slot", put_soul),
        ("damage on a Soul", on_soul(lambda soul: setattr(soul, "damage", 5))),
        ("an Armament on a Soul", on_soul(lambda soul: setattr(soul, "armament", Armament(7, "Blade")))),
        ("an Armament's field", on_soul(lambda soul: (setattr(soul, "armament", Armament(7, "Blade")),
                                                      setattr(soul.armament, "name", "Axe")))),
        ("a lasting effect appended", lambda s: s.lasting.append(lasting)),
        ("a lasting effect removed", lambda s: (s.lasting.append(lasting), s.lasting.remove(lasting))),
        ("the lasting list replaced", lambda s: setattr(s, "lasting", [lasting])),
        ("a card in hand", lambda s: s.players["B"].hand.append("Knight")),
        ("a pile extended", lambda s: s.players["B"].elysium.extend(["Knight", "Archer"])),
        ("a pile cut", lambda s: (s.players["B"].deck.append("Knight"), s.players["B"].deck.pop())),
        ("a proactive slot", lambda s: s.players["A"].proactive.add("C3")),
        ("an Ambush set", lambda s: s.players["B"].slots["L2"].ambushes.append(Ambush(4, "Snare", "B"))),
        ("a limit used", lambda s: s.used.__setitem__((1, "strike"), [1, 1])),
        ("a limit counted in place", lambda s: (s.used.__setitem__((1, "strike"), [0, 0]),
                                                s.used[(1, "strike")].__setitem__(0, 1))),
        ("a Realm", lambda s: s.players["A"].realms.__setitem__("realm1", None)),
        ("a slot emptied", lambda s: (put_soul(s), setattr(s.players["A"].slots["C3"], "soul", None))),
    ]


@pytest.mark.parametrize(("what", "change"), _changes(), ids=[w for w, _ in _changes()])
def test_every_kind_of_change_bumps_the_version(what, change):
    state = _state()
    before = state.version
    change(state)
    assert state.version != before, f"{what} left the version at {before}"


QUIET_CHANGES = [
    ("a card drawn into hand", lambda s: s.players["A"].hand.append("Knight")),
    ("a deck's unnamed cards", lambda s: setattr(s.players["A"], "deck_hidden", 3)),
    ("a limit used", lambda s: s.used.__setitem__((1, "strike"), [1, 1])),
    ("the phase", lambda s: setattr(s, "phase", "emplacement")),
    ("the event slot", lambda s: setattr(s, "event_slot", "Chains")),
    ("an Ambush set", lambda s: s.players["B"].slots["L2"].ambushes.append(Ambush(4, "Snare", "B"))),
]


@pytest.mark.parametrize(("what", "change"), QUIET_CHANGES, ids=[w for w, _ in QUIET_CHANGES])
def test_what_derived_values_never_read_leaves_the_board_version(what, change):
    state = _state()
    before, board_before = state.version, state.board_version
    change(state)
    assert state.version != before and state.board_version == board_before, what


@pytest.mark.parametrize(("what", "change"), [c for c in _changes() if c[0] not in
                                              {w for w, _ in QUIET_CHANGES} | {"a field", "a pile extended",
                                                                               "a pile cut",
                                                                               "a card in hand",
                                                                               "a limit counted in place"}],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_what_derived_values_read_bumps_the_board_version(what, change):
    state = _state()
    before = state.board_version
    change(state)
    assert state.board_version != before, what


def test_a_part_put_into_the_state_counts_its_later_changes():
    state = _state()
    soul = Soul(state.new_uid(), "Knight", "A")
    soul.armament = Armament(9, "Blade")
    state.players["A"].slots["C3"].soul = soul
    before = state.version
    soul.armament.name = "Axe"       # a change deep inside a part that joined after it was made
    assert state.version != before


def test_containers_become_tracked_and_serialise_as_plain_ones():
    state = _state()
    state.lasting = []
    state.players["A"].hand = ["Knight"]
    assert isinstance(state.lasting, TrackedList)
    assert isinstance(state.players["A"].slots, TrackedDict)
    assert isinstance(state.players["A"].proactive, TrackedSet)
    out = state.to_dict()
    assert type(out["players"]["A"]["hand"]) is list


def test_a_copy_counts_its_own_changes():
    state = _state()
    dup = state.copy()
    before = state.version
    dup.players["A"].hand.append("Knight")
    dup.players["A"].slots["C3"].soul = Soul(dup.new_uid(), "Knight", "A")
    assert state.version == before
    assert state.players["A"].hand == [] and state.players["A"].slots["C3"].soul is None
    assert dup.version != copy.deepcopy(dup).version + 1   # a copy starts where its original stands


def test_the_game_derives_again_after_any_change_and_not_otherwise(monkeypatch):
    state = load_scenario_file(SCENARIOS_DIR / "positions" / "harold-grants-defiance.yaml").state.copy()
    g = Game(state, trace=Trace(), actions=(), verbs=None)  # type: ignore[arg-type]
    calls = []
    real = stats.derive
    monkeypatch.setattr(stats, "derive", lambda s, *rest: calls.append(1) or real(s, *rest))
    first = g.board()
    assert g.board() is first and len(calls) == 1     # nothing changed: the same board
    ref = state.soul_refs()[0]
    state.soul(ref).damage += 5
    second = g.board()
    assert second is not first and len(calls) == 2
    assert second.souls[ref].damage == first.souls[ref].damage + 5
    assert not g.board_is_current(first) and g.board_is_current(second)


def _library() -> list:
    return sorted(p for p in SCENARIOS_DIR.rglob("*.yaml") if is_scenario_file(p))


@pytest.mark.parametrize("path", _library(), ids=lambda p: p.relative_to(SCENARIOS_DIR).as_posix())
def test_the_kept_board_is_the_fresh_one_after_every_step(path):
    """No change to the state escapes the door: after every step the Game's board is the one a fresh
    derivation gives (a change that did not bump the version would leave a stale board here)."""
    stale: list[str] = []

    def observe(g: Game) -> None:
        kept = g.board()
        fresh = stats.derive(g.state)
        if kept.derived() != fresh.derived() or kept.negated != fresh.negated:
            stale.append(f"step {len(g.trace.steps)}: {g.trace.steps[-1].text}")

    resolve(load_scenario_file(path), observe=observe)
    assert not stale, stale[:3]


def _game(path: str) -> Game:
    state = load_scenario_file(SCENARIOS_DIR / path).state.copy()
    g = Game(state, trace=Trace(), actions=(), verbs=None)  # type: ignore[arg-type]
    g.board()
    return g


def test_damage_on_one_soul_derives_that_soul_again_and_shares_the_other_views():
    g = _game("positions/harold-grants-defiance.yaml")
    first = g.board()
    refs = g.state.soul_refs()
    hit = next(r for r in refs if not g.state.known_card(g.state.soul(r).name).effects)
    g.state.soul(hit).damage += 5
    second = g.board()
    assert second is not first
    assert second.souls[hit] is not first.souls[hit]
    assert second.souls[hit].damage == first.souls[hit].damage + 5
    assert all(second.souls[r] is first.souls[r] for r in refs if r != hit)   # patched, not derived whole
    fresh = stats.derive(g.state)
    assert second.derived() == fresh.derived()


def test_a_change_that_reaches_further_derives_the_whole_board():
    g = _game("positions/harold-grants-defiance.yaml")
    first = g.board()
    refs = g.state.soul_refs()
    g.state.soul(refs[-1]).captured = True          # a capture changes lines and what the card gives
    second = g.board()
    assert all(second.souls[r] is not first.souls[r] for r in refs)
    assert second.derived() == stats.derive(g.state).derived()


def _patched_only(g: Game, first: stats.Board, changed: set) -> stats.Board:
    """The Game's board after a change: the views on `changed` derived again, every other one shared,
    and the whole equal to a fresh derivation."""
    second = g.board()
    assert second is not first
    views = {**first.souls, **first.realms}
    again = {ref for ref, view in views.items() if second.view(ref) is not view}
    assert again == changed
    fresh = stats.derive(g.state)
    assert second.derived() == fresh.derived() and second.proactive == fresh.proactive
    return second


def _lasting(kind: str, value: object, to: int | None, on: object = None) -> Lasting:
    return Lasting(kind, value, to, on, "end_of_turn", "A", "Test", None, 1, 3, 99)


def test_a_turn_taken_derives_again_the_souls_the_escalation_spiral_wakes():
    g = _game("positions/spiral-turn-two.yaml")
    first = g.board()
    knight = next(r for r in g.state.soul_refs() if r.slot == "Cr1")
    assert not first.souls[knight].proactive
    g.state.players["A"].turns_taken += 1   # the third turn: every slot below rank 2 may act
    g.state.players["A"].recruits.append("Grey Knight")   # counted for 10.1.1, read by no derived value
    second = _patched_only(g, first, {knight})
    assert second.souls[knight].proactive


def test_recruits_counted_alone_share_the_whole_board():
    g = _game("positions/spiral-turn-two.yaml")
    first = g.board()
    g.state.players["B"].recruits.append("Shade Scout")
    _patched_only(g, first, set())


def test_a_keyword_granted_or_laid_on_one_soul_derives_that_soul_again():
    from judge.engine.data.cards import Keyword

    g = _game("positions/spiral-turn-two.yaml")
    knight, scout = (next(r for r in g.state.soul_refs() if r.slot == s) for s in ("Cr1", "C3"))
    first = g.board()
    g.state.lasting.append(_lasting("grant", Keyword("unyielding"), g.state.soul(knight).uid))
    second = _patched_only(g, first, {knight})
    assert second.has_keyword(knight, "unyielding")
    g.state.lasting.append(_lasting("lay", "frozen", None, scout))     # 13.3.3: on the slot
    third = _patched_only(g, second, {scout})
    assert third.has_keyword(scout, "frozen")
    g.state.lasting = [e for e in g.state.lasting if e.kind != "grant"]   # the list replaced
    fourth = _patched_only(g, third, {knight})
    assert not fourth.has_keyword(knight, "unyielding")


def test_moral_granted_derives_the_whole_board():
    from judge.engine.data.cards import Keyword

    g = _game("positions/spiral-turn-two.yaml")
    first = g.board()
    altar = next(r for r in g.state.soul_refs() if r.slot == "altar" and r.player == "A")
    g.state.lasting.append(_lasting("grant", Keyword("moral", {"atk": 5}), g.state.soul(altar).uid))
    second = g.board()
    assert all(second.souls[r] is not first.souls[r] for r in first.souls)   # an aura: every Soul again
    assert second.derived() == stats.derive(g.state).derived()


def test_damage_on_a_realm_derives_that_realm_again():
    g = _game("positions/harold-grants-defiance.yaml")
    first = g.board()
    realm = g.state.realm_refs()[0]
    g.state.realm(realm).damage += 3
    second = _patched_only(g, first, {realm})
    assert second.realms[realm].hp.total == first.realms[realm].hp.total - 3
