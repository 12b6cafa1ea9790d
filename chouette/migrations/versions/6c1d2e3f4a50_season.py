"""Seasons: the nights of one currency between two dates, settled and closed together; a
payment may be recorded at a season (then it has no night).

Revision ID: 6c1d2e3f4a50
Revises: 5b2e9c4f1a77
Create Date: 2026-11-21 08:50:00
"""

import sqlalchemy as sa
from alembic import op

revision = "6c1d2e3f4a50"
down_revision = "5b2e9c4f1a77"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("first_date", sa.Date(), nullable=False),
        sa.Column("last_date", sa.Date(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("closed_by_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("first_date <= last_date", name=op.f("ck_season_dates_in_order")),
        sa.ForeignKeyConstraint(["created_by_id"], ["member.id"], name=op.f("fk_season_created_by_id_member")),
        sa.ForeignKeyConstraint(["closed_by_id"], ["member.id"], name=op.f("fk_season_closed_by_id_member")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_season")),
    )
    with op.batch_alter_table("payment", schema=None) as batch_op:
        batch_op.add_column(sa.Column("season_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_payment_season_id"), ["season_id"], unique=False)
        batch_op.create_foreign_key(batch_op.f("fk_payment_season_id_season"), "season", ["season_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("payment", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_payment_season_id_season"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_payment_season_id"))
        batch_op.drop_column("season_id")
    op.drop_table("season")
