"""Money in 64-bit cents on PostgreSQL: ``ledger_entry.cents`` and ``payment.cents`` become
``bigint`` (a 32-bit ``integer`` stops at 21,474,836.47: a table at its highest stake with the
cube at 8 and a backgammon overflowed it). SQLite's ``INTEGER`` is 64-bit already: nothing
changes there.

Revision ID: 8e4f5a6b7c82
Revises: 9f2a3b4c5d82
Create Date: 2026-11-23 22:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "8e4f5a6b7c82"
down_revision = "9f2a3b4c5d82"
branch_labels = None
depends_on = None

COLUMNS = (("ledger_entry", "cents"), ("payment", "cents"))


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column in COLUMNS:
        op.alter_column(table, column, type_=sa.BigInteger(), existing_type=sa.Integer(),
                        existing_nullable=False)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    # Refused by PostgreSQL ("integer out of range") while an amount needs more than 32 bits.
    for table, column in COLUMNS:
        op.alter_column(table, column, type_=sa.Integer(), existing_type=sa.BigInteger(),
                        existing_nullable=False)
