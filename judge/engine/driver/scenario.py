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

from judge.engine.data import card_reader as cardmod
from judge.engine.data import edition, yamlio
from judge.engine.data.cards import CardDef, Library, load_library
from judge.engine.data.errors import Problems, ScenarioError, problem
from judge.engine.data.input_checks import show
from judge.engine.driver import answers
from judge.engine.driver import expect as expect_mod
from judge.engine.driver.card_text.read import cards_with_text_read
from judge.engine.driver.state_loader import StateLoader, _blank_state
from judge.engine.driver.verbs import NAMES, VERBS, Verb
from judge.engine.position.action import Action, Place
from judge.engine.position.state import PLAYERS, State

TOP_KEYS = ("id", "title", "question", "codex", "cards", "state", "actions", "expect", "ask", "on_illegal",
            "notes", "tags", "rules")
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
    asks: tuple[answers.Ask, ...] = ()     # §7: what the judge wants to know

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
        if self.asks:
            out["ask"] = [a.to_dict() for a in self.asks]
        if self.on_illegal != "stop":
            out["on_illegal"] = self.on_illegal
        out.update(self.extra)
        return out


# --- entry points --------------------------------------------------------------------------

def parse_yaml(text: str | bytes, source: str | None = None) -> Any:
    """YAML text -> data; a syntax error becomes a ScenarioError naming the line."""
    try:
        return yamlio.safe_load(text)
    except yamlio.TooLarge as exc:
        raise ScenarioError([problem("", "too_large", exc.problem_mark.line + 1, said=exc.problem)],
                            source) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        said = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        raise ScenarioError([problem("", "yaml_syntax", line or None, said=said, context=context)],
                            source) from None


def load_scenario(data: str | bytes | Mapping[str, Any], source: str | None = None,
                  library: Library | None = None) -> Scenario:
    """A scenario from YAML/JSON text or a mapping; raises ScenarioError listing every problem."""
    try:
        return _load(data, source, library)
    except RecursionError:
        raise ScenarioError([problem("", "too_deep")], source) from None


def _load(data: str | bytes | Mapping[str, Any], source: str | None, library: Library | None) -> Scenario:
    if isinstance(data, (str, bytes)):
        data = parse_yaml(data, source)
    problems = Problems()
    too_big = yamlio.expanded_size_problem(data)
    if too_big:
        problems.problem("", "too_large", said=too_big)
        problems.raise_if_any(source)
    for found in yamlio.value_problems(data):
        problems.problem(found["path"], "bad_value", said=found["message"])
    problems.raise_if_any(source)
    if not isinstance(data, Mapping):
        problems.problem("", "scenario_not_mapping" if data is not None else "scenario_empty",
                         got=show(data))
        raise ScenarioError(problems.items, source)
    named = data.get("codex")
    version = str(named) if isinstance(named, str | int | float) and edition.known(str(named)) else None
    with edition.under(version):   # the board is read with the slot tree and numbers of its edition
        loader = _Loader(problems, library or load_library(), source)
        scenario = loader.scenario(yamlio.fix_keys(dict(data)))
    problems.raise_if_any(source)
    return scenario


def parse_action(data: Any, scenario: Scenario, path: str = "action") -> Action:
    """One contract §4 action (a mapping) checked as the scenario's `actions:` items are, against
    its cards and its edition's slots; raises ScenarioError naming what is wrong under `path`."""
    problems = Problems()
    with edition.under(scenario.codex if scenario.codex and edition.known(scenario.codex) else None):
        loader = _Loader(problems, scenario.library, scenario.source)
        action = loader.action(data, path, 0)
    problems.raise_if_any(scenario.source)
    assert action is not None  # no problem: it was read
    return action


def read_scenario_file(path: str | Path) -> Any:
    """The data of a scenario file, read and parsed once (a ScenarioError names what went wrong and,
    for a YAML problem, its line); `load_scenario(data, source=…)` then makes the scenario of it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError([problem("", "unreadable_file", said=str(exc))], str(path)) from None
    return parse_yaml(text, str(path))


def load_scenario_file(path: str | Path) -> Scenario:
    return load_scenario(read_scenario_file(path), source=str(path))


def _words(data: Mapping[str, Any], key: str) -> str:
    """A top-level text (`title:`, `question:`) as written, "" where it is missing or empty."""
    return str(data.get(key, "") or "")


def _written(data: Mapping[str, Any], key: str) -> str | None:
    return str(data[key]) if data.get(key) is not None else None


def _listed(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    return list(value) if isinstance(value, list) else []


# --- the loader ----------------------------------------------------------------------------

class _Loader(StateLoader):
    """The scenario around the state: top-level keys, cards and actions."""

    def scenario(self, data: Mapping[str, Any]) -> Scenario:
        self.c.keys(data, TOP_KEYS, "")
        own_cards: list[CardDef] = []
        if "cards" in data:
            cards, unread = cards_with_text_read(data["cards"], "cards", self.p)   # cards given as text
            self.refused |= unread
            own_cards = cardmod.parse_cards(cards, "cards", self.p, self.refused)
            self.library = self.base_library.with_cards(own_cards)
        self.head(data)
        on_illegal = self.on_illegal(data)
        expect = self.expectation(data)
        state = self.state_of(data)
        actions = tuple(self.actions(data.get("actions"), "actions"))
        # questions are checked against a position and a queue that loaded (one mistake, one message)
        asks = answers.parse(data["ask"], actions, state, self.question) if "ask" in data and not self.p \
            else ()
        if expect is not None and "answers" in expect:
            for path, code, facts in expect_mod.answer_problems(expect["answers"], len(asks) or 1):
                self.problem(path, code, **facts)
        scenario = Scenario(
            id=self.scenario_id(data), title=_words(data, "title"), question=_words(data, "question").strip(),
            codex=_written(data, "codex"),
            state=state, actions=actions, expect=dict(expect) if expect is not None else None,
            on_illegal=on_illegal, library=self.library, cards=tuple(own_cards),
            cards_raw=_listed(data, "cards"), source=self.source,
            extra={k: data[k] for k in ("notes", "tags") if k in data}, asks=asks,
        )
        if not self.p:
            self.consistency(state)
        return scenario

    def question(self, path: str, message: str) -> None:
        """A question of `ask:` that can't be asked here, in answers.py's words (code `question`)."""
        self.p.problem(path, "question", said=message)

    def head(self, data: Mapping[str, Any]) -> None:
        """`id`, `title`, `question` and `codex` are text; `codex` names an edition we hold."""
        sid = data.get("id")
        if sid is not None and not isinstance(sid, (str, int)):
            self.problem("id", "text_expected", got=show(sid))
        for key in ("title", "question", "codex"):
            if key in data and not isinstance(data[key], (str, int, float)):
                self.problem(key, "text_expected", got=show(data[key]))
        if isinstance(data.get("codex"), (str, int, float)) and not edition.known(str(data["codex"])):
            self.problem("codex", "unknown_edition", name=str(data["codex"]), held=list(edition.held()))

    def scenario_id(self, data: Mapping[str, Any]) -> str:
        """The scenario's `id`, else its file's name, else "scenario"."""
        if data.get("id") is not None:
            return str(data["id"])
        return Path(self.source).stem if self.source else "scenario"

    def on_illegal(self, data: Mapping[str, Any]) -> str:
        on_illegal = data.get("on_illegal", "stop")
        if on_illegal not in ("stop", "continue"):
            self.problem("on_illegal", "on_illegal_choice", got=repr(on_illegal))
            return "stop"
        return str(on_illegal)

    def expectation(self, data: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """`expect:` checked (contract §6), or None where it is not a mapping."""
        expect = data.get("expect")
        if expect is None:
            return None
        if not isinstance(expect, Mapping):
            self.problem("expect", "expect_shape", got=show(expect))
            return None
        for path, code, facts in expect_mod.problems(expect):
            self.problem(path, code, **facts)
        return expect

    def state_of(self, data: Mapping[str, Any]) -> State:
        """`state:` loaded; a blank one (after saying why) where it is not a mapping."""
        state_data = data.get("state")
        if state_data is None:
            state_data = {}
        state = self.state(state_data, "state") if isinstance(state_data, Mapping) else None
        if state is None:
            self.problem("state", "state_shape", got=show(state_data))
            state = _blank_state(self.library)
        return state

    def actions(self, value: Any, path: str) -> list[Action]:
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
        verbs = [v for v in NAMES if v in data]
        if len(verbs) != 1:
            self.problem(path, "verb_count", verbs=list(NAMES), keys=[str(key) for key in data])
            return None
        verb = VERBS[verbs[0]]
        self.c.keys(data, (verb.name, *verb.keys, "by", "targets", "discard"), path)
        by = data.get("by")
        if by is not None and str(by).upper() not in PLAYERS:
            self.problem(f"{path}.by", "not_a_player", got=repr(by))
            by = None
        by = str(by).upper() if by is not None else None
        value = self.action_value(verb, data[verb.name], f"{path}.{verb.name}")
        for key in verb.keys:
            if key in data:
                self.slot_text(data[key], f"{path}.{key}", realm=verb.realm_slot)
        if verb.required and verb.required not in data:
            self.problem(f"{path}.{verb.required}", "missing_verb_key", verb=verb.name, key=verb.required)
        args = self.action_args(data, verb, path)
        return Action(index=index, verb=verb.name, value=value, by=by, args=args)

    def action_value(self, verb: Verb, value: Any, sub: str) -> Any:
        """The verb's own value: a card (its name as the library spells it), an effect, a slot or true."""
        if verb.value == "card":
            card = self.known(value, sub)
            return card.name if card else value
        if verb.value == "effect":
            if not isinstance(value, str) or not value.strip():
                self.problem(sub, "effect_name_expected", got=show(value))
        elif verb.value == "slot":
            self.slot_text(value, sub)
        elif value is not True:
            self.problem(sub, "verb_takes_true", verb=verb.name, got=show(value))
        return value

    def action_args(self, data: Mapping[str, Any], verb: Verb, path: str) -> dict[str, Any]:
        """Everything of an action but its verb and `by`; targets and discards as lists."""
        args: dict[str, Any] = {k: data[k] for k in data if k not in (verb.name, "by")}
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
        return args

    def slot_text(self, value: Any, path: str, realm: bool = False) -> None:
        if Place.parse(value) is None:
            near = self.near_slots(value.split(":")[-1]) if isinstance(value, str) else []
            self.problem(path, "not_an_action_slot", got=show(value), near=near, slots=self.field.describe(),
                         realm_slots=list(self.field.realm_slots) if realm else [])


