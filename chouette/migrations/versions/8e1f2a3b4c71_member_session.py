"""Server-side sessions: signing out deletes the member's session, so a copied cookie opens
nothing afterwards.

Revision ID: 8e1f2a3b4c71
Revises: 7d2e3f4a5b61
Create Date: 2026-12-01 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "8e1f2a3b4c71"
down_revision = "7d2e3f4a5b61"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "member_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], name=op.f("fk_member_session_member_id_member")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_session")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_member_session_token_hash")),
    )
    with op.batch_alter_table("member_session", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_member_session_member_id"), ["member_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("member_session", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_member_session_member_id"))
    op.drop_table("member_session")
