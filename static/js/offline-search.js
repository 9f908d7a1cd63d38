// The offline search: the server's search (judge/search) redone in the browser over the documents the
// index holds (/offline/search.json, written at index time by judge/search/export.py), with MiniSearch
// (static/js/vendor) for the index and BM25 scoring. What it applies comes from that export: the
// analysed tokens, the stems of every word of the corpus, the aliases, the stop words, the rule-number
// pattern, the kind weights, the pins. Works in a page (window.CodexOfflineSearch) and in node
// (module.exports, bench/offline_search.py).
"use strict";
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.CodexOfflineSearch = factory();
}(typeof self !== "undefined" ? self : this, () => {
  const WORD = /[\p{L}\p{N}_]+(?:[./][\p{L}\p{N}_]+)*/gu;   // judge.search.analysis.TOKEN_PATTERN
  const FILTER = /(^|[^\p{L}\p{N}_"])([A-Za-z_][\p{L}\p{N}_]*):("[^"]*"|[^\s"()]+)/gu;
  const OPERATORS = new Set(["AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"]);
  const MAX_QUERY = 500;
  const SNIPPET = 240;
  const splitSpaces = (text) => text.split(" ").filter(Boolean);
  const same = (term) => term;

  function clean(raw) {
    return String(raw || "").normalize("NFKC").replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").split(/\s+/).filter(Boolean).join(" ");
  }

  function osa(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    let prev2 = [];
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i += 1) {
      const cur = [i];
      for (let j = 1; j <= b.length; j += 1) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], prev2[j - 2] + 1);
      }
      if (Math.min(...cur) > limit) return limit + 1;
      prev2 = prev;
      prev = cur;
    }
    return prev[b.length];
  }

  function create(data, MiniSearch) {
    const docs = data.docs;
    const stop = new Set(data.stop_words);
    const pages = new Set(data.pages);
    const rulePattern = new RegExp(data.rule_pattern, "i");
    const vocab = data.vocab;
    const byInitial = new Map();
    for (const [word, freq] of Object.entries(vocab)) {
      const key = word.slice(0, 1);
      if (!byInitial.has(key)) byInitial.set(key, []);
      byInitial.get(key).push([word, freq]);
    }
    const synonymKeys = new Map(Object.entries(data.synonyms).map(([k, slug]) => [k, slug]));
    const longest = Math.max(1, ...Object.keys(data.synonyms).map((k) => k.split(" ").length));
    const kinds = new Set(docs.map((doc) => doc.kind));
    const flat = docs.map((doc) => doc.text.toLowerCase().split(/\s+/).join(" "));
    const index = new MiniSearch({
      idField: "n", fields: ["names", "terms"], tokenize: splitSpaces, processTerm: same,
      searchOptions: { tokenize: splitSpaces, processTerm: same, boost: { names: data.names_boost }, combineWith: "OR" },
    });
    index.addAll(docs.map((doc, n) => ({ n, names: doc.names, terms: doc.terms })));

    const words = (text) => (text.match(WORD) || []).map((w) => w.toLowerCase());
    const stemOf = (word) => data.stems[word] || word;
    // the base analyzer: lower-cased stems without stop words (analysis.stems)
    const stems = (text) => words(text).filter((w) => !stop.has(w)).flatMap((w) => stemOf(w).split(" "));

    // the query side of analysis.SynonymFilter: a word that alone spells a group becomes its token
    function queryTokens(text) {
      const plain = stems(text);
      return plain.map((token, start) => {
        for (let length = Math.min(longest, plain.length - start); length > 0; length -= 1) {
          const slug = synonymKeys.get(plain.slice(start, start + length).join(" "));
          if (slug !== undefined) return length === 1 ? data.syn_prefix + slug : token;
        }
        return token;
      });
    }

    function correct(word, limit) {
      const lim = limit === undefined ? (word.length < 7 ? 1 : 2) : limit;
      let best = null;
      const pool = [...(byInitial.get(word[0]) || []), ...(byInitial.get(word.slice(1, 2)) || [])];
      for (const [candidate, freq] of pool) {
        if (Math.abs(candidate.length - word.length) > lim) continue;
        if (candidate[0] !== word[0] && candidate.slice(0, 2) !== word[1] + word[0]) continue;
        const dist = osa(word, candidate, lim);
        if (dist <= lim && (best === null || dist < best[0] || (dist === best[0] && freq > best[1]))) best = [dist, freq, candidate];
      }
      return best ? best[2] : null;
    }

    function respell(plainWords, text) {
      const fixes = new Map();
      const content = plainWords.filter((w) => !stop.has(w));
      for (const word of content) {
        if (word in vocab || word.length < 3 || !/^\p{L}+$/u.test(word)) continue;
        const better = correct(word);
        if (better && !(better.startsWith(word) || word.startsWith(better))) fixes.set(word, better);
      }
      if (!fixes.size) return { suggestion: null, fixes, most: false };
      return { suggestion: replaceWords(text, fixes), fixes, most: fixes.size * 3 >= content.length };
    }

    const replaceWords = (text, fixes) => text.replace(WORD, (w) => fixes.get(w.toLowerCase()) || w);
    const stripOperators = (text) => text.replace(/["()]/g, " ").split(/\s+/).filter((w) => w && !OPERATORS.has(w)).join(" ");

    function prepare(raw) {
      const text = clean(raw);
      if (!text) throw new Error("Type a rule number (11.5.1), a term (Shield) or a question.");
      if (text.length > MAX_QUERY) throw new Error(`The query is ${text.length} characters long; keep it under ${MAX_QUERY}.`);
      const rule = text.trim().match(rulePattern);
      const ruleId = rule ? rule[1] + (rule[2] || "").toLowerCase() : null;
      const filters = { kind: [], chapter: [], edition: [] };
      const notices = [];
      const rest = ruleId ? text : text.replace(FILTER, (match, before, name, value) => {
        const key = name.toLowerCase();
        if (key in filters) { filters[key].push(value.replace(/"/g, "").toLowerCase()); return `${before} `; }
        notices.push(`${name}: is not a filter; searched for the words instead.`);
        return `${before} ${name} ${value} `;
      });
      let search = rest.replace(/:/g, " ");
      if ((search.match(/"/g) || []).length % 2) { const cut = search.lastIndexOf('"'); search = `${search.slice(0, cut)} ${search.slice(cut + 1)}`; }
      return { text, search, ruleId, filters, notices, words: words(stripOperators(search)) };
    }

    const isBoolean = (search) => search.replace(/"[^"]*"/g, " ").split(/\s+/).some((w) => OPERATORS.has(w.replace(/[()]/g, "")));

    // a MiniSearch query for a prepared search string, and its clauses (each a list of tokens)
    function parse(search) {
      if (isBoolean(search)) {
        const alternatives = search.replace(/[()]/g, " ").split(/\s+OR\s+/);
        const clauses = [];
        const queries = alternatives.map((part) => {
          const bits = part.split(/\s+/).filter(Boolean);
          const positive = [];
          const negative = [];
          for (let i = 0; i < bits.length; i += 1) {
            if (bits[i] === "NOT" || bits[i] === "ANDNOT") { if (bits[i + 1]) negative.push(bits[i + 1]); i += 1; continue; }
            if (!OPERATORS.has(bits[i])) positive.push(bits[i]);
          }
          const pos = queryTokens(positive.join(" "));
          const neg = queryTokens(negative.join(" "));
          pos.forEach((t) => clauses.push([t]));
          const all = { combineWith: "AND", queries: pos };
          return neg.length ? { combineWith: "AND_NOT", queries: [all, { combineWith: "OR", queries: neg }] } : all;
        }).filter((q) => q.queries.length);
        return { query: { combineWith: "OR", queries }, clauses };
      }
      const phrases = [...search.matchAll(/"([^"]+)"/g)].map((m) => queryTokens(m[1])).filter((p) => p.length);
      const loose = queryTokens(search.replace(/"[^"]+"/g, " "));
      const clauses = [...phrases, ...[...new Set(loose)].map((t) => [t])];
      const queries = [...phrases.map((p) => ({ combineWith: "AND", queries: p })), ...new Set(loose)];
      return { query: { combineWith: "OR", queries }, clauses };
    }

    function allowed(doc, prepared) {
      const { kind, chapter } = prepared.filters;
      return (!kind.length || kind.includes(doc.kind)) && (!chapter.length || chapter.includes(doc.chapter.toLowerCase()));
    }

    function ranked(prepared, search) {
      const { query, clauses } = parse(search);
      if (!clauses.length) return { order: [], tokens: [] };
      const phrases = [...search.matchAll(/"([^"]+)"/g)].map((m) => m[1].toLowerCase().split(/\s+/).join(" "));
      const found = index.search(query, { filter: (result) => allowed(docs[result.id], prepared) });
      const scored = found.map((result) => {
        const doc = docs[result.id];
        const terms = new Set(result.terms);
        const share = clauses.filter((clause) => clause.every((t) => terms.has(t))).length / clauses.length;
        let weight = share * share * (data.kind_weight[doc.kind] ?? 1.0);
        if (phrases.length && phrases.some((p) => flat[result.id].includes(p))) weight *= data.phrase_bonus;
        return [-result.score * weight, doc.order, result.id];
      }).filter(([score]) => score < 0);
      scored.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      let order = pin(search, scored.map(([, , n]) => n));
      if (!prepared.filters.kind.includes("example")) {
        const shown = new Set(order.map((n) => docs[n].id));
        order = order.filter((n) => !shown.has(docs[n].parent));
      }
      return { order, tokens: clauses.flat() };
    }

    function pin(search, order) {
      const pinned = data.pins[stems(stripOperators(search)).join(" ")];
      if (!pinned) return order;
      const defines = data.defines[pinned] || [];
      const place = (n) => {
        const doc = docs[n];
        if (doc.id === pinned) return [0, 0];
        if (defines.includes(doc.id)) return [1, defines.indexOf(doc.id)];
        return [doc.kind === "rule" ? 2 : 3, 0];
      };
      return order.map((n, i) => [place(n), i, n])
        .sort((a, b) => a[0][0] - b[0][0] || a[0][1] - b[0][1] || a[1] - b[1]).map(([, , n]) => n);
    }

    function snippet(doc, plainWords) {
      const text = doc.text;
      const lower = text.toLowerCase();
      const at = plainWords.filter((w) => !stop.has(w)).map((w) => lower.indexOf(w)).filter((i) => i >= 0);
      const start = at.length ? Math.max(0, Math.min(...at) - 60) : 0;
      const cut = text.slice(start, start + SNIPPET);
      return (start > 0 ? "…" : "") + cut + (start + SNIPPET < text.length ? "…" : "");
    }

    function search(raw, limit = 10) {
      const prepared = prepare(raw);
      if (prepared.ruleId && pages.has(prepared.ruleId)) return { query: prepared.text, redirect: prepared.ruleId, hits: [], total: 0, notices: [] };
      const notices = [...prepared.notices];
      const unknown = prepared.filters.kind.filter((k) => !kinds.has(k));
      if (unknown.length) notices.push(`Unknown kind ${unknown[0]}; kinds are ${[...kinds].sort().join(", ")}.`);
      if (prepared.ruleId) notices.push(`There is no rule ${prepared.ruleId} in the Codex kept here; showing texts that mention it.`);
      const { suggestion, fixes, most } = respell(prepared.words, prepared.text);
      let result = ranked(prepared, prepared.search);
      let searched = prepared.text;
      if (suggestion && (result.order.length < data.few || most)) {
        result = ranked(prepared, replaceWords(prepared.search, fixes));
        searched = suggestion;
      }
      const shownWords = words(searched);
      const hits = result.order.slice(0, limit).map((n) => {
        const doc = docs[n];
        return { id: doc.id, kind: doc.kind, title: doc.title, section: doc.section, parent: doc.parent, snippet: snippet(doc, shownWords) };
      });
      return { query: prepared.text, redirect: null, suggestion, searched, total: result.order.length, hits, notices };
    }

    return { search, size: docs.length };
  }

  return { create };
}));
