// The league night on boardgame.io's server, as bench/league_streams.py plays it on the referee:
// `node league.js PORT GAMES SECONDS SEED`. It opens GAMES matches through the lobby API, a
// socket.io client for each player (two phones a match), prints READY, waits for GO on its
// standard input, then for SECONDS each player moves 1-4 s after his client shows his turn.
// It prints one line of JSON: each move's time until the opponent's client had it and until
// the mover's own had the server's answer (ms), the moves made, and the moves any client
// never saw.
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { NavalMirror, SIZE } = require("./game");

const [port, games, seconds, seed] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}`;
let state = seed || 1;
const random = () => {
  state = (state * 1103515245 + 12345) % 2147483648; // the bench's own, repeatable
  return state / 2147483648;
};

async function post(path, body) {
  const r = await fetch(base + path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

async function openMatch() {
  const { matchID } = await post(`/games/${NavalMirror.name}/create`, { numPlayers: 2 });
  const seats = [];
  for (const playerID of ["0", "1"]) {
    const joined = await post(`/games/${NavalMirror.name}/${matchID}/join`, {
      playerID,
      playerName: `P${playerID}`,
    });
    seats.push({ matchID, playerID, credentials: joined.playerCredentials });
  }
  return seats;
}

const sent = new Map(); // "match:n" -> { at, mover, opponentAt, moverAt }
const phones = [];
let playing = false;

function phone({ matchID, playerID, credentials }) {
  const client = Client({
    game: NavalMirror,
    multiplayer: SocketIO({ server: base }),
    matchID,
    playerID,
    credentials,
    debug: false,
  });
  const me = { client, matchID, playerID, movedAt: -1, seen: 0 };
  client.subscribe((s) => {
    if (!s) return;
    const now = performance.now();
    const reports = s.G.reports;
    for (let n = me.seen + 1; n <= reports.length; n += 1) {
      const move = sent.get(`${matchID}:${n}`);
      if (move && move.mover === playerID) move.moverAt ??= now;
      else if (move) move.opponentAt ??= now;
    }
    me.seen = Math.max(me.seen, reports.length);
    if (!playing || s.ctx.currentPlayer !== playerID || me.movedAt === reports.length) return;
    me.movedAt = reports.length;
    const n = reports.length + 1;
    setTimeout(
      () => {
        if (!playing) return;
        const at = [0, 1, 2].map(() => Math.floor(random() * SIZE * SIZE));
        sent.set(`${matchID}:${n}`, { at: performance.now(), mover: playerID });
        client.moves.fire(at);
      },
      1000 + random() * 3000,
    );
  });
  client.start();
  phones.push(me);
}

const pct = (values, q) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

async function main() {
  const seats = [];
  for (let i = 0; i < games; i += 1) seats.push(...(await openMatch()));
  for (const seat of seats) phone(seat);
  await new Promise((ok) => setTimeout(ok, 2000)); // every client synced
  process.stdout.write("READY\n");
  await new Promise((ok) => process.stdin.once("data", ok));
  playing = true;
  const started = performance.now();
  for (const me of phones) me.client.updatePlayerID(me.playerID); // each looks at its turn
  await new Promise((ok) => setTimeout(ok, seconds * 1000));
  playing = false;
  const elapsed = (performance.now() - started) / 1000;
  await new Promise((ok) => setTimeout(ok, 3000)); // the last moves' answers
  const moves = [...sent.values()];
  const opponent = moves.filter((m) => m.opponentAt).map((m) => m.opponentAt - m.at);
  const mover = moves.filter((m) => m.moverAt).map((m) => m.moverAt - m.at);
  const lost = moves.filter((m) => !m.opponentAt || !m.moverAt).length;
  process.stdout.write(
    `${JSON.stringify({
      moves: moves.length,
      elapsed,
      lost,
      opponent: { p50: pct(opponent, 0.5), p99: pct(opponent, 0.99) },
      mover: { p50: pct(mover, 0.5), p99: pct(mover, 0.99) },
      opponent_ms: opponent,
    })}\n`,
  );
  for (const me of phones) me.client.stop();
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
