"""Answering queries from a built index: ranking, did-you-mean, snippets, pages, suggestions."""

from __future__ import annotations

import json
import math
import os
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.query import And, Or, Query, Term

from judge.search import analysis, scoring, snippets
from judge.search import query as Q
from judge.search.ranking import FEW, KIND_WEIGHT, PHRASE_BONUS
from judge.search.scoring import SharedIdf
from judge.search.store import current_build

PAGE_SIZE = 10
SUGGEST_LIMIT = 8
SNIPPET_CHARS = 240
_WORD_RE = re.compile(analysis.TOKEN_PATTERN)
PARSED_KEPT = 1024   # parsed queries (and respellings) each searcher keeps


@dataclass(frozen=True)
class Parsed:
    """What a search string means, worked out once: the query, its clauses (the terms each word or
    group adds), the quoted phrases, and the glossary entry an exact term pins first."""

    query: Query
    clauses: tuple[frozenset[int] | None, ...]   # the documents with a term of each (None: every one)
    phrases: tuple[str, ...]
    pinned: str | None


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
    """One opened build: the Whoosh index, its precomputed scores and the lookups beside it."""

    path: Path
    lookup: dict[str, Any] = field(repr=False)
    scores: scoring.Scores = field(repr=False)
    stamp: object = None   # the `current` link this build was opened under (see `searcher`)

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
        # The re-weighting that depends only on the document, and who has each term, for the share of
        # a query's clauses each document matches.
        self.kind_weight = [KIND_WEIGHT.get(d["kind"], 1.0) for d in self.docs]
        having: dict[str, set[int]] = {}
        for n, terms in enumerate(self.doc_terms):
            for term in terms:
                having.setdefault(term, set()).add(n)
        self.having = {term: frozenset(docs) for term, docs in having.items()}
        self.parsed = lru_cache(maxsize=PARSED_KEPT)(self._parse)
        self.better = lru_cache(maxsize=PARSED_KEPT)(self._better)

    @classmethod
    def open(cls, build: Path) -> Searcher:
        return cls(build, json.loads((build / "lookup.json").read_text()),
                   scoring.Scores(json.loads((build / scoring.FILE).read_text())))

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
            better = None if word in self.vocab else self.better(word)
            if better:
                fixes[word] = better
        if not fixes:
            return None, fixes, False
        respelled = _replace_words(prepared.text, fixes)
        return respelled, fixes, len(fixes) * 3 >= len(content)

    def _better(self, word: str) -> str | None:
        """The spelling to offer for a word the index does not have as typed (None: none)."""
        if not Q.is_known(word, self.vocab, self.stems):
            return Q.correct(word, self.vocab)
        # Its stem is indexed ("reinforcment" -> "reinforc"), so it finds its texts; still offer the
        # spelling, unless the word is only another form ("recruits", "spots").
        better = Q.correct(word, self.vocab, limit=1)
        return None if better and (better.startswith(word) or word.startswith(better)) else better

    def _parse(self, search: str) -> Parsed | None:
        q = Q.parse(search, self.boolean_parser if Q.is_boolean(search) else self.parser)
        if q is None:
            return None
        clauses = [frozenset(t for _, t in Q.positive_terms(clause))
                   for clause in (q.subqueries if isinstance(q, Or) else [q])]
        having = tuple(frozenset().union(*(self.having.get(t, ()) for t in clause))
                       for clause in clauses if clause)
        return Parsed(q, having or (None,),
                      tuple(_flat(p) for p in re.findall(r'"([^"]+)"', search)),
                      self.pins.get(" ".join(analysis.stems(Q._strip_operators(search)))))

    def _ranked(self, prepared: Q.Prepared, search: str) -> tuple[Query | None, list[int]]:
        """The query and the matching document numbers, best first.

        The BM25F score (summed from the build's precomputed scores; Whoosh's own matchers for a
        phrase or NOT) is weighted by the share of the query's clauses a document matches (squared,
        so a question's main words count together), by kind, and by a literal phrase."""
        parsed = self.parsed(search)
        if parsed is None:
            return None, []
        q, clauses, phrases = parsed.query, parsed.clauses, parsed.phrases
        found = self.scores.evaluate(q)
        if found is None:
            with self.lock:
                found = dict(self.searcher.search(q, limit=None, filter=self._filters(prepared)).items())
        elif prepared.kinds or prepared.chapters:
            found = {n: score for n, score in found.items() if self._allowed(n, prepared)}
        # How many clauses each found document matches (a clause with no term matches every one).
        matched: Counter[int] = Counter()
        for having in clauses:
            matched.update(found.keys() if having is None else found.keys() & having)
        docs, kind_weight, flat = self.docs, self.kind_weight, self.flat
        scored = []
        for docnum, score in found.items():
            share = matched[docnum] / len(clauses)
            weight = share * share * kind_weight[docnum]
            if phrases and any(p in flat[docnum] for p in phrases):
                weight *= PHRASE_BONUS
            scored.append((-score * weight, docs[docnum]["order"], docnum))
        scored.sort()
        ranked = self._pin(parsed.pinned, [docnum for _, _, docnum in scored])
        if "example" not in prepared.kinds:
            shown = {self.docs[n]["id"] for n in ranked}
            ranked = [n for n in ranked if self.docs[n].get("parent", "") not in shown]
        return q, ranked

    def _filters(self, prepared: Q.Prepared) -> Query | None:
        parts: list[Query] = []
        if prepared.kinds:
            parts.append(Or([Term("kind", kind) for kind in prepared.kinds]))
        if prepared.chapters:
            parts.append(Or([Term("chapter", chapter) for chapter in prepared.chapters]))
        return And(parts) if parts else None

    def _allowed(self, docnum: int, prepared: Q.Prepared) -> bool:
        """Whether a document passes the query's kind: and chapter: filters (as `_filters` does)."""
        doc = self.docs[docnum]
        return ((not prepared.kinds or doc["kind"] in prepared.kinds)
                and (not prepared.chapters or doc["chapter"] in prepared.chapters))

    def _pin(self, pinned: str | None, ranked: list[int]) -> list[int]:
        """An exact term or alias puts its glossary entry first, then the rules that define it,
        then the rules that use it, then the rest."""
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
    """The searcher for the live build under `index_dir`, reopened when a new build is published.

    A build is published by replacing the `current` link (a new link, so a new inode): one `lstat`
    of it tells whether the searcher at hand is still the live one, without resolving the link and
    reading the build's files on every query."""
    key = str(index_dir)
    stamp = _link_stamp(Path(index_dir) / "current")
    found = _searchers.get(key)
    if found is not None and stamp is not None and found.stamp == stamp:
        return found
    build = current_build(index_dir)
    if build is None:
        raise FileNotFoundError(f"no search index in {index_dir}; run `judge index`")
    with _searchers_lock:
        found = _searchers.get(key)
        if found is None or found.path != build:
            # A newer build was published. The old searcher is dropped, not closed: a request that
            # already holds it finishes on the old files (kept on disk, see store.KEEP_BUILDS).
            found = Searcher.open(build)
            _searchers[key] = found
        found.stamp = stamp
    return found


def _link_stamp(link: Path) -> tuple[int, int, int] | None:
    try:
        info = os.lstat(link)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_mtime_ns)
