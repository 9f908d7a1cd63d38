"""Our search beside plain full-text indexes, on the same documents and the judges' questions.

    .venv/bin/python bench/search_peers.py [--passes 5]

Every document our index holds (the Codex, cards, library rulings) goes into SQLite FTS5 (Python's
sqlite3 has it; BM25 with the names column weighted as ours is) and, when `pip install tantivy`
worked, into tantivy (English stemming). The questions are `tests/search_cases.yaml`'s queries (rule
numbers, which all three answer by lookup, left out). Each query is asked of the three engines in turn,
interleaved, so the machine's other load falls on all of them alike; each engine returns its first
page (ten hits with the text to show).

Printed: p50 and p95 per engine and our ratios to each peer (the aim: at most 2x FTS5), then the
answers: how many cases each puts in its top three, and on the "rule-id questions" (the cases whose
answers are all Codex rule ids: no glossary entry, sentence or example) how many of them each gets.
The peers are for this bench only, never a dependency of the site.
"""

from __future__ import annotations

import argparse
import gc
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from judge.search import analysis, query, searcher
from judge.search.ranking import NAMES_BOOST
from judge.search.sources import SOURCES
from judge.search.store import ensure

PAGE = 10


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def documents() -> list[dict[str, Any]]:
    seen: set[str] = set()
    docs = []
    for source in SOURCES:
        for doc in source.documents():
            if doc["id"] not in seen:
                seen.add(doc["id"])
                docs.append(doc)
    return docs


def cases() -> list[dict[str, Any]]:
    from test_search_cases import resolve  # the one reading of {says: "…"}

    found = []
    for case in yaml.safe_load((ROOT / "tests" / "search_cases.yaml").read_text()):
        if "redirect" in case:
            continue
        wanted = [resolve(e) for e in case.get("top3", [])] + ([case["first"]] if "first" in case else [])
        rule_ids = bool(case.get("top3")) and all(isinstance(e, str) and re.fullmatch(r"\d+(\.\w+)*", e)
                                                  for e in case["top3"])
        found.append({"q": case["q"], "wanted": set(wanted), "rule_ids": rule_ids})
    return found


def peer_words(q: str) -> tuple[list[str], str | None, str | None]:
    """The plain words a peer searches for (as ours reads them: filters out, stop words dropped) and
    the kind: and chapter: filters, which a peer applies as a condition."""
    prepared = query.prepare(q)
    words = [w for w in analysis.words(query._strip_operators(prepared.search))
             if w not in analysis.STOP_WORDS and w not in ("and", "or", "not")]
    kind = prepared.kinds[0] if prepared.kinds else None
    chapter = prepared.chapters[0] if prepared.chapters else None
    return words, kind, chapter


class Fts5:
    name = "FTS5"

    def __init__(self, docs: list[dict[str, Any]]) -> None:
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, kind UNINDEXED, "
                        "chapter UNINDEXED, names, text, tokenize = 'porter unicode61')")
        self.db.executemany("INSERT INTO docs VALUES (?, ?, ?, ?, ?)",
                            [(d["id"], d["kind"], str(d.get("chapter") or ""), d.get("names") or d["title"],
                              d["text"]) for d in docs])
        self.db.commit()

    def search(self, q: str) -> list[str]:
        words, kind, chapter = peer_words(q)
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', "") + '"' for w in words)
        sql = ("SELECT id, snippet(docs, 4, '<mark>', '</mark>', '…', 24) FROM docs WHERE docs MATCH ? "
               + ("AND kind = ? " if kind else "") + ("AND chapter = ? " if chapter else "")
               + f"ORDER BY bm25(docs, {NAMES_BOOST}, 1.0) LIMIT {PAGE}")
        args = [match] + ([kind] if kind else []) + ([chapter] if chapter else [])
        return [row[0] for row in self.db.execute(sql, args)]


class Tantivy:
    name = "tantivy"

    def __init__(self, docs: list[dict[str, Any]]) -> None:
        import tantivy

        self.tantivy = tantivy
        schema = tantivy.SchemaBuilder()
        schema.add_text_field("id", stored=True, tokenizer_name="raw")
        schema.add_text_field("kind", stored=True, tokenizer_name="raw")
        schema.add_text_field("chapter", stored=True, tokenizer_name="raw")
        schema.add_text_field("names", stored=False, tokenizer_name="en_stem")
        schema.add_text_field("text", stored=True, tokenizer_name="en_stem")
        self.schema = schema.build()
        self.index = tantivy.Index(self.schema)
        writer = self.index.writer()
        for d in docs:
            writer.add_document(tantivy.Document(
                id=d["id"], kind=d["kind"], chapter=str(d.get("chapter") or ""),
                names=d.get("names") or d["title"], text=d["text"]))
        writer.commit()
        self.index.reload()
        self.searcher = self.index.searcher()

    def search(self, q: str) -> list[str]:
        words, kind, chapter = peer_words(q)
        if not words:
            return []
        text = " ".join(words)
        parsed = self.index.parse_query(text, ["names", "text"], field_boosts={"names": NAMES_BOOST})
        filters = [(self.tantivy.Occur.Must, parsed)]
        for field, value in (("kind", kind), ("chapter", chapter)):
            if value:
                term = self.tantivy.Query.term_query(self.schema, field, value)
                filters.append((self.tantivy.Occur.Must, term))
        full = self.tantivy.Query.boolean_query(filters) if len(filters) > 1 else parsed
        hits = self.searcher.search(full, PAGE).hits
        out = []
        for _, address in hits:
            doc = self.searcher.doc(address)
            out.append(doc["id"][0])
            doc["text"][0][:240]   # the text shown, as the others return it
        return out


class Ours:
    name = "ours"

    def __init__(self, index_dir: Path) -> None:
        self.index_dir = index_dir

    def search(self, q: str) -> list[str]:
        return [hit.id for hit in searcher(self.index_dir).search(q, pagelen=PAGE).hits]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {Path('/proc/loadavg').read_text().split()[0]} (other processes share the cores)")
    docs = documents()
    questions = cases()
    with tempfile.TemporaryDirectory() as tmp:
        index_dir = Path(tmp) / "index"
        ensure(index_dir, force=True)
        engines: list[Any] = [Ours(index_dir), Fts5(docs)]
        try:
            engines.append(Tantivy(docs))
        except ImportError:
            print("tantivy is not installed (pip install tantivy): compared with FTS5 only")
        print(f"{len(docs)} documents, {len(questions)} queries, {args.passes} passes, engines interleaved")
        answers: dict[str, list[list[str]]] = {e.name: [] for e in engines}
        for case in questions:                                      # warm each engine, keep the answers
            for engine in engines:
                answers[engine.name].append(engine.search(case["q"]))
        gc.freeze()   # as a worker does once its data is loaded (judge.web.warm): no engine pays for the
        # collector walking the others' long-lived data
        times: dict[str, list[list[float]]] = {e.name: [[] for _ in questions] for e in engines}
        for _ in range(args.passes):
            for n, case in enumerate(questions):
                for engine in engines:
                    started = time.perf_counter()
                    engine.search(case["q"])
                    times[engine.name][n].append(time.perf_counter() - started)
        medians = {name: [statistics.median(runs) * 1000 for runs in per] for name, per in times.items()}
        stats = {name: (statistics.median(ms), percentile(ms, .95)) for name, ms in medians.items()}
        for name, (p50, p95) in stats.items():
            print(f"{name:<8} p50 {p50:6.2f} ms   p95 {p95:6.2f} ms")
        for name, ms in medians.items():
            slow = sorted(zip(ms, (c["q"] for c in questions), strict=True), reverse=True)[:4]
            print(f"  slowest for {name}: " + ", ".join(f"{q!r} {t:.1f} ms" for t, q in slow))
        ours = stats["ours"]
        for name, (p50, p95) in stats.items():
            if name != "ours":
                print(f"ours / {name:<8} p50 {ours[0] / p50:5.2f}x   p95 {ours[1] / p95:5.2f}x"
                      + ("   (aim: at most 2x)" if name == "FTS5" else ""))
        id_cases = [n for n, c in enumerate(questions) if c["rule_ids"]]
        for name, found in answers.items():
            top3 = [bool(c["wanted"] & set(found[n][:3])) for n, c in enumerate(questions)]
            print(f"{name:<8} answer in the top three: {sum(top3)}/{len(questions)} cases, "
                  f"{sum(top3[n] for n in id_cases)}/{len(id_cases)} rule-id questions")


if __name__ == "__main__":
    main()
