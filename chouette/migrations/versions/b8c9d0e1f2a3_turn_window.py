"""An online table's turn window: the decision it waits for, since when, the answers.

Revision ID: b8c9d0e1f2a3
Revises: a7b8c9d0e1f2
Create Date: 2026-11-27 03:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "b8c9d0e1f2a3"
down_revision = "a7b8c9d0e1f2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_window",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("opened_at", sa.DateTime(), nullable=False),
        sa.Column("answers", sa.JSON(), nullable=False),
        sa.Column("auto_roll", sa.JSON(), nullable=False),
        sa.Column("seconds", sa.Integer(), nullable=False),
        sa.Column("timeout_answer", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["chouette_table.id"],
                                name=op.f("fk_turn_window_table_id_chouette_table")),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_turn_window")),
    )


def downgrade() -> None:
    op.drop_table("turn_window")
