"""`flask --app app replay FILE`: fold a table log and print its summary as JSON.

Composes the pure rules (``chouette.table``) with the money (``chouette.ledger``).
"""

from __future__ import annotations

import json
import sys
from typing import Any, Mapping

import click

from chouette.ledger.games import game_cents, game_points
from chouette.table import TableError, TableState, fold


def money(state: TableState) -> tuple[dict[str, int], dict[str, int]]:
    """Points and cents per player over every finished game of the table."""
    points = {p: 0 for p in state.players}
    cents = {p: 0 for p in state.players}
    settings = state.settings
    stakes = state.stakes if settings.per_player_stakes else None
    for game in state.games:
        share = settings.partner_share_percent
        for player, value in game_points(game.box, game.partner, game.pairs, game.extras,
                                         share).items():
            points[player] = points.get(player, 0) + value
        for player, value in game_cents(game.box, game.partner, game.pairs, game.extras, share,
                                        stake_cents=settings.stake_cents,
                                        stakes=stakes).items():
            cents[player] = cents.get(player, 0) + value
    return points, cents


def summarize(log: Mapping[str, Any]) -> dict[str, Any]:
    """The replay summary of a log object ``{"table": {...}, "events": [...]}``.

    Raises:
        TableError: a malformed log, or an event the rules refuse (LogError names it).
    """
    if not isinstance(log, Mapping) or not isinstance(log.get("events"), list):
        raise TableError('a table log is an object with "table" settings and an "events" list')
    table = log.get("table") or {}
    if not isinstance(table, Mapping):
        raise TableError('the "table" settings must be an object')
    state = fold(table, log["events"])
    points, cents = money(state)
    return {**state.summary(), "points": points, "cents": cents}


@click.command("replay")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def replay_command(path: str) -> None:
    """Replay the table log in PATH and print the summary object."""
    try:
        with open(path, encoding="utf-8") as handle:
            log = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        click.echo(f"replay: cannot read {path}: {exc}", err=True)
        sys.exit(1)
    try:
        summary = summarize(log)
    except TableError as exc:
        click.echo(f"replay: {path}: {exc}", err=True)
        sys.exit(1)
    click.echo(json.dumps(summary, indent=1, ensure_ascii=False))
