/* The play page: what you know of each opponent (tap to aim, or to pencil a mark) and your
   own chart (tap a plane to fly it); the move under way is kept over a reload. */
import { drawChart, knowledgeLook, ownLooks, SEA } from "./chart.js";
import { $, capital, pageData, postJson } from "../../static/js/dom.js";

const CYCLE = Object.freeze(["", "?", "●", "○"]);

const nextMark = (mark) => CYCLE[(CYCLE.indexOf(mark || "") + 1) % CYCLE.length];

/* Cycle a pencil mark (?, ●, ○, none) and save the marks; unsaved, they stay on this phone. */
function pencil(marks, opp, s, url) {
  if (!marks[opp]) marks[opp] = {};
  const mine = marks[opp];
  const next = nextMark(mine[s]);
  if (next) mine[s] = next;
  else delete mine[s];
  const said = $("#marks-state");
  postJson(url, marks)
    .then((r) => {
      if (!r.ok) throw new Error(String(r.status));
      if (said) said.textContent = "";
    })
    .catch(() => {
      if (said) {
        said.textContent =
          "Pencil marks not saved: they show on this phone only until the connection is back.";
      }
    });
}

/** Your own chart, with what the reports say the enemy did to it. */
function ownChartLooks(cat, view) {
  const own = ownLooks(cat, view.disposition, view.damage);
  for (const r of view.reports) {
    if (r.target !== view.you) continue;
    for (const shot of r.shots || []) {
      if (!own[shot.at] && !shot.result) {
        own[shot.at] = { cls: "nothing", text: "–", label: "enemy shot here: nothing" };
      }
    }
    for (const seen of r.seen || []) {
      if (!own[seen.square]) {
        own[seen.square] = { cls: "sea-seen", text: "", label: "seen by an enemy R.P." };
      }
    }
    if (r.shot_down && r.at[0] && !own[r.at[0]]) {
      own[r.at[0]] = { cls: "shot", text: "!", label: "enemy plane shot down aiming here" };
    }
  }
  return own;
}

/* A square as the chart names it ("k10" -> "K 10"), or null for what is not one (R1). */
const squareOf = (cat, name) => {
  const at = cat.parse(String(name));
  return at && cat.onChart(...at) ? cat.square(...at) : null;
};

/* The squares named in a list, as the chart names them. */
const squaresIn = (cat, names) => names.map((name) => squareOf(cat, name)).filter(Boolean);

/* What was typed as targets: the squares, and what in it is not a square or is named twice. */
function typedTargets(cat, text) {
  const typed = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const squares = typed.map((name) => squareOf(cat, name));
  const bad = typed.filter((_, i) => !squares[i]);
  const twice = squares.filter((s, i) => s && squares.indexOf(s) !== i);
  return { squares: squares.filter(Boolean), bad, twice };
}

function typedProblem(cat, { bad, twice }) {
  const [first, last] = [cat.columns[0], cat.columns[cat.size - 1]];
  const quoted = bad.map((s) => `"${s.slice(0, 12)}"`).join(", ");
  if (bad.length) {
    return (
      `R1: ${quoted} ${bad.length === 1 ? "is not a square" : "are not squares"}: a column ` +
      `${first}-${last} and a row 1-${cat.size}, as "K 10"; several with commas.`
    );
  }
  return twice.length ? `R12: ${twice[0]} is named twice; aim at different squares.` : "";
}

/* The move under way, kept in this tab for this game and version only. */
function keeper(view) {
  const key = `move:${view.id}:${view.version}`;
  return {
    save(move) {
      try {
        if (move) sessionStorage.setItem(key, JSON.stringify(move));
        else sessionStorage.removeItem(key);
      } catch (_) {
        /* storage full or off: the move is simply not kept */
      }
    },
    load() {
      try {
        for (let i = sessionStorage.length - 1; i >= 0; i--) {
          const k = sessionStorage.key(i);
          if (k?.startsWith(`move:${view.id}:`) && k !== key) sessionStorage.removeItem(k);
        }
        const kept = JSON.parse(sessionStorage.getItem(key) || "null");
        return kept && typeof kept === "object" ? kept : null;
      } catch (_) {
        return null;
      }
    },
  };
}

export function playPage(catalogue, session) {
  const d = pageData();
  if (!d || document.body.dataset.page !== "play") return;
  const cat = catalogue.named(d.names);
  const view = d.view;
  const form = $("#move-form");
  const atInput = $("#at");
  const baseSel = $("#base");
  const marks = d.marks || {};
  const kept = keeper(view);
  const state = { chosen: [] };
  const weapon = () => form?.querySelector("input[name=weapon]:checked")?.value ?? null;
  const targetSeat = () => $("#target")?.value ?? null;
  const wanted = () => cat.weapons[weapon()]?.shots ?? 1; // R12
  const damage = view.damage || {};
  const gone = new Set([...(damage.flown || []), ...(damage.destroyed || [])]);
  const planes = () => (view.disposition.aircraft || []).filter((a) => !gone.has(a.at));

  function fillBases() {
    if (!baseSel) return;
    const w = weapon();
    const keep = baseSel.value;
    baseSel.innerHTML = "";
    const bases = planes().filter((a) => a.type === w);
    if (w === "salvo" || !w) {
      baseSel.appendChild(new Option("— (a salvo has no base)", ""));
      baseSel.disabled = true;
      return;
    }
    baseSel.disabled = false;
    for (const a of bases)
      baseSel.appendChild(new Option(`${cat.nameOf(a.type)} at ${a.at}`, a.at));
    if (bases.some((a) => a.at === keep)) baseSel.value = keep;
  }
  function summary() {
    if (!form) return;
    const w = weapon();
    const typed = typedTargets(cat, atInput.value);
    const problem = typedProblem(cat, typed);
    const said = $("#at-problem");
    said.textContent = problem;
    said.hidden = !problem;
    const list = typed.squares;
    const n = wanted();
    const ready = w && !problem && list.length === n && (w === "salvo" || baseSel.value);
    const from = w !== "salvo" ? ` from ${baseSel.value || "?"}` : "";
    const still = ready ? "." : ` — tap ${n} square${n > 1 ? "s" : ""}.`;
    $("#move-summary").textContent = !w
      ? "Choose a weapon."
      : `${capital(cat.nameOf(w))}${from} at ${list.join(", ") || "?"} on ` +
        `${capital(targetSeat() || "?")}'s chart${still}`;
    $("#fire").disabled = !ready;
  }
  function remember() {
    const move = { weapon: weapon(), base: baseSel ? baseSel.value : "", target: targetSeat() };
    kept.save(weapon() || atInput.value ? { ...move, at: state.chosen } : null);
  }
  function aimed() {
    atInput.value = state.chosen.join(", ");
  }
  function changed() {
    render();
    summary();
    remember();
  }
  function tapOpponent(opp, s) {
    if ($("#pencil").checked) {
      pencil(marks, opp, s, `${location.pathname}/marks`);
      render();
      return;
    }
    if (!form) return;
    const t = $("#target");
    if (t && t.tagName === "SELECT" && t.value !== opp) {
      t.value = opp;
      state.chosen = [];
    }
    if (state.chosen.indexOf(s) >= 0) state.chosen = state.chosen.filter((x) => x !== s);
    else {
      state.chosen.push(s);
      while (state.chosen.length > wanted()) state.chosen.shift();
    }
    aimed();
    changed();
  }
  function tapOwn(s) {
    if (!form || !baseSel) return;
    const plane = planes().find((a) => a.at === s);
    if (!plane) return;
    const radio = form.querySelector(`input[name=weapon][value=${plane.type}]`);
    if (radio && !radio.disabled) {
      radio.checked = true;
      fillBases();
      baseSel.value = s;
      summary();
      remember();
    }
  }
  function drawOpponent(box, opp) {
    const known = d.knowledge[opp];
    const mine = marks[opp] || {};
    const div = document.createElement("div");
    box.appendChild(div);
    const target = targetSeat() === opp;
    const title = `${view.seats[opp].name || capital(opp)} (${capital(opp)}): what you know`;
    const describe = (s) => {
      const look = knowledgeLook(cat, known[s], mine[s]);
      if (!target || state.chosen.indexOf(s) < 0) return look;
      return {
        cls: `${look.cls || ""} chosen`,
        text: look.text || "◎",
        label: `${look.label || ""}, target`,
      };
    };
    drawChart(cat, div, title, describe, (s) => tapOpponent(opp, s));
  }
  function render() {
    const box = $("#charts");
    box.innerHTML = "";
    for (const opp of Object.keys(d.knowledge)) {
      if (view.allies.indexOf(opp) < 0 && !view.seats[opp].forfeited) drawOpponent(box, opp);
    }
    const own = ownChartLooks(cat, view);
    const mine = document.createElement("div");
    ($("#own-chart") || box).replaceChildren(mine);
    const describe = (s) => {
      const look = own[s] || SEA;
      if (!baseSel || baseSel.value !== s) return look;
      return { ...look, cls: `${look.cls} chosen`, label: `${look.label}, chosen base` };
    };
    drawChart(cat, mine, `Your chart (${capital(view.you)})`, describe, tapOwn);
  }
  function recall() {
    const move = kept.load();
    if (!move) return;
    const value = String(move.weapon).replace(/[^a-z-]/g, "");
    const radio = move.weapon && form.querySelector(`input[name=weapon][value="${value}"]`);
    if (radio && !radio.disabled) radio.checked = true;
    const t = $("#target");
    if (t && t.tagName === "SELECT" && [...t.options].some((o) => o.value === move.target)) {
      t.value = move.target;
    }
    fillBases();
    if (baseSel && [...baseSel.options].some((o) => o.value === move.base))
      baseSel.value = move.base;
    state.chosen = squaresIn(cat, Array.isArray(move.at) ? move.at : []).slice(-wanted());
    aimed();
  }
  if (form) {
    form.addEventListener("submit", () => kept.save(null));
    form.addEventListener("change", (e) => {
      if (e.target.name === "weapon") {
        fillBases();
        state.chosen = state.chosen.slice(-wanted());
        aimed();
      }
      if (e.target.id === "target") state.chosen = [];
      changed();
    });
    atInput.addEventListener("input", () => {
      state.chosen = typedTargets(cat, atInput.value).squares;
      changed();
    });
    atInput.addEventListener("change", () => {
      // written as the chart names squares (R1) once typed, if all of it names squares
      if (!typedProblem(cat, typedTargets(cat, atInput.value))) aimed();
      summary();
    });
    fillBases();
    recall();
    summary();
  }
  render();
  session.busy = () => Boolean(form && (weapon() || atInput.value));
}
