"""Saved rulings behind one interface: every test here runs against SQLite and PostgreSQL (the
PostgreSQL half on a throwaway cluster, tests/pg.py; it skips locally without PostgreSQL)."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing

import pytest

from judge.desk.runner import canonical_json, content_id
from judge.rulings import StoreUnavailable, migrations, open_store
from judge.rulings.sqlite import pack

SCENARIO = {"title": "T", "state": {"players": {"A": {"field": {}}}}, "actions": [{"pass": True}]}


@pytest.fixture(params=["sqlite", "postgresql"])
def config(request, tmp_path):
    if request.param == "sqlite":
        return {"DATABASE": str(tmp_path / "rulings.sqlite3")}
    return {"DATABASE": str(tmp_path / "unused.sqlite3"), "DATABASE_URL": request.getfixturevalue("pg_url")}


@pytest.fixture()
def store(config):
    opened = open_store(config)
    yield opened
    opened.close()


def save(store, scenario, codex="0.4.0"):
    return store.save(scenario, codex, {"winner": None}, {"steps": [{"n": 1}]})


def test_the_backend_is_the_one_the_config_names(config, store):
    assert store.backend == ("postgresql" if config.get("DATABASE_URL") else "sqlite")


def test_the_same_scenario_gets_the_same_id_and_is_stored_once(store):
    first = save(store, SCENARIO)
    again = save(store, dict(reversed(list(SCENARIO.items()))))
    assert first == again == content_id(SCENARIO)  # key order does not matter; ids are unchanged
    other = save(store, {**SCENARIO, "title": "U"})
    assert other != first and store.count() == 2
    saved = store.get(first)
    assert saved.scenario == SCENARIO and saved.codex == "0.4.0" and saved.outcome == {"winner": None}
    assert saved.ruling == {"steps": [{"n": 1}]} and saved.id == first and saved.created[:2] == "20"


def test_unknown_or_malformed_ids_find_nothing(store):
    assert store.get("0123456789ab") is None
    assert store.get("../../etc/passwd") is None
    assert store.get("x" * 100) is None
    assert store.get("abc' OR '1'='1") is None


def test_text_survives_the_round_trip(store):
    scenario = {**SCENARIO, "title": "Ünïcode — ✓ \"quotes\" 'and' \\ back\nslash",
                "notes": [1.5, None, True]}
    assert store.get(save(store, scenario)).scenario == scenario


def test_the_ruling_kept_per_versions_is_read_back_and_replaced_by_newer_versions(store):
    rid = store.save(SCENARIO, "0.4.0", {}, {"steps": []}, versions="engine 1 codex 0.4.0",
                     view={"steps": [{"n": 1, "state": {"big": True}}]})
    assert store.view(rid, "engine 1 codex 0.4.0") == {"steps": [{"n": 1, "state": {"big": True}}]}
    assert store.view(rid, "engine 2 codex 0.4.0") is None
    store.put_view(rid, "engine 2 codex 0.4.0", {"steps": [{"n": 2}]})
    assert store.view(rid, "engine 2 codex 0.4.0") == {"steps": [{"n": 2}]}
    assert store.view(rid, "engine 1 codex 0.4.0") is None  # one kept ruling per scenario: the newest
    assert store.get(rid).ruling == {"steps": []}  # the ruling made when saved stays as it was


def test_judgements_are_kept_a_batch_at_once_and_read_back_by_key(store):
    ids = [save(store, {**SCENARIO, "title": f"t{n}"}) for n in range(3)]
    assert store.scenarios([ids[2], "0123456789ab", ids[0]]) == [
        (ids[2], {**SCENARIO, "title": "t2"}), (ids[0], {**SCENARIO, "title": "t0"})]  # the order asked
    assert store.scenarios([]) == []
    store.keep_many("changes a", [(ids[0], b"zero"), ("library:x", b"\x00one")])
    store.keep_many("changes b", [(ids[0], b"other kind")])
    store.keep_many("changes a", [])
    assert store.kept_some("changes a", [ids[0], ids[1], "library:x"]) == {ids[0]: b"zero",
                                                                           "library:x": b"\x00one"}
    assert store.kept_some("changes a", []) == {}
    store.keep_many("changes a", [(ids[0], b"again")])  # kept again: replaced
    assert store.kept_some("changes a", [ids[0]]) == {ids[0]: b"again"}
    assert store.kept_keys("changes a") == {ids[0], "library:x"}


def test_text_with_nul_characters_survives(store):
    scenario = {**SCENARIO, "title": "nul \x00 inside"}
    rid = save(store, scenario)
    assert rid == content_id(scenario) and store.get(rid).scenario == scenario and save(store,
                                                                                        scenario) == rid


def test_a_clash_of_short_ids_gets_a_longer_id(config, store):
    """Another scenario already holds this one's 12-character id: this one gets 16 characters."""
    _plant(config, content_id(SCENARIO), {"title": "someone else"})
    rid = save(store, SCENARIO)
    assert rid == content_id(SCENARIO, 16)
    assert store.get(rid).scenario == SCENARIO and save(store, SCENARIO) == rid


def _plant(config, rid, scenario):
    row = (rid, canonical_json(scenario), "0.4.0", "{}", pack({}), "2026-01-01T00:00:00+00:00")
    if config.get("DATABASE_URL"):
        import psycopg

        with psycopg.connect(config["DATABASE_URL"]) as db:
            db.execute("INSERT INTO rulings VALUES (%s,%s,%s,%s,%s,%s)", row)
    else:
        with sqlite3.connect(config["DATABASE"]) as db:
            db.execute("INSERT INTO rulings VALUES (?,?,?,?,?,?)", row)


def test_migrations_run_once_and_health_reports_the_schema(config, store):
    assert store.migrate() == []  # open_store already applied every migration
    save(store, SCENARIO)
    assert store.health() == {"ok": True, "backend": store.backend, "schema": migrations.latest(),
                              "rulings": 1}
    with closing(open_store(config)) as again:
        assert again.migrate() == [] and again.health()["schema"] == migrations.latest()


def test_two_instances_starting_at_once_migrate_once(config):
    results, errors = [], []

    def start():
        try:
            with closing(open_store(config)) as store:
                results.append(store.migrate())
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and results == [[]] * 4  # open_store migrated; the explicit call finds nothing
    with closing(open_store(config)) as store:
        assert store.health()["schema"] == migrations.latest()


def test_concurrent_saves_from_two_instances_lose_and_duplicate_nothing(config):
    """Two stores (two app instances) save the same 10 scenarios at once, each twice: 10 rows."""
    instances = [open_store(config), open_store(config)]
    scenarios = [{**SCENARIO, "title": f"S{i}"} for i in range(10)]
    ids: list[str] = []
    errors: list[Exception] = []

    def worker(store, order):
        try:
            for scenario in order:
                ids.append(save(store, scenario))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
    threads = [threading.Thread(target=worker, args=(instances[n % 2], scenarios[::1 if n < 2 else -1]))
               for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(set(ids)) == sorted(content_id(s) for s in scenarios) and len(ids) == 40
    assert instances[0].count() == 10
    for scenario in scenarios:
        assert instances[1].get(content_id(scenario)).scenario == scenario
    for store in instances:
        store.close()


def test_a_sqlite_database_from_before_migrations_is_adopted(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(migrations.rulings_table("TEXT"))
        db.execute("INSERT INTO rulings VALUES (?,?,?,?,?,?)",
                   ("0123456789ab", canonical_json(SCENARIO), "0.4.0", "{}", "{}", "2026-01-01"))
    store = open_store({"DATABASE": str(path)})
    assert store.get("0123456789ab").scenario == SCENARIO
    assert store.health()["schema"] == migrations.latest()


def test_an_unreachable_postgresql_says_where_only_in_the_log_and_never_the_password(tmp_path):
    """The public cause names no host, socket path or driver line (issue 22); the detail, for the log,
    says where, and neither holds the password."""
    pytest.importorskip("psycopg")
    url = f"postgresql://judge:s3cret-pw@/rulings?host={tmp_path}&port=8197"  # no server on this socket
    with closing(open_store({"DATABASE": "unused", "DATABASE_URL": url})) as store:  # starts anyway
        with pytest.raises(StoreUnavailable) as caught:
            store.get("0123456789ab")
        health = store.health()
    message, detail = caught.value.cause, caught.value.detail
    assert "can't be reached" in message and str(tmp_path) not in message and "socket" not in message
    assert str(tmp_path) in detail and "s3cret-pw" not in detail + message
    assert health["ok"] is False
    assert "s3cret-pw" not in health["error"] and str(tmp_path) not in health["error"]


def test_a_database_that_answers_only_after_start_up_is_migrated_on_first_use(pg_cluster):
    import psycopg

    name = "later_" + str(id(pg_cluster))
    with closing(open_store({"DATABASE": "unused", "DATABASE_URL": pg_cluster.url(name)})) as store:
        with pytest.raises(StoreUnavailable):
            save(store, SCENARIO)  # the database does not exist yet
        with psycopg.connect(pg_cluster.url(), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        assert save(store, SCENARIO) == content_id(SCENARIO)
        assert store.health() == {"ok": True, "backend": "postgresql", "schema": migrations.latest(),
                                  "rulings": 1}


def test_a_database_url_of_another_kind_is_refused_with_what_to_do():
    with pytest.raises(ValueError, match="postgresql://"):
        open_store({"DATABASE": "unused", "DATABASE_URL": "mysql://localhost/rulings"})


def test_a_forked_worker_never_uses_its_parents_connections(pg_url):
    """gunicorn --preload forks workers after the app (and its store) exist: the child must talk to
    PostgreSQL through a session of its own, and the parent's keeps working."""
    import os

    def backend_pid(store):
        return store._run(lambda db: db.execute("SELECT pg_backend_pid()").fetchone()[0])

    with closing(open_store({"DATABASE": "unused", "DATABASE_URL": pg_url})) as store:
        rid = save(store, SCENARIO)
        parent_session = backend_pid(store)  # and that connection now waits, idle, in the store
        pid = os.fork()
        if pid == 0:  # the child: exit 0 only with a session of its own that reads and writes
            child = {**SCENARIO, "title": "child"}
            ok = backend_pid(store) != parent_session and store.get(rid) is not None and \
                save(store, child) == content_id(child)
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert backend_pid(store) == parent_session and store.count() == 2  # the parent's session lives on
