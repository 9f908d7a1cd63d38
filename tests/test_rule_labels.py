"""Rule ids shown as a reader finds them in the Codex (issue 11, part 3): the Codex prints 13.6.7's
sub-items as bullets and 10.4.5's as "1./2.", so "13.6.7c" can't be found in it; chapter 11's numbers
that are ours are marked; an interpretation reads as words. The ids stay the keys of links and JSON."""

from __future__ import annotations

import pytest

from judge.codex import load_codex
from judge.commands.resolve import shown


@pytest.mark.parametrize("rule_id, label", [
    ("13.6.7c", "13.6.7, 3rd point"),          # the third bullet of 13.6.7
    ("13.6.7e", "13.6.7, 5th point"),
    ("10.4.5b", "10.4.5, point 2"),            # printed "2."
    ("10.3.4a", "10.3.4, point 1"),
    ("11.6.1c", "11.6.1c"),                    # the source prints the letters a–d
    ("11.3.1", "11.3.1 (inferred)"),           # our numbering of chapter 11
    ("11.6.1", "11.6.1"),                      # confirmed by a cross-reference
    ("13.5.2", "13.5.2"),
    ("glossary/moral", "Moral"),
    ("interpretation/capture-timing", "our reading: capture timing"),
])
def test_label(rule_id, label):
    assert load_codex().label(rule_id) == label


def test_every_item_of_a_bulleted_or_numbered_rule_gets_a_findable_label():
    codex = load_codex()
    items = [r for r in codex.rules.values() if r.kind == "item"]
    assert len(items) >= 10
    for item in items:
        label = codex.label(item.id)
        if item.item_marker == "letter":
            assert label.startswith(item.id)
        else:
            assert item.id not in label and label.startswith(f"{item.parent}, "), (item.id, label)


def test_the_markers_follow_the_source_text():
    codex = load_codex()
    assert codex.get("13.6.7").item_marker == "bullet" and codex.get("10.4.5").item_marker == "number"
    assert codex.get("11.6.1").item_marker == "letter"


def test_the_readable_trace_and_the_desk_show_labels_and_link_by_id(client):
    assert shown(["13.6.7e", "glossary/atk", "interpretation/realm-counterblow"]) == \
        "13.6.7, 5th point; glossary/atk; our reading: realm counterblow"
    html = client.get("/rules/13.6.7").get_data(as_text=True)
    assert "13.6.7" in html
    with client.application.test_request_context():
        link = client.application.jinja_env.filters["rule_link"]("13.6.7c")
    assert "13.6.7, 3rd point" in link and "/rules/13.6.7c" in link
