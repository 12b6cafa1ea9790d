"""Migration 8e4f5a6b7c82: an existing database's money columns become 64-bit on PostgreSQL
(``bigint``), the rows they held unchanged; SQLite's are 64-bit already. On both, after the
upgrade, an amount past 32 bits is stored and read back exactly, sums included (issue 12,
finding 5). Runs on the database of ``DATABASE_URL`` or a new SQLite file, as
test_postgres_migrations.py does.
"""

from __future__ import annotations

from sqlalchemy import func, select, text

from chouette.extensions import db
from chouette.models import LedgerEntry, Payment
from tests.production.test_postgres_migrations import _flask, empty_app  # noqa: F401 (the fixture)

BEFORE = "9f2a3b4c5d82"  # the revision before the cents migration
BIG = 2**40 + 7  # past a 32-bit integer, within the bounds' reach


def _money_types() -> dict[str, str]:
    rows = db.session.execute(text(
        "SELECT table_name, data_type FROM information_schema.columns "
        "WHERE column_name = 'cents' AND table_name IN ('ledger_entry', 'payment')")).all()
    return dict(rows)


def test_the_upgrade_makes_cents_64_bit_and_keeps_the_rows(empty_app):  # noqa: F811
    _flask(empty_app, "db", "upgrade", BEFORE)
    with empty_app.app_context():
        db.session.execute(text("INSERT INTO night (name, date, currency, opened_at) "
                                "VALUES ('N', '2026-11-21', 'EUR', '2026-11-21 20:00:00')"))
        db.session.execute(text("INSERT INTO chouette_table (night_id, name, settings, preset, created_at) "
                                "VALUES (1, 'T', '{}', '', '2026-11-21 20:00:00')"))
        db.session.execute(text("INSERT INTO ledger_entry (night_id, table_id, game, seq, player, points, cents, at) "
                                "VALUES (1, 1, 1, 1, 'Ann', 3, 2100000000, '2026-11-21 20:00:00')"))
        db.session.commit()
        postgres = db.engine.dialect.name == "postgresql"
        if postgres:
            assert _money_types() == {"ledger_entry": "integer", "payment": "integer"}
        db.session.remove()
    _flask(empty_app, "db", "upgrade")
    with empty_app.app_context():
        if postgres:
            assert _money_types() == {"ledger_entry": "bigint", "payment": "bigint"}
        assert db.session.scalar(select(LedgerEntry.cents)) == 2_100_000_000
        db.session.add_all([LedgerEntry(night_id=1, table_id=1, game=2, seq=2, player="Ann", points=3, cents=BIG),
                            Payment(night_id=1, payer="Bob", payee="Ann", cents=BIG, method="cash")])
        db.session.commit()
        total = db.session.scalar(select(func.sum(LedgerEntry.cents)))
        assert total == 2_100_000_000 + BIG and type(total) is int
        assert db.session.scalar(select(Payment.cents)) == BIG
        db.session.remove()
    # And back: the downgrade is refused by PostgreSQL while an amount needs 64 bits, so
    # the big rows go first.
    with empty_app.app_context():
        db.session.execute(text("DELETE FROM payment"))
        db.session.execute(text("DELETE FROM ledger_entry WHERE game = 2"))
        db.session.commit()
        db.session.remove()
    _flask(empty_app, "db", "downgrade", BEFORE)
    with empty_app.app_context():
        if postgres:
            assert _money_types() == {"ledger_entry": "integer", "payment": "integer"}
        assert db.session.scalar(select(LedgerEntry.cents)) == 2_100_000_000
        db.session.remove()
