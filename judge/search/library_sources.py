"""Two more document sources: the card library (kind "card") and the scenario library's rulings
(kind "ruling"). Registered in `sources.SOURCES`; their files are in the index's staleness hash, so
the index is rebuilt when a card or a scenario changes.

    {"id": "card/noah", "kind": "card", "title": "Noah", "names": "Noah",
     "text": "Noah: Unyielding. Soul, rank 2, Light. Keywords: unyielding.", ...}
    {"id": "ruling/11-effects/…", "kind": "ruling", ...}
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge import SCENARIOS_DIR
from judge.engine import CARDS_DIR, load_library_dir
from judge.library import LIBRARY, Library, card_slug, ruling_files

# After every Codex document in `order` (ties in score keep the Codex first).
CARD_ORDER = 1_000_000
RULING_ORDER = 2_000_000


@dataclass
class CardSource:
    """Every card of `codex/cards/*.yaml`: name, type, rank, attribute, printed text, keywords."""

    name: str = "cards"
    directory: Path = field(default_factory=lambda: CARDS_DIR)

    def files(self) -> list[Path]:
        return sorted(self.directory.rglob("*.yaml")) if self.directory.is_dir() else []

    def synonyms(self) -> dict[str, list[str]]:
        return {}

    def documents(self) -> Iterator[dict[str, Any]]:
        for n, card in enumerate(sorted(load_library_dir(self.directory), key=lambda c: c.name.lower())):
            slug = card_slug(card.name)
            kind = card.type.capitalize() + (" (Leader)" if card.leader else "")
            facts = f"{kind}, rank {card.rank}" + (
                f", {card.attribute.capitalize()}" if card.attribute else ""
            )
            keywords = [kw.label().replace("_", " ") for kw in card.keywords]
            text = " ".join(
                part
                for part in (
                    f"{card.name}:",
                    card.text,
                    f"{facts}.",
                    f"Keywords: {', '.join(keywords)}." if keywords else "",
                    " ".join(e.name for e in card.effects if e.name),
                )
                if part
            )
            yield {"id": f"card/{slug}", "kind": "card", "title": card.name,
                   "names": card.name, "text": text,
                   "section": facts + (" · reconstructed from the Codex" if card.reconstructed else ""),
                   "chapter": "cards", "order": CARD_ORDER + n}


@dataclass
class RulingSource:
    """Every scenario of the library (`scenarios/**`): its title, question and expected cites."""

    name: str = "rulings"
    directory: Path = field(default_factory=lambda: SCENARIOS_DIR)

    def files(self) -> list[Path]:
        return ruling_files(self.directory)

    def synonyms(self) -> dict[str, list[str]]:
        return {}

    def documents(self) -> Iterator[dict[str, Any]]:
        library = LIBRARY if self.directory == LIBRARY.root else Library(self.directory)
        for n, entry in enumerate(library.entries()):
            cites = entry.expected_cites
            text = entry.title.rstrip(".?") + ". " + entry.question if entry.question else entry.title
            if cites:
                text += " Cites: " + ", ".join(cites) + "."
            yield {"id": f"ruling/{entry.pid}", "kind": "ruling",
                   "title": entry.title, "names": entry.title, "text": text,
                   "section": entry.pid, "chapter": "rulings",
                   "order": RULING_ORDER + n}
