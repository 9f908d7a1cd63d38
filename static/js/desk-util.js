// Small helpers shared by the desk's scripts (loaded first; plain scripts share these names).
"use strict";
document.documentElement.classList.add("js");

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
const clone = (value) => JSON.parse(JSON.stringify(value));
const typingIn = (el) => el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));

async function postJSON(url, body) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    return { ok: false, error: "The server did not answer; your work is kept in this page and this browser." };
  }
  try { return await response.json(); } catch (err) { return { ok: false, error: `The server answered ${response.status}.` }; }
}

// "(line 3)" is added only when the message does not already say which line.
function problemText(p) {
  const line = p.line && !new RegExp(`\\bline ${p.line}\\b`).test(p.message || "") ? ` (line ${p.line})` : "";
  return (p.message || "") + line;
}

function renderProblems(list, problems, message, onFix) {
  list.replaceChildren();
  if (message && (!problems || !problems.length)) problems = [{ message }];
  for (const p of problems || []) {
    const li = document.createElement("li");
    if (p.path) { const code = document.createElement("code"); code.textContent = p.path; li.append(code, ": "); }
    li.append(problemText(p));
    if (p.suggest && onFix) {
      const fix = document.createElement("button");
      fix.type = "button";
      fix.className = "fix-button";
      fix.textContent = `Use ${p.suggest}`;
      fix.addEventListener("click", () => onFix(p));
      li.append(" ", fix);
    }
    list.append(li);
  }
}

function debounce(fn, ms) {
  let timer = null;
  const wrapped = (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
  wrapped.cancel = () => clearTimeout(timer);   // a call made now makes the pending one needless
  return wrapped;
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("aria") || key === "role") node.setAttribute(key.replace(/^aria([A-Z])/, (m, c) => `aria-${c.toLowerCase()}`), value);
    else node[key] = value;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

// "2 minutes ago", "yesterday at 14:05", "3 December at 09:12": dates as people say them.
function humanWhen(ms) {
  const seconds = Math.round((Date.now() - ms) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) { const m = Math.round(seconds / 60); return `${m} minute${m === 1 ? "" : "s"} ago`; }
  const when = new Date(ms);
  const time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (seconds < 86400 && when.getDate() === new Date().getDate()) return `today at ${time}`;
  return `${when.toLocaleDateString([], { day: "numeric", month: "long" })} at ${time}`;
}

// Pop-ups and panels opened over the desk take one step of the browser's history each, so Back closes
// the one on top before it leaves the page. Closing one by its own button takes its step back too.
const Layers = {
  stack: [],      // [{name, close}]
  ignore: 0,      // history steps we take back ourselves (their popstate closes nothing)
  push(name, close) {
    const top = this.stack[this.stack.length - 1];
    if (top && top.name === name) { top.close = close; return; }
    this.stack = this.stack.filter((l) => l.name !== name);
    this.stack.push({ name, close });
    window.history.pushState({ ...(window.history.state || {}), deskLayer: name }, "", window.location.href);
  },
  drop(name) {
    const index = this.stack.findIndex((l) => l.name === name);
    if (index < 0) return;
    this.stack.splice(index, 1);
    this.ignore += 1;
    window.history.back();
  },
  has(name) { return this.stack.some((l) => l.name === name); },
};
window.addEventListener("popstate", () => {
  if (Layers.ignore > 0) { Layers.ignore -= 1; return; }
  const top = Layers.stack.pop();
  if (top) top.close();
});
