"""The OpenAPI 3.1 document of `/api/v1`, served at `/api/openapi.json`.

Written by hand, next to the code it describes (judge/web/api_v1.py), and checked: a test validates
it with openapi-spec-validator, another runs schemathesis against a live app (every operation, no
5xx, every response as documented), and every route under /api/v1 must appear here. The scenario
and ruling schemas follow the contract (../shared/spec/scenario-format.md §1–§6); they are open
(`additionalProperties` allowed) because the contract may be extended, never broken.
"""

from __future__ import annotations

from typing import Any

from judge.desk.runner import MAX_ACTIONS, MAX_CARDS
from judge.engine import CARD_TYPES, MAX_CARD_TEXT, ask_schema
from judge.reading import MAX_DISPUTE
from judge.search.query import MAX_QUERY

VERSION = "1.0.0"
REF = "#/components/schemas/"


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"oneOf": [schema, {"type": "null"}]}


STRINGS = {"type": "array", "items": {"type": "string"}}
RULE_IDS = {"type": "array", "items": {"type": "string"},
            "description": 'rule ids as the Codex prints them ("11.5.1"), "glossary/<slug>" or '
                           '"interpretation/<id>"'}
OPEN = {"type": "object"}   # a JSON object whose keys the contract leaves open

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object", "required": ["ok", "error", "status"],
        "description": "The one error shape of every JSON answer that is not a success.",
        "properties": {
            "ok": {"const": False}, "error": {"type": "string"}, "status": {"type": "integer"},
            "problems": {"type": "array", "items": ref("Problem")}}},
    "Problem": {
        "type": "object", "required": ["path", "message"],
        "properties": {"path": {"type": "string", "description": "key path, e.g. state.players.A.field.C9"},
                       "message": {"type": "string"}, "line": {"type": "integer"},
                       "code": {"type": "string", "description": "what is wrong: a code of the format "
                                "reference's table of input problems, e.g. unknown_card"},
                       "facts": {"type": "object", "description": "the values the problem rests on "
                                 "(e.g. name and near for unknown_card); the message is made from them"}}},
    "Scenario": {
        "type": "object", "required": ["state"],
        "description": "Contract §1: a board position plus a queue of actions. The shape is checked "
                       "here; what only the engine can know (card names, slots, the Codex's rules) is a "
                       "400 naming the key path, so a body this schema allows may still be refused.",
        "properties": {
            "id": {"type": "string"}, "title": {"type": "string"}, "question": {"type": "string"},
            "codex": {"type": "string", "minLength": 1,
                      "description": 'the rules version, e.g. "0.4.0" (one we hold)'},
            "cards": {"type": "array", "items": ref("Card"), "maxItems": MAX_CARDS},
            "state": ref("State"),
            "actions": {"type": "array", "items": ref("Action"), "maxItems": MAX_ACTIONS},
            "expect": ref("Expect"),
            "ask": {"type": "array", "items": ref("Ask"),
                    "description": "Contract §7: what the judge wants to know, one question an item"},
            "on_illegal": {"enum": ["stop", "continue"]}}},
    "Ask": {
        "description": "Contract §7: one question. `legal`/`resolves` name a queued action by its index "
                       "(`resolves` also by card name), `happens_to` a slot at the start, `value` a slot's "
                       "value after the queue, `can_attack` whether the Soul on a slot may attack now, "
                       "after the queue (ours), `winner: true` who wins.",
        **ask_schema(),   # one one-key object per row of the question table (engine.QUESTIONS)
        "example": {"resolves": 0}},
    "Answer": {
        "type": "object", "required": ["ask", "verdict", "text", "step", "rules"],
        "description": "Contract §7: the answer to one question, its verdict first.",
        "properties": {
            "ask": ref("Ask"),
            "question": {"type": "string", "description": "the question in words (ours)"},
            "facts": {"type": "object",
                      "description": "what the question is about (ours): `action` (its index, from 0) and "
                                     "`action_words`, `card`, `slot`, `of`"},
            "default": {"const": True, "description": "present when the scenario asked nothing: the question "
                                                      "a judge most likely has about the last queued action"},
            "verdict": {"description": '"yes"/"no" (legal, resolves); the value (value); "A", "B" or "none" '
                                       '(winner); a list of damaged, healed, captured, returned, exiled, '
                                       'moved, changed or ["nothing"] (happens_to)',
                        "oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"},
                                  {"type": "null"}, STRINGS]},
            "text": {"type": "string", "description": "the answer in words, opening with its verdict"},
            "step": {"type": ["integer", "null"], "description": "the deciding step's n"},
            "rules": RULE_IDS}},
    "State": {
        "type": "object", "required": ["players"], "description": "Contract §2: the board position.",
        "properties": {
            "turn_player": {"enum": ["A", "B"]},
            "phase": {"enum": ["setup", "preparation", "combat", "emplacement"]},
            "turn": {"type": "integer", "minimum": 0}, "round": {"type": "integer", "minimum": 1},
            "players": {"type": "object", "required": ["A", "B"],
                        "properties": {"A": ref("Player"), "B": ref("Player")}},
            "lasting": {"type": "array", "items": OPEN}, "used": {"type": "array", "items": OPEN}}},
    "Player": {
        "type": "object",
        "properties": {
            "turns_taken": {"type": "integer"}, "proactive": STRINGS,
            "field": {"type": "object", "description": "slot name → a card name or {card, damage, …}"},
            "realms": {"type": "object"},
            "hand": {"oneOf": [STRINGS, {"type": "integer"}]},
                       "deck": {"oneOf": [STRINGS, {"type": "integer"}]},
            "elysium": STRINGS, "exile": STRINGS, "decked_out_turns": {"type": "integer"}}},
    "Card": {
        "type": "object", "required": ["name"], "description": "Contract §3: a card definition.",
        "properties": {
            "name": {"type": "string"}, "type": {"enum": ["soul", "event", "armament", "ambush", "realm"]},
            "rank": {"type": "integer", "minimum": 0, "maximum": 3}, "attribute": {"enum": ["light", "dark"]},
            "leader": {"type": "boolean"}, "atk": {"type": "integer"}, "def": {"type": "integer"},
            "hp": {"type": "integer"}, "text": {"type": "string"}, "keywords": {"type": "array"},
            "effects": {"type": "array"}, "caster": OPEN, "ambusher": OPEN}},
    "Action": {
        "type": "object", "minProperties": 1,
        "description": "Contract §4: a one-verb map — recruit, cast, equip, invoke, set, spring, activate, "
                       "use, attack, pass, end_phase — with by:, targets:, … as the verb needs.",
        "example": {"attack": "C2", "target": "B:L1"}},
    "Expect": {
        "type": "object", "description": "Contract §6: the expected ruling.",
        "properties": {"rejected": {"oneOf": [{"type": "integer"}, {"const": "none"}]}, "cites": STRINGS,
                       "winner": {"enum": ["A", "B", "none"]}, "board": OPEN,
                       "answers": {"type": "array", "description": "ours: each answer's expected verdict "
                                                                   "(and step), in the order of `ask:`"}}},
    "Step": {
        "type": "object", "required": ["n", "kind", "text", "rules"],
        "properties": {"n": {"type": "integer"}, "kind": {"type": "string"}, "text": {"type": "string"},
                       "rules": RULE_IDS, "changes": {"type": "array"},
                       "state": {"description": "with ?snapshots=1: the §2 state after this step"},
                       "derived": {"description": "with ?snapshots=1: the board derived after this step "
                                                  "(§5 derived values, without contributions)"}}},
    "Ruling": {
        "type": "object",
               "required": ["scenario", "codex", "ok", "steps", "rejected", "final", "derived", "winner",
                            "answers"],
        "description": "Contract §5: what the engine returns.",
        "properties": {
            "scenario": {"type": "string"}, "codex": {"type": "string"}, "ok": {"type": "boolean"},
            "steps": {"type": "array", "items": ref("Step")},
            "rejected": nullable({"type": "object", "required": ["action", "text", "rules"],
                                  "properties": {"action": {"type": "integer"}, "text": {"type": "string"},
                                                 "rules": RULE_IDS}}),
            "final": nullable(ref("State")),
            "derived": {"type": "object", "additionalProperties": ref("Derived")},
            "winner": {"enum": ["A", "B", None]},
            "answers": {"type": "array", "items": ref("Answer"),
                        "description": "Contract §7: one answer per question of `ask:` (or the default one)"},
            "expect": {"type": "object", "required": ["passed", "failures"],
                       "properties": {"passed": {"type": "boolean"}, "failures": {"type": "array"}}},
            "stopped": {"type": "object", "properties": {"reason": {"type": "string"},
                                                         "at_step": {"type": "integer"}}}}},
    "Derived": {
        "type": "object", "description": "The values the rules derive for one occupied slot.",
        "properties": {"card": {"type": "string"}, "line": {"type": ["integer", "null"]},
                       "atk": {"type": "integer"}, "def": {"type": "integer"}, "hp": {"type": "integer"},
                       "max_hp": {"type": "integer"}, "damage": {"type": "integer"}, "keywords": STRINGS,
                       "proactive": {"type": "boolean"}, "captured": {"type": "boolean"}}},
    "Position": {
        "type": "object", "required": ["scenario", "derived", "checks"],
        "description": "Contract §6 (judge position): derived values and each queued action's legality.",
        "properties": {
            "scenario": {"type": "string"},
                       "derived": {"type": "object", "additionalProperties": ref("Derived")},
            "checks": {"type": "array", "items": {
                "type": "object", "required": ["action", "legal"],
                "properties": {"action": {"type": "integer"}, "legal": {"type": "boolean"},
                               "violations": {"type": "array", "items": {
                                   "type": "object", "properties": {"text": {"type": "string"},
                                                                    "rules": RULE_IDS}}}}}}}},
    "LegalActions": {
        "type": "object", "required": ["scenario", "after", "player", "actions"],
        "properties": {"scenario": {"type": "string"}, "after": {"type": "integer"},
                       "player": {"enum": ["A", "B", None]},
                       "actions": {"type": "array", "items": ref("Action")}}},
    "SavedRef": {
        "type": "object", "required": ["id", "url"], "additionalProperties": False,
        "properties": {"id": {"type": "string", "pattern": "^[0-9a-f]{12,64}$"},
                       "url": {"type": "string", "format": "uri",
                               "description": "the ruling's page, /r/<id>"}}},
    "SavedRuling": {
        "type": "object", "required": ["id", "url", "codex", "created", "scenario", "outcome", "ruling"],
        "properties": {"id": {"type": "string"}, "url": {"type": "string", "format": "uri"},
                       "codex": {"type": "string"}, "created": {"type": "string"},
                       "scenario": ref("Scenario"), "outcome": OPEN, "ruling": OPEN}},
    "RulePage": {
        "type": "object", "required": ["rule", "status", "url", "rulings"],
        "properties": {"rule": {"type": "object", "required": ["id"]}, "status": {"type": "string"},
                       "url": {"type": "string"}, "rulings": {"type": "array"}, "cites": {"type": "array"},
                       "cited_by": {"type": "array"}}},
    "GlossaryEntry": {
        "type": "object", "required": ["entry", "url"],
        "properties": {"entry": {"type": "object", "required": ["slug", "term", "aliases", "body"],
                                 "properties": {"slug": {"type": "string"}, "term": {"type": "string"},
                                                "aliases": STRINGS, "body": STRINGS}},
                       "url": {"type": "string"}, "rulings": {"type": "array"}}},
    "SearchResults": {
        "type": "object", "required": ["query", "redirect", "total", "results"],
        "properties": {
            "query": {"type": "string"}, "total": {"type": "integer"},
            "redirect": {"type": ["string", "null"], "description": "a rule number typed exactly: its page"},
            "suggestion": {"type": ["string", "null"]}, "page": {"type": "integer"},
                       "pages": {"type": "integer"},
            "results": {"type": "array", "items": {
                "type": "object", "required": ["id", "kind", "url", "title"],
                "properties": {"id": {"type": "string"}, "kind": {"type": "string"},
                               "url": {"type": "string"},
                               "title": {"type": "string"}, "snippet": {"type": "string"},
                               "text": {"type": "string"}}}}}},
    "CardReading": {
        "type": "object", "required": ["keywords", "effects", "reading"],
        "description": "A card's text read into contract §3's keywords and effects, and the words the "
                       "writer makes of them (the same the desk and the card pages show).",
        "properties": {"keywords": {"type": "array"},
                       "effects": {"type": "array", "items": {"type": "object"}},
                       "caster": {"type": "object"}, "ambusher": {"type": "object"},
                       "values": {"type": "object", "description": "an Armament's bonus (+10 ATK)"},
                       "reading": {"type": "string"},
                       "corrections": {"type": "array", "items": {"type": "object"}}}},
    "DisputeReading": {
        "type": "object", "required": ["scenario", "reading", "guesses"],
        "description": "A dispute in words read into a scenario (contract §2, §4, §7), the reading printed "
                       "back in the desk's words, and every default the reader chose.",
        "properties": {"scenario": {"type": "object"}, "reading": {"type": "string"},
                       "guesses": {"type": "array", "items": {
                           "type": "object", "required": ["what", "why"],
                           "properties": {"what": {"type": "string"}, "why": {"type": "string"}}}}}},
    "CardPage": {
        "type": "object", "required": ["card", "url"],
        "properties": {"card": {"type": "object", "required": ["name", "type", "slug"]},
                       "url": {"type": "string"}, "yaml": {"type": "string"}, "rulings": {"type": "array"}}},
}

ERRORS = {  # status → when
    "400": "The input is invalid: its problems name each key path (and line).",
    "404": "Nothing has this id.",
    "413": "The body is larger than 256 KB.",
    "415": "The body is not application/json or application/yaml.",
    "422": "The request needs more work than one request may take.",
    "429": "Too many requests from this client: wait for Retry-After seconds.",
    "501": "The engine cannot do this yet.",
    "503": "Storage is unavailable, or every engine of the server is busy, for a moment: try again after "
           "Retry-After seconds.",
}


RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again",
                               "schema": {"type": "string", "pattern": "^[0-9]+$"}}}


def error(status: str) -> dict[str, Any]:
    response = {"description": ERRORS[status], "content": {"application/json": {"schema": ref("Error")}}}
    if status in ("429", "503"):
        response["headers"] = RETRY_AFTER
    return response


def ok(schema: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ref(schema)}}}


def path_param(name: str, description: str, example: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "string"}, "example": example}


EXAMPLE_SCENARIO = {
    "title": "Cyber-Wormhole cannot target Noah (Unyielding)",
    "state": {"players": {"A": {"field": {"altar": "Queen Sol", "L2": "Dusk Lancer"},
                                "hand": ["Cyber-Wormhole", "Iron Blade"]},
                          "B": {"field": {"altar": "King Umbra", "C3": {"card": "Noah", "damage": 30}}}}},
    "actions": [{"cast": "Cyber-Wormhole", "caster": "L2", "targets": ["B:C3"], "discard": ["Iron Blade"]}],
}
SCENARIO_BODY = {
    "required": True,
    "description": "A scenario (contract §1), as JSON or YAML; at most 256 KB.",
    "content": {"application/json": {"schema": ref("Scenario"), "example": EXAMPLE_SCENARIO},
                "application/yaml": {"schema": ref("Scenario"), "example": EXAMPLE_SCENARIO}},
}
GET_ERRORS = ("404", "429")
POST_ERRORS = ("400", "413", "415", "422", "429", "503")  # 503: every engine slot busy (or storage)


def get_op(op_id: str, summary: str, response: dict[str, Any], params: list[dict[str, Any]],
           errors: tuple[str, ...] = GET_ERRORS, tag: str = "Codex") -> dict[str, Any]:
    return {"get": {"operationId": op_id, "summary": summary, "tags": [tag], "parameters": params,
                    "responses": {"200": response, **{s: error(s) for s in errors}}}}


def post_op(op_id: str, summary: str, responses: dict[str, Any], params: list[dict[str, Any]] | None = None,
            errors: tuple[str, ...] = POST_ERRORS) -> dict[str, Any]:
    return {"post": {"operationId": op_id, "summary": summary, "tags": ["Engine"], "parameters": params or [],
                     "requestBody": SCENARIO_BODY,
                     "responses": {**responses, **{s: error(s) for s in errors}}}}


SNAPSHOTS = {"name": "snapshots", "in": "query", "required": False,
             "schema": {"enum": ["0", "1", "true", "false", "yes", "no"]},
             "description": "1: each step also carries the state after it"}
AFTER = {"name": "after", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0},
         "description": "play the first N queued actions first (default: all)"}
QUERY = {"name": "q", "in": "query", "required": True, "schema": {"type": "string", "maxLength": MAX_QUERY},
         "description": "words, a rule number (13.6.2), a term; kind:card, kind:rule, … narrow it",
         "example": "unyielding"}
PAGE = {"name": "page", "in": "query", "required": False,
        "schema": {"type": "integer", "minimum": 1, "maximum": 999999}}

PATHS: dict[str, Any] = {
    "/api/v1/rules/{rule_id}": get_op("getRule", "A rule of the Codex, its citations and the rulings citing "
                                                 "it",
                                      ok("RulePage", "The rule."),
                                      [path_param("rule_id", "11.5.1, 11.6.1b, 13.6 or 10", "13.6.2")]),
    "/api/v1/glossary/{slug}": get_op(
        "getGlossaryEntry", "A glossary entry; an alias or another spelling redirects (302) to its entry",
        ok("GlossaryEntry", "The entry."),
                                      [path_param("slug", "the entry's slug, term or alias", "unyielding")]),
    "/api/v1/search": get_op("search", "Search the Codex, the glossary, cards and library rulings",
                             ok("SearchResults", "Results, or the page of the rule number typed."),
                             [QUERY, PAGE],
                             errors=("400", "429")),
    "/api/v1/cards/{slug}": get_op("getCard", "A card of the card library", ok("CardPage", "The card."),
                                   [path_param("slug", "the card's name, lower-case, hyphens", "noah")]),
    "/api/v1/position": post_op("position",
                                "Derived values and each queued action's legality (no resolution)",
                                {"200": ok("Position", "The position.")}),
    "/api/v1/resolve": post_op("resolve", "Resolve the scenario: the ruling, step by step, citing rules",
                               {"200": ok("Ruling", "The ruling.")}, [SNAPSHOTS], (*POST_ERRORS, "501")),
    "/api/v1/legal": post_op("legal", "The legal actions of the player who may act",
                             {"200": ok("LegalActions", "The legal actions.")}, [AFTER],
                             (*POST_ERRORS, "501")),
    "/api/v1/rulings": post_op(
        "saveRuling", "Resolve and save the scenario: its permanent, shareable ruling",
        {"201": {**ok("SavedRef", "Saved (or already saved: the same content always gets the same id)."),
                 "headers": {"Location": {"schema": {"type": "string"},
                                          "description": "the ruling's page"}}}},
        errors=POST_ERRORS),
    "/api/v1/rulings/{rid}": get_op("getRuling",
                                    "A saved ruling: the scenario and the ruling made when saved",
                                    ok("SavedRuling", "The saved ruling."),
                                    [path_param("rid", "the id from POST /api/v1/rulings", "0123456789ab")],
                                    errors=("404", "429", "503"), tag="Rulings"),
}
PATHS["/api/v1/rulings"]["post"]["tags"] = ["Rulings"]
PATHS["/api/v1/cards/read"] = {"post": {
    "operationId": "readCard", "summary": "Read a card's printed text into its keywords and effects",
    "tags": ["Engine"], "parameters": [],
    "requestBody": {"required": True, "description": "The card's text and type.", "content": {
        media: {"schema": {"type": "object", "required": ["text"], "additionalProperties": False,
                           "properties": {"text": {"type": "string", "maxLength": MAX_CARD_TEXT},
                                          "type": {"enum": list(CARD_TYPES)}}},
                "example": {"text": "Ambusher: Any Dark Soul. When the Ambusher is attacked: deal 15 damage "
                                    "to the attacker.", "type": "ambush"}}
        for media in ("application/json", "application/yaml")}},
    "responses": {"200": ok("CardReading", "What the text says."),
                  **{s: error(s) for s in ("400", "413", "415", "429")},
                  "422": {"description": "The text can't be read: each problem names the phrase, where it "
                                         "starts and the nearest phrasing known.",
                          "content": {"application/json": {"schema": ref("Error")}}}}}}

PATHS["/api/v1/read"] = {"post": {
    "operationId": "readDispute",
    "summary": "Read a dispute in words into a scenario, printing the reading back",
    "tags": ["Engine"], "parameters": [],
    "requestBody": {"required": True, "description": "The dispute, and optionally who is speaking (whose "
                                                     "“my” and “your” are).", "content": {
        media: {"schema": {"type": "object", "required": ["text"], "additionalProperties": False,
                           "properties": {"text": {"type": "string", "maxLength": MAX_DISPUTE},
                                          "as": {"enum": ["A", "B"]}}},
                "example": {"text": "Grey Knight casts Firebolt at Harold; B answers by springing Hidden "
                                    "Snare at Grey Knight. Does Firebolt resolve?"}}
        for media in ("application/json", "application/yaml")}},
    "responses": {"200": ok("DisputeReading", "The scenario as read; post it to /api/v1/resolve or "
                                              "/api/v1/rulings."),
                  **{s: error(s) for s in ("400", "413", "415", "429")},
                  "422": {"description": "The dispute can't be read for certain: each problem names the "
                                         "words, where they start and what they could be, or the two "
                                         "readings.",
                          "content": {"application/json": {"schema": ref("Error")}}}}}}


def document(server_url: str = "/") -> dict[str, Any]:
    """The whole document; `server_url` is where this app is served (the request's root URL)."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "Codex Judge API", "version": VERSION,
                 "description": "Rules, glossary, cards and search of the Codex; the engine that resolves "
                                "scenarios citing rule ids; saved, shareable rulings. Every error is "
                                "{ok: false, error, status, problems?}. POST bodies are application/json "
                                "or application/yaml. See /api for examples."},
        "servers": [{"url": server_url}],
        "paths": PATHS,
        "components": {"schemas": SCHEMAS},
    }
