/* Placing a fleet by thumb (R5-R9): a piece bar fixed to the foot of the screen, tap a square
   to place the chosen piece, tap a placed piece to pick it up, then a square to move it there,
   Turn or Remove. Every kind of piece is picked up, moved and removed the same way. */
import { drawChart, ownLooks } from "./chart.js";
import { $, fillList, pageData, postJson, problemLine, refusal } from "../../static/js/dom.js";
import { hintScroll } from "../../static/js/scrollhint.js";

/* The chips' short words (not rules); a kind without one shows its name. */
const SHORT = Object.freeze({
  carrier: "Carrier",
  battleship: "Battleship",
  cruiser: "Cruiser",
  destroyer: "Destroyer",
  submarine: "Sub",
  "atom-bomber": "Atom",
  bomber: "Bomber",
  recon: "R.P.",
  "aa-gun": "A-A gun",
  land: "Land",
});
const LISTS = Object.freeze(["guns", "aircraft", "ships", "land"]);

/* The bar's kinds and where each may stand (R9). */
function kindsOf(cat) {
  const ships = cat.ofGroup("ship");
  const aircraft = cat.ofGroup("aircraft");
  const onLandOnly = cat.order.filter((k) => cat.pieces[k].on === "land");
  const onCarrierOrLand = cat.order.filter((k) => cat.pieces[k].on === "land or carrier");
  return {
    ships,
    aircraft,
    bar: [...ships, ...aircraft, ...cat.ofGroup("gun"), "land"],
    onLandOnly,
    onCarrierOrLand,
    stands: [...onLandOnly, ...onCarrierOrLand],
  };
}

const plural = (cat, n, kind) => `${n} ${cat.nameOf(kind)}${n === 1 ? "" : "s"}`;
/* A sentence's full stop, once: "Next: R.P." not "Next: R.P..". */
const sentence = (text) => (text.endsWith(".") ? text : `${text}.`);

/* The land units the purchase needs (R9): a square of land for every piece that stands only
   on land, and for every plane the carriers' squares do not hold; a unit's size is the
   catalogue's. */
function landUnitsNeeded(cat, groups, purchase) {
  const count = (kinds) => kinds.reduce((n, k) => n + (purchase[k] || 0), 0);
  const carried = (purchase.carrier || 0) * (cat.pieces.carrier?.shape.length || 0);
  const planes = count(groups.onCarrierOrLand);
  const squares = count(groups.onLandOnly) + Math.max(0, planes - carried);
  return Math.ceil(squares / (cat.landUnit * cat.landUnit));
}
const landUnit = (cat) => `${cat.landUnit} × ${cat.landUnit}`;

function standRule(cat, groups, k) {
  return groups.onLandOnly.indexOf(k) >= 0
    ? `An ${cat.nameOf(k)} stands on a free square of land (R9)`
    : `A ${cat.nameOf(k)} stands on a free square of land or of an ${cat.nameOf("carrier")} (R9)`;
}

function offChart(cat, k, dir) {
  if (k === "land") {
    return (
      `R6: a land unit is ${landUnit(cat)} squares and must lie wholly on the chart; ` +
      "tap a square further up or left"
    );
  }
  const way = !cat.turns(k)
    ? "up or left"
    : dir === "down"
      ? "up, or turn it across"
      : "left, or turn it down";
  return `R7: the ${cat.nameOf(k)} would run off the chart; tap a square further ${way}`;
}

/* Does a land unit or ship with its top-left square at s stay on the chart (R6, R7)? */
function fits(cat, k, s, way) {
  const at = cat.parse(s);
  if (!at) return false;
  if (k === "land") return cat.onChart(at[0] + cat.landUnit - 1, at[1] + cat.landUnit - 1);
  return cat.shipCells(k, at, way).every(([c, r]) => cat.onChart(c, r));
}

function shift(cat, square, dc, dr) {
  const at = cat.parse(square);
  return cat.square(at[0] + dc, at[1] + dr);
}

const same = (a, b) => a && b && a.list === b.list && a.i === b.i;

/* The fleet being placed: what stands where, and how many are left to place. */
function fleet(cat, disp, purchase) {
  const kindOf = (ref) =>
    ref.list === "land" ? "land" : ref.list === "guns" ? "aa-gun" : disp[ref.list][ref.i].type;
  const squaresOf = (ref) => {
    const p = disp[ref.list][ref.i];
    if (ref.list === "land") return cat.landSquares([p]);
    if (ref.list === "ships") return cat.shipSquares(p);
    return [ref.list === "guns" ? p : p.at];
  };
  const where = (ref) => {
    const p = disp[ref.list][ref.i];
    return typeof p === "string" ? p : p.at;
  };
  const isCarrier = (ref) => ref.list === "ships" && disp.ships[ref.i].type === "carrier";
  const refs = (list, test) => disp[list].flatMap((p, i) => (test(p) ? [{ list, i }] : []));
  /* Everything on a square, top first: a gun or plane, then a ship, then land. */
  const stack = (s) => [
    ...refs("guns", (g) => g === s),
    ...refs("aircraft", (a) => a.at === s),
    ...refs("ships", (ship) => cat.shipSquares(ship).includes(s)),
    ...refs("land", (topLeft) => cat.landSquares([topLeft]).includes(s)),
  ];
  const placed = (k) =>
    k === "aa-gun"
      ? disp.guns.length
      : disp.ships.concat(disp.aircraft).filter((p) => p.type === k).length;
  const left = (k) => (k === "land" ? Number.POSITIVE_INFINITY : (purchase[k] || 0) - placed(k));
  /* Pieces standing on a land unit or carrier (they move and go with it). */
  const riders = (ref) => {
    if (ref.list !== "land" && !isCarrier(ref)) return [];
    const under = new Set(squaresOf(ref));
    return [...refs("guns", (g) => under.has(g)), ...refs("aircraft", (a) => under.has(a.at))];
  };
  return { kindOf, squaresOf, where, isCarrier, stack, left, riders };
}

export function placePage(catalogue) {
  const box = $("#place-chart");
  if (!box) return;
  const d = pageData();
  const cat = catalogue.named(d.names);
  const groups = kindsOf(cat);
  const disp = { land: [], ships: [], aircraft: [], guns: [], ...(d.disposition || {}) };
  const purchase = d.purchase;
  const bar = $("#piece-bar");
  const f = fleet(cat, disp, purchase);
  const kinds = groups.bar.filter((k) => k === "land" || purchase[k] > 0);
  /* kind: the piece to place; dir: how new ships lie; sel: the piece picked up. */
  const st = { kind: null, dir: "across", sel: null, notice: "", problems: [], timer: null };

  /* R9: may a piece of this kind stand on this free square? */
  function standsOn(k, s, except) {
    const here = f.stack(s).filter((ref) => !same(ref, except));
    if (here.some((ref) => ref.list === "guns" || ref.list === "aircraft")) return false;
    const ship = here.find((ref) => ref.list === "ships");
    if (ship) return groups.onCarrierOrLand.indexOf(k) >= 0 && f.isCarrier(ship);
    return here.some((ref) => ref.list === "land");
  }

  const unitsNeeded = landUnitsNeeded(cat, groups, purchase);
  /* The piece to place after this kind: land once the ships are placed, while what stands
     on it has too little (R9); else the next kind with pieces left, in the bar's order. */
  function nextKind() {
    const shipsLeft = groups.ships.some((k) => f.left(k) > 0);
    const standersLeft = groups.stands.some((k) => f.left(k) > 0);
    if (st.kind !== "land" && !shipsLeft && standersLeft && disp.land.length < unitsNeeded) {
      return "land";
    }
    const i = kinds.indexOf(st.kind);
    const after = kinds.slice(i + 1).concat(kinds.slice(0, i));
    return after.find((k) => k !== "land" && f.left(k) > 0) || null;
  }
  function moveOn(done) {
    const next = nextKind();
    st.notice = done;
    if (next) {
      st.notice += ` Next: ${next === "land" ? "land, for what stands on it" : cat.nameOf(next)}`;
      st.notice = sentence(st.notice);
      st.kind = next;
    }
  }
  function place(s) {
    const kind = st.kind;
    if (kind === "land") disp.land.push(s);
    else if (kind === "aa-gun") disp.guns.push(s);
    else if (groups.ships.indexOf(kind) >= 0) {
      disp.ships.push(cat.turns(kind) ? { type: kind, at: s, dir: st.dir } : { type: kind, at: s });
    } else disp.aircraft.push({ type: kind, at: s });
    if (kind !== "land" && f.left(kind) === 0) {
      moveOn(`All ${plural(cat, purchase[kind], kind)} placed.`);
    } else if (kind === "land" && disp.land.length === unitsNeeded) {
      const units = `${unitsNeeded} land unit${unitsNeeded === 1 ? "" : "s"}`;
      moveOn(`${units}: room for all that stands on land (R9); tap Land for more.`);
    }
  }
  function move(ref, s) {
    const k = f.kindOf(ref);
    const p = disp[ref.list][ref.i];
    if (ref.list === "guns" || ref.list === "aircraft") {
      if (!standsOn(k, s, ref)) {
        st.notice = `${standRule(cat, groups, k)}: ${s} will not do.`;
        return false;
      }
      if (ref.list === "guns") disp.guns[ref.i] = s;
      else p.at = s;
    } else {
      if (!fits(cat, k, s, p.dir)) {
        st.notice = offChart(cat, k, st.dir);
        return false;
      }
      const from = cat.parse(f.where(ref));
      const to = cat.parse(s);
      const [dc, dr] = [to[0] - from[0], to[1] - from[1]];
      for (const r of f.riders(ref)) {
        if (r.list === "guns") disp.guns[r.i] = shift(cat, disp.guns[r.i], dc, dr);
        else disp.aircraft[r.i].at = shift(cat, disp.aircraft[r.i].at, dc, dr);
      }
      if (ref.list === "land") disp.land[ref.i] = s;
      else p.at = s;
    }
    st.notice = `Moved the ${cat.nameOf(k === "land" ? "land unit" : k)} to ${s}.`;
    return true;
  }
  function removeSelected() {
    if (!st.sel) return;
    const k = f.kindOf(st.sel);
    const at = f.where(st.sel);
    const gone = f.riders(st.sel);
    const names = gone.map((r) => `${cat.nameOf(f.kindOf(r))} at ${f.where(r)}`);
    const doomed = gone.concat([st.sel]);
    for (const list of LISTS) {
      const drop = new Set(doomed.filter((r) => r.list === list).map((r) => r.i));
      disp[list] = disp[list].filter((_, i) => !drop.has(i));
    }
    const also = names.length ? `, and what stood on it: ${names.join(", ")}` : "";
    st.notice = `Removed the ${k === "land" ? "land unit" : cat.nameOf(k)} at ${at}${also}.`;
    st.sel = null;
  }
  function turnSelected() {
    const p = st.sel && st.sel.list === "ships" ? disp.ships[st.sel.i] : null;
    if (!p || !cat.turns(p.type)) return;
    const way = p.dir === "down" ? "across" : "down";
    if (!fits(cat, p.type, p.at, way)) {
      const name = cat.nameOf(p.type);
      st.notice = `R7: turned ${way}, the ${name} would run off the chart; move it first.`;
      return;
    }
    p.dir = way;
    st.notice = `The ${cat.nameOf(p.type)} at ${p.at} now lies ${way}.`;
  }
  /* A tap with a piece picked up: turn it, pick up another, or move it here. */
  function tapHolding(s, here) {
    const mine = here.findIndex((ref) => same(ref, st.sel));
    if (mine >= 0) {
      // the picked-up piece again: turn a ship; else pick up what lies under it
      const p = disp[st.sel.list][st.sel.i];
      if (st.sel.list === "ships" && cat.turns(p.type)) turnSelected();
      else st.sel = here[mine + 1] || null;
      return;
    }
    const flies = st.sel.list === "guns" || st.sel.list === "aircraft";
    const onto = here.length && (here[0].list === "land" || f.isCarrier(here[0]));
    if (here.length && !(flies && onto))
      st.sel = here[0]; // another piece: pick it up instead
    else if (move(st.sel, s)) st.sel = null;
  }
  /* A tap with nothing picked up: place the chosen piece, or pick up what is here. */
  function tapPlacing(s, here) {
    const kind = st.kind;
    const standing = kind !== "land" && groups.stands.indexOf(kind) >= 0;
    const noneLeft = `No ${cat.nameOf(kind)} left to place: pick another piece.`;
    if (
      here.length &&
      standing &&
      (here[0].list === "land" || here[0].list === "ships") &&
      standsOn(kind, s)
    ) {
      if (f.left(kind) > 0) place(s);
      else st.notice = noneLeft;
    } else if (here.length) st.sel = here[0];
    else if (!kind) st.notice = "Everything is placed: tap a piece to move, turn or remove it.";
    else if (f.left(kind) <= 0) st.notice = noneLeft;
    else if (groups.stands.indexOf(kind) >= 0) {
      st.notice = `${standRule(cat, groups, kind)}: place land (or a carrier) first.`;
    } else if (!fits(cat, kind, s, st.dir)) st.notice = offChart(cat, kind, st.dir);
    else place(s);
  }
  function tap(s) {
    st.notice = "";
    const here = f.stack(s);
    if (st.sel) tapHolding(s, here);
    else tapPlacing(s, here);
    render();
    save();
  }

  function render() {
    const looks = ownLooks(cat, disp, null);
    const bad = new Set(st.problems.flatMap((p) => p.squares));
    const picked = new Set(st.sel ? f.squaresOf(st.sel) : []);
    const describe = (s) => {
      let look = looks[s] || { cls: "sea", text: "", label: "sea" };
      if (bad.has(s)) {
        look = {
          cls: `${look.cls} problem`,
          text: look.text || "!",
          label: `${look.label}, problem`,
        };
      }
      if (picked.has(s))
        look = { ...look, cls: `${look.cls} chosen`, label: `${look.label}, picked up` };
      return look;
    };
    drawChart(cat, box, "Your chart", describe, tap);
    drawBar();
  }
  function chip(k) {
    const n = f.left(k);
    const b = document.createElement("button");
    b.type = "button";
    b.className = `chip${n === 0 ? " done" : ""}${n < 0 ? " over" : ""}`;
    b.dataset.kind = k;
    b.setAttribute("aria-pressed", String(k === st.kind));
    b.textContent = (SHORT[k] || cat.nameOf(k)) + (k === "land" ? "" : ` ${n}`);
    const label =
      k === "land" ? `Land unit, ${landUnit(cat)}, free` : `${cat.nameOf(k)}: ${n} left to place`;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => {
      st.kind = k;
      st.sel = null;
      st.notice = "";
      render();
    });
    return b;
  }
  function drawChips() {
    const chips = $("#piece-chips", bar);
    const left = chips.scrollLeft;
    chips.innerHTML = "";
    let group = null;
    for (const k of kinds) {
      // one line that scrolls sideways: the ships | the aircraft | guns and land
      const g =
        groups.ships.indexOf(k) >= 0
          ? "ships"
          : groups.aircraft.indexOf(k) >= 0
            ? "aircraft"
            : "ground";
      if (group && g !== group) {
        const sep = document.createElement("span");
        sep.className = "chip-sep";
        sep.setAttribute("aria-hidden", "true");
        chips.appendChild(sep);
      }
      group = g;
      chips.appendChild(chip(k));
    }
    chips.scrollLeft = left; // redrawn where it was; the chosen chip brought into sight
    const chosen = chips.querySelector('[aria-pressed="true"]');
    if (chosen) {
      const [c, box] = [chosen.getBoundingClientRect(), chips.getBoundingClientRect()];
      if (c.left < box.left) chips.scrollLeft -= box.left - c.left + 8;
      else if (c.right > box.right) chips.scrollLeft += c.right - box.right + 8;
    }
    hintScroll(chips);
  }
  function nowText() {
    if (st.sel) {
      const k = f.kindOf(st.sel);
      const name = k === "land" ? "Land unit" : cat.nameOf(k);
      return `${name} at ${f.where(st.sel)}: tap a square to move it`;
    }
    if (!st.kind) return "Everything is placed";
    const what =
      st.kind === "land"
        ? `Land unit ${landUnit(cat)} (free)`
        : `${cat.nameOf(st.kind)} · ${f.left(st.kind)} left`;
    return `${what}: tap a square`;
  }
  function drawBar() {
    bar.dataset.kind = st.kind || "";
    drawChips();
    $("#piece-now", bar).textContent = nowText();
    const dirButton = $("#dir-toggle", bar);
    dirButton.hidden = !(!st.sel && st.kind && cat.turns(st.kind));
    dirButton.dataset.dir = st.dir;
    dirButton.textContent = st.dir === "down" ? "Down ↓" : "Across →";
    dirButton.setAttribute("aria-label", `New ships lie ${st.dir}: tap to change`);
    const p = st.sel && disp[st.sel.list][st.sel.i];
    $("#piece-turn", bar).hidden = !(st.sel && st.sel.list === "ships" && cat.turns(p.type));
    $("#piece-remove", bar).hidden = !st.sel;
    $("#piece-cancel", bar).hidden = !st.sel;
    $("#place-message").textContent = st.notice;
  }
  function showCheck(res) {
    st.problems = res.problems;
    fillList($("#place-problems"), st.problems.map(problemLine));
    const rest = Object.entries(res.left)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${cat.nameOf(k)}`);
    $("#tally").textContent = rest.length
      ? `Still to place: ${rest.join(", ")}`
      : st.problems.length
        ? "Everything is placed; mend the problems marked on the chart."
        : "Everything is placed and legal: lock it in.";
    $("#fill-rest").disabled = !rest.length;
  }
  function adopt(res) {
    // the referee took pieces off, or placed the rest: its copy wins
    for (const key of ["land", "ships", "aircraft", "guns"]) disp[key] = res.disposition[key] || [];
    st.sel = null;
    if (st.kind && f.left(st.kind) <= 0) st.kind = nextKind();
  }
  const saying = (text) => {
    $("#save-state").textContent = text;
  };
  function post(url, then) {
    return postJson(url, { disposition: disp })
      .then((r) => r.json())
      .then((res) => {
        if (res.errors) {
          st.notice = refusal(res);
          saying("");
          $("#fill-rest").disabled = false;
          drawBar();
          return;
        }
        then(res);
        showCheck(res);
        saying("Draft saved.");
        render();
      })
      .catch(() => saying("Could not save the draft; check the connection."));
  }
  function save() {
    clearTimeout(st.timer);
    saying("Saving…");
    const taken = (res) => {
      if (res.removed?.length) {
        adopt(res);
        st.notice = `Taken off (not bought): ${res.removed.join(", ")}.`;
      }
    };
    st.timer = setTimeout(() => post(d.draft_url, taken), 250);
  }
  const action = (id, then) =>
    $(id, bar).addEventListener("click", () => {
      st.notice = "";
      then();
    });
  action("#dir-toggle", () => {
    st.dir = st.dir === "down" ? "across" : "down";
    drawBar();
  });
  action("#piece-turn", () => {
    turnSelected();
    render();
    save();
  });
  action("#piece-remove", () => {
    removeSelected();
    render();
    save();
  });
  action("#piece-cancel", () => {
    st.sel = null;
    render();
  });
  $("#fill-rest").addEventListener("click", (e) => {
    clearTimeout(st.timer);
    e.target.disabled = true;
    saying("Placing the rest…");
    post(d.fill_url, (res) => {
      adopt(res);
      const n = res.placed.reduce((sum, text) => sum + (Number.parseInt(text, 10) || 0), 0);
      st.notice = n
        ? `Placed the rest at random (${n} pieces): tap any to move or turn it.`
        : "Nothing was left to place.";
    });
  });
  st.kind = kinds.find((k) => k !== "land" && f.left(k) > 0) || null;
  render();
  save();
}
