"""The migration that drops the turn window's unused columns (``seconds``, ``timeout_answer``)
does it in place: a club's rows stay, down and up again."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from chouette.extensions import MIGRATIONS_DIR, db
from chouette.models import TurnWindow
from chouette.services.base import writing
from tests.conftest import make_app, migrated_to, unmigrated
from tests.factories import gen_member, gen_night, gen_table

BEFORE = "a9b8c7d6e5f4"


def _columns() -> set[str]:
    with db.engine.connect() as connection:
        return {column["name"] for column in inspect(connection).get_columns("turn_window")}


def test_the_unused_columns_go_and_come_back_with_the_rows_kept(tmp_path):
    app = make_app(tmp_path)
    with app.app_context():
        migrated_to("head")
        assert not {"seconds", "timeout_answer"} & _columns()
        owner = gen_member("organizer", name="Olga")
        table = gen_table(gen_night(name="Friday", opened_by_id=owner.id), name="Red",
                          created_by_id=owner.id)
        table_id = table.id
        with writing():
            db.session.add(TurnWindow(table_id=table_id, key="team:3", answers={"C": "roll"},
                                      auto_roll={"D": False}))
        db.session.remove()

        downgrade(directory=MIGRATIONS_DIR, revision=BEFORE)
        assert {"seconds", "timeout_answer"} <= _columns()
        with db.engine.connect() as connection:
            row = connection.execute(text(
                "SELECT key, seconds, timeout_answer FROM turn_window")).one()
        assert tuple(row) == ("team:3", 0, "drop")

        upgrade(directory=MIGRATIONS_DIR)
        assert not {"seconds", "timeout_answer"} & _columns()
        kept = db.session.get(TurnWindow, table_id)
        assert (kept.key, kept.answers, kept.auto_roll) == ("team:3", {"C": "roll"}, {"D": False})
        unmigrated()
        db.engine.dispose()
