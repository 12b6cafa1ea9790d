"""Account links: a one-time link to set a new password, and invitations to join the club.
Only a hash of each link's token is stored.

Revision ID: d5e6f7a8b9c1
Revises: e5f6a7b8c9d0
Create Date: 2026-11-27 00:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "d5e6f7a8b9c1"
down_revision = "e5f6a7b8c9d0"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "password_link",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], name=op.f("fk_password_link_member_id_member")),
        sa.ForeignKeyConstraint(["created_by_id"], ["member.id"],
                                name=op.f("fk_password_link_created_by_id_member")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_password_link")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_password_link_token_hash")),
    )
    with op.batch_alter_table("password_link", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_password_link_member_id"), ["member_id"], unique=False)
    op.create_table(
        "invitation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=80), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("max_uses", sa.Integer(), nullable=False),
        sa.Column("uses", sa.Integer(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint("uses >= 0 AND uses <= max_uses", name=op.f("ck_invitation_uses")),
        sa.ForeignKeyConstraint(["created_by_id"], ["member.id"],
                                name=op.f("fk_invitation_created_by_id_member")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invitation")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_invitation_token_hash")),
    )


def downgrade() -> None:
    op.drop_table("invitation")
    with op.batch_alter_table("password_link", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_password_link_member_id"))
    op.drop_table("password_link")
