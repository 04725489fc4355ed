/* Following a game from its page (every game's and the host's): when the game may have moved
   on, the page is redrawn, or, while its player is busy, offered with a button. When to look
   is stream.js's (pushed, else polled); what a page does then is here. */
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

/* A form sent from here brings the next page: news meanwhile waits (a reload would cancel
   the form, and its flash saying what was done would be lost), given after 8 s if the page
   is still here. */
const leaving = { until: 0, timer: 0 };
document.addEventListener("submit", (e) => {
  if (!e.defaultPrevented && !e.target.target) leaving.until = Date.now() + 8000;
});
addEventListener("pageshow", (e) => {
  if (e.persisted) leaving.until = 0; // back again
});
const unlessLeaving = (give) => (status) => {
  const wait = leaving.until - Date.now();
  clearTimeout(leaving.timer);
  if (wait <= 0) give(status);
  else leaving.timer = setTimeout(() => give(status), wait);
};

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
    page), then ``init()`` sets it up again; unless ``busy()`` by then (a tap while it
    came) or it did not come: then it is offered. An answer older than the page shown (two
    fetches crossed) is left aside. */
export function refresh(init, busy) {
  const headers = { Accept: "text/html" };
  return fetch(location.pathname + location.search, { headers, cache: "no-store" })
    .then((r) => r.text())
    .then(
      (html) => {
        if (busy?.()) return offerNews(NEWS, () => refresh(init));
        const doc = new DOMParser().parseFromString(html, "text/html");
        if (doc.body.dataset.version - document.body.dataset.version < 0) return; // crossed
        document.title = doc.title;
        for (const k of Object.keys(document.body.dataset)) {
          if (k !== "poll") delete document.body.dataset[k];
        }
        Object.assign(document.body.dataset, doc.body.dataset);
        $("main").replaceWith(doc.querySelector("main"));
        const { page, turn, you } = document.body.dataset;
        if (page === "play" && turn && turn === you) document.title = `● ${document.title}`;
        init();
      }, // no answer (an error of the page's own is still thrown): the player tries again
      () => offerNews(NEWS, () => refresh(init)),
    );
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
  show.addEventListener("click", () => redraw());
  news.appendChild(show);
  $("main").prepend(news);
}

const NEWS = "A move was made at the table: show it";

/** When its game moves on, a page is redrawn (``redraw(busy)``, the whole page by default),
    unless ``busy()``: then the news is offered (``news``, a button's words). A placing page
    hears only that play began or the game ended. */
export function redrawOnNews({ redraw = reload, busy = () => false, news = NEWS } = {}) {
  followTheGame((status) => {
    const placing = document.body.dataset.page === "setup";
    if (!placing && !busy()) redraw(busy);
    else if (!placing) offerNews(news, redraw);
    else if (status.phase !== "setup") offerNews("The game has moved on: show it", redraw);
  });
}
