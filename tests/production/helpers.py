"""Shared by the production tests: a migrated SQLite app, a scripted club table, and the
consistency check every fault test ends with (the log whole, the ledger its projection)."""

from __future__ import annotations

import os
import random
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from app import create_app
from chouette import caches
from chouette.extensions import db, read_only
from chouette.models import ChouetteTable, LedgerEntry, TableEvent
from chouette.services import commands, table_states
from chouette.services import tables as tables_service
from chouette.standings import games_money
from chouette.table import TableState, fold
from chouette.table.actions import legal_actions
from tests.factories import TEST_HASH

#: Tests that run on a SQLite file whatever DATABASE_URL says (backup API, gunicorn on a file):
#: deselected from the PostgreSQL run by ``-m "not sqlite_only"``, skipped if run there anyway.
sqlite_only = [
    pytest.mark.sqlite_only,
    pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="SQLite file database only"),
]

#: The players of a scripted table.
PLAYERS = ("Ann", "Bob", "Cy", "Dee")

def migrated_app(path: Path, **config: Any) -> Flask:
    """An app on a new SQLite file built by the migrations (as ``flask init-db`` does)."""
    settings: dict[str, Any] = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
        "WTF_CSRF_ENABLED": False,
        "PASSWORD_HASH_METHOD": TEST_HASH,
    }
    settings.update(config)
    app = create_app(settings)
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    return app


def seat_table(table_id: int, organizer: Any) -> None:
    """Seat the scripted players in a fixed order (Ann in the box, Bob captain)."""
    for name in PLAYERS:
        commands.play(table_id, tables_service.last_seq(table_id), {"type": "join", "player": name}, organizer)
    commands.play(table_id, tables_service.last_seq(table_id), {"type": "order", "players": list(PLAYERS)}, organizer)


def next_command(state: TableState, rng: random.Random) -> dict[str, Any]:
    """A command the rules accept now, drawn with ``rng``: a double, an answer, a result, or
    now and then an undo."""
    if rng.random() < 0.05:
        return {"type": "undo"}
    actions = legal_actions(state)
    if not actions:  # e.g. too few players seated: nothing but undo is possible
        return {"type": "undo"}
    return dict(rng.choice(actions))


def next_table_command(app: Flask, table_id: int, rng: random.Random) -> tuple[dict[str, Any], int]:
    """``next_command`` at ``table_id`` as it is stored now (read only), and the seq it is
    drawn at: what a client posts next."""
    with app.app_context():
        read_only()
        played = table_states.load_play(table_id)
        drawn = next_command(played.state, rng), played.seq
        db.session.remove()
    return drawn


def check_consistency(app: Flask) -> dict[str, int]:
    """Assert every table log is seq 1..n and the ledger is the projection of the logs.

    For every table and game: the sum of the ledger rows per player equals ``games_money`` of
    the folded log, and the night's ledger sums to zero. Returns counts for the report.
    """
    caches.clear_all(app)  # folded afresh from the database
    with app.app_context():
        tables = db.session.scalars(select(ChouetteTable)).all()
        events = 0
        for table in tables:
            seqs = db.session.scalars(select(TableEvent.seq).where(TableEvent.table_id == table.id)
                                      .order_by(TableEvent.seq)).all()
            assert seqs == list(range(1, len(seqs) + 1)), f"table {table.id}: seqs {seqs}"
            events += len(seqs)
            state = fold(table.settings, tables_service.table_log(table.id))
            expected: dict[tuple[int, str], tuple[Any, int]] = {}
            for game in games_money(state):
                for player in set(game.points) | set(game.cents):
                    value = (game.points.get(player, 0), game.cents.get(player, 0))
                    if value != (0, 0):
                        expected[(game.number, player)] = value
            booked: dict[tuple[int, str], list[Any]] = defaultdict(lambda: [0, 0])
            for row in db.session.scalars(select(LedgerEntry).where(LedgerEntry.table_id == table.id)):
                # A deal's points count: the row's fraction beyond its whole points (issue 25).
                booked[(row.game, row.player)][0] += row.points + Fraction(row.points_fraction or 0)
                booked[(row.game, row.player)][1] += row.cents
            ledger = {key: (p, c) for key, (p, c) in booked.items() if (p, c) != (0, 0)}
            assert ledger == expected, f"table {table.id}: ledger {ledger} != projection {expected}"
        total = sum(row.cents for row in db.session.scalars(select(LedgerEntry)))
        assert total == 0, f"the ledger sums to {total} cents"
        rows = db.session.query(LedgerEntry).count()
        db.session.remove()
    return {"tables": len(tables), "events": events, "ledger_rows": rows}
