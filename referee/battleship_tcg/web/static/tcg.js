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
import { startClocks } from "../../static/js/clock.js";
import { $, everyPage, pageData, postJson, problemLine, refusal } from "../../static/js/dom.js";
import { redrawOnNews } from "../../static/js/poll.js";
import { hintScroll } from "../../static/js/scrollhint.js";

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
  const posting = { last: Promise.resolve() }; // the drafts sent, one after another
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
  const firstDir = catalogue.directions[0]; // each new boat starts running this way
  /* The name of another boat (not the one at ``except``) that ``boat`` would lie on: boats
     share no hole (T4), so the page does not put one there. */
  const clash = (boat, except) => {
    const mine = new Set(holesOf(boat));
    const on = disp.boats.find((b, i) => i !== except && holesOf(b).some((n) => mine.has(n)));
    return on ? pieceName(on.type) : null;
  };

  /* Turn a placed boat to its next direction in which it lies on no other boat. */
  function turn(i) {
    const boat = disp.boats[i];
    const name = pieceName(boat.type);
    for (let d = nextDir(boat.dir); d !== boat.dir; d = nextDir(d)) {
      if (!clash({ ...boat, dir: d }, i)) {
        boat.dir = d;
        return `${name}: ${d}. Tap it again to turn it, or a hole to move it there.`;
      }
    }
    return `The ${name} cannot turn here without lying on another boat (T4): move it first.`;
  }

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
      if (at >= 0) {
        message = `The ${pieceName(disp.boats[at].type)} lies on ${hole}: tap an island hole `;
        message += `for the ${catalogue.man.name} (T5).`;
        return draw();
      }
      if (hole !== disp.man) disp.man = hole;
      chosen = null;
    } else if (chosen !== null) {
      const boat = disp.boats[chosen];
      if (holesOf(boat).includes(hole)) {
        message = turn(chosen); // tap the boat again: turn it (down, down-right, up-right)
      } else {
        const on = clash({ ...boat, at: hole }, chosen);
        if (on) {
          message = `The ${pieceName(boat.type)} from ${hole} would lie on the ${on}: boats `;
          message += "share no hole (T4). Tap free sea holes for it, or tap it to turn it.";
          return draw();
        }
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
      const on = clash({ type: kind, at: hole, dir }, -1);
      if (on) {
        message = `The ${pieceName(kind)} from ${hole} ${dir} would lie on the ${on}: boats `;
        message += "share no hole (T4). Tap another hole, or change its direction.";
        return draw();
      }
      disp.boats.push({ type: kind, at: hole, dir });
      kind = kinds.find((k) => !placed(k)) || null;
      dir = firstDir; // the next boat starts afresh: one boat's direction is not the next's
    }
    changed();
  }

  function changed() {
    draw();
    save();
  }

  /* Post the draft to ``url`` after every post before it has been answered (a later tap's
     draft is never overtaken by an earlier one), then ``then(ok, body)``. */
  function send(url, then) {
    const state = $("#save-state");
    const sent = { disposition: structuredClone(disp) };
    posting.last = posting.last
      .then(() => postJson(url, sent))
      .then((r) => r.json().then((body) => then(r.ok, body)))
      .catch(() => {
        state.textContent = "Not saved: no connection to the referee";
        draw();
      });
  }

  function save() {
    $("#save-state").textContent = "Saving…";
    send(data.urls.draft, (ok, body) => {
      problems = ok
        ? body.problems || []
        : [{ message: refusal(body, "The referee refused the draft"), squares: [] }];
      $("#save-state").textContent = ok ? "Saved" : "Not saved";
      draw();
    });
  }

  /* "Place the rest for me": the referee places what is left at random, legally (T4, T5). */
  function fillRest() {
    chosen = null;
    $("#tcg-fill").disabled = true;
    $("#save-state").textContent = "Placing the rest…";
    send(data.urls.fill, (ok, body) => {
      if (!ok) {
        message = refusal(body, "The referee could not place the rest");
        $("#save-state").textContent = "";
        return draw();
      }
      disp.boats = body.disposition.boats;
      disp.man = body.disposition.man;
      problems = body.problems || [];
      kind = kinds.find((k) => !placed(k)) || null;
      const n = body.placed.length;
      message = n
        ? `Placed the rest at random (${n} piece${n === 1 ? "" : "s"}): tap any to move it.`
        : "Nothing was left to place.";
      $("#save-state").textContent = "Saved";
      draw();
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
      li.textContent = problemLine(p);
      list.appendChild(li);
    }
    $("#tcg-lock").disabled = !kinds.every(placed) || problems.length > 0;
    $("#tcg-fill").disabled = kinds.every(placed);
    showChips();
  }

  $("#tcg-dir").addEventListener("click", () => {
    if (chosen !== null && chosen !== "man") {
      message = turn(chosen);
      changed();
    } else {
      dir = nextDir(dir);
      draw();
    }
  });
  $("#tcg-fill").addEventListener("click", fillRest);
  /* the chosen chip in sight, and a fade and an arrow where more chips are off the screen */
  const showChips = () => {
    $("#tcg-chips .on")?.scrollIntoView({ block: "nearest", inline: "nearest" });
    hintScroll($("#tcg-chips"));
  };
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

/* -- the end (T9): both halves, side by side where they are readable so, else one above the
   other, each the screen's width ---------------------------------------------------------- */

const READABLE_SIDE = 12; // a hexagon's side below which a half's holes are too small to read

function overPage(data) {
  const view = data.view;
  const them = otherSeat(view);
  const dispositions = { [view.you]: view.disposition };
  for (const [seat, shown] of Object.entries(view.revealed || {}))
    dispositions[seat] = shown.disposition;
  const pair = $("#tcg-pair-wrap .tcg-pair");
  const units = 1.5 * (comb.width - 1) + 2.3; // a half's width in hexagon sides, margins in
  /* The side that fits the screen: both halves abreast if they are readable so, else one
     above the other (pair.stacked), each across the screen. */
  const fit = () => {
    const across = $("#tcg-pair-wrap").clientWidth;
    const abreast = (across - 12) / 2 / units;
    pair.classList.toggle("stacked", abreast < READABLE_SIDE);
    return Math.min(PLACING_SIDE, abreast < READABLE_SIDE ? (across - 4) / units : abreast);
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
    side = side === ZOOMED_SIDE ? fit() : ZOOMED_SIDE;
    draw();
    return side === ZOOMED_SIDE;
  });
  draw();
}

const data = pageData();
if (data) {
  const page = document.body.dataset.page;
  if (page === "setup") placePage(data);
  else if (page === "over" || page === "postmortem") overPage(data);
  const busy = page === "play" ? playPage(data) : () => false;
  redrawOnNews({ busy, news: "A shot was made: show it" }); // a shot on the other phone
}
startClocks(); // the dispositions' clock and the move clock (R10, R25)
everyPage(); // one-tap forms, copy and print buttons, as on every page
