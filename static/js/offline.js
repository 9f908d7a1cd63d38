// The site offline, page side: registers the service worker (static/js/sw.js) unless the user cleared
// what it keeps, runs the "Available offline" control (is the Codex kept here, keep it now, clear it),
// says once when a new edition or release replaced the kept pages, and on the desk says plainly what
// works without the network and resolves once it is back. Nothing is sent anywhere by this.
"use strict";
(() => {
  const control = document.getElementById("offline-control");
  if (!control) return;
  const PREFIX = "codex-judge-";
  const META = PREFIX + "meta";
  const RECORD = "/offline/kept.json";
  const OFF = "codex-offline:off";      // the user cleared it: don't keep again until asked
  const SEEN = "codex-offline:seen";    // the version this browser last told the user about
  const SIZE = "codex-offline:bytes";   // the size last kept here (offered with "Keep it now")
  const d = control.dataset;
  const supported = "serviceWorker" in navigator && "caches" in window && d.sw;
  const store = {
    get(key) { try { return window.localStorage.getItem(key); } catch (err) { return null; } },
    set(key, value) { try { window.localStorage.setItem(key, value); } catch (err) { /* storage off */ } },
    drop(key) { try { window.localStorage.removeItem(key); } catch (err) { /* storage off */ } },
  };

  const megabytes = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
  const states = () => document.querySelectorAll(".offline-state, .offline-here");
  const buttons = (cls) => document.querySelectorAll(`.${cls}`);

  function show(text, { keep = false, clear = false } = {}) {
    for (const node of states()) node.textContent = text;
    const size = store.get(SIZE);
    for (const b of buttons("offline-keep")) {
      b.hidden = !keep;
      b.textContent = size ? `Keep it now (${megabytes(Number(size))})` : "Keep it now";
    }
    for (const b of buttons("offline-clear")) b.hidden = !clear;
  }

  async function record() {
    try {
      const hit = await (await caches.open(META)).match(RECORD);
      return hit ? await hit.json() : null;
    } catch (err) { return null; }
  }

  function announce(kept) {
    const seen = store.get(SEEN);
    store.set(SEEN, kept.key);
    if (!seen || seen === kept.key) return;
    const main = document.getElementById("main");
    if (!main || document.querySelector(".offline-updated")) return;
    const sameCodex = kept.previous && kept.previous.codex === kept.codex;
    const note = document.createElement("p");
    note.className = "notice offline-updated";
    note.setAttribute("role", "status");
    note.textContent = sameCodex
      ? `Updated to a new release of Codex Judge (Codex ${kept.codex}): the pages kept on this device are the new ones.`
      : `Updated to Codex ${kept.codex}: the pages kept on this device are that edition's now.`;
    main.prepend(note);
  }

  async function render() {
    if (!d.sw) { show("this site does not keep pages offline here."); return; }
    if (!supported) { show("this browser can't keep pages offline."); return; }
    if (store.get(OFF)) { show("the Codex is not kept on this device.", { keep: true }); return; }
    const kept = await record();
    if (kept && kept.key === d.version) {
      store.set(SIZE, String(kept.bytes));
      show(`the Codex ${kept.codex} is kept on this device (${kept.pages} pages, ${megabytes(kept.bytes)}).`, { clear: true });
      announce(kept);
    } else if (kept) {
      show(`the Codex ${kept.codex} is kept on this device; Codex ${d.codex} is being kept in its place…`, { clear: true });
    } else {
      show("keeping the Codex on this device…", { clear: true });
    }
  }

  async function register() {
    try {
      return await navigator.serviceWorker.register(d.sw, { scope: d.scope });
    } catch (err) {
      show("this browser did not let the site keep pages offline.");
      return null;
    }
  }

  async function clear() {
    store.set(OFF, "1");
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
    for (const name of await caches.keys()) if (name.startsWith(PREFIX)) await caches.delete(name);
    store.drop(SEEN);
    render();
  }

  async function keepNow() {
    store.drop(OFF);
    show("keeping the Codex on this device…", { clear: true });
    const registration = await register();
    // cleared, then kept again from the same page: the worker is still there, so it is asked to keep
    if (registration && registration.active) registration.active.postMessage({ type: "codex-offline:keep" });
  }

  if (supported) {
    navigator.serviceWorker.addEventListener("message", (event) => {
      const data = event.data || {};
      if (data.type === "codex-offline:progress" && data.version.key === d.version && data.done < data.total) {
        show(`keeping the Codex ${data.version.codex} on this device… ${data.done} of ${data.total} pages.`, { clear: true });
      } else if (data.type === "codex-offline:kept" || data.type === "codex-offline:progress") {
        render();
      }
    });
    navigator.serviceWorker.startMessages();
    for (const b of buttons("offline-keep")) b.addEventListener("click", keepNow);
    for (const b of buttons("offline-clear")) b.addEventListener("click", clear);
    if (!store.get(OFF)) register();
  }
  render();

  // -- the desk without a network -----------------------------------------------------------------
  const desk = document.getElementById("desk");
  if (!desk) return;
  const note = document.createElement("p");
  note.className = "notice desk-offline";
  note.id = "desk-offline";
  note.setAttribute("role", "status");
  note.hidden = true;
  note.textContent = "You are offline. Your work on this desk is kept on this device (in the page's address and "
    + "this browser); resolving needs the network, and the desk resolves as soon as the network is back.";
  desk.before(note);
  // navigator.onLine says little (a venue's Wi-Fi is "online" with nothing behind it): ask the server.
  let pending = false;
  let away = false;
  let timer = null;
  const wasResolved = () => {
    try { return Boolean((JSON.parse(store.get("codex-desk:draft") || "null") || {}).resolved); } catch (err) { return false; }
  };
  async function reachable() {
    try { return (await fetch(d.ping, { cache: "no-store" })).ok; } catch (err) { return false; }
  }
  async function check() {
    clearTimeout(timer);
    if (await reachable()) {
      if (!away) return;
      away = false;
      note.hidden = true;
      const running = window.codexDesk;
      if (!running) return;
      await running.refresh();
      if (pending) { pending = false; await running.resolve(); }
      return;
    }
    if (!away) { away = true; note.hidden = false; pending = pending || wasResolved(); }
    timer = setTimeout(check, 3000);
  }
  document.addEventListener("click", (event) => {
    if (away && event.target.closest && event.target.closest("#resolve")) pending = true;
  }, true);
  window.addEventListener("offline", check);
  window.addEventListener("online", check);
  check();
})();
