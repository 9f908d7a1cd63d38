"""Issue 13: the inputs that answered 500, replayed; budgets; storage faults; the front door."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
import yaml

from judge.web import create_app

SIMPLE = """
title: A plain position
state:
  turn: 9
  players:
    A: {field: {altar: Queen Sol}, hand: [Grey Knight]}
    B: {field: {altar: King Umbra}}
actions:
  - {recruit: Grey Knight, to: C3}
"""

LOOP = """
title: Two mirrors fight forever
cards:
  - {name: Test Leader, type: soul, rank: 3, leader: true, attribute: light, atk: 5, def: 100, hp: 60}
  - name: Test Mirror
    type: soul
    rank: 2
    attribute: light
    atk: 5
    def: 100
    hp: 1000
    effects:
      - {kind: timing, trigger: after_battle, mandatory: true,
         do: [{battle: {attacker: self, target: attacker, counts_as_attack: true}}]}
state:
  phase: combat
  players:
    A: {field: {altar: Test Leader, C3: Test Mirror}}
    B: {field: {altar: Test Leader, C3: Test Mirror}}
actions:
  - {attack: C3, target: "B:C3"}
  - {attack: C3, target: "B:C3"}
"""

API = ("/api/position", "/api/resolve", "/api/legal")


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("index"))


def make_app(tmp_path, index_dir: str, **config):
    """An app with its own database and the module's search index (built once)."""
    return create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "DATABASE": str(tmp_path / "r.sqlite3"),
                       "INDEX_DIR": index_dir, "JUDGE_BUDGET_SECONDS": 60, **config})


@pytest.fixture()
def app(tmp_path, index_dir):
    return make_app(tmp_path, index_dir)


@pytest.fixture()
def client(app):
    return app.test_client()


def token(client) -> str:
    page = client.get("/desk").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def post_everywhere(client, text: str) -> list[tuple[str, object]]:
    """`text` (YAML) to every scenario endpoint; (endpoint, response) pairs."""
    out = [(path, client.post(path, data=text, content_type="application/yaml")) for path in API]
    for path in ("/desk/parse.json", "/desk/board.json", "/desk/resolve.json", "/desk/legal.json"):
        out.append((path, client.post(path, json={"yaml": text})))
    out.append(("/desk/share", client.post("/desk/share", data={"yaml": text, "csrf_token": token(client)})))
    return out


def problem_paths(response) -> list[str]:
    body = response.get_json()
    assert body["ok"] is False and body["status"] == response.status_code
    return [p["path"] for p in body.get("problems", [])]


# -- the six measured 500s ----------------------------------------------------------------------------
def test_a_huge_integer_is_refused_with_its_key_path_everywhere(client):
    text = SIMPLE.replace("turn: 9", "turn: " + "9" * 5000)
    for path, response in post_everywhere(client, text):
        assert response.status_code == 400, path
        if path != "/desk/share":
            assert "state.turn" in problem_paths(response), path


def test_a_huge_integer_in_json_is_refused_with_its_key_path(client):
    data = json.dumps(yaml.safe_load(SIMPLE)).replace('"turn": 9', '"turn": ' + "7" * 5000)
    for path in API:
        response = client.post(path, data=data, content_type="application/json")
        assert response.status_code == 400 and "state.turn" in problem_paths(response), path


@pytest.mark.parametrize(("expect", "where"), [
    ("{cites: 1}", "expect.cites"),
    ('{board: {"A:C3": true}}', "expect.board.A:C3"),
    ('{board: {"A.hand": x}}', "expect.board.A.hand"),
    ('{board: {"A:C3": {hp: many}}}', "expect.board.A:C3.hp"),
    ("{winner: C}", "expect.winner"),
])
def test_expect_is_validated_like_the_rest(client, expect, where):
    text = SIMPLE + f"expect: {expect}\n"
    for path in API:
        response = client.post(path, data=text, content_type="application/yaml")
        assert response.status_code == 400 and where in problem_paths(response), (path, response.get_json())


def test_an_event_without_effects_is_refused_when_loaded_not_cast(client):
    text = """
cards:
  - {name: Dud, type: event, rank: 0, text: "Nothing.", effects: []}
state:
  players:
    A: {field: {altar: Queen Sol, C3: Grey Knight}, hand: [Dud]}
    B: {field: {altar: King Umbra}}
actions:
  - {cast: Dud, caster: C3}
"""
    for path in ("/api/legal", "/api/legal?after=1", "/api/resolve"):
        response = client.post(path, data=text, content_type="application/yaml")
        assert response.status_code == 400 and "cards[0].effects" in problem_paths(response)
    # given as its text alone, the card is read from it, and text that says nothing is refused there
    as_text = text.replace(', effects: []', '')
    response = client.post("/api/resolve", data=as_text, content_type="application/yaml")
    assert response.status_code == 400 and problem_paths(response) == ["cards[0].text"]


@pytest.mark.parametrize("tagged", ["!!set {a}", "!!binary aGVsbG8=", "!!omap [{a: 1}]", "!python/tuple [1]"])
def test_yaml_holds_only_json_types(client, tagged):
    text = SIMPLE + f"notes: {tagged}\n"
    response = client.post("/desk/parse.json", json={"yaml": text})
    assert response.status_code == 400
    problem = response.get_json()["problems"][0]
    assert problem["line"] == text.count("\n")  # the last line, where the tag is
    response = client.post("/desk/share", data={"yaml": text, "csrf_token": token(client)})
    assert response.status_code == 400


def test_a_date_reads_as_text(client):
    response = client.post("/desk/parse.json",
                           json={"yaml": SIMPLE.replace("A plain position", "2026-01-01")})
    assert response.status_code == 200 and response.get_json()["scenario"]["title"] == "2026-01-01"


def test_a_lone_surrogate_is_refused_with_its_key_path(client):
    text = SIMPLE.replace("title: A plain position", 'title: "X\\ud800Y"')
    response = client.post("/desk/share", data={"yaml": text, "csrf_token": token(client)},
                           headers={"Accept": "application/json"})
    assert response.status_code == 400 and "title" in response.get_data(as_text=True)
    for path in API:
        response = client.post(path, data=text, content_type="application/yaml")
        assert response.status_code == 400 and "title" in problem_paths(response)
    as_json = json.dumps(yaml.safe_load(SIMPLE) | {"title": "X\ud800Y"})
    response = client.post("/api/resolve", data=as_json, content_type="application/json")
    assert response.status_code == 400 and "title" in problem_paths(response)


def test_an_engine_failure_is_a_logged_500_never_a_ruling(client, monkeypatch, caplog):
    from judge.engine.driver import resolve

    def broken(g):
        raise AttributeError("an engine bug")

    monkeypatch.setattr(resolve, "play", broken)
    for path in ("/api/resolve", "/desk/resolve.json"):
        response = (client.post(path, data=SIMPLE, content_type="application/yaml") if path.startswith("/api")
                    else client.post(path, json={"yaml": SIMPLE}))
        body = response.get_json()
        assert response.status_code == 500 and body["ok"] is False
        assert "steps" not in body and "ruling" not in body
    logged = [r.getMessage() for r in caplog.records if "engine failure" in r.getMessage()]
    assert logged and re.search(r"scenario [0-9a-f]{64}: AttributeError: an engine bug", logged[0])


# -- budgets -------------------------------------------------------------------------------------------
def test_past_the_deadline_a_ruling_says_where_and_why_it_stopped(tmp_path, index_dir):
    # the budget covers reading the scenario too: 0.5 s leaves room to read it on a loaded machine (at
    # 0.05 s the reading alone sometimes ran out, a 422 before any step), and the loop still outlasts it
    app = make_app(tmp_path, index_dir, JUDGE_BUDGET_SECONDS=0.5, JUDGE_BUDGET_STEPS=10**6)
    ruling = app.test_client().post("/api/resolve", data=LOOP, content_type="application/yaml").get_json()
    assert ruling["stopped"]["reason"] == "time"
    last = ruling["steps"][-1]
    assert last["kind"] == "limit" and "time budget of 0.5 s" in last["text"]
    assert ruling["stopped"]["at_step"] == len(ruling["steps"]) - 1 and ruling["ok"] is False


def test_a_step_cap_stops_the_ruling_with_its_reason(client):
    ruling = client.post("/api/resolve", data=LOOP, content_type="application/yaml").get_json()
    assert ruling["stopped"] == {"reason": "steps", "at_step": 2000}


def test_legal_actions_past_the_deadline_are_a_422(tmp_path, index_dir):
    app = make_app(tmp_path, index_dir, JUDGE_BUDGET_SECONDS=0.05, JUDGE_BUDGET_STEPS=10**6)
    response = app.test_client().post("/api/legal?after=2", data=LOOP, content_type="application/yaml")
    assert response.status_code == 422 and "time budget" in response.get_json()["error"]


def test_the_api_caps_actions_and_effects_like_the_desk(client):
    data = yaml.safe_load(SIMPLE)
    data["actions"] = [{"pass": True}] * 61
    response = client.post("/api/resolve", data=json.dumps(data), content_type="application/json")
    assert response.status_code == 400 and "actions" in problem_paths(response)
    many = yaml.safe_load(LOOP)
    many["cards"][1]["effects"] *= 13
    response = client.post("/api/resolve", data=json.dumps(many), content_type="application/json")
    assert response.status_code == 400 and "cards[1].effects" in problem_paths(response)


def test_an_answer_past_the_size_limit_is_a_422(tmp_path, index_dir):
    app = make_app(tmp_path, index_dir, JUDGE_MAX_RESPONSE=20_000)
    response = app.test_client().post("/api/resolve?snapshots=1", data=LOOP, content_type="application/yaml")
    assert response.status_code == 422 and "KB" in response.get_json()["error"]


# -- the front door ------------------------------------------------------------------------------------
def test_the_api_refuses_bodies_that_are_not_json_or_yaml(client):
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        response = client.post("/api/resolve", data=SIMPLE, content_type=content_type)
        assert response.status_code == 415 and response.get_json()["status"] == 415


def test_security_headers_and_the_session_cookie(client, tmp_path, index_dir):
    response = client.get("/desk")
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "camera=()" in response.headers["Permissions-Policy"]
    assert "Strict-Transport-Security" not in response.headers
    cookie = response.headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "Secure" not in cookie
    https = make_app(tmp_path, index_dir, JUDGE_HTTPS=True).test_client()
    response = https.get("/desk")
    assert "max-age" in response.headers["Strict-Transport-Security"]
    assert "Secure" in response.headers["Set-Cookie"]


def test_rate_limits_answer_429_with_retry_after_in_the_error_shape(tmp_path, index_dir):
    app = make_app(tmp_path, index_dir, RATELIMIT_ENABLED=True, JUDGE_LIMIT_API="3/minute")
    client = app.test_client()
    codes = [client.post("/api/position", data=SIMPLE, content_type="application/yaml").status_code
             for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    response = client.post("/api/position", data=SIMPLE, content_type="application/yaml")
    body = response.get_json()
    assert body["ok"] is False and body["status"] == 429 and int(response.headers["Retry-After"]) > 0
    assert client.get("/rules/1.1").status_code in (200, 404)  # pages are not limited


def test_a_rate_limit_counts_a_whole_group_not_each_endpoint(tmp_path, index_dir):
    """Spreading engine requests over endpoints (the API's, the desk's) does not multiply the limit;
    reading is never counted; other groups count apart."""
    app = make_app(tmp_path, index_dir, RATELIMIT_ENABLED=True, JUDGE_LIMIT_ENGINE="3/minute",
                   JUDGE_LIMIT_SEARCH="2/minute")
    client = app.test_client()
    codes = [client.post("/api/position", data=SIMPLE, content_type="application/yaml").status_code,
             client.get("/api/v1/rules/13.6.2").status_code,
             client.post("/api/v1/resolve", data=SIMPLE, content_type="application/yaml").status_code,
             client.get("/api/v1/cards/noah").status_code,
             client.post("/api/v1/legal", data=SIMPLE, content_type="application/yaml").status_code,
             client.post("/api/v1/position", data=SIMPLE, content_type="application/yaml").status_code]
    assert codes == [200, 200, 200, 200, 200, 429]
    assert [client.get("/search?q=taunt").status_code for _ in range(3)] == [200, 200, 429]


def test_rate_limits_are_on_by_default(tmp_path, index_dir):
    app = create_app({"DATABASE": str(tmp_path / "r.sqlite3"), "INDEX_DIR": index_dir})
    assert app.config["RATELIMIT_ENABLED"] is True  # counted beside the SQLite database, by every worker
    assert app.config["RATELIMIT_STORAGE_URI"] == f"sqlite://{tmp_path / 'limits.sqlite3'}"


# -- permalinks ----------------------------------------------------------------------------------------
def test_a_permalink_is_resolved_once_and_answers_304(client, monkeypatch):
    response = client.post("/desk/share", data={"yaml": SIMPLE, "csrf_token": token(client)})
    assert response.status_code == 303
    url = response.headers["Location"]
    from judge.engine.driver import resolve

    calls = []
    real = resolve.resolve
    monkeypatch.setattr(resolve, "resolve", lambda scenario, *a,
                        **k: calls.append(scenario.title) or real(scenario, *a, **k))
    first = client.get(url)
    again = client.get(url + ".json")
    assert first.status_code == 200 and again.status_code == 200
    assert "A plain position" not in calls  # read, never resolved (library rulings listed on the page may be)
    assert again.get_json()["ruling"]["steps"]
    etag = first.headers["ETag"]
    assert "max-age" in first.headers["Cache-Control"]
    cached = client.get(url, headers={"If-None-Match": etag})
    assert cached.status_code == 304 and cached.get_data() == b""


def test_a_permalink_made_by_other_versions_is_resolved_again_and_kept(client, app):
    from judge.rulings.sqlite import RulingStore
    from judge.web.desk import view_versions

    response = client.post("/desk/share", data={"yaml": SIMPLE, "csrf_token": token(client)})
    rid = response.headers["Location"].rsplit("/", 1)[1]
    store = RulingStore(app.config["DATABASE"])
    versions = view_versions(store.get(rid).codex)  # engine, Codex data and the edition it is judged under
    assert store.view(rid, versions) is not None  # kept when shared
    with sqlite3.connect(app.config["DATABASE"]) as db:
        db.execute("UPDATE views SET versions = 'engine old codex 0.3.0'")
    assert store.view(rid, versions) is None
    assert client.get(f"/r/{rid}").status_code == 200
    assert store.view(rid, versions)["steps"]


def test_rule_pages_have_an_etag_and_answer_304(client):
    first = client.get("/glossary")
    assert first.status_code == 200 and first.headers.get("ETag")
    assert client.get("/glossary", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304


def test_a_looping_ruling_is_stored_compressed_and_capped(client, app):
    response = client.post("/desk/share", data={"yaml": LOOP, "csrf_token": token(client)})
    assert response.status_code == 303
    with sqlite3.connect(app.config["DATABASE"]) as db:
        size = db.execute("SELECT length(ruling) FROM rulings").fetchone()[0]
    assert size < len(LOOP) * 100


# -- storage -------------------------------------------------------------------------------------------
def test_a_locked_database_answers_503_with_retry_after(client, app):
    client.post("/desk/share", data={"yaml": SIMPLE, "csrf_token": token(client)})
    holder = sqlite3.connect(app.config["DATABASE"], check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        from judge.rulings import sqlite as store

        old = store.BUSY_SECONDS
        store.BUSY_SECONDS = 0.2
        try:
            response = client.post("/desk/share", data={"yaml": SIMPLE.replace("plain", "other"),
                                                        "csrf_token": token(client)},
                                   headers={"Accept": "application/json"})
        finally:
            store.BUSY_SECONDS = old
    finally:
        holder.rollback()
        holder.close()
    assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
    assert "busy" in response.get_data(as_text=True)


def test_a_read_only_database_answers_503_naming_the_cause(client, app, tmp_path):
    client.post("/desk/share", data={"yaml": SIMPLE, "csrf_token": token(client)})
    from judge.rulings.sqlite import RulingStore, StoreUnavailable

    store = RulingStore(app.config["DATABASE"])
    store._connect = lambda: _query_only(app.config["DATABASE"])  # type: ignore[method-assign]
    # (root ignores file modes: SQLite's own read-only switch)
    with pytest.raises(StoreUnavailable) as caught:
        store.save({"title": "new"}, "0.4.0", {}, {})
    assert "read-only" in caught.value.cause


def _query_only(path):
    db = sqlite3.connect(path)
    db.execute("PRAGMA query_only = 1")
    return db


def test_healthz_reports_index_database_and_codex(client):
    body = client.get("/healthz").get_json()
    assert body["codex"] == "0.4.0" and body["database"]["ok"] and set(body) >= {"index", "engine"}


def test_an_unusable_instance_folder_stops_start_up_with_one_line(tmp_path, monkeypatch):
    from judge.web import InstanceUnusable

    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    monkeypatch.setenv("JUDGE_INSTANCE", str(blocked / "instance"))
    with pytest.raises(InstanceUnusable) as caught:
        create_app()
    message = str(caught.value)
    assert "\n" not in message and str(blocked) in message and "JUDGE_INSTANCE" in message


# -- the search index heals ----------------------------------------------------------------------------
def copy_index(index_dir: str, tmp_path) -> object:
    """A copy of the module's built index (so each test damages its own, without building one)."""
    import shutil

    from judge.search.store import ensure

    ensure(index_dir)
    return Path(shutil.copytree(index_dir, tmp_path / "index", symlinks=True))


@pytest.mark.parametrize("damage", ["truncate", "scribble"])
def test_a_corrupt_index_segment_is_noticed_and_rebuilt(tmp_path, index_dir, damage):
    from judge.search.cli import index
    from judge.search.store import current_build, is_stale, verify

    directory = copy_index(index_dir, tmp_path)
    build = current_build(directory)
    segment = next(build.glob("*.seg"))
    if damage == "truncate":
        segment.write_bytes(segment.read_bytes()[:100])
    else:
        data = bytearray(segment.read_bytes())
        data[len(data) // 2] ^= 0xFF
        segment.write_bytes(bytes(data))
    assert verify(build) is not None and is_stale(directory)
    assert index(["--if-stale", "--dir", str(directory)]) == 0   # `judge index --if-stale` notices
    rebuilt = current_build(directory)
    assert rebuilt != build and verify(rebuilt) is None and not is_stale(directory)


def test_the_app_rebuilds_a_corrupt_index_and_search_works(tmp_path, index_dir):
    from judge.search.store import current_build

    directory = copy_index(index_dir, tmp_path)
    build = current_build(directory)
    next(build.glob("*.seg")).unlink()
    app = make_app(tmp_path, str(directory))
    response = app.test_client().get("/search.json?q=shield")
    assert response.status_code == 200 and response.get_json()["results"]
    assert current_build(directory) != build
    assert app.test_client().get("/healthz").get_json()["index"]["ok"] is True


def test_the_cli_takes_a_budget(tmp_path, capsys):
    from judge.commands.resolve import resolve

    path = tmp_path / "loop.yaml"
    path.write_text(LOOP)
    resolve([str(path), "--json", "--budget", "0.05"])
    ruling = json.loads(capsys.readouterr().out)
    assert ruling["stopped"]["reason"] == "time" and ruling["steps"][-1]["kind"] == "limit"


def test_healthz_is_503_naming_the_database_problem(tmp_path, index_dir):
    folder = tmp_path / "a-folder-not-a-database"
    folder.mkdir()
    response = make_app(tmp_path, index_dir, DATABASE=str(folder)).test_client().get("/healthz")
    body = response.get_json()
    assert response.status_code == 503 and body["ok"] is False and body["database"]["ok"] is False
    assert "can't be opened" in body["database"]["error"] and body["index"]["ok"] is True


def test_a_board_past_the_budget_is_a_note_not_a_picture(app):
    from judge.desk import pages
    from judge.engine.data import budget

    with app.test_request_context("/"), budget.limit(budget.Budget(seconds=0.0001)) as running:
        while not running.expired():
            pass
        figure = pages.board_figure({"players": {}})
    assert figure["svg"] == pages.OUT_OF_TIME_BOARD


def test_the_desk_stops_the_engine_early_enough_to_draw_within_the_request(app, client, monkeypatch):
    """/desk/resolve.json keeps the drawing's share of the deadline: the engine runs under less."""
    from judge.desk import pages, runner
    from judge.engine.data import budget

    seen = []
    real = pages.ruling_context
    monkeypatch.setattr(pages, "ruling_context",
                        lambda *a, **k: (seen.append(budget.CURRENT.get()), real(*a, **k))[1])
    assert client.post("/desk/resolve.json", json={"scenario": yaml.safe_load(SIMPLE)}).status_code == 200
    deadline = float(app.config["JUDGE_BUDGET_SECONDS"])
    assert seen and seen[0].seconds == pytest.approx(deadline - runner.RENDER_GRACE)
    with budget.limit(budget.Budget(seconds=1.0)) as running:
        budget.reserve(0.3)
        reserved = budget.CURRENT.get()
    assert reserved.started == running.started and reserved.steps == running.steps
    assert reserved.seconds == pytest.approx(0.7)


def test_a_ruling_too_large_to_keep_is_a_422_and_nothing_is_lost(client, app, monkeypatch):
    from judge.rulings import sqlite as store

    first = client.post("/desk/share", data={"yaml": SIMPLE, "csrf_token": token(client)})
    monkeypatch.setattr(store, "MAX_ROW", 200)
    response = client.post("/desk/share", data={"yaml": LOOP, "csrf_token": token(client)},
                           headers={"Accept": "application/json"})
    assert response.status_code == 422 and "too long to share" in response.get_data(as_text=True)
    assert client.get(first.headers["Location"] + ".json").status_code == 200


@pytest.mark.parametrize(("error", "cause"), [
    ("database is locked", "busy"), ("attempt to write a readonly database", "read-only"),
    ("database or disk is full", "full"), ("file is not a database", "corrupt"),
    ("database disk image is malformed", "corrupt"), ("unable to open database file", "can't be opened"),
])
def test_each_storage_fault_names_its_cause(error, cause):
    from judge.rulings.sqlite import _cause

    found = _cause(sqlite3.OperationalError(error))
    assert cause in found.cause and found.retry_after > 0
