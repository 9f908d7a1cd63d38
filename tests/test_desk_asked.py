"""The answer names the action its question is about: the one the answer's `ask` record names (contract
§7 numbers queued actions from 0), numbered from 1 as the queue shows it, never read back out of the
question's words."""

from __future__ import annotations

import re
from html import unescape

import yaml

from judge.desk import words

TWO_ATTACKS = {
    "state": {"turn_player": "A", "phase": "combat", "turn": 9,
              "players": {"A": {"turns_taken": 5, "field": {"altar": "Queen Sol", "C3": "Noah",
                                                            "L2": "Grey Knight"}},
                          "B": {"turns_taken": 4, "field": {"altar": "King Umbra", "C3": "Harold",
                                                            "L2": "Dusk Lancer"}}}},
    "actions": [{"attack": "C3", "target": "B:C3"}, {"attack": "L2", "target": "B:L2"}],
}


def answer_question(client, scenario) -> str:
    page = client.post("/desk/resolve.json", json={"scenario": scenario}).get_json()
    assert page["ok"], page
    found = re.search(r'<p class="answer-question">(.*?)</p>', page["trace"], re.S)
    return unescape(re.sub(r"<[^>]+>", "", found[1]))


def test_the_question_about_the_second_action_names_the_second_action(client):
    said = words.queue_words(TWO_ATTACKS)
    assert said[0] != said[1]
    text = answer_question(client, dict(TWO_ATTACKS, ask=[{"legal": 1}]))
    assert f"action 2, “{said[1]}”" in text and said[0] not in text
    text = answer_question(client, dict(TWO_ATTACKS, ask=[{"legal": 0}]))
    assert f"action 1, “{said[0]}”" in text and said[1] not in text


def test_at_the_desk_the_preselected_question_counts_as_asked_and_elsewhere_it_is_said(client):
    assert "Nothing was asked" not in answer_question(client, dict(TWO_ATTACKS, ask=[{"legal": 1}]))
    # the desk shows the likeliest question chosen: resolved as it is, it was asked
    assert "Nothing was asked" not in answer_question(client, TWO_ATTACKS)
    # YAML without `ask:` resolved without the desk's list: the page says which question it answered
    page = client.post("/desk", data={"yaml": yaml.safe_dump(TWO_ATTACKS)}).get_data(as_text=True)
    assert "Nothing was asked; the likeliest question:" in unescape(page)


def test_other_questions_keep_the_engines_words():
    answer = {"ask": {"happens_to": "B:C3"}, "question": "What happens to Harold (B:C3)?"}
    assert words.asked_words(answer, ["anything"]) == "What happens to Harold (B:C3)?"
    by_name = {"ask": {"resolves": "Firebolt"}, "question": "Does Firebolt resolve?"}
    assert words.asked_words(by_name, ["A casts Firebolt"]) == "Does Firebolt resolve?"
