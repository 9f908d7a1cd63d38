"""The scenario library: every scenario YAML under scenarios/, searchable, each with a path id."""

from __future__ import annotations

import os
import threading

import pytest

from judge.library import Library, cites_rule

ONE = """
title: Can Chrome Chains target Noah?
question: A wants to cast Chrome Chains on Noah.
state: {players: {A: {field: {}}}}
expect: {cites: ["13.6.2"]}
"""
TWO = """
title: Defiance kills the attacker
state: {players: {A: {field: {}}}}
expect: {cites: ["glossary/defiance"]}
"""


@pytest.fixture()
def library(tmp_path):
    (tmp_path / "targeting").mkdir()
    (tmp_path / "targeting" / "noah.yaml").write_text(ONE)
    (tmp_path / "battle.yaml").write_text(TWO)
    (tmp_path / "untestable.yaml").write_text("- a list of what we can't test\n")
    (tmp_path / "coverage-baseline.yaml").write_text("state: {}\n")  # skipped by name even with a state
    (tmp_path / "notes.yaml").write_text("just: notes\n")  # no state: not a scenario
    (tmp_path / "broken.yaml").write_text("state: [\n")  # malformed: passed over
    return Library(tmp_path)


def test_only_scenarios_are_listed_with_path_ids(library):
    assert sorted(e.pid for e in library.entries()) == ["battle", "targeting/noah"]
    assert library.get("targeting/noah").title == "Can Chrome Chains target Noah?"
    assert library.get("../etc/passwd") is None


@pytest.mark.parametrize("query, found", [
    ("chrome", ["targeting/noah"]),          # title
    ("wants to cast", ["targeting/noah"]),   # question
    ("13.6.2", ["targeting/noah"]),          # an expected rule
    ("DEFIANCE", ["battle"]),                # case-insensitive
    ("", ["battle", "targeting/noah"]),
])
def test_search_by_title_question_and_rule(library, query, found, monkeypatch):
    monkeypatch.setattr(library, "cites", lambda entry: entry.expected_cites)
    assert sorted(e.pid for e in library.search(query)) == found


def test_citing_lists_the_rulings_that_cite_a_rule_or_its_parts(library, monkeypatch):
    monkeypatch.setattr(library, "cites", lambda entry: entry.expected_cites)
    assert [e.pid for e in library.citing("13.6.2")] == ["targeting/noah"]
    assert [e.pid for e in library.citing("13.6")] == ["targeting/noah"]
    assert library.citing("13.6.3") == []


def test_citing_follows_a_changed_scenario_file(library, tmp_path, monkeypatch):
    monkeypatch.setattr(library, "cites", lambda entry: entry.expected_cites)
    assert [e.pid for e in library.citing("13.6.2")] == ["targeting/noah"]
    battle = tmp_path / "battle.yaml"
    before = battle.stat().st_mtime_ns
    battle.write_text(TWO.replace("glossary/defiance", "13.6.2"))
    os.utime(battle, ns=(before + 10**9, before + 10**9))  # a later edit, even on a coarse-clock file system
    assert [e.pid for e in library.citing("13.6.2")] == ["battle", "targeting/noah"]


@pytest.mark.parametrize(
    "cited, rule, expected",
    [
        ("11.6.1", "11.6.1", True),
        ("11.6.1b", "11.6.1", True),
        ("11.6.1.2", "11.6.1", True),
        ("11.6.10", "11.6.1", False),
        ("13.6.2", "13.6.2a", False),
        ("glossary/defiance", "glossary/defiance", True),
    ],
)
def test_cites_rule(cited, rule, expected):
    assert cites_rule(cited, rule) is expected


def test_warming_resolves_the_library_once_off_the_request_path(library, monkeypatch):
    seen = []
    monkeypatch.setattr(library, "cites", lambda entry: seen.append(entry.pid) or ())
    library.warm_in_background()
    library.warm_in_background()  # a second call starts nothing
    for thread in [t for t in threading.enumerate() if t.name == "library-cites"]:
        thread.join(timeout=10)
    assert sorted(seen) == ["battle", "targeting/noah"]


def test_the_served_library_looks_at_its_folder_once_per_interval(tmp_path, monkeypatch):
    """The served library (`LIBRARY`) trusts its last look at the folder for a few seconds, so a page
    that asks for rulings many times does not walk the folder each time; a change shows after that."""
    from judge import library as library_module

    assert library_module.LIBRARY.recheck > 0
    (tmp_path / "battle.yaml").write_text(TWO)
    served = Library(tmp_path, recheck=library_module.LIBRARY.recheck)
    clock = [1000.0]
    monkeypatch.setattr(library_module.time, "monotonic", lambda: clock[0])
    walks = []
    real = served._files
    monkeypatch.setattr(served, "_files", lambda: walks.append(1) or real())
    assert [e.pid for e in served.entries()] == ["battle"]
    (tmp_path / "noah.yaml").write_text(ONE)
    for _ in range(5):
        assert served.get("battle") is not None and served.get("noah") is None
    assert len(walks) == 1
    clock[0] += served.recheck
    assert sorted(e.pid for e in served.entries()) == ["battle", "noah"]
    assert len(walks) == 2
