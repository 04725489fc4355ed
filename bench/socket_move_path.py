"""The hub's loop's own work for a move made on a seat's socket, in this process, with no
network: CPU per move, comparable between two checkouts run alternately. Not a test.

What the loop does for each move (``referee.sockets``), timed with ``time.thread_time``:
the message answered on the state this process keeps (``message_answer``: the rules, the
write with its token and key checks, the log line, kept and written a second's moves at a
time as the loop does), the mover's view at the version his
move made (``own_view``), the other seat's view at that version (``streams.document`` with
``held``, as ``Hub.push_game`` builds it) and whether a computer then owes a move
(``service.computers_waiting``). Not the frames, the sends or the loop's own wakes.

``--games`` games (two seats, random fleets) are played a round at a time, one move each
per round, as a league's moves come from many games: each move finds the game's state, its
SQLite pages and its code cold, as on the loop. Moves are chosen at random from the mover's
view, outside the timing, the same moves for every checkout (one seed).

``--idle-ms`` sleeps that long before each move, as the loop sleeps between the league's
moves (at 116 moves a second, some 8 ms): on this machine's virtual CPUs a thread that has
slept finds its caches cold, and the same work then costs two to three times what it costs
back to back (docs/scaling.md, "What a move costs after the loop has slept"). The time
slept is not counted; the parts of a move are printed beside the whole.

This machine's sittings differ by a tenth from one minute to the next, so compare two
checkouts run alternately, several runs each: ``--against DIR`` runs this script in this
checkout and in DIR (another clone, with its own ``.venv``) ``--runs`` times each,
alternately, and prints both medians and their ratio.

`.venv/bin/python bench/socket_move_path.py [--games 300] [--rounds 12] [--idle-ms 8]
[--against /path/to/other/clone --runs 5]`.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MOVES_A_SECOND = 116  # the league's: the loop writes its kept log lines each second


PARTS = ("the answer", "the mover's view", "the other seat's view", "a computer owes")


def measure(root: Path, games: int, rounds: int, idle_ms: float = 0.0
            ) -> tuple[int, float, dict[str, float]]:
    """Moves made, CPU per move (ms) and per part of it (``PARTS``, ms) in the checkout at
    ``root``, sleeping ``idle_ms`` before each move."""
    sys.path.insert(0, str(root))
    sys.path.insert(0, str(root / "tests"))
    from apiclient import Api, FlaskTransport, choose_move, lock_in_random_fleets, open_table

    from referee import create_app, service, serving, sockets, streams
    from referee.states import states_of
    from referee.store import Store

    folder = tempfile.mkdtemp()
    logging.basicConfig(filename=os.path.join(folder, "referee.log"))  # a line a move, as served
    app = create_app({"DATABASE": str(Path(folder) / "bench.db"), "SECRET_KEY": "bench"})
    api = Api(FlaskTransport(app.test_client()))
    tables = []
    for i in range(games):
        table = open_table(api, 2)
        lock_in_random_fleets(table, random.Random(100 + i))
        tables.append(table)
    serving.lean_log_records()  # as a serving process is set up
    serving.keep_for_good()
    spent, moves = 0.0, 0
    parts = dict.fromkeys(PARTS, 0.0)
    rng = random.Random(4)
    # the loop keeps its moves' log lines and writes them each second (a checkout from before
    # that writes each at its move)
    keep, write_kept = (getattr(service, name, None) for name in ("keep_move_lines",
                                                                  "write_kept_lines"))
    if keep is not None:
        keep()
    with app.app_context():
        store = Store(app.config["DATABASE"], autocheckpoint=False)  # as the loop's
        for n in range(rounds):
            for table in tables:
                state = states_of(store).current(store, table.id)
                if state.phase != "play":
                    continue
                seat = state.turn
                other = "blue" if seat == "red" else "red"
                view = json.loads(service.seat_view(store, table.id, seat).body)
                store.end_open_transaction()
                message = json.dumps({"move": choose_move(view, rng), "key": f"k{n}"}).encode()
                listener = streams.Listener("view", table.id, seat, table.tokens[seat])
                opponent = streams.Listener("view", table.id, other, table.tokens[other])
                if idle_ms:
                    time.sleep(idle_ms / 1000)
                began = time.thread_time()
                reply, _, held = sockets.message_answer(store, listener, message,
                                                        computers=False)
                store.end_open_transaction()
                answered = time.thread_time()
                sockets.own_view(store, listener, held)
                own = time.thread_time()
                version = streams.document(store, opponent, held=held)[0]
                other = time.thread_time()
                service.computers_waiting(store, table.id, version)
                store.end_open_transaction()
                took = time.thread_time() - began
                for part, spent_on in zip(PARTS, (answered - began, own - answered,
                                                   other - own, began + took - other), strict=True):
                    parts[part] += spent_on
                if write_kept is not None and moves % MOVES_A_SECOND == 0:
                    began = time.thread_time()
                    write_kept()
                    took += time.thread_time() - began
                if b'"event":"report"' not in reply:
                    raise SystemExit(f"a move was refused: {reply[:300]!r}")
                spent += took
                moves += 1
    return moves, 1000 * spent / moves, {part: 1000 * t / moves for part, t in parts.items()}


def alternate(other: Path, runs: int, games: int, rounds: int, idle_ms: float) -> None:
    """This checkout and ``other``, run by run, alternately; medians and their ratio."""
    found: dict[str, list[float]] = {"this": [], "other": []}
    for run in range(runs):
        for name, root in (("this", HERE.parent), ("other", other)):
            done = subprocess.run(  # this script, timing the code of ``root``
                [str(root / ".venv/bin/python"), __file__, "--games", str(games),
                 "--rounds", str(rounds), "--idle-ms", str(idle_ms), "--root", str(root)],
                capture_output=True, text=True, check=True)
            ms = float(done.stdout.split("\n")[0].split()[-1])
            found[name].append(ms)
            print(f"run {run + 1}: {name} {ms:.3f} ms a move", flush=True)
    this, that = statistics.median(found["this"]), statistics.median(found["other"])
    print(f"median: this checkout {this:.3f} ms, {other} {that:.3f} ms, "
          f"ratio {this / that:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=12, help="moves a game, at most")
    parser.add_argument("--against", type=Path, help="another clone, run alternately")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--idle-ms", type=float, default=0.0,
                        help="sleep this long before each move, as the loop does between moves")
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)  # the checkout to time
    args = parser.parse_args()
    if args.against:
        alternate(args.against.resolve(), args.runs, args.games, args.rounds, args.idle_ms)
        return
    moves, ms, parts = measure((args.root or HERE.parent).resolve(), args.games, args.rounds,
                               args.idle_ms)
    print(f"{moves} moves, CPU a move on the socket's path: {ms:.4f}")
    print("  " + ", ".join(f"{part} {spent:.3f}" for part, spent in parts.items()))


if __name__ == "__main__":
    main()
