"""The `referee` command: a Flask CLI group with `serve`, `init-db`, `key` (this referee's
public key), `trust` (the referees whose signed game files count here), `verify-dice` (every
roll of a game file recomputed from its revealed seed, BB24) and `export-all` / `import-all`
(moving a club to another database)."""

from __future__ import annotations

import os
import socket
import sys
import time
from datetime import UTC, datetime

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext

from . import costly, service, signing, streams, strictjson
from .network import lan_addresses
from .store import Store, checkpoint_in_background, shown
from .web import evening_key

COMPUTER_CLOCK_S = 1.0  # how often the server moves the computers that are due (R25)
COSTLY_PROCESSES = 1  # worker processes of each server process's costly pool (referee.costly)


MAX_FILE_BYTES = 8 * 1024 * 1024  # a game file's size, as the referee takes one


@click.command("verify-dice")
@click.argument("file", type=click.File("rb"))
def verify_dice_command(file) -> None:
    """Recompute every roll of a finished game's FILE (its game file, exported from the game's
    page or GET /api/v1/games/{id}/export) from the referee's secret seed revealed in it and
    the players' seeds (BB24), and replay the file under its rules; exit status 1 if anything
    does not match."""
    from .common import dice
    from .errors import ApiError

    raw = file.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise click.ClickException(f"the file is over {MAX_FILE_BYTES // 2**20} MiB: not a game "
                                   "file of this referee")
    try:
        document = strictjson.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as bad:
        raise click.ClickException(f"the file is not JSON ({bad})") from None
    events = document.get("events") if isinstance(document, dict) else None
    if not isinstance(events, list):
        raise click.ClickException("the file holds no events: not a game file")
    found = dice.audit(events)
    click.echo(f"commitment   {found.commitment}")
    click.echo(f"secret seed  {found.secret}")
    click.echo(f"seeds        {', '.join(found.seeds) or '(none)'}")
    for problem in found.problems:
        click.echo(f"problem      {problem}")
    for n, logged, drawn in found.mismatches:
        click.echo(f"roll {n:<7} the file says {logged}, the seeds give {drawn}")
    if not found.problems:
        matched = len(found.rolls) - len(found.mismatches)
        click.echo(f"rolls        {len(found.rolls)} recomputed, {matched} match")
    try:
        service.check_export(document)
        click.echo("replay       the file replays under its rules, every roll where the rules "
                   "draw one")
        replayed = True
    except ApiError as refused:
        click.echo(f"replay       refused: {refused.message}")
        replayed = False
    if not found.good or not replayed:
        raise SystemExit(1)
    click.echo("verified     every roll is the one the committed seed and the players' seeds "
               "give")


@click.command("init-db")
@with_appcontext
def init_db() -> None:
    """Create the database if missing and apply any migration not yet applied."""
    store = Store(current_app.config["DATABASE"])
    # the app already migrated the database when it was made; report that too
    applied = current_app.extensions.pop("referee.migrated", []) + store.migrate()
    store.close()
    click.echo(f"Database {shown(current_app.config['DATABASE'])}: "
               + (f"applied {', '.join(applied)}" if applied else "up to date"))


@click.command("key")
@with_appcontext
def key_command() -> None:
    """Print this referee's public key: another referee counts the game files this one signs
    once its organiser runs `referee trust add <key> --name ...` there."""
    click.echo(current_app.extensions["referee.signing_key"].public)


@click.group("trust")
def trust_command() -> None:
    """The referees whose signed game files count in this club's records."""


MAX_TRUST_NAME = 60


def _trusted_key(key: str) -> str:
    try:
        signing.public_key(key.strip(), "KEY")
    except signing.SignatureRefused as refused:
        raise click.BadParameter(f"{refused.message} (`referee key` on the other referee "
                                 "prints its key)", param_hint="KEY") from None
    return key.strip()


@trust_command.command("add")
@click.argument("key")
@click.option("--name", required=True, help="What to call that referee, e.g. \"Old laptop\".")
@with_appcontext
def trust_add(key: str, name: str) -> None:
    """Trust the referee whose public key is KEY: its signed game files count in the club's
    records, those imported already included."""
    key, name = _trusted_key(key), name.strip()
    if not 0 < len(name) <= MAX_TRUST_NAME or not name.isprintable():
        raise click.BadParameter(f"a name is 1 to {MAX_TRUST_NAME} printable characters",
                                 param_hint="--name")
    if key == current_app.extensions["referee.signing_key"].public:
        click.echo("That is this referee's own key: the files it signs count here already.")
        return
    store = Store(current_app.config["DATABASE"])
    with store.write():
        store.trust(key, name, time.time())
    service.recount_imports(store, current_app.extensions["referee.signing_key"].public)
    store.close()
    click.echo(f"Trusted {key} ({name}): the game files it signs count in the club's records, "
               "those imported already included.")


@trust_command.command("list")
@with_appcontext
def trust_list() -> None:
    """List this referee's own key and the keys it trusts."""
    click.echo(f"{current_app.extensions['referee.signing_key'].public}  (this referee)")
    store = Store(current_app.config["DATABASE"])
    for row in store.trusted():
        added = datetime.fromtimestamp(row["added_at"], UTC).strftime("%Y-%m-%d")
        click.echo(f"{row['public_key']}  {row['name']} (trusted since {added})")
    store.close()


@trust_command.command("remove")
@click.argument("key")
@with_appcontext
def trust_remove(key: str) -> None:
    """Trust KEY no more: the games its files brought are listed as unverified again."""
    key = _trusted_key(key)
    store = Store(current_app.config["DATABASE"])
    with store.write():
        removed = store.distrust(key)
    service.recount_imports(store, current_app.extensions["referee.signing_key"].public)
    store.close()
    if not removed:
        raise click.ClickException(f"{key} is not a trusted key (`referee trust list`)")
    click.echo(f"{key} is trusted no more: the games its files brought count in no record.")


@click.command("export-all")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@with_appcontext
def export_all(file: str) -> None:
    """Write every game, seat, record and trusted key of this referee's database to FILE
    (- for standard output), signed by this referee: `referee import-all FILE` reads it
    into another database (a SQLite file, PostgreSQL, another laptop's)."""
    from .service import moving

    store = Store(current_app.config["DATABASE"])
    try:
        if file == "-":
            for line in moving.export_club(store, current_app.extensions["referee.signing_key"]):
                sys.stdout.write(line)
            return
        temporary = f"{file}.part"
        with open(temporary, "w", encoding="ascii", opener=_private_opener) as out:
            for line in moving.export_club(store, current_app.extensions["referee.signing_key"]):
                out.write(line)
        os.replace(temporary, file)
        click.echo(f"Wrote the club ({store.game_count()} games) from "
                   f"{shown(current_app.config['DATABASE'])} to {file}", err=True)
    finally:
        store.close()


def _private_opener(path: str, flags: int) -> int:
    """A club file holds the games' secrets and the seats' hashes: the owner's alone."""
    return os.open(path, flags, 0o600)


@click.command("import-all")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_all(file) -> None:
    """Read a club FILE that `referee export-all` wrote into this referee's database, which
    has no games yet: all of it, or nothing if the file was changed or cut short."""
    from .service import moving

    store = Store(current_app.config["DATABASE"])
    try:
        moved = moving.import_club(store, moving.lines_of(file),
                                   current_app.extensions["referee.signing_key"].public)
    except moving.ClubFileRefused as refused:
        raise click.ClickException(f"{file.name} was not imported: {refused}") from None
    except Exception as failed:  # the database's own refusal (a duplicate row ...)
        raise click.ClickException(f"{file.name} was not imported, nothing was written: "
                                   f"{type(failed).__name__}: {str(failed)[:200]}") from None
    finally:
        store.close()
    rows = ", ".join(f"{n} {table}" for table, n in moved.rows.items() if n)
    click.echo(f"Imported {moved.games} games into {shown(current_app.config['DATABASE'])}"
               + (f" ({rows})." if rows else "."))
    if moved.trusted:
        click.echo(f"Trusted {moved.source_key} (the referee this club moved from): the game "
                   "files it signed count here, as they counted there.")


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--threads", default=8, show_default=True, type=int)
@click.option("--quiet", is_flag=True, help="Do not print the address and QR code.")
@click.option("--idle-timeout", type=click.IntRange(1, 3600), default=None,
              help="Seconds an idle connection is kept open [default: REFEREE_IDLE_TIMEOUT "
                   "or 30].")
@click.option("--trusted-proxy", default=None, metavar="ADDRESS",
              help="The reverse proxy's address, whose X-Forwarded-For, -Proto and -Host "
                   "headers are believed [default: REFEREE_TRUSTED_PROXY or none].")
@click.option("--workers", type=click.IntRange(1, 16), default=None,
              help="Processes serving on the one port, each using one core [default: "
                   "REFEREE_WORKERS or the number of cores, at most 4].")
@click.option("--listen-fd", type=int, default=None, hidden=True)  # a worker's socket
@click.option("--parent-pid", type=int, default=None, hidden=True)  # and who started it
@with_appcontext
def serve(host: str, port: int, threads: int, quiet: bool, idle_timeout: int | None,
          trusted_proxy: str | None, workers: int | None, listen_fd: int | None,
          parent_pid: int | None) -> None:
    """Serve the referee with waitress, reachable from phones on the LAN."""
    import segno

    from . import serving

    app = current_app._get_current_object()  # type: ignore[attr-defined]  # werkzeug's proxy
    if workers is None:
        workers = app.config.get("WORKERS", min(os.cpu_count() or 1, 4))
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 16:
            raise click.BadParameter(f"REFEREE_WORKERS is a number of processes from 1 to 16, "
                                     f"not {workers!r}", param_hint="REFEREE_WORKERS")
    if not quiet:
        addresses = lan_addresses() if host == "0.0.0.0" else [host]
        url = f"http://{addresses[0]}:{port}/"
        click.echo(f"The referee is at {url}  (database {shown(app.config['DATABASE'])})")
        for other in addresses[1:]:
            click.echo(f"  also http://{other}:{port}/")
        if workers > 1:
            click.echo(f"  ({workers} worker processes, one per core)")
        laptop = f"http://127.0.0.1:{port}/evening on this laptop, or " \
            if host in ("0.0.0.0", "127.0.0.1", "localhost") else ""
        click.echo(f"The organiser's page of the evening's tables: {laptop}"
                   f"{url}evening?key={evening_key()} from another device (keep the key to "
                   "yourself)")
        click.echo("Scan this with a phone on the same network:")
        segno.make(url, error="m").terminal(out=sys.stdout, compact=True)
        sys.stdout.flush()
    if idle_timeout is None:
        configured = app.config.get("IDLE_TIMEOUT", serving.IDLE_TIMEOUT)
        if isinstance(configured, bool) or not isinstance(configured, int) \
                or not 1 <= configured <= 3600:
            raise click.BadParameter(f"REFEREE_IDLE_TIMEOUT is seconds from 1 to 3600, not "
                                     f"{configured!r}", param_hint="REFEREE_IDLE_TIMEOUT")
        idle_timeout = configured
    proxy = trusted_proxy or app.config.get("TRUSTED_PROXY")
    behind = {"trusted_proxy": proxy, "trusted_proxy_headers": serving.PROXY_HEADERS,
              "trusted_proxy_count": 1} if proxy else {}
    options = {"threads": threads, "ident": "referee", "clear_untrusted_proxy_headers": True,
               **behind}
    app.config["CHECKPOINT_IN_BACKGROUND"] = True  # the WAL's, off the requests' path
    serving.room_for_streams()
    streams.start_hub(app.config["DATABASE"], proxy)  # this process's streams (SSE)
    checkpoint_in_background(app.config["DATABASE"])
    costly.use_processes(COSTLY_PROCESSES)  # printing and the like, off the requests' process
    if listen_fd is None:  # the first process keeps the computers' clock (R25)
        clock = Store(app.config["DATABASE"], autocheckpoint=False)
        serving.every(COMPUTER_CLOCK_S, lambda: service.wake_computers(clock), "computer-clock")
    if listen_fd is not None:  # a worker started by the first process (serving.serve_workers)
        serving.follow_parent(parent_pid)
        serving.serve(app, idle_timeout, sockets=[socket.socket(fileno=listen_fd)], **options)
        return
    try:
        socks = serving.listening_sockets(host, port, workers)
    except OSError as err:
        raise click.ClickException(f"Cannot listen on {host} port {port}: "
                                   f"{err.strerror or err}") from None
    if workers == 1:
        serving.serve(app, idle_timeout, sockets=socks, **options)
    else:
        child = ["--host", host, "--port", str(port), "--threads", str(threads), "--quiet",
                 "--idle-timeout", str(idle_timeout), "--workers", "1",
                 *(["--trusted-proxy", proxy] if proxy else [])]
        serving.serve_workers(app, child, socks, idle_timeout, **options)


def register(app: Flask) -> None:
    from .duel import duel_command
    from .ladder import ladder_command

    app.cli.add_command(init_db)
    app.cli.add_command(export_all)
    app.cli.add_command(import_all)
    app.cli.add_command(key_command)
    app.cli.add_command(trust_command)
    app.cli.add_command(serve)
    app.cli.add_command(duel_command)
    app.cli.add_command(ladder_command)
    app.cli.add_command(verify_dice_command)


def _create_app():
    from . import create_app

    return create_app()


main = FlaskGroup(create_app=_create_app, help="The referee for the club's naval games.")
