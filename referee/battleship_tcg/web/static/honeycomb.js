/* The honeycomb of Battleship: The Tactical Combat Game, drawn in SVG: one half of the mission
   card, flat-topped hexagons in 15 columns, the low columns half a hole down (T1), islands
   shaded (T2). Every rule comes from the catalogue the page embeds (GET /api/v1/rules): the
   columns, their spoken words, the depth, the low columns and each direction's step. */

const SVG = "http://www.w3.org/2000/svg";
const ROOT3 = Math.sqrt(3);
export const PLACING_SIDE = 16.5; // a hexagon's side in CSS px: 28.6 px across its flats

/** The honeycomb as functions, from the catalogue's ``grid`` (columns, spoken words, depth,
 *  the low columns) and ``steps`` (each direction's step from a high and from a low column). */
export function makeHoneycomb(catalogue) {
  const g = { ...catalogue.grid, columns: [...catalogue.grid.columns], steps: catalogue.steps };
  const width = g.columns.length;
  const depth = g.depth;
  const low = new Set([...g.low_columns].map((c) => g.columns.indexOf(c)));
  const byWord = new Map(g.spoken.map((w, i) => [w.toLowerCase(), i]));
  const byLetter = new Map(g.columns.map((c, i) => [c.toLowerCase(), i]));
  const onHalf = (c, r) => c >= 0 && r >= 0 && c < width && r < depth;
  const name = (c, r) => `${g.columns[c]} ${r + 1}`;
  /* "D 3", "d3" or "Delta 3" to [column, row], or null (T1). */
  const parse = (text) => {
    const m = /^\s*([A-Za-z]+)\s*0*(\d{1,2})\s*$/.exec(text || "");
    if (!m) return null;
    const word = m[1].toLowerCase();
    const c = word.length === 1 ? byLetter.get(word) : byWord.get(word);
    const r = Number.parseInt(m[2], 10) - 1;
    return c !== undefined && onHalf(c, r) ? [c, r] : null;
  };
  const step = ([c, r], dir) => {
    const [dc, dr] = g.steps[dir][low.has(c) ? "low" : "high"];
    return [c + dc, r + dr];
  };
  /* The n holes of a line from ``at`` running ``dir`` (T4, T11); those off the half too. */
  const line = (at, dir, n) => {
    const out = [at];
    while (out.length < n) out.push(step(out[out.length - 1], dir));
    return out;
  };
  const names = (holes) => holes.filter(([c, r]) => onHalf(c, r)).map(([c, r]) => name(c, r));
  const every = [];
  for (let c = 0; c < width; c++) for (let r = 0; r < depth; r++) every.push([c, r]);
  return {
    width,
    depth,
    low,
    columns: g.columns,
    spoken: g.spoken,
    directions: catalogue.directions,
    onHalf,
    name,
    parse,
    step,
    line,
    names,
    every,
  };
}

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** Where a hole's centre is, for a hexagon of side ``s``, below a header ``top`` high. */
export function centre(comb, [c, r], s, top) {
  const h = ROOT3 * s;
  return [s + 1.5 * s * c + 2, top + h / 2 + h * r + (comb.low.has(c) ? h / 2 : 0)];
}

const hexagon = (x, y, s) =>
  [0, 1, 2, 3, 4, 5]
    .map((k) => {
      const angle = (Math.PI / 3) * k;
      return `${(x + s * Math.cos(angle)).toFixed(2)},${(y + s * Math.sin(angle)).toFixed(2)}`;
    })
    .join(" ");

/* A boat's band: a rounded rectangle round the centres of its first and last holes. */
function band(comb, holes, s, top) {
  const [x0, y0] = centre(comb, holes[0], s, top);
  const [x1, y1] = centre(comb, holes[holes.length - 1], s, top);
  const length = Math.hypot(x1 - x0, y1 - y0);
  const angle = (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI;
  const pad = s * 0.72;
  return {
    x: (x0 - pad).toFixed(2),
    y: (y0 - pad).toFixed(2),
    width: (length + 2 * pad).toFixed(2),
    height: (2 * pad).toFixed(2),
    rx: pad.toFixed(2),
    transform: `rotate(${angle.toFixed(2)} ${x0.toFixed(2)} ${y0.toFixed(2)})`,
  };
}

/**
 * Draw one half into ``box`` (its content replaced) and return the SVG.
 * half: { title, islands: [names], marks: {name: {letter, boat, hit, miss, man, chosen,
 *   problem, preview, number}}, outlines: [[names]] (boats sunk, or chosen) }.
 * options: { side: the hexagon's side in px, onTap(name), label(name) for screen readers }.
 */
export function drawHalf(box, comb, half, options = {}) {
  const s = options.side || PLACING_SIDE;
  const top = s * 1.9;
  const w = s * (1.5 * (comb.width - 1) + 2) + 4;
  const h = top + ROOT3 * s * (comb.depth + 0.5) + 4;
  const islands = new Set(half.islands || []);
  const marks = half.marks || {};
  box.innerHTML = "";
  const svg = el("svg", {
    viewBox: `0 0 ${w.toFixed(1)} ${h.toFixed(1)}`,
    width: w.toFixed(1),
    height: h.toFixed(1),
    class: "honeycomb",
    role: "group",
    "aria-label": half.title || "",
  });
  svg.style.setProperty("--side", `${s}px`);
  for (let c = 0; c < comb.width; c++) {
    const [x] = centre(comb, [c, 0], s, top);
    el("text", { x, y: s * 0.85, class: "col" }, svg).textContent = comb.columns[c];
    if (s >= 10) el("text", { x, y: s * 1.45, class: "word" }, svg).textContent = comb.spoken[c];
  }
  for (const at of comb.every) {
    const name = comb.name(...at);
    const [x, y] = centre(comb, at, s, top);
    const mark = marks[name] || {};
    const kinds = ["hole", islands.has(name) ? "island" : "sea"];
    for (const k of ["boat", "hit", "miss", "man", "chosen", "problem", "preview"]) {
      if (mark[k]) kinds.push(k);
    }
    const g = el("g", { class: kinds.join(" "), "data-hole": name }, svg);
    if (options.onTap) {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
    }
    g.setAttribute("aria-label", options.label ? options.label(name) : name);
    el("polygon", { points: hexagon(x, y, s - 0.5) }, g);
    el("text", { x, y: y - s * 0.5, class: "n" }, g).textContent = at[1] + 1;
    if (mark.hit || mark.miss)
      el("circle", { cx: x, cy: y + s * 0.08, r: s * 0.34, class: "peg" }, g);
    if (mark.letter)
      el("text", { x, y: y + s * 0.36, class: "letter" }, g).textContent = mark.letter;
    if (mark.number)
      el("text", { x, y: y + s * 0.8, class: "shot-n" }, g).textContent = mark.number;
  }
  for (const outline of half.outlines || []) {
    const holes = (outline.holes || []).map((n) => comb.parse(n)).filter(Boolean);
    if (holes.length)
      el("rect", { ...band(comb, holes, s, top), class: `outline ${outline.kind || "sunk"}` }, svg);
  }
  if (options.onTap) {
    const tap = (e) => {
      const g = e.target.closest("[data-hole]");
      if (g && svg.contains(g)) options.onTap(g.dataset.hole);
    };
    svg.addEventListener("click", tap);
    svg.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        tap(e);
      }
    });
  }
  box.appendChild(svg);
  return svg;
}

/* -- what each half shows, from a seat's view (T12) ------------------------------------------ */

const letterOf = (catalogue) =>
  Object.fromEntries(catalogue.order.map((k) => [k, catalogue.boats[k].letter]));

/** The holes a placed boat covers, by name (T4, T11). */
export function boatHoles(comb, catalogue, boat) {
  const at = comb.parse(boat.at);
  const kind = catalogue.boats[boat.type];
  return at && kind ? comb.names(comb.line(at, boat.dir, kind.holes)) : [];
}

/** Shots at a seat's half, in order, from the view's reports (T8). */
export const shotsAt = (view, seat) => view.reports.filter((r) => r.target === seat);

function pegs(marks, shots, numbered) {
  for (const shot of shots) {
    if (!marks[shot.at[0]]) marks[shot.at[0]] = {};
    const m = marks[shot.at[0]];
    m.hit = shot.result !== "miss";
    m.miss = shot.result === "miss";
    if (numbered) m.number = String(shot.n);
  }
}

/** A half with its owner's fleet and man, the shots at it, and his boats sunk outlined. */
export function ownHalf(comb, catalogue, title, islands, disposition, shots, numbered = false) {
  const letters = letterOf(catalogue);
  const marks = {};
  const fleet = [];
  for (const boat of disposition?.boats || []) {
    const holes = boatHoles(comb, catalogue, boat);
    fleet.push(holes);
    for (const n of holes) marks[n] = { letter: letters[boat.type], boat: true };
  }
  if (disposition?.man) marks[disposition.man] = { letter: catalogue.man.letter, man: true };
  pegs(marks, shots, numbered);
  const hit = new Set(shots.filter((s) => s.result === "hit").map((s) => s.at[0]));
  const outlines = fleet
    .filter((holes) => holes.every((n) => hit.has(n)))
    .map((holes) => ({ holes }));
  return { title, islands, marks, outlines };
}

/** The opponent's half as a player knows it: his shots and their results, the boat each
 *  sinking named on its last hole, and the boats sunk outlined where the shots tell their
 *  holes (``sunk``: the referee's list, a boat's ``holes`` null where its hits leave more
 *  than one way for it to lie: then only its letter on the hole that sank it). */
export function knownHalf(catalogue, title, islands, shots, sunk) {
  const letters = letterOf(catalogue);
  const marks = {};
  pegs(marks, shots, false);
  for (const shot of shots) if (shot.sunk) marks[shot.at[0]].letter = letters[shot.sunk];
  const outlines = (sunk || [])
    .filter((b) => Array.isArray(b.holes))
    .map((b) => ({ holes: b.holes }));
  return { title, islands, marks, outlines };
}
