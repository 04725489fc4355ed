"""The club's records page with hundreds of finished games: prints bytes, medians and RSS; not
a test.

Fills a database with finished games of every rule set (600 unless told), each set up and
played by its rule set's simplest computer through the core alone, every player named apart
(the worst case for the players' tables), then exported and imported as a game file through
``service.import_game``, as another club's games arrive. Then drives a real `referee serve`
(one process, loopback only) and measures:

1. ``GET /club``: the page's bytes (as sent, and gzipped) and its median time, first after a
   restart (nothing replayed yet), then warm, then right after another game has finished
   (an import) each time;
2. the worker's RSS before and after 30 "junk" imports: real games whose events carry a
   padding field that takes the file near the 4 MiB limit, each imported and then
   ``GET /club`` viewed, as the report that started this bench did.

Run with `.venv/bin/python bench/club_bench.py [--games 600] [--quick]`. It uses only what
the service has always offered (``import_game``, the rule sets' cores and computers), so the
same script measures an older checkout: `PYTHONPATH=<checkout> .venv/bin/python
bench/club_bench.py`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from club_support import finished_game, game_file, padded_file  # noqa: E402
from conftest import LiveServer  # noqa: E402

from referee import service, signing  # noqa: E402
from referee.store import Store  # noqa: E402

MIX = {"naval-war": 4, "battleship-tcg": 1, "broadside": 1}  # parts of every six games
MAX_MOVES = 60  # then the seat to move resigns: every game is finished
JUNK_BYTES = 3_600_000  # a junk file's padding, under the 4 MiB a game file may be


def junk_file(n: int) -> dict:
    """A real game's file whose every event carries a padding field that takes the file near
    the 4 MiB a game file may be (its moves, fingerprints and result all check)."""
    return padded_file(finished_game("naval-war", 100_000 + n, MAX_MOVES), JUNK_BYTES)


BENCH_ENV = {"REFEREE_IMPORTS_PER_MINUTE": "1000"}  # the junk imports are the bench's own


def fill(path: Path, games: int) -> float:
    """``games`` finished games in a new database, imported from files signed with the key
    the bench's server will hold (so they count, as files it exported would); the seconds it
    took."""
    start = time.perf_counter()
    store = Store(path)
    store.migrate()
    key_file = path.with_suffix(".signing_key")  # where LiveServer's server finds its key
    if not key_file.exists():
        key_file.write_bytes(signing.new_private_key())
        key_file.chmod(0o600)
    key = signing.SigningKey(key_file.read_bytes())
    kinds = [rules for rules, parts in MIX.items() for _ in range(parts)]
    for n in range(games):
        document = game_file(finished_game(kinds[n % len(kinds)], n, MAX_MOVES))
        service.import_game(store, key.sign(document), key.public)
    store.close()
    return time.perf_counter() - start


def get(url: str, gzipped: bool = False) -> tuple[bytes, float]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzipped else {})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as response:
        body = response.read()
    return body, (time.perf_counter() - start) * 1000


def post_json(url: str, document: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(document).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.loads(response.read())


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def club_page(server: LiveServer, samples: int) -> None:
    url = server.url + "/club"
    page, first = get(url)
    zipped, _ = get(url, gzipped=True)
    warm = [get(url)[1] for _ in range(samples)]
    print(f"1. /club: {len(page):,} bytes ({len(zipped):,} gzipped); first after a restart "
          f"{first:.0f} ms, then median {statistics.median(warm):.1f} ms over {samples}")
    after = []
    for n in range(5):
        post_json(server.url + "/api/v1/games/import",
                  game_file(finished_game("naval-war", 50_000 + n, MAX_MOVES)))
        after.append(get(url)[1])
    print(f"   right after a game is imported: median {statistics.median(after):.0f} ms "
          f"(5 imports); the page is now {len(get(url)[0]):,} bytes")


def junk(server: LiveServer, imports: int) -> None:
    pid = server.process.pid
    get(server.url + "/club")
    before = rss_mb(pid)
    files = [junk_file(n) for n in range(imports)]
    sizes = [len(json.dumps(f)) for f in files]
    start = time.perf_counter()
    along = []
    for n, document in enumerate(files, start=1):
        imported = post_json(server.url + "/api/v1/games/import", document)
        token = imported["seats"]["red"]["token"]
        request = urllib.request.Request(f"{server.url}/api/v1/games/{imported['id']}",
                                         headers={"Authorization": f"Bearer {token}"})
        urllib.request.urlopen(request, timeout=600).read()
        get(server.url + "/club")
        if n % 10 == 0 and n < imports:
            along.append(f"{rss_mb(pid):.0f} MB after {n}")
    print(f"2. a worker's RSS: {before:.0f} MB, after {imports} junk imports of "
          f"{statistics.median(sizes) / 2 ** 20:.1f} MiB each (imported, viewed, then /club) "
          f"{rss_mb(pid):.0f} MB ({time.perf_counter() - start:.0f} s)"
          + (f"; {', '.join(along)}" if along else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--junk", type=int, default=30, help="junk imports (30)")
    parser.add_argument("--quick", action="store_true", help="60 games, 5 junk imports")
    args = parser.parse_args()
    games, imports = (60, 5) if args.quick else (args.games, args.junk)
    import referee
    print(f"referee from {Path(referee.__file__).parent}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "club.db"
        print(f"   {games} finished games imported in {fill(path, games):.0f} s")
        server = LiveServer(path, env=BENCH_ENV).start()
        try:
            club_page(server, 15)
        finally:
            server.stop()
        server = LiveServer(path, env=BENCH_ENV).start()  # a fresh worker for the RSS
        try:
            junk(server, imports)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
