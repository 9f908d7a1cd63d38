// The offline search page (/offline/search, and /search when the network is gone: the service worker
// answers it with this page): loads the kept export, searches it, lists the results. A rule number goes
// straight to its rule, as online.
"use strict";
(() => {
  const root = document.getElementById("offline-search");
  if (!root || !window.CodexOfflineSearch || !window.MiniSearch) return;
  const urls = JSON.parse(root.dataset.docUrls);
  const placeholder = root.dataset.placeholder;
  const input = document.getElementById("offline-q");
  const count = document.getElementById("offline-count");
  const list = document.getElementById("offline-results");
  const respelled = document.getElementById("offline-respelled");
  const q = new URLSearchParams(window.location.search).get("q") || "";
  input.value = q;
  const header = document.getElementById("site-q");   // the header's box says what was searched, as online
  if (header && !header.value) header.value = q;

  // the part of a document's id after its kind ("glossary/def" -> "def"); an example opens its rule
  function pageOf(hit) {
    const template = urls[hit.kind];
    if (!template) return null;
    const id = hit.kind === "example" ? hit.parent : hit.kind === "rule" || hit.kind === "section" ? hit.id : hit.id.split("/").slice(1).join("/");
    return template.replace(placeholder, id.split("/").map(encodeURIComponent).join("/"));
  }

  function render(result) {
    list.replaceChildren();
    respelled.hidden = !result.suggestion;
    if (result.suggestion) {
      respelled.textContent = result.searched === result.suggestion
        ? `Showing results for ${result.suggestion}.` : `Did you mean ${result.suggestion}?`;
    }
    count.textContent = result.total ? `${result.total === 1 ? "One result" : `${result.total} results`} (offline).`
      : `No results for “${result.query}” in the copy kept on this device.`;
    for (const hit of result.hits) {
      const item = document.createElement("li");
      item.className = `search-hit kind-${hit.kind}`;
      const link = document.createElement("a");
      link.className = "hit-title";
      link.href = pageOf(hit) || "#";
      link.textContent = hit.title;
      const kind = document.createElement("span");
      kind.className = "hit-kind";
      kind.textContent = hit.kind;
      const text = document.createElement("p");
      text.className = "hit-snippet";
      text.textContent = hit.snippet;
      item.append(link, " ", kind, text);
      list.append(item);
    }
  }

  async function run() {
    if (!q.trim()) { count.textContent = "Type a rule number (11.5.1), a term (Shield) or a few words."; return; }
    count.textContent = "Searching the copy kept on this device…";
    let data;
    try {
      data = await (await fetch(root.dataset.index, { headers: { Accept: "application/json" } })).json();
    } catch (err) {
      count.textContent = "The offline search is not kept on this device yet: open the site once with a network.";
      return;
    }
    let result;
    try {
      result = window.CodexOfflineSearch.create(data, window.MiniSearch).search(q);
    } catch (err) {
      count.textContent = err.message;
      return;
    }
    if (result.redirect) {
      window.location.replace(urls.rule.replace(placeholder, result.redirect));
      return;
    }
    render(result);
  }
  run();
})();
