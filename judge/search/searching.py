"""Answering queries from a built index: ranking, did-you-mean, snippets, pages, suggestions."""

from __future__ import annotations

import json
import math
import re
import threading
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.highlight import Formatter, PinpointFragmenter, get_text
from whoosh.query import And, Or, Query, Term
from whoosh.scoring import BM25F

from judge.search import analysis
from judge.search import query as Q
from judge.search.store import current_build

PAGE_SIZE = 10
SUGGEST_LIMIT = 8
SNIPPET_CHARS = 240
# "Little": fewer hits than this and a respelled query is searched instead of the typed one.
FEW = 3
# Section titles are short and match loosely; rules and glossary entries answer questions.
KIND_WEIGHT = {"section": 0.6}
# A text that has a quoted phrase word for word beats one that only has its stems in a row.
PHRASE_BONUS = 2.0
_WORD_RE = re.compile(analysis.TOKEN_PATTERN)


class SharedIdf(BM25F):
    """BM25F, but every field weighs a word by its rarity in the text field.

    Per-field IDF would make "soul" rare in the short `names` field (few entries are named after
    it) and let the glossary entry Soul win every question that mentions a Soul."""

    def scorer(self, searcher: Any, fieldname: str, text: bytes, qf: int = 1) -> Any:
        scorer = super().scorer(searcher, fieldname, text, qf=qf)
        if fieldname != "text" and hasattr(scorer, "idf"):
            parent = searcher.get_parent()
            if parent.doc_frequency("text", text):
                scorer.idf = parent.idf("text", text)
        return scorer


class MarkFormatter(Formatter):
    """Escaped text with each match in <mark>…</mark>; fragments joined by an ellipsis."""

    between = " … "

    def _text(self, text: str) -> str:
        return escape(text, quote=False)

    def format_token(self, text: str, token: Any, replace: bool = False) -> str:
        return "<mark>" + escape(get_text(text, token, replace), quote=False) + "</mark>"


@dataclass(frozen=True)
class Hit:
    id: str
    kind: str
    url: str
    title: str
    section: str
    snippet: str
    text: str


@dataclass(frozen=True)
class SearchResult:
    query: str
    redirect: str | None = None          # the rule id to go straight to
    suggestion: str | None = None        # a respelling of the query
    searched: str = ""                   # what the hits answer (the query, or the suggestion)
    total: int = 0
    page: int = 1
    pages: int = 0
    hits: tuple[Hit, ...] = ()
    notices: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    chapters: tuple[str, ...] = ()


@dataclass
class Engine:
    """One opened build: the Whoosh index and the lookups beside it."""

    path: Path
    lookup: dict[str, Any] = field(repr=False)

    def __post_init__(self) -> None:
        self.ix = whoosh_index.open_dir(str(self.path))
        self.searcher = self.ix.searcher(weighting=SharedIdf())
        self.parser = Q.parser(self.ix.schema)
        self.vocab: dict[str, int] = self.lookup["vocab"]
        self.stems = set(self.lookup["stems"])
        self.pins: dict[str, str] = self.lookup["pins"]
        self.redirects: dict[str, str] = self.lookup["redirects"]
        self.suggestions: list[dict[str, Any]] = self.lookup["suggest"]
        self.lock = threading.Lock()

    @classmethod
    def open(cls, build: Path) -> Engine:
        return cls(build, json.loads((build / "lookup.json").read_text()))

    # -- search ---------------------------------------------------------------------------------

    def search(self, raw: object, page: int = 1, pagelen: int = PAGE_SIZE) -> SearchResult:
        """Search; raises `query.QueryError` only for an empty or over-long query."""
        prepared = Q.prepare(raw)
        if prepared.rule_id is not None and prepared.rule_id in self.redirects:
            return SearchResult(prepared.text, redirect=prepared.rule_id, searched=prepared.text)
        notices = list(prepared.notices)
        if prepared.rule_id is not None:
            notices.append(f"There is no rule {prepared.rule_id} in the Codex we have; "
                           "showing texts that mention it.")
        suggestion, fixes, respelled = self._respell(prepared)
        ranked = self._ranked(prepared, prepared.search)
        searched = prepared.text
        if suggestion and (len(ranked) < FEW or respelled):
            ranked = self._ranked(prepared, _replace_words(prepared.search, fixes))
            searched = suggestion
        if not ranked and not notices:
            notices.append("Nothing matched. Try fewer words, a glossary term (Shield, Cascade) "
                           "or a rule number (11.5.1).")
        pages = max(1, math.ceil(len(ranked) / pagelen)) if ranked else 0
        page = min(max(1, page), max(pages, 1))
        window = ranked[(page - 1) * pagelen: page * pagelen]
        with self.lock:
            hits = tuple(self._hit(hit) for hit in window)
        return SearchResult(prepared.text, None, suggestion, searched, len(ranked), page, pages, hits,
                            tuple(notices), prepared.kinds, prepared.chapters)

    def _respell(self, prepared: Q.Prepared) -> tuple[str | None, dict[str, str], bool]:
        """A respelled query when some words are unknown, and whether most of the query is unknown."""
        fixes: dict[str, str] = {}
        content = [w for w in prepared.words if w not in analysis.STOP_WORDS]
        for word in content:
            if word in self.vocab:
                continue
            if not Q.is_known(word, self.vocab, self.stems):
                better = Q.correct(word, self.vocab)
            else:
                # Its stem is indexed ("reinforcment" -> "reinforc"), so it finds its texts; still
                # offer the spelling, unless the word is only another form ("recruits", "spots").
                better = Q.correct(word, self.vocab, limit=1)
                if better and (better.startswith(word) or word.startswith(better)):
                    better = None
            if better:
                fixes[word] = better
        if not fixes:
            return None, fixes, False
        respelled = _replace_words(prepared.text, fixes)
        return respelled, fixes, len(fixes) * 3 >= len(content)

    def _ranked(self, prepared: Q.Prepared, search: str) -> list[Any]:
        q = Q.parse(search, self.parser)
        if q is None:
            return []
        filters = self._filters(prepared)
        phrases = [_flat(p) for p in re.findall(r'"([^"]+)"', search)]
        clauses = [frozenset((f, _text(t)) for f, t in clause.iter_all_terms())
                   for clause in (q.subqueries if isinstance(q, Or) else [q])]
        with self.lock:
            results = self.searcher.search(q, limit=None, filter=filters, terms=True)
            results.fragmenter = PinpointFragmenter(maxchars=SNIPPET_CHARS, surround=80, autotrim=True)
            results.formatter = MarkFormatter()
            scored = []
            for hit in results:
                matched = {(f, _text(t)) for f, t in hit.matched_terms()}
                share = sum(1 for clause in clauses if clause & matched) / len(clauses)
                weight = share * share * KIND_WEIGHT.get(hit["kind"], 1.0)
                if phrases and any(p in _flat(hit["text"]) for p in phrases):
                    weight *= PHRASE_BONUS
                scored.append((hit.score * weight, hit))
        scored.sort(key=lambda pair: (-pair[0], pair[1]["order"]))
        hits = self._pin(prepared, search, [hit for _, hit in scored])
        if "example" not in prepared.kinds:
            shown = {hit["id"] for hit in hits}
            hits = [hit for hit in hits if not hit.get("parent") or hit["parent"] not in shown]
        return hits

    def _filters(self, prepared: Q.Prepared) -> Query | None:
        parts: list[Query] = []
        if prepared.kinds:
            parts.append(Or([Term("kind", kind) for kind in prepared.kinds]))
        if prepared.chapters:
            parts.append(Or([Term("chapter", chapter) for chapter in prepared.chapters]))
        return And(parts) if parts else None

    def _pin(self, prepared: Q.Prepared, search: str, hits: list[Any]) -> list[Any]:
        """An exact term or alias puts its glossary entry first (when it is among the hits)."""
        key = " ".join(analysis.stems(Q._strip_operators(search)))
        pinned = self.pins.get(key)
        if not pinned:
            return hits
        first = [hit for hit in hits if hit["id"] == pinned]
        return first + [hit for hit in hits if hit["id"] != pinned]

    def _hit(self, hit: Any) -> Hit:
        text = hit["text"]
        snippet = hit.highlights("text", top=2) or hit.highlights("title", top=1)
        if not snippet:
            snippet = escape(text[:SNIPPET_CHARS] + ("…" if len(text) > SNIPPET_CHARS else ""), quote=False)
        return Hit(hit["id"], hit["kind"], hit["url"], hit["title"], hit.get("section", ""), snippet, text)

    # -- search-as-you-type ---------------------------------------------------------------------

    def suggest(self, raw: object, limit: int = SUGGEST_LIMIT) -> list[dict[str, str]]:
        """Up to `limit` entries whose id, term or alias starts with what was typed, then the first
        hits of a search. Never raises."""
        text = Q.clean(raw)[: Q.MAX_QUERY].lower()
        if not text:
            return []
        found: list[dict[str, str]] = []
        seen: set[str] = set()

        def add(entry: dict[str, Any]) -> None:
            if entry["id"] not in seen and len(found) < limit:
                seen.add(entry["id"])
                found.append({k: entry[k] for k in ("id", "title", "url", "kind")})

        number = text.lstrip("§r ").strip()
        if number[:1].isdigit():
            for entry in self.suggestions:
                if entry["kind"] != "glossary" and entry["id"].startswith(number):
                    add(entry)
        for entry in self.suggestions:
            if any(name.lower().startswith(text) for name in entry["names"]):
                add(entry)
        if len(found) < limit:
            try:
                result = self.search(text, pagelen=limit)
            except Q.QueryError:
                return found
            for hit in result.hits:
                add({"id": hit.id, "title": hit.title, "url": hit.url, "kind": hit.kind})
        return found


def _flat(text: str) -> str:
    return " ".join(text.lower().split())


def _text(term: str | bytes) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else term


def _replace_words(text: str, fixes: dict[str, str]) -> str:
    """`text` with each word found in `fixes` (by its lower-case form) respelled."""
    return _WORD_RE.sub(lambda m: fixes.get(m.group(0).lower(), m.group(0)), text)


_engines: dict[str, Engine] = {}
_engines_lock = threading.Lock()


def engine(index_dir: str | Path) -> Engine:
    """The engine for the live build under `index_dir`, reopened when a new build is published."""
    build = current_build(index_dir)
    if build is None:
        raise FileNotFoundError(f"no search index in {index_dir}; run `judge index`")
    key = str(build)
    with _engines_lock:
        found = _engines.get(str(index_dir))
        if found is None or str(found.path) != key:
            found = Engine.open(build)
            _engines[str(index_dir)] = found
    return found
