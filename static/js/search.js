// Search-as-you-type for the header search box (#site-q, data-suggest="<url>").
// An ARIA combobox with a listbox of at most 8 suggestions from /search/suggest: debounced,
// arrow keys move, Enter opens the highlighted entry, Escape closes. Without this script the box
// is a plain GET form to /search.
"use strict";
(() => {
  const input = document.getElementById("site-q");
  if (!input || !input.dataset.suggest || !window.fetch) return;
  const form = input.form;
  const list = document.createElement("ul");
  list.id = "site-q-list";
  list.className = "search-suggest";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Suggestions");
  list.hidden = true;
  (form || input.parentNode).appendChild(list);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", list.id);
  input.setAttribute("aria-expanded", "false");

  let items = [];
  let active = -1;
  let timer = null;
  let asked = 0;

  // Forget a pending or in-flight request, so an answer arriving late can't reopen the list.
  const cancel = () => { clearTimeout(timer); asked += 1; };

  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  };

  const highlight = (index) => {
    const options = list.querySelectorAll("[role=option]");
    options.forEach((option, i) => option.setAttribute("aria-selected", i === index ? "true" : "false"));
    active = index;
    if (index >= 0 && options[index]) {
      input.setAttribute("aria-activedescendant", options[index].id);
      options[index].scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  };

  const render = (entries) => {
    const kept = active >= 0 && items[active] ? items[active].url : null;   // keep the user's choice
    items = entries;
    list.textContent = "";
    entries.forEach((entry, i) => {
      const option = document.createElement("li");
      option.id = `site-q-opt-${i}`;
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", "false");
      option.dataset.url = entry.url;
      const title = document.createElement("span");
      title.className = "title";
      title.textContent = entry.title;
      const kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = entry.kind;
      option.append(title, kind);
      list.appendChild(option);
    });
    active = -1;
    if (entries.length) {
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      const again = kept ? entries.findIndex((entry) => entry.url === kept) : -1;
      if (again >= 0) highlight(again);
    } else {
      close();
    }
  };

  const ask = () => {
    const q = input.value.trim();
    if (!q) { render([]); return; }
    const ticket = ++asked;
    const url = new URL(input.dataset.suggest, window.location.href);
    url.searchParams.set("q", q);
    fetch(url, { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : []))
      .then((entries) => { if (ticket === asked) render(Array.isArray(entries) ? entries.slice(0, 8) : []); })
      .catch(() => { if (ticket === asked) render([]); });
  };

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(ask, 150);
  });

  input.addEventListener("keydown", (event) => {
    const open = !list.hidden && items.length > 0;
    if (event.key === "ArrowDown") {
      if (!open) { ask(); return; }
      event.preventDefault();
      highlight(active + 1 >= items.length ? 0 : active + 1);
    } else if (event.key === "ArrowUp") {
      if (!open) return;
      event.preventDefault();
      highlight(active <= 0 ? items.length - 1 : active - 1);
    } else if (event.key === "Enter") {
      if (open && active >= 0) {
        event.preventDefault();
        window.location.assign(items[active].url);
      }
    } else if (event.key === "Escape") {
      cancel();
      if (open) { event.preventDefault(); close(); }
    }
  });

  // mousedown, not click: it fires before the input loses focus and closes the list.
  list.addEventListener("mousedown", (event) => {
    const option = event.target.closest("[role=option]");
    if (!option) return;
    event.preventDefault();
    window.location.assign(option.dataset.url);
  });
  input.addEventListener("blur", () => setTimeout(() => { cancel(); close(); }, 100));
  if (form) form.addEventListener("submit", () => { cancel(); close(); });
})();
