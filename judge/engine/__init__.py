"""The engine's one public face: everything outside `judge/engine/` imports from here, never from a
module inside (tests/test_layers.py fails on such an import). The folders inside are layers, each
importing only the ones above it in this list (docs/ENGINE.md):

    data/      the edition, its slot tree and numbers, card records and their reading, effect parts,
               input checks, errors, YAML reading, the budget
    position/  the stored state, actions, lines, conditions, targets, the derived board
    rules/     legality: the moment, shared checks, one verify per verb, each verb's candidates
    play/      the trace, the resolution context, zones, effects, the Cascade, battle, turns,
               consequences and non-events
    driver/    the verb table, loading a scenario, resolving it, the contract's dicts, the vocabulary

    scenario = load_scenario(text_or_mapping, source="file.yaml")   # raises ScenarioError
    position(scenario)                  # contract §6
    resolve(scenario, snapshots=False)  # contract §5 ruling, with its answers (§7)
    questions(scenario)                 # the questions (§7) its position and queue allow
    legal_actions(scenario, after=None) # contract §4 dicts
    can(scenario, action, after=None)   # one action legal there? checked alone, no list built
    why_not(scenario, action, after=None)  # its refusal's Reason records (empty when legal)
    refused_actions(scenario, after=None) # both players' candidates not legal then, with violations
    with budget.limit(Budget(seconds=2.0, steps=2000)): ...   # OutOfTime past it
"""

from judge.engine.data import budget
from judge.engine.data.budget import Budget, OutOfTime
from judge.engine.data.card_records import (
    CARD_TYPES,
    TRIGGER_WORDS,
    CardDef,
    EffectDef,
    Keyword,
    Library,
    TargetSpec,
)
from judge.engine.data.cards import CARDS_DIR, load_library, load_library_dir, parse_card, parse_cards
from judge.engine.data.edition import current_version, held, known
from judge.engine.data.errors import Problems, Reason, ScenarioError, StepLimit, Violation
from judge.engine.data.field import Field, load_field, parse_field
from judge.engine.data.input_problems import PROBLEMS, key_path, matches
from judge.engine.data.keywords import KEYWORDS, KeywordDef
from judge.engine.data.yamlio import TooLarge as YamlTooLarge
from judge.engine.data.yamlio import (
    expanded_size_problem,
    fix_keys,
    json_loads,
    load_project_file,
    safe_load,
    value_problems,
)
from judge.engine.driver.answers import QUESTIONS, Question
from judge.engine.driver.answers import schema as ask_schema
from judge.engine.driver.api import (
    can,
    legal_actions,
    load_scenario,
    position,
    questions,
    refused_actions,
    resolve,
    why_not,
)
from judge.engine.driver.card_text import (
    MAX_CARD_TEXT,
    Reading,
    TextCheck,
    check_card_text,
    read_card_text,
    write_card_text,
)
from judge.engine.driver.scenario import Scenario, load_scenario_file, parse_yaml, read_scenario_file
from judge.engine.driver.verbs import VERBS, Verb
from judge.engine.driver.vocabulary import vocabulary
from judge.engine.position.state import PLAYERS, SlotRef

__all__ = [
    # loading, reading and running a scenario
    "Scenario", "load_scenario", "load_scenario_file", "read_scenario_file", "parse_yaml", "position",
    "resolve", "legal_actions", "refused_actions", "questions", "can", "why_not",
    # the question table (§7)
    "QUESTIONS", "Question", "ask_schema",
    # the budget a caller may run the engine under
    "budget", "Budget", "OutOfTime",
    # errors
    "ScenarioError", "Problems", "StepLimit", "Violation", "Reason",
    # input problems: their codes and words, and where a problem's key path points
    "PROBLEMS", "key_path",
    # the vocabulary and the tables it is read from
    "vocabulary", "VERBS", "Verb", "CARD_TYPES", "TRIGGER_WORDS", "PLAYERS", "SlotRef",
    # cards and the field
    "CardDef", "EffectDef", "TargetSpec", "Keyword",
    # the keyword table
    "KEYWORDS", "KeywordDef",
    "Library", "CARDS_DIR", "load_library", "load_library_dir",
    "parse_card", "parse_cards", "Field", "load_field", "parse_field",
    # card text in words (issue 28): printed text <-> keywords and effects
    "MAX_CARD_TEXT", "Reading", "TextCheck", "check_card_text", "read_card_text", "write_card_text",
    # editions
    "current_version", "held", "known",
    # YAML and JSON as the engine reads them, and did-you-mean
    "safe_load", "json_loads", "fix_keys", "value_problems", "expanded_size_problem", "load_project_file",
    "YamlTooLarge",
    "matches",
]
