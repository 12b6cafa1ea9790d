"""Who closed a night, and the log of its reopenings (an admin's, with the reason).

Revision ID: 9f2a3b4c5d82
Revises: 8e1f2a3b4c71
Create Date: 2026-12-01 09:05:00
"""

import sqlalchemy as sa
from alembic import op

revision = "9f2a3b4c5d82"
down_revision = "8e1f2a3b4c71"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("night", schema=None) as batch_op:
        batch_op.add_column(sa.Column("closed_by_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f("fk_night_closed_by_id_member"), "member", ["closed_by_id"], ["id"])
    op.create_table(
        "night_reopening",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("reopened_by_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("closed_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["night_id"], ["night.id"], name=op.f("fk_night_reopening_night_id_night")),
        sa.ForeignKeyConstraint(["reopened_by_id"], ["member.id"],
                                name=op.f("fk_night_reopening_reopened_by_id_member")),
        sa.ForeignKeyConstraint(["closed_by_id"], ["member.id"],
                                name=op.f("fk_night_reopening_closed_by_id_member")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night_reopening")),
    )
    with op.batch_alter_table("night_reopening", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_night_reopening_night_id"), ["night_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("night_reopening", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_night_reopening_night_id"))
    op.drop_table("night_reopening")
    with op.batch_alter_table("night", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_night_closed_by_id_member"), type_="foreignkey")
        batch_op.drop_column("closed_by_id")
