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
    # Plain ADD COLUMNs: a batch would copy the table, and on SQLite (foreign keys on) dropping
    # the old copy of a table that events, ledger rows and snapshots point at fails. SQLite
    # adds a column with its REFERENCES clause; Alembic's add_column cannot say it there.
    op.add_column("chouette_table", sa.Column("closed_at", sa.DateTime(), nullable=True))
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE chouette_table ADD COLUMN closed_by_id INTEGER "
                   "CONSTRAINT fk_chouette_table_closed_by_id_member REFERENCES member (id)")
    else:
        op.add_column("chouette_table", sa.Column(
            "closed_by_id", sa.Integer(),
            sa.ForeignKey("member.id", name="fk_chouette_table_closed_by_id_member"), nullable=True))


def downgrade() -> None:
    # Plain DROP COLUMNs, as the upgrade: SQLite drops the column with its reference.
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("fk_chouette_table_closed_by_id_member", "chouette_table", type_="foreignkey")
    op.drop_column("chouette_table", "closed_by_id")
    op.drop_column("chouette_table", "closed_at")
