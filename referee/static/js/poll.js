/* Following a game from its page, for every game's pages and the host's: when the game may
   have moved on (a move on another phone or by a computer, a seat joining or locking in, the
   end), the page is redrawn, or, while its player is busy (a move or a placement under way),
   offered with a button.

   One seam, ``whenTheGameMayHaveMoved``, says when to look: the game's status pushed on its
   stream, or polled by ETag every body[data-poll-ms] milliseconds (the referee sets it from
   its config) while the stream is not heard (stream.js); what a page does about it is
   here, whatever brings the news. */
import { $ } from "./dom.js";
import { follow } from "./stream.js";

/** THE SEAM: call ``fresh(status)`` with the game's status (body[data-poll]'s: its
    version, phase, turn and you) whenever the game may have moved on (perhaps twice
    alike). Nothing happens on a page without body[data-poll]. */
export function whenTheGameMayHaveMoved(fresh) {
  follow(fresh);
}

/* "● " before the title while it is this seat's turn; a buzz when it becomes so, once the
   player has touched the page (a browser refuses to vibrate before). */
function markTurn(status, before) {
  const yours = status.phase === "play" && status.turn === status.you;
  document.title = (yours ? "● " : "") + document.title.replace(/^● /, "");
  const wasYours = before && before.phase === "play" && before.turn === before.you;
  if (yours && before && !wasYours && navigator.userActivation?.hasBeenActive) {
    navigator.vibrate?.([120, 60, 120]);
  }
}

/* A form sent from this page (a move, an offer to end) brings the next page: news heard
   meanwhile waits, for a reload then would cancel the form's navigation and lose its answer
   (the flash that says what was done). Should the page still be here LEAVING_MS later (the
   answer never came), the news is given then. */
const LEAVING_MS = 8000;
const leaving = { until: 0, held: null, timer: null };
document.addEventListener("submit", (e) => {
  const here = ["", "_self"].includes(e.target.target || "");
  if (!e.defaultPrevented && here) leaving.until = Date.now() + LEAVING_MS;
});
window.addEventListener("pageshow", (e) => {
  if (e.persisted) leaving.until = 0; // back again (the browser's back button): follow at once
});

function unlessLeaving(give) {
  return (status) => {
    const wait = leaving.until - Date.now();
    if (wait <= 0) return give(status);
    leaving.held = status;
    clearTimeout(leaving.timer);
    leaving.timer = setTimeout(() => give(leaving.held), wait);
  };
}

/** Call ``moved(status, before)`` each time the game's version moves past the one the page
    shows (body[data-version], else the first status read); ``before`` is the status read
    before it, null at first. Nothing is called while a form sent from the page is bringing
    the next one. */
export function followTheGame(moved) {
  const last = { status: null };
  whenTheGameMayHaveMoved(
    unlessLeaving((status) => {
      const before = last.status;
      last.status = status;
      markTurn(status, before);
      const shown = before ? String(before.version) : document.body.dataset.version;
      if (shown !== undefined && String(status.version) !== shown) moved(status, before);
    }),
  );
}

/** Fetch this page afresh and swap its main in (no reload, no lost scroll of the whole
    page), then ``init()`` sets it up again. */
export function refresh(init) {
  const headers = { Accept: "text/html" };
  return fetch(location.pathname + location.search, { headers, cache: "no-store" })
    .then((r) => r.text())
    .then((html) => {
      const doc = new DOMParser().parseFromString(html, "text/html");
      document.title = doc.title;
      for (const k of Object.keys(document.body.dataset)) {
        if (k !== "poll") delete document.body.dataset[k];
      }
      Object.assign(document.body.dataset, doc.body.dataset);
      $("main").replaceWith(doc.querySelector("main"));
      const { page, turn, you } = document.body.dataset;
      if (page === "play" && turn && turn === you) document.title = `● ${document.title}`;
      init();
    });
}

/** Reload the whole page: for pages drawn afresh on every change. */
export const reload = () => location.reload();

/** Tell the player the game moved on, with a button that shows it (``redraw``). */
export function offerNews(text, redraw) {
  const news = $("#news") || document.createElement("p");
  news.id = "news";
  news.className = "flash";
  news.setAttribute("role", "status");
  news.innerHTML = "";
  const show = document.createElement("button");
  show.type = "button";
  show.className = "button secondary";
  show.textContent = text;
  show.addEventListener("click", redraw);
  news.appendChild(show);
  $("main").prepend(news);
}

/** What a game's page does when its game moves on: ``redraw()`` it at once (the whole page
    by default), unless ``busy()`` (a move or placement under way): then, if ``worth(status,
    before)``, offer the news (``news``, a button's words) and redraw when it is tapped. A
    placing page (body[data-page=setup]) is always busy, and hears only that play began (or
    the game ended): a seat joining or locking in does not disturb a placement. */
export function redrawOnNews({
  redraw = reload,
  busy = () => false,
  news = "A move was made at the table: show it",
} = {}) {
  followTheGame((status) => {
    const placing = document.body.dataset.page === "setup";
    if (!placing && !busy()) redraw();
    else if (!placing) offerNews(news, redraw);
    else if (status.phase !== "setup") offerNews("The game has moved on: show it", redraw);
  });
}
