/* The one entry of the Naval War Game's pages: each page's part looks for its page and does
   nothing elsewhere; here too the zoom toggle; every page's parts, clocks and poll. */
import { $, everyPage } from "../../static/js/dom.js";
import { clocks, poll } from "../../static/js/poll.js";
import { budgetPage } from "./budget.js";
import { makeCatalogue, readRules } from "./catalogue.js";
import { overPage, postmortemPage, waitingPage } from "./chart.js";
import { placePage } from "./place.js";
import { playPage } from "./play.js";

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

function start() {
  const catalogue = makeCatalogue(readRules());
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
    everyPage();
    zoomToggle();
  };
  init();
  poll(session, init);
}

start();
