/* Drawing a chart and the look of each square: a player's own chart with its damage, or what
   he knows of an opponent's; and the pages that only show charts: waiting, over, post-mortem. */
import { $, capital, pageData } from "../../static/js/dom.js";

const NO_DAMAGE = Object.freeze({ hit: [], destroyed: [], flown: [], spent: [] });
export const SEA = Object.freeze({ cls: "sea", label: "sea" });

function cell(look, name, onTap) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `cell ${look.cls || ""}`;
  b.textContent = look.text || "";
  b.dataset.sq = name;
  b.setAttribute("aria-label", name + (look.label ? `: ${look.label}` : ""));
  if (onTap) b.addEventListener("click", () => onTap(name));
  else b.tabIndex = -1;
  return b;
}

function head(text) {
  const h = document.createElement("span");
  h.className = "head";
  h.textContent = text;
  return h;
}

/* A grid of square buttons with row and column labels; describe(square) gives each look. */
export function drawChart(cat, box, title, describe, onTap) {
  box.innerHTML = "";
  const fig = document.createElement("figure");
  fig.className = "chart-figure";
  const cap = document.createElement("figcaption");
  cap.textContent = title;
  fig.appendChild(cap);
  const grid = document.createElement("div");
  grid.className = "grid";
  grid.setAttribute("role", "grid");
  grid.setAttribute("aria-label", title);
  grid.appendChild(document.createElement("span"));
  for (let c = 0; c < cat.size; c++) grid.appendChild(head(cat.columns[c]));
  for (let r = 0; r < cat.size; r++) {
    grid.appendChild(head(r + 1));
    for (let c = 0; c < cat.size; c++) {
      const name = cat.square(c, r);
      grid.appendChild(cell(describe(name), name, onTap));
    }
  }
  fig.appendChild(grid);
  box.appendChild(fig);
  return grid;
}

/** What stands on a player's own chart, with its damage (R15, R19): a look by square. */
export function ownLooks(cat, disp, damage) {
  const looks = {};
  const dmg = damage || NO_DAMAGE;
  const has = (list, s) => list.indexOf(s) >= 0;
  // land is shaded, with no mark: "·" is an R.P.'s "seen, empty" (the key says which is which)
  for (const s of cat.landSquares(disp.land)) looks[s] = { cls: "land", text: "", label: "land" };
  for (const ship of disp.ships || []) {
    const squares = cat.shipSquares(ship);
    const sunk = squares.length && squares.every((s) => has(dmg.hit, s));
    for (const s of squares) {
      const hit = has(dmg.hit, s);
      looks[s] = {
        cls: `ship${sunk ? " sunk" : hit ? " hit" : ""}`,
        text: sunk ? "■" : cat.letter(ship.type),
        label: cat.nameOf(ship.type) + (sunk ? ", sunk" : hit ? ", hit" : ""),
      };
    }
  }
  const stand = (kind, s) => {
    const gone = ["destroyed", "flown", "spent"].find((k) => has(dmg[k], s)) || "";
    const base = looks[s] || {};
    if (/\bsunk\b/.test(base.cls || "")) {
      base.label += `, ${cat.nameOf(kind)} lost with it`; // ■ stays: what was lost stays marked
      return;
    }
    const state = gone === "destroyed" ? " destroyed" : gone ? " gone" : "";
    const onShip = base.cls?.startsWith("ship") ? " on-ship" : "";
    looks[s] = {
      cls: (cat.isGun(kind) ? "gun" : "plane") + state + onShip,
      text: gone === "destroyed" ? "✕" : cat.letter(kind),
      label: cat.nameOf(kind) + (gone ? `, ${gone}` : "") + (base.label ? ` on ${base.label}` : ""),
    };
  };
  for (const a of disp.aircraft || []) stand(a.type, a.at);
  for (const g of disp.guns || []) stand("aa-gun", g);
  return looks;
}

function seenLook(cat, entry, piece) {
  const kind = cat.isShip(piece) ? "ship" : cat.isGun(piece) ? "gun" : "plane";
  return {
    cls:
      kind +
      (entry.hit ? " hit" : "") +
      (entry.spent ? " gone" : "") +
      (entry.terrain === "land" ? " on-land" : ""),
    text: entry.sunk ? "■" : cat.letter(piece),
    label:
      `seen: ${cat.nameOf(piece)}${entry.hit ? ", hit" : ""}${entry.spent ? ", spent" : ""}` +
      ` on ${entry.terrain}`,
  };
}

function markLook(cat, entry) {
  const piece = entry.piece;
  const name = cat.nameOf(piece);
  if (entry.mark === "hit" && piece && !cat.isShip(piece)) {
    const cls = `${cat.isGun(piece) ? "gun" : "plane"} destroyed`;
    return { cls, text: "✕", label: `${name}, destroyed` };
  }
  if (entry.mark === "hit") {
    return {
      cls: `ship ${entry.sunk ? "sunk" : "hit"}`,
      text: entry.sunk ? "■" : cat.letter(piece) || "✕",
      label: name + (entry.sunk ? ", sunk" : ", hit"),
    };
  }
  if (entry.mark === "seen" && piece) return seenLook(cat, entry, piece);
  if (entry.mark === "seen") {
    const cls = entry.terrain === "land" ? "land" : "sea-seen";
    return { cls, text: "·", label: `seen: ${entry.terrain}, empty` };
  }
  if (entry.mark === "nothing") return { cls: "nothing", text: "–", label: "shot: nothing there" };
  if (entry.mark === "shot-down") {
    const label = "a plane was shot down aiming here: an A-A gun within one square";
    return { cls: "shot", text: "!", label };
  }
  if (entry.mark === "bombed") {
    return {
      cls: `bombed${entry.found ? " found" : ""}`,
      text: entry.found ? "░" : "",
      label: entry.found
        ? "bombed: something was hit in this area"
        : "bombed, nothing hit in the area",
    };
  }
  return {};
}

/** What this seat knows of a square of an opponent's chart, with its own pencil mark. */
export function knowledgeLook(cat, entry, pencil) {
  const look = entry ? markLook(cat, entry) : {};
  if (!pencil) return look;
  return {
    cls: `${look.cls || ""} pencil`,
    text: look.text ? look.text : pencil,
    label: `${look.label ? `${look.label}; ` : ""}your mark ${pencil}`,
  };
}

/** Draw a disposition with its damage in a new box; the looks worked out once a chart. */
export function showFleet(cat, box, title, disp, damage, mark = (look) => look) {
  const looks = ownLooks(cat, disp, damage);
  drawChart(cat, box, title, (s) => mark(looks[s] || SEA, s));
}

export function waitingPage(catalogue) {
  const d = pageData();
  if (!d || document.body.dataset.page !== "waiting") return;
  const cat = catalogue.named(d.names);
  showFleet(
    cat,
    $("#charts"),
    `Your chart (${d.view.you})`,
    d.view.disposition || {},
    d.view.damage,
  );
}

export function overPage(catalogue) {
  const d = pageData();
  if (!d || document.body.dataset.page !== "over") return;
  const cat = catalogue.named(d.names);
  const view = d.view;
  const box = $("#charts");
  const add = (title, disp, damage) => {
    const div = document.createElement("div");
    box.appendChild(div);
    showFleet(cat, div, title, disp, damage);
  };
  add(`Your chart (${capital(view.you)})`, view.disposition || {}, view.damage);
  for (const [seat, info] of Object.entries(view.revealed || {})) {
    if (info.disposition) {
      add(`${view.seats[seat].name} (${capital(seat)})`, info.disposition, info.damage);
    }
  }
}

/* The post-mortem: every chart, step by step through the game, with the step bar. */

/** Each seat's damage after the first `count` steps. */
function damageAfter(seats, steps, count) {
  const damage = {};
  for (const seat of Object.keys(seats)) {
    damage[seat] = { hit: [], destroyed: [], flown: [], spent: [] };
  }
  for (const step of steps.slice(0, count)) {
    for (const [seat, delta] of Object.entries(step.delta)) {
      for (const [k, list] of Object.entries(delta)) damage[seat][k] = damage[seat][k].concat(list);
    }
  }
  return damage;
}

function reportText(r) {
  return r
    ? `${r.heading}${r.from ? ` (from ${r.from})` : ""}. ${r.text}`
    : "Before the first move.";
}

export function postmortemPage(catalogue) {
  const d = pageData();
  if (!d || document.body.dataset.page !== "postmortem") return;
  const cat = catalogue.named(d.names);
  const slider = $("#step-slider");
  const steps = d.steps;
  const show = (wanted) => {
    const i = Math.max(0, Math.min(steps.length, wanted));
    slider.value = i;
    $("#step-number").textContent = i;
    const damage = damageAfter(d.seats, steps, i);
    const r = i ? steps[i - 1].report : null;
    $("#step-report").textContent = reportText(r);
    const box = $("#charts");
    box.innerHTML = "";
    for (const [seat, info] of Object.entries(d.seats)) {
      const div = document.createElement("div");
      box.appendChild(div);
      const aimed = new Set(r && r.target === seat ? r.at : []);
      const mark = (look, s) =>
        aimed.has(s)
          ? {
              ...look,
              cls: `${look.cls || ""} chosen`,
              text: look.text || "◎",
              label: `${look.label}, aimed at in this move`,
            }
          : look;
      showFleet(cat, div, `${info.name} (${seat})`, info.disposition, damage[seat], mark);
    }
  };
  for (const button of document.querySelectorAll("[data-step]")) {
    button.addEventListener("click", () => {
      const i = Number.parseInt(slider.value, 10);
      show({ first: 0, prev: i - 1, next: i + 1, last: steps.length }[button.dataset.step]);
    });
  }
  slider.addEventListener("input", () => show(Number.parseInt(slider.value, 10)));
  show(steps.length);
}
