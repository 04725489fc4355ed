"""The floor of a move's cost on the referee with no HTTP at all: what the league of
``bench/league_streams.py`` would cost per move if parsing, routing, sockets and threads were
free. Not a test.

The same games as the league (two players, random fleets, each moving at random from his own
view), played in this process against the same store, each move timed in three layers, CPU
time (``time.process_time``) only:

1. **the rules alone**: the rule set's move applied to the game's state in memory (the
   command ``service.make_move`` runs), nothing stored;
2. **the move stored**: ``service.make_move`` as the API calls it, with its Idempotency-Key:
   the state brought up to date, the rules, the version check, the SQLite transaction
   appending the events, the key's report and the change noted for the streams;
3. **and pushed**: the two seats' new views built and serialised as a stream push builds them
   (``streams.document``), the bytes the phones receive.

With ``--cold MB``, the CPU's caches are flushed before each move's layer 2 (MB megabytes
written through, every cache line of them): the move then starts as it does on a server's loop,
which sleeps between moves while other processes (the phones' bench, the other worker) run,
and finds its code and data gone from the caches. Layer 3 follows layer 2 at once, warm, as a
socket's pushes follow its move on the loop.

Layer 3 is what a server would spend per move if everything between the socket and the service
cost nothing; compare it with boardgame.io's whole CPU per move in the league (0.7-1.7 ms,
``docs/scaling.md``). Beside the floor, what the server really spends:

4. **over HTTP**: ``referee serve`` (one worker process) on loopback, the same kind of games,
   every seat's stream open (``GET .../stream``); one move at a time, each sent on a kept-alive
   connection and waited for until both seats' streams have pushed it, so that no move shares
   the server's work with another (the league's moves do). The server's CPU time over all the
   moves, divided by them: what parsing, routing, threads, sockets and pushes add to layer 3.

5. **on the seats' sockets**: the same as 4, but every seat holds its socket
   (``GET .../socket``, a WebSocket) and each move is sent on the mover's: the hub's loop reads
   it, makes it and builds both seats' pushes itself (``referee.sockets``).

`.venv/bin/python bench/move_floor.py [--games 50] [--moves 60] [--http-games 20]
[--cold 64]`.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from apiclient import (  # noqa: E402
    Api,
    FlaskTransport,
    HttpTransport,
    choose_move,
    lock_in_random_fleets,
    open_table,
)
from conftest import loopback  # noqa: E402

sys.path.insert(0, str(HERE))
from league_night import Phone, Server, children_of, cpu_of, league_tables  # noqa: E402
from league_streams import EventReader, SocketClient, thread_cpu  # noqa: E402

from referee import create_app, service, streams  # noqa: E402
from referee.common.problems import RuleViolation  # noqa: E402
from referee.states import states_of  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=60, help="moves a game, at most")
    parser.add_argument("--http-games", type=int, default=20,
                        help="games over HTTP and on sockets (layers 4, 5; 0: neither)")
    parser.add_argument("--cold", type=int, default=0, metavar="MB",
                        help="flush the caches before each move, writing through MB megabytes")
    args = parser.parse_args()
    flush = cache_flusher(args.cold)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "floor.db"), "SECRET_KEY": "floor"})
        api = Api(FlaskTransport(app.test_client()))
        tables = []
        for i in range(args.games):
            table = open_table(api, 2)
            lock_in_random_fleets(table, random.Random(1000 + i))
            tables.append(table)
        layers: dict[str, list[float]] = {"rules": [], "stored": [], "pushed": []}
        with app.app_context():
            store = app.extensions["referee.store"]()
            rng = random.Random(24)
            refused = 0
            for n in range(args.moves):
                for table in tables:
                    game_id = table.id
                    state = states_of(store).current(store, game_id)
                    if state.phase != "play":
                        continue
                    seat = state.turn
                    mine = service.seat_view(store, game_id, seat)
                    document = choose_move(json.loads(mine.body), rng)
                    # 1. the rules alone, on a copy of the state (the kept one, with what it
                    # keeps between moves, goes on to layer 2 untouched)
                    played = copy.deepcopy(state)
                    start = time.process_time()
                    try:
                        played.move(seat, document)
                    except RuleViolation:  # the player's own view may not know enough
                        refused += 1
                        continue
                    layers["rules"].append(time.process_time() - start)
                    # 2. the move stored, as the API makes it
                    flush()
                    start = time.process_time()
                    service.make_move(store, game_id, seat, document, f"k{n}-{game_id}")
                    stored = time.process_time() - start
                    layers["stored"].append(stored)
                    # 3. and both seats' views pushed
                    start = time.process_time()
                    for s in ("red", "blue"):
                        streams.document(store, streams.Listener("view", game_id, s,
                                                                 table.tokens[s]))
                    layers["pushed"].append(stored + time.process_time() - start)
    moves = len(layers["stored"])
    cold = f", each started with the caches flushed ({args.cold} MB)" if args.cold else ""
    print(f"{moves:,} moves of {args.games} games ({refused} refused by the rules and not "
          f"timed; CPU ms a move, median / mean{cold}):")
    for name, label in (("rules", "1. the rules alone"), ("stored", "2. the move stored"),
                        ("pushed", "3. and both views pushed")):
        values = [v * 1000 for v in layers[name]]
        print(f"  {label:28s} {statistics.median(values):6.2f} / {statistics.fmean(values):6.2f}")
    if not args.http_games:  # layers 1-3 only
        return
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "http.db", None, 1).start()
        try:
            tables = league_tables(Api(HttpTransport(server.url)), args.http_games, 2000)
            moves, cpu, waits, by_thread = asyncio.run(over_http(server, tables, args.moves))
        finally:
            server.stop()
    print(f"  {'4. over HTTP, one at a time':28s} {cpu / moves * 1000:6.2f} (the server's CPU "
          f"over {moves:,} moves of {args.http_games} games; both streams had each move "
          f"{statistics.median(waits) * 1000:.1f} ms after it was sent, median)")
    for part, seconds in by_thread.items():
        print(f"       {part:23s} {seconds / moves * 1000:6.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "sockets.db", None, 1).start()
        try:
            tables = league_tables(Api(HttpTransport(server.url)), args.http_games, 2000)
            moves, cpu, waits, by_thread = asyncio.run(over_sockets(server, tables,
                                                                    args.moves))
        finally:
            server.stop()
    label = "5. on the seats' sockets"
    print(f"  {label:28s} {cpu / moves * 1000:6.2f} (the same, each move "
          f"sent on its seat's socket, which pushes the views; both had each move "
          f"{statistics.median(waits) * 1000:.1f} ms after it was sent, median)")
    for part, seconds in by_thread.items():
        print(f"       {part:23s} {seconds / moves * 1000:6.2f}")


def cache_flusher(megabytes: int):
    """A function that evicts what the CPU's caches hold by writing one byte in every
    64-byte line of a buffer of ``megabytes`` (none: a function that does nothing)."""
    if not megabytes:
        return lambda: None
    buffer = bytearray(megabytes << 20)
    zeros = bytes(len(buffer) // 64)

    def flush() -> None:
        buffer[::64] = zeros
    return flush


async def idle(pids: list[int], quiet_s: float = 0.5) -> None:
    """Until the server's processes have used no CPU for ``quiet_s``."""
    before = sum(cpu_of(pid) for pid in pids)
    while True:
        await asyncio.sleep(quiet_s)
        now = sum(cpu_of(pid) for pid in pids)
        if now - before < 0.02:
            return
        before = now


async def over_http(server: Server, tables: list, moves_a_game: int
                    ) -> tuple[int, float, list[float], dict[str, float]]:
    """Layer 4: every seat's stream open, then one move at a time, each posted and waited for
    until both seats' streams have it (``one_at_a_time``)."""
    phone = Phone(server.port)

    async def listen(table, seat: str, address: str, views: dict) -> None:
        reader = EventReader(server.port, table.path("/stream"),
                             {"Authorization": f"Bearer {table.tokens[seat]}"}, address)
        assert await reader.open() == 200
        async for _id, name, data in reader.events():
            if name == b"view":
                views[table.id, seat] = json.loads(data)

    async def send(table, seat: str, move: dict, _n: int) -> None:
        status, _, data, _ = await phone.request(
            "POST", table.path("/moves"), {"Authorization": f"Bearer {table.tokens[seat]}"},
            json.dumps(move).encode())
        assert status == 201, data

    try:
        return await one_at_a_time(server, tables, moves_a_game, listen, send)
    finally:
        phone.close()


async def over_sockets(server: Server, tables: list, moves_a_game: int
                       ) -> tuple[int, float, list[float], dict[str, float]]:
    """Layer 5: as layer 4, but every seat holds its socket (``GET .../socket``) and each move
    is sent on the mover's, then waited for until both sockets have pushed it."""
    sockets: dict[tuple[str, str], SocketClient] = {}

    async def listen(table, seat: str, address: str, views: dict) -> None:
        client = sockets[table.id, seat] = SocketClient(
            server.port, table.path("/socket"),
            {"Authorization": f"Bearer {table.tokens[seat]}"}, address)
        assert await client.open() == 101
        async for message in client.messages():
            if message["event"] == "view":
                views[table.id, seat] = message["data"]
            elif message["event"] != "report":
                raise AssertionError(message)

    async def send(table, seat: str, move: dict, n: int) -> None:
        sockets[table.id, seat].send({"move": move, "key": f"k{n}-{table.id}"})

    try:
        return await one_at_a_time(server, tables, moves_a_game, listen, send)
    finally:
        for client in sockets.values():
            client.close()


async def one_at_a_time(server: Server, tables: list, moves_a_game: int, listen, send
                        ) -> tuple[int, float, list[float], dict[str, float]]:
    """Every seat listening (``listen(table, seat, address, views)`` keeps its newest view
    in ``views``), then one move at a time (``send(table, seat, move, n)``), each waited for
    until both seats have it; the moves' number, the server's CPU seconds over them, how long
    each took to reach both seats, and the CPU seconds by thread (``thread_cpu``)."""
    views: dict[tuple[str, str], dict] = {}
    listening = [asyncio.create_task(listen(table, seat, loopback(n), views))
                 for n, table in enumerate(tables) for seat in ("red", "blue")]
    while len(views) < len(listening):
        await asyncio.sleep(0.05)
    rng = random.Random(4)
    pids = [server.process.pid, *children_of(server.process.pid)]
    await idle(pids)  # its costly-work process may still be importing the referee
    cpu = -sum(cpu_of(pid) for pid in pids)
    threads_before = thread_cpu(pids)
    waits: list[float] = []
    for n in range(moves_a_game):
        for table in tables:
            turn = views[table.id, "red"]["turn"]
            if views[table.id, "red"]["phase"] != "play":
                continue
            mine = views[table.id, turn]
            sent = time.perf_counter()
            await send(table, turn, choose_move(mine, rng), n)
            while any(views[table.id, seat]["version"] <= mine["version"]
                      for seat in ("red", "blue")):
                await asyncio.sleep(0.0005)
            waits.append(time.perf_counter() - sent)
    await asyncio.sleep(0.5)  # anything the server still does for the last move
    cpu += sum(cpu_of(pid) for pid in pids)
    by_thread = {part: seconds - threads_before[part]
                 for part, seconds in thread_cpu(pids).items()}
    for task in listening:
        task.cancel()
    return len(waits), cpu, waits, by_thread

if __name__ == "__main__":
    main()
