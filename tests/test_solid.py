"""A site no one can knock over (issue 32): each defect of the probe, replayed against the app with its
production defaults (limits on, 2 s budget, page cache, own data loaded at start) unless a test says
which one setting it changes. The soak against real gunicorn is bench/solid.py.

1. /changes is bounded: judged a few rulings at a time (503 + Retry-After meanwhile), each once, kept
   with the data (another worker reuses it), one worker at a time; the cost limit reserves first
2. reading is cheap whatever the query: the cache key ignores parameters a page does not read
3. the project's own data is loaded at start, never under a visitor's budget
4. absolute URLs never come from a visitor's Host; forwarded headers only from a trusted proxy
5. parse.json with mixed key types
6. storage: a deleted file is not made again, corruption is reported, reads survive a read-only disk
7. a permalink's page is the same whatever the load at its first view
9. the OpenAPI document and the server agree on `codex: ''`, `title: false`, `snapshots=x`, the 503
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import time

import pytest
from faults import damage

from judge.engine import budget
from judge.web import create_app

SIMPLE = {"title": "plain", "state": {"players": {"A": {"field": {"altar": "Queen Sol", "C3": "Storm Titan"}},
                                                  "B": {"field": {"altar": "King Umbra", "C3": "Noah"}}}}}
LANCER_A = {"field": {"altar": "Queen Sol", "L2": "Dusk Lancer"}}
LANCER_B = {"field": {"altar": "King Umbra", "L2": "Dusk Lancer"}}
FIGHT = {"title": "a fight", "state": {"players": {"A": LANCER_A, "B": LANCER_B}},
         "actions": [{"attack": "L2", "target": "B:L2"}]}


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("solid-index"))


def served_app(path, index_dir, **config):
    """The app with its production defaults and its own database at `path`; a permalink's pages are made
    at its first view, not in the background after its save (on in the test that says so), so what a
    test counts is what its requests did."""
    return create_app({"DATABASE": str(path), "INDEX_DIR": index_dir, "JUDGE_PAGES_AT_SAVE": False,
                       **config})


def save(app, scenario) -> str:
    response = app.test_client().post("/api/v1/rulings", json=scenario)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()["id"]


# -- 1. /changes ---------------------------------------------------------------------------------------
@pytest.fixture()
def two_editions(tmp_path, monkeypatch):
    from editions_copy import copy_editions, import_fixture

    from judge.web import caching

    copy_editions(tmp_path, monkeypatch)
    import_fixture()
    caching.codex_version.cache_clear()  # the current edition is 0.4.1 here, and 0.4.0 again after
    yield tmp_path
    caching.codex_version.cache_clear()


def prepared(client, url: str):
    """GET `url` until the report is ready; the 503s on the way say so, with Retry-After."""
    for pending in range(500):
        response = client.get(url)
        if response.status_code != 503:
            return response, pending
        assert "being prepared" in response.get_data(as_text=True)
        assert int(response.headers["Retry-After"]) > 0
    raise AssertionError(f"{url} never became ready")


def test_changes_judges_each_ruling_once_keeps_it_with_the_data_and_a_save_adds_one(two_editions, index_dir,
                                                                                     monkeypatch):
    from judge.changes import rulings as changes

    db = two_editions / "r.sqlite3"
    one = served_app(db, index_dir, RATELIMIT_ENABLED=False)
    calls = []
    real = changes.judge_twice
    monkeypatch.setattr(changes, "judge_twice",
                        lambda kind, rid, *a: calls.append((kind, rid)) or real(kind, rid, *a))
    first = save(one, SIMPLE)
    report, _ = prepared(one.test_client(), "/changes/0.4.0...0.4.1.json")
    assert report.status_code == 200
    assert len(calls) == len(set(calls)) and ("saved", first) in calls  # each judged once
    judged = len(calls)
    two = served_app(db, index_dir, RATELIMIT_ENABLED=False)  # another worker: reads what the first kept
    again, _ = prepared(two.test_client(), "/changes/0.4.0...0.4.1.json")
    assert again.get_json() == report.get_json() and len(calls) == judged
    second = save(two, FIGHT)
    after, _ = prepared(one.test_client(), "/changes/0.4.0...0.4.1.json")
    assert calls[judged:] == [("saved", second)]  # only the new ruling was judged
    assert {r["id"] for r in after.get_json()["rulings"]} >= {first, second}


def test_changes_stops_at_the_budget_and_answers_503_with_retry_after(two_editions, index_dir, monkeypatch):
    from judge.changes import rulings as changes
    from judge.library import LIBRARY

    app = served_app(two_editions / "r.sqlite3", index_dir, RATELIMIT_ENABLED=False,
                     JUDGE_BUDGET_SECONDS=0.2)
    calls = []
    real = changes.judge_twice
    monkeypatch.setattr(changes, "judge_twice",
                        lambda kind, rid, *a: calls.append((kind, rid)) or real(kind, rid, *a))
    response = app.test_client().get("/changes/0.4.0...0.4.1")
    assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
    # the budget was spent: some rulings judged (progress), the rest left for later
    assert 1 <= len(calls) < len(LIBRARY.entries())
    assert f"{len(calls)} of {len(LIBRARY.entries())} rulings judged" in response.get_data(as_text=True)


def test_changes_while_another_worker_judges_answers_at_once_without_judging(two_editions, index_dir,
                                                                             monkeypatch):
    from judge.changes import rulings as changes

    app = served_app(two_editions / "r.sqlite3", index_dir, RATELIMIT_ENABLED=False)
    store = app.extensions["rulings"]
    calls = []
    monkeypatch.setattr(changes, "judge_twice", lambda *a: calls.append(a))
    held = [store.lease(k, 60) for k in _pair_kinds(app, "0.4.0", "0.4.1")]  # as another worker would
    assert all(held)
    response = app.test_client().get("/changes/0.4.0...0.4.1.json")
    assert response.status_code == 503 and calls == []


def _pair_kinds(app, old, new):
    from judge.changes.rulings import KIND, library_digest
    from judge.library import LIBRARY
    from judge.web import caching

    return [f"{KIND} {old}...{new} {caching.ruling_versions()} {library_digest(LIBRARY.entries())}"]


def test_one_edition_against_itself_decodes_no_saved_ruling(tmp_path, index_dir, monkeypatch):
    app = served_app(tmp_path / "r.sqlite3", index_dir)
    rid = save(app, SIMPLE)
    store = app.extensions["rulings"]
    monkeypatch.setattr(store, "all", lambda: pytest.fail("every saved ruling decoded"))
    report = app.test_client().get("/changes/0.4.0...0.4.0.json").get_json()
    mine = next(r for r in report["rulings"] if r["id"] == rid)
    assert mine["status"] == "same"


def test_a_client_that_went_away_stops_the_work_and_nothing_half_done_is_kept(two_editions, index_dir):
    from judge.changes import rulings as changes

    app = served_app(two_editions / "r.sqlite3", index_dir, RATELIMIT_ENABLED=False)
    store = app.extensions["rulings"]
    save(app, SIMPLE)
    token = budget.CURRENT.set(budget.Budget(seconds=60, gone=lambda: True))
    try:
        with pytest.raises(changes.Pending) as caught:
            changes.cached_changes("0.4.0", "0.4.1", store, versions="v", seconds=60)
    finally:
        budget.CURRENT.reset(token)
    assert caught.value.judged == 0 and budget.Budget(seconds=None, gone=lambda: True).expired()


def test_the_cost_limit_reserves_before_the_work_so_concurrent_requests_cannot_overspend(tmp_path, index_dir):
    from judge.web import limits

    app = served_app(tmp_path / "r.sqlite3", index_dir, JUDGE_COST_LIMIT="30/minute")  # a 2 s budget each
    limiter = app.extensions["judge_limiter"]
    with app.test_request_context("/api/v1/resolve", method="POST"):
        running = [limits._reserve(limiter) for _ in range(15)]  # 15 requests at once: 30 s reserved
        with pytest.raises(limits.Limited):                       # a 16th has no room
            limits._reserve(limiter)
        for done in running[:2]:
            limits._settle(limiter, done, 0.05)                   # two took 0.05 s: the rest is refunded
        assert limits._reserve(limiter)                           # so another fits now


# -- 2. reading whatever the query -----------------------------------------------------------------------
def test_query_strings_a_page_does_not_read_share_its_cache_entry_and_etag(tmp_path, index_dir):
    app = served_app(tmp_path / "r.sqlite3", index_dir)
    client = app.test_client()
    rid = save(app, SIMPLE)
    answers = [client.get(f"/r/{rid}?b={n}") for n in range(5)] + [client.get(f"/rules/13.6.2?x={n}")
                                                                      for n in range(5)]
    assert all(a.status_code == 200 for a in answers)
    assert len({a.headers["ETag"] for a in answers[:5]}) == 1
    assert len({a.headers["ETag"] for a in answers[5:]}) == 1
    assert len({a.get_data() for a in answers[:5]}) == 1
    assert len(app.extensions["judge_page_cache"].items) == 2
    searched = [client.get(f"/scenarios.json?q={q}").get_json()["q"] for q in ("frozen", "soul")]
    assert searched == ["frozen", "soul"]  # a parameter the page reads still selects it


def reaching_flask(app) -> list[str]:
    """The paths of the requests that reach the Flask app behind judge.web.fast_reads, as they come."""
    seen: list[str] = []
    fast = app.extensions["judge_fast_reads"]
    inner = fast.inner
    fast.inner = lambda environ, start_response: seen.append(environ["PATH_INFO"]) or inner(environ,
                                                                                          start_response)
    return seen


def test_a_kept_page_is_answered_before_flask_with_the_same_bytes_and_headers(tmp_path, index_dir):
    import gzip

    app = served_app(tmp_path / "r.sqlite3", index_dir)  # production defaults: the page cache on
    through_flask = reaching_flask(app)
    rid = save(app, SIMPLE)
    client = app.test_client()
    for path in ("/", f"/r/{rid}", "/rules/13.6.2", "/cards/noah"):
        del through_flask[:]
        made = client.get(path + "?x=1")
        again = [client.get(f"{path}?x={n}") for n in range(2, 6)]
        assert made.status_code == 200 and len(through_flask) == 1  # made once; then answered before Flask
        assert {a.get_data() for a in again} == {made.get_data()}
        assert all(dict(a.headers) == dict(made.headers) for a in again)  # CSP, ETag, Cache-Control, Vary
        head = client.head(f"{path}?x=9")
        assert head.get_data() == b"" and head.headers["Content-Length"] == made.headers["Content-Length"]
        zipped = client.get(path, headers={"Accept-Encoding": "gzip"})  # the encoding asked selects it too
        assert zipped.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(zipped.get_data()) == made.get_data()
        assert client.get(path, headers={"If-None-Match": made.headers["ETag"]}).status_code == 304
        assert len(through_flask) == 3  # the zipped page made once, the conditional one by Flask
    assert client.get("/healthz").status_code == 200 and client.get("/healthz").status_code == 200
    assert len(through_flask) == 5  # what is not a kept page always goes to Flask


def test_with_the_page_cache_off_every_read_goes_to_flask(tmp_path, index_dir):
    app = served_app(tmp_path / "r.sqlite3", index_dir, JUDGE_PAGE_CACHE=0)
    through_flask = reaching_flask(app)
    client = app.test_client()
    assert [client.get(f"/rules/13.6.2?x={n}").status_code for n in range(3)] == [200] * 3
    assert len(through_flask) == 3


# -- 3. own data at start ----------------------------------------------------------------------------------
def test_the_library_worked_out_once_is_kept_and_a_new_worker_reads_it(tmp_path, index_dir, monkeypatch):
    import judge.library
    from judge.library import LIBRARY
    from judge.web import warm

    monkeypatch.setenv("JUDGE_INSTANCE", str(tmp_path / "instance"))
    first = served_app(tmp_path / "r.sqlite3", index_dir)  # production defaults: warmed at start
    kept = warm.kept_library(first)
    for _ in range(1200):  # the library is resolved in the background, then kept
        if kept.exists():
            break
        time.sleep(0.1)
    assert kept.exists()
    page = first.test_client().get("/rules/13.6.2").get_data()
    for cache in (LIBRARY._cites, LIBRARY._answers, LIBRARY._citing):  # as in a new process
        cache.clear()
    resolved = []
    real = judge.library.resolve_entry
    monkeypatch.setattr(judge.library, "resolve_entry", lambda e: resolved.append(e.pid) or real(e))
    fresh = served_app(tmp_path / "r.sqlite3", index_dir, JUDGE_PAGE_CACHE=0)  # a recycled worker
    assert fresh.test_client().get("/rules/13.6.2").get_data() == page and resolved == []
    assert len(LIBRARY.worked_out()) == len(LIBRARY.entries())


def test_card_pages_answer_on_a_fresh_worker_even_with_no_time_left(tmp_path, index_dir):
    from judge.web import card_pages

    card_pages._raw_yaml.cache_clear()
    app = served_app(tmp_path / "r.sqlite3", index_dir, JUDGE_BUDGET_SECONDS=0.000001)
    assert card_pages._raw_yaml.cache_info().currsize == 1  # loaded by create_app, not by a visitor
    page = app.test_client().get("/cards/noah")
    assert page.status_code == 200 and "name: Noah" in page.get_data(as_text=True)


# -- 4. honest URLs --------------------------------------------------------------------------------------
def og_url(response) -> str:
    return re.search(r'property="og:url" content="([^"]+)"', response.get_data(as_text=True)).group(1)


def test_a_poisoned_host_never_reaches_another_visitor(tmp_path, index_dir):
    app = served_app(tmp_path / "r.sqlite3", index_dir, JUDGE_ORIGIN="https://judge.example.org")
    client = app.test_client()
    rid = save(app, SIMPLE)
    for path in ("/rules/13.6.2", f"/r/{rid}", "/cards/noah"):
        poisoned = client.get(path, headers={"Host": "evil.example", "X-Forwarded-Host": "evil.example"})
        plain = client.get(path)
        assert og_url(poisoned) == og_url(plain) == f"https://judge.example.org{path}"
    assert "evil" not in client.get("/api/openapi.json").get_data(as_text=True)


def test_forwarded_headers_count_only_from_a_trusted_proxy(tmp_path, index_dir):
    app = served_app(tmp_path / "r.sqlite3", index_dir, JUDGE_PROXIES=1, JUDGE_PROXY_ADDRESSES="10.0.0.1",
                     JUDGE_LIMIT_SAVE="3/minute")
    client = app.test_client()
    direct = [client.post("/api/v1/rulings", json={**SIMPLE, "title": f"t{n}"},
                          headers={"X-Forwarded-For": f"203.0.113.{n}"},
                          environ_base={"REMOTE_ADDR": "198.51.100.7"}).status_code for n in range(5)]
    assert direct.count(429) == 2  # one address, whatever it wrote in X-Forwarded-For
    proxied = [client.post("/api/v1/rulings", json={**SIMPLE, "title": f"p{n}"},
                           headers={"X-Forwarded-For": f"203.0.113.{n}"},
                           environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code for n in range(5)]
    assert 429 not in proxied  # through the proxy, each client is its own


def test_with_origin_from_a_trusted_proxy_pages_vary_by_host(tmp_path, index_dir):
    app = served_app(tmp_path / "r.sqlite3", index_dir, JUDGE_PROXIES=1)
    client = app.test_client()
    one = client.get("/rules/13.6.2", headers={"X-Forwarded-Host": "a.example", "X-Forwarded-For": "1.2.3.4"})
    two = client.get("/rules/13.6.2", headers={"X-Forwarded-Host": "b.example", "X-Forwarded-For": "1.2.3.4"})
    assert og_url(one).startswith("http://a.example/") and og_url(two).startswith("http://b.example/")
    assert "Host" in one.headers["Vary"] and one.headers["ETag"] != two.headers["ETag"]


# -- 5. mixed key types ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["{altar: Queen Sol, 3: Noah}", "{~: a, b: c}", "{false: a, b: c}"])
def test_parse_json_answers_a_mapping_with_mixed_key_types(tmp_path, index_dir, text):
    app = served_app(tmp_path / "r.sqlite3", index_dir, RATELIMIT_ENABLED=False)
    response = app.test_client().post("/desk/parse.json", json={"yaml": text})
    assert response.status_code == 200 and response.get_json()["ok"] is True


# -- 6. storage --------------------------------------------------------------------------------------------
def test_a_deleted_database_is_not_made_again_by_a_new_worker_until_init_db(tmp_path, index_dir, capsys):
    from judge.cli import main

    db = tmp_path / "r.sqlite3"
    rid = save(served_app(db, index_dir), SIMPLE)
    db.unlink()
    fresh = served_app(db, index_dir)  # a replacement worker (a crash, a recycle)
    client = fresh.test_client()
    assert client.get(f"/r/{rid}").status_code == 503
    assert client.post("/api/v1/rulings", json=SIMPLE).status_code == 503
    health = client.get("/healthz")
    assert health.status_code == 503 and "missing" in health.get_json()["database"]["error"]
    assert not db.exists()
    assert main(["init-db", "--db", str(db)]) == 0 and db.exists()
    assert served_app(db, index_dir).test_client().get("/healthz").status_code == 200


def test_a_corrupt_database_is_reported_everywhere_and_takes_no_more_saves(tmp_path, index_dir):
    db = tmp_path / "r.sqlite3"
    app = served_app(db, index_dir)
    for n in range(30):
        save(app, {**SIMPLE, "title": f"ruling {n}"})
    damage(db)
    fresh = served_app(db, index_dir)  # the check at start
    client = fresh.test_client()
    health = client.get("/healthz")
    assert health.status_code == 503 and "corrupt" in health.get_json()["database"]["error"]
    assert app.test_client().get("/healthz").status_code == 503  # the worker that started before agrees
    saved = client.post("/api/v1/rulings", json={**SIMPLE, "title": "after"})
    assert saved.status_code == 503 and "corrupt" in saved.get_json()["error"]
    assert client.get("/changes/0.4.0...0.4.0.json").status_code == 503


def test_intact_rulings_are_read_on_a_read_only_disk(tmp_path, index_dir, monkeypatch):
    db = tmp_path / "r.sqlite3"
    app = served_app(db, index_dir)
    rid = save(app, SIMPLE)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    copy = tmp_path / "ro"
    copy.mkdir()
    shutil.copy(db, copy / "r.sqlite3")
    reader = served_app(copy / "r.sqlite3", index_dir)
    store = reader.extensions["rulings"]

    def read_only(*_a, **_k):  # what opening for writing says on a read-only mount (root ignores modes)
        raise store._failure(sqlite3.OperationalError("unable to open database file"))

    monkeypatch.setattr(store, "_connect", read_only)
    monkeypatch.setattr("os.access", lambda *_a, **_k: False)
    client = reader.test_client()
    assert client.get(f"/api/v1/rulings/{rid}").status_code == 200
    health = client.get("/healthz")
    assert health.status_code == 503 and "read-only" in health.get_json()["database"]["error"]
    assert client.post("/api/v1/rulings", json={**SIMPLE, "title": "new"}).status_code == 503


# -- 7. permalinks ---------------------------------------------------------------------------------------
def test_a_permalink_is_the_same_page_whatever_the_load_at_its_first_view(tmp_path, index_dir):
    db = tmp_path / "r.sqlite3"
    rid = save(served_app(db, index_dir, RATELIMIT_ENABLED=False), FIGHT)
    for name in ("idle", "loaded"):
        (tmp_path / name).mkdir()
        shutil.copy(db, tmp_path / name / "r.sqlite3")
        for side in ("-wal", "-shm", ".made"):
            if (tmp_path / f"r.sqlite3{side}").exists():
                shutil.copy(tmp_path / f"r.sqlite3{side}", tmp_path / name / f"r.sqlite3{side}")
    idle = served_app(tmp_path / "idle" / "r.sqlite3", index_dir).test_client().get(f"/r/{rid}")
    # under load: no time left in the visitor's budget when the boards are drawn
    loaded = served_app(tmp_path / "loaded" / "r.sqlite3", index_dir,
                        JUDGE_BUDGET_SECONDS=0.000001).test_client().get(f"/r/{rid}")
    assert idle.status_code == loaded.status_code == 200
    assert "ran past the time" not in loaded.get_data(as_text=True)
    assert idle.get_data() == loaded.get_data()


def test_a_permalink_page_is_made_once_and_kept_with_the_ruling(tmp_path, index_dir, monkeypatch):
    from judge.desk import pages

    db = tmp_path / "r.sqlite3"
    rid = save(served_app(db, index_dir), FIGHT)
    first = served_app(db, index_dir).test_client().get(f"/r/{rid}")
    drawn = []
    real = pages.board_figure
    monkeypatch.setattr(pages, "board_figure", lambda *a, **k: drawn.append(1) or real(*a, **k))
    again = served_app(db, index_dir).test_client().get(f"/r/{rid}")  # another worker, after a restart
    assert again.get_data() == first.get_data() and drawn == []


def test_a_save_makes_its_permalink_pages_in_the_background_so_the_first_view_reads_them(tmp_path, index_dir,
                                                                                         monkeypatch):
    from judge.desk import pages
    from judge.web import kept_pages

    db = tmp_path / "r.sqlite3"
    app = create_app({"DATABASE": str(db), "INDEX_DIR": index_dir})  # production defaults, pages at save on
    assert app.config["JUDGE_PAGES_AT_SAVE"] is True
    rid = save(app, FIGHT)
    for _ in range(600):
        if kept_pages.pages_waiting() == 0:
            break
        time.sleep(0.1)
    drawn = []
    real = pages.board_figure
    monkeypatch.setattr(pages, "board_figure", lambda *a, **k: drawn.append(1) or real(*a, **k))
    other = served_app(db, index_dir).test_client()  # another worker: its first view reads the kept page
    page, twin = other.get(f"/r/{rid}"), other.get(f"/r/{rid}.json")
    assert page.status_code == twin.status_code == 200 and drawn == []
    assert "a fight" in page.get_data(as_text=True) and twin.get_json()["id"] == rid
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM kept")
    drawn_at_view = served_app(db, index_dir).test_client().get(f"/r/{rid}")  # nothing kept: drawn now
    assert drawn and drawn_at_view.get_data() == page.get_data()


# -- 9. OpenAPI and the server agree -------------------------------------------------------------------------
@pytest.mark.parametrize("body", [{**SIMPLE, "codex": ""}, {**SIMPLE, "title": False}, {**SIMPLE, "id": 7}])
def test_what_the_schema_refuses_the_server_refuses(tmp_path, index_dir, body):
    client = served_app(tmp_path / "r.sqlite3", index_dir).test_client()
    assert client.post("/api/v1/resolve", json=body).status_code == 400


def test_a_mistyped_snapshots_flag_is_a_400_and_the_busy_503_is_documented(tmp_path, index_dir):
    client = served_app(tmp_path / "r.sqlite3", index_dir).test_client()
    assert client.post("/api/v1/resolve?snapshots=maybe", json=SIMPLE).status_code == 400
    assert client.post("/api/v1/resolve?snapshots=1", json=SIMPLE).status_code == 200
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for name in ("position", "resolve", "legal"):
        assert "503" in paths[f"/api/v1/{name}"]["post"]["responses"]


# -- 8. limits a venue lives with --------------------------------------------------------------------------
def test_saving_is_limited_by_cost_not_by_a_count_a_room_exceeds(tmp_path, index_dir):
    from judge.web import limits

    assert limits.DEFAULTS["JUDGE_LIMIT_SAVE"] == limits.DEFAULTS["JUDGE_LIMIT_ENGINE"]
    app = served_app(tmp_path / "r.sqlite3", index_dir)
    codes = []
    for n in range(70):   # a room saving more than the old 60 a minute, from one address
        saved = app.test_client().post("/api/v1/rulings", json={**SIMPLE, "title": f"judge {n}"})
        codes.append(saved.status_code)
        time.sleep(0.03)  # a room's pace, under the per-second burst limit (40/s) on any machine
    assert codes == [201] * 70


def test_counts_are_shared_by_the_workers_and_survive_a_recycle(tmp_path, index_dir):
    db = tmp_path / "r.sqlite3"
    one, two = (served_app(db, index_dir, JUDGE_LIMIT_SAVE="3/minute") for _ in range(2))
    codes = [app.test_client().post("/api/v1/rulings", json={**SIMPLE, "title": f"t{n}"}).status_code
             for n, app in enumerate([one, two, one, two])]
    assert codes == [201, 201, 201, 429]
    recycled = served_app(db, index_dir, JUDGE_LIMIT_SAVE="3/minute")
    assert recycled.test_client().post("/api/v1/rulings", json={**SIMPLE, "title": "t9"}).status_code == 429


def test_changes_waiting_for_another_worker_stops_as_soon_as_it_has_every_judgement(monkeypatch):
    """While another process holds the pair's lease, a request takes the judgements it keeps meanwhile and
    stops waiting once it has them all (it used to sleep to its deadline and answer 503 for a whole
    report)."""
    import json
    import zlib

    from judge.changes import rulings as changes

    judged = {"status": "same", "changed_rules": [], "before": {}, "after": {}}
    value = zlib.compress(json.dumps(judged).encode())

    class Elsewhere:  # the store, while another worker judges "new" and keeps it after two looks
        looks = 0

        def kept_some(self, kind, keys):
            self.looks += 1
            return {key: value for key in keys} if self.looks > 2 else {}

        def lease(self, kind, seconds):
            return None  # held by another process

    pair = changes._Judged(Elsewhere(), "a pair")  # type: ignore[arg-type]
    monkeypatch.setattr(changes.time, "sleep", lambda seconds: None)
    began = changes.time.monotonic()
    changes._gather(pair, ["new"], [], "0.4.0", "0.4.1", [], began + 30, began + 30)
    assert set(pair.changes) == {"new"} and pair.store.looks == 3
