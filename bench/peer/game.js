// A mirror of the Naval War Game for boardgame.io, as small as the bench needs: two players,
// each a hidden fleet of squares on the 21 x 21 chart (its playerView strips the opponent's,
// as the referee's view does), one move a turn, a salvo of three squares answered with a
// report (hits and sinkings) that both players keep in the move record.
const SIZE = 21;
const SHIP_SQUARES = 60; // what the referee's quiet fleet covers (fifteen ships of four)

function fleet(random) {
  const squares = new Set();
  while (squares.size < SHIP_SQUARES) {
    const row = Math.floor(random.Number() * SIZE);
    const col = Math.floor(random.Number() * (SIZE - 3));
    for (let i = 0; i < 4; i += 1) squares.add(row * SIZE + col + i);
  }
  return [...squares].slice(0, SHIP_SQUARES);
}

const NavalMirror = {
  name: "naval-mirror",
  minPlayers: 2,
  maxPlayers: 2,
  setup: ({ random }) => ({
    fleets: { 0: fleet(random), 1: fleet(random) },
    hits: { 0: [], 1: [] },
    reports: [],
  }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    fire: {
      client: false, // the server decides, as the referee does: no guess on the phone
      move: ({ G, playerID }, at) => {
        const target = playerID === "0" ? "1" : "0";
        const squares = (Array.isArray(at) ? at : []).slice(0, 3).map(Number);
        const hits = squares.filter((s) => G.fleets[target].includes(s));
        G.hits[target].push(...hits);
        G.reports.push({ n: G.reports.length + 1, by: playerID, at: squares, hits });
      },
    },
  },
  playerView: ({ G, playerID }) => ({
    ...G,
    fleets: playerID === "0" || playerID === "1" ? { [playerID]: G.fleets[playerID] } : {},
  }),
};

module.exports = { NavalMirror, SIZE };
