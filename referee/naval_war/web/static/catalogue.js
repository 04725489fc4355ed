/* The Naval War Game's rules as the page embeds them (GET /api/v1/rules, in
   #rules-catalogue): pieces, shapes, the board. No rule is written in the scripts: they ask
   this module. */

export function readRules(doc = document) {
  return JSON.parse(doc.getElementById("rules-catalogue").textContent);
}

/* The rules as functions; names: what this game calls each kind of piece. */
export function makeCatalogue(rules, names = null) {
  const pieces = rules.pieces;
  const { size, columns, land_unit: landUnit } = rules.board;
  const called =
    names || Object.fromEntries(Object.entries(pieces).map(([kind, p]) => [kind, p.name]));
  const first = columns[0];
  const last = columns[size - 1];
  const named = new RegExp(`^\\s*([${first}-${last}])\\s*(\\d{1,2})\\s*$`, "i");
  const onChart = (c, r) => c >= 0 && r >= 0 && c < size && r < size;
  const square = (c, r) => `${columns[c]} ${r + 1}`;
  const parse = (name) => {
    const m = named.exec(name || "");
    return m ? [columns.indexOf(m[1].toUpperCase()), Number.parseInt(m[2], 10) - 1] : null;
  };
  const turns = (kind) => Boolean(pieces[kind]?.turns); // lies across or down (R7)
  /* A ship's squares: its shape's offsets from the top-left, swapped when it lies down (R7). */
  const shipCells = (kind, at, dir) => {
    const down = dir === "down" && turns(kind);
    return (pieces[kind] ? pieces[kind].shape : []).map(([dc, dr]) =>
      down ? [at[0] + dr, at[1] + dc] : [at[0] + dc, at[1] + dr],
    );
  };
  const shipSquares = (ship) => {
    const at = parse(ship.at);
    if (!at) return [];
    return shipCells(ship.type, at, ship.dir)
      .filter(([c, r]) => onChart(c, r))
      .map(([c, r]) => square(c, r));
  };
  /* The squares of land units, each named by its top-left square (R6). */
  const landSquares = (land) => {
    const out = [];
    for (const topLeft of land || []) {
      const at = parse(topLeft);
      if (!at) continue;
      for (let r = 0; r < landUnit; r++) {
        for (let c = 0; c < landUnit; c++) {
          if (onChart(at[0] + c, at[1] + r)) out.push(square(at[0] + c, at[1] + r));
        }
      }
    }
    return out;
  };
  return Object.freeze({
    pieces,
    size,
    columns,
    landUnit,
    order: rules.order,
    budget: rules.budget,
    weapons: rules.weapons,
    ofGroup: (group) => rules.order.filter((kind) => pieces[kind].group === group),
    letter: (kind) => pieces[kind]?.letter || undefined,
    isShip: (kind) => pieces[kind]?.group === "ship",
    isGun: (kind) => pieces[kind]?.group === "gun",
    turns,
    onChart,
    square,
    parse,
    shipCells,
    shipSquares,
    landSquares,
    nameOf: (kind) => called[kind] || kind,
    named: (gameNames) => makeCatalogue(rules, gameNames || null),
  });
}
