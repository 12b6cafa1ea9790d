"""The turn window's own time limit goes: ``turn_window.seconds`` and ``timeout_answer`` were
no longer read since the time limit became the house rule ``decision_seconds`` (with
``unanswered_double``), in the table's log.

Revision ID: c0d1e2f3a4b5
Revises: a9b8c7d6e5f4
Create Date: 2026-11-27 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "c0d1e2f3a4b5"
down_revision = "a9b8c7d6e5f4"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain DROP COLUMN (SQLite 3.35 and later do it in place; no batch copy of the table).
    op.drop_column("turn_window", "timeout_answer")
    op.drop_column("turn_window", "seconds")


def downgrade() -> None:
    op.add_column("turn_window", sa.Column("seconds", sa.Integer(), nullable=False,
                                           server_default="0"))
    op.add_column("turn_window", sa.Column("timeout_answer", sa.String(length=8), nullable=False,
                                           server_default="drop"))
