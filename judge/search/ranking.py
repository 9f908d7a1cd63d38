"""The ranking's constants, read by the server's searcher (`searching`) and exported for the offline
search (`export`), so both rank alike."""

from __future__ import annotations

# "Little": fewer hits than this and a respelled query is searched instead of the typed one.
FEW = 3
# Section titles are short and match loosely; rules and glossary entries answer questions.
# Cards and library rulings answer a name or a story; the Codex answers the question first.
KIND_WEIGHT = {"section": 0.6, "card": 0.5, "ruling": 0.15}
# A text that has a quoted phrase word for word comes before one that only has its stems in a row
# ("can't be answered" is, to the index, just "answer": the rest are stop words).
PHRASE_BONUS = 100.0
# The `names` field's weight against the text's (ids, terms, aliases, titles).
NAMES_BOOST = 5.0
