// The service worker (served at /sw.js by judge/web/offline.py, which puts CONFIG first: the version,
// the list of what to keep, the offline pages). It keeps the current edition's pages after one visit:
//   install   fetch /offline.json and keep every page it names (compressed) in the version's cache;
//             a page already there from an interrupted attempt is not fetched again;
//   activate  drop the caches of other versions, record what is kept, tell the open pages;
//   fetch     cache first for what the list names (it can't change within a version), network first
//             for the rest (a page opened online is kept, so a ruling opened once opens offline);
//             offline, /search answers with the offline search and a page never kept says so.
// POSTs and the desk's JSON calls are never touched.
"use strict";

const PREFIX = "codex-judge-";
const CACHE = PREFIX + CONFIG.version.key;   // this version's kept pages
const OPENED = PREFIX + "opened";             // pages opened online that the list does not name
const META = PREFIX + "meta";                 // what is kept: one record (the page reads it)
const RECORD = "/offline/kept.json";          // that record's key (never served by the server)
const OPENED_MAX = 200;
const PARALLEL = 4;
const SLOW = 4000;   // ms: a network-first page with a kept copy waits this long for the network
const HEADERS = ["content-type", "content-security-policy", "x-content-type-options", "referrer-policy",
                 "x-frame-options", "permissions-policy", "link", "strict-transport-security"];

let routes = null;   // the set of cache-first addresses (read again after the worker restarts)

async function cacheFirstSet() {
  if (routes) return routes;
  const kept = await readJSON(await caches.open(CACHE), RECORD);
  routes = new Set(kept ? kept.cache_first : []);
  return routes;
}

async function readJSON(cache, key) {
  const hit = await cache.match(key);
  try { return hit ? await hit.json() : null; } catch (err) { return null; }
}

// -- storing compressed, serving plain ----------------------------------------------------------
async function store(cache, key, response) {
  const headers = new Headers();
  for (const name of HEADERS) if (response.headers.has(name)) headers.set(name, response.headers.get(name));
  let body = await response.arrayBuffer();
  headers.set("x-kept-plain", String(body.byteLength));
  if (typeof CompressionStream === "function") {
    body = await new Response(new Blob([body]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
    headers.set("x-kept-gzip", "1");
  }
  headers.set("x-kept-bytes", String(body.byteLength));
  await cache.put(key, new Response(body, { status: 200, headers }));
  return body.byteLength;
}

async function kept(name, key, status = 200) {
  const hit = await (await caches.open(name)).match(key);
  if (!hit) return null;
  const headers = new Headers(hit.headers);
  for (const extra of ["x-kept-gzip", "x-kept-bytes", "x-kept-plain"]) headers.delete(extra);
  const body = hit.headers.has("x-kept-gzip") ? hit.body.pipeThrough(new DecompressionStream("gzip")) : hit.body;
  return new Response(body, { status, headers });
}

function keyOf(url) {
  const u = new URL(url, self.location.href);
  return u.pathname + u.search;
}

// -- keeping everything ---------------------------------------------------------------------------
async function tell(message) {
  for (const client of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
    client.postMessage(message);
  }
}

const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// A page asked for again when the server says "too many requests" (429), after the Retry-After it gives.
async function patiently(url, tries = 6) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(url, { cache: "reload", credentials: "same-origin" });
    if (response.status !== 429 || attempt >= tries) return response;
    await pause(1000 * Math.min(30, Number(response.headers.get("retry-after")) || attempt));
  }
}

async function keepAll() {
  const list = await (await fetch(CONFIG.keep, { cache: "reload" })).json();
  const cache = await caches.open(CACHE);
  const already = new Map();
  for (const request of await cache.keys()) {
    const hit = await cache.match(request);
    already.set(keyOf(request.url), Number(hit.headers.get("x-kept-bytes") || 0));
  }
  const urls = [...list.cache_first, ...list.network_first];
  let done = 0;
  let bytes = 0;
  const failed = [];
  const queue = urls.slice();
  async function worker() {
    while (queue.length) {
      const url = queue.shift();
      if (already.has(url)) { bytes += already.get(url); done += 1; continue; }
      try {
        const response = await patiently(url);
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        bytes += await store(cache, url, response);
      } catch (err) {
        failed.push(url);
      }
      done += 1;
      if (done % 25 === 0) tell({ type: "codex-offline:progress", done, total: urls.length, version: CONFIG.version });
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  if (failed.length) throw new Error(`${failed.length} pages could not be kept (first: ${failed[0]})`);
  bytes += await refreshOpened();
  const record = { ...list.version, pages: urls.length, bytes, kept: Date.now(),
                   cache_first: list.cache_first, network_first: list.network_first };
  await cache.put(RECORD, new Response(JSON.stringify(record), { headers: { "content-type": "application/json" } }));
  tell({ type: "codex-offline:progress", done, total: urls.length, version: CONFIG.version });
}

// The rulings opened under the old version are judged again by the new one (in the background).
async function refreshOpened() {
  const cache = await caches.open(OPENED);
  let bytes = 0;
  for (const request of await cache.keys()) {
    try {
      const response = await patiently(request.url);
      if (response.ok) bytes += await store(cache, keyOf(request.url), response);
      else await cache.delete(request);
    } catch (err) {
      const hit = await cache.match(request);   // kept as it was: better the old judgement than none
      bytes += Number((hit && hit.headers.get("x-kept-bytes")) || 0);
    }
  }
  return bytes;
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepAll().then(() => self.skipWaiting()));
});

// The record of what is kept (the page reads it), naming the version it replaced, if any.
async function recordKept() {
  const meta = await caches.open(META);
  const before = await readJSON(meta, RECORD);
  const record = await readJSON(await caches.open(CACHE), RECORD);
  if (!record) return;
  const previous = before && before.key !== record.key ? { key: before.key, codex: before.codex } : null;
  const summary = { key: record.key, codex: record.codex, engine: record.engine, pages: record.pages,
                    bytes: record.bytes, kept: record.kept, previous };
  await meta.put(RECORD, new Response(JSON.stringify(summary), { headers: { "content-type": "application/json" } }));
  routes = new Set(record.cache_first);
  tell({ type: "codex-offline:kept", record: summary });
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && ![CACHE, OPENED, META].includes(name)) await caches.delete(name);
    }
    await self.clients.claim();
    await recordKept();
  })());
});

// "Keep it now" after the user cleared it: this worker is still the active one, so it keeps again.
self.addEventListener("message", (event) => {
  if ((event.data || {}).type === "codex-offline:keep") event.waitUntil(keepAll().then(recordKept));
});

// -- answering ------------------------------------------------------------------------------------
function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("slow")), ms);
    promise.then((value) => { clearTimeout(timer); resolve(value); }, (err) => { clearTimeout(timer); reject(err); });
  });
}

async function keepOpened(key, response) {
  const cache = await caches.open(OPENED);
  await store(cache, key, response);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - OPENED_MAX))) await cache.delete(old);
}

async function navigate(event, key) {
  const path = new URL(event.request.url).pathname;
  if ((await cacheFirstSet()).has(key)) {
    const hit = await kept(CACHE, key);
    if (hit) return hit;
  }
  const keptHere = (await (await caches.open(CACHE)).match(key)) ? CACHE
    : (await (await caches.open(OPENED)).match(key)) ? OPENED : null;
  const network = fetch(event.request);
  try {
    const response = await (keptHere ? withTimeout(network, SLOW) : network);
    if (response.ok && response.type === "basic" && !response.redirected && path !== CONFIG.search) {
      const copy = response.clone();
      event.waitUntil(keptHere === CACHE ? store(await caches.open(CACHE), key, copy) : keepOpened(key, copy));
    }
    return response;
  } catch (err) {
    if (keptHere) return kept(keptHere, key);
    if (path === CONFIG.search) {
      const shell = await kept(CACHE, CONFIG.offline_search);
      if (shell) return shell;
    }
    return (await kept(CACHE, CONFIG.missing, 503))
      || new Response("This page is not kept on this device, and the network is gone.",
                      { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
}

async function asset(event, key) {
  const hit = await kept(CACHE, key);
  return hit || fetch(event.request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname === "/sw.js") return;
  const key = url.pathname + url.search;
  if (request.mode === "navigate") event.respondWith(navigate(event, key));
  else if (url.pathname.startsWith(CONFIG.static) || key === CONFIG.search_data) event.respondWith(asset(event, key));
});
