"""Card text in words: read a card's printed text into its `keywords` and `effects` (contract §3), and
write them back in the Codex's phrasing.

    reading = read_card_text("Ambusher: Any Dark Soul. When the Ambusher is attacked: deal 15 damage "
                             "to the attacker.", "ambush")
    reading.ok                   # True
    reading.effects              # [{"kind": "timing", "fast": True, "trigger": "attacked", "do": [...]}]
    reading.ambusher             # {"attribute": "dark"}
    reading.problems             # () or TextProblem records (code, facts, words)
    write_card_text(reading.keywords, reading.effects, "ambush", ambusher=reading.ambusher)

The grammar is grammar.py (lark), its vocabulary phrases.py (keyed by the engine's tables); a phrase it
can't read is a problem naming the phrase, where it starts and the nearest phrasing it knows.
"""

from __future__ import annotations

from judge.engine.driver.card_text.check import TextCheck, check_card_text
from judge.engine.driver.card_text.read import MAX_TEXT as MAX_CARD_TEXT
from judge.engine.driver.card_text.read import Reading, cards_with_text_read, read_card_text
from judge.engine.driver.card_text.write import write_card_text

__all__ = ["MAX_CARD_TEXT", "Reading", "TextCheck", "cards_with_text_read", "check_card_text",
           "read_card_text",
           "write_card_text"]
