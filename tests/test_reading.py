"""The reader of disputes in words (judge.reading): its vocabulary comes from the project's tables, it
prints its reading back with each default marked, it declines rather than guesses, and the CLI and the API
carry it."""

from __future__ import annotations

import json

import pytest

from judge.cli import main
from judge.engine import VERBS, load_field, load_library
from judge.reading import Declined, read_dispute
from judge.reading.lexicon import VERB_WORDS, Lexer, Names


def _lexer() -> Lexer:
    return Lexer(Names.of({c.name: c.type for c in load_library()}))


def test_every_verb_of_the_verb_table_has_words_and_no_words_name_a_verb_it_lacks() -> None:
    assert set(VERB_WORDS) == set(VERBS)


def test_card_names_forgive_case_and_one_typo_and_say_so() -> None:
    toks = _lexer().lex("grey knigth attacks HAROLD")
    cards = [t for t in toks if t.kind == "CARD"]
    assert [t.value for t in cards] == ["Grey Knight", "Harold"]
    assert "read as Grey Knight" in cards[0].note and not cards[1].note


def test_slots_come_from_the_field_data() -> None:
    lexer = _lexer()
    for slot in load_field().slots:
        toks = lexer.lex(f"B:{slot}")
        assert [(t.kind, t.value) for t in toks] == [("PLAYER", "B"), ("SLOT", slot)]
    assert [t.value for t in lexer.lex("L1.0 l1-0") if t.kind == "SLOT"] == ["L1·0", "L1·0"]


def test_a_lower_case_a_is_an_article_unless_it_names_a_player() -> None:
    kinds = [
        (t.kind, t.value) for t in _lexer().lex("a soul, a's soul, player a, I am a") if t.kind == "PLAYER"
    ]
    assert kinds == [("PLAYER", "A"), ("PLAYER", "A"), ("PLAYER", "speaker"), ("PLAYER", "A")]


def test_the_reading_marks_every_default_it_chose() -> None:
    r = read_dispute("Grey Knight attacks Harold. What happens to Harold?")
    assert "Harold placed on B's C3: no slot was named" in r.reading
    assert {g.ref for g in r.guesses if g.ref} == {"A:C3", "B:C3"}
    assert r.scenario["ask"] == [{"happens_to": "B:C3"}]
    assert r.scenario["question"].startswith("Grey Knight attacks Harold")


def test_what_was_said_is_not_marked_as_chosen() -> None:
    r = read_dispute("In A's Combat Phase, A's Grey Knight on C3 attacks B's Harold on L2. Legal?")
    assert not any("Harold" in g.what or "Grey Knight" in g.what for g in r.guesses)
    assert not any("Combat" in g.what for g in r.guesses)


@pytest.mark.parametrize(
    ("text", "code", "named"),
    [
        ("Grey Knight attacks Harold with a sword.", "unread", "sword"),
        ("Grey Knight does not attack Harold.", "negation", "not"),
        ("Knight attacks Harold.", "which-card", "Bramble Knight"),
        ("My Grey Knight attacks Harold.", "whose", "I am A"),
        ("Grey Knight casts Recall at Harold.", "whose", "B's Harold"),
        ("Grey Knight attacks", "unfinished", "Grey Knight attacks"),
        ("", "empty", ""),
        ("x" * 5000, "too-long", "4000"),
    ],
)
def test_it_declines_naming_the_words_and_what_they_could_be(text: str, code: str, named: str) -> None:
    with pytest.raises(Declined) as info:
        read_dispute(text)
    problem = next(p for p in info.value.problems if p.code == code)
    assert named in problem.message + " ".join(problem.options)


def test_a_position_that_cannot_arise_is_declined_with_the_engine_s_reason() -> None:
    with pytest.raises(Declined) as info:
        read_dispute("Grey Knight is on A's C3 with 25 damage. Grey Knight attacks Harold.")
    assert any(p.code == "position" and "damage" in p.message for p in info.value.problems)


def test_judge_read_and_ask_print_the_reading_and_rule_answer_first(capsys) -> None:
    assert main(["read", "Grey Knight attacks Harold.", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scenario"]["actions"] == [{"attack": "C3", "target": "B:C3", "by": "A"}]
    assert main(["ask", "Grey", "Knight", "attacks", "Harold.", "What", "happens", "to", "Harold?"]) == 0
    printed = capsys.readouterr().out
    assert printed.index("Answer") < printed.index("Step 1") < printed.index("As read:")
    assert "Damaged:" in printed


def test_judge_ask_exits_2_naming_the_words_it_cannot_read(capsys) -> None:
    assert main(["ask", "Grey Knight bonks Harold"]) == 2
    assert "bonks" in capsys.readouterr().err
    assert main(["read", "--as", "C", "Grey Knight attacks Harold"]) == 2


@pytest.fixture()
def client(tmp_path):
    from judge.web import create_app

    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "r.sqlite3"), "INDEX_DIR": str(tmp_path / "ix")}
    )
    return app.test_client()


def test_the_api_reads_then_a_bot_resolves_and_shares(client) -> None:
    read = client.post(
        "/api/v1/read",
        json={
            "text": "It is B's turn. My Dusk Lancer attacks your Harold. What happens to Harold?",
            "as": "B",
        },
    )
    assert read.status_code == 200
    body = read.get_json()
    assert body["scenario"]["state"]["turn_player"] == "B" and body["guesses"] and body["reading"]
    ruled = client.post("/api/v1/resolve", json=body["scenario"])
    assert ruled.get_json()["answers"][0]["verdict"] == ["damaged"]
    shared = client.post("/api/v1/rulings", json=body["scenario"])
    assert shared.status_code == 201 and "/r/" in shared.get_json()["url"]


@pytest.mark.parametrize(
    ("body", "status", "path"),
    [
        ({"text": "Grey Knight bonks Harold"}, 422, "text"),
        ({"text": 7}, 400, "text"),
        ({"text": "Grey Knight attacks Harold", "as": "C"}, 400, "as"),
        ({"text": "Grey Knight attacks Harold", "extra": 1}, 400, "extra"),
    ],
)
def test_the_api_refuses_bad_input_in_the_one_error_shape(client, body, status, path) -> None:
    res = client.post("/api/v1/read", json=body)
    assert res.status_code == status
    err = res.get_json()
    assert err["ok"] is False and err["status"] == status and err["problems"][0]["path"] == path
