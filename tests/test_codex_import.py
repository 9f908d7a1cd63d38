"""`judge import-codex` turns the raw numbered pages (and the glossary page) into the committed YAML."""

from __future__ import annotations

import pytest
import yaml

from judge import CODEX_DIR
from judge.codex.cli import import_codex
from judge.codex.editions import editions
from judge.codex.importer import import_chapter, slugify

SOURCES = CODEX_DIR / "sources"


def load(path):
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@pytest.mark.parametrize(("seed", "committed"), [
    ("004_ae8f84442393c71e.txt", "chapters/10.yaml"),
    ("002_3be7a10c2938e637.txt", "chapters/13.yaml"),
    ("003_a5f3b3277b297574.txt", "glossary.yaml"),
])
def test_import_reproduces_the_committed_file(tmp_path, capsys, seed, committed):
    out = tmp_path / "out.yaml"
    assert import_codex([str(SOURCES / seed), "-o", str(out)]) == 0
    assert load(out) == load(editions().folder() / committed)
    assert import_codex([str(SOURCES / seed)]) == 0           # and to stdout
    assert yaml.safe_load(capsys.readouterr().out) == load(editions().folder() / committed)


def test_import_of_a_small_page_keeps_lists_examples_notes_and_empty_rules():
    page = """Sample chapter
CodexChapter 7 of 18Rules for game version 0.4.0
Contents
7.1First section
  1. 7.1.1
    A rule with a list:
    1. first thing;
    2. second thing.
    NoteA note.
  2. 7.1.2
  3. 7.1.3
    Another rule.
ExampleNoah (rank 2) attacks.
Loading the index…
"""
    chapter = import_chapter(page, known_cards=["Harold"])
    assert chapter["chapter"] == 7 and chapter["title"] == "Sample chapter"
    rules = chapter["sections"][0]["rules"]
    assert rules[0]["items"] == [
        {"id": "7.1.1a", "text": "first thing;"},
        {"id": "7.1.1b", "text": "second thing."},
    ]
    assert rules[0]["notes"] == ["A note."]
    assert rules[1] == {"id": "7.1.2", "text": "", "empty_in_source": True}
    assert rules[2]["examples"] == [{"text": "Noah (rank 2) attacks.", "cards": ["Noah"]}]


@pytest.mark.parametrize("text", ["just some prose\nwith no numbers", "- 7.1.1\nText before any section"])
def test_import_rejects_what_it_cannot_read_with_exit_2(tmp_path, capsys, text):
    path = tmp_path / "page.txt"
    path.write_text(text, encoding="utf-8")
    assert import_codex([str(path)]) == 2
    err = capsys.readouterr().err
    assert "page.txt" in err


def test_import_of_a_missing_file_exits_2(tmp_path, capsys):
    assert import_codex([str(tmp_path / "nope.txt")]) == 2
    assert "nope.txt" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("term", "slug"),
    [
        ("DEF", "def"),
        ("Soul Spot", "soul-spot"),
        ("Player A", "player-a"),
        ("Look at the top", "look-at-the-top"),
        ("Leader's altar", "leader-s-altar"),
    ],
)
def test_slugify(term, slug):
    assert slugify(term) == slug
