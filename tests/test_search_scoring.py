"""Scores summed from the build's precomputed postings are Whoosh's own; what they can't answer (a
phrase, NOT) still goes to Whoosh; a searcher follows a new build."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from judge.search import query as Q
from judge.search import searcher
from judge.search.sources import ListSource
from judge.search.store import ensure

CASES = yaml.safe_load((Path(__file__).parent / "search_cases.yaml").read_text())
MORE = ["soul", "front line", "captured AND exiled", "(event OR ambush) AND fizzles", "shield",
        "captured OR exiled", "attack defiance berserk unyielding", "1/Turn", "chapter:11 target"]


def _whoosh(s, q):
    """The scores Whoosh's own matchers give every document the query matches."""
    with s.lock:
        return dict(s.searcher.search(q, limit=None).items())


@pytest.mark.parametrize("text", [c["q"] for c in CASES if "redirect" not in c] + MORE)
def test_summed_scores_are_whooshs(app, text):
    s = searcher(app.config["INDEX_DIR"])
    search = Q.prepare(text).search
    parsed = s.parsed(search)
    assert parsed is not None
    summed = s.scores.evaluate(parsed.query)
    if summed is None:   # a phrase or NOT: answered by Whoosh itself
        assert '"' in search or "NOT" in search
        return
    expected = _whoosh(s, parsed.query)
    assert summed.keys() == expected.keys()
    for docnum, score in expected.items():
        assert summed[docnum] == pytest.approx(score, rel=1e-12), (text, s.docs[docnum]["id"])


@pytest.mark.parametrize("text", ['"names the Soul"', "soul NOT leader", "armament ANDNOT elysium"])
def test_phrases_and_not_are_left_to_whoosh_and_still_rank(app, text):
    s = searcher(app.config["INDEX_DIR"])
    parsed = s.parsed(Q.prepare(text).search)
    assert s.scores.evaluate(parsed.query) is None
    result = s.search(text, pagelen=1000)
    matched = {s.docs[n]["id"] for n in _whoosh(s, parsed.query)}
    assert result.hits and {h.id for h in result.hits} <= matched


def test_a_filter_keeps_only_its_kind_and_chapter(app):
    s = searcher(app.config["INDEX_DIR"])
    hits = s.search("kind:glossary soul", pagelen=50).hits
    assert hits and {h.kind for h in hits} == {"glossary"}
    assert all(h.id.startswith("11.") for h in s.search("chapter:11 kind:rule target", pagelen=50).hits)


def test_a_searcher_follows_a_newly_published_build(tmp_path):
    first_docs = [{"id": "1.1", "kind": "rule", "title": "1.1", "text": "A Soul wears a Shield."}]
    ensure(tmp_path, sources=[ListSource(first_docs)])
    before = searcher(tmp_path)
    assert searcher(tmp_path) is before   # the same build: the same searcher
    assert [h.id for h in before.search("shield").hits] == ["1.1"]
    ensure(tmp_path, sources=[ListSource(first_docs + [
        {"id": "1.2", "kind": "rule", "title": "1.2", "text": "A Realm has no Shield."}])], force=True)
    after = searcher(tmp_path)
    assert after is not before and after.path != before.path
    assert sorted(h.id for h in after.search("shield").hits) == ["1.1", "1.2"]
