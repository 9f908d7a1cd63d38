"""The API for bots, versioned: `/api/v1/…`, described by the OpenAPI document at `/api/openapi.json`
(judge/web/openapi.py) and shown with examples at `/api`.

    GET  /api/v1/rules/<id>       a rule (as /rules/<id>.json)
    GET  /api/v1/glossary/<slug>  a glossary entry (an alias redirects to its entry)
    GET  /api/v1/search?q=        search results (as /search.json)
    GET  /api/v1/cards/<slug>     a library card (as /cards/<slug>.json)
    POST /api/v1/cards/read       a card's printed text → {"keywords", "effects", "reading"}, 422 with
                                  the problems when it can't be read
    POST /api/v1/read             a dispute in words → {"scenario", "reading", "guesses"}, 422 with the
                                  problems (the words it can't read, or two readings to choose between)
    POST /api/v1/position         contract §6 position JSON      } body: a scenario, YAML or JSON
    POST /api/v1/resolve          contract §5 ruling             } (as /api/position, /api/resolve,
    POST /api/v1/legal            the legal actions              }  /api/legal, kept as aliases)
    POST /api/v1/rulings          save a scenario's ruling → 201 {"id", "url"}
    GET  /api/v1/rulings/<id>     a saved ruling: scenario, ruling, outcome, codex, created

Every POST needs `Content-Type: application/json` or `application/yaml` (415 otherwise): a browser
cannot send those cross-site without a CORS preflight we never grant, so no CSRF token is asked.
Every error is the one shape `{"ok": false, "error", "status", "problems"?}` (judge/web/errors.py).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue

from judge.codex import load_codex
from judge.desk import pages, runner
from judge.engine import CARD_TYPES, MAX_CARD_TEXT, budget, read_card_text, write_card_text
from judge.reading import Declined, read_dispute
from judge.rulings import RulingTooLarge
from judge.search.query import MAX_QUERY, clean
from judge.web import api, card_pages, codex_pages, kept_pages, search_views
from judge.web.desk import SAVE_RESERVE, view_versions
from judge.web.errors import BadInput
from judge.web.links import absolute

bp = Blueprint("api_v1", __name__, url_prefix="/api/v1")

BODY_TYPES = api.BODY_TYPES

# The engine over HTTP: the same views as /api/position, /api/resolve, /api/legal.
bp.add_url_rule("/position", "position", api.position, methods=["POST"])
bp.add_url_rule("/resolve", "resolve", api.resolve, methods=["POST"])
bp.add_url_rule("/legal", "legal", api.legal, methods=["POST"])


@bp.before_request
def require_body_type() -> None:
    if request.method == "POST" and request.mimetype not in BODY_TYPES:
        sent = request.mimetype or "no Content-Type"
        raise BadInput(f"Send the scenario as application/json or application/yaml (got {sent}).",
                       status=415)


def _context(view: Any, **kwargs: Any) -> Response:
    """A page's JSON twin through the API: the view's own context, or its Response (a 404, a redirect)."""
    result = view.__wrapped__(**kwargs)
    if isinstance(result, Response):
        return result
    return jsonify(result[1])


@bp.get("/rules/<rule_id>")
def rule(rule_id: str) -> Response:
    return _context(codex_pages.rule, rule_id=rule_id)


@bp.get("/glossary/<slug>")
def glossary_entry(slug: str) -> ResponseReturnValue:
    entry = load_codex().entry(slug)
    if entry is not None and entry.slug != slug:  # an alias or another spelling: its entry
        return redirect(url_for("api_v1.glossary_entry", slug=entry.slug), 302)
    return _context(codex_pages.glossary_entry, slug=slug)


@bp.get("/search")
def search() -> ResponseReturnValue:
    """As the OpenAPI document says, exactly: `q` required, at most MAX_QUERY characters (an empty or
    blank one finds nothing: a 200 with no results); `page` a whole number 1–999999."""
    q = request.args.get("q")
    if q is None:
        raise BadInput("q is required: the words, rule number or term to search for.")
    if len(q) > MAX_QUERY:
        raise BadInput(f"q is {len(q)} characters long; at most {MAX_QUERY}.")
    page = request.args.get("page")
    if page is not None and not re.fullmatch(r"[1-9][0-9]{0,5}", page):
        raise BadInput(f"page={page[:40]!r} is not a page number from 1 to 999999.")
    if not clean(q):
        return jsonify({"query": "", "redirect": None, "suggestion": None, "total": 0, "results": [],
                        "page": 1, "pages": 0})
    return search_views._run(as_json=True)


@bp.get("/cards/<slug>")
def card(slug: str) -> Response:
    return _context(card_pages.card, slug=slug)


@bp.post("/cards/read")
def read_card() -> Response:
    """A card's printed text read into its keywords and effects (contract §3), with the words the
    writer makes of them; 422 with the problems (each naming the phrase and where it starts)."""
    data = _body_mapping('{"text": "…", "type": "soul"}')
    unknown = sorted(set(data) - {"text", "type"})
    if unknown:
        raise BadInput("Unknown keys.", [{"path": k, "message": "unknown key; expected text, type"}
                                         for k in unknown])
    card_text, card_type = data.get("text"), data.get("type", "soul")
    if not isinstance(card_text, str):
        raise BadInput("text must be the card's text.", [{"path": "text", "message": "expected text"}])
    if card_type not in CARD_TYPES:
        raise BadInput("Unknown card type.",
                       [{"path": "type", "message": f"expected one of {', '.join(CARD_TYPES)}"}])
    if len(card_text) > MAX_CARD_TEXT:
        raise BadInput(f"text is {len(card_text)} characters long; at most {MAX_CARD_TEXT}.",
                       [{"path": "text", "message": f"at most {MAX_CARD_TEXT} characters"}])
    reading = read_card_text(card_text, card_type)
    if reading.problems:
        raise BadInput("The card text can't be read.",
                       [{"path": "text", "message": p.text, **p.to_dict()} for p in reading.problems],
                       status=422)
    out: dict[str, Any] = {**reading.card_data(), "reading": write_card_text(
        reading.keywords, reading.effects, card_type, reading.caster, reading.ambusher, reading.values)}
    if reading.values:
        out["values"] = reading.values
    out["corrections"] = [{"offset": c.offset, "written": c.written, "read_as": c.read_as}
                          for c in reading.corrections]
    return jsonify(out)


@bp.post("/read")
def read() -> Response:
    """A dispute in words read into a scenario (contract §2, §4, §7), with its reading printed back and
    every default the reader chose; 422 with the problems when it can't be read for certain. A bot then
    posts the scenario to /api/v1/resolve, or to /api/v1/rulings for a permalink."""
    data = _body_mapping('{"text": "Grey Knight attacks Harold. What happens to Harold?"}')
    unknown = sorted(set(data) - {"text", "as"})
    if unknown:
        raise BadInput("Unknown keys.", [{"path": k, "message": "unknown key; expected text, as"}
                                         for k in unknown])
    text, speaker = data.get("text"), data.get("as")
    if not isinstance(text, str):
        raise BadInput("text must be the dispute in words.", [{"path": "text", "message": "expected text"}])
    if speaker is not None and speaker not in ("A", "B"):
        raise BadInput("as must be A or B.", [{"path": "as", "message": "expected A or B: who is speaking"}])
    try:
        reading = read_dispute(text, speaker=speaker)
    except Declined as exc:
        raise BadInput("The dispute can't be read for certain.",
                       [{"path": "text", **p.to_dict()} for p in exc.problems], status=422) from None
    return jsonify(reading.to_dict())


def _body_mapping(example: str) -> dict[str, Any]:
    raw = request.get_data(cache=False)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"The body is not UTF-8 text (byte {exc.start}).") from None
    if not text.strip():
        raise BadInput(f"Send {example} as the request body.")
    return api._parse(text)


@bp.post("/rulings")
def save_ruling() -> tuple[Response, int, dict[str, str]]:
    """As the desk's share: resolve, keep the ruling with the scenario, answer where it lives."""
    data = api.scenario_mapping()
    budget.reserve(SAVE_RESERVE)  # as the desk's share: packing and writing fit in the deadline + grace
    view = pages.ruling_context(data, "api")
    if view["problems"]:
        count = len(view["problems"])
        raise BadInput(f"The scenario is invalid: {count} problem{'s' if count != 1 else ''}.",
                       view["problems"])
    ruling = runner.without_snapshots(view["ruling"])
    try:
        rid = current_app.extensions["rulings"].save(
            data, str(ruling.get("codex") or ""), view["outcome"], ruling,
            versions="" if ruling.get("stopped") else view_versions(str(ruling.get("codex") or "") or None),
            view=view["ruling"])
    except RulingTooLarge as exc:
        raise BadInput(f"This ruling is too long to save: {exc}.", status=422) from None
    kept_pages.make_soon(rid)
    url = absolute(url_for("desk.saved", rid=rid))
    return jsonify({"id": rid, "url": url}), 201, {"Location": url}


@bp.get("/rulings/<rid>")
def saved_ruling(rid: str) -> Response:
    record = current_app.extensions["rulings"].get(rid)
    if record is None:
        raise BadInput(f"No saved ruling has the id {rid!r}.", status=404)
    return jsonify({"id": record.id, "url": absolute(url_for("desk.saved", rid=record.id)),
                    "codex": record.codex, "created": record.created, "scenario": record.scenario,
                    "outcome": record.outcome, "ruling": record.ruling})
