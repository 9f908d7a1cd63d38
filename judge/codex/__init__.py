"""The Codex as data: `load_codex()` reads `codex/` once into typed objects and validates it.

    from judge.codex import load_codex
    codex = load_codex()
    codex.get("11.5.1").text
    codex.entry("Shield").term        # "DEF"
    codex.short("glossary/def")       # hover text
    load_edition("0.4.0")             # any edition we hold, by version (codex/editions.yaml)
"""

from judge.codex.book import Codex, load_codex, load_edition
from judge.codex.editions import Edition, Editions, UnknownEdition, editions
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
    "Chapter",
    "Codex",
    "CodexError",
    "Edition",
    "Editions",
    "Example",
    "GlossaryEntry",
    "Interpretation",
    "Reference",
    "Rule",
    "UnknownEdition",
    "editions",
    "load_codex",
    "load_edition",
]
