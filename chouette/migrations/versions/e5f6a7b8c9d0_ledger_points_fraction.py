"""A deal's points count (issue 25 item 6, docs/rules.md 2.12): ``ledger_entry.points_fraction``, the
row's points beyond its whole ``points`` as an exact fraction in text (``"1/2"``), NULL when
the row's points are whole (every row written before: deals then counted no points).

Revision ID: e5f6a7b8c9d0
Revises: c3d4e5f6a7b8
Create Date: 2026-11-26 23:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "e5f6a7b8c9d0"
down_revision = "c3d4e5f6a7b8"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ledger_entry", sa.Column("points_fraction", sa.String(length=40), nullable=True))


def downgrade() -> None:
    # A plain DROP COLUMN: a batch would copy ledger_entry, and its copy's references then
    # stop the earlier migrations' own DROP COLUMNs on SQLite.
    op.drop_column("ledger_entry", "points_fraction")
