"""`/api`: a page for bot authors (what each /api/v1 operation does, with curl commands to paste),
and `/api/openapi.json`, the OpenAPI 3.1 document (judge/web/openapi.py).

Each example is data (`_examples()`); the page renders it as a curl command against this very site, and a
test runs every command the page shows."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass

from flask import Blueprint, Response, jsonify, render_template

from judge.desk.runner import content_id
from judge.web import openapi
from judge.web.links import origin

bp = Blueprint("api_docs", __name__)

SCENARIO_YAML = """title: Cyber-Wormhole cannot target Noah (Unyielding)
state:
  players:
    A:
      field: {altar: Queen Sol, L2: Dusk Lancer}
      hand: [Cyber-Wormhole, Iron Blade]
    B:
      field: {altar: King Umbra, C3: {card: Noah, damage: 30}}
actions:
  - {cast: Cyber-Wormhole, caster: L2, targets: ["B:C3"], discard: [Iron Blade]}
"""
SCENARIO = {
    "title": "Noah attacks",
    "state": {"phase": "combat", "players": {"A": {"field": {"altar": "Queen Sol", "L2": "Noah"}},
                                             "B": {"field": {"altar": "King Umbra", "L2": "Dusk Lancer"}}}},
    "actions": [{"attack": "L2", "target": "B:L2"}],
}


@dataclass(frozen=True)
class Example:
    title: str
    explain: str
    method: str
    path: str
    body: str = ""
    content_type: str = ""

    def curl(self, root: str) -> str:
        """The command to paste, against the site at `root` (e.g. "https://judge.example.org")."""
        url = shlex.quote(root.rstrip("/") + self.path)
        if self.method == "GET":
            return f"curl -s {url}"
        return (f"curl -s -X POST {url} \\\n  -H 'Content-Type: {self.content_type}' \\\n"
                f"  --data-binary {shlex.quote(self.body)}")


def _examples() -> list[Example]:
    saved_id = content_id(SCENARIO)
    as_json = json.dumps(SCENARIO)
    return [
        Example("A rule", "The rule's text, what it cites, what cites it, and library rulings citing it.",
                "GET", "/api/v1/rules/13.6.2"),
        Example("A glossary entry", "By slug, term or alias (an alias redirects to its entry).",
                "GET", "/api/v1/glossary/unyielding"),
        Example("Search", "What a bot's !rule unyielding might ask; a rule number alone answers with its "
                          "page "
                "in redirect.", "GET", "/api/v1/search?q=unyielding"),
        Example("A card", "A card of the library: values, keywords, effects, rulings using it.",
                "GET", "/api/v1/cards/noah"),
        Example("Resolve a scenario (YAML)", "The ruling, step by step, each step citing rule ids.",
                "POST", "/api/v1/resolve", SCENARIO_YAML, "application/yaml"),
        Example("Resolve a scenario (JSON)", "The same endpoint takes JSON.",
                "POST", "/api/v1/resolve", as_json, "application/json"),
        Example("Check a position", "Derived values and whether each queued action would be legal, "
                "without resolving.", "POST", "/api/v1/position", SCENARIO_YAML, "application/yaml"),
        Example("Legal actions", "What the player who may act can do after the first N queued actions.",
                "POST", "/api/v1/legal?after=0", as_json, "application/json"),
        Example("Save a ruling", "Answers 201 with {\"id\", \"url\"}: the url is the ruling's page to post "
                "in a chat. The same scenario always gets the same id.",
                "POST", "/api/v1/rulings", as_json, "application/json"),
        Example("Read a saved ruling", "The scenario and the ruling as saved (the id is the one the save "
                                       "above answered).",
                "GET", f"/api/v1/rulings/{saved_id}"),
    ]


@bp.get("/api/openapi.json")
def openapi_json() -> Response:
    return jsonify(openapi.document(origin() + "/"))


@bp.get("/api")
def api_page() -> str:
    root = origin()
    examples = [(example, example.curl(root)) for example in _examples()]
    return render_template("api.html", examples=examples, root=root, errors=openapi.ERRORS)
