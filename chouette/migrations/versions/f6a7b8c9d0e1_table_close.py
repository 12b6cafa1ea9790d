"""A finished table can be closed (and reopened): when and by whom.

Revision ID: f6a7b8c9d0e1
Revises: d5e6f7a8b9c1
Create Date: 2026-11-27 00:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "f6a7b8c9d0e1"
down_revision = "d5e6f7a8b9c1"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chouette_table", schema=None) as batch_op:
        batch_op.add_column(sa.Column("closed_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("closed_by_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f("fk_chouette_table_closed_by_id_member"), "member",
                                    ["closed_by_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("chouette_table", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_chouette_table_closed_by_id_member"), type_="foreignkey")
        batch_op.drop_column("closed_by_id")
        batch_op.drop_column("closed_at")
