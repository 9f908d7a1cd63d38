"""The app and its rulings storage: SQLite in the instance folder unless DATABASE_URL says PostgreSQL;
a database that goes away answers 503 in the error shape; rate limits shared through PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.rulings import migrations
from judge.web import create_app

SCENARIO = {"title": "web", "state": {"players": {"A": {"field": {"altar": "Queen Sol"}},
                                                  "B": {"field": {"altar": "King Umbra"}}}},
            "actions": [{"end_phase": True}]}


def test_without_database_url_rulings_stay_in_sqlite_in_the_instance_folder(tmp_path, monkeypatch):
    """What `make serve` does with no DATABASE_URL: as before, a SQLite file in the instance folder."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("JUDGE_DB", raising=False)
    monkeypatch.setenv("JUDGE_INSTANCE", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "INDEX_DIR": str(tmp_path / "index")})
    assert app.config["DATABASE_URL"] == "" and app.extensions["rulings"].backend == "sqlite"
    assert app.config["DATABASE"] == str(tmp_path / "instance" / "rulings.sqlite3")
    saved = app.test_client().post("/api/v1/rulings", json=SCENARIO)
    assert saved.status_code == 201 and (tmp_path / "instance" / "rulings.sqlite3").is_file()


def test_an_unknown_database_url_stops_start_up_with_what_to_do(tmp_path):
    with pytest.raises(ValueError, match="DATABASE_URL must start with postgresql://"):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "r.sqlite3"),
                    "INDEX_DIR": str(tmp_path / "i"),
                    "DATABASE_URL": "sqlite:///elsewhere.db"})


@pytest.fixture()
def pg_app(pg_url, tmp_path):
    app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False,
                      "DATABASE": str(tmp_path / "unused.sqlite3"),
                      "INDEX_DIR": str(tmp_path / "index"), "DATABASE_URL": pg_url})
    yield app
    app.extensions["rulings"].close()


def test_with_database_url_rulings_live_in_postgresql_and_healthz_says_so(pg_app):
    client = pg_app.test_client()
    rid = client.post("/api/v1/rulings", json=SCENARIO).get_json()["id"]
    assert client.get(f"/r/{rid}").status_code == 200
    database = client.get("/healthz").get_json()["database"]
    assert database == {"ok": True, "backend": "postgresql", "schema": migrations.latest(), "rulings": 1}
    assert not Path(pg_app.config["DATABASE"]).exists()  # nothing went to SQLite


def test_a_database_gone_away_answers_503_with_retry_after_in_the_error_shape(pg_app, tmp_path):
    client = pg_app.test_client()
    store = pg_app.extensions["rulings"]
    store.close()
    store.url = f"postgresql://judge@/gone?host={tmp_path}&port=8197"  # the server is unreachable now
    for response in (client.get("/api/v1/rulings/0123456789ab"),
                     client.post("/api/v1/rulings", json=SCENARIO)):
        assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
        body = response.get_json()
        assert body["ok"] is False and body["status"] == 503 and "can't be reached" in body["error"]
    health = client.get("/healthz")
    assert health.status_code == 503 and health.get_json()["database"]["ok"] is False


def test_rate_limits_are_shared_by_two_instances_through_postgresql(pg_url, tmp_path):
    """RATELIMIT_STORAGE_URI=postgresql://…: two apps count one client's requests together."""
    apps = [create_app({"TESTING": True, "DATABASE": str(tmp_path / f"{n}.sqlite3"),
                        "INDEX_DIR": str(tmp_path / "index"), "RATELIMIT_STORAGE_URI": pg_url,
                        "JUDGE_LIMIT_API": "3/minute"}) for n in (1, 2)]
    try:
        statuses = [app.test_client().post("/api/v1/position", json=SCENARIO).status_code
                    for app in (*apps, *apps)]
        assert statuses == [200, 200, 200, 429]
    finally:
        for app in apps:
            app.extensions["rulings"].close()
            for limiter in app.extensions["limiter"]:
                limiter.storage.close()


def test_a_shared_limit_store_that_fails_falls_back_to_counting_per_process(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "r.sqlite3"),
                      "INDEX_DIR": str(tmp_path / "i"),
                      "RATELIMIT_STORAGE_URI": f"postgresql://judge@/gone?host={tmp_path}&port=8197",
                      "JUDGE_LIMIT_API": "2/minute"})
    client = app.test_client()
    assert [client.post("/api/v1/position", json=SCENARIO).status_code for _ in range(3)] == [200, 200, 429]
