"""Scenario files (contract §1–§4): YAML text or a mapping -> `Scenario`, every problem listed
with its key path (`state.players.A.field.C9: no such slot; slots are altar, L2, …`).

    scenario = load_scenario(text_or_mapping, source="file.yaml")   # raises ScenarioError
    scenario.state        # the stored State (state.py)
    scenario.actions      # tuple of Action
    scenario.to_dict()    # back to the contract's format
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from judge.engine import card_schema as cardmod
from judge.engine import expect as expect_mod
from judge.engine import yamlio
from judge.engine.cards import CardDef, Library, load_library
from judge.engine.errors import Problems, ScenarioError
from judge.engine.state import (
    PLAYERS,
    SlotRef,
    State,
)
from judge.engine.state_loader import StateLoader, _blank_state

TOP_KEYS = ("id", "title", "question", "codex", "cards", "state", "actions", "expect", "on_illegal",
            "notes", "tags", "rules")
VERBS = ("recruit", "cast", "equip", "invoke", "set", "spring", "activate", "use", "attack", "pass",
         "end_phase")
# verb -> other keys it takes (besides `by`, `discard`, `targets`), and which one names a slot
VERB_KEYS: dict[str, tuple[str, ...]] = {
    "recruit": ("to",), "cast": ("caster",), "equip": ("to",), "invoke": ("to",), "set": ("at",),
    "spring": ("at",), "activate": ("card",), "use": ("card",), "attack": ("target",), "pass": (),
    "end_phase": (),
}
CARD_VERBS = {"recruit": "soul", "cast": "event", "equip": "armament", "invoke": "realm", "set": "ambush",
              "spring": "ambush"}


@dataclass(frozen=True)
class Action:
    """One queued action (contract §4). `value` is the verb's own value: a card name (recruit,
    cast, equip, invoke, set, spring), an effect name (activate, use), the attacker's slot
    (attack) or True (pass, end_phase). `args` holds the other keys as written."""

    index: int
    verb: str
    value: Any
    by: str | None = None
    args: Mapping[str, Any] = field(default_factory=dict)

    def player(self, state: State) -> str:
        """The acting player: `by:` or else the turn player."""
        return self.by or state.turn_player

    def ref(self, key: str, state: State) -> SlotRef | None:
        """A slot reference in `args[key]` (or the value, for key "value"), unprefixed = the actor's."""
        text = self.value if key == "value" else self.args.get(key)
        return SlotRef.parse(text, self.player(state))

    def target_refs(self, state: State) -> list[SlotRef | None]:
        return [SlotRef.parse(t, self.player(state)) for t in self.args.get("targets") or []]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {self.verb: self.value}
        out.update(self.args)
        if self.by:
            out["by"] = self.by
        return out

    def describe(self) -> str:
        parts = [f"{self.verb} {self.value}" if self.value is not True else self.verb]
        parts += [f"{k} {v}" for k, v in self.args.items()]
        if self.by:
            parts.append(f"by {self.by}")
        return ", ".join(parts)


@dataclass
class Scenario:
    id: str
    title: str
    question: str
    codex: str | None
    state: State
    actions: tuple[Action, ...]
    expect: dict[str, Any] | None
    on_illegal: str
    library: Library
    cards: tuple[CardDef, ...] = ()
    cards_raw: list[Any] = field(default_factory=list)
    source: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id}
        if self.title:
            out["title"] = self.title
        if self.question:
            out["question"] = self.question
        if self.codex:
            out["codex"] = self.codex
        if self.cards_raw:
            out["cards"] = self.cards_raw
        out["state"] = self.state.to_dict()
        out["actions"] = [a.to_dict() for a in self.actions]
        if self.expect is not None:
            out["expect"] = self.expect
        if self.on_illegal != "stop":
            out["on_illegal"] = self.on_illegal
        out.update(self.extra)
        return out


# --- entry points --------------------------------------------------------------------------

def parse_yaml(text: str | bytes, source: str | None = None) -> Any:
    """YAML text -> data; a syntax error becomes a ScenarioError naming the line."""
    try:
        return yamlio.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        message = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
        raise ScenarioError([{"path": "", "message": message, **({"line": line} if line else {})}],
                            source) from None


def load_scenario(data: str | bytes | Mapping[str, Any], source: str | None = None,
                  library: Library | None = None) -> Scenario:
    """A scenario from YAML/JSON text or a mapping; raises ScenarioError listing every problem."""
    try:
        return _load(data, source, library)
    except RecursionError:
        raise ScenarioError([{"path": "", "message": "the scenario is nested too deeply to read"}], source) from None


def _load(data: str | bytes | Mapping[str, Any], source: str | None, library: Library | None) -> Scenario:
    if isinstance(data, (str, bytes)):
        data = parse_yaml(data, source)
    problems = Problems()
    too_big = yamlio.expanded_size_problem(data)
    if too_big:
        problems.add("", too_big)
        problems.raise_if_any(source)
    for problem in yamlio.value_problems(data):
        problems.add(problem["path"], problem["message"])
    problems.raise_if_any(source)
    if not isinstance(data, Mapping):
        problems.add("", "a scenario is a mapping with state:, actions: and so on"
                         f"{'' if data is not None else ' (the file is empty)'}")
        problems.raise_if_any(source)
    scenario = _Loader(problems, library or load_library(), source).scenario(yamlio.fix_keys(dict(data)))
    problems.raise_if_any(source)
    return scenario


def load_scenario_file(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError([{"path": "", "message": f"can't read the file: {exc}"}], str(path)) from None
    return load_scenario(text, source=str(path))


# --- the loader ----------------------------------------------------------------------------

class _Loader(StateLoader):
    """The scenario around the state: top-level keys, cards and actions."""

    def scenario(self, data: Mapping[str, Any]) -> Scenario:
        self.c.keys(data, TOP_KEYS, "")
        own_cards: list[CardDef] = []
        if "cards" in data:
            own_cards = cardmod.parse_cards(data["cards"], "cards", self.p)
            self.library = self.base_library.with_cards(own_cards)
        sid = data.get("id")
        if sid is not None and not isinstance(sid, (str, int)):
            self.bad("id", "expected text")
        for key in ("title", "question", "codex"):
            if key in data and not isinstance(data[key], (str, int, float)):
                self.bad(key, "expected text")
        on_illegal = data.get("on_illegal", "stop")
        if on_illegal not in ("stop", "continue"):
            self.bad("on_illegal", f"expected stop or continue, got {on_illegal!r}")
            on_illegal = "stop"
        expect = data.get("expect")
        if expect is not None and not isinstance(expect, Mapping):
            self.bad("expect", "expected a mapping (rejected, cites, winner, board)")
            expect = None
        for path, message in expect_mod.problems(expect) if expect is not None else ():
            self.bad(path, message)
        state_data = data.get("state")
        if state_data is None:
            state_data = {}
        state = self.state(state_data, "state") if isinstance(state_data, Mapping) else None
        if state is None:
            self.bad("state", "expected a mapping with players:")
            state = _blank_state(self.library)
        actions = tuple(self.actions(data.get("actions"), "actions"))
        extra = {k: data[k] for k in ("notes", "tags") if k in data}
        scenario = Scenario(
            id=str(sid) if sid is not None else (Path(self.source).stem if self.source else "scenario"),
            title=str(data.get("title", "") or ""), question=str(data.get("question", "") or "").strip(),
            codex=str(data["codex"]) if data.get("codex") is not None else None,
            state=state, actions=actions, expect=dict(expect) if expect is not None else None,
            on_illegal=on_illegal, library=self.library, cards=tuple(own_cards),
            cards_raw=list(data.get("cards") or []) if isinstance(data.get("cards"), list) else [],
            source=self.source, extra=extra,
        )
        if not self.p:
            self.consistency(state)
        return scenario

    def actions(self, value: Any, path: str) -> list:
        out = []
        for i, item in enumerate(self.c.seq(value, path)):
            action = self.action(item, f"{path}[{i}]", i)
            if action is not None:
                out.append(action)
        return out

    def action(self, item: Any, path: str, index: int) -> Action | None:
        data = self.c.mapping(item, path)
        if data is None:
            return None
        verbs = [v for v in VERBS if v in data]
        if len(verbs) != 1:
            self.bad(path, f"an action has exactly one verb of {', '.join(VERBS)}; got keys "
                           f"{', '.join(map(str, data)) or 'none'}")
            return None
        verb = verbs[0]
        self.c.keys(data, (verb, *VERB_KEYS[verb], "by", "targets", "discard"), path)
        by = data.get("by")
        if by is not None and str(by).upper() not in PLAYERS:
            self.bad(f"{path}.by", f"expected A or B, got {by!r}")
            by = None
        by = str(by).upper() if by is not None else None
        value = data[verb]
        sub = f"{path}.{verb}"
        if verb in CARD_VERBS:
            card = self.known(value, sub)
            value = card.name if card else value
        elif verb in ("activate", "use"):
            if not isinstance(value, str) or not value.strip():
                self.bad(sub, "expected the effect's name")
        elif verb == "attack":
            self.slot_text(value, sub)
        elif value is not True:
            self.bad(sub, f"expected true ({{{verb}: true}})")
        for key in VERB_KEYS[verb]:
            if key in data:
                self.slot_text(data[key], f"{path}.{key}", realm=(verb == "invoke"))
        required = {"recruit": "to", "equip": "to", "invoke": "to", "set": "at", "spring": "at",
                    "attack": "target", "activate": "card", "use": "card"}.get(verb)
        if required and required not in data:
            self.bad(f"{path}.{required}", f"missing; {verb} needs {required}:")
        args: dict[str, Any] = {k: data[k] for k in data if k not in (verb, "by")}
        if "targets" in data:
            targets = data["targets"]
            if isinstance(targets, str):
                targets = [targets]
            targets = self.c.seq(targets, f"{path}.targets")
            for i, t in enumerate(targets):
                self.slot_text(t, f"{path}.targets[{i}]", realm=True)
            args["targets"] = list(targets)
        if "discard" in data:
            discard = data["discard"]
            if isinstance(discard, str):
                discard = [discard]
            args["discard"] = self.names(discard, f"{path}.discard")
        return Action(index=index, verb=verb, value=value, by=by, args=args)

    def slot_text(self, value: Any, path: str, realm: bool = False) -> None:
        ref = SlotRef.parse(value, "A")
        if ref is None:
            self.bad(path, f"expected a slot like C3 or B:L1, got {cardmod._show(value)}; slots are "
                           f"{self.field.describe()}" + (f", {', '.join(self.field.realm_slots)}" if realm else ""))


