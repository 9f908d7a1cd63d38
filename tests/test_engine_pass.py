"""Legality of pass and end_phase (glossary Priority, Response window, Turn player)."""

from __future__ import annotations

from engine_helpers import check, cited

from judge.engine.rules.moment import Window


def test_glossary_priority_pass_only_in_a_response_window_while_holding_priority():
    assert "glossary/response-window" in cited(check({"pass": True}))
    assert check({"pass": True, "by": "B"}, Window(response=True, priority="B")) == []
    assert "glossary/priority" in cited(check({"pass": True, "by": "A"}, Window(response=True, priority="B")))


def test_glossary_turn_player_only_the_turn_player_ends_a_phase():
    assert check({"end_phase": True}) == []
    assert "glossary/turn-player" in cited(check({"end_phase": True, "by": "B"}))


def test_glossary_response_window_no_phase_end_while_a_window_is_open():
    assert "glossary/response-window" in cited(check({"end_phase": True},
                                                     Window(response=True, priority="A")))
