"""Payments taken back are cancelled by a payment_void row, never deleted.

Revision ID: 5b2e9c4f1a77
Revises: 08c8c5e822d7
Create Date: 2026-11-21 07:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "5b2e9c4f1a77"
down_revision = "08c8c5e822d7"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "payment_void",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("payment_id", sa.Integer(), nullable=False),
        sa.Column("voided_by_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["payment_id"], ["payment.id"], name=op.f("fk_payment_void_payment_id_payment")),
        sa.ForeignKeyConstraint(["voided_by_id"], ["member.id"], name=op.f("fk_payment_void_voided_by_id_member")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment_void")),
        sa.UniqueConstraint("payment_id", name=op.f("uq_payment_void_payment_id")),
    )


def downgrade() -> None:
    op.drop_table("payment_void")
