/* Broadsides and Boarding Parties' phone pages. The sea and the decks are drawn by the referee
   (SVG in the page, from the view); this script sails the ships on the sea card by card as the
   cards are turned up (BB5), fills the orders' plain forms from taps: a plot from the hand of
   fifteen cards (BB4, BB6), a volley's targets (BB10), a promotion (BB7), a boarding turn of
   three movements (BB21), the Captain's cell in setup (BB16); and follows the game. Where a
   plot takes the ship, what is legal and where a piece may step come from the page's data,
   made from the view by the referee: no rule is written here, and the referee judges every
   order. */

import { startClocks } from "../../static/js/clock.js";
import { $, $$, everyPage, pageData, postJson, refusal } from "../../static/js/dom.js";
import { redrawOnNews, refresh } from "../../static/js/poll.js";

const SVG = "http://www.w3.org/2000/svg";
const KINDS = ["forward", "starboard", "port", "stay", "damaged"]; // the hand's columns
const STEP_MS = 950; // a card turned up, then the next

/** A seed of this phone's own, 32 hex digits from its cryptographic source (BB24). */
function phoneSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function svgNode(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Where a dot of the sea is on the drawing (the referee's geometry: the page's data). */
function seaPoint(sea, dot) {
  const [column, row] = dot.split(" ");
  return [sea.label + sea.columns.indexOf(column) + 0.5, sea.label + Number(row) - 0.5];
}

/** Calls handler(place, event) on a tap (or Enter) on a cell of the decks. */
function onCells(svg, handler) {
  const pick = (event) => event.target.closest("g.tap[data-place]");
  svg.addEventListener("click", (event) => {
    const cell = pick(event);
    if (cell) handler(cell.dataset.place, event);
  });
  svg.addEventListener("keydown", (event) => {
    const cell = pick(event);
    if (cell && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      handler(cell.dataset.place, event);
    }
  });
}

function cellOf(svg, place) {
  return svg.querySelector(`g.tap[data-place="${place}"]`);
}

function centreOf(svg, place) {
  const rect = cellOf(svg, place)?.querySelector("rect");
  if (!rect) return null;
  return [Number(rect.getAttribute("x")) + 0.5, Number(rect.getAttribute("y")) + 0.5];
}

/* -- the sea, card by card (BB2, BB5) ------------------------------------------------------ */

function seaSteps(data) {
  const svg = $("#bb-sea");
  const bar = $("#bb-steps");
  const frames = data.frames || [];
  // the cards turned up since this phone last looked are turned up again, one at a time
  const key = `bb-seen:${data.id}:${data.you}`;
  const last = frames.length ? frames[frames.length - 1].n : 0;
  const seen = Number.parseInt(localStorage.getItem(key) ?? "", 10);
  localStorage.setItem(key, String(last));
  if (!svg || !bar || frames.length < 2) return;
  const ships = {};
  for (const g of $$("g.bb-ship", svg)) ships[g.dataset.seat] = g;
  const angles = {}; // each ship's angle so far: turning 315 -> 0 goes the short way
  const step = { at: frames.length - 1, timer: null };
  const fire = svgNode("line", { class: "fire", x1: 0, y1: 0, x2: 0, y2: 0 });
  fire.style.display = "none";
  svg.appendChild(fire);

  function place(seat, ship, animate) {
    const g = ships[seat];
    if (!g) return;
    const [x, y] = seaPoint(data.sea, ship.at);
    const want = (360 / data.sea.headings.length) * data.sea.headings.indexOf(ship.heading);
    const before = angles[seat] ?? want;
    const turn = ((((want - before) % 360) + 540) % 360) - 180;
    angles[seat] = before + turn;
    if (!animate) g.style.transition = "none";
    g.style.transform = `translate(${x}px, ${y}px) rotate(${angles[seat]}deg)`;
    if (!animate) {
      g.getBoundingClientRect(); // the jump is made before the stylesheet eases again
      g.style.transition = "";
    }
  }

  function caption(frame) {
    if (frame.what === "start") return frame.text;
    if (frame.what === "volley") {
      const hits = frame.shots.filter((s) => s.effect !== "miss").length;
      const title = frame.final ? "the final volley" : "a volley";
      return `Round ${frame.round}: ${title}, ${frame.shots.length} fired, ${hits} hit.`;
    }
    return `Round ${frame.round}: ${frame.text}`;
  }

  function show(i, animate) {
    step.at = Math.max(0, Math.min(frames.length - 1, i));
    const frame = frames[step.at];
    for (const [seat, ship] of Object.entries(frame.ships)) place(seat, ship, animate);
    const [a, b] = Object.values(frame.ships).map((s) => seaPoint(data.sea, s.at));
    const firing = frame.what === "volley" && a && b;
    fire.style.display = firing ? "" : "none";
    if (firing) {
      for (const [k, v] of Object.entries({ x1: a[0], y1: a[1], x2: b[0], y2: b[1] })) {
        fire.setAttribute(k, v);
      }
    }
    $("#bb-step-text").textContent = caption(frame);
    $("#bb-prev").disabled = step.at === 0;
    $("#bb-next").disabled = step.at === frames.length - 1;
  }

  function stop() {
    clearTimeout(step.timer);
    step.timer = null;
  }

  function play(from) {
    show(from, false);
    const next = () => {
      // the page was redrawn (the game moved on): this sea is gone, and so is its turning up
      if (!svg.isConnected || step.at >= frames.length - 1) return stop();
      show(step.at + 1, true);
      step.timer = setTimeout(next, STEP_MS);
    };
    step.timer = setTimeout(next, STEP_MS / 2);
  }

  bar.hidden = false;
  $("#bb-prev").addEventListener("click", () => {
    stop();
    show(step.at - 1, true);
  });
  $("#bb-next").addEventListener("click", () => {
    stop();
    show(step.at + 1, true);
  });
  const from = frames.findIndex((f) => f.n === seen);
  if (data.phase === "play" && Number.isFinite(seen) && seen < last && from >= 0) play(from);
  else show(frames.length - 1, false);
}

/* -- a plot: three cards from the hand (BB4, BB6) ------------------------------------------ */

function plotPanel(data, session) {
  const legal = data.legal;
  const selects = [1, 2, 3].map((n) => $(`#card${n}`));
  const slots = selects.map((s) => s.value || null);
  const required = legal.damaged;
  const state = { next: slots.indexOf(null), touched: false, message: "" };
  const hand = $("#bb-hand");
  const note = $("#bb-plot-note");
  const seal = $("#bb-seal");
  const sea = $("#bb-sea");
  const count = (card) => slots.filter((c) => c === card).length;
  const empty = () => slots.filter((c) => c === null).length;
  const name = (card) => data.cards[card].name;

  const buttons = selects.map((select, i) => {
    select.hidden = true;
    select.previousElementSibling.hidden = true;
    const b = document.createElement("button");
    b.type = "button";
    b.id = `bb-slot-${i + 1}`;
    b.addEventListener("click", () => tapSlot(i));
    select.parentElement.appendChild(b);
    return b;
  });

  function tapSlot(i) {
    state.touched = true;
    state.message = "";
    if (required >= 3) {
      state.message = "With three Damaged cards required your ship cannot move (BB6).";
    } else if (slots[i] !== null) {
      state.message = `${name(slots[i])} taken back from card ${i + 1}.`;
      slots[i] = null;
      state.next = i;
    } else {
      state.next = i;
    }
    update();
  }

  function tapCard(card) {
    state.touched = true;
    state.message = "";
    if (state.next < 0 || slots[state.next] !== null) state.next = slots.indexOf(null);
    if (state.next < 0) {
      state.message = "Three cards are plotted: tap a card in a slot to take it back.";
    } else if (card === "damaged" && count("damaged") >= required) {
      state.message = required
        ? `Exactly ${required} Damaged card${required === 1 ? "" : "s"} this round, ` +
          "never one more (BB6)."
        : "No Damaged card is required this round: your ship is whole (BB6).";
    } else if (card !== "damaged" && empty() - 1 < required - count("damaged")) {
      state.message = "Leave a slot for the Damaged card you must play (BB6).";
    } else {
      slots[state.next] = card;
      state.next = slots.indexOf(null);
    }
    update();
  }

  const chips = [];
  for (let copy = 0; copy < 3; copy += 1) {
    for (const card of KINDS) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `hand-card card-${card}`;
      b.dataset.card = card;
      b.dataset.copy = String(copy);
      const mark = document.createElement("span");
      mark.className = "hand-mark";
      mark.textContent = data.cards[card].mark;
      const label = document.createElement("span");
      label.className = "hand-name";
      label.textContent = data.cards[card].short;
      b.append(mark, label);
      b.setAttribute("aria-label", name(card));
      b.addEventListener("click", () => tapCard(card));
      hand.appendChild(b);
      chips.push(b);
    }
  }
  hand.hidden = false;

  /** The plot so far as the referee's paths tell it: each card's dot, heading and whether a
      Move Forward was not made ("C 6 NE!") or the card not played ("~"). */
  function plottedPath() {
    const plotted = [];
    for (const card of slots) {
      if (card === null) break;
      plotted.push(card);
    }
    if (!plotted.length || !data.paths) return [];
    const key = [...plotted, ...KINDS.slice(0, 3 - plotted.length)].join(",");
    return (data.paths[key] || []).slice(0, plotted.length).map((step) => {
      const [column, row, heading] = step.replace(/[!~]$/, "").split(" ");
      return { at: `${column} ${row}`, heading, blocked: step.endsWith("!") };
    });
  }

  function preview() {
    for (const n of $$(".plot-preview", sea || document)) n.remove();
    const path = plottedPath();
    const ship = sea?.querySelector(`g.bb-ship[data-seat="${data.you}"]`);
    if (!path.length || !ship) return;
    const group = svgNode("g", { class: "plot-preview" });
    const start = data.frames.length ? data.frames[data.frames.length - 1].ships[data.you] : null;
    const points = [start, ...path].filter(Boolean).map((p) => seaPoint(data.sea, p.at));
    group.appendChild(svgNode("polyline", { class: "plot-line", points: points.join(" ") }));
    const ghost = ship.cloneNode(true);
    ghost.removeAttribute("style");
    ghost.setAttribute("class", `${ship.getAttribute("class")} ghost`);
    const end = path[path.length - 1];
    const [gx, gy] = seaPoint(data.sea, end.at);
    const angle = (360 / data.sea.headings.length) * data.sea.headings.indexOf(end.heading);
    ghost.setAttribute("transform", `translate(${gx} ${gy}) rotate(${angle})`);
    group.appendChild(ghost);
    const onDot = {}; // the cards that leave the ship on one dot: their numbers side by side
    for (const p of path) onDot[p.at] = (onDot[p.at] || 0) + 1;
    const placed = {};
    path.forEach((p, i) => {
      const [x, y] = seaPoint(data.sea, p.at);
      const nth = placed[p.at] || 0;
      placed[p.at] = nth + 1;
      const dx = 0.42 * (nth - (onDot[p.at] - 1) / 2);
      const cls = `plot-step${p.blocked ? " blocked" : ""}`;
      group.appendChild(svgNode("circle", { class: cls, cx: x + dx, cy: y - 0.42, r: 0.2 }));
      const number = { class: "plot-number", x: x + dx, y: y - 0.33, "font-size": 0.26 };
      group.appendChild(svgNode("text", { ...number, "text-anchor": "middle" }, String(i + 1)));
    });
    sea.appendChild(group);
    const stop = path.find((p) => p.blocked);
    if (stop && !state.message) {
      state.message =
        `An island or the edge lies ahead of ${stop.at}: the ship stays there and ` +
        "its later cards are lost (BB3).";
    }
  }

  function update() {
    selects.forEach((select, i) => {
      select.value = slots[i] ?? "";
    });
    buttons.forEach((b, i) => {
      const card = slots[i];
      b.className = card ? "filled" : "";
      if (card === "damaged") b.classList.add("required");
      if (i === state.next) b.classList.add("next");
      b.innerHTML = "";
      const parts = [
        ["slot-n", `Card ${i + 1}`],
        ["slot-mark", card ? data.cards[card].mark : "?"],
        ["slot-name", card ? data.cards[card].short : "tap a card"],
      ];
      for (const [cls, text] of parts) {
        const span = document.createElement("span");
        span.className = cls;
        span.textContent = text;
        b.appendChild(span);
      }
      b.setAttribute("aria-label", `Card ${i + 1}: ${card ? name(card) : "empty"}`);
    });
    for (const chip of chips) {
      const card = chip.dataset.card;
      const used = Number(chip.dataset.copy) < count(card);
      chip.classList.toggle("used", used);
      chip.setAttribute("aria-pressed", String(used));
      // a Damaged card beyond those required, or any other card while every empty slot
      // is owed a Damaged one, cannot be played (BB6)
      const copy = Number(chip.dataset.copy);
      chip.disabled =
        card === "damaged"
          ? copy >= required
          : required >= 3 || (!used && empty() <= required - count("damaged"));
    }
    preview();
    const missing = required - count("damaged");
    const ready = empty() === 0 && missing === 0;
    seal.disabled = !ready;
    seal.textContent = ready
      ? `Seal my plot: ${slots.map((c) => data.cards[c].mark).join(" ")}`
      : "Seal my plot";
    note.textContent =
      state.message ||
      (ready
        ? "Ready: sealed until both plots are in, then turned up one at a time (BB5)."
        : missing > 0 && empty() === missing
          ? `Place the Damaged card${missing === 1 ? "" : "s"} you must play (BB6).`
          : `Tap a card from your hand for card ${state.next + 1}.`);
  }

  update();
  session.busy = () => state.touched;
}

/* -- a volley's targets (BB9, BB10) -------------------------------------------------------- */

function volleyPanel(data, session) {
  const legal = data.legal;
  const decks = $("#bb-decks");
  const fire = $("#bb-fire");
  const note = $("#bb-volley-note");
  const state = { touched: false };
  const chosen = (cell) => $(`input[name="target-${cell}"]:checked`);

  function aimAll(section) {
    state.touched = true;
    for (const cell of legal.cannons) {
      const radio = $(`input[name="target-${cell}"][value="${section}"]`);
      if (radio) radio.checked = true;
    }
    update();
  }

  function update() {
    const aims = legal.cannons.map((cell) => [cell, chosen(cell)?.value]);
    const ready = aims.every(([, v]) => v !== undefined);
    fire.disabled = !ready;
    const said = aims.map(([c, v]) => `${c} → ${v === undefined ? "?" : v || "hold"}`);
    fire.textContent = ready ? `Seal my targets: ${said.join(", ")}` : "Seal my targets";
    note.textContent = ready
      ? "Ready: sealed until both have declared (BB10)."
      : `Name a target, or hold, for ${aims.filter(([, v]) => v === undefined).length} more.`;
    if (!decks) return;
    const targets = new Set(aims.map(([, v]) => v).filter(Boolean));
    for (const g of $$(`g.tap[data-place^="${data.them} "]`, decks)) {
      g.classList.toggle("target", targets.has(g.dataset.section));
    }
  }

  $("#bb-all-at").hidden = false;
  for (const b of $$("[data-all]")) b.addEventListener("click", () => aimAll(b.dataset.all));
  $("#bb-targets").addEventListener("change", () => {
    state.touched = true;
    update();
  });
  if (decks) {
    onCells(decks, (place) => {
      const [ship, cell] = place.split(" ");
      if (ship === data.them) aimAll(cell[0]);
    });
  }
  update();
  session.busy = () => state.touched;
}

/* -- a promotion (BB7) --------------------------------------------------------------------- */

function promotionPanel(data) {
  const decks = $("#bb-decks");
  const crew = new Set(data.crew || []);
  const update = () => {
    const picked = $('input[name="promote"]:checked')?.value;
    for (const g of $$("g.tap", decks)) {
      g.classList.toggle("crew-pick", crew.has(g.dataset.place));
      g.classList.toggle("picked", g.dataset.place === picked);
    }
  };
  onCells(decks, (place) => {
    const radio = $(`input[name="promote"][value="${place}"]`);
    if (radio) radio.checked = true;
    update();
  });
  $("#bb-promote").addEventListener("change", update);
  update();
}

/* -- a boarding turn: three movements (BB21) ----------------------------------------------- */

function boardingPanel(data, session) {
  const legal = data.legal;
  const decks = $("#bb-decks");
  const form = $("#bb-order");
  const note = $("#bb-board-note");
  const go = $("#bb-board-go");
  const toggle = $("#bb-captain");
  const moves = [];
  const state = { chosen: null, captain: false, message: "" };

  // each side's pieces by place, after the movements so far
  function pieces() {
    const mine = new Map();
    const theirs = new Map();
    for (const [seat, crew] of Object.entries(data.crews)) {
      const into = seat === data.you ? mine : theirs;
      for (const [place, n] of Object.entries(crew.crew)) {
        into.set(place, { crew: n, captain: false });
      }
      if (crew.captain) {
        const at = into.get(crew.captain) || { crew: 0, captain: false };
        into.set(crew.captain, { ...at, captain: true });
      }
    }
    for (const m of moves) {
      const from = mine.get(m.from);
      const to = mine.get(m.to) || { crew: 0, captain: false };
      if (m.captain) {
        from.captain = false;
        to.captain = true;
      } else {
        from.crew -= 1;
        to.crew += 1;
      }
      mine.set(m.to, to);
    }
    return { mine, theirs };
  }

  const size = (at) => (at ? at.crew + (at.captain ? 1 : 0) : 0);

  /** Where a piece at ``place`` may step now: the first movement as the view's legal
      description says, later ones by the deck's steps, what stands there and the limit. */
  function reach(place, captain, now) {
    if (size(now.theirs.get(place)) > 0) return []; // it stopped in an enemy's cell
    if (!moves.length) {
      const listed = legal.pieces.find((p) => p.from === place && p.captain === captain);
      return listed ? listed.to : [];
    }
    return (data.steps[place] || []).filter((p) => size(now.mine.get(p)) < data.most_in_cell);
  }

  function movable(now) {
    const found = [];
    for (const [place, at] of now.mine) {
      if (at.crew > 0 && reach(place, false, now).length) found.push(place);
      else if (at.captain && reach(place, true, now).length) found.push(place);
    }
    return found;
  }

  function tap(place) {
    state.message = "";
    if (moves.length >= data.movements) {
      state.message = "Three movements made: board, or undo one.";
      return update();
    }
    const now = pieces();
    if (state.chosen && reach(state.chosen, state.captain, now).includes(place)) {
      moves.push({ from: state.chosen, to: place, captain: state.captain });
      state.chosen = null;
      return update();
    }
    const at = now.mine.get(place);
    if (place === state.chosen) {
      state.chosen = null;
    } else if (at && size(at) > 0) {
      const crewCan = at.crew > 0 && reach(place, false, now).length > 0;
      const captainCan = at.captain && reach(place, true, now).length > 0;
      if (!crewCan && !captainCan) {
        state.message =
          size(now.theirs.get(place)) > 0
            ? `Your pieces at ${place} are in an enemy's cell: they stop there and fight (BB21).`
            : `No piece at ${place} can step anywhere (BB16: three of yours at most in a cell).`;
      } else {
        state.chosen = place;
        state.captain = !crewCan;
      }
    } else if (state.chosen) {
      state.message = `${place} is not one step from ${state.chosen} (BB21).`;
    } else {
      state.message = `None of your pieces stands at ${place}.`;
    }
    update();
  }

  function arrows() {
    for (const n of $$(".board-move", decks)) n.remove();
    moves.forEach((m, i) => {
      const a = centreOf(decks, m.from);
      const b = centreOf(decks, m.to);
      if (!a || !b) return;
      const group = svgNode("g", { class: "board-move" });
      group.appendChild(
        svgNode("line", {
          x1: a[0],
          y1: a[1],
          x2: b[0],
          y2: b[1],
          stroke: "#5a4300",
          "stroke-width": 0.08,
          "stroke-dasharray": "0.15 0.08",
        }),
      );
      group.appendChild(
        svgNode("circle", { cx: b[0] + 0.3, cy: b[1] - 0.3, r: 0.2, fill: "#ffd54a" }),
      );
      group.appendChild(
        svgNode(
          "text",
          {
            x: b[0] + 0.3,
            y: b[1] - 0.21,
            "font-size": 0.26,
            "text-anchor": "middle",
            "font-weight": "bold",
          },
          String(i + 1),
        ),
      );
      decks.appendChild(group);
    });
  }

  function update() {
    const now = pieces();
    const can = movable(now);
    const done = moves.length >= data.movements || can.length === 0;
    const dests = state.chosen ? reach(state.chosen, state.captain, now) : [];
    for (const g of $$("g.tap", decks)) {
      const place = g.dataset.place;
      g.classList.toggle("movable", !done && can.includes(place));
      g.classList.toggle("chosen", place === state.chosen);
      g.classList.toggle("dest", dests.includes(place));
    }
    const at = state.chosen ? now.mine.get(state.chosen) : null;
    const both = at && at.crew > 0 && at.captain && reach(state.chosen, true, now).length;
    toggle.hidden = !both;
    toggle.textContent = state.captain ? "Move a crewmember instead" : "Move the Captain instead";
    $("#bb-undo").disabled = moves.length === 0;
    const list = $("#bb-moves");
    list.innerHTML = "";
    for (const m of moves) {
      const li = document.createElement("li");
      const fight = size(now.theirs.get(m.to)) > 0 ? " (an enemy's cell: a fight)" : "";
      const who = m.captain ? "The Captain" : "A crewmember";
      li.textContent = `${who}: ${m.from} → ${m.to}${fight}`;
      list.appendChild(li);
    }
    arrows();
    go.disabled = !done;
    go.textContent = done
      ? moves.length
        ? `Make ${moves.length === 1 ? "this movement" : `these ${moves.length} movements`}`
        : "Pass: no piece can move"
      : `Movement ${moves.length + 1} of ${data.movements}`;
    note.textContent =
      state.message ||
      (done
        ? moves.length < data.movements
          ? "No more movements are possible (BB21): make these."
          : "Three movements made: the fights follow them (BB22)."
        : state.chosen
          ? `${state.captain ? "The Captain" : "A crewmember"} at ${state.chosen}: ` +
            "tap a green cell."
          : `Movement ${moves.length + 1} of ${data.movements}: ` +
            "tap one of your pieces (outlined in green).");
  }

  toggle.addEventListener("click", () => {
    state.captain = !state.captain;
    update();
  });
  $("#bb-undo").addEventListener("click", () => {
    moves.pop();
    state.chosen = null;
    update();
  });
  form.addEventListener("submit", () => {
    for (const n of $$("input.bb-move", form)) n.remove();
    moves.forEach((m, i) => {
      const fields = { [`from${i + 1}`]: m.from, [`to${i + 1}`]: m.to };
      if (m.captain) fields[`captain${i + 1}`] = "1";
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement("input");
        Object.assign(input, { type: "hidden", name, value, className: "bb-move" });
        form.appendChild(input);
      }
    });
  });
  onCells(decks, tap);
  update();
  session.busy = () => moves.length > 0 || state.chosen !== null;
}

/* -- placing the Captain (BB16) ------------------------------------------------------------ */

function setupPage(data) {
  const svg = $("#bb-own-deck");
  const select = $("#captain");
  const seen = { saving: 0 };

  function captainAt(place) {
    for (const n of $$("[class^='captain']", svg)) n.remove();
    const centre = centreOf(svg, place);
    if (!centre) return;
    const [x, y] = centre;
    const group = svgNode("g", { class: "pieces captain-placed" });
    group.appendChild(
      svgNode("circle", { class: `captain ${data.you}`, cx: x + 0.3, cy: y - 0.2, r: 0.16 }),
    );
    group.lastChild.setAttribute("fill", data.you === "red" ? "#c0392b" : "#1f5fa8");
    group.lastChild.setAttribute("stroke", "#ffd23f");
    group.lastChild.setAttribute("stroke-width", "0.045");
    group.appendChild(
      svgNode(
        "text",
        {
          class: "captain-mark",
          x: x + 0.3,
          y: y - 0.115,
          "font-size": 0.24,
          "text-anchor": "middle",
          fill: "#fff",
          "font-weight": "bold",
        },
        "C",
      ),
    );
    svg.appendChild(group);
    for (const g of $$("g.tap", svg)) g.classList.toggle("picked", g.dataset.place === place);
  }

  function choose(cell) {
    select.value = cell;
    captainAt(`${data.you} ${cell}`);
    $("#bb-setup-note").firstChild.textContent = `Your Captain stands at ${cell}. `;
    const state = $("#bb-save-state");
    state.textContent = "Saving…";
    seen.saving += 1;
    const mine = seen.saving;
    postJson(data.draft_url, { disposition: { captain: cell } })
      .then((r) => {
        if (r.ok) return "Saved";
        // what the referee refused, in its words (its ruling first)
        return r.json().then(
          (body) => `Not saved: ${refusal(body)}`,
          () => `Not saved: ${refusal(null)}`,
        );
      })
      .then((said) => {
        if (mine === seen.saving) state.textContent = said;
      })
      .catch(() => {
        state.textContent = "Not saved: no connection to the referee";
      });
  }

  if (svg && select) {
    onCells(svg, (place) => choose(place.split(" ")[1]));
    select.addEventListener("change", () => select.value && choose(select.value));
    if (select.value) captainAt(`${data.you} ${select.value}`);
  }
}

/* -- every page ---------------------------------------------------------------------------- */

function start() {
  /* busy: is the player part way through an order (a panel sets it: its taps so far) */
  const session = { busy: null };
  const init = () => {
    session.busy = null;
    for (const input of $$("input.bb-dice-seed")) input.value = phoneSeed();
    const data = pageData();
    if (data) {
      seaSteps(data);
      const kind = data.legal?.kind;
      if (document.body.dataset.bbPage === "setup") setupPage(data);
      if (kind === "plot") plotPanel(data, session);
      if (kind === "declaration") volleyPanel(data, session);
      if (kind === "promotion") promotionPanel(data);
      if (kind === "boarding") boardingPanel(data, session);
    }
    startClocks(); // the dispositions' clock and each owing seat's move clock (R10, R25)
    everyPage();
    document.body.dataset.ready = document.body.dataset.bbPage || "yes"; // its taps are live
  };
  init();
  // the game moving on redraws the page; a player part way through an order (or placing his
  // Captain) is not interrupted: the news waits for his tap
  redrawOnNews({ redraw: (busy) => refresh(init, busy), busy: () => Boolean(session.busy?.()) });
}

start();
