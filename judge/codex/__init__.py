"""The Codex as data: `load_codex()` reads `codex/` once into typed objects and validates it.

    from judge.codex import load_codex
    codex = load_codex()
    codex.get("11.5.1").text
    codex.entry("Shield").term        # "DEF"
    codex.short("glossary/def")       # hover text
"""

from judge.codex.book import Codex, load_codex
from judge.codex.model import (
    Chapter,
    CodexError,
    Example,
    GlossaryEntry,
    Interpretation,
    Reference,
    Rule,
)

__all__ = [
    "Chapter", "Codex", "CodexError", "Example", "GlossaryEntry", "Interpretation", "Reference", "Rule",
    "load_codex",
]
