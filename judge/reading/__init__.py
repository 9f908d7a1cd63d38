"""A dispute in words: read a judge's or a player's description of a dispute into a scenario, print
the reading back with every default marked, and decline rather than guess.

    from judge.reading import read_dispute, Declined
    r = read_dispute("Grey Knight casts Firebolt at Harold. Does Firebolt resolve?")
    r.scenario        # the contract's scenario mapping (state, actions, ask), ready for the engine
    r.reading         # the reading in the desk's words, defaults marked "(chosen: …)"
    r.guesses         # [Guess(what, why)]
    # Declined(problems): words it can't read (named, with where they start and what they could be), or two
    # readings it can't choose between (it asks which)

The reader is deterministic: a grammar (dispute.lark, lark's Earley parser, every ambiguity reported)
over tokens from the project's own tables (lexicon.py): card names from the library with one typo
forgiven, slots from the field data, verbs from the verb table, keywords from the keyword table.
"""

from __future__ import annotations

from judge.reading.compose import Declined, Guess, Problem
from judge.reading.reader import MAX_TEXT as MAX_DISPUTE
from judge.reading.reader import Reading, read_dispute

__all__ = ["MAX_DISPUTE", "Declined", "Guess", "Problem", "Reading", "read_dispute"]
