/* The budget page: live totals and what R4 still asks for, as the player types (R3, R4). */
import { $, fillList } from "../../static/js/dom.js";

function problemsOf(cat, ships, forces, atoms) {
  const limit = cat.budget;
  const total = ships + forces;
  const problems = [];
  if (ships < limit.min_ships) {
    problems.push(`R4: ships cost ${ships} points; at least ${limit.min_ships} are needed`);
  }
  if (forces < limit.min_forces) {
    problems.push(
      `R4: aircraft, A-A guns and salvoes cost ${forces}; at least ${limit.min_forces} are needed`,
    );
  }
  if (total > limit.total) problems.push(`R4: ${total} points is more than ${limit.total}`);
  if (atoms > limit.max_atom_bombers) {
    const plural = cat.pieces["atom-bomber"].plural;
    problems.push(`R4: at most ${limit.max_atom_bombers} ${plural}`);
  }
  if (!problems.length && total < limit.total) {
    problems.push(`R4: ${limit.total - total} points unspent will be lost (allowed)`);
  }
  return problems;
}

export function budgetPage(cat) {
  const form = $("#budget-form");
  if (!form) return;
  const update = () => {
    let ships = 0;
    let forces = 0;
    let atoms = 0;
    for (const input of form.querySelectorAll("input[data-price]")) {
      const n = Math.max(0, Number.parseInt(input.value, 10) || 0);
      const cost = n * Number.parseInt(input.dataset.price, 10);
      if (cat.isShip(input.dataset.kind)) ships += cost;
      else forces += cost;
      if (input.dataset.kind === "atom-bomber") atoms = n;
    }
    $("#t-ships").textContent = ships;
    $("#t-forces").textContent = forces;
    $("#t-total").textContent = ships + forces;
    fillList($("#t-problems"), problemsOf(cat, ships, forces, atoms));
  };
  form.addEventListener("input", update);
  update();
}
