"""A site a whole venue can rely on (issue 22): each defect of the probe replayed against the app as it
is served (production defaults, limits on), unless a test says which one setting it changes.

1. reading is never rate-limited: a venue behind one address browsing 300 pages gets no 429
2. many targets: the engine's target combinations stop at the request's budget (no pinned thread)
3. a scenario whose kept page would be too large is refused when it is saved, never per view
4. no 500 from `?endpoint=`, deep nesting, a mistyped board being typed, `cards: 7`
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter

import pytest

from judge.rulings import StoreUnavailable
from judge.web import create_app

SIMPLE = {"title": "plain", "state": {"players": {"A": {"field": {"altar": "Queen Sol", "C3": "Storm Titan"}},
                                                  "B": {"field": {"altar": "King Umbra", "C3": "Noah"}}}}}


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("venue-index"))


def served_app(tmp_path, index_dir, **config):
    """The app with its production defaults (limits on, budget 2 s, page cache), its own database."""
    return create_app({"DATABASE": str(tmp_path / "r.sqlite3"), "INDEX_DIR": index_dir, **config})


def many_targets(count: int, what: str = "spot") -> dict:
    """An Event with `count` targets, cast without naming them: the engine looks for a legal list."""
    selector = {"spot": "any"} if what == "spot" else {"soul": "any"}
    cards = [{"name": "Many Shot", "type": "event", "rank": 1, "effects": [
        {"kind": "activated", "targets": [selector] * count, "do": [{"damage": 1, "to": "target"}]}]}]
    return {"title": f"{count} targets", "cards": cards,
            "state": {"players": {"A": {"field": {"altar": "Queen Sol", "C3": "Storm Titan"},
                                        "hand": ["Many Shot"]},
                                  "B": {"field": {"altar": "King Umbra", "C3": "Noah", "C2": "Noah"}}}},
            "actions": [{"cast": "Many Shot", "caster": "C3"}]}


LOOP_CARD = {"name": "Venue Mirror", "type": "soul", "rank": 0, "attribute": "light", "atk": 5, "def": 100,
             "hp": 1000, "effects": [{"kind": "timing", "trigger": "after_battle", "mandatory": True,
                                      "do": [{"battle": {"attacker": "self", "target": "attacker",
                                                         "counts_as_attack": True}}]}]}


def loop_scenario() -> dict:
    """Within every cap: two mirrors whose mandatory after-battle battles never end (the budget stops it)."""
    field = {"altar": "Queen Sol", "C2": "Venue Mirror"}
    return {"title": "a loop", "cards": [LOOP_CARD],
            "state": {"phase": "combat", "players": {"A": {"field": dict(field)},
                                                     "B": {"field": dict(field, altar="King Umbra")}}},
            "actions": [{"attack": "C2", "target": "B:C2"}] * 60}


def huge_view(events: int = 34, name_length: int = 3500) -> dict:
    """The probe's saved link: the loop, plus custom Events with 3,500-letter names in hand (each step's
    board carries the hand: the page is tens of megabytes)."""
    data = loop_scenario()
    names = [f"Event {i} " + "x" * name_length for i in range(events)]
    effects = [{"kind": "activated", "do": [{"draw": 1}]}]
    data["cards"] += [{"name": n, "type": "event", "rank": 0, "effects": effects} for n in names]
    data["state"]["players"]["A"]["hand"] = names
    return data


def csrf(client) -> str:
    page = client.get("/desk").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


# -- 1. reading is never limited ----------------------------------------------------------------------
READING = ["/", "/rules/13.6", "/rules/13.6.2", "/rules/11.4.6.json", "/rules/10", "/glossary",
           "/glossary/taunt", "/glossary/shield", "/cards", "/cards/noah", "/cards/noah.json", "/scenarios",
           "/scenarios.json", "/interpretations", "/editions", "/editions/0.4.0/rules/13.6", "/healthz",
           "/api", "/api/openapi.json", "/api/v1/rules/13.6.2", "/api/v1/glossary/taunt",
           "/api/v1/cards/noah", "/static/css/site.css", "/desk", "/desk/vocabulary.json",
           "/desk/cards.json?q=no"]


def test_a_venue_behind_one_address_reads_300_pages_without_a_429(tmp_path, index_dir):
    """Defect 1 replayed: the probe's venue (300 page views a minute from one NAT) got 60 of 269 answered
    429, because every route fell into the API's bucket. With the defaults, reading is never counted."""
    app = served_app(tmp_path, index_dir)
    assert app.config["RATELIMIT_ENABLED"] is True
    client = app.test_client()
    saved = client.post("/api/v1/rulings", json=SIMPLE)
    assert saved.status_code == 201
    pages = [*READING, f"/r/{saved.get_json()['id']}", f"/r/{saved.get_json()['id']}.json"]
    statuses: Counter = Counter()
    for i in range(300):
        with client.get(pages[i % len(pages)]) as response:  # closed: a static file is a passthrough
            statuses[response.status_code] += 1
    assert statuses[429] == 0 and statuses[500] == 0, statuses
    assert set(statuses) <= {200, 302}, statuses  # the pages exist: a 404 would not prove reading passes
    # the limits are on, though: an engine loop from the same address is still counted
    strict = served_app(tmp_path / "strict", index_dir, JUDGE_LIMIT_ENGINE="5/minute").test_client()
    codes = [strict.post("/api/v1/position", json=SIMPLE).status_code for _ in range(6)]
    assert codes == [200] * 5 + [429]
    assert [strict.get(page).status_code for page in ("/rules/13.6", "/healthz")] == [200, 200]


def test_engine_work_is_charged_by_the_seconds_it_takes(tmp_path, index_dir):
    """Cost, not count: a client whose requests each run the engine to its budget is refused long before
    one asking cheap questions, under the same JUDGE_COST_LIMIT (here 1 s of work a minute)."""
    # the step cap lifted, so that each looping request runs to its 0.4 s budget however fast the machine
    # is (with the default 2,000 steps a quiet machine ended each in less, and four fitted in 1 s)
    app = served_app(tmp_path, index_dir, JUDGE_COST_LIMIT="1/minute", JUDGE_BUDGET_SECONDS=0.4,
                     JUDGE_BUDGET_STEPS=10**6)
    client = app.test_client()
    looping = {"REMOTE_ADDR": "10.0.0.1"}
    codes = [client.post("/api/v1/resolve", json=loop_scenario(), environ_base=looping).status_code
             for _ in range(4)]
    assert codes[0] == 200 and 429 in codes and codes.index(429) <= 3, codes
    refused = client.post("/api/v1/resolve", json=loop_scenario(), environ_base=looping)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "seconds of engine" in refused.get_json()["error"]
    cheap = {"REMOTE_ADDR": "10.0.0.2"}
    cheap_codes = [client.post("/api/v1/position", json=SIMPLE, environ_base=cheap).status_code
                   for _ in range(4)]
    assert cheap_codes == [200] * 4  # another address, cheap requests: its own budget, far from spent
    assert client.get("/rules/13.6", environ_base=looping).status_code == 200  # reading is never refused


def test_retry_after_is_the_storages_and_absent_on_a_200(tmp_path, index_dir, monkeypatch):
    """Defect 5: the limiter overwrote a 503's Retry-After (a locked database says 2 s) and put one on
    every 200 of a limited route."""
    app = served_app(tmp_path, index_dir)
    client = app.test_client()
    ok = client.post("/api/v1/position", json=SIMPLE)
    assert ok.status_code == 200 and "Retry-After" not in ok.headers
    store = app.extensions["rulings"]

    def locked(*args, **kwargs):
        raise StoreUnavailable("the database is locked by another writer", 2)

    monkeypatch.setattr(store, "save", locked)
    busy = client.post("/api/v1/rulings", json=SIMPLE)
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "2"
    monkeypatch.setattr(store, "save", lambda *a, **k: (_ for _ in ()).throw(StoreUnavailable("corrupt", 60)))
    assert client.post("/api/v1/rulings", json=SIMPLE).headers["Retry-After"] == "60"


# -- 2. many targets ------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/v1/resolve", "/api/v1/legal", "/api/v1/position"])
def test_an_effect_with_many_targets_is_answered_within_the_budget(tmp_path, index_dir, path):
    """Defect 2 replayed: 20 Soul Spot targets made targets.combinations walk 52**20 lists (11 targets
    took 7–15 s, 20 never finished, the thread ran on after the client left). Now the walk enters only
    branches a matching can complete, and looks at the clock: the answer comes, and the engine's clock
    was looked at while it worked."""
    from judge.engine import budget

    app = served_app(tmp_path, index_dir)
    checks = Counter()
    real = budget.check_time

    def counting() -> None:
        checks["time"] += 1
        real()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(budget, "check_time", counting)
        started = time.monotonic()
        response = app.test_client().post(path, json=many_targets(20))
        took = time.monotonic() - started
    assert response.status_code in (200, 422), response.get_data(as_text=True)[:300]
    assert checks["time"] > 0
    assert took < 2.0 + 0.5 + 5.0  # a generous bound: before, this request never finished


def test_a_desk_redraw_with_many_targets_is_answered(tmp_path, index_dir):
    client = served_app(tmp_path, index_dir).test_client()
    response = client.post("/desk/board.json", json={"scenario": many_targets(20)},
                           headers={"X-CSRF-Token": csrf(client)})
    assert response.status_code in (200, 400, 422)


def test_more_targets_than_the_desk_takes_are_refused_with_their_key_path(tmp_path, index_dir):
    response = served_app(tmp_path, index_dir).test_client().post("/api/v1/resolve", json=many_targets(40))
    assert response.status_code == 400
    assert any(p["path"] == "cards[0].effects[0].targets" for p in response.get_json()["problems"])


# -- 3. a kept ruling stays cheap -----------------------------------------------------------------------
def test_a_scenario_whose_page_is_too_large_is_refused_when_saved(tmp_path, index_dir):
    """Defect 3 replayed: the probe's 242 KB scenario was saved (201 after 8.8 s), its view never kept,
    and every visit resolved it again to refuse a 23 MB page. Now the save itself is refused, naming
    what is too large, and nothing is kept."""
    app = served_app(tmp_path, index_dir)
    client = app.test_client()
    data = huge_view()
    assert 200_000 < len(json.dumps(data)) < 256 * 1024
    response = client.post("/api/v1/rulings", json=data)
    assert response.status_code == 422, response.get_data(as_text=True)[:300]
    assert "its page" in response.get_json()["error"] and "KB" in response.get_json()["error"]
    assert app.extensions["rulings"].count() == 0
    shared = client.post("/desk/share", data={"yaml": json.dumps(data), "csrf_token": csrf(client)})
    assert shared.status_code == 422 and app.extensions["rulings"].count() == 0


def test_a_permalink_whose_view_cannot_be_kept_resolves_once_then_refuses_at_once(tmp_path, index_dir,
                                                                                   monkeypatch):
    """A row saved before the save-time check (its view never kept): the first visit resolves and keeps
    the reason; every later visit, page or .json, is refused without resolving."""
    from judge.desk import runner

    app = served_app(tmp_path, index_dir)
    rid = app.extensions["rulings"].save(huge_view(), "0.4.0", {}, {"codex": "0.4.0", "steps": []})
    calls = []
    real = runner.resolve
    monkeypatch.setattr(runner, "resolve", lambda *a, **k: calls.append(1) or real(*a, **k))
    client = app.test_client()
    first = client.get(f"/r/{rid}")
    assert first.status_code == 422 and "too large" in first.get_data(as_text=True)
    assert client.get(f"/r/{rid}.json").status_code == 422
    assert client.get(f"/r/{rid}").status_code == 422
    assert len(calls) == 1


# -- 4. no 500 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("query", ["endpoint=x", "_=1", "__class__=x", "values=1", "_external=1",
                                   "rid=abc", "endpoint=desk.desk&_anchor=x"])
def test_odd_query_names_never_reach_url_for(tmp_path, index_dir, query):
    """Defect 4: `?endpoint=` on any page was passed to url_for as its first parameter (a TypeError)."""
    client = served_app(tmp_path, index_dir).test_client()
    for path in ("/rules/13.6", "/glossary/taunt", "/cards/noah", "/scenarios", "/search?q=taunt",
                 "/editions"):
        response = client.get(path + ("&" if "?" in path else "?") + query)
        assert response.status_code < 500, (path, query)


def test_a_deeply_nested_body_is_a_400_not_a_500(tmp_path, index_dir):
    """Defect 4: ~330 levels in a 700-byte JSON body passed the JSON parser and overflowed fix_keys."""
    client = served_app(tmp_path, index_dir).test_client()
    body = '{"state": ' + "[" * 330 + "]" * 330 + "}"
    for path in ("/api/v1/resolve", "/api/position"):
        response = client.post(path, data=body, content_type="application/json")
        assert response.status_code == 400 and "nested" in response.get_json()["error"]
    deep = "{\"scenario\": {\"state\": " + "[" * 330 + "]" * 330 + "}}"
    response = client.post("/desk/board.json", data=deep, content_type="application/json",
                           headers={"X-CSRF-Token": csrf(client)})
    assert response.status_code == 400


@pytest.mark.parametrize("state", [{"players": None}, {"players": {"A": None}},
                                   {"players": {"A": {"field": None}}}, {"players": {"A": {"field": 7}}},
                                   {"players": {"A": {"field": [1]}}}, {"players": "x"}])
def test_a_board_being_typed_with_a_queued_recruit_is_redrawn_not_a_500(tmp_path, index_dir, state):
    """Defect 4: the desk's redraw with a null or mistyped players/field and a queued recruit."""
    client = served_app(tmp_path, index_dir).test_client()
    response = client.post("/desk/board.json", headers={"X-CSRF-Token": csrf(client)},
                           json={"scenario": {"state": state, "actions": [{"recruit": "Noah", "to": "C3"}]}})
    assert response.status_code in (200, 400)
    assert "problems" in response.get_json()


@pytest.mark.parametrize("cards", [7, "x", {"a": 1}, True])
def test_cards_of_the_wrong_type_with_an_unknown_card_is_a_400(tmp_path, index_dir, cards):
    """Defect 4: `cards: 7` with an unknown card name broke the did-you-mean hint."""
    client = served_app(tmp_path, index_dir).test_client()
    scenario = {"cards": cards, "state": {"players": {"A": {"hand": ["Nope Card"]}}},
                "actions": [{"cast": "Nope Card"}]}
    headers = {"X-CSRF-Token": csrf(client)}
    response = client.post("/desk/legal.json", json={"scenario": scenario}, headers=headers)
    assert response.status_code == 400
    parsed = client.post("/desk/parse.json", json={"scenario": scenario}, headers=headers)
    assert parsed.status_code == 200 and parsed.get_json()["problems"]  # a scenario being built: listed
    redraw = client.post("/desk/board.json", json={"scenario": scenario}, headers=headers)
    assert redraw.status_code == 200 and redraw.get_json()["ok"] is False  # the board shows its problems
    assert any("Nope Card" in p["message"] for p in redraw.get_json()["problems"])
    assert client.post("/api/v1/resolve", json=scenario).status_code == 400


def test_actions_not_a_list_is_a_400(tmp_path, index_dir):
    client = served_app(tmp_path, index_dir).test_client()
    for actions in ("x", {"a": 1}, 7):
        response = client.post("/desk/board.json", json={"scenario": {"state": {}, "actions": actions}},
                               headers={"X-CSRF-Token": csrf(client)})
        assert response.status_code in (200, 400)


# -- 5. the smaller ones ---------------------------------------------------------------------------------
def chunked_post(app, path: str, body: bytes):
    """POST `body` as gunicorn hands a chunked upload to the app: no Content-Length, the input ended."""
    from werkzeug.test import EnvironBuilder, run_wsgi_app

    environ = EnvironBuilder(path=path, method="POST", data=body,
                             content_type="application/json").get_environ()
    del environ["CONTENT_LENGTH"]
    environ.update({"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True})
    chunks, status, headers = run_wsgi_app(app, environ)
    return int(status.split()[0]), b"".join(chunks)


def test_a_chunked_upload_past_256_kb_is_a_413_and_a_small_one_is_read_whole(tmp_path, index_dir):
    app = served_app(tmp_path, index_dir)
    status, body = chunked_post(app, "/api/v1/resolve", b'{"notes": "' + b"x" * 300_000 + b'"}')
    assert status == 413 and json.loads(body)["status"] == 413
    status, body = chunked_post(app, "/api/v1/position", json.dumps(SIMPLE).encode())
    assert status == 200 and "derived" in json.loads(body)


def test_a_405_says_which_methods_are_allowed(tmp_path, index_dir):
    client = served_app(tmp_path, index_dir).test_client()
    refused = client.get("/api/v1/position")
    assert refused.status_code == 405 and "POST" in refused.headers["Allow"].split(", ")
    refused = client.delete("/rules/13.6")
    assert refused.status_code == 405 and "GET" in refused.headers["Allow"].split(", ")


def test_healthz_says_503_when_the_disk_is_full(tmp_path, index_dir, monkeypatch):
    """Defect 5: /healthz said 200 while a full disk made every save 503."""
    import os

    app = served_app(tmp_path, index_dir)
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    real = os.statvfs

    def full(path):
        found = real(path)
        return os.statvfs_result((found.f_bsize, found.f_frsize, found.f_blocks, 0, 0, *tuple(found)[5:]))

    monkeypatch.setattr(os, "statvfs", full)
    health = client.get("/healthz")
    assert health.status_code == 503 and "full" in health.get_json()["database"]["error"]


def test_healthz_is_the_same_in_every_worker_after_a_save_failed(tmp_path, index_dir, monkeypatch):
    """Issue 32 (6): a failed save made its own worker's /healthz say 503 for 60 s while the others said
    200 (a proxy saw it flap). Health now reads the disk and the file, which every worker sees alike."""
    import sqlite3

    one, two = served_app(tmp_path, index_dir), served_app(tmp_path, index_dir)
    store = one.extensions["rulings"]

    def no_space(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "_insert", no_space)
    failed = one.test_client().post("/api/v1/rulings", json=SIMPLE)
    assert failed.status_code == 503 and "full" in failed.get_json()["error"]
    answers = {app.test_client().get("/healthz").status_code for app in (one, two)}
    assert len(answers) == 1
    monkeypatch.undo()
    assert one.test_client().post("/api/v1/rulings", json=SIMPLE).status_code == 201
    assert {app.test_client().get("/healthz").status_code for app in (one, two)} == {200}


def test_a_deleted_database_is_noticed_not_made_again_empty(tmp_path, index_dir):
    """Defect 5: deleting the SQLite file made a new empty one (every saved link a 404) while /healthz
    said schema: null. Now every page that needs it says 503, and the file is not made again."""
    app = served_app(tmp_path, index_dir)
    client = app.test_client()
    rid = client.post("/api/v1/rulings", json=SIMPLE).get_json()["id"]
    database = tmp_path / "r.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"r.sqlite3{suffix}").unlink(missing_ok=True)
    page = client.get(f"/r/{rid}")
    assert page.status_code == 503 and "gone" in page.get_data(as_text=True)
    assert str(tmp_path) not in page.get_data(as_text=True)  # no path in a public body
    health = client.get("/healthz")
    assert health.status_code == 503 and "gone" in health.get_json()["database"]["error"]
    assert not database.exists()


def test_a_missing_schema_is_a_503_on_healthz(tmp_path, index_dir):
    import sqlite3

    app = served_app(tmp_path, index_dir)
    with sqlite3.connect(tmp_path / "r.sqlite3") as db:
        db.execute("DELETE FROM schema_migrations")
    health = app.test_client().get("/healthz")
    assert health.status_code == 503 and "schema" in health.get_json()["database"]["error"]


def test_changes_is_limited_as_costly(tmp_path, index_dir):
    """Defect 5: /changes re-judged the library and every saved ruling in the request after each save
    (each ruling is now judged once: tests/test_solid.py); it stays in the costly group."""
    app = served_app(tmp_path, index_dir, JUDGE_LIMIT_CHANGES="4/minute")
    client = app.test_client()
    client.post("/api/v1/rulings", json=SIMPLE)
    assert [client.get("/changes/0.4.0...0.4.0.json").status_code for _ in range(4)] == [200] * 4
    assert client.get("/changes/0.4.0...0.4.0").status_code == 429  # the fifth in a minute


@pytest.mark.parametrize("reader", ["libyaml", "python"])
def test_yaml_reading_is_bounded_and_its_refusal_accurate(tmp_path, index_dir, reader, monkeypatch):
    """Defect 5: a 246 KB flow list took 2.6 s and was refused "once its YAML aliases are expanded",
    though it has none; 3,000 levels of `[` took PyYAML's scanner 5.8 s. Now reading stops at 50,000
    values or 100 levels, saying which, with the line; with libyaml's reader (the default where PyYAML
    has it) and with the pure-Python one."""
    from judge.engine.data import yamlio

    if reader == "libyaml" and yamlio.CLoader is None:
        pytest.skip("PyYAML without libyaml")
    monkeypatch.setattr(yamlio, "Loader", yamlio.CLoader if reader == "libyaml" else yamlio.PyLoader)
    client = served_app(tmp_path, index_dir).test_client()
    flow = ("notes: [" + ",".join(["1"] * 60_000) + "]\n").encode()
    response = client.post("/api/v1/resolve", data=flow, content_type="application/yaml")
    answer = response.get_json()
    message = answer["error"] + " ".join(p["message"] for p in answer.get("problems", []))
    assert "alias" not in message
    if response.status_code == 422:  # a slow machine: the clock stopped the reading first
        assert "time budget" in message
    else:
        assert response.status_code == 400 and "more than 50000 values" in message
    bomb = b"a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + b"".join(
        f"{c}: &{c} [{', '.join(['*' + chr(ord(c) - 1)] * 9)}]\n".encode() for c in "bcdefg")
    response = client.post("/api/v1/resolve", data=bomb, content_type="application/yaml")
    assert response.status_code == 400 and "aliases" in json.dumps(response.get_json())
    deep = ("state: " + "[" * 3000 + "]" * 3000).encode()
    for path, body in (("/api/v1/resolve", deep), ("/desk/parse.json", json.dumps({"yaml": deep.decode()}))):
        response = client.post(path, data=body, content_type="application/yaml" if path.startswith("/api")
                               else "application/json")
        assert response.status_code == 400, path
        problem = response.get_json()["problems"][0]
        assert "nested too deeply (more than 100 levels)" in problem["message"] and problem["line"] == 1


@pytest.mark.parametrize("of", [[1], {"a": 1}, None, 7])
def test_a_question_asking_a_value_of_the_wrong_type_is_a_400(tmp_path, index_dir, of):
    """Found by tests/test_fuzz_routes.py once `ask:` arrived: `of: [1]` was a TypeError (a 500)."""
    client = served_app(tmp_path, index_dir).test_client()
    response = client.post("/api/v1/resolve", json={**SIMPLE, "ask": [{"value": {"slot": "A:C3", "of": of}}]})
    assert response.status_code == 400
    assert any(p["path"].startswith("ask.0") for p in response.get_json()["problems"])


def test_cards_of_the_wrong_type_on_the_board_being_drawn_is_no_500(tmp_path, index_dir):
    """The board's card notes (the desk's ranks and variants) read `cards: 7` as no cards of its own."""
    client = served_app(tmp_path, index_dir).test_client()
    for cards in (7, True, "x"):
        response = client.post("/desk/board.json", json={"scenario": {**SIMPLE, "cards": cards}})
        assert response.status_code == 200 and response.get_json()["ok"] is False
