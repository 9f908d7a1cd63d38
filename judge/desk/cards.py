"""Search-as-you-type over the card library (`codex/cards/*.yaml`), for the desk's slot picker."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import yaml

from judge import ROOT

CARD_DIR = ROOT / "codex" / "cards"
FIELDS = ("name", "type", "rank", "attribute", "leader", "atk", "def", "hp", "text", "keywords",
          "caster", "ambusher", "reconstructed")


class CardIndex:
    def __init__(self, root: Path = CARD_DIR) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._stamp: tuple | None = None
        self._cards: list[dict[str, Any]] = []

    def cards(self) -> list[dict[str, Any]]:
        files = sorted(self.root.rglob("*.yaml")) if self.root.is_dir() else []
        stamp = tuple((str(p), p.stat().st_mtime_ns) for p in files)
        with self._lock:
            if stamp != self._stamp:
                cards: dict[str, dict[str, Any]] = {}
                for path in files:
                    for card in _read(path):
                        cards.setdefault(str(card["name"]).lower(), card)
                self._cards = sorted(cards.values(), key=lambda c: str(c["name"]).lower())
                self._stamp = stamp
            return self._cards

    def search(self, query: str, kind: str | None = None, leader: bool | None = None,
               limit: int = 20) -> list[dict[str, Any]]:
        q = query.strip().lower()
        scored = []
        for card in self.cards():
            if kind and card.get("type") != kind:
                continue
            if leader is not None and bool(card.get("leader")) != leader:
                continue
            name = str(card["name"]).lower()
            if not q:
                score = 2
            elif name.startswith(q):
                score = 0
            elif q in name:
                score = 1
            elif q in str(card.get("text", "")).lower() or q == str(card.get("type")):
                score = 2
            else:
                continue
            scored.append((score, name, card))
        scored.sort(key=lambda t: (t[0], t[1]))
        return [card for _, _, card in scored[:limit]]


def _read(path: Path) -> list[dict[str, Any]]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return []
    if isinstance(data, dict) and isinstance(data.get("cards"), list):
        data = data["cards"]
    items = data if isinstance(data, list) else [data]
    out = []
    for item in items:
        if isinstance(item, dict) and item.get("name") and item.get("type"):
            out.append({k: item[k] for k in FIELDS if k in item})
    return out


CARDS = CardIndex()
