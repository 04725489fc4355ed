/* Placing a fleet by thumb (R5-R9): a piece bar fixed to the foot of the screen, tap a square
   to place the chosen piece, tap a placed piece to pick it up, then a square to move it there,
   Turn or Remove. Every kind of piece is picked up, moved and removed the same way. */
"use strict";
(function () {
  const R = window.Referee;
  const { $, PIECES, LAND_UNIT, turns, onChart, shipCells, parse, sq, shipSquares, landSquares, nameOf } = R;
  const KINDS = R.RULES.order;  // ships, aircraft, guns, salvoes, in the budget's order
  const ofGroup = (group) => KINDS.filter((k) => PIECES[k].group === group);
  const SHIPS = ofGroup("ship"), AIRCRAFT = ofGroup("aircraft");
  const ORDER = SHIPS.concat(AIRCRAFT, ["aa-gun", "land"]); // the bar: ships, aircraft, guns and land
  const SHORT = { carrier: "Carrier", battleship: "Battleship", cruiser: "Cruiser", destroyer: "Destroyer",
    submarine: "Sub", "atom-bomber": "Atom", bomber: "Bomber", recon: "R.P.", "aa-gun": "A-A gun", land: "Land" };
  const ON_LAND_ONLY = KINDS.filter((k) => PIECES[k].on === "land");  // R9
  const ON_CARRIER_OR_LAND = KINDS.filter((k) => PIECES[k].on === "land or carrier");
  const plural = (n, kind) => n + " " + nameOf(kind) + (n === 1 ? "" : "s");

  function placePage() {
    const box = $("#place-chart"); if (!box) return;
    const d = R.data(); R.setNames(d.names);
    const disp = { land: [], ships: [], aircraft: [], guns: [], ...(d.disposition || {}) };
    const purchase = d.purchase, bar = $("#piece-bar");
    let kind = null, dir = "across", sel = null, notice = "", problems = [], timer = null;

    /* -- what stands where -- */
    const kindOf = (ref) => ref.list === "land" ? "land" : ref.list === "guns" ? "aa-gun" : disp[ref.list][ref.i].type;
    const squaresOf = (ref) => {
      const p = disp[ref.list][ref.i];
      return ref.list === "land" ? landSquares([p]) : ref.list === "ships" ? shipSquares(p) : [ref.list === "guns" ? p : p.at];
    };
    const where = (ref) => { const p = disp[ref.list][ref.i]; return typeof p === "string" ? p : p.at; };
    const same = (a, b) => a && b && a.list === b.list && a.i === b.i;
    /* Everything on a square, top first: a gun or plane, then a ship, then land. */
    function stack(s) {
      const out = [];
      disp.guns.forEach((g, i) => { if (g === s) out.push({ list: "guns", i }); });
      disp.aircraft.forEach((a, i) => { if (a.at === s) out.push({ list: "aircraft", i }); });
      disp.ships.forEach((ship, i) => { if (shipSquares(ship).indexOf(s) >= 0) out.push({ list: "ships", i }); });
      disp.land.forEach((tl, i) => { if (landSquares([tl]).indexOf(s) >= 0) out.push({ list: "land", i }); });
      return out;
    }
    const placed = (k) => k === "aa-gun" ? disp.guns.length : disp.ships.concat(disp.aircraft).filter((p) => p.type === k).length;
    const left = (k) => k === "land" ? Infinity : (purchase[k] || 0) - placed(k);
    const kinds = ORDER.filter((k) => k === "land" || purchase[k] > 0);
    /* R9: may a piece of this kind stand on this square (nothing else standing there)? */
    function standsOn(k, s, except) {
      const here = stack(s).filter((ref) => !same(ref, except));
      if (here.some((ref) => ref.list === "guns" || ref.list === "aircraft")) return false;
      const onLand = here.some((ref) => ref.list === "land"), ship = here.find((ref) => ref.list === "ships");
      if (ship) return ON_CARRIER_OR_LAND.indexOf(k) >= 0 && disp.ships[ship.i].type === "carrier";
      return onLand;
    }
    const standRule = (k) => ON_LAND_ONLY.indexOf(k) >= 0 ? "An " + nameOf(k) + " stands on a free square of land (R9)"
      : "A " + nameOf(k) + " stands on a free square of land or of an " + nameOf("carrier") + " (R9)";
    /* Does a land unit or ship with its top-left square here stay on the chart (R6, R7)? */
    function fits(k, s, way) {
      const at = parse(s); if (!at) return false;
      if (k === "land") return onChart(at[0] + LAND_UNIT - 1, at[1] + LAND_UNIT - 1);
      return shipCells(k, at, way).every(([c, r]) => onChart(c, r));
    }
    const offChart = (k) => k === "land" ? "R6: a land unit is " + LAND_UNIT + " × " + LAND_UNIT + " squares and must lie wholly on the chart; tap a square further up or left"
      : "R7: the " + nameOf(k) + " would run off the chart; tap a square further " + (!turns(k) ? "up or left" : dir === "down" ? "up, or turn it across" : "left, or turn it down");

    /* -- the actions -- */
    function nextKind() {
      const i = kinds.indexOf(kind);
      return kinds.slice(i + 1).concat(kinds.slice(0, i)).find((k) => k !== "land" && left(k) > 0) || null;
    }
    function place(s) {
      if (kind === "land") disp.land.push(s);
      else if (kind === "aa-gun") disp.guns.push(s);
      else if (SHIPS.indexOf(kind) >= 0) disp.ships.push(turns(kind) ? { type: kind, at: s, dir } : { type: kind, at: s });
      else disp.aircraft.push({ type: kind, at: s });
      if (kind !== "land" && left(kind) === 0) {
        const next = nextKind();
        notice = "All " + plural(purchase[kind], kind) + " placed." + (next ? " Next: " + nameOf(next) + "." : "");
        if (next) kind = next;
      }
    }
    /* Pieces standing on a land unit or carrier (they move and go with it). */
    function riders(ref) {
      if (ref.list !== "land" && !(ref.list === "ships" && disp[ref.list][ref.i].type === "carrier")) return [];
      const under = new Set(squaresOf(ref));
      const out = [];
      disp.guns.forEach((g, i) => { if (under.has(g)) out.push({ list: "guns", i }); });
      disp.aircraft.forEach((a, i) => { if (under.has(a.at)) out.push({ list: "aircraft", i }); });
      return out;
    }
    function shift(square, dc, dr) { const at = parse(square); return sq(at[0] + dc, at[1] + dr); }
    function move(ref, s) {
      const k = kindOf(ref), p = disp[ref.list][ref.i];
      if (ref.list === "guns" || ref.list === "aircraft") {
        if (!standsOn(k, s, ref)) { notice = standRule(k) + ": " + s + " will not do."; return false; }
        if (ref.list === "guns") disp.guns[ref.i] = s; else p.at = s;
      } else {
        if (!fits(k, s, p.dir)) { notice = offChart(k); return false; }
        const from = parse(where(ref)), to = parse(s), dc = to[0] - from[0], dr = to[1] - from[1];
        for (const r of riders(ref)) {
          if (r.list === "guns") disp.guns[r.i] = shift(disp.guns[r.i], dc, dr);
          else disp.aircraft[r.i].at = shift(disp.aircraft[r.i].at, dc, dr);
        }
        if (ref.list === "land") disp.land[ref.i] = s; else p.at = s;
      }
      notice = "Moved the " + nameOf(k === "land" ? "land unit" : k) + " to " + s + ".";
      return true;
    }
    function removeSelected() {
      if (!sel) return;
      const k = kindOf(sel), at = where(sel), gone = riders(sel);
      const names = gone.map((r) => nameOf(kindOf(r)) + " at " + where(r));
      const doomed = gone.concat([sel]);
      for (const list of ["guns", "aircraft", "ships", "land"]) {
        const drop = new Set(doomed.filter((r) => r.list === list).map((r) => r.i));
        disp[list] = disp[list].filter((_, i) => !drop.has(i));
      }
      notice = "Removed the " + (k === "land" ? "land unit" : nameOf(k)) + " at " + at + (names.length ? ", and what stood on it: " + names.join(", ") : "") + ".";
      sel = null;
    }
    function turnSelected() {
      const p = sel && sel.list === "ships" ? disp.ships[sel.i] : null;
      if (!p || !turns(p.type)) return;
      const way = p.dir === "down" ? "across" : "down";
      if (!fits(p.type, p.at, way)) { notice = "R7: turned " + way + ", the " + nameOf(p.type) + " would run off the chart; move it first."; return; }
      p.dir = way; notice = "The " + nameOf(p.type) + " at " + p.at + " now lies " + way + ".";
    }
    function tap(s) {
      notice = "";
      const here = stack(s);
      if (sel) {
        const mine = here.findIndex((ref) => same(ref, sel));
        if (mine >= 0) { // the picked-up piece again: turn a ship; else pick up what lies under it
          const p = disp[sel.list][sel.i];
          if (sel.list === "ships" && turns(p.type)) turnSelected();
          else sel = here[mine + 1] || null;
        } else if (here.length && !((sel.list === "guns" || sel.list === "aircraft")
                   && (here[0].list === "land" || (here[0].list === "ships" && disp.ships[here[0].i].type === "carrier")))) {
          sel = here[0]; // another piece: pick that one up instead
        } else if (move(sel, s)) sel = null;
      } else if (here.length && kind !== "land" && (ON_LAND_ONLY.concat(ON_CARRIER_OR_LAND)).indexOf(kind) >= 0
                 && (here[0].list === "land" || here[0].list === "ships") && standsOn(kind, s)) {
        if (left(kind) > 0) place(s); else notice = "No " + nameOf(kind) + " left to place: pick another piece.";
      } else if (here.length) {
        sel = here[0];
      } else if (!kind) {
        notice = "Everything is placed: tap a piece to move, turn or remove it.";
      } else if (left(kind) <= 0) {
        notice = "No " + nameOf(kind) + " left to place: pick another piece.";
      } else if (ON_LAND_ONLY.indexOf(kind) >= 0 || ON_CARRIER_OR_LAND.indexOf(kind) >= 0) {
        notice = standRule(kind) + ": place land (or a carrier) first.";
      } else if (!fits(kind, s, dir)) {
        notice = offChart(kind);
      } else {
        place(s);
      }
      render(); save();
    }

    /* -- drawing -- */
    function render() {
      const looks = R.ownLooks(disp, null), bad = new Set(problems.flatMap((p) => p.squares));
      const picked = new Set(sel ? squaresOf(sel) : []);
      R.drawChart(box, "Your chart", (s) => {
        let look = looks[s] || { cls: "sea", text: "", label: "sea" };
        if (bad.has(s)) look = { cls: look.cls + " problem", text: look.text || "!", label: look.label + ", problem" };
        if (picked.has(s)) look = { ...look, cls: look.cls + " chosen", label: look.label + ", picked up" };
        return look;
      }, tap);
      drawBar();
    }
    function drawBar() {
      bar.dataset.kind = kind || "";
      const chips = $("#piece-chips", bar); chips.innerHTML = "";
      let group = null, row = null;
      for (const k of kinds) { // a row of ships; a row of aircraft, then guns and land
        const g = SHIPS.indexOf(k) >= 0 ? "ships" : AIRCRAFT.indexOf(k) >= 0 ? "aircraft" : "ground";
        if (!row || (g === "aircraft" && group === "ships")) { row = document.createElement("div"); row.className = "chip-row"; chips.appendChild(row); }
        else if (g !== group) { const sep = document.createElement("span"); sep.className = "chip-sep"; sep.setAttribute("aria-hidden", "true"); row.appendChild(sep); }
        group = g;
        const n = left(k), b = document.createElement("button");
        b.type = "button"; b.className = "chip" + (n === 0 ? " done" : "") + (n < 0 ? " over" : "");
        b.dataset.kind = k; b.setAttribute("aria-pressed", String(k === kind));
        b.textContent = SHORT[k] + (k === "land" ? "" : " " + n);
        b.setAttribute("aria-label", k === "land" ? "Land unit, " + LAND_UNIT + " × " + LAND_UNIT + ", free" : nameOf(k) + ": " + n + " left to place");
        b.addEventListener("click", () => { kind = k; sel = null; notice = ""; render(); });
        row.appendChild(b);
      }
      const now = $("#piece-now", bar), dirButton = $("#dir-toggle", bar);
      if (sel) {
        const k = kindOf(sel);
        now.textContent = (k === "land" ? "Land unit" : nameOf(k)) + " at " + where(sel) + ": tap a square to move it";
      } else if (!kind) now.textContent = "Everything is placed";
      else now.textContent = (kind === "land" ? "Land unit " + LAND_UNIT + " × " + LAND_UNIT + " (free)" : nameOf(kind) + " · " + left(kind) + " left") + ": tap a square";
      const line = !sel && kind && turns(kind);
      dirButton.hidden = !line; dirButton.dataset.dir = dir;
      dirButton.textContent = dir === "down" ? "Down ↓" : "Across →";
      dirButton.setAttribute("aria-label", "New ships lie " + dir + ": tap to change");
      const p = sel && disp[sel.list][sel.i];
      $("#piece-turn", bar).hidden = !(sel && sel.list === "ships" && turns(p.type));
      $("#piece-remove", bar).hidden = !sel;
      $("#piece-cancel", bar).hidden = !sel;
      $("#place-message").textContent = notice;
    }
    function showCheck(res) {
      problems = res.problems;
      const ul = $("#place-problems"); ul.innerHTML = "";
      for (const p of problems) { const li = document.createElement("li"); li.textContent = p.rule + ": " + p.message; ul.appendChild(li); }
      const rest = Object.entries(res.left).filter(([, n]) => n > 0).map(([k, n]) => n + " " + nameOf(k));
      $("#tally").textContent = rest.length ? "Still to place: " + rest.join(", ") : (problems.length ? "Everything is placed; mend the problems marked on the chart." : "Everything is placed and legal: lock it in.");
      $("#fill-rest").disabled = !rest.length;
    }
    function adopt(res) { // the referee took pieces off, or placed the rest: its copy wins
      for (const key of ["land", "ships", "aircraft", "guns"]) disp[key] = res.disposition[key] || [];
      sel = null;
      if (kind && left(kind) <= 0) kind = nextKind();
    }
    const state = (text) => { $("#save-state").textContent = text; };
    function post(url, then) {
      return fetch(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": R.csrf() }, body: JSON.stringify({ disposition: disp }) })
        .then((r) => r.json()).then((res) => {
          if (res.errors) { notice = res.errors.map((e) => e.message).join("; "); state(""); $("#fill-rest").disabled = false; drawBar(); return; }
          then(res); showCheck(res); state("Draft saved."); render();
        }).catch(() => state("Could not save the draft; check the connection."));
    }
    function save() {
      clearTimeout(timer);
      state("Saving…");
      timer = setTimeout(() => post(d.draft_url, (res) => {
        if (res.removed && res.removed.length) { adopt(res); notice = "Taken off (not bought): " + res.removed.join(", ") + "."; }
      }), 250);
    }
    $("#dir-toggle", bar).addEventListener("click", () => { dir = dir === "down" ? "across" : "down"; notice = ""; drawBar(); });
    $("#piece-turn", bar).addEventListener("click", () => { notice = ""; turnSelected(); render(); save(); });
    $("#piece-remove", bar).addEventListener("click", () => { notice = ""; removeSelected(); render(); save(); });
    $("#piece-cancel", bar).addEventListener("click", () => { sel = null; notice = ""; render(); });
    $("#fill-rest").addEventListener("click", (e) => {
      clearTimeout(timer); e.target.disabled = true; state("Placing the rest…");
      post(d.fill_url, (res) => {
        adopt(res);
        const n = res.placed.reduce((sum, text) => sum + (parseInt(text, 10) || 0), 0);
        notice = n ? "Placed the rest at random (" + n + " pieces): tap any to move or turn it." : "Nothing was left to place.";
      });
    });
    kind = kinds.find((k) => k !== "land" && left(k) > 0) || null;
    render(); save();
  }
  R.pages.push(placePage);
})();
