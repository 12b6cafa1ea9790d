"""The account links' migration upgrades an existing club's database: its members stay, the
password-link and invitation tables come, and an admin can invite at once (issue 25)."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from chouette.extensions import MIGRATIONS_DIR, db
from chouette.models import Member
from chouette.services import account_links
from tests.conftest import make_app, migrated_to, unmigrated

BEFORE = "e5f6a7b8c9d0"


def test_a_database_of_the_previous_revision_upgrades_and_back(tmp_path):
    app = make_app(tmp_path)
    with app.app_context():
        migrated_to(BEFORE)
        with db.engine.begin() as connection:
            assert "invitation" not in inspect(connection).get_table_names()
            connection.execute(text(
                "INSERT INTO member (name, name_key, username, password_hash, role, active, session_epoch,"
                " created_at) VALUES ('Ada', 'ada', 'ada', 'x', 'admin', :yes, 0, '2026-11-01 20:00:00')"),
                {"yes": True})
        upgrade(directory=MIGRATIONS_DIR)
        with db.engine.connect() as connection:
            tables = set(inspect(connection).get_table_names())
            assert connection.execute(text("SELECT username FROM member")).scalars().all() == ["ada"]
        assert {"password_link", "invitation"} <= tables
        admin = db.session.scalar(db.select(Member))
        token, invitation = account_links.make_invitation(admin, label="", hours=12, max_uses=3)
        assert account_links.check_invitation(token).id == invitation.id
        db.session.remove()
        downgrade(directory=MIGRATIONS_DIR, revision=BEFORE)
        with db.engine.connect() as connection:
            tables = set(inspect(connection).get_table_names())
        assert not {"password_link", "invitation"} & tables
        unmigrated()
        db.engine.dispose()
