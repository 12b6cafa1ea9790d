"""Staged imports on SQLite: ``import_stage`` (the ids an import has taken while it writes its
rows in short transactions) and the log's delete trigger, which lets the rows of an import that
never published (their table is still staged) be deleted (issue 12, finding 6).

Revision ID: c3d4e5f6a7b8
Revises: b2c3d4e5f6a7
Create Date: 2026-11-25 03:30:00
"""

import sqlalchemy as sa
from alembic import op

from chouette.models import APPEND_ONLY_SQLITE, APPEND_ONLY_SQLITE_FIRST

revision = "c3d4e5f6a7b8"
down_revision = "b2c3d4e5f6a7"
branch_labels = None
depends_on = None

def upgrade() -> None:
    op.create_table(
        "import_stage",
        sa.Column("table_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_import_stage")),
    )
    op.create_index(op.f("ix_import_stage_night_id"), "import_stage", ["night_id"])
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS table_event_no_delete")
        for statement in APPEND_ONLY_SQLITE:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS table_event_no_delete")
        op.execute(APPEND_ONLY_SQLITE_FIRST[1])
    op.drop_index(op.f("ix_import_stage_night_id"), table_name="import_stage")
    op.drop_table("import_stage")
