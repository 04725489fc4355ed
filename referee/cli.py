"""The `referee` command: a Flask CLI group with `serve` and `init-db`."""

from __future__ import annotations

import sys

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext

from .network import lan_addresses
from .store import Store


@click.command("init-db")
@with_appcontext
def init_db() -> None:
    """Create the database if missing and apply any migration not yet applied."""
    store = Store(current_app.config["DATABASE"])
    # the app already migrated the database when it was made; report that too
    applied = current_app.extensions.pop("referee.migrated", []) + store.migrate()
    store.close()
    click.echo(f"Database {current_app.config['DATABASE']}: "
               + (f"applied {', '.join(applied)}" if applied else "up to date"))


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
@with_appcontext
def serve(host: str, port: int, threads: int, quiet: bool, idle_timeout: int | None,
          trusted_proxy: str | None) -> None:
    """Serve the referee with waitress, reachable from phones on the LAN."""
    import segno

    from . import serving

    app = current_app._get_current_object()
    if not quiet:
        addresses = lan_addresses() if host == "0.0.0.0" else [host]
        url = f"http://{addresses[0]}:{port}/"
        click.echo(f"The referee is at {url}  (database {app.config['DATABASE']})")
        for other in addresses[1:]:
            click.echo(f"  also http://{other}:{port}/")
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
    serving.serve(app, idle_timeout, host=host, port=port, threads=threads, ident="referee",
                  clear_untrusted_proxy_headers=True, **behind)


def register(app: Flask) -> None:
    from .duel import duel_command
    from .ladder import ladder_command

    app.cli.add_command(init_db)
    app.cli.add_command(serve)
    app.cli.add_command(duel_command)
    app.cli.add_command(ladder_command)


def _create_app():
    from . import create_app

    return create_app()


main = FlaskGroup(create_app=_create_app, help="The referee for The Naval War Game.")
