/* The move clock (R10), and polling the status by ETag: a move made at the table redraws
   the page, or (mid-move) offers to. `session`: { busy: () => bool | null, ticking: [] }. */
import { $ } from "./dom.js";

const clockText = (left) =>
  left ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left` : "time is up";

/** Tick every [data-deadline] clock each second, on the server's time (data-now). */
export function clocks(session) {
  for (const id of session.ticking.splice(0)) clearInterval(id);
  for (const el of document.querySelectorAll("[data-deadline]")) {
    const skew = Number.parseFloat(el.dataset.now) * 1000 - Date.now();
    const out = $(".clock-left", el);
    const tick = () => {
      const due = Number.parseFloat(el.dataset.deadline) * 1000;
      const left = Math.max(0, Math.round((due - Date.now() - skew) / 1000));
      out.textContent = clockText(left);
      el.classList.toggle("late", left === 0);
      if (!left) {
        for (const b of document.querySelectorAll("[data-enable-at]")) b.disabled = false;
      }
    };
    tick();
    session.ticking.push(setInterval(tick, 1000));
  }
}

/** Fetch this page afresh and swap its main in: no reload, no lost scroll of the whole page. */
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
      init();
    });
}

function offerNews(session, init) {
  const news = $("#news") || document.createElement("p");
  news.id = "news";
  news.className = "flash";
  news.setAttribute("role", "status");
  news.innerHTML = "";
  const show = document.createElement("button");
  show.type = "button";
  show.className = "button secondary";
  show.textContent = "A move was made at the table: show it";
  show.addEventListener("click", () => {
    session.busy = null;
    refresh(init);
  });
  news.appendChild(show);
  $("main").prepend(news);
}

/** Poll body[data-poll] every two seconds; init() sets the page up again after a swap. */
export function poll(session, init) {
  const body = document.body;
  const url = body.dataset.poll;
  if (!url) return;
  const seen = { etag: null, last: null };
  const changed = (st) => {
    const last = seen.last;
    const yourTurn = st.phase === "play" && st.turn === st.you;
    const page = body.dataset.page;
    if (last && st.version !== last.version) {
      if (yourTurn && last.turn !== st.you && navigator.vibrate) navigator.vibrate([120, 60, 120]);
      const busy = session.busy?.();
      if (page !== "setup" && !busy) refresh(init);
      else if (page !== "setup" || st.phase !== last.phase) offerNews(session, init);
    }
    document.title = (yourTurn ? "● " : "") + document.title.replace(/^● /, "");
    seen.last = st;
  };
  const check = () => {
    const headers = { Accept: "application/json" };
    if (seen.etag) headers["If-None-Match"] = seen.etag;
    return fetch(url, { headers, cache: "no-store" })
      .then((r) => {
        if (r.status === 304) return null;
        seen.etag = r.headers.get("ETag");
        return r.json();
      })
      .then((st) => {
        if (st && !st.errors) changed(st);
      })
      .catch(() => {});
  };
  check();
  setInterval(check, 2000);
}
