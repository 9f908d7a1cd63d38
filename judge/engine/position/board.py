"""Derived values: ATK, DEF, max HP and current HP with every contribution listed, keywords in
force with their sources, negation (13.5.2) and Unyielding against Static Effects (13.6.1).

    board = derive(state)            # everything at once, for one state
    view = board.souls[SlotRef("A", "C3")]
    view.atk.total, view.atk.contributions
    view.keywords                     # KeywordSource records: keyword, source, rank, controller
    board.unyielding_against(ref, source_rank=1, source_controller="B")
    board.derived()                   # the contract's §5 `derived` dict

Nothing here is stored: a Board is computed from the State on request and thrown away; the Game keeps
the one of its state's board_version, and after a change that touches only some Souls it derives those
again and shares the other views (`derive(state, before, changes)`, Board.patched).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.engine.data import budget
from judge.engine.data.cards import STAT_KEYS, CardDef, Keyword
from judge.engine.data.keywords import MORAL, UNYIELDING
from judge.engine.position import reach, tree
from judge.engine.position.conditions import CONDITIONS, _failed, failed_conditions_realm
from judge.engine.position.state import PLAYERS, Armament, Lasting, SlotRef, State
from judge.engine.position.views import Blocked, Contribution, KeywordSource, RealmView, SoulView, Value

R_ARMAMENT = ("10.3.3",)          # its values add to the Wielder's, its effects work through it
R_ARMAMENT_HP = ("10.3.3", "10.3.5")  # the Wielder's maximum HP includes the Armament's HP
R_MORAL = ("glossary/moral", "5.1.2", "13.1.2")
R_STATIC = ("13.1.1",)
R_AURA = ("13.1.1", "13.1.2")  # 13.1.3 is cited where a Realm is left out (battle, position)
R_GRANTED = ("13.2.1",)

# condition keys that read only the Soul whose effect it is (its own values, line, keywords): a change
# to another Soul never changes whether they hold (Board.patched). Every key of the conditions table
# does; a key added there that reads another card must be left out here.
LOCAL_CONDITIONS = frozenset(CONDITIONS)
R_SLOT = ("13.3.3",)  # 13.3.4 (two on one slot) is cited by the step that lays a second one
R_STACK = ("13.4.1",)
SPANS = {"end_of_turn": "this turn",
         "end_of_opponents_next_turn": "until the end of the opponent's next turn",
         "permanently": "permanently"}


def lasting_rules(until: str) -> tuple[str, ...]:
    """The duration rule a lasting effect rests on: 13.3.2 for "permanently", 13.3.1 for the others."""
    return ("13.3.2",) if until == "permanently" else ("13.3.1",)


@dataclass
class _Source:
    """An active card whose effects may apply: a Soul, an Armament (through its Wielder) or a Realm."""

    uid: int
    card: CardDef
    ref: SlotRef                 # where it is (an Armament: its Wielder's slot)
    controller: str
    is_armament: bool = False
    time: int = 0                # for 13.5.2 "newer": the uid (later arrivals have larger uids)

    @property
    def label(self) -> str:
        where = f"Armament of {self.ref}" if self.is_armament else str(self.ref)
        return f"{self.card.name} ({where})"


class _Applies:
    """13.5.2: whether negator i applies, given every negator as (time, own uid, uids it negates):
    it does not when an applying negator reaches its card; of two that negate each other (a
    contradiction, or a cycle) the newer wins."""

    def __init__(self, negators: list[tuple[int, int, set[int]]]) -> None:
        self.negators = negators
        self.memo: dict[int, bool] = {}

    def __call__(self, i: int, visiting: frozenset[int]) -> bool:
        if i in self.memo:
            return self.memo[i]
        time_i, uid_i, targets_i = self.negators[i]
        result = True
        for j, (time_j, uid_j, targets_j) in enumerate(self.negators):
            if j == i or uid_i not in targets_j:
                continue
            if j in visiting:
                # a cycle: the newer of the two wins (13.5.2)
                if time_j > time_i:
                    result = False
                    break
                continue
            if uid_j in targets_i and time_j < time_i:
                continue  # a contradiction that i, the newer, wins
            if self(j, visiting | {i}):
                result = False
                break
        self.memo[i] = result
        return result


@dataclass
class _Work:
    keywords: list[KeywordSource] = field(default_factory=list)
    parts: dict[str, list[Contribution]] = field(default_factory=lambda: {k: [] for k in STAT_KEYS})
    blocked: list[Blocked] = field(default_factory=list)


class Board:
    """Everything the rules derive from one State."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._cards: dict[str, CardDef] = {}   # the library's cards as looked up while deriving
        self._where = _uid_index(state)        # state.find_uid, once for every card on the field
        self.lines = {p: tree.lines(state, p) for p in PLAYERS}
        self.proactive = {p: tree.proactive_slots(state, p) for p in PLAYERS}
        self._sources = self._collect_sources()
        # the cards with a Static Effect that may reach another card than their own (auras, 13.1.2)
        self._auras = frozenset(src.uid for src in self._sources if reach.reaches_others(src.card))
        self._aura_at = [i for i, src in enumerate(self._sources) if src.uid in self._auras]
        self._at: dict[SlotRef, list[int]] = {}   # the sources on each slot, by their place in _sources
        for i, src in enumerate(self._sources):
            self._at.setdefault(src.ref, []).append(i)
        self.negated: set[int] = set()   # while _negation runs, no lasting effect is negated yet
        self.negated = self._negation()
        self.souls: dict[SlotRef, SoulView] = {}
        self.realms: dict[SlotRef, RealmView] = {}
        self._made: dict[tuple[bool, bool], dict[str, dict[str, Any]]] = {}
        # each view's part of `derived`, shared with the boards patched from this one (_view_dict)
        self._dicts: dict[tuple[SlotRef, bool, bool], tuple[SoulView | RealmView, dict[str, Any]]] = {}
        self.memo: dict[Any, Any] = {}   # what others work out from this board (targets.combinations)
        self._lasting = tuple(state.lasting)          # the lasting effects it was derived with
        self._prelim: dict[SlotRef, int] = {}         # each Soul's HP before Static Effects (conditions)
        self._compute()
        # whether a later board may be made from this one by deriving only the Souls a change touched
        # (patch): no Moral (an aura along the tree) and only conditions that read their own Soul
        self._patchable = not any(v.has(MORAL.name) for v in self.souls.values()) and all(
            set(eff.condition) <= LOCAL_CONDITIONS for src in self._sources for eff in src.card.effects
            if eff.kind == "static")

    @classmethod
    def patched(cls, prev: Board, changes: list[tuple[Any, str]]) -> Board | None:
        """The board of `prev.state` after `changes` (tracked.Version.changes: every change to what
        derived values read since `prev` was derived), made by deriving again only the cards the changes
        touched (reach.touched), or None when they may reach further (then derive the whole board): on a
        board without Moral (an aura along the tree) and whose conditions read their own Soul."""
        if not prev._patchable:
            return None
        state = prev.state
        found = reach.touched(state, changes, reach.Before(prev._where, prev._lasting, prev.proactive,
                                                           prev._auras))
        if found is None:
            return None
        touched, proactive = found
        board = cls.__new__(cls)
        board.__dict__.update(prev.__dict__)
        board.souls, board.realms, board._prelim = dict(prev.souls), dict(prev.realms), dict(prev._prelim)
        board._made, board.memo, board._lasting, board.proactive = {}, {}, tuple(state.lasting), proactive
        budget.check_time()
        board._compute(set(touched))
        return board

    # --- lookups
    def view(self, ref: SlotRef) -> SoulView | RealmView | None:
        return self.souls.get(ref) or self.realms.get(ref)

    def card_view(self, ref: SlotRef) -> SoulView | RealmView:
        """The view of the Soul or Realm on `ref`, where the rules have made sure one stands."""
        view = self.view(ref)
        if view is None:
            raise KeyError(f"no card stands on {ref}")
        return view

    def line(self, ref: SlotRef) -> int | None:
        return self.lines[ref.player].get(ref.slot)

    def is_front_line(self, ref: SlotRef) -> bool:
        return self.line(ref) == 1

    def is_proactive(self, ref: SlotRef) -> bool:
        return ref.is_realm or ref.slot in self.proactive[ref.player]

    def has_keyword(self, ref: SlotRef, name: str) -> bool:
        view = self.view(ref)
        return bool(view and view.has(name))

    def is_negated(self, uid: int) -> bool:
        return uid in self.negated

    def unyielding_against(self, ref: SlotRef, source_rank: int, source_controller: str) -> bool:
        """13.6.1: an Unyielding Soul is unaffected by its opponent's effects whose source has the
        Soul's rank or a lower one (for a granted effect, the granter's rank, 13.2.2)."""
        view = self.souls.get(ref)
        if view is None or view.captured or not view.has(UNYIELDING.name):
            return False
        return source_controller != ref.player and source_rank <= view.card.rank

    def derived(self, detail: bool = True, contributions: bool = True) -> dict[str, dict[str, Any]]:
        """The contract's §5 `derived`: every occupied soul and realm slot (without `contributions`: the
        values a board picture shows, each step's in a ruling with snapshots). Made once per board: the
        steps that share a board share it (read it, never change it)."""
        made = self._made.get((detail, contributions))
        if made is not None:
            return made
        out: dict[str, dict[str, Any]] = {}
        for p in PLAYERS:
            for slot in self.state.field.slots:
                ref = SlotRef(p, slot)
                if ref in self.souls:
                    out[str(ref)] = self._view_dict(self.souls[ref], detail, contributions)
            for slot in self.state.field.realm_slots:
                ref = SlotRef(p, slot)
                if ref in self.realms:
                    out[str(ref)] = self._view_dict(self.realms[ref], detail, contributions)
        self._made[(detail, contributions)] = out
        return out

    def _view_dict(self, view: SoulView | RealmView, detail: bool, contributions: bool) -> dict[str, Any]:
        """A view's part of `derived`, made once per view: the boards patched one from another share the
        views they did not derive again, and with them these dicts (read them, never change them)."""
        key = (view.ref, detail, contributions)
        kept = self._dicts.get(key)
        if kept is None or kept[0] is not view:
            kept = self._dicts[key] = (view, view.to_dict(detail, contributions))
        return kept[1]

    # --- building
    def _card(self, name: str) -> CardDef:
        card = self._cards.get(name)
        if card is None:
            card = self._cards[name] = self.state.known_card(name)
        return card

    def _collect_sources(self) -> list[_Source]:
        out = []
        for ref in self.state.soul_refs():
            soul = self.state.soul(ref)
            out.append(_Source(soul.uid, self._card(soul.name), ref, ref.player, time=soul.uid))
            if soul.armament is not None:
                out.append(_Source(soul.armament.uid, self._card(soul.armament.name), ref, ref.player,
                                   is_armament=True, time=soul.armament.uid))
        for ref in self.state.realm_refs():
            realm = self.state.realm(ref)
            out.append(_Source(realm.uid, self._card(realm.name), ref, ref.player, time=realm.uid))
        return out

    def _negation(self) -> set[int]:
        """13.5.2: effects that negate other cards' effects; the newer wins a contradiction and a
        card whose effects are negated negates nothing itself."""
        negators: list[tuple[int, int, set[int]]] = []   # (time, own uid, uids it negates)
        self.negation_blocked: dict[SlotRef, list[Blocked]] = {}
        self.negated_by: dict[int, list[int]] = {}   # uid -> the uids whose negation reaches it
        self.void_negators: set[int] = set()          # uids whose negation does not apply (13.5.2)
        # 13.1.1: static negations with a condition, by uid: the card's slot, the condition, whether it holds
        self.conditional_negators: dict[int, tuple[SlotRef, Mapping[str, Any], bool]] = {}
        prelim: dict[SlotRef, int] | None = None
        for src in self._sources:
            for eff in src.card.effects:
                if eff.kind != "static" or not eff.negate:
                    continue
                if eff.condition:
                    prelim = self._printed_hp() if prelim is None else prelim
                    # 13.1.1: it applies only while its condition holds; derived again after every
                    # step, so it switches on (and off) the moment the condition changes
                    holds = self._condition_ok(src, eff.condition, prelim)
                    self.conditional_negators[src.uid] = (src.ref, eff.condition, holds)
                    if not holds:
                        continue
                negators.append((src.time, src.uid, self._static_negation(src, eff.negate)))
        for lasting in self.state.lasting:
            if lasting.kind == "negate" and lasting.to is not None and self._lasting_alive(lasting):
                uid = lasting.source_uid if lasting.source_uid is not None else -lasting.seq
                negators.append((lasting.seq, uid, {lasting.to}))
        if not negators:
            return set()

        applies = _Applies(negators)

        negated: set[int] = set()
        for i, (_, uid_i, targets) in enumerate(negators):
            if applies(i, frozenset()):
                negated |= targets
                for t in targets:
                    self.negated_by.setdefault(t, []).append(uid_i)
            else:
                self.void_negators.add(uid_i)   # 13.5.2: a negated card negates nothing
        return negated

    def _static_negation(self, src: _Source, negate: str) -> set[int]:
        """The uids a static `negate:` of `src` reaches (never its own card)."""
        reached = []
        for r in self._resolve_group(src, negate):
            card = self._card(self.state.soul(r).name)
            # 13.6.1: an Unyielding Soul is unaffected by an opposing Static Effect of its rank or lower
            if src.controller != r.player and src.card.rank <= card.rank and \
                    any(k.name == UNYIELDING.name for k in card.keywords):
                self.negation_blocked.setdefault(r, []).append(
                    Blocked(f"{src.card.name}'s negation", str(src.ref), src.card.rank))
                continue
            reached.append(r)
        targets = {self.state.soul(r).uid for r in reached}
        targets.discard(src.uid)
        return targets

    def _printed_hp(self) -> dict[SlotRef, int]:
        """Current HP before any effect applies (printed and Armament HP, minus damage): what a negation's
        condition reads, since the effects that add HP depend on what the negation reaches
        (interpretation/negation-condition-hp)."""
        out: dict[SlotRef, int] = {}
        for ref in self.state.soul_refs(active=False):
            soul = self.state.soul(ref)
            arm = self._card(soul.armament.name).stat("hp") if soul.armament is not None else 0
            out[ref] = self._card(soul.name).stat("hp") + arm - soul.damage
        return out

    def _lasting_alive(self, eff: Lasting) -> bool:
        """A lasting effect from a card on the field stops when that card is negated (13.5.2)."""
        return eff.source_uid is None or eff.source_uid not in self.negated

    def _resolve_group(self, src: _Source, ref_name: str | None) -> list[SlotRef]:
        """The Souls a static effect's `to:` reaches. 13.1.3: "your Souls" reaches Souls only."""
        state = self.state
        holder = src.ref
        if ref_name in ("self", "wielder"):
            return [holder] if state.active_soul_at(holder) is not None else []
        return tree.group(state, ref_name, holder, src.controller)

    def _condition_ok(self, src: _Source, cond: Mapping[str, Any], prelim: dict[SlotRef, int]) -> bool:
        if not cond:
            return True
        if src.ref.is_realm:
            return not failed_conditions_realm(cond)
        return not _failed(self, src.ref, cond, prelim)

    def _compute(self, only: set[SlotRef] | None = None) -> None:
        """Every Soul's and Realm's values; with `only` (patched), those Souls' alone."""
        state = self.state
        # with `only`, cards reach.touched found standing there (their order changes no value)
        souls = state.soul_refs(active=False) if only is None else [r for r in only if not r.is_realm]
        realms = state.realm_refs(active=False) if only is None else [r for r in only if r.is_realm]
        work: dict[SlotRef, _Work] = {ref: _Work() for ref in souls}
        realm_work: dict[SlotRef, _Work] = {ref: _Work() for ref in realms}
        self._printed(work, realm_work)
        self._lasting_parts(work, realm_work)
        self._prelim.update({ref: sum(c.amount for c in w.parts["hp"]) - state.soul(ref).damage
                             for ref, w in work.items()})
        self._statics(work, self._prelim, only)
        self._moral(work, self._unyielding(work))
        for ref, w in work.items():
            w.blocked.extend(self.negation_blocked.get(ref, []))
            self.souls[ref] = self._soul_view(ref, w)
        for ref, w in realm_work.items():
            self.realms[ref] = self._realm_view(ref, w)

    def _printed(self, work: dict[SlotRef, _Work], realm_work: dict[SlotRef, _Work]) -> None:
        """Printed values and keywords; Armaments (10.3.3)."""
        state = self.state
        for ref, w in work.items():
            soul = state.soul(ref)
            card = self._card(soul.name)
            for key in STAT_KEYS:
                w.parts[key].append(Contribution(card.stat(key), "printed", "printed", card.name))
            if soul.captured:
                continue  # a captured Soul is not active: it has no effects (glossary/active)
            if soul.uid not in self.negated:
                for kw in card.keywords:
                    w.keywords.append(KeywordSource(kw, "printed", "printed", str(ref), soul.uid, card.rank,
                                                    ref.player))
            if soul.armament is not None:
                self._armament(w, ref, soul.armament)
        self._printed_realms(realm_work)

    def _printed_realms(self, realm_work: dict[SlotRef, _Work]) -> None:
        state = self.state
        for ref, w in realm_work.items():
            realm = state.realm(ref)
            card = self._card(realm.name)
            for key in STAT_KEYS:
                w.parts[key].append(Contribution(card.stat(key), "printed", "printed", card.name))
            if not realm.shattered and realm.uid not in self.negated:
                for kw in card.keywords:
                    w.keywords.append(KeywordSource(kw, "printed", "printed", str(ref), realm.uid, card.rank,
                                                    ref.player))

    def _armament(self, w: _Work, ref: SlotRef, armament: Armament) -> None:
        """10.3.3: an Armament's values add to its Wielder's, its keywords work through it."""
        arm = self._card(armament.name)
        for key in STAT_KEYS:
            if arm.stat(key):
                rules = R_ARMAMENT_HP if key == "hp" else R_ARMAMENT
                label = f"Armament {arm.name}"
                w.parts[key].append(Contribution(arm.stat(key), label, "armament", arm.name, rules))
        if armament.uid not in self.negated:
            for kw in arm.keywords:
                w.keywords.append(KeywordSource(kw, f"{arm.name} (Armament)", "armament", arm.name,
                                                armament.uid, arm.rank, ref.player, R_ARMAMENT))

    def _lasting_parts(self, work: dict[SlotRef, _Work], realm_work: dict[SlotRef, _Work]) -> None:
        """Lasting effects on cards (13.3.1, 13.3.2) and laid on slots (13.3.3)."""
        state = self.state
        for eff in state.lasting:
            if eff.kind == "negate" or not self._lasting_alive(eff):
                continue
            rules: tuple[str, ...]
            payload: Mapping[str, Any]
            if eff.kind == "lay":
                targets = [eff.on] if eff.on in work and not state.soul(eff.on).captured else []
                kind, rules, label = "slot", R_SLOT, f"{eff.source} (laid on {eff.on})"
                payload = {"grant": Keyword(eff.value)} if isinstance(eff.value, str) else eff.value
            else:
                where = self._where.get(eff.to) if eff.to is not None else None
                targets = [where] if where is not None and (where in work or where in realm_work) else []
                kind, rules, label = ("lasting", lasting_rules(eff.until),
                                      f"{eff.source} ({SPANS.get(eff.until, eff.until.replace('_', ' '))})")
                payload = {eff.kind: eff.value}
            for ref in targets:
                w = work.get(ref) or realm_work[ref]
                if kind == "lasting" and eff.controller != ref.player:
                    # stays even if the Soul becomes Unyielding later
                    rules = (*lasting_rules(eff.until), "interpretation/lasting-effects-and-unyielding")
                self._apply(w, payload, kind, label, eff.source, eff.source_uid, eff.source_rank,
                            eff.controller, rules)

    def _statics(self, work: dict[SlotRef, _Work], prelim: dict[SlotRef, int],
                 only: set[SlotRef] | None = None) -> None:
        """Static effects and auras of active, non-negated cards (13.1, 13.2): the controller's own
        first, so that Unyielding they give counts against the opponent's (13.6.1). With `only`, what
        the cards on those slots give themselves and what every aura gives."""
        givers = self._sources if only is None else [self._sources[i] for i in sorted(
            {*self._aura_at, *(i for ref in only for i in self._at.get(ref, ()))})]   # in _sources' order
        gifts = [gift for src in givers if src.uid not in self.negated
                 for gift in self._gifts(src, work, prelim)]
        unyielding: set[SlotRef] | None = None
        for src, payload, kind, ref in sorted(gifts, key=lambda g: g[0].controller != g[3].player):
            if src.controller != ref.player and unyielding is None:
                unyielding = self._unyielding(work)  # once every own gift is in
            self._give(work[ref], ref, src, payload, kind, unyielding or set())

    def _gifts(self, src: _Source, work: dict[SlotRef, _Work],
               prelim: dict[SlotRef, int]) -> list[tuple[_Source, dict[str, Any], str, SlotRef]]:
        """What one card's Static Effects give now, and to whom (13.1.1: only while their condition holds)."""
        out: list[tuple[_Source, dict[str, Any], str, SlotRef]] = []
        for eff in src.card.effects:
            to = eff.to if not (src.is_armament and eff.to == "self") else "wielder"
            own = to in ("self", "wielder")
            if eff.kind != "static" or eff.negate or (own and src.ref not in work) or \
                    not self._condition_ok(src, eff.condition, prelim):
                continue
            payload: dict[str, Any] = {"gain": eff.gain} if eff.gain else {"grant": eff.grant}
            kind = "armament" if src.is_armament and own else ("printed" if own else "aura")
            out.extend((src, payload, kind, ref) for ref in self._resolve_group(src, to) if ref in work)
        return out

    def _moral(self, work: dict[SlotRef, _Work], unyielding: set[SlotRef]) -> None:
        """Moral: an aura on every Underling (glossary/moral, 5.1.2); Moral Souls' own keyword lists."""
        state = self.state
        for ref, w in list(work.items()):
            soul = state.soul(ref)
            if soul.captured or soul.uid in self.negated:
                continue
            for ks in [k for k in w.keywords if k.keyword.name == MORAL.name]:
                values = ks.keyword.value or {}
                src_label = f"Moral of {soul.name} ({ref})"
                for under in tree.underlings(state, ref):
                    uw = work[under]
                    if ks.controller != under.player and under in unyielding and \
                            ks.source_rank <= self._card(state.soul(under).name).rank:
                        uw.blocked.append(Blocked(f"Moral of {soul.name}", str(ref), ks.source_rank))
                        continue
                    for key in STAT_KEYS:
                        if values.get(key):
                            moral = Contribution(values[key], src_label, MORAL.name, str(ref), R_MORAL)
                            uw.parts[key].append(moral)

    def _unyielding(self, work: dict[SlotRef, _Work]) -> set[SlotRef]:
        """Souls with Unyielding in force now (not negated, unless laid on the slot)."""
        out: set[SlotRef] = set()
        for ref, w in work.items():
            negated = self.state.soul(ref).uid in self.negated
            if any(k.keyword.name == UNYIELDING.name and (not negated or k.kind in ("slot", "armament"))
                   for k in w.keywords):
                out.add(ref)
        return out

    def _give(self, w: _Work, ref: SlotRef, src: _Source, payload: Mapping[str, Any], kind: str,
              unyielding: set[SlotRef]) -> None:
        if src.controller != ref.player and ref in unyielding and \
                src.card.rank <= self._card(self.state.soul(ref).name).rank:
            if "gain" in payload:
                what = ", ".join(f"{'+' if v >= 0 else '−'}{abs(v)} {k.upper()}"
                                 for k, v in payload["gain"].items() if v)
            else:
                what = f"{payload['grant'].name}"
            w.blocked.append(Blocked(f"{src.card.name}'s {what}", str(src.ref), src.card.rank))  # 13.6.1
            return
        rules = R_AURA if kind == "aura" else (R_ARMAMENT if kind == "armament" else R_STATIC)
        self._apply(w, payload, kind, src.label, str(src.ref), src.uid, src.card.rank, src.controller, rules)

    @staticmethod
    def _apply(w: _Work, payload: Mapping[str, Any], kind: str, label: str, source: str | None,
               source_uid: int | None, source_rank: int, controller: str, rules: tuple[str, ...]) -> None:
        if payload.get("gain"):
            for key, amount in payload["gain"].items():
                if amount:
                    w.parts[key].append(Contribution(amount, label, kind, source, rules))
        if payload.get("grant") is not None:
            kw = payload["grant"]
            w.keywords.append(KeywordSource(kw, label, kind, source, source_uid, source_rank, controller,
                                            (*rules, *R_GRANTED)))

    def _soul_view(self, ref: SlotRef, w: _Work) -> SoulView:
        soul = self.state.soul(ref)
        card = self._card(soul.name)
        keywords = tuple(w.keywords)
        if soul.uid in self.negated:
            # 13.5.2 / 13.2.1: granted keywords work as if printed, so they are negated with the card;
            # what is laid on the slot belongs to the slot (13.3.3) and an Armament's effects are the
            # Armament's own (10.3.3): those stay
            keywords = tuple(k for k in keywords if k.kind in ("slot", "armament"))
        return SoulView(
            ref=ref, card=card, captured=soul.captured, line=self.line(ref),
            atk=Value.of(w.parts["atk"]), def_=Value.of(w.parts["def"]),
            max_hp=(mh := Value.of(w.parts["hp"])),
            hp=_current_hp(mh, soul.damage), damage=soul.damage, keywords=keywords,
            proactive=self.is_proactive(ref), negated=soul.uid in self.negated, blocked=tuple(w.blocked),
            armament=soul.armament.name if soul.armament else None,
        )

    def _realm_view(self, ref: SlotRef, w: _Work) -> RealmView:
        realm = self.state.realm(ref)
        mh = Value.of(w.parts["hp"])
        return RealmView(ref=ref, card=self._card(realm.name), shattered=realm.shattered,
                         atk=Value.of(w.parts["atk"]), def_=Value.of(w.parts["def"]), max_hp=mh,
                         hp=_current_hp(mh, realm.damage), damage=realm.damage, keywords=tuple(w.keywords),
                         negated=realm.uid in self.negated)


def _uid_index(state: State) -> dict[int, SlotRef]:
    """Where each Soul, Armament (its Wielder's slot) and Realm on the field is, by uid: what
    `state.find_uid` finds (the first slot in field order, A's before B's)."""
    out: dict[int, SlotRef] = {}
    for p in PLAYERS:
        for name, slot in state.players[p].slots.items():
            soul = slot.soul
            if soul is not None:
                out.setdefault(soul.uid, SlotRef(p, name))
                if soul.armament is not None:
                    out.setdefault(soul.armament.uid, SlotRef(p, name))
        for name, realm in state.players[p].realms.items():
            if realm is not None:
                out.setdefault(realm.uid, SlotRef(p, name))
    return out


def _current_hp(max_hp: Value, damage: int) -> Value:
    """glossary/hp: current HP is maximum HP minus damage, never below 0."""
    parts = list(max_hp.contributions)
    if damage:
        parts.append(Contribution(-damage, "damage", "damage", None, ("glossary/damage", "glossary/hp")))
    return Value.of(parts)


def derive(state: State, before: Board | None = None, changes: list[tuple[Any, str]] | None = None) -> Board:
    """The board of `state`; given the board `before` of the same state and the `changes` since
    (tracked.Version.changes), only what they touched is derived again where that is exact
    (Board.patched)."""
    budget.check_time()
    if before is not None and changes is not None and before.state is state:
        board = Board.patched(before, changes)
        if board is not None:
            return board
    return Board(state)


def explain(value: Value, name: str) -> tuple[str, tuple[str, ...]]:
    """"DEF 15 (10 printed, +5 Armament Tower Shield)" and the rules behind each part (engine-core's
    contributions); two bonuses from effects or more stack (13.4.1)."""
    parts = [c for c in value.contributions if c.kind not in ("damage",)]
    bonuses = [c for c in parts if c.kind not in ("printed", "floor")]
    if not bonuses:
        return f"{name} {value.total}", ()
    shown = ", ".join(f"{'+' if c.amount >= 0 and i else ''}{c.amount} {c.label}"
                      for i, c in enumerate(parts))
    rules = tuple(dict.fromkeys(r for c in parts for r in c.rules))
    # 13.4.1 is about effects applying twice; an Armament's values are not an effect (10.3.3)
    if len([c for c in bonuses if c.kind != "armament"]) >= 2:
        rules = (*rules, "13.4.1")
    if any(c.kind == MORAL.name for c in parts):
        rules = (*rules, "glossary/underling")
    return f"{name} {value.total} ({shown})", rules
