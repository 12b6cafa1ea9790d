"""Persisted caches of the table logs: a snapshot per finished game, each table's facts.

Revision ID: 7d2e3f4a5b61
Revises: 6c1d2e3f4a50
Create Date: 2026-11-21 08:55:00
"""

import sqlalchemy as sa
from alembic import op

revision = "7d2e3f4a5b61"
down_revision = "6c1d2e3f4a50"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_snapshot",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["chouette_table.id"],
                                name=op.f("fk_table_snapshot_table_id_chouette_table")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_snapshot")),
        sa.UniqueConstraint("table_id", "seq", name=op.f("uq_table_snapshot_table_id_seq")),
    )
    op.create_table(
        "table_facts",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("facts", sa.JSON(), nullable=False),
        sa.Column("computed_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["chouette_table.id"],
                                name=op.f("fk_table_facts_table_id_chouette_table")),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_table_facts")),
    )


def downgrade() -> None:
    op.drop_table("table_facts")
    op.drop_table("table_snapshot")
