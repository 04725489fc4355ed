// boardgame.io's own server (Koa and socket.io, in memory) serving the mirror game on the port
// given: `node server.js PORT`. Started and stopped by bench/league_streams.py.
const { Server, Origins } = require("boardgame.io/server");
const { NavalMirror } = require("./game");

const port = Number(process.argv[2] || 8000);
const server = Server({ games: [NavalMirror], origins: [Origins.LOCALHOST] });
server.run(port, () => {
  process.stdout.write(`listening ${port}\n`);
});
