"""append-only table log: the database refuses UPDATE and DELETE on table_event

Revision ID: 7a1c0e5b9d20
Revises: d4d236d57447
Create Date: 2026-11-21 06:25:00

"""
from alembic import op

from chouette.models import APPEND_ONLY_POSTGRESQL
from chouette.models import APPEND_ONLY_SQLITE_FIRST as APPEND_ONLY_SQLITE

# revision identifiers, used by Alembic.
revision = '7a1c0e5b9d20'
down_revision = 'd4d236d57447'
branch_labels = None
depends_on = None


def upgrade():
    dialect = op.get_bind().dialect.name
    statements = {"sqlite": APPEND_ONLY_SQLITE, "postgresql": APPEND_ONLY_POSTGRESQL}.get(dialect, [])
    for statement in statements:
        op.execute(statement)


def downgrade():
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS table_event_no_update")
        op.execute("DROP TRIGGER IF EXISTS table_event_no_delete")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS table_event_append_only ON table_event")
        op.execute("DROP FUNCTION IF EXISTS table_event_append_only()")
