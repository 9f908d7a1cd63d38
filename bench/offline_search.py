"""The offline search beside the server's on the judges' query set (tests/search_cases.yaml).

Each case is run through the server's search (judge.search) and through the offline search
(static/js/offline-search.js with the vendored MiniSearch, over the export the index build wrote),
and judged by the same criteria as tests/test_search_cases.py: the rule page a number goes to, the
very first result, one of the wanted ids in the top three, the did-you-mean. Prints both pass rates,
per kind of case, the cases where they differ, and the offline search's time per query (median, p95).

    .venv/bin/python bench/offline_search.py [--engine node|chromium]

The offline search runs in node when it is installed (the default), else in Chromium
(/usr/bin/chromium through Playwright, as the browser tests run it).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from judge.codex import load_codex
from judge.search import (
    ensure_index,
    export,
    search,
)

CASES = yaml.safe_load((ROOT / "tests" / "search_cases.yaml").read_text())
JS = ROOT / "static" / "js"
SCRIPTS = [JS / "vendor" / "minisearch-7.2.0.js", JS / "offline-search.js"]

RUNNER = """
const fs = require("fs");
const MiniSearch = require(process.argv[2]);
const { create } = require(process.argv[3]);
const data = JSON.parse(fs.readFileSync(process.argv[4], "utf8"));
const queries = JSON.parse(fs.readFileSync(process.argv[5], "utf8"));
const started = process.hrtime.bigint();
const engine = create(data, MiniSearch);
const built = Number(process.hrtime.bigint() - started) / 1e6;
const out = queries.map((q) => {
  const t = process.hrtime.bigint();
  const r = engine.search(q, 10);
  return { q, redirect: r.redirect, suggestion: r.suggestion || null, top: r.hits.map((h) => h.id),
           ms: Number(process.hrtime.bigint() - t) / 1e6 };
});
console.log(JSON.stringify({ built, results: out }));
"""


def expected_id(expected: str | dict) -> str:
    if isinstance(expected, str):
        return expected
    found = [r.id for r in load_codex().rules.values() if expected["says"] in r.text]
    return found[0]


def verdict(case: dict, redirect: str | None, top: list[str], suggestion: str | None) -> bool:
    if "redirect" in case:
        return redirect == case["redirect"]
    ok = True
    if "first" in case:
        ok &= top[:1] == [case["first"]]
    if "top3" in case:
        ok &= bool({expected_id(e) for e in case["top3"]} & set(top[:3]))
    if "suggestion" in case:
        ok &= suggestion == case["suggestion"]
    return ok


def kind_of(case: dict) -> str:
    if "redirect" in case:
        return "rule number"
    if "suggestion" in case:
        return "typo"
    if "first" in case:
        return "term or alias"
    return "words and questions"


def run_node(data: Path, queries: Path) -> dict:
    script = Path(tempfile.mkdtemp()) / "run.cjs"
    script.write_text(RUNNER)
    out = subprocess.run(["node", str(script), str(SCRIPTS[0]), str(SCRIPTS[1]), str(data), str(queries)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def run_chromium(data: Path, queries: Path) -> dict:
    from live import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_content("<!doctype html><title>bench</title>")
        for script in SCRIPTS:
            page.add_script_tag(content=script.read_text())
        found = page.evaluate("""([data, queries]) => {
            const t0 = performance.now();
            const engine = CodexOfflineSearch.create(data, MiniSearch);
            const built = performance.now() - t0;
            return { built, results: queries.map((q) => {
              const t = performance.now();
              const r = engine.search(q, 10);
              return { q, redirect: r.redirect, suggestion: r.suggestion || null,
                       top: r.hits.map((h) => h.id), ms: performance.now() - t }; }) };
        }""", [json.loads(data.read_text()), json.loads(queries.read_text())])
        browser.close()
        return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=("node", "chromium"),
                        default="node" if shutil.which("node") else "chromium")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="offline-search-"))
    build = ensure_index(work / "index").path
    data = build / export.FILE
    queries = work / "queries.json"
    queries.write_text(json.dumps([case["q"] for case in CASES]))
    offline = (run_node if args.engine == "node" else run_chromium)(data, queries)["results"]

    rows = []
    for case, found in zip(CASES, offline, strict=True):
        server = search(work / "index", case["q"])
        server_ok = verdict(case, server.redirect, [h.id for h in server.hits], server.suggestion)
        offline_ok = verdict(case, found["redirect"], found["top"], found["suggestion"])
        rows.append((case, server_ok, offline_ok, [h.id for h in server.hits[:3]], found["top"][:3]))

    print(f"offline search export: {data.stat().st_size / 1024:.0f} KB ({args.engine})")
    print(f"{'cases':<22}{'n':>4}{'server':>9}{'offline':>9}")
    for kind in ("rule number", "term or alias", "typo", "words and questions", "all"):
        chosen = [r for r in rows if kind == "all" or kind_of(r[0]) == kind]
        print(f"{kind:<22}{len(chosen):>4}{sum(r[1] for r in chosen):>9}{sum(r[2] for r in chosen):>9}")
    server_pass = sum(r[1] for r in rows)
    offline_pass = sum(r[2] for r in rows)
    print(f"pass rate: server {server_pass / len(rows):.0%}, offline {offline_pass / len(rows):.0%}; "
          f"agree on {sum(r[1] == r[2] for r in rows)} of {len(rows)}")
    for case, s_ok, o_ok, s_top, o_top in rows:
        if s_ok != o_ok:
            which = "server only" if s_ok else "offline only"
            print(f"  {which}: {case['q']!r}  server {s_top}  offline {o_top}")
    times = sorted(found["ms"] for found in offline)
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print(f"offline query time: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms "
          f"({len(times)} queries)")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
