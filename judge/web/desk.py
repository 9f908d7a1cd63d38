"""The ruling desk (`/desk`), shareable rulings (`/r/<id>`) and the scenario library (`/scenarios`).

Reading needs no JavaScript: every ruling page renders on the server, trace and boards included.
`static/js/desk.js` only makes building a scenario quicker, through the small JSON endpoints here.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue

from judge.codex.editions import editions
from judge.desk import card_form, hints, pages, runner, words
from judge.desk import cards as card_index
from judge.desk.layout import load_field
from judge.desk.preview_image import HEIGHT, WIDTH
from judge.desk.rules import rule_link
from judge.engine import budget, vocabulary
from judge.library import LIBRARY, Entry
from judge.rulings import RulingStorage, RulingTooLarge, Saved
from judge.web import caching, kept_pages
from judge.web.errors import BadInput, error_response
from judge.web.links import rulings_citing
from judge.web.security import check_csrf
from judge.web.twin import twin

bp = Blueprint("desk", __name__)

SAVE_RESERVE = 0.3  # seconds of a save's budget kept from the engine for packing and writing its view


@bp.app_context_processor
def desk_globals() -> dict[str, Any]:
    return {"rulings_citing": rulings_citing, "desk_rule_link": rule_link, "board_figure": pages.board_figure,
            "action_label": pages.action_label, "max_step_boards": pages.MAX_STEP_BOARDS,
            "human_date": pages.human_date, "touched": pages.touched,
            "step_words": pages.step_words, "reason_words": pages.reason_words,
            "asked_words": words.asked_words}


@bp.before_app_request
def warm_library() -> None:
    if not current_app.testing:
        LIBRARY.warm_in_background()


def store() -> RulingStorage:
    return current_app.extensions["rulings"]


def saved_or_404(rid: str) -> Saved:
    record = store().get(rid)
    if record is None:
        abort(404, description=f"No saved ruling has the id {rid!r}.")
    return record


def library_entry_or_404(pid: str) -> Entry:
    entry = LIBRARY.get(pid)
    if entry is None:
        abort(404, description=f"No library scenario is called {pid!r}.")
    return entry


# -- input ------------------------------------------------------------------------------------------
def json_body() -> Any:
    """The request's JSON body, None when it is not JSON or is malformed; too deep to parse is a 400."""
    if not request.is_json:
        return None
    try:
        return request.get_json(silent=True)
    except RecursionError:
        raise BadInput("The JSON body is nested too deeply.") from None


def posted_scenario() -> dict[str, Any]:
    """The scenario in this request: a form field `yaml`, or a JSON body {scenario} / {yaml}."""
    if request.is_json:
        body = json_body()
        if not isinstance(body, dict):
            raise BadInput("Send a JSON object: {\"scenario\": {...}} or {\"yaml\": \"...\"}.")
        if isinstance(body.get("scenario"), dict):
            data = body["scenario"]
            runner.check_limits(data)
            return data
        text = body.get("yaml")
    else:
        text = request.form.get("yaml")
    if not isinstance(text, str) or not text.strip():
        raise BadInput("No scenario was sent: paste its YAML.",
                       [{"path": "", "message": "the scenario is empty"}])
    data = runner.parse(text)
    runner.check_limits(data)
    return data


@bp.errorhandler(runner.DeskInputError)
def desk_input_error(exc: runner.DeskInputError) -> Response:
    return error_response(400, str(exc), hints.explain(exc.problems, posted_mapping()))


def posted_mapping() -> dict[str, Any] | None:
    """The posted scenario mapping if there is one (for naming cards in a problem), else None."""
    body = json_body() if request.is_json else None
    scenario = body.get("scenario") if isinstance(body, dict) else None
    return scenario if isinstance(scenario, dict) else None


# -- the desk ---------------------------------------------------------------------------------------
@bp.route("/desk", methods=["GET", "POST"])
def desk() -> tuple[str, int]:
    context: dict[str, Any] = {"ruling_view": None, "problems": [], "yaml_problems": [], "board_problems": []}
    if request.method == "POST":  # the form that works without JavaScript: paste, resolve
        try:
            data = posted_scenario()
        except runner.DeskInputError as exc:  # the user's text stays in the editor, the error beside it
            data, context["problems"] = pages.start(), hints.explain(exc.problems)
            context["yaml_problems"] = context["problems"]
            context["yaml_text"] = request.form.get("yaml", "")
            context["yaml_error"] = True
        else:
            context["ruling_view"] = pages.ruling_context(data, "desk")
            # in words beside the board; with their key paths under the posted YAML
            context["problems"] = context["board_problems"] = context["ruling_view"]["problems"]
            context["yaml_problems"] = context["problems"]
    else:
        data = initial_scenario()
    context.setdefault("yaml_text", runner.to_yaml(data))
    context.update(scenario=data, scenario_json=json.dumps(data),
                   field_json=json.dumps(load_field().to_dict()),
                   starts=pages.starts(),
                   starts_json=json.dumps({s["key"]: s["scenario"] for s in pages.starts()}),
                   fresh=request.method == "GET" and not request.args, card_keywords=card_index.keywords(),
                   vocab=vocabulary_json()[0], vocab_json=vocabulary_json()[1])
    status = 400 if context["problems"] else 200
    return render_template("desk/desk.html", **context), status


def initial_scenario() -> dict[str, Any]:
    if rid := request.args.get("r"):
        return saved_or_404(rid).scenario
    if pid := request.args.get("scenario"):
        return library_entry_or_404(pid).data
    return pages.start()


@bp.post("/desk/board.json")
def board_json() -> Response:
    """Redraw the board for the scenario being built; report its problems and each action's legality."""
    data = posted_scenario()
    problems: list[dict[str, Any]] = []
    derived: dict[str, Any] = {}
    rejected = None
    try:
        position = runner.position(data)
        derived = position.get("derived") or {}
        if data.get("actions"):
            rejected = first_illegal(data, position)
    except runner.DeskInputError as exc:
        problems = hints.explain(exc.problems, data)
    figure = pages.board_figure(data.get("state") or {}, data.get("cards"), derived=derived, words=True)
    if rejected:
        rejected = dict(rejected, text=pages.reason_words(rejected),
                        rules_html=[str(rule_link(r)) for r in rejected.get("rules", [])])
    return jsonify(ok=not problems, problems=problems, rejected=rejected, yaml=runner.to_yaml(data),
                   words=words.queue_words(data), board=render_template("desk/_board.html", figure=figure))


def first_illegal(data: dict[str, Any], position: dict[str, Any]) -> dict[str, Any] | None:
    """The first queued action that is illegal where it stands in the queue (the ruling's `rejected`);
    without resolution, the first one illegal in the starting position."""
    try:
        return runner.resolve(data, snapshots=False).get("rejected")
    except runner.DeskInputError:
        raise
    except Exception:  # without resolution (or if it fails), the starting position's checks
        current_app.logger.exception("resolving the desk's queue failed")
        for check in position.get("checks") or []:
            if not check.get("legal", True):
                violations = check.get("violations") or [{}]
                return {"action": check.get("action"),
                        "text": " ".join(v.get("text", "") for v in violations),
                        "rules": list(dict.fromkeys(r for v in violations for r in v.get("rules", [])))}
    return None


@bp.post("/desk/legal.json")
def legal_json() -> Response:
    data = posted_scenario()
    after = json_body().get("after") if request.is_json else None
    if after is not None and (not isinstance(after, int) or after < 0):
        raise BadInput("`after` is the number of queued actions to play first (0 or more).")
    actions = runner.legal_actions(data, after)
    groups = words.legal_groups(data, len(data.get("actions") or []) if after is None else after, actions)
    return jsonify(ok=True, after=after, actions=actions, groups=groups)


@bp.post("/desk/refused.json")
def refused_json() -> Response:
    """The actions that may not be taken at a point of the queue (both players'), each in words with why:
    a dispute is often about one of them, and it is queued from here like a legal one."""
    data = posted_scenario()
    after = json_body().get("after") if request.is_json else None
    if after is not None and (not isinstance(after, int) or after < 0):
        raise BadInput("`after` is the number of queued actions to play first (0 or more).")
    point = len(data.get("actions") or []) if after is None else after
    refused = words.refused_words(data, point, runner.legal_actions(data, point, refused=True))
    return jsonify(ok=True, after=after, refused=refused)


@bp.post("/desk/resolve.json")
def resolve_json() -> Response:
    data = posted_scenario()
    budget.reserve(runner.RENDER_GRACE)  # the boards are drawn within the request's deadline + its grace
    view = pages.ruling_context(data, "desk")
    if view["problems"]:
        raise BadInput("The scenario has problems.", view["problems"])
    ruling = view["ruling"]
    if not data.get("ask"):   # the desk shows the likeliest question chosen: left as it is, it was asked
        ruling = dict(ruling, answers=[{k: v for k, v in a.items() if k != "default"}
                                       for a in ruling.get("answers") or []])
    cards = data.get("cards")
    steps = ruling["steps"]
    boards = [render_template("desk/_board.html", figure=pages.board_figure(
        s.get("state"), cards, derived=s.get("derived") or {}, highlight=pages.touched(s),
        title=f"The board after step {s['n']}"))
        if i < pages.MAX_STEP_BOARDS or i == len(steps) - 1 else pages.NO_BOARD
        for i, s in enumerate(steps)]
    return jsonify(ok=True, ruling=runner.without_snapshots(ruling), boards=boards,
                   deciding=view["deciding_step"],
                   answers=ruling.get("answers") or [],
                   trace=render_template("desk/_answers.html", ruling=ruling,
                                         action_words=view["action_words"])
                   + render_template("desk/_trace.html", ruling=ruling, boards=False,
                                     deciding=view["deciding_step"], action_words=view["action_words"]))


@bp.post("/desk/parse.json")
def parse_json() -> Response:
    """YAML pasted or uploaded → the scenario mapping, after the engine has checked it.

    With `{"action": "..."}`: one hand-written action → its mapping (its legality shows on the board)."""
    body = json_body()
    if isinstance(body, dict) and isinstance(body.get("action"), str):
        return jsonify(ok=True, action=runner.parse_action(body["action"][:4000]))
    data = posted_scenario()
    shape = []
    if not isinstance(data.get("state", {}), dict):
        shape.append({"path": "state", "message": "expected a mapping (turn_player, phase, players, …)"})
    if not isinstance(data.get("actions", []), list):
        shape.append({"path": "actions", "message": "expected a list of actions"})
    if shape:
        raise BadInput("The desk can't lay out this scenario.", shape)
    try:  # a scenario still being built may have problems: the desk loads it and lists them
        runner.load(data)
        problems = []
    except runner.DeskInputError as exc:
        problems = exc.problems
    return jsonify(ok=True, scenario=data, problems=problems)


@lru_cache(maxsize=1)
def vocabulary_json() -> tuple[dict[str, Any], str, str]:
    """The engine's vocabulary (what the custom-card form offers), as data, as JSON and its ETag."""
    engine_words = vocabulary()
    vocab = dict(engine_words, reference_words=card_index.REFERENCE_WORDS,
                 duration_words=card_index.DURATION_WORDS, card_form=card_form.CARD_FORM,
                 grant_valued=card_form.grant_valued(engine_words["keywords"]))
    text = json.dumps(vocab, sort_keys=True)
    return vocab, text, hashlib.sha256(text.encode()).hexdigest()[:16]


@bp.get("/desk/vocabulary.json")
def vocabulary_endpoint() -> ResponseReturnValue:
    """The engine's vocabulary: verbs, effect parts, keywords, conditions, triggers, … with their words."""
    _, text, etag = vocabulary_json()
    response = Response(text, mimetype="application/json")
    response.set_etag(etag)
    response.cache_control.public = True
    response.cache_control.max_age = caching.MAX_AGE
    return response.make_conditional(request)


@bp.get("/desk/cards.json")
def cards_json() -> Response:
    if full := request.args.get("full", "")[:80]:  # one card whole, as a scenario's `cards:` would write it
        return jsonify(ok=True, card=card_index.full_card(full))
    kinds = tuple(k for k in request.args.get("type", "").split(",") if k) or None
    leader = {"1": True, "true": True, "0": False, "false": False}.get(request.args.get("leader", ""))
    query = request.args.get("q", "")[:80]
    keyword = request.args.get("keyword", "")[:40] or None
    max_rank = request.args.get("max_rank", type=int)
    limit = min(max(request.args.get("limit", 40, type=int) or 40, 1), 100)
    found = card_index.search(query, kind=kinds, leader=leader, keyword=keyword, limit=limit,
                              max_rank=max_rank)
    guess = None if found or not query.strip() else card_index.did_you_mean(query, kinds, leader, max_rank)
    return jsonify(ok=True, cards=found, did_you_mean=guess,
                   suggested=card_index.search(guess, kind=kinds, leader=leader, limit=1) if guess else [])


@bp.post("/desk/share")
def share() -> ResponseReturnValue:
    check_csrf()
    data = posted_scenario()
    budget.reserve(SAVE_RESERVE)  # packing and writing the kept view fit within the deadline + its grace
    view = pages.ruling_context(data, "share")
    if view["problems"]:
        raise BadInput("Only a scenario the engine can read can be shared.", view["problems"])
    ruling = runner.without_snapshots(view["ruling"])
    try:
        rid = store().save(data, str(ruling.get("codex") or ""), view["outcome"], ruling,
                           versions=view_versions(str(ruling.get("codex") or "") or None),
                           view=view["ruling"])
    except RulingTooLarge as exc:
        raise BadInput(f"This ruling is too long to share: {exc}.", status=422) from None
    kept_pages.make_soon(rid)
    return redirect(url_for("desk.saved", rid=rid), code=303)


# -- rulings anyone can open ------------------------------------------------------------------------
@twin(bp, "/r/<rid>")
def saved(rid: str) -> tuple[str, dict[str, Any]]:
    record = saved_or_404(rid)
    # judged under the edition it was saved under
    pinned = record.codex if editions().get(record.codex) else None
    ruling = kept_ruling(rid, record.scenario, pinned)
    # a view reads the kept ruling and draws its boards without a clock (bounded by size, once per content
    # id: judge.web.kept_pages keeps the page), so it is the same page under load as idle
    budget.CURRENT.set(None)
    context = pages.ruling_context(record.scenario, f"r/{rid}", ruling=ruling, edition=pinned)
    pages.compare_saved(context, record.outcome)
    if context.get("ruling") is not None and context.get("codex") not in (None, editions().current):
        # read after the first view
        current = kept_ruling(rid, record.scenario, editions().current, own=False)
        pages.compare_with_current(context, record.scenario, f"r/{rid}", ruling=current)
    keep_links_in_edition(context.get("codex"))
    context.update(id=rid, kind="saved", codex_saved=record.codex, created=record.created,
                   saved_ruling=record.ruling,
                   yaml_url=url_for("desk.saved_yaml", rid=rid), json_url=url_for("desk.saved_json", rid=rid),
                   page_url=url_for("desk.saved", rid=rid), desk_url=url_for("desk.desk", r=rid),
                   preview_image=preview_picture("preview_images.saved_png", rid=rid))
    return "desk/ruling.html", context


def preview_picture(endpoint: str, **values: Any) -> dict[str, Any]:
    """A ruling page's link-preview picture (judge.web.preview_images): its address and size."""
    return {"url": url_for(endpoint, _external=True, **values), "width": WIDTH, "height": HEIGHT}


def kept_ruling(rid: str, scenario: dict[str, Any], edition: str | None = None,
                own: bool = True) -> dict[str, Any] | None:
    """The ruling kept with the permalink for today's engine and Codex data, judged under `edition` (its
    own edition, or with `own=False` another one, kept beside it); made (once) and kept when the versions
    changed since. None when the scenario no longer resolves (the page lists its problems)."""
    versions = view_versions(edition)
    key = rid if own else f"{rid}@{edition}"
    ruling = kept = store().view(key, versions)
    if ruling is None:
        try:
            ruling = runner.resolve(scenario, source=f"r/{rid}", edition=edition)
        except runner.DeskInputError:
            return None
        store().put_view(key, versions, ruling)  # kept even when cut short: a view reads, never resolves
        kept = store().view(key, versions)
    if kept is not None and "too_large" in kept:  # refused once, and at once ever after
        abort(422, description=f"This shared ruling is too large to show: {kept['too_large']}.")
    return ruling


def view_versions(edition: str | None) -> str:
    """What a kept ruling depends on: the engine and Codex data, and the edition it is judged under."""
    return f"{caching.ruling_versions()} {edition or ''}".strip()


def keep_links_in_edition(version: str | None) -> None:
    """A ruling judged under an edition other than the current one links to that edition's rule pages
    (judge.web.codex_pages keeps `g.edition` in every link to a Codex page)."""
    if version and version != editions().current and editions().get(version):
        g.edition = version


@bp.get("/r/<rid>.yaml")
def saved_yaml(rid: str) -> Response:
    record = saved_or_404(rid)
    return yaml_response(record.scenario, f"{rid}.yaml")


def yaml_response(data: dict[str, Any], filename: str) -> Response:
    response = make_response(runner.to_yaml(data))
    response.mimetype = "application/yaml"
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
