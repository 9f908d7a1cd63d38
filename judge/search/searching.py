"""Answering queries from a built index: ranking, did-you-mean, snippets, pages, suggestions."""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.query import And, Or, Query, Term
from whoosh.scoring import BM25F

from judge.search import analysis, snippets
from judge.search import query as Q
from judge.search.ranking import FEW, KIND_WEIGHT, PHRASE_BONUS
from judge.search.store import current_build

PAGE_SIZE = 10
SUGGEST_LIMIT = 8
SNIPPET_CHARS = 240
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


@dataclass(frozen=True)
class Hit:
    id: str
    kind: str
    title: str
    section: str
    snippet: str
    text: str
    parent: str = ""  # an example's rule


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
class Searcher:
    """One opened build: the Whoosh index and the lookups beside it."""

    path: Path
    lookup: dict[str, Any] = field(repr=False)

    def __post_init__(self) -> None:
        self.ix = whoosh_index.open_dir(str(self.path))
        self.searcher = self.ix.searcher(weighting=SharedIdf())
        self.parser = Q.parser(self.ix.schema)
        self.boolean_parser = Q.parser(self.ix.schema, boolean=True)
        self.vocab: dict[str, int] = self.lookup["vocab"]
        self.stems = set(self.lookup["stems"])
        self.pins: dict[str, str] = self.lookup["pins"]
        self.defines: dict[str, list[str]] = self.lookup["defines"]
        self.pages: frozenset[str] = frozenset(self.lookup["pages"])
        self.suggestions: list[dict[str, Any]] = self.lookup["suggest"]
        self.lock = threading.Lock()
        # The corpus is small: keep every document's stored fields and its indexed terms in memory,
        # so ranking never reads the index's stored fields.
        self.docs: list[dict[str, Any]] = [self.searcher.stored_fields(n)
                                           for n in range(self.searcher.doc_count_all())]
        self.doc_terms = [frozenset(self.lookup["terms"].get(d["id"], ())) for d in self.docs]
        self.flat = [_flat(d["text"]) for d in self.docs]
        self.kinds = {d["kind"] for d in self.docs}
        self.spans: dict[str, dict[str, list[list[int]]]] = self.lookup["spans"]

    @classmethod
    def open(cls, build: Path) -> Searcher:
        return cls(build, json.loads((build / "lookup.json").read_text()))

    # -- search ---------------------------------------------------------------------------------

    def search(self, raw: object, page: int = 1, pagelen: int = PAGE_SIZE) -> SearchResult:
        """Search; raises `query.QueryError` only for an empty or over-long query."""
        prepared = Q.prepare(raw)
        if prepared.rule_id is not None and prepared.rule_id in self.pages:
            return SearchResult(prepared.text, redirect=prepared.rule_id, searched=prepared.text)
        notices = list(prepared.notices)
        unknown = [kind for kind in prepared.kinds if kind not in self.kinds]
        if unknown:
            notices.append(f"Unknown kind {unknown[0]!r}; kinds are {', '.join(sorted(self.kinds))}.")
        if prepared.rule_id is not None:
            notices.append(f"There is no rule {prepared.rule_id} in the Codex we have; "
                           "showing texts that mention it.")
        suggestion, fixes, respelled = self._respell(prepared)
        q, ranked = self._ranked(prepared, prepared.search)
        searched = prepared.text
        if suggestion and (len(ranked) < FEW or respelled):
            q, ranked = self._ranked(prepared, _replace_words(prepared.search, fixes))
            searched = suggestion
        if not ranked and not notices:
            notices.append("Nothing matched. Try fewer words, a glossary term (Shield, Cascade) "
                           "or a rule number (11.5.1).")
        pages = max(1, math.ceil(len(ranked) / pagelen)) if ranked else 0
        page = min(max(1, page), max(pages, 1))
        window = ranked[(page - 1) * pagelen: page * pagelen]
        hits = self._hits(q, window) if window else ()
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

    def _ranked(self, prepared: Q.Prepared, search: str) -> tuple[Query | None, list[int]]:
        """The query and the matching document numbers, best first.

        Whoosh's BM25F score is weighted by the share of the query's clauses a document matches
        (squared, so a question's main words count together), by kind, and by a literal phrase."""
        q = Q.parse(search, self.boolean_parser if Q.is_boolean(search) else self.parser)
        if q is None:
            return None, []
        phrases = [_flat(p) for p in re.findall(r'"([^"]+)"', search)]
        with self.lock:
            found = self.searcher.search(q, limit=None, filter=self._filters(prepared)).items()
        scored = self._weighed(found, _clauses(q), phrases)
        scored.sort()
        ranked = self._pin(search, [docnum for _, _, docnum in scored])
        if "example" not in prepared.kinds:
            shown = {self.docs[n]["id"] for n in ranked}
            ranked = [n for n in ranked if self.docs[n].get("parent", "") not in shown]
        return q, ranked

    def _weighed(self, found: Iterable[tuple[int, float]], clauses: list[frozenset[str]],
                 phrases: list[str]) -> list[tuple[float, Any, int]]:
        """(sort key, order, docnum) per match: the score weighted by the share of clauses matched
        (squared), by kind, and by a literal phrase."""
        scored = []
        for docnum, score in found:
            terms = self.doc_terms[docnum]
            share = sum(1 for clause in clauses if clause & terms or not clause) / len(clauses)
            weight = share * share * KIND_WEIGHT.get(self.docs[docnum]["kind"], 1.0)
            if phrases and any(p in self.flat[docnum] for p in phrases):
                weight *= PHRASE_BONUS
            scored.append((-score * weight, self.docs[docnum]["order"], docnum))
        return scored

    def _filters(self, prepared: Q.Prepared) -> Query | None:
        parts: list[Query] = []
        if prepared.kinds:
            parts.append(Or([Term("kind", kind) for kind in prepared.kinds]))
        if prepared.chapters:
            parts.append(Or([Term("chapter", chapter) for chapter in prepared.chapters]))
        return And(parts) if parts else None

    def _pin(self, search: str, ranked: list[int]) -> list[int]:
        """An exact term or alias puts its glossary entry first, then the rules that define it,
        then the rules that use it, then the rest."""
        pinned = self.pins.get(" ".join(analysis.stems(Q._strip_operators(search))))
        if not pinned:
            return ranked
        defines = self.defines.get(pinned, [])

        def place(n: int) -> tuple[int, int]:
            doc = self.docs[n]
            if doc["id"] == pinned:
                return (0, 0)
            if doc["id"] in defines:              # the entry's own "Rules" list
                return (1, defines.index(doc["id"]))
            return (2 if doc["kind"] == "rule" else 3, 0)   # then rules that use it, then the rest

        return sorted(ranked, key=place)   # stable: score order within each group

    def _hits(self, q: Query | None, window: list[int]) -> tuple[Hit, ...]:
        """Results for one page, with snippets marking the query's words (and their synonyms)."""
        terms = {t for f, t in Q.positive_terms(q) if f == "text"} if q is not None else set()
        hits = []
        for docnum in window:
            doc = self.docs[docnum]
            spans = self.spans.get(doc["id"], {})
            hits.append(Hit(doc["id"], doc["kind"], doc["title"], doc.get("section", ""),
                            snippets.snippet(doc["text"], spans, terms, width=SNIPPET_CHARS), doc["text"],
                            doc.get("parent", "")))
        return tuple(hits)

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
                found.append({k: entry.get(k, "") for k in ("id", "title", "kind", "parent")})

        for entry in self._starting_with(text):
            add(entry)
        if len(found) < limit:
            try:
                result = self.search(text, pagelen=limit)
            except Q.QueryError:
                return found
            for hit in result.hits:
                add({"id": hit.id, "title": hit.title, "kind": hit.kind, "parent": hit.parent})
        return found

    def _starting_with(self, text: str) -> list[dict[str, Any]]:
        """The entries whose number (when `text` is one), then term or title, starts with `text`."""
        number = text.lstrip("§r ").strip()
        found = []
        if number[:1].isdigit():
            found = [e for e in self.suggestions if e["kind"] != "glossary" and e["id"].startswith(number)]
        named = [e for e in self.suggestions if any(n.lower().startswith(text) for n in e["names"])]
        return found + sorted(named, key=lambda e: e["kind"] != "glossary")   # terms before titles


def _flat(text: str) -> str:
    return " ".join(text.lower().split())


def _text(term: str | bytes) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else term


def _replace_words(text: str, fixes: dict[str, str]) -> str:
    """`text` with each word found in `fixes` (by its lower-case form) respelled."""
    return _WORD_RE.sub(lambda m: fixes.get(m.group(0).lower(), m.group(0)), text)


_searchers: dict[str, Searcher] = {}
_searchers_lock = threading.Lock()


def searcher(index_dir: str | Path) -> Searcher:
    """The searcher for the live build under `index_dir`, reopened when a new build is published."""
    build = current_build(index_dir)
    if build is None:
        raise FileNotFoundError(f"no search index in {index_dir}; run `judge index`")
    key = str(build)
    with _searchers_lock:
        found = _searchers.get(str(index_dir))
        if found is None or str(found.path) != key:
            # A newer build was published. The old searcher is dropped, not closed: a request that
            # already holds it finishes on the old files (kept on disk, see store.KEEP_BUILDS).
            found = Searcher.open(build)
            _searchers[str(index_dir)] = found
    return found


def _clauses(q: Query) -> list[frozenset[str]]:
    """The positive terms of each clause of a query (one clause where it is not an Or)."""
    clauses = [frozenset(t for _, t in Q.positive_terms(clause))
               for clause in (q.subqueries if isinstance(q, Or) else [q])]
    return [clause for clause in clauses if clause] or [frozenset()]
