"""Migration a1b2c3d4e5f6 ("members by id", issue 12 finding 2) on an existing database: names
spelled once and unique by key (the oldest of two "Cy" keeps the name, the later one is told
apart by their username), old joins matched once to the member they spell exactly (another
case stays a guest), ledger rows and payments given their members' ids. Then the same-named
second account can no longer answer Cy's cube, and the first can. Runs on the database of
``DATABASE_URL`` or a new SQLite file, as test_postgres_migrations.py does.
"""

from __future__ import annotations

import json

from sqlalchemy import select, text

from chouette.extensions import db
from chouette.models import LedgerEntry, Member, MemberName, Payment, SeatMember
from chouette.services import deciders, identity, table_states
from tests.production.test_postgres_migrations import _flask, empty_app  # noqa: F401 (the fixture)

BEFORE = "8e4f5a6b7c82"  # the revision before the members by id
AT = "'2026-11-21 20:00:00'"


def _insert_old_club() -> None:
    """Members Cy, "Cy " (stored "Cy" by the old code), "Zoe  Two"; a table where Cy, Zoe Two
    and a guest "marco" beside the member Marco joined, by name; a ledger row and a payment."""
    for number, (name, username) in enumerate(
            [("Cy", "cy"), ("Cy", "cy2"), ("Zoe  Two", "zoe"), ("Marco", "marco"), ("Boss", "boss")], 1):
        role = "organizer" if username == "boss" else "player"
        db.session.execute(text(
            "INSERT INTO member (id, name, username, password_hash, role, active, session_epoch, created_at) "
            f"VALUES ({number}, :name, :username, 'x', '{role}', :active, 0, {AT})"),
            {"name": name, "username": username, "active": True})
    db.session.execute(text(f"INSERT INTO night (id, name, date, currency, opened_at) VALUES (1, 'N', '2026-11-21', 'EUR', {AT})"))
    db.session.execute(text(f"INSERT INTO chouette_table (id, night_id, name, settings, preset, created_at) VALUES (1, 1, 'T', '{{}}', '', {AT})"))
    for seq, player in enumerate(["Cy", "Zoe Two", "Marco", "marco"], 1):
        db.session.execute(text(f"INSERT INTO table_event (table_id, seq, type, payload, at) VALUES (1, :seq, 'join', :payload, {AT})"),
                           {"seq": seq, "payload": json.dumps({"player": player})})
    db.session.execute(text(f"INSERT INTO table_event (table_id, seq, type, payload, at) VALUES (1, 5, 'order', :payload, {AT})"),
                       {"payload": json.dumps({"players": ["Cy", "Zoe Two", "Marco", "marco"]})})
    db.session.execute(text("INSERT INTO ledger_entry (night_id, table_id, game, seq, player, points, cents, at) "
                            f"VALUES (1, 1, 1, 5, 'Cy', 1, 100, {AT}), (1, 1, 1, 5, 'marco', -1, -100, {AT})"))
    db.session.execute(text("INSERT INTO payment (night_id, payer, payee, cents, method, at) "
                            f"VALUES (1, 'marco', 'Cy', 100, 'cash', {AT}), (1, 'marco', 'Cy', 5, 'cash', {AT})"))
    db.session.execute(text(f"INSERT INTO payment_void (payment_id, voided_by_id, at) VALUES (2, 5, {AT})"))
    db.session.execute(text(f"INSERT INTO member_session (member_id, token_hash, created_at) VALUES (1, 'h', {AT})"))
    db.session.commit()


def test_the_upgrade_makes_names_unique_and_matches_old_seats_once(empty_app):  # noqa: F811
    _flask(empty_app, "db", "upgrade", BEFORE)
    with empty_app.app_context():
        _insert_old_club()
        db.session.remove()
    _flask(empty_app, "db", "upgrade")
    with empty_app.app_context():
        names = dict(db.session.execute(select(Member.username, Member.name)).all())
        assert names == {"cy": "Cy", "cy2": "Cy (cy2)", "zoe": "Zoe Two", "marco": "Marco", "boss": "Boss"}
        assert db.session.scalar(select(Member.name_key).where(Member.username == "zoe")) == "zoe two"
        assert len(db.session.scalars(select(MemberName)).all()) == 5
        # The joins spelled exactly as a member are theirs; "marco" stays a guest.
        assert dict(db.session.execute(select(SeatMember.seq, SeatMember.member_id)).all()) == {1: 1, 2: 3, 3: 4}
        assert identity.seat_members(1) == {"Cy": 1, "Zoe Two": 3, "Marco": 4}
        assert dict(db.session.execute(select(LedgerEntry.player, LedgerEntry.member_id)).all()) \
            == {"Cy": 1, "marco": None}
        assert set(db.session.execute(select(Payment.payer_id, Payment.payee_id)).all()) == {(None, 1)}
        # The old code read Cy's seat as both accounts'; now it is the first Cy's only.
        state = table_states.load_play(1).state
        twin, cy = db.session.get(Member, 2), db.session.get(Member, 1)
        double = {"type": "double", "by": "Cy"}
        assert deciders.seat_name(twin, 1, state) is None and not deciders.may_decide(twin, state, double, 1)
        assert deciders.seat_name(cy, 1, state) == "Cy"
        # And the database refuses a second member of one key.
        db.session.add(Member(name="ZOE two", username="zoe3", password_hash="x", role="player"))
        try:
            db.session.commit()
        except Exception as error:  # noqa: BLE001 (the driver's IntegrityError, either database)
            assert "unique" in str(error).lower() or "duplicate" in str(error).lower()
            db.session.rollback()
        else:
            raise AssertionError("a second Zoe Two was stored")
        db.session.remove()
    _flask(empty_app, "db", "downgrade", BEFORE)
    with empty_app.app_context():
        assert db.session.scalar(text("SELECT count(*) FROM member")) == 5
        db.session.remove()
