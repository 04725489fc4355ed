/* The one entry of every page, a module from /static: each page's part looks for its page
   and does nothing elsewhere; here too the parts every page has: one-tap forms (sent once,
   confirmed where asked), copy and print buttons, the zoom toggle. */
import { budgetPage } from "./budget.js";
import { drawsThese, makeCatalogue, readRules } from "./catalogue.js";
import { overPage, postmortemPage, waitingPage } from "./chart.js";
import { $ } from "./dom.js";
import { placePage } from "./place.js";
import { playPage } from "./play.js";
import { clocks, poll } from "./poll.js";

function onceForms() {
  for (const form of document.querySelectorAll("form.once")) {
    form.addEventListener("submit", (e) => {
      if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
        e.preventDefault();
        return;
      }
      if (form.dataset.sent) {
        e.preventDefault();
        return;
      }
      form.dataset.sent = "1";
      for (const b of form.querySelectorAll("button[type=submit]")) {
        b.disabled = true;
        b.textContent = "Sending…";
      }
    });
  }
}

function copyButtons() {
  for (const b of document.querySelectorAll(".copy-button")) {
    b.addEventListener("click", () => {
      const input = document.getElementById(b.dataset.copy);
      input.select();
      const copied = () => {
        b.textContent = "Copied";
      };
      const written = navigator.clipboard
        ? navigator.clipboard.writeText(input.value)
        : Promise.reject();
      written.then(copied, () => {
        document.execCommand("copy");
        copied();
      });
    });
  }
}

function zoomToggle() {
  const zoom = $("#zoom");
  if (!zoom) return;
  const label = () => {
    zoom.textContent = document.body.classList.contains("zoom-in") ? "Whole chart" : "Zoom in";
  };
  if (document.body.dataset.zoom) document.body.classList.add("zoom-in");
  zoom.addEventListener("click", () => {
    document.body.classList.toggle("zoom-in");
    label();
  });
  label();
}

function forms() {
  onceForms();
  copyButtons();
  for (const b of document.querySelectorAll(".print-button")) {
    b.addEventListener("click", () => window.print());
  }
  zoomToggle();
}

function start() {
  const rules = readRules();
  if (!drawsThese(rules)) {
    forms(); // another rule set's page: its own script draws it and polls
    return;
  }
  const catalogue = makeCatalogue(rules);
  /* busy: is a move under way (then a move at the table is offered, not shown); ticking:
     the clocks' timers */
  const session = { busy: null, ticking: [] };
  const init = () => {
    session.busy = null;
    budgetPage(catalogue);
    placePage(catalogue);
    playPage(catalogue, session);
    waitingPage(catalogue);
    overPage(catalogue);
    postmortemPage(catalogue);
    clocks(session);
    forms();
  };
  init();
  poll(session, init);
}

start();
