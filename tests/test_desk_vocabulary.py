"""The desk's custom-card form and scripts take the vocabulary from the engine: GET /desk/vocabulary.json
serves `judge.engine.vocabulary.vocabulary()` (with an ETag) and the desk's words for its references and
durations, and the form's choices are its names."""

from __future__ import annotations

import json
import re
from html import unescape

from judge.desk import card_form
from judge.engine import vocabulary
from judge.engine.data import card_records, parts


def test_the_endpoint_serves_the_engines_vocabulary_with_an_etag(client):
    response = client.get("/desk/vocabulary.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    served = response.get_json()
    words = {"reference_words": served.pop("reference_words"), "duration_words": served.pop("duration_words")}
    # the desk's own additions: the card form's table (judge/desk/card_form.py) and the grants it values
    assert served.pop("card_form") == json.loads(json.dumps(card_form.CARD_FORM))
    assert set(served.pop("grant_valued")) <= set(vocabulary()["keywords"]["all"])
    assert served == json.loads(json.dumps(vocabulary()))
    references = vocabulary()["references"]
    assert set(words["reference_words"]) == {"target", *references["single"], *references["groups"]}
    assert set(words["duration_words"]) == set(vocabulary()["durations"])
    etag = response.headers["ETag"]
    again = client.get("/desk/vocabulary.json", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""


def _select(page: str, name: str) -> list[str]:
    """The option values of the select called `name` (an option without value= stands for its text)."""
    body = re.search(rf'<select name="{name}">(.*?)</select>', page, re.S)
    assert body, name
    values = []
    for attrs, text in re.findall(r"<option([^>]*)>(.*?)</option>", body.group(1), re.S):
        value = re.search(r'value="([^"]*)"', attrs)
        values.append(value.group(1) if value else text.strip())
    return values


def test_the_form_offers_the_engines_names(client):
    page = client.get("/desk").get_data(as_text=True)
    assert _select(page, "e_trigger") == ["", *card_records.TRIGGERS]
    assert _select(page, "e_kind") == list(card_records.EFFECT_KINDS)
    assert _select(page, "e_until") == list(card_records.DURATIONS)
    assert _select(page, "type") == list(card_records.CARD_TYPES)
    assert _select(page, "e_condition") == ["", *card_records.FLAG_CONDITIONS, "line_max"]
    assert _select(page, "e_do_to") == ["target", *card_records.SINGLE_REFS, *card_records.GROUP_REFS]
    assert re.findall(r'name="kw" value="([^"]+)"', page) == list(card_records.BARE_KEYWORDS)
    assert "in the Front Line" in page and "Dual Wielding" in page   # the engine's words, not the names


def test_the_form_offers_each_effect_part_it_can_fill_and_only_those(client):
    page = client.get("/desk").get_data(as_text=True)
    offered = _select(page, "e_do")
    fillable = {"amount", "count", "ref", "stats", "keyword"}
    expected = []
    for key, part in parts.PARTS.items():
        kinds = {k.kind for k in part.FORM if k.required}
        if kinds <= fillable:
            expected += [f"{key}_{s}" for s in card_records.STAT_KEYS] if "stats" in kinds else [key]
    assert offered == expected
    before = {"damage", "heal", "capture", "return", "exile", "gain_atk", "gain_def", "draw", "discard"}
    assert before <= set(offered)   # what the form offered when it kept its own list
    assert "teleport" not in offered and "if" not in offered


def test_the_page_hands_the_vocabulary_to_its_scripts(client):
    page = client.get("/desk").get_data(as_text=True)
    raw = re.search(r'data-vocabulary="([^"]*)"', page)
    assert raw
    handed = json.loads(unescape(raw.group(1)))
    assert handed["card_form"] == json.loads(json.dumps(card_form.CARD_FORM))
    assert {k: v for k, v in handed.items()
            if (not k.endswith("_words") or k in vocabulary()) and k not in ("card_form", "grant_valued")} \
        == json.loads(json.dumps(vocabulary()))
