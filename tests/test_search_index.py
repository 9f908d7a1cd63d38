"""Building the index: from the Codex data, only when stale, safely from several processes, and
the `judge index` command."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from judge.codex import load_codex
from judge.engine import load_library
from judge.library import LIBRARY
from judge.search import search, searcher
from judge.search.cli import index
from judge.search.sources import CodexSource, ListSource
from judge.search.store import current_build, data_hash, ensure, is_stale, read_meta
from judge.web.links import doc_url

DOCS = [
    {"id": "1.1", "kind": "rule", "title": "1.1", "text": "A Soul wears a Shield."},
    {"id": "glossary/def", "kind": "glossary", "title": "DEF",
     "names": "DEF ; Shield", "text": "Defence, called Shield on cards."},
]


def test_every_codex_text_is_a_document(app):
    codex = load_codex()
    meta = read_meta(current_build(app.config["INDEX_DIR"]))
    rules = sum(1 for r in codex.rules.values() if r.kind in ("rule", "item"))
    headings = sum(1 for r in codex.rules.values() if r.kind in ("chapter", "section"))
    examples = sum(len(r.examples) for r in codex.rules.values())
    assert meta["kinds"] == {"rule": rules, "section": headings, "example": examples,
                             "glossary": len(codex.glossary), "card": len(load_library()),
                             "ruling": len(LIBRARY.entries())}


def test_rules_carry_their_examples_and_notes(app):
    # 13.2.2's example (Harold) and 10.4.5's note are searchable through the rule itself.
    ids = [h.id for h in search(app.config["INDEX_DIR"], "kind:rule harold").hits]
    assert "13.2.2" in ids
    ids = [h.id for h in search(app.config["INDEX_DIR"], "kind:rule \"out of nowhere\"").hits]
    assert ids == ["10.4.5"]


def test_synonyms_come_from_the_glossary_data():
    groups = CodexSource().synonyms()
    assert groups["def"][0] == "DEF" and {"Shield", "Defence", "Defense"} <= set(groups["def"])
    assert "Nefarious" in groups["dark"] and "Freeze" in groups["frozen"] and "1/Turn" in groups["limit"]


def test_a_build_is_reused_until_the_data_changes(tmp_path):
    source = ListSource(DOCS, groups={"def": ["DEF", "Shield"]})
    first = ensure(tmp_path, sources=[source])
    assert first.built and first.documents == 2
    again = ensure(tmp_path, sources=[source])
    assert not again.built and again.path == first.path
    data = tmp_path / "data.yaml"
    data.write_text("one")

    class FileSource(ListSource):
        def files(self) -> list[Path]:
            return [data]

    watched = FileSource(DOCS)
    ensure(tmp_path, sources=[watched])
    assert not is_stale(tmp_path, sources=[watched])
    data.write_text("two")
    assert is_stale(tmp_path, sources=[watched])
    rebuilt = ensure(tmp_path, sources=[watched])
    assert rebuilt.built and rebuilt.path != first.path
    assert read_meta(current_build(tmp_path))["hash"] == data_hash([watched])


def test_old_builds_are_pruned(tmp_path):
    for _ in range(4):
        ensure(tmp_path, sources=[ListSource(DOCS)], force=True)
    assert len(list(tmp_path.glob("build-*"))) == 2


def _build_in_child(directory: str) -> None:
    info = ensure(directory, sources=[ListSource(DOCS)])
    Path(directory, f"done-{os.getpid()}").write_text("built" if info.built else "reused")


def test_concurrent_builds_do_not_collide(tmp_path):
    # Two gunicorn workers starting at once: one builds, the other waits for the lock and reuses it.
    ctx = multiprocessing.get_context("fork")
    workers = [ctx.Process(target=_build_in_child, args=(str(tmp_path),)) for _ in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(30)
    assert all(w.exitcode == 0 for w in workers)
    outcomes = sorted(p.read_text() for p in tmp_path.glob("done-*"))
    assert outcomes == ["built", "reused", "reused"]
    assert len(list(tmp_path.glob("build-*"))) == 1
    assert read_meta(current_build(tmp_path))["documents"] == 2


def test_a_list_source_is_searchable_with_its_synonyms(tmp_path):
    ensure(tmp_path, sources=[ListSource(DOCS, groups={"def": ["DEF", "Shield"]})])
    assert [h.id for h in search(tmp_path, "def").hits] == ["glossary/def", "1.1"]


def test_cli_builds_then_skips_when_fresh(tmp_path, capsys):
    target = tmp_path / "index"
    assert index(["--dir", str(target)]) == 0
    assert "built" in capsys.readouterr().out
    assert index(["--if-stale", "--dir", str(target)]) == 0
    assert "up to date" in capsys.readouterr().out


def test_cli_reads_judge_index_from_the_environment(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("JUDGE_INDEX", str(tmp_path / "env-index"))
    assert index(["--if-stale"]) == 0
    assert (tmp_path / "env-index" / "current").is_symlink()


@pytest.mark.parametrize("argv", [["--no-such-flag"], ["extra"]])
def test_cli_usage_errors_exit_2(argv, capsys):
    assert index(argv) == 2


def test_the_app_builds_a_missing_index_at_start_and_rebuilds_a_stale_one(tmp_path):
    from judge.web import create_app

    directory = tmp_path / "index"
    create_app({"TESTING": True, "INDEX_DIR": str(directory)})
    first = current_build(directory)
    assert first is not None and not is_stale(directory)
    meta = first / "meta.json"
    meta.write_text(meta.read_text().replace(read_meta(first)["hash"], "0" * 64))   # data changed
    assert is_stale(directory)
    app = create_app({"TESTING": True, "INDEX_DIR": str(directory)})
    assert current_build(directory) != first and not is_stale(directory)
    assert app.test_client().get("/search.json?q=shield").get_json()["results"][0]["id"] == "glossary/def"


def test_cards_and_scenarios_are_in_the_staleness_hash(tmp_path):
    from judge import SCENARIOS_DIR
    from judge.engine.data.cards import CARDS_DIR
    from judge.search.library_sources import CardSource, RulingSource
    from judge.search.sources import SOURCES

    hashed = {path for source in SOURCES for path in source.files()}
    assert set(CARDS_DIR.glob("*.yaml")) <= hashed
    assert any(SCENARIOS_DIR in p.parents for p in hashed)
    assert {p for p in SCENARIOS_DIR.rglob("*.yaml") if p.name not in ("untestable.yaml",
                                                                          "coverage-baseline.yaml")} <= hashed
    scenario = tmp_path / "scenarios" / "one.yaml"
    scenario.parent.mkdir()
    scenario.write_text("title: one\nstate: {}\n")
    rulings = [RulingSource(directory=scenario.parent)]
    before = data_hash(rulings)
    scenario.write_text("title: one, changed\nstate: {}\n")
    assert data_hash(rulings) != before
    card_dir = tmp_path / "cards"
    card_dir.mkdir()
    (card_dir / "c.yaml").write_text("- {name: X, type: soul, rank: 0}\n")
    cards = [CardSource(directory=card_dir)]
    before = data_hash(cards)
    (card_dir / "c.yaml").write_text("- {name: Y, type: soul, rank: 0}\n")
    assert data_hash(cards) != before


def test_card_and_ruling_documents_point_at_their_pages(app, client):
    """The index holds ids and kinds; the web builds each page's URL from them."""
    hits = search(app.config["INDEX_DIR"], "kind:card noah").hits
    assert hits[0].id == "card/noah"
    assert all(h.kind == "card" for h in hits)
    rulings = search(app.config["INDEX_DIR"], "kind:ruling cyber-wormhole").hits
    assert rulings and all(h.kind == "ruling" for h in rulings)
    with app.test_request_context("/"):
        assert doc_url(hits[0].kind, hits[0].id) == "/cards/noah"
        card_urls = [doc_url(h.kind, h.id, h.parent) for h in hits[:2]]
        ruling_urls = {h.id: doc_url(h.kind, h.id, h.parent) for h in rulings[:2]}
    assert all(url == "/scenarios/" + rid.split("/", 1)[1] for rid, url in ruling_urls.items())
    for url in (*card_urls, *ruling_urls.values()):
        assert client.get(url).status_code == 200


def test_every_kind_in_the_index_has_a_page_the_web_builds(app, client):
    """One document of each kind the index holds: `links.doc_url` builds its link and the page is there."""
    docs = searcher(app.config["INDEX_DIR"]).docs
    first = {}
    for doc in docs:
        first.setdefault(doc["kind"], doc)
    assert set(first) == {"rule", "section", "example", "glossary", "card", "ruling"}
    with app.test_request_context("/"):
        urls = {kind: doc_url(kind, doc["id"], doc.get("parent", "")) for kind, doc in first.items()}
    for kind, url in urls.items():
        assert client.get(url).status_code == 200, (kind, url)
