/* The phone pages of Battleship: The Tactical Combat Game: placing the fleet and the man on a
   honeycomb (T3-T5), shooting at the opponent's half as you know it (T7, T8), and both halves
   side by side at the end (T9). Every rule comes from the catalogue the page embeds; whether
   a placement or a shot is allowed is the referee's to say (the draft's problems, a refused
   shot's message), each with its ruling. */

import {
  boatHoles,
  drawHalf,
  knownHalf,
  makeHoneycomb,
  ownHalf,
  PLACING_SIDE,
  shotsAt,
} from "./honeycomb.js";
import { $, everyPage, pageData, postJson } from "../../static/js/dom.js";
import { reloadOnNews } from "../../static/js/reload.js";

const ZOOMED_SIDE = 24; // "Zoom in": bigger holes, panned like the Naval War Game's chart
const catalogue = JSON.parse(document.getElementById("rules-catalogue").textContent);
const comb = makeHoneycomb(catalogue);
const pieceName = (kind) =>
  kind === catalogue.man.type ? catalogue.man.name : catalogue.boats[kind].name;
const title = (seat) => seat.charAt(0).toUpperCase() + seat.slice(1);
const otherSeat = (view) => Object.keys(view.seats).find((s) => s !== view.you);

/* -- placing (T3-T5) ------------------------------------------------------------------------ */

function placePage(data) {
  const box = $("#tcg-place");
  const view = data.view;
  const islands = view.islands[view.you];
  const disp = { boats: [], man: null, ...(data.draft || {}) };
  const kinds = catalogue.order.concat([catalogue.man.type]);
  let kind = kinds.find((k) => !placed(k)) || null;
  let dir = catalogue.directions[0];
  let chosen = null; // a placed piece picked up: a boat's index, or "man"
  let problems = [];
  let message = "";
  let side = PLACING_SIDE;

  function placed(k) {
    return k === catalogue.man.type ? Boolean(disp.man) : disp.boats.some((b) => b.type === k);
  }
  const holesOf = (boat) => boatHoles(comb, catalogue, boat);
  const boatAt = (hole) => disp.boats.findIndex((b) => holesOf(b).includes(hole));
  const nextDir = (d) =>
    catalogue.directions[(catalogue.directions.indexOf(d) + 1) % catalogue.directions.length];

  function half() {
    const marks = {};
    disp.boats.forEach((boat, i) => {
      for (const n of holesOf(boat))
        marks[n] = { letter: catalogue.boats[boat.type].letter, boat: true, chosen: chosen === i };
    });
    if (disp.man)
      marks[disp.man] = { letter: catalogue.man.letter, man: true, chosen: chosen === "man" };
    for (const p of problems) {
      for (const n of p.squares || []) marks[n] = { ...(marks[n] || {}), problem: true };
    }
    const outlines =
      chosen !== null && chosen !== "man"
        ? [{ holes: holesOf(disp.boats[chosen]), kind: "chosen" }]
        : [];
    return { title: `Your half (${title(view.you)})`, islands, marks, outlines };
  }

  function tap(hole) {
    message = "";
    const at = boatAt(hole);
    if (chosen === "man") {
      if (hole === disp.man) chosen = null;
      else {
        disp.man = hole;
        chosen = null;
      }
    } else if (chosen !== null) {
      const boat = disp.boats[chosen];
      if (holesOf(boat).includes(hole)) {
        boat.dir = nextDir(boat.dir); // tap the boat again: turn it (down, down-right, up-right)
        message = `${pieceName(boat.type)}: ${boat.dir}. Tap it again to turn it, or a hole `;
        message += "to move it there.";
      } else {
        boat.at = hole;
        chosen = null;
      }
    } else if (at >= 0) {
      chosen = at;
      message = `${pieceName(disp.boats[at].type)} picked up: tap it to turn it, `;
      message += "tap a hole to move it there.";
    } else if (hole === disp.man) {
      chosen = "man";
      message = `${catalogue.man.name} picked up: tap an island hole to move him.`;
    } else if (kind === catalogue.man.type) {
      disp.man = hole;
      kind = kinds.find((k) => !placed(k)) || null;
    } else if (kind) {
      disp.boats.push({ type: kind, at: hole, dir });
      kind = kinds.find((k) => !placed(k)) || null;
    }
    changed();
  }

  function changed() {
    draw();
    save();
  }

  function save() {
    const state = $("#save-state");
    state.textContent = "Saving…";
    postJson(data.urls.draft, { disposition: disp })
      .then((r) => r.json().then((body) => ({ ok: r.ok, body })))
      .then(({ ok, body }) => {
        problems = ok ? body.problems || [] : [{ message: refusal(body), squares: [] }];
        state.textContent = ok ? "Saved" : "Not saved";
        draw();
      })
      .catch(() => {
        state.textContent = "Not saved: no connection to the referee";
      });
  }

  function draw() {
    drawHalf(box, comb, half(), {
      side,
      onTap: tap,
      label: (n) => `${n}${islands.includes(n) ? ", island" : ""}`,
    });
    const chips = $("#tcg-chips");
    chips.innerHTML = "";
    for (const k of kinds) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `chip${k === kind && chosen === null ? " on" : ""}${placed(k) ? " done" : ""}`;
      b.dataset.kind = k;
      const size = k === catalogue.man.type ? catalogue.man.holes : catalogue.boats[k].holes;
      b.textContent = `${pieceName(k)} ${size}${placed(k) ? " ✓" : ""}`;
      b.title = `${pieceName(k)}: ${size} hole${size === 1 ? "" : "s"}`;
      b.setAttribute("aria-pressed", String(k === kind && chosen === null));
      b.addEventListener("click", () => {
        kind = k;
        chosen = null;
        message = placed(k)
          ? `The ${pieceName(k)} is placed: tap it on the half to pick it up.`
          : "";
        draw();
      });
      chips.appendChild(b);
    }
    const picked =
      chosen === null ? null : chosen === "man" ? catalogue.man.type : disp.boats[chosen].type;
    $("#tcg-now").textContent = picked
      ? `${pieceName(picked)} picked up`
      : kind
        ? `Placing: ${pieceName(kind)}`
        : "All placed";
    const turn = $("#tcg-dir");
    turn.textContent = picked ? `Turn (${disp.boats[chosen]?.dir})` : `Runs ${dir}`;
    turn.hidden =
      picked === catalogue.man.type || (!picked && (!kind || kind === catalogue.man.type));
    $("#tcg-remove").hidden = picked === null;
    $("#tcg-message").textContent =
      message ||
      (kind === catalogue.man.type && chosen === null
        ? `Tap an island hole (shaded) for the ${catalogue.man.name}.`
        : kind && chosen === null
          ? `Tap the first hole of the ${pieceName(kind)}; it runs ${dir} from there.`
          : "");
    const list = $("#tcg-problems");
    list.innerHTML = "";
    for (const p of problems) {
      const li = document.createElement("li");
      li.textContent = p.rule ? `${p.rule}: ${p.message}` : p.message;
      list.appendChild(li);
    }
    $("#tcg-lock").disabled = !kinds.every(placed) || problems.length > 0;
  }

  $("#tcg-dir").addEventListener("click", () => {
    if (chosen !== null && chosen !== "man") {
      disp.boats[chosen].dir = nextDir(disp.boats[chosen].dir);
      changed();
    } else {
      dir = nextDir(dir);
      draw();
    }
  });
  $("#tcg-remove").addEventListener("click", () => {
    if (chosen === "man") disp.man = null;
    else if (chosen !== null) {
      kind = disp.boats[chosen].type;
      disp.boats.splice(chosen, 1);
    }
    if (chosen === "man") kind = catalogue.man.type;
    chosen = null;
    changed();
  });
  zoom(() => {
    side = side === PLACING_SIDE ? ZOOMED_SIDE : PLACING_SIDE;
    draw();
    return side !== PLACING_SIDE;
  });
  draw();
  if (problemsToShow(data)) {
    problems = data.problems;
    draw();
  }
}

/* What a refused request says: the error format of docs/api.md, every problem with its ruling. */
function refusal(body) {
  const errors = body?.errors || [];
  return (
    errors.map((e) => (e.rule ? `${e.rule}: ${e.message}` : e.message)).join("; ") ||
    "The referee refused the draft"
  );
}

const problemsToShow = (data) => Array.isArray(data.problems) && data.problems.length > 0;

function zoom(toggle) {
  const button = $("#tcg-zoom");
  if (!button) return;
  button.addEventListener("click", () => {
    const zoomed = toggle();
    button.textContent = zoomed ? "Whole half" : "Zoom in";
    button.setAttribute("aria-pressed", String(zoomed));
  });
}

/* -- playing (T7, T8) ----------------------------------------------------------------------- */

function playPage(data) {
  const view = data.view;
  const them = otherSeat(view);
  const shot = new Set(shotsAt(view, them).map((s) => s.at[0]));
  const yourTurn = view.turn === view.you && view.phase === "play";
  let target = null;
  let side = PLACING_SIDE;
  const input = $("#tcg-at");

  function draw() {
    const known = knownHalf(
      catalogue,
      `${title(them)}'s half as you know it`,
      view.islands[them],
      shotsAt(view, them),
      data.known[them],
    );
    if (target) known.marks[target] = { ...(known.marks[target] || {}), chosen: true };
    drawHalf($("#tcg-theirs"), comb, known, {
      side,
      onTap: yourTurn ? tap : null,
      label: (n) =>
        `${n}${view.islands[them].includes(n) ? ", island" : ""}${shot.has(n) ? ", shot" : ""}`,
    });
    drawHalf(
      $("#tcg-mine"),
      comb,
      ownHalf(
        comb,
        catalogue,
        `Your half (${title(view.you)}) and ${title(them)}'s shots`,
        view.islands[view.you],
        view.disposition,
        shotsAt(view, view.you),
      ),
      { side: 11 },
    );
    if (input) {
      input.value = target || input.value;
      $("#tcg-fire").textContent = target ? `Fire at ${target}` : "Fire";
      $("#tcg-fire").disabled = !input.value.trim();
    }
  }

  function tap(hole) {
    if (shot.has(hole)) {
      $("#tcg-shot-note").textContent = `${hole} has been shot already (T7): choose another hole.`;
      return;
    }
    $("#tcg-shot-note").textContent = "";
    target = target === hole ? null : hole;
    draw();
  }

  if (input) {
    input.addEventListener("input", () => {
      const at = comb.parse(input.value);
      target = at ? comb.name(...at) : null;
      draw();
    });
  }
  zoom(() => {
    side = side === PLACING_SIDE ? ZOOMED_SIDE : PLACING_SIDE;
    draw();
    return side !== PLACING_SIDE;
  });
  draw();
  return () => target !== null; // busy: a hole is chosen, so a shot at the table waits
}

/* -- the end (T9): both halves side by side ----------------------------------------------- */

function overPage(data) {
  const view = data.view;
  const them = otherSeat(view);
  const dispositions = { [view.you]: view.disposition };
  for (const [seat, shown] of Object.entries(view.revealed || {}))
    dispositions[seat] = shown.disposition;
  const fit = () => {
    const across = $("#tcg-pair-wrap").clientWidth;
    return Math.max(5, Math.min(PLACING_SIDE, (across - 12) / 2 / (1.5 * (comb.width - 1) + 2.3)));
  };
  let side = fit();
  function draw() {
    for (const seat of [view.you, them]) {
      drawHalf(
        $(`#tcg-half-${seat}`),
        comb,
        ownHalf(
          comb,
          catalogue,
          `${title(seat)}'s half`,
          view.islands[seat],
          dispositions[seat],
          shotsAt(view, seat),
          side >= PLACING_SIDE,
        ),
        { side },
      );
    }
  }
  zoom(() => {
    side = side === PLACING_SIDE ? fit() : PLACING_SIDE;
    draw();
    return side === PLACING_SIDE;
  });
  draw();
}

const data = pageData();
if (data) {
  const page = document.body.dataset.tcgPage;
  if (page === "place") placePage(data);
  else if (page === "over") overPage(data);
  const busy = page === "play" ? playPage(data) : () => false;
  reloadOnNews(busy, $("#tcg-news")); // a shot on the other phone redraws this one
}
everyPage(); // one-tap forms, copy and print buttons, as on every page
