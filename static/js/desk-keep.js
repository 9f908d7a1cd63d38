// Keeping the desk's work: the scenario (and what the user was looking at) lives compressed in the
// page's address (#s=…) and in this browser's local storage, so a reload, Back after a link, a crash
// or a closed tab bring it back. Nothing is sent anywhere by this.
"use strict";

const DRAFT_KEY = "codex-desk:draft";

function toBase64Url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function pipeBytes(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

// The view as text for the address: deflated JSON when the browser can compress, else plain JSON ("j").
async function encodeView(view) {
  const json = new TextEncoder().encode(JSON.stringify(view));
  if (typeof CompressionStream === "function") return `z${toBase64Url(await pipeBytes(json, new CompressionStream("deflate-raw")))}`;
  return `j${toBase64Url(json)}`;
}

async function decodeView(text) {
  const bytes = fromBase64Url(text.slice(1));
  const raw = text[0] === "z" ? await pipeBytes(bytes, new DecompressionStream("deflate-raw")) : bytes;
  return JSON.parse(new TextDecoder().decode(raw));
}

const Keep = {
  // The view in the address, or null (a damaged address is ignored, never fatal).
  async fromAddress() {
    const match = window.location.hash.match(/^#s=([zj][\w-]+)/);
    if (!match) return null;
    try { return await decodeView(match[1]); } catch (err) { return null; }
  },
  fromStorage() {
    try { return JSON.parse(window.localStorage.getItem(DRAFT_KEY) || "null"); } catch (err) { return null; }
  },
  async save(view) {
    const stamped = { ...view, saved: Date.now() };
    try { window.localStorage.setItem(DRAFT_KEY, JSON.stringify(stamped)); } catch (err) { /* storage full or off */ }
    const { yaml, ...inAddress } = stamped;  // the editor's text stays in this browser only
    const hash = `#s=${await encodeView(inAddress)}`;
    if (window.location.hash !== hash) window.history.replaceState(window.history.state, "", hash);
  },
};
