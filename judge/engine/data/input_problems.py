"""The table of input problems: what can be wrong with a scenario, a card or an action as given, as
records, the way `errors.REASONS` holds why a rule refused something.

Every problem of a `ScenarioError` is `{"path", "message", "code", "facts"}` (and `"line"` for YAML
syntax): `code` one of `PROBLEMS`, `facts` the plain values it rests on (the bad value as the message
quotes it under `got`, a card's `name`, the `near` names a typo is close to, a `slot`, the `allowed`
keys or `options`), and `message` made from them by the kind's words. A reader that acts on a problem
(the desk's one-click fixes) reads its code and facts, never its words.

    Problems().problem("state.players.A.field.C9", "no_such_field_slot", key="C9", near=["C3"], …)

Facts that are lists read joined by ", " (an empty one reads "none"). A kind's `derive` adds words
made from the facts (a range, a hint). docs/scenario-format.md ("Input problems") lists the codes.
Add a kind here, with its words, and nowhere else.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ProblemKind:
    """One kind of input problem: its words (a format string over the facts) and, where the words
    need more than the facts as written, a function deriving those words from them."""

    words: str
    derive: Callable[[Mapping[str, Any]], Mapping[str, str]] | None = None


def matches(typed: str, known: Iterable[str], n: int = 2, cutoff: float = 0.75) -> list[str]:
    """The known names closest to `typed` (case-insensitive), closest first, as they are spelt: a
    problem's `near` names (one mistake, one message: "did you mean …?")."""
    names = {k.lower(): k for k in known}
    hits = difflib.get_close_matches(typed.strip().lower(), list(names), n=n, cutoff=cutoff)
    return [names[h] for h in hits]


def _range(facts: Mapping[str, Any]) -> Mapping[str, str]:
    lo, hi = facts.get("lo"), facts.get("hi")
    return {"bounds": f"{lo}..{hi}" if hi is not None else f"at least {lo}"}


def _near(sep: str, end: str = "") -> Callable[[Mapping[str, Any]], Mapping[str, str]]:
    """The did-you-mean words for the `near` names ("did you mean X or Y?")."""
    def derive(facts: Mapping[str, Any]) -> Mapping[str, str]:
        near = facts.get("near") or []
        return {"hint": f"{sep}did you mean {' or '.join(near)}?{end}" if near else ""}
    return derive


def _slot_hints(facts: Mapping[str, Any]) -> Mapping[str, str]:
    realm = " (realm slots go under realms:)" if facts.get("realm_slot") else ""
    return {"realm_hint": realm, **_near(" (", ")")(facts)}


def _action_slot(facts: Mapping[str, Any]) -> Mapping[str, str]:
    realms = facts.get("realm_slots") or []
    return {**_near(" (", ")")(facts), "realms": f", {', '.join(realms)}" if realms else ""}


def _context(facts: Mapping[str, Any]) -> Mapping[str, str]:
    return {"in_context": f" ({facts['context']})" if facts.get("context") else ""}


def _rounds(facts: Mapping[str, Any]) -> Mapping[str, str]:
    return {"player_lower": str(facts.get("player", "")).lower()}


def _plural(facts: Mapping[str, Any]) -> Mapping[str, str]:
    return {"s": "" if facts.get("questions") == 1 else "s"}


PROBLEMS: dict[str, ProblemKind] = {
    # --- reading the input at all
    "yaml_syntax": ProblemKind("YAML syntax error: {said}{in_context}", _context),   # the parser's words
    "unreadable_file": ProblemKind("can't read the file: {said}"),
    "too_deep": ProblemKind("the scenario is nested too deeply to read"),
    "too_large": ProblemKind("{said}"),                        # yamlio's size check says what is too large
    "bad_value": ProblemKind("{said}"),                        # a value no scenario can hold (yamlio)
    "scenario_not_mapping": ProblemKind("a scenario is a mapping with state:, actions: and so on"),
    "scenario_empty": ProblemKind("a scenario is a mapping with state:, actions: and so on (the file is "
                                  "empty)"),
    "too_many_actions": ProblemKind("{count} actions; at most {most} are taken"),
    "library_yaml": ProblemKind("YAML error: {said}"),
    "duplicate_card": ProblemKind("card {name!r} is also defined in {other}"),
    # --- shapes every reader checks (input_checks.Checker)
    "unknown_key": ProblemKind("unknown key; expected one of {allowed}"),
    "not_a_mapping": ProblemKind("expected a mapping, got {got}"),
    "not_a_list": ProblemKind("expected a list, got {got}"),
    "not_a_choice": ProblemKind("expected one of {options}, got {got}"),
    "not_a_bool": ProblemKind("expected true or false, got {got}"),
    "not_a_number": ProblemKind("expected a whole number, got {got}"),
    "out_of_range": ProblemKind("expected {bounds}, got {got}", _range),
    "not_a_step": ProblemKind("expected a multiple of {step}, got {got}"),
    "negative": ProblemKind("expected 0 or more, got {got}"),
    "not_positive": ProblemKind("expected a whole number above 0, got {got}"),
    "not_a_version": ProblemKind('expected a Codex version such as "0.4.0", got {got}'),
    "not_text": ProblemKind("expected text, got {got}"),
    "missing": ProblemKind("missing"),
    # --- cards (contract §3, card_reader.py)
    "no_stat": ProblemKind("expected at least one of atk, def, hp"),
    "not_a_ref": ProblemKind("expected a reference (target, target1, target2, …, {refs}), got {got}"),
    "keyword_needs_value": ProblemKind("{name} needs a value, e.g. {{{name}: …}}"),
    "unknown_keyword": ProblemKind("unknown keyword {name!r}; expected one of {keywords}"),
    "unknown_keyword_key": ProblemKind("unknown keyword; expected one of {keywords}"),
    "keyword_shape": ProblemKind("a keyword is a bare name or a one-key map, got keys {written_keys}",
                                 lambda facts: {"written_keys": ", ".join(facts.get("keys") or ())}),
    "keyword_takes_no_value": ProblemKind("{name} takes no value"),
    "limit_shape": ProblemKind('expected "1/Turn", "2/Game" or "2/Game, 1/Turn", got {got}'),
    "limit_words": ProblemKind('expected "N/Turn", "N/Game" or both, got {written!r}'),
    "selector_kind": ProblemKind("a target selector has exactly one of soul, spot, realm"),
    "unknown_cost": ProblemKind("unknown cost; expected {{discard: N}} or {{pay_hp: N, by: "
                                "self|caster|ambusher}}"),
    "part_count": ProblemKind("an action has exactly one of {parts}; got keys {keys}"),
    "missing_part_key": ProblemKind("missing; {part} needs {key}"),
    "missing_kind": ProblemKind("missing; expected one of {kinds}"),
    "missing_trigger": ProblemKind("missing; a {kind} effect needs a trigger ({triggers})"),
    "trigger_not_allowed": ProblemKind("a {kind} effect has no trigger (timing and instant effects do)"),
    "mandatory_not_timing": ProblemKind("only a timing effect can be mandatory"),
    "static_key_elsewhere": ProblemKind("only a static effect has {key}:; use do: for a {kind} effect"),
    "missing_do": ProblemKind("missing; a {kind} effect says what it does"),
    "static_has_do": ProblemKind("a static effect has no do; it uses gain:, grant: or negate: with to:"),
    "static_gives_nothing": ProblemKind("a static effect needs gain:, grant: or negate:"),
    "static_missing_to": ProblemKind("missing; whom the static effect gives to"),
    "empty_name": ProblemKind("must not be empty"),
    "missing_attribute": ProblemKind("missing; a Soul is light or dark"),
    "names_wrong_role": ProblemKind("only an {type} names a {key}"),
    "needs_effect": ProblemKind("an {type} needs an effect that is not static (casting or springing uses its "
                                "first one)"),
    "stat_on_event": ProblemKind("an {type} has no {stat}"),
    "missing_hp": ProblemKind("missing; a {type} needs HP"),
    "zero_hp": ProblemKind("a {type} needs HP above 0"),
    "leader_not_soul": ProblemKind("only a Soul can be a Leader"),
    "leader_rank": ProblemKind("Leaders are rank 3 (glossary/leader)"),
    "lay_shape": ProblemKind("expected frozen, a bare keyword, {{gain: {{…}}}} or {{grant: KEYWORD}}, got "
                             "{written!r}"),
    "lay_map_shape": ProblemKind("expected {{gain: {{…}}}} or {{grant: KEYWORD}}"),
    "no_such_part_slot": ProblemKind("no such slot {got}; slots are {slots}"),
    # --- the state (contract §2, state_loader.py)
    "not_a_card_name": ProblemKind("expected a card name, got {got}"),
    "unknown_card": ProblemKind("no card named {name!r} in the library or the scenario's `cards:`{hint}",
                                _near("; ")),
    "wrong_card_type": ProblemKind("{card} is a {type}, not a {wanted}"),
    "not_in_edition": ProblemKind("{card} is not legal in Codex {version}; it is legal in {editions}"),
    "pile_shape": ProblemKind("expected a count or a list of card names"),
    "negative_count": ProblemKind("expected a count of 0 or more, got {got}"),
    "round_outside_setup": ProblemKind("only with phase: setup (the recruiting rounds before turn 1); this "
                                       "is the {phase} phase"),
    "setup_turn": ProblemKind("expected 0 with phase: setup (before the first turn), got {got}"),
    "round_range": ProblemKind("expected 1..{most}: {player} has {most} recruiting rounds before the first "
                               "turn (glossary/player-{player_lower}), got {got}", _rounds),
    "not_a_player": ProblemKind("expected A or B, got {got}"),
    "players_shape": ProblemKind("expected a mapping with A and B"),
    "no_such_player": ProblemKind("no such player; players are A and B"),
    "missing_player": ProblemKind("missing; each player has a Leader on the altar (glossary/altar)"),
    "player_shape": ProblemKind("expected a mapping with field:, hand:, …"),
    "winner_shape": ProblemKind("expected A, B or nothing"),
    "no_such_proactive_slot": ProblemKind("no such slot {got}{hint}; slots are {slots}", _near(" (", ")")),
    "field_shape": ProblemKind("expected a mapping of slot: card"),
    "no_such_field_slot": ProblemKind("no such slot{realm_hint}{hint}; slots are {slots}", _slot_hints),
    "same_slot": ProblemKind("the same slot as {other}"),
    "realms_shape": ProblemKind("expected a mapping of realm slot: card"),
    "no_such_realm_slot": ProblemKind("no such realm slot; realm slots are {slots}"),
    "soul_entry_shape": ProblemKind("expected a card name or {{card: …, damage: …}}"),
    "missing_soul_card": ProblemKind("missing; damage, armament and the like belong to a Soul"),
    "soul_rank_over_slot": ProblemKind("{card} is rank {rank} but {slot} is a rank-{slot_rank} slot"),
    "armament_rank_over_slot": ProblemKind("{card} is rank {rank} but {slot} is a rank-{slot_rank} slot "
                                           "(10.3.1)"),
    "ambush_rank_over_slot": ProblemKind("{card} is rank {rank} but {slot} is a rank-{slot_rank} slot "
                                         "(10.4.1)"),
    "realm_rank_over_slot": ProblemKind("{card} is rank {rank} but {slot} is a rank-{slot_rank} realm slot "
                                        "(10.5.1)"),
    "captured_armament": ProblemKind("a captured Soul carries no Armament: it went to the Elysium (10.3.4)"),
    "ambush_shape": ProblemKind("expected {{card: …, setter: …}}"),
    "setter_here_empty": ProblemKind("no Soul stands here; say `setter: gone` or where the Setter is"),
    "setter_shape": ProblemKind("expected gone, here or a slot like A:L1, got {got}"),
    "two_ambushes": ProblemKind("the Soul here is the Setter of more than one Ambush; each Soul controls "
                                "only one set Ambush at a time (10.4.2)"),
    "lasting_kind": ProblemKind("a lasting effect has exactly one of {kinds}"),
    "lasting_not_begun": ProblemKind("turn {started} has not begun: this is turn {turn}"),
    "lasting_ended": ProblemKind("begun in turn {started}, it ended at the end of turn {last} (13.3.1), "
                                 "before this turn {turn}: leave it out of the position"),
    "recruits_left_out": ProblemKind("leaves out {left_out}, marked `recruited: this_turn` on the field"),
    "not_a_board_slot": ProblemKind("expected a slot like B:C3, got {got}"),
    "slot_effect_on_realm": ProblemKind("a slot effect is laid on a soul slot (13.3.3)"),
    "no_card_on_slot": ProblemKind("no card stands on {slot}"),
    "controller_shape": ProblemKind("expected A or B"),
    "missing_source": ProblemKind("missing; a slot like A:L2 or a card name (it decides Unyielding, 13.6.3)"),
    "used_not_a_slot": ProblemKind("expected a slot like A:altar, got {got}"),
    "no_such_effect": ProblemKind("{card} has no effect {effect!r}; its effects: {effects}"),
    "used_game_below_turn": ProblemKind("can't be less than this_turn"),
    "no_soul_on_slot": ProblemKind("no Soul stands on {slot}"),
    "empty_altar": ProblemKind("empty; the altar always holds the Leader (glossary/altar)"),
    "altar_not_leader": ProblemKind("{card} is not a Leader; the altar holds the Leader (glossary/altar, "
                                    "glossary/leader)"),
    "recruited_off_turn": ProblemKind("{player} can't have recruited this turn: it is {turn_player}'s turn "
                                      "(10.1.1)"),
    "spiral_rank": ProblemKind("{slot} is a rank-{slot_rank} slot; in {player}'s turn {turn} only a "
                               "rank-{rank} slot can be woken by choice (glossary/escalation-spiral)"),
    "spiral_no_turn": ProblemKind("{player} has taken no turn yet, so no slot is woken "
                                  "(glossary/escalation-spiral)"),
    "spiral_two": ProblemKind("{slots}: only one rank-{rank} slot is woken by choice "
                              "(glossary/escalation-spiral)"),
    "zero_hp_active": ProblemKind("{card} has {damage} damage and a maximum HP of {max_hp}; at 0 HP it would "
                                  "have been captured (glossary/capture): add `captured: true` or lower the "
                                  "damage"),
    # --- the scenario around the state (contract §1, scenario.py)
    "text_expected": ProblemKind("expected text"),
    "unknown_edition": ProblemKind("no Codex edition {name!r}; we hold {held}"),
    "on_illegal_choice": ProblemKind("expected stop or continue, got {got}"),
    "expect_shape": ProblemKind("expected a mapping (rejected, cites, winner, board, reasons)"),
    "state_shape": ProblemKind("expected a mapping with players:"),
    "verb_count": ProblemKind("an action has exactly one verb of {verbs}; got keys {keys}"),
    "missing_verb_key": ProblemKind("missing; {verb} needs {key}:"),
    "effect_name_expected": ProblemKind("expected the effect's name"),
    "verb_takes_true": ProblemKind("expected true ({{{verb}: true}})"),
    "not_an_action_slot": ProblemKind("expected a slot like C3 or B:L1, got {got}{hint}; slots are {slots}"
                                      "{realms}", _action_slot),
    "question": ProblemKind("{said}"),                         # a question of ask: (answers.py's words)
    "card_text": ProblemKind("{said}"),     # a card's text: its own record (card_text.TextProblem) as facts
    # --- expect: (contract §6 and our additions, expect.py)
    "expect_unknown_check": ProblemKind("unknown check (expected rejected, winner, cites, board, reasons or "
                                        "answers)"),
    "expect_rejected_shape": ProblemKind("expected an action number or none"),
    "expect_winner_shape": ProblemKind("expected A, B or none"),
    "expect_rule_ids": ProblemKind("expected a list of rule ids"),
    "expect_reasons_shape": ProblemKind("expected a list of reasons, e.g. [{{reason: target_unyielding, "
                                        "slot: B:C3}}]"),
    "expect_reason_shape": ProblemKind("expected a mapping with reason: and the facts to match"),
    "expect_unknown_reason": ProblemKind("unknown reason {reason!r}; expected one of {reasons}"),
    "expect_reason_facts": ProblemKind("expected facts as plain values (a card, a slot, a number)"),
    "expect_board_shape": ProblemKind("expected a mapping of slots and zones (e.g. B:C3, A.hand)"),
    "expect_spot_shape": ProblemKind("expected a mapping of checks"),
    "expect_spot_key": ProblemKind("not a slot or zone (expected e.g. B:C3 or A.hand)"),
    "expect_spot_check": ProblemKind("unknown check"),
    "expect_spot_value": ProblemKind("expected {shape}"),
    "expect_answers_shape": ProblemKind("expected a list, one expected verdict per question of ask:"),
    "expect_answers_count": ProblemKind("{answers} expected answers for {questions} question{s}", _plural),
    "expect_answer_check": ProblemKind("unknown check (expected verdict, step or rules)"),
    "expect_answer_step": ProblemKind("expected a step number"),
    "expect_verdict": ProblemKind("expected a verdict (yes, no, A, B, none, a value, a list) or "
                                  "{{verdict, step, rules}}"),
    # --- a message given as words only (a reader outside this table); coded when it gets its row
    "input": ProblemKind("{said}"),
}


class _Facts(dict[str, Any]):
    """The facts as words: lists joined by ", " (empty: "none"), a kind's derived words added."""

    def __init__(self, facts: Mapping[str, Any], kind: ProblemKind) -> None:
        super().__init__({k: (", ".join(map(str, v)) or "none") if isinstance(v, (list, tuple)) else v
                          for k, v in facts.items()})
        if kind.derive is not None:
            for key, words in kind.derive(facts).items():
                self.setdefault(key, words)

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def words(code: str, facts: Mapping[str, Any]) -> str:
    """A problem's message, made from its code's words and its facts."""
    kind = PROBLEMS[code]
    return kind.words.format_map(_Facts(facts, kind))


def key_path(path: str) -> tuple[str | int, ...]:
    """A problem's key path as its keys and list indexes: "state.players.A.field.C3" -> ("state",
    "players", "A", "field", "C3"), "cards[2].hp" -> ("cards", 2, "hp"). Readers of a problem (the
    desk) ask where it is by these, never by matching the path's text."""
    out: list[str | int] = []
    for part in path.split(".") if path else ():
        name, _, rest = part.partition("[")
        if name:
            out.append(name)
        for index in rest.split("[") if rest else ():
            digits = index.rstrip("]")
            out.append(int(digits) if digits.isdigit() else digits)
    return tuple(out)
