"""Each game of a table as the night's ledger shows it (``game_line``), written with the
events, and the seq they are the projection of (``game_line_mark``): the ledger page reads
rows instead of folding every table's log (issue 12, finding 6).

Revision ID: b2c3d4e5f6a7
Revises: a1b2c3d4e5f6
Create Date: 2026-11-24 00:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "b2c3d4e5f6a7"
down_revision = "a1b2c3d4e5f6"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_line",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("line", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["chouette_table.id"],
                                name=op.f("fk_game_line_table_id_chouette_table")),
        sa.PrimaryKeyConstraint("table_id", "number", name=op.f("pk_game_line")),
    )
    op.create_table(
        "game_line_mark",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["chouette_table.id"],
                                name=op.f("fk_game_line_mark_table_id_chouette_table")),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_game_line_mark")),
    )


def downgrade() -> None:
    op.drop_table("game_line_mark")
    op.drop_table("game_line")
