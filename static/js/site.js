// Small progressive enhancements shared by every page. The pages work without it.
"use strict";
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const text = new URL(button.dataset.copy, window.location.href).href;
  const done = () => { const old = button.textContent; button.textContent = "Copied"; setTimeout(() => { button.textContent = old; }, 1500); };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, () => window.prompt("Copy this link:", text));
  else window.prompt("Copy this link:", text);
});
