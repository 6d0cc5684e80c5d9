"""`campaign serve`: the table server on the current store (``web``, on uvicorn)."""

from __future__ import annotations

from typing import Any

import click

from cli.context import WHOLE_NUMBER, Context, pass_context
from cli.serve_notices import notice_options, notice_settings


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on. Keep 127.0.0.1 and let an https proxy face the network "
    "(docs/server.md).",
)
@click.option("--port", default=8000, show_default=True, type=WHOLE_NUMBER, help="The port.")
@click.option(
    "--pool",
    default=5,
    show_default=True,
    envvar="CAMPAIGN_POOL",
    type=click.IntRange(min=1),
    help="The most connections this process holds to a PostgreSQL store (3 or more), and "
    "the worker threads that serve requests (env CAMPAIGN_POOL).",
)
@click.option(
    "--discord-public-key",
    envvar="CAMPAIGN_DISCORD_PUBLIC_KEY",
    help="Your Discord application's public key (hex): answers Discord at /discord/interactions.",
)
@click.option(
    "--public-url",
    envvar="CAMPAIGN_PUBLIC_URL",
    help="The address the players' browsers open (https://table.example.org, your proxy's): "
    "remembered in the store for the links of `campaign member invite` (env "
    "CAMPAIGN_PUBLIC_URL).",
)
@notice_options
@pass_context
def serve(
    ctx: Context,
    /,
    host: str,
    port: int,
    pool: int,
    discord_public_key: str | None,
    public_url: str | None,
    **notices: Any,
) -> None:
    """Serve the store (--db: a SQLite file or a PostgreSQL URL) to the table: the JSON API
    under /api, its OpenAPI schema at /schema, sign-in links from `campaign member invite`, and
    with --discord-public-key the Interactions Endpoint of your Discord application.
    Stop it with Ctrl-C or SIGTERM: open pages are told to reconnect (to another server of the
    store), requests in flight finish, and it exits. Several processes may serve one
    PostgreSQL database: each holds at most --pool connections to it.

    Members are told when the table waits on them (docs/server.md, Notices): in Discord with
    the bot's token in CAMPAIGN_DISCORD_TOKEN, and by mail with --smtp-host (its password in
    CAMPAIGN_SMTP_PASSWORD). Give every server of one store the same settings.

    \b
    Example:
      campaign --db table.db serve --port 8000
      campaign --db table.db serve --public-url https://table.example.org
    """
    from web import DISCORD_PATH, create_app
    from web import serve as run

    settings = notice_settings(host, port, **notices)
    # the app first: it refuses a pool too small before any connection is tried
    app = create_app(ctx.db, pool=pool, discord_public_key=discord_public_key, notices=settings)
    ctx.close()  # the server opens the store itself, on its own pool
    address = _keep_address(app.state.engines.get(), host, port, public_url)
    click.echo(f"serving {ctx.db} on http://{host}:{port} (Ctrl-C stops)", err=True)
    if discord_public_key:
        click.echo(
            f"Discord interactions endpoint on: http://{host}:{port}{DISCORD_PATH} (Discord"
            f" calls https://YOUR-HOST{DISCORD_PATH} through your HTTPS proxy or tunnel)",
            err=True,
        )
    if address:
        click.echo(f"invite links (`campaign member invite`) open {address}", err=True)
    else:
        click.echo("invite links need the address players open: --public-url URL", err=True)
    run(app, host, port)


WILDCARDS = ("0.0.0.0", "::", "")  # listening everywhere: not an address a browser opens


def _keep_address(engine: Any, host: str, port: int, public_url: str | None) -> str:
    """Remember in the store where the players reach this server (``--public-url``, else the
    address it listens on, used by invites only while no public one is kept); the address
    invite links will use ("" for none known)."""
    if public_url is not None:
        engine.keep_server_address(public_url, public=True)
    elif host not in WILDCARDS:
        shown = f"[{host}]" if ":" in host else host
        engine.keep_server_address(f"http://{shown}:{port}", public=False)
    address = engine.server_address()
    return "" if address is None else address.url


COMMANDS = (serve,)
