"""`flask --app app record LOG.json [--format mat|sgf]`: a table log's board games as a record."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import click

from chouette.records import Record, RecordError, write_mat, write_sgf
from chouette.records.matches import match_record
from chouette.records.tables import table_records
from chouette.table import Settings, SettingsError, TableError


def write_records(records: Sequence[Record], fmt: str) -> str:
    """Records as one file: SGF holds any number of games; a .mat file holds one pair.

    Raises:
        RecordError: a game does not replay, or several pairs asked of a .mat file.
    """
    if fmt == "sgf":
        return "".join(write_sgf(record) for record in records)
    if len(records) != 1:
        pairs = ", ".join(f"{r.left} v {r.right}" for r in records)
        raise RecordError(f"a .mat file holds the games of one pair; this log has {len(records)} "
                          f"({pairs}): use --format sgf, or --game N for one game")
    return write_mat(records[0])


def _records(settings: dict[str, object], events: list[object], games: tuple[int, ...]) -> list[Record]:
    """A match table's log: its whole match (games asked for or not: a match is one record);
    a chouette table's: its board games, or those asked for."""
    if Settings.from_dict(settings).is_match:
        record = match_record(settings, events)  # type: ignore[arg-type]
        return [record] if record is not None and record.games else []
    return table_records(settings, events, games=games or None)  # type: ignore[arg-type]


@click.command("record")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["mat", "sgf"]), default="mat", show_default=True,
              help="Jellyfish .mat (GNU Backgammon, eXtreme Gammon) or GNU Backgammon's SGF.")
@click.option("--game", "games", type=int, multiple=True, help="Only this game number (repeatable).")
def record_command(path: str, fmt: str, games: tuple[int, ...]) -> None:
    """Write the record of the board-mode games of the table log in PATH to standard output."""
    try:
        with open(path, encoding="utf-8") as handle:
            log = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        click.echo(f"record: cannot read {path}: {exc}", err=True)
        sys.exit(1)
    if not isinstance(log, dict) or not isinstance(log.get("events"), list) \
            or not isinstance(log.get("table") or {}, dict):
        click.echo(f'record: {path}: a table log is an object with "table" settings and an '
                   '"events" list', err=True)
        sys.exit(1)
    try:
        records = _records(log.get("table") or {}, log["events"], games)
        if not records:
            which = "the games asked for are not" if games else "no game is"
            click.echo(f"record: {path}: {which} a finished board-mode game", err=True)
            sys.exit(1)
        text = write_records(records, fmt)
    except (TableError, RecordError, SettingsError) as exc:
        click.echo(f"record: {path}: {exc}", err=True)
        sys.exit(1)
    click.echo(text, nl=False)
