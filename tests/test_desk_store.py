"""Saved rulings: one row per scenario content, the same scenario always under the same id."""

from __future__ import annotations

from judge.rulings.sqlite import RulingStore

SCENARIO = {"title": "T", "state": {"players": {"A": {"field": {}}}}, "actions": [{"pass": True}]}


def test_the_same_scenario_gets_the_same_id_and_is_stored_once(tmp_path):
    store = RulingStore(tmp_path / "r.sqlite3")
    first = store.save(SCENARIO, "0.4.0", {"winner": None}, {"steps": []})
    again = store.save(dict(reversed(list(SCENARIO.items()))), "0.4.0", {"winner": None}, {"steps": []})
    assert first == again  # key order does not matter: the id is a hash of canonical JSON
    other = store.save({**SCENARIO, "title": "U"}, "0.4.0", {"winner": None}, {"steps": []})
    assert other != first
    saved = store.get(first)
    assert saved.scenario == SCENARIO and saved.codex == "0.4.0" and saved.outcome == {"winner": None}


def test_unknown_or_malformed_ids_find_nothing(tmp_path):
    store = RulingStore(tmp_path / "r.sqlite3")
    assert store.get("0123456789ab") is None
    assert store.get("../../etc/passwd") is None
    assert store.get("x" * 100) is None


def test_the_database_file_is_where_the_config_says(tmp_path):
    path = tmp_path / "deep" / "rulings.sqlite3"
    RulingStore(path).save(SCENARIO, "0.4.0", {}, {})
    assert path.is_file()
