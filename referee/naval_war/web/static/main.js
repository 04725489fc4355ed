/* The one entry of the Naval War Game's pages: each page's part looks for its page and does
   nothing elsewhere; here too the zoom toggle; every page's parts, its clocks, and the game
   followed (a move at the table redraws the page, or, mid-move, is offered). */
import { startClocks } from "../../static/js/clock.js";
import { $, everyPage } from "../../static/js/dom.js";
import { redrawOnNews, refresh } from "../../static/js/poll.js";
import { hintScrolls } from "../../static/js/scrollhint.js";
import { budgetPage } from "./budget.js";
import { makeCatalogue, readRules } from "./catalogue.js";
import { overPage, postmortemPage, waitingPage } from "./chart.js";
import { placePage } from "./place.js";
import { playPage } from "./play.js";

/* The placing page remembers the player's choice of chart (zoomed or whole) on this phone;
   storage refused (a private window): the page's own default. */
const ZOOM_KEY = "referee.placing-chart";
const kept = (choice) => {
  try {
    if (choice) localStorage.setItem(ZOOM_KEY, choice);
    return localStorage.getItem(ZOOM_KEY);
  } catch {
    return null;
  }
};

function zoomToggle() {
  const zoom = $("#zoom");
  if (!zoom) return;
  const body = document.body;
  const placing = body.classList.contains("placing");
  const label = () => {
    zoom.textContent = body.classList.contains("zoom-in") ? "Whole chart" : "Zoom in";
  };
  if (body.dataset.zoom) body.classList.toggle("zoom-in", !(placing && kept() === "whole"));
  zoom.addEventListener("click", () => {
    body.classList.toggle("zoom-in");
    if (placing) kept(body.classList.contains("zoom-in") ? "zoom" : "whole");
    label();
  });
  label();
}

function start() {
  const catalogue = makeCatalogue(readRules());
  /* busy: is a move under way (then a move at the table is offered, not shown) */
  const session = { busy: null };
  const init = () => {
    session.busy = null;
    budgetPage(catalogue);
    placePage(catalogue);
    playPage(catalogue, session);
    waitingPage(catalogue);
    overPage(catalogue);
    postmortemPage(catalogue);
    startClocks();
    everyPage();
    hintScrolls();
    zoomToggle();
  };
  init();
  redrawOnNews({ redraw: (busy) => refresh(init, busy), busy: () => Boolean(session.busy?.()) });
}

start();
