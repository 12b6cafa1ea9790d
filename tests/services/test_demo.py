"""`flask --app app demo`: a seeded demo night built into an empty database, refused elsewhere."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from chouette.demo import DEMO_PASSWORD, MEMBERS
from chouette.extensions import db
from chouette.models import ChouetteTable, Member, Night, TableEvent
from chouette.services import members, table_states
from chouette.services import tables as tables_service
from tests.production.helpers import migrated_app, sqlite_only

pytestmark = sqlite_only


def _counts() -> tuple[int, int, int, int]:
    return tuple(db.session.scalar(select(func.count()).select_from(model))  # type: ignore[return-value]
                 for model in (Member, Night, ChouetteTable, TableEvent))


def _logs() -> dict[str, list[dict]]:
    tables = db.session.scalars(select(ChouetteTable).order_by(ChouetteTable.id))
    return {table.name: tables_service.table_log(table.id) for table in tables}


def test_demo_builds_a_night_with_games_played_and_a_decision_waiting(tmp_path: Path):
    app = migrated_app(tmp_path / "demo.sqlite")
    result = app.test_cli_runner().invoke(args=["demo"])
    assert result.exit_code == 0, result.output
    assert f"password {DEMO_PASSWORD}" in result.output
    with app.app_context():
        assert _counts()[:3] == (len(MEMBERS), 1, 3)
        names = set(db.session.scalars(select(Member.name)))
        tables = {table.name: table.id for table in db.session.scalars(select(ChouetteTable))}
        for name, table_id in tables.items():
            state = table_states.load_play(table_id).state
            assert state.games, f"{name}: no game played"
            assert set(state.players) <= names  # every seat is a member: their phone finds it
        live = table_states.load_play(tables["By the window"]).state
        assert live.game is not None and live.game.position is not None  # a board game on
        assert len(live.game.pending) >= 2  # members still to answer the box's double
        assert f"/tables/{tables['By the window']}" in result.output
        db.session.remove()
        # A player signs in with the printed password.
        member = members.authenticate("cy", DEMO_PASSWORD, "127.0.0.1")
        assert member.name == "Cy"


def test_demo_is_the_same_night_for_the_same_seed(tmp_path: Path):
    logs = []
    for name in ("one", "two"):
        app = migrated_app(tmp_path / f"{name}.sqlite")
        result = app.test_cli_runner().invoke(args=["demo", "--seed", "5"])
        assert result.exit_code == 0, result.output
        with app.app_context():
            logs.append(_logs())
    assert logs[0] == logs[1]
    app = migrated_app(tmp_path / "other.sqlite")
    assert app.test_cli_runner().invoke(args=["demo", "--seed", "6"]).exit_code == 0
    with app.app_context():
        assert _logs() != logs[0]


def test_demo_refuses_a_database_that_holds_a_club_and_changes_nothing(tmp_path: Path):
    app = migrated_app(tmp_path / "club.sqlite")
    with app.app_context():
        members.create_member(name="Zoe", username="zoe", password="a-long-password", role="admin")
        before = _counts()
    result = app.test_cli_runner().invoke(args=["demo"])
    assert result.exit_code == 1
    assert "the demo is built only into an empty database" in result.output
    with app.app_context():
        assert _counts() == before
