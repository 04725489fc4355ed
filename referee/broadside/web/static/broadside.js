/* The phone pages of Broadside: setting up by tapping ships onto start crosses and, for Blue,
   marking the buoys and batteries (B3, B4); playing by tapping a ship, then a cross it can reach
   (B5); waiting for the other phone. The harbour itself is drawn by the referee (the one
   drawing, as SVG in the page); this script only marks crosses on it. Which moves are legal
   comes from the view's "legal" list and what is wrong with a setup from the referee's
   answer to each draft: no rule is written here. */

import { startClocks } from "../../static/js/clock.js";
import {
  $,
  $$,
  everyPage,
  fillList,
  pageData,
  postJson,
  problemLine,
  refusal,
} from "../../static/js/dom.js";
import { redrawOnNews } from "../../static/js/poll.js";

/** The cross, buoy or battery a tap on the harbour landed on. */
function tapped(event) {
  const site = event.target.closest("[data-site]");
  if (site) return { site: site.dataset.site };
  const cross = event.target.closest("[data-cross]");
  return cross ? { cross: cross.dataset.cross } : null;
}

function onHarbour(box, handler) {
  box.addEventListener("click", (event) => {
    const where = tapped(event);
    if (where) handler(where);
  });
  box.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const where = tapped(event);
    if (where) {
      event.preventDefault();
      handler(where);
    }
  });
}

function showProblems(problems) {
  fillList($("#bs-problems"), problems.map(problemLine));
}

/* -- setting up (B3, B4) -------------------------------------------------------------------- */

function setupPage(data) {
  const box = $("#bs-board");
  const blue = data.you === "blue";
  const draft = {
    ships: [...(data.draft.ships || [])],
    ...(blue ? { buoys: { ...(data.draft.buoys || {}) } } : {}),
    ...(blue ? { batteries: { ...(data.draft.batteries || {}) } } : {}),
  };
  const starts = new Set(data.starts);
  const yellow = new Set(data.yellow);
  let kind = null;
  let problems = data.problems || [];
  let message = "";
  let saving = 0;

  const placed = (type) => draft.ships.filter((s) => s.type === type).length;
  const left = (type) => data.fleet[type] - placed(type);
  const firstLeft = () => data.order.find((type) => left(type) > 0) || null;
  kind = firstLeft();

  function cycle(value, values) {
    const i = values.indexOf(value);
    return values[(i + 1) % values.length];
  }

  function tap(where) {
    message = "";
    if (where.site) {
      if (!blue) {
        message = "Only Blue marks the shore batteries (B4).";
        return draw();
      }
      const next = cycle(draft.batteries[where.site] ?? null, [null, "hit", "miss"]);
      if (next) draft.batteries[where.site] = next;
      else delete draft.batteries[where.site];
      message = `Battery ${where.site}: ${next ? next.toUpperCase() : "not marked"}.`;
      return changed(where);
    }
    const at = where.cross;
    if (yellow.has(at) && blue) {
      const next = cycle(draft.buoys[at] ?? null, [null, "sink", "pass"]);
      if (next) draft.buoys[at] = next;
      else delete draft.buoys[at];
      message = `Buoy at ${at}: ${next ? next.toUpperCase() : "not marked"}.`;
      return changed(where);
    }
    const here = draft.ships.findIndex((s) => s.at === at);
    if (here >= 0) {
      kind = draft.ships[here].type;
      draft.ships.splice(here, 1);
      message = `${data.names[kind]} taken off ${at}: tap a start cross to place it again.`;
      return changed(where);
    }
    if (!starts.has(at)) {
      message = `${at} is not one of your start crosses (shaded, B3).`;
      return draw();
    }
    if (!kind || left(kind) <= 0) kind = firstLeft();
    if (!kind) {
      message = "All ten ships are placed: tap one to take it off.";
      return draw();
    }
    draft.ships.push({ type: kind, at });
    if (left(kind) <= 0) kind = firstLeft();
    return changed(where);
  }

  function changed(where) {
    const mark = where.cross
      ? $(`g.tap[data-cross="${where.cross}"]`, box)
      : $(`[data-site="${where.site}"]`, box);
    if (mark) mark.classList.add("pending");
    draw();
    save();
  }

  function save() {
    const state = $("#save-state");
    state.textContent = "Saving…";
    saving += 1;
    const mine = saving;
    postJson(data.urls.draft, { disposition: draft })
      .then((r) => r.json().then((body) => ({ ok: r.ok, body })))
      .then(({ ok, body }) => {
        if (mine !== saving) return; // a later tap's answer will come
        problems = ok
          ? body.problems || []
          : [{ message: refusal(body, "The referee refused the draft") }];
        if (ok && body.board) box.innerHTML = body.board;
        state.textContent = ok ? "Saved" : "Not saved";
        draw();
      })
      .catch(() => {
        state.textContent = "Not saved: no connection to the referee";
      });
  }

  function draw() {
    const chips = $("#bs-chips");
    chips.innerHTML = "";
    for (const type of data.order) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `chip${type === kind ? " on" : ""}${left(type) === 0 ? " done" : ""}`;
      b.dataset.kind = type;
      b.textContent = `${data.names[type]} ${left(type)}/${data.fleet[type]}`;
      b.setAttribute("aria-pressed", String(type === kind));
      b.addEventListener("click", () => {
        kind = type;
        message = left(type) > 0 ? "" : `Every ${data.names[type]} is placed.`;
        draw();
      });
      chips.appendChild(b);
    }
    const count = draft.ships.length;
    const secrets = blue
      ? ` Buoys marked ${Object.keys(draft.buoys).length} of ${data.yellow.length}, batteries ${
          Object.keys(draft.batteries).length
        } of ${data.sites.length}.`
      : "";
    $("#bs-now").textContent = `${count} of 10 ships placed.${secrets}`;
    $("#bs-message").textContent =
      message ||
      (kind
        ? `Tap a start cross for a ${data.names[kind]}.`
        : blue
          ? "Tap a yellow circle for SINK or PASS, a battery for HIT or MISS."
          : "All placed: lock in when ready.");
    showProblems(problems);
    const complete =
      count === 10 &&
      (!blue ||
        (Object.keys(draft.buoys).length === data.yellow.length &&
          Object.keys(draft.batteries).length === data.sites.length));
    $("#bs-lock").disabled = !complete || problems.length > 0;
  }

  onHarbour(box, tap);
  draw();
}

/* -- playing (B5): tap a ship, then where it goes ------------------------------------------- */

const TURN_WORDS = { null: "ahead", left: "turn left", right: "turn right", about: "turn about" };

function playPage(data) {
  const view = data.view;
  const box = $("#bs-board");
  const form = $("#bs-move");
  const legal = view.legal || [];
  const moves = new Map(); // ship's cross -> its legal moves
  for (const m of legal) {
    if (m.ship) moves.set(m.ship, [...(moves.get(m.ship) || []), m]);
  }
  const ships = new Map(view.ships.map((s) => [s.at, s]));
  let chosen = null;
  let turn = "all";
  let move = null;

  const name = (s) => s.name || data.names[s.type]; // "Frigate 2": told apart from the others
  const shown = () =>
    (moves.get(chosen) || []).filter((m) => turn === "all" || String(m.turn) === turn);

  function mark() {
    for (const g of $$("g.tap", box)) g.classList.remove("chosen", "dest", "picked");
    if (!chosen) return;
    $(`g.tap[data-cross="${chosen}"]`, box)?.classList.add("chosen");
    for (const m of shown()) $(`g.tap[data-cross="${m.to}"]`, box)?.classList.add("dest");
    if (move) $(`g.tap[data-cross="${move.to}"]`, box)?.classList.add("picked");
  }

  function say(text) {
    $("#bs-note").textContent = text;
  }

  function turns() {
    const row = $("#bs-turns");
    row.innerHTML = "";
    row.hidden = !chosen;
    if (!chosen) return;
    const have = new Set((moves.get(chosen) || []).map((m) => String(m.turn)));
    for (const t of ["all", "null", "left", "right", "about"]) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `chip${t === turn ? " on" : ""}`;
      b.dataset.turn = t;
      b.textContent = t === "all" ? "Every way" : TURN_WORDS[t];
      b.disabled = t !== "all" && !have.has(t);
      b.setAttribute("aria-pressed", String(t === turn));
      b.addEventListener("click", () => {
        turn = t;
        move = null;
        update();
      });
      row.appendChild(b);
    }
  }

  function update() {
    mark();
    turns();
    $("#bs-ship").value = move ? move.ship : "";
    $("#bs-turn").value = move?.turn ?? "";
    $("#bs-to").value = move ? move.to : "";
    const go = $("#bs-go");
    go.disabled = !move;
    go.textContent = move ? `Sail to ${move.to}` : "Sail";
    if (move) {
      const ship = ships.get(move.ship);
      say(
        `${name(ship)} at ${move.ship}: ${move.turn ? `${TURN_WORDS[move.turn]}, then ` : ""}` +
          `sail to ${move.to}.`,
      );
    } else if (chosen) {
      const n = shown().length;
      say(
        `${name(ships.get(chosen))} at ${chosen}: ${n} cross${n === 1 ? "" : "es"} ` +
          "it can reach, marked. Tap one.",
      );
    }
  }

  function tap(where) {
    const at = where.cross;
    if (!at) return;
    if (chosen && at === chosen) {
      chosen = null;
      move = null;
      say("Tap one of your ships.");
      return update();
    }
    const reach = shown().find((m) => m.to === at);
    if (chosen && reach) {
      move = reach;
      return update();
    }
    const ship = ships.get(at);
    if (ship && ship.side === view.you) {
      if (!moves.has(at)) {
        say(`Your ${name(ship)} at ${at} has no legal move (B5): choose another ship.`);
        return;
      }
      chosen = at;
      turn = "all";
      move = null;
      return update();
    }
    if (chosen) say(`${at} cannot be reached by that ship this turn (B5).`);
  }

  if (form && moves.size) {
    onHarbour(box, tap);
    say("Tap one of your ships.");
  }
  return () => chosen !== null;
}

const data = pageData();
if (data) {
  const page = document.body.dataset.page;
  if (page === "setup") setupPage(data);
  const busy = page === "play" ? playPage(data) : () => false;
  redrawOnNews({ busy, news: "A move was made: show it" }); // a move on the other phone
}
startClocks(); // the dispositions' clock and the move clock (R10, R25)
everyPage(); // one-tap forms, copy and print buttons, as on every page
document.body.dataset.ready = document.body.dataset.page || "yes"; // its taps are live
