"""Queued and legal actions in plain words, and the legal actions of both players at a point of the queue.

`{spring: Hidden Snare, at: C3, by: B, targets: ["A:L2"]}` after a cast of Firebolt reads
"B springs Hidden Snare (set on Harold, C3) at A's Grey Knight (L2), in answer to Firebolt".

Passes are implied, as the engine takes them (contract §4: the player holding priority passes unless the
next queued action is theirs and legal there), so `legal_groups` lists what each player may do at a point
of the queue: the player holding priority, then the other player once that one passes, then the turn
player again once the window closes. Queuing any of them is enough; the passes between are the engine's.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from judge.desk import runner
from judge.engine import VERBS

PHASE_WORDS = {"setup": "Setup", "preparation": "Preparation Phase", "combat": "Combat Phase",
               "emplacement": "Emplacement Phase"}
MAX_PASSES = 3  # the priority holder, the other player, then the turn player once the window closes


class Board:
    """Who stands where at one point of a queue (the contract's §2 state), for naming slots."""

    def __init__(self, state: Mapping[str, Any] | None, turn_player: str = "A"):
        self.state = state if isinstance(state, Mapping) else {}
        self.turn_player = str(self.state.get("turn_player") or turn_player)

    def card_at(self, player: str, slot: str) -> str | None:
        players = self.state.get("players")
        pstate = players.get(player) if isinstance(players, Mapping) else None
        if not isinstance(pstate, Mapping):
            return None
        for zone in ("field", "realms"):
            entries = pstate.get(zone)
            value = entries.get(slot) if isinstance(entries, Mapping) else None
            if isinstance(value, str):
                return value
            if isinstance(value, Mapping) and isinstance(value.get("card"), str):
                return value["card"]
        return None

    def place(self, player: str, slot: str, card: str) -> None:
        """Note a card that a queued action puts on a slot (a recruit, an invocation)."""
        node = self.state if isinstance(self.state, dict) else {}
        for key in ("players", player, "field"):
            child = node.get(key)
            if not isinstance(child, dict):  # null or mistyped while being typed: the words use a fresh one
                child = node[key] = {}
            node = child
        node[slot] = card


def split_ref(ref: Any, actor: str) -> tuple[str, str]:
    text = str(ref)
    if ":" in text:
        player, slot = text.split(":", 1)
        return player, slot
    return actor, text


def slot_words(board: Board, ref: Any, actor: str, *, own_prefix: bool = False) -> str:
    """"B's Harold (C3)"; one's own "Noah (C3)"; an empty slot "B's empty C3"."""
    player, slot = split_ref(ref, actor)
    card = board.card_at(player, slot)
    whose = f"{player}'s " if player != actor or own_prefix else ""
    return f"{whose}{card} ({slot})" if card else f"{whose}empty {slot}"


def targets_words(board: Board, action: Mapping[str, Any], actor: str) -> str:
    targets = action.get("targets")
    if isinstance(targets, str):
        targets = [targets]
    if not isinstance(targets, list) or not targets:
        return ""
    return " at " + " and ".join(slot_words(board, t, actor) for t in targets)


def describe(action: Mapping[str, Any], board: Board, answer_to: str | None = None) -> str:
    """One action (contract §4) in a judge's words."""
    if not isinstance(action, Mapping) or not action:
        return str(action)
    actor = str(action.get("by") or board.turn_player)
    verb = next((v for v in VERBS if v in action), next(iter(action)))
    text = _verb_words(verb, action, board, actor)
    if answer_to and (verb not in VERBS or VERBS[verb].in_answer):
        text += f", in answer to {answer_to}"
    return text


class _Words(string.Formatter):
    """Fills a verb's words (the verb table's `Verb.words`) from one action: a slot key as the card on
    it, `:written` as written, `:slot` its slot alone, `:own` with the owner's name even for the actor."""

    def __init__(self, verb: str, action: Mapping[str, Any], board: Board, actor: str):
        self.verb, self.action, self.board, self.actor = verb, action, board, actor

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        if key == "by":
            return self.actor
        if key == "targets":
            return targets_words(self.board, self.action, self.actor)
        if key == "phase":
            if self.board.state.get("phase") == "setup":
                return "their recruiting round"
            return "the " + PHASE_WORDS.get(str(self.board.state.get("phase") or "preparation"), "phase")
        return _Slot(self.action.get(self.verb if key == "value" else key), key == "value")

    def format_field(self, value: Any, format_spec: str) -> str:
        if not isinstance(value, _Slot):
            return str(value)
        if format_spec == "written" or (value.is_value and not format_spec):
            return str(value.ref)
        if format_spec == "slot":
            return split_ref(value.ref, self.actor)[1]
        return slot_words(self.board, value.ref, self.actor, own_prefix=format_spec == "own")


class _Slot:
    def __init__(self, ref: Any, is_value: bool):
        self.ref, self.is_value = ref, is_value


def _verb_words(verb: str, a: Mapping[str, Any], board: Board, actor: str) -> str:
    row = VERBS.get(verb)
    if row is None or not row.words:
        return " · ".join(f"{k} {v}" for k, v in a.items())
    return _Words(verb, a, board, actor).format(row.words)


def what_it_plays(action: Mapping[str, Any]) -> str | None:
    """The card or effect an action brings into play, for "in answer to …"."""
    for verb in (v.name for v in VERBS.values() if v.on_cascade):
        if isinstance(action.get(verb), str):
            return action[verb]
    return next((v.named for v in VERBS.values() if v.named and v.name in action), None)


def queue_words(data: Mapping[str, Any]) -> list[str]:
    """Each queued action in words, naming cards as they stand at the start (and as earlier recruits and
    invocations in the queue placed them)."""
    state = runner.json_safe(data.get("state") or {})
    board = Board(state)
    out = []
    previous: Mapping[str, Any] | None = None
    actions = data.get("actions")
    for action in actions if isinstance(actions, list) else []:
        if not isinstance(action, Mapping):
            out.append(str(action))
            continue
        actor = str(action.get("by") or board.turn_player)
        answer = what_it_plays(previous) if previous is not None and actor != previous_actor(previous,
                                                                                             board) else None
        out.append(describe(action, board, answer))
        for verb in (v.name for v in VERBS.values() if v.places):
            if isinstance(action.get(verb), str) and action.get("to"):
                board.place(actor, str(action["to"]), action[verb])
        if "end_phase" in action:
            next_phase(board)
        previous = action
    return out


NEXT_PHASE = {"preparation": "combat", "combat": "emplacement"}


def next_phase(board: Board) -> None:
    """The phase (and turn player) after a queued end of phase, so that the next one is named right: the
    Emplacement Phase's end hands the turn to the other player (setup's rounds are left as they are)."""
    state = board.state if isinstance(board.state, dict) else None
    if state is None or state.get("phase") == "setup":
        return
    phase = str(state.get("phase") or "preparation")
    if phase in NEXT_PHASE:
        state["phase"] = NEXT_PHASE[phase]
    else:
        state["phase"] = "preparation"
        board.turn_player = state["turn_player"] = "B" if board.turn_player == "A" else "A"


def previous_actor(action: Mapping[str, Any], board: Board) -> str:
    return str(action.get("by") or board.turn_player)


def legal_groups(data: Mapping[str, Any], after: int,
                 first: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The legal actions at queue position `after`, grouped by player, in words (`first`: those legal
    actions, when the caller has them already).

    Each group: {player, when, actions: [{action, words}]}. The first is the player who may act; when that
    player's only way on is to pass, the next group is what the other player may then do, and so on."""
    actions = list(data.get("actions") or [])[:after]
    prefix = dict(data, actions=actions)
    board = Board(_state_at(prefix))
    answer_to = what_it_plays(actions[-1]) if actions and isinstance(actions[-1], Mapping) else None
    groups: list[dict[str, Any]] = []
    passes: list[dict[str, Any]] = []
    for _ in range(MAX_PASSES):
        legal = first if first is not None and not passes else \
            runner.legal_actions(dict(prefix, actions=actions + passes), after + len(passes))
        if not legal:
            break
        actor = str(legal[0].get("by") or board.turn_player)
        offered = [a for a in legal if "pass" not in a]
        window = len(offered) < len(legal)
        when = _when(window, passes, answer_to)
        if offered:
            groups.append({"player": actor, "when": when, "actions": [
                {"action": a, "words": describe(a, board, answer_to if window else None)} for a in offered]})
        if not window:
            break
        passes.append({"pass": True, "by": actor})
    if not passes and groups:
        groups.extend(_after_the_phase(prefix, actions, after, board, groups[0]))
        groups.extend(_after_the_turn(prefix, actions, after, board, groups[0]))
    return groups


MAX_PHASE_ENDS = 4  # the Preparation, Combat and Emplacement Phases end, then the next turn begins


def _after_the_turn(prefix: Mapping[str, Any], actions: list[Any], after: int, board: Board,
                    now: dict[str, Any]) -> list[dict[str, Any]]:
    """What the other player may do as the turn player once this turn ends (each queued with the phase
    ends that lead there), so that B's turn is offered beside A's without switching whose turn it is."""
    end = next((a["action"] for a in now["actions"] if "end_phase" in a["action"]), None)
    if end is None or board.state.get("phase") == "setup":
        return []
    ends: list[dict[str, Any]] = []
    try:
        for _ in range(MAX_PHASE_ENDS):
            ends.append(dict(end))
            legal = runner.legal_actions(dict(prefix, actions=[*actions, *ends]), after + len(ends))
            if not legal:
                return []
            actor = str(legal[0].get("by") or board.turn_player)
            if actor != now["player"]:
                break
            end = next((a for a in legal if "end_phase" in a), None)
            if end is None:
                return []
        else:
            return []
    except runner.DeskInputError:
        return []
    offered = [a for a in legal if "end_phase" not in a and "pass" not in a]
    if not offered:
        return []
    later = Board(_state_at(dict(prefix, actions=[*actions, *ends])))
    return [{"player": actor, "when": f"as the turn player, once {now['player']}'s turn ends", "actions": [
        {"action": a, "queue": [*ends, a],
         "words": f"{describe(a, later)} (in {actor}'s turn, after {now['player']} ends their turn)"}
        for a in offered]}]


def _after_the_phase(prefix: Mapping[str, Any], actions: list[Any], after: int, board: Board,
                     now: dict[str, Any]) -> list[dict[str, Any]]:
    """In the Preparation Phase, the attacks that ending it opens (each queued with the phase's end), so a
    new position offers casts and attacks side by side."""
    end = next((a["action"] for a in now["actions"] if "end_phase" in a["action"]), None)
    if end is None or str(board.state.get("phase") or "preparation") != "preparation":
        return []
    try:
        legal = runner.legal_actions(dict(prefix, actions=[*actions, end]), after + 1)
    except runner.DeskInputError:
        return []
    attacks = [a for a in legal if "attack" in a]
    if not attacks:
        return []
    return [{"player": now["player"], "when": "once the Preparation Phase ends", "actions": [
        {"action": a, "queue": [end, a],
         "words": f"{describe(a, board)} (ending the Preparation Phase first)"}
        for a in attacks]}]


def refused_words(data: Mapping[str, Any], after: int, refused: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions not legal at queue position `after`, in words with why: "A's Noah (C3) attacks B's
    Harold (C3)" — "not legal now: …" ({action, words, why, rules}), by player, verb order kept."""
    actions = list(data.get("actions") or [])[:after]
    prefix = dict(data, actions=actions)
    board = Board(_state_at(prefix))
    answer_to = what_it_plays(actions[-1]) if actions and isinstance(actions[-1], Mapping) else None
    out = []
    for item in refused:
        action, violations = item["action"], item.get("violations") or []
        out.append({"action": action, "words": describe(action, board, answer_to),
                    "why": " ".join(str(v.get("text", "")).rstrip(".") + "." for v in violations),
                    "rules": list(dict.fromkeys(r for v in violations for r in v.get("rules") or []))})
    return sorted(out, key=lambda r: str(r["action"].get("by") or ""))


def _when(window: bool, passes: list[dict[str, Any]], answer_to: str | None) -> str:
    if not window:
        return "after the answers" if passes else "now"
    if not answer_to:
        return "holding priority"
    return f"in answer to {answer_to}"


def _state_at(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The board after the queued actions (windows closed); the starting state when there are none."""
    if not data.get("actions"):
        return runner.json_safe(data.get("state") or {})
    try:
        return runner.resolve(data, snapshots=False).get("final") or {}
    except runner.DeskInputError:
        return runner.json_safe(data.get("state") or {})


def asked_words(answer: Mapping[str, Any], action_words: list[str] | None) -> str:
    """An answer's question with its action named as the desk's queue names it, numbered as the queue
    numbers it (from 1). The action is the one the answer's `ask` record names (contract §7: `legal` and
    `resolves` give a queued action's index from 0), never one read back out of the question's words;
    other questions are the engine's own words."""
    ask: Mapping[str, Any] = answer["ask"] if isinstance(answer.get("ask"), Mapping) else {}
    question = str(answer.get("question") or "")
    for kind, template in (("legal", "Is action {n}, “{said}”, legal where it stands in the queue?"),
                           ("resolves", "Does the card or effect used by action {n}, “{said}”, resolve?")):
        index = ask.get(kind)
        if isinstance(index, int) and not isinstance(index, bool) and action_words \
                and 0 <= index < len(action_words) and action_words[index]:
            return template.format(n=index + 1, said=action_words[index])
    return question
