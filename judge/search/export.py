"""The offline search's data: what the index holds, exported as one compact JSON beside each build.

`store._build` writes `offline.json` into the build folder (its hash is in the build's file list, so
it is verified like the index). The browser (`static/js/offline-search.js`, MiniSearch) searches it
when the network is gone. It holds the analysed tokens the index holds, so the browser does not need
a stemmer of its own:

    {"schema": 1,
     "docs": [{"id": "11.5.1", "kind": "rule", "title": "11.5.1", "section": "…", "parent": "",
               "chapter": "11", "order": 1234,
               "names": "11.5.1 cost _syn_cost",      # the `names` field's tokens (boosted)
               "terms": "cost paid full …",           # the `text` field's tokens, with repeats
               "text": "the full plain text"}],
     "stems": {"costs": "cost", …},       # a surface word -> its tokens, when they differ from the word
     "vocab": {"cost": 41, …},            # surface words and their counts (did-you-mean)
     "synonyms": {"hit point": "hp", …},  # a spelling's tokens -> its glossary slug (query side)
     "syn_prefix": "_syn_", "pins": {…}, "defines": {…}, "pages": [rule ids with a page],
     "stop_words": […], "rule_pattern": "…", "kind_weight": {…}, "few": 3, "phrase_bonus": 100.0}

Everything the browser applies is read from the modules that apply it on the server (the analyzer,
the stop words, the rule-number pattern, the kind weights), so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from judge.search import analysis

SCHEMA = 1
FILE = "offline.json"


def tokens(ana: Any, text: str) -> str:
    """The tokens the index keeps for `text` (stems, rule numbers, synonym tokens), space-separated."""
    return " ".join(token.text for token in ana(text, mode="index"))


def offline_document(docs: Iterable[dict[str, Any]], lookup: dict[str, Any], groups: dict[str, list[str]],
                     ranking: dict[str, Any]) -> dict[str, Any]:
    """The JSON the offline search loads. `docs` are the index's documents (first of each id kept),
    `lookup` the build's lookup.json, `ranking` the searcher's constants (kind weights, few, phrase
    bonus) and the rule-number pattern."""
    ana = analysis.analyzer(groups)
    seen: set[str] = set()
    exported = []
    for n, doc in enumerate(docs):
        if doc["id"] in seen:
            continue
        seen.add(doc["id"])
        exported.append({
            "id": doc["id"], "kind": doc["kind"], "title": doc["title"], "section": doc.get("section") or "",
            "parent": str(doc.get("parent") or ""), "chapter": str(doc.get("chapter") or ""),
            "order": int(doc.get("order", n)),
            "names": tokens(ana, doc.get("names") or doc["title"]), "terms": tokens(ana, doc["text"]),
            "text": doc["text"],
        })
    vocab: dict[str, int] = lookup["vocab"]
    stems = {word: " ".join(found) for word in vocab
             if (found := analysis.stems(word)) != (word,)}
    synonyms = {" ".join(key): slug for key, slug in analysis.synonym_keys(groups).items()}
    return {
        "schema": SCHEMA, "docs": exported, "stems": stems, "vocab": vocab, "synonyms": synonyms,
        "syn_prefix": analysis.SYN_PREFIX, "pins": lookup["pins"], "defines": lookup["defines"],
        "pages": lookup["pages"], "stop_words": sorted(analysis.STOP_WORDS),
        **ranking,
    }
