/* The referee's pages: charts, placement, moves, clock and polling. No framework, no CDN. */
"use strict";
(function () {
  /* Every rule comes from the catalogue the page embeds (GET /api/v1/rules): no rule here. */
  const RULES = JSON.parse(document.getElementById("rules-catalogue").textContent);
  const PIECES = RULES.pieces, BOARD = RULES.board;
  const SIZE = BOARD.size, COLS = BOARD.columns, LAND_UNIT = BOARD.land_unit;
  const LETTER = {}, LENGTH = {};  // LENGTH: the ships' lengths, by kind
  for (const [kind, p] of Object.entries(PIECES)) {
    if (p.letter) LETTER[kind] = p.letter;
    if (p.group === "ship") LENGTH[kind] = p.length;
  }
  const isShip = (kind) => !!PIECES[kind] && PIECES[kind].group === "ship";
  const turns = (kind) => !!PIECES[kind] && !!PIECES[kind].turns;  // lies across or down (R7)
  const onChart = (c, r) => c >= 0 && r >= 0 && c < SIZE && r < SIZE;
  const $ = (sel, root) => (root || document).querySelector(sel);
  const csrf = () => $('meta[name="csrf-token"]').content;
  const sq = (c, r) => COLS[c] + " " + (r + 1);
  const SQUARE = new RegExp("^\\s*([" + COLS[0] + "-" + COLS[SIZE - 1] + "])\\s*(\\d{1,2})\\s*$", "i");
  const parse = (name) => {
    const m = SQUARE.exec(name || "");
    return m ? [COLS.indexOf(m[1].toUpperCase()), parseInt(m[2], 10) - 1] : null;
  };
  const data = () => { const el = $("#page-data"); return el ? JSON.parse(el.textContent) : null; };
  let NAMES = Object.fromEntries(Object.entries(PIECES).map(([kind, p]) => [kind, p.name]));
  const nameOf = (kind) => NAMES[kind] || kind;
  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);  // "Salvo", "Blue"

  /* A ship's squares on the chart: its shape's offsets, swapped when it lies down (R7). */
  function shipCells(kind, at, dir) {
    const down = dir === "down" && turns(kind);
    return (PIECES[kind] ? PIECES[kind].shape : []).map(([dc, dr]) => down ? [at[0] + dr, at[1] + dc] : [at[0] + dc, at[1] + dr]);
  }
  function shipSquares(ship) {
    const at = parse(ship.at); if (!at) return [];
    return shipCells(ship.type, at, ship.dir).filter(([c, r]) => onChart(c, r)).map(([c, r]) => sq(c, r));
  }
  function landSquares(land) {
    const out = [];
    for (const tl of land || []) {
      const at = parse(tl); if (!at) continue;
      for (let r = 0; r < LAND_UNIT; r++) for (let c = 0; c < LAND_UNIT; c++) if (onChart(at[0] + c, at[1] + r)) out.push(sq(at[0] + c, at[1] + r));
    }
    return out;
  }

  /* A chart: SIZE x SIZE buttons with row and column labels; describe(square) gives its look. */
  function drawChart(box, title, describe, onTap) {
    box.innerHTML = "";
    const fig = document.createElement("figure");
    fig.className = "chart-figure";
    const cap = document.createElement("figcaption"); cap.textContent = title; fig.appendChild(cap);
    const grid = document.createElement("div");
    grid.className = "grid"; grid.setAttribute("role", "grid"); grid.setAttribute("aria-label", title);
    grid.appendChild(document.createElement("span"));
    for (let c = 0; c < SIZE; c++) { const h = document.createElement("span"); h.className = "head"; h.textContent = COLS[c]; grid.appendChild(h); }
    for (let r = 0; r < SIZE; r++) {
      const h = document.createElement("span"); h.className = "head"; h.textContent = r + 1; grid.appendChild(h);
      for (let c = 0; c < SIZE; c++) {
        const name = sq(c, r), look = describe(name);
        const b = document.createElement("button");
        b.type = "button"; b.className = "cell " + (look.cls || "");
        b.textContent = look.text || "";
        b.dataset.sq = name;
        b.setAttribute("aria-label", name + (look.label ? ": " + look.label : ""));
        if (onTap) b.addEventListener("click", () => onTap(name)); else b.tabIndex = -1;
        grid.appendChild(b);
      }
    }
    fig.appendChild(grid); box.appendChild(fig);
    return grid;
  }

  /* What stands on a player's own chart, with its damage (R15, R19). */
  function ownLooks(disp, damage) {
    const looks = {}, dmg = damage || { hit: [], destroyed: [], flown: [], spent: [] };
    const has = (list, s) => list.indexOf(s) >= 0;
    for (const s of landSquares(disp.land)) looks[s] = { cls: "land", text: "·", label: "land" };
    for (const ship of disp.ships || []) {
      const squares = shipSquares(ship);
      const sunk = squares.length && squares.every((s) => has(dmg.hit, s));
      for (const s of squares) {
        const hit = has(dmg.hit, s);
        looks[s] = { cls: "ship" + (sunk ? " sunk" : hit ? " hit" : ""), text: sunk ? "■" : LETTER[ship.type],
          label: nameOf(ship.type) + (sunk ? ", sunk" : hit ? ", hit" : "") };
      }
    }
    const stand = (kind, s) => {
      const gone = has(dmg.destroyed, s) ? "destroyed" : has(dmg.flown, s) ? "flown" : has(dmg.spent, s) ? "spent" : "";
      const base = looks[s] || {};
      if (/\bsunk\b/.test(base.cls || "")) { base.label += ", " + nameOf(kind) + " lost with it"; return; } // ■ stays (issue 12)
      looks[s] = { cls: (kind === "aa-gun" ? "gun" : "plane") + (gone === "destroyed" ? " destroyed" : gone ? " gone" : "") + (base.cls && base.cls.indexOf("ship") === 0 ? " on-ship" : ""),
        text: gone === "destroyed" ? "✕" : LETTER[kind], label: nameOf(kind) + (gone ? ", " + gone : "") + (base.label ? " on " + base.label : "") };
    };
    for (const a of disp.aircraft || []) stand(a.type, a.at);
    for (const g of disp.guns || []) stand("aa-gun", g);
    return looks;
  }

  /* What this seat knows of an opponent's chart (from the referee's knowledge chart). */
  function knowledgeLook(entry, pencil) {
    let look = {};
    if (entry) {
      const piece = entry.piece;
      if (entry.mark === "hit" && piece && !isShip(piece)) look = { cls: (piece === "aa-gun" ? "gun" : "plane") + " destroyed", text: "✕", label: nameOf(piece) + ", destroyed" };
      else if (entry.mark === "hit") look = { cls: "ship " + (entry.sunk ? "sunk" : "hit"), text: entry.sunk ? "■" : LETTER[piece] || "✕", label: nameOf(piece) + (entry.sunk ? ", sunk" : ", hit") };
      else if (entry.mark === "seen" && piece) look = { cls: (isShip(piece) ? "ship" : piece === "aa-gun" ? "gun" : "plane") + (entry.hit ? " hit" : "") + (entry.spent ? " gone" : "") + (entry.terrain === "land" ? " on-land" : ""), text: entry.sunk ? "■" : LETTER[piece], label: "seen: " + nameOf(piece) + (entry.hit ? ", hit" : "") + (entry.spent ? ", spent" : "") + " on " + entry.terrain };
      else if (entry.mark === "seen") look = { cls: entry.terrain === "land" ? "land" : "sea-seen", text: "·", label: "seen: " + entry.terrain + ", empty" };
      else if (entry.mark === "nothing") look = { cls: "nothing", text: "–", label: "shot: nothing there" };
      else if (entry.mark === "shot-down") look = { cls: "shot", text: "!", label: "a plane was shot down aiming here: an A-A gun within one square" };
      else if (entry.mark === "bombed") look = { cls: "bombed" + (entry.found ? " found" : ""), text: entry.found ? "░" : "", label: "bombed" + (entry.found ? ": something was hit in this area" : ", nothing hit in the area") };
    }
    if (pencil) { look = { cls: (look.cls || "") + " pencil", text: look.text ? look.text : pencil, label: (look.label ? look.label + "; " : "") + "your mark " + pencil }; }
    return look;
  }

  /* ---- budget: live totals (R3, R4) ---- */
  function budgetPage() {
    const form = $("#budget-form"); if (!form) return;
    const update = () => {
      let ships = 0, forces = 0, atoms = 0;
      form.querySelectorAll("input[data-price]").forEach((i) => {
        const n = Math.max(0, parseInt(i.value, 10) || 0), cost = n * parseInt(i.dataset.price, 10);
        if (isShip(i.dataset.kind)) ships += cost; else forces += cost;
        if (i.dataset.kind === "atom-bomber") atoms = n;
      });
      $("#t-ships").textContent = ships; $("#t-forces").textContent = forces; $("#t-total").textContent = ships + forces;
      const problems = [];
      const B = RULES.budget;
      if (ships < B.min_ships) problems.push("R4: ships cost " + ships + " points; at least " + B.min_ships + " are needed");
      if (forces < B.min_forces) problems.push("R4: aircraft, A-A guns and salvoes cost " + forces + "; at least " + B.min_forces + " are needed");
      if (ships + forces > B.total) problems.push("R4: " + (ships + forces) + " points is more than " + B.total);
      if (atoms > B.max_atom_bombers) problems.push("R4: at most " + B.max_atom_bombers + " " + PIECES["atom-bomber"].plural);
      if (!problems.length && ships + forces < B.total) problems.push("R4: " + (B.total - ships - forces) + " points unspent will be lost (allowed)");
      const ul = $("#t-problems"); ul.innerHTML = "";
      for (const p of problems) { const li = document.createElement("li"); li.textContent = p; ul.appendChild(li); }
    };
    form.addEventListener("input", update); update();
  }

  /* Placement lives in place.js; it and any other page script use these. */
  window.Referee = { RULES, PIECES, SIZE, COLS, LETTER, LENGTH, LAND_UNIT, isShip, turns, onChart, shipCells, $, csrf, sq, parse, data, nameOf, shipSquares, landSquares,
    drawChart, ownLooks, setNames: (names) => { NAMES = names; }, pages: (window.Referee && window.Referee.pages) || [] };

  /* ---- play: charts, targets, bases and pencil marks ---- */
  function playPage() {
    const d = data(); if (!d || document.body.dataset.page !== "play") return;
    NAMES = d.names;
    const view = d.view, form = $("#move-form"), atInput = $("#at"), baseSel = $("#base");
    const marks = d.marks || {};
    let chosen = [];
    const weapon = () => { const r = form && form.querySelector("input[name=weapon]:checked"); return r ? r.value : null; };
    const targetSeat = () => { const t = $("#target"); return t ? t.value : null; };
    const wanted = () => (RULES.weapons[weapon()] ? RULES.weapons[weapon()].shots : 1);  // R12
    const gone = new Set([].concat((view.damage || {}).flown || [], (view.damage || {}).destroyed || []));
    function fillBases() {
      if (!baseSel) return;
      const w = weapon(), keep = baseSel.value;
      baseSel.innerHTML = "";
      const planes = (view.disposition.aircraft || []).filter((a) => a.type === w && !gone.has(a.at));
      if (w === "salvo" || !w) { baseSel.appendChild(new Option("— (a salvo has no base)", "")); baseSel.disabled = true; return; }
      baseSel.disabled = false;
      for (const a of planes) baseSel.appendChild(new Option(nameOf(a.type) + " at " + a.at, a.at));
      if (planes.some((a) => a.at === keep)) baseSel.value = keep;
    }
    function summary() {
      if (!form) return;
      const w = weapon(), list = atInput.value.split(",").map((s) => s.trim()).filter(Boolean);
      const ready = w && list.length === wanted() && (w === "salvo" || baseSel.value);
      $("#move-summary").textContent = !w ? "Choose a weapon." : (capital(nameOf(w)) + (w !== "salvo" ? " from " + (baseSel.value || "?") : "") + " at " + (list.join(", ") || "?") + " on " + capital(targetSeat() || "?") + "'s chart" + (ready ? "." : " — tap " + wanted() + " square" + (wanted() > 1 ? "s" : "") + "."));
      $("#fire").disabled = !ready;
    }
    function tapOpponent(opp, s) {
      if ($("#pencil").checked) {
        if (!marks[opp]) marks[opp] = {};
        const cycle = ["", "?", "●", "○"], m = marks[opp];
        const next = cycle[(cycle.indexOf(m[s] || "") + 1) % cycle.length];
        if (next) m[s] = next; else delete m[s];
        const said = $("#marks-state");
        fetch(location.pathname + "/marks", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() }, body: JSON.stringify(marks) })
          .then((r) => { if (!r.ok) throw new Error(String(r.status)); if (said) said.textContent = ""; })
          .catch(() => { if (said) said.textContent = "Pencil marks not saved: they show on this phone only until the connection is back."; });
        render(); return;
      }
      if (!form) return;
      const t = $("#target"); if (t && t.tagName === "SELECT" && t.value !== opp) { t.value = opp; chosen = []; }
      if (chosen.indexOf(s) >= 0) chosen = chosen.filter((x) => x !== s);
      else { chosen.push(s); while (chosen.length > wanted()) chosen.shift(); }
      atInput.value = chosen.join(", ");
      render(); summary(); remember();
    }
    function tapOwn(s) {
      if (!form || !baseSel) return;
      const plane = (view.disposition.aircraft || []).find((a) => a.at === s && !gone.has(a.at));
      if (!plane) return;
      const radio = form.querySelector("input[name=weapon][value=" + plane.type + "]");
      if (radio && !radio.disabled) { radio.checked = true; fillBases(); baseSel.value = s; summary(); remember(); }
    }
    function render() {
      const box = $("#charts"); box.innerHTML = "";
      for (const opp of Object.keys(d.knowledge)) {
        if (view.allies.indexOf(opp) >= 0 || view.seats[opp].forfeited) continue;
        const k = d.knowledge[opp], m = marks[opp] || {}, div = document.createElement("div"); box.appendChild(div);
        const target = targetSeat() === opp;
        drawChart(div, (view.seats[opp].name || capital(opp)) + " (" + capital(opp) + "): what you know", (s) => {
          const look = knowledgeLook(k[s], m[s]);
          return target && chosen.indexOf(s) >= 0 ? { cls: (look.cls || "") + " chosen", text: look.text || "◎", label: (look.label || "") + ", target" } : look;
        }, (s) => tapOpponent(opp, s));
      }
      const own = ownLooks(view.disposition, view.damage);
      for (const r of view.reports) {
        if (r.target !== view.you) continue;
        for (const shot of r.shots || []) if (!own[shot.at] && !shot.result) own[shot.at] = { cls: "nothing", text: "–", label: "enemy shot here: nothing" };
        for (const seen of r.seen || []) if (!own[seen.square]) own[seen.square] = { cls: "sea-seen", text: "", label: "seen by an enemy R.P." };
        if (r.shot_down && r.at[0] && !own[r.at[0]]) own[r.at[0]] = { cls: "shot", text: "!", label: "enemy plane shot down aiming here" };
      }
      const mine = document.createElement("div"); ($("#own-chart") || box).replaceChildren(mine);
      drawChart(mine, "Your chart (" + capital(view.you) + ")", (s) => {
        const look = own[s] || { cls: "sea", label: "sea" };
        return baseSel && baseSel.value === s ? { ...look, cls: look.cls + " chosen", label: look.label + ", chosen base" } : look;
      }, tapOwn);
    }
    /* A reload mid-move keeps the weapon, base, opponent and targets (issue 12 §6): kept in
       this tab's session storage for this game and this version of it only. */
    const keep = "move:" + view.id + ":" + view.version;
    function remember() {
      try {
        if (weapon() || atInput.value) sessionStorage.setItem(keep, JSON.stringify({ weapon: weapon(), base: baseSel ? baseSel.value : "", target: targetSeat(), at: chosen }));
        else sessionStorage.removeItem(keep);
      } catch (e) { /* storage full or off: the move is simply not kept */ }
    }
    function recall() {
      let kept = null;
      try {
        for (let i = sessionStorage.length - 1; i >= 0; i--) { const k = sessionStorage.key(i); if (k && k.indexOf("move:" + view.id + ":") === 0 && k !== keep) sessionStorage.removeItem(k); }
        kept = JSON.parse(sessionStorage.getItem(keep) || "null");
      } catch (e) { kept = null; }
      if (!kept || typeof kept !== "object") return;
      const radio = kept.weapon && form.querySelector("input[name=weapon][value=\"" + String(kept.weapon).replace(/[^a-z-]/g, "") + "\"]");
      if (radio && !radio.disabled) radio.checked = true;
      const t = $("#target");
      if (t && t.tagName === "SELECT" && [...t.options].some((o) => o.value === kept.target)) t.value = kept.target;
      fillBases();
      if (baseSel && [...baseSel.options].some((o) => o.value === kept.base)) baseSel.value = kept.base;
      chosen = (Array.isArray(kept.at) ? kept.at : []).map((x) => parse(String(x))).filter(Boolean).map((p) => sq(p[0], p[1])).slice(-wanted());
      atInput.value = chosen.join(", ");
    }
    if (form) {
      form.addEventListener("submit", () => { try { sessionStorage.removeItem(keep); } catch (e) { /* nothing kept */ } });
      form.addEventListener("change", (e) => {
        if (e.target.name === "weapon") { fillBases(); chosen = chosen.slice(-wanted()); atInput.value = chosen.join(", "); }
        if (e.target.id === "target") chosen = [];
        render(); summary(); remember();
      });
      atInput.addEventListener("input", () => { chosen = atInput.value.split(",").map((s) => s.trim()).filter((s) => parse(s)).map((s) => { const p = parse(s); return sq(p[0], p[1]); }); render(); summary(); remember(); });
      fillBases(); recall(); summary();
    }
    render();
    window.refereeBusy = () => Boolean(form && (weapon() || atInput.value));
  }

  /* The waiting page: your own locked-in chart (issue 12 §6). */
  function waitingPage() {
    const d = data(); if (!d || document.body.dataset.page !== "waiting") return;
    NAMES = d.names;
    const disp = d.view.disposition || {}, own = ownLooks(disp, d.view.damage);
    drawChart($("#charts"), "Your chart (" + d.view.you + ")", (s) => own[s] || { cls: "sea", label: "sea" });
  }

  function overPage() {
    const d = data(); if (!d || $("body").dataset.page !== "over") return;
    NAMES = d.names;
    const view = d.view, box = $("#charts");
    const add = (title, disp, dmg) => {
      const div = document.createElement("div"), looks = ownLooks(disp, dmg);  // once a chart, not once a square
      box.appendChild(div);
      drawChart(div, title, (s) => looks[s] || { cls: "sea", label: "sea" });
    };
    add("Your chart (" + capital(view.you) + ")", view.disposition || {}, view.damage);
    for (const [seat, info] of Object.entries(view.revealed || {})) if (info.disposition) add(view.seats[seat].name + " (" + capital(seat) + ")", info.disposition, info.damage);
  }

  /* ---- post-mortem: step through every chart, move by move ---- */
  function postmortemPage() {
    const d = data(); if (!d || document.body.dataset.page !== "postmortem") return;
    NAMES = d.names;
    const slider = $("#step-slider"), steps = d.steps;
    const show = (i) => {
      i = Math.max(0, Math.min(steps.length, i)); slider.value = i; $("#step-number").textContent = i;
      const damage = {};
      for (const seat of Object.keys(d.seats)) damage[seat] = { hit: [], destroyed: [], flown: [], spent: [] };
      for (const step of steps.slice(0, i)) for (const [seat, delta] of Object.entries(step.delta)) for (const [k, list] of Object.entries(delta)) damage[seat][k] = damage[seat][k].concat(list);
      const r = i ? steps[i - 1].report : null;
      $("#step-report").textContent = r ? r.heading + (r.from ? " (from " + r.from + ")" : "") + ". " + r.text : "Before the first move.";
      const box = $("#charts"); box.innerHTML = "";
      for (const [seat, info] of Object.entries(d.seats)) {
        const div = document.createElement("div"); box.appendChild(div);
        const looks = ownLooks(info.disposition, damage[seat]);
        const aimed = new Set(r && r.target === seat ? r.at : []);
        drawChart(div, info.name + " (" + seat + ")", (s) => {
          const look = looks[s] || { cls: "sea", label: "sea" };
          return aimed.has(s) ? { ...look, cls: (look.cls || "") + " chosen", text: look.text || "◎", label: look.label + ", aimed at in this move" } : look;
        });
      }
    };
    document.querySelectorAll("[data-step]").forEach((b) => { b.addEventListener("click", () => {
      const i = parseInt(slider.value, 10);
      show({ first: 0, prev: i - 1, next: i + 1, last: steps.length }[b.dataset.step]);
    }); });
    slider.addEventListener("input", () => show(parseInt(slider.value, 10)));
    show(steps.length);
  }

  /* ---- clock (R10), polling, turn alerts, one-tap forms ---- */
  let ticking = [];
  function clocks() {
    ticking.forEach(clearInterval); ticking = [];
    document.querySelectorAll("[data-deadline]").forEach((el) => {
      const skew = parseFloat(el.dataset.now) * 1000 - Date.now(), out = $(".clock-left", el);
      const tick = () => {
        const left = Math.max(0, Math.round((parseFloat(el.dataset.deadline) * 1000 - Date.now() - skew) / 1000));
        out.textContent = left ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") + " left" : "time is up";
        el.classList.toggle("late", left === 0);
        if (!left) document.querySelectorAll("[data-enable-at]").forEach((b) => { b.disabled = false; });
      };
      tick(); ticking.push(setInterval(tick, 1000));
    });
  }
  /* Fetch this page afresh and swap it in: no reload, no lost scroll of the whole page. */
  function refresh() {
    return fetch(location.pathname + location.search, { headers: { Accept: "text/html" }, cache: "no-store" })
      .then((r) => r.text()).then((html) => {
        const doc = new DOMParser().parseFromString(html, "text/html");
        document.title = doc.title;
        for (const k of Object.keys(document.body.dataset)) if (k !== "poll") delete document.body.dataset[k];
        Object.assign(document.body.dataset, doc.body.dataset);
        $("main").replaceWith(doc.querySelector("main"));
        init();
      });
  }
  function poll() {
    const body = document.body, url = body.dataset.poll; if (!url) return;
    let etag = null, last = null;
    const check = () => fetch(url, { headers: Object.assign({ Accept: "application/json" }, etag ? { "If-None-Match": etag } : {}), cache: "no-store" })
      .then((r) => { if (r.status === 304) return null; etag = r.headers.get("ETag"); return r.json(); })
      .then((st) => {
        if (!st || st.errors) return;
        const yourTurn = st.phase === "play" && st.turn === st.you, page = body.dataset.page;
        if (last && st.version !== last.version) {
          if (yourTurn && last.turn !== st.you && navigator.vibrate) navigator.vibrate([120, 60, 120]);
          const busy = window.refereeBusy && window.refereeBusy();
          if (page !== "setup" && !busy) refresh();
          else if (page !== "setup" || st.phase !== last.phase) {
            const n = $("#news") || document.createElement("p"); n.id = "news"; n.className = "flash"; n.setAttribute("role", "status"); n.innerHTML = "";
            const a = document.createElement("button"); a.type = "button"; a.className = "button secondary"; a.textContent = "A move was made at the table: show it";
            a.addEventListener("click", () => { window.refereeBusy = null; refresh(); });
            n.appendChild(a); $("main").prepend(n);
          }
        }
        document.title = (yourTurn ? "● " : "") + document.title.replace(/^● /, "");
        last = st;
      }).catch(() => {});
    check(); setInterval(check, 2000);
  }
  function forms() {
    document.querySelectorAll("form.once").forEach((f) => { f.addEventListener("submit", (e) => {
      if (f.dataset.confirm && !window.confirm(f.dataset.confirm)) { e.preventDefault(); return; }
      if (f.dataset.sent) { e.preventDefault(); return; }
      f.dataset.sent = "1";
      f.querySelectorAll("button[type=submit]").forEach((b) => { b.disabled = true; b.textContent = "Sending…"; });
    }); });
    document.querySelectorAll(".copy-button").forEach((b) => { b.addEventListener("click", () => {
      const input = document.getElementById(b.dataset.copy); input.select();
      (navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject()).then(() => { b.textContent = "Copied"; }, () => { document.execCommand("copy"); b.textContent = "Copied"; });
    }); });
    document.querySelectorAll(".print-button").forEach((b) => { b.addEventListener("click", () => window.print()); });
    const zoom = $("#zoom");
    if (zoom) {
      const label = () => { zoom.textContent = document.body.classList.contains("zoom-in") ? "Whole chart" : "Zoom in"; };
      if (document.body.dataset.zoom) document.body.classList.add("zoom-in");
      zoom.addEventListener("click", () => { document.body.classList.toggle("zoom-in"); label(); });
      label();
    }
  }
  function init() { window.refereeBusy = null; budgetPage(); window.Referee.pages.forEach((page) => { page(); }); playPage(); waitingPage(); overPage(); postmortemPage(); clocks(); forms(); }
  document.addEventListener("DOMContentLoaded", () => { init(); poll(); });
})();
