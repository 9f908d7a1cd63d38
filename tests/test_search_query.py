"""Query preparation, analysis and spelling, without an index."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.search import QueryError, search
from judge.search.analysis import analyzer, stems, words
from judge.search.query import MAX_QUERY, correct, osa_distance, prepare, rule_number


@pytest.mark.parametrize("typed, rule_id", [
    ("11.5.1", "11.5.1"), ("§13.6.2", "13.6.2"), ("r11.6.1b", "11.6.1b"), ("rule 10.4", "10.4"),
    ("11.6.1(b)", "11.6.1b"), (" 9.5.6 ", "9.5.6"), ("R13.6.7E", "13.6.7e"), ("13", "13"),
])
def test_rule_numbers(typed, rule_id):
    assert rule_number(typed) == rule_id


@pytest.mark.parametrize("typed", ["11.5.1 cost", "shield", "1/Turn", "11..5", "123.4.5"])
def test_not_rule_numbers(typed):
    assert rule_number(typed) is None


def test_stems_keep_rule_numbers_and_limits_whole():
    assert words("see (11.5.1) and 1/Turn.") == ["see", "11.5.1", "and", "1/turn"]
    assert stems("Unyielding Souls") == ("unyield", "soul")


def test_question_words_are_stop_words_but_rules_words_are_not():
    assert stems("who holds priority first") == ("hold", "prioriti", "first")
    assert stems("can not target") == ("not", "target")


def test_alias_is_found_both_ways_and_highlights_its_own_span():
    ana = analyzer({"def": ["DEF", "Shield"], "soul-spot": ["Soul Spot", "Spot"]})
    assert [t.text for t in ana("shield", mode="query")] == ["_syn_def"]
    assert [t.text for t in ana("DEF", mode="query")] == ["_syn_def"]
    tokens = [(t.text, t.startchar, t.endchar) for t in ana("a Soul Spot", mode="index", chars=True)]
    assert ("_syn_soul-spot", 2, 11) in tokens


@pytest.mark.parametrize("raw, search_text", [
    ('"unbalanced', "unbalanced"), ("((a b", "((a b))"), ("a b))", "a b"), ("NOT", ""), ("x AND", "x"),
])
def test_broken_syntax_is_balanced(raw, search_text):
    assert prepare(raw).search == search_text


def test_filters_and_unknown_fields():
    p = prepare("kind:glossary chapter:13 foo:bar shield")
    assert p.kinds == ("glossary",) and p.chapters == ("13",)
    assert "foo bar shield" in p.search and any("foo:" in n for n in p.notices)


@pytest.mark.parametrize("raw", ["", "   ", "\x00\x01", None])
def test_empty_queries_are_refused_with_a_hint(raw):
    with pytest.raises(QueryError, match="rule number"):
        prepare(raw)


def test_long_queries_are_refused_with_the_length():
    with pytest.raises(QueryError, match=str(MAX_QUERY + 1)):
        prepare("a" * (MAX_QUERY + 1))


def test_spelling():
    vocab = {"unyielding": 30, "defiance": 20, "cascade": 25, "defence": 2}
    assert osa_distance("casacde", "cascade", 2) == 1
    assert correct("unyeilding", vocab) == "unyielding"
    assert correct("defience", vocab) == "defiance"
    assert correct("casacde", vocab) == "cascade"
    assert correct("zebra", vocab) is None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=600))
def test_any_text_is_answered_or_refused_cleanly(app, text):
    try:
        result = search(app.config["INDEX_DIR"], text)
    except QueryError as exc:
        assert str(exc)
        return
    assert result.total >= len(result.hits)
    assert all("<" not in h.snippet.replace("<mark>", "").replace("</mark>", "") for h in result.hits)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(['"', "(", ")", "AND", "OR", "NOT", "*", ":", "kind:", "chapter:x", "soul",
                                 "11.5.1", "§", "\x00", "shield", "unyeilding", "^", "~", "[", "]"]),
                max_size=12))
def test_any_mix_of_syntax_is_answered(app, parts):
    with contextlib.suppress(QueryError):
        search(app.config["INDEX_DIR"], " ".join(parts))
