"""The board picture: both fields as slot trees from the field data, values from §2 state and §5 derived."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from judge.desk.board_svg import BoardPainter, keyword_label, zones
from judge.desk.layout import load_field, tree_layout
from judge.engine import parse_field

# A small tree of our own, so these tests say nothing about the project's field data.
MINI = {
    "soul_slots": [
        {"name": "root", "rank": 3, "parent": None},
        {"name": "left", "rank": 2, "parent": "root"},
        {"name": "left·0", "rank": 0, "parent": "left"},
        {"name": "right", "rank": 1, "parent": "root"},
    ],
    "realm_slots": [{"name": "realm1", "rank": 1}],
}
SVG = "{http://www.w3.org/2000/svg}"


def groups(svg: str) -> dict[str, ET.Element]:
    tree = ET.fromstring(str(svg))  # well-formed XML, or this raises
    return {g.get("data-ref"): g for g in tree.iter(SVG + "g") if g.get("data-ref")}


def translate(g: ET.Element) -> tuple[float, float]:
    x, y = g.get("transform").removeprefix("translate(").rstrip(")").split(",")
    return float(x), float(y)


def texts(g: ET.Element) -> str:
    return " | ".join(t.text or "" for t in g.iter(SVG + "text"))


def test_the_tree_layout_centres_each_parent_over_its_children():
    layout = tree_layout(parse_field(MINI))
    assert layout.positions["left·0"] == (0.0, 2)
    assert layout.positions["left"] == (0.0, 1)
    assert layout.positions["right"] == (1.0, 1)
    assert layout.positions["root"] == (0.5, 0)
    assert (layout.columns, layout.depth) == (2, 3)


def test_a_sits_below_with_the_altar_at_the_back_and_b_above_turned_round():
    painter = BoardPainter(parse_field(MINI))
    g = groups(painter.render({}))
    # A: the root is the lowest slot, the front (left·0) the highest of A's
    assert translate(g["A:root"])[1] > translate(g["A:left"])[1] > translate(g["A:left·0"])[1]
    # B: mirrored vertically, the root at the top
    assert translate(g["B:root"])[1] < translate(g["B:left"])[1] < translate(g["B:left·0"])[1]
    # every B slot is above every A slot
    assert max(translate(g[f"B:{s}"])[1] for s in ("root", "left", "left·0", "right")) < \
        min(translate(g[f"A:{s}"])[1] for s in ("root", "left", "left·0", "right"))
    # across the table, B's left is on A's right
    assert translate(g["A:left"])[0] < translate(g["A:right"])[0]
    assert translate(g["B:left"])[0] > translate(g["B:right"])[0]


def test_every_slot_of_the_project_field_is_drawn_for_both_players():
    field = load_field()
    g = groups(BoardPainter(field).render({}))
    expected = {f"{p}:{s.name}" for p in "AB" for s in (*field.soul_defs, *field.realm_defs)}
    assert set(g) == expected


STATE = {
    "turn_player": "B", "phase": "combat", "turn": 7,
    "players": {
        "A": {"turns_taken": 3, "proactive": ["left"], "field": {
            "root": "Queen",
            "left": {"card": "Harold", "damage": 10, "armament": "Iron Blade", "recruited": "this_turn",
                     "attacks_made": 1,
                     "ambushes": [{"card": "Hidden Snare"}, {"card": "Trap", "setter": "gone"}]},
            "right": {"card": "Grey Knight", "captured": True},
        }, "realms": {"realm1": {"card": "Temple", "damage": 5}}, "hand": ["Chrome Chains"], "deck": 12,
            "elysium": ["Spent"], "exile": []},
        "B": {"turns_taken": 4, "field": {"root": {"card": "<script>alert(1)</script>"}}, "hand": 3,
              "deck": {"cards": ["Top"], "unnamed": 4}},
    },
}
DERIVED = {
    "A:left": {"card": "Harold", "line": 1, "atk": 25, "def": 5, "hp": 20, "max_hp": 30, "damage": 10,
               "keywords": ["unyielding", {"defiance": 5}], "proactive": True, "captured": False},
    "A:root": {"card": "Queen", "line": 2, "atk": 20, "def": 10, "hp": 60, "max_hp": 60, "damage": 0,
               "keywords": [], "proactive": False, "captured": False},
}


def test_a_slot_shows_card_stats_damage_keywords_armament_ambushes_line_and_proactive():
    g = groups(BoardPainter(parse_field(MINI)).render(STATE, DERIVED))
    left = g["A:left"]
    shown = texts(left)
    # the box holds what fits at a readable size (issue 21); the hover text holds the rest
    for piece in ("Harold", "ATK 25  DEF 5", "HP 20/30", "Unyielding, Def", "line 1", "⚔", "new", "✓1"):
        assert piece in shown, piece
    for piece in ("damage 10", "Armament: Iron Blade", "attacks made: 1", "recruited this turn"):
        assert piece in left.find(SVG + "title").text, piece
    assert "proactive" in left.get("class").split()
    assert "proactive" not in g["A:root"].get("class").split()
    # two Ambushes lie face down at the slot; the judge reads them in the hover text
    assert "2" in shown
    hover = left.find(SVG + "title").text
    assert "Hidden Snare" in hover and "Trap" in hover
    assert "Keywords: Unyielding, Defiance 5" in hover  # in full where the box clips it


def test_captured_souls_are_face_down_but_named_for_the_judge():
    g = groups(BoardPainter(parse_field(MINI)).render(STATE, DERIVED))
    right = g["A:right"]
    assert "captured" in right.get("class").split()
    assert "captured | face down" in texts(right)
    assert "Grey Knight" in texts(right)


def test_realm_slots_show_their_realm_and_damage():
    g = groups(BoardPainter(parse_field(MINI)).render(STATE, DERIVED))
    assert "Temple" in texts(g["A:realm1"]) and "damage 5" in texts(g["A:realm1"])
    assert "empty" in g["B:realm1"].get("class").split()


def test_turn_player_phase_and_turn_are_drawn():
    svg = str(BoardPainter(parse_field(MINI)).render(STATE, DERIVED))
    assert "Turn 7 · B&#39;s turn · Combat Phase" in svg or "Turn 7 · B's turn · Combat Phase" in svg
    assert "Player B (turn player) · turns taken 4" in svg


def test_a_malicious_card_name_is_text_in_the_svg():
    svg = str(BoardPainter(parse_field(MINI)).render(STATE, DERIVED))
    assert "<script" not in svg
    assert "&lt;script&gt;alert(1)" in svg


def test_ascii_slot_spellings_are_drawn_on_their_slot():
    state = {"players": {"A": {"field": {"left.0": "Scout"}}}}
    g = groups(BoardPainter(parse_field(MINI)).render(state))
    assert "Scout" in texts(g["A:left·0"])


def test_zones_count_piles_given_as_counts_lists_or_both():
    by_player = {z["player"]: z for z in zones(STATE)}
    assert by_player["A"]["hand"] == {"count": 1, "names": ["Chrome Chains"]}
    assert by_player["A"]["deck"] == {"count": 12, "names": []}
    assert by_player["B"]["hand"]["count"] == 3
    assert by_player["B"]["deck"] == {"count": 5, "names": ["Top"]}
    assert by_player["B"]["turn_player"] and not by_player["A"]["turn_player"]


@pytest.mark.parametrize("keyword, label", [
    ("unyielding", "Unyielding"), ("dual_wielding", "Dual wielding"), ({"defiance": 10}, "Defiance 10"),
    ({"moral": {"atk": 5, "def": 0}}, "Moral +5 ATK"), ("defiance 5", "Defiance 5"),
])
def test_keyword_labels(keyword, label):
    assert keyword_label(keyword) == label
