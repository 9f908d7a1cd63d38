// Ruling pages (saved and library rulings): step through the trace with buttons or arrow keys; the page
// opens at its question and the answer's verdict, the deciding step marked and one click away (the
// answer's link, or the step buttons, which start from it).
"use strict";

function initRulingPage(page) {
  const steps = $$(".ruling-trace .step", page);
  if (!steps.length) return;
  let current = -1;
  const prev = el("button", { type: "button" }, "◀ Previous step");
  const label = el("span", { id: "step-label", ariaLive: "polite" }, "Step through the ruling");
  const next = el("button", { type: "button" }, "Next step ▶");
  const nav = el("div", { className: "step-nav" }, prev, " ", label, " ", next);
  $(".ruling-trace h2", page).after(nav);
  // On a wide screen the board beside the trace follows the step; on a phone the step's own board opens.
  const side = $(".ruling-board", page);
  const sideHeading = side && side.querySelector("h2");
  let sideFigure = side && side.querySelector(".board");
  const wide = window.matchMedia("(min-width: 90rem)");   // the board beside the trace (desk.css)
  const go = (index, scroll = true) => {
    current = Math.max(0, Math.min(index, steps.length - 1));
    steps.forEach((li, i) => {
      li.classList.toggle("current", i === current);
      const details = li.querySelector("details");
      if (details) details.open = i === current && !(wide.matches && sideFigure);
    });
    const figure = steps[current].querySelector(".step-board .board");
    if (wide.matches && sideFigure && figure) {
      sideFigure.replaceWith(sideFigure = figure.cloneNode(true));
      sideHeading.textContent = `The board after step ${current + 1}${current === steps.length - 1 ? " (final)" : ""}`;
    }
    label.textContent = `Step ${current + 1} of ${steps.length}`;
    if (scroll) steps[current].scrollIntoView({ block: "nearest" });
  };
  prev.addEventListener("click", () => go(current - 1));
  next.addEventListener("click", () => go(current + 1));
  document.addEventListener("keydown", (e) => {
    if (typingIn(document.activeElement) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowLeft") go(current - 1);
    if (e.key === "ArrowRight") go(current + 1);
  });
  // The page stays at its top (the question and the verdict); the deciding step is one click away: the
  // answer links to it, and going there shows its board (beside the trace, or its own on a phone).
  const deciding = $(".ruling-trace .step.deciding", page);
  if (deciding) {
    if (!wide.matches) go(steps.indexOf(deciding), false);   // on a phone its own board is open, out of view
    label.textContent = `The deciding step: ${deciding.querySelector(".step-n").textContent} of ${steps.length}`;
  }
  const follow = () => {
    const target = window.location.hash && steps.find((li) => `#${li.id}` === window.location.hash);
    if (target) go(steps.indexOf(target));
  };
  window.addEventListener("hashchange", follow);
  follow();
}


// On a narrow screen a board scrolls sideways: start with the middle (the altars) in view.
for (const scroller of $$(".board-scroll")) scroller.scrollLeft = (scroller.scrollWidth - scroller.clientWidth) / 2;

const rulingPage = document.querySelector("[data-ruling-page]");
if (rulingPage) initRulingPage(rulingPage);
