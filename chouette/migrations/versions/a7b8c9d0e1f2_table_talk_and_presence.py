"""A table's consulting messages, seat requests, admission and presence (issue 26, items 4-5).

Revision ID: a7b8c9d0e1f2
Revises: a7c1e2d3f4b5
Create Date: 2026-11-27 03:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "a7b8c9d0e1f2"
down_revision = "a7c1e2d3f4b5"
branch_labels = None
depends_on = None


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                   name=op.f(f"fk_{table}_{column}_{target}"))


def upgrade() -> None:
    op.create_table(
        "table_message",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=8), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("author", sa.String(length=60), nullable=False),
        sa.Column("text", sa.String(length=400), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        _fk("table_message", "table_id", "chouette_table"),
        _fk("table_message", "member_id", "member"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_message")),
    )
    op.create_index("ix_table_message_channel", "table_message",
                    ["table_id", "game", "channel", "id"], unique=False)
    op.create_table(
        "seat_request",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("asked_at", sa.DateTime(), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("decided_by_id", sa.Integer(), nullable=True),
        _fk("seat_request", "table_id", "chouette_table"),
        _fk("seat_request", "member_id", "member"),
        _fk("seat_request", "decided_by_id", "member"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_request")),
    )
    op.create_index("ix_seat_request_table", "seat_request", ["table_id", "status"], unique=False)
    op.create_table(
        "table_admission",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("auto", sa.Boolean(), nullable=False),
        sa.Column("changed_by_id", sa.Integer(), nullable=True),
        sa.Column("changed_at", sa.DateTime(), nullable=False),
        _fk("table_admission", "table_id", "chouette_table"),
        _fk("table_admission", "changed_by_id", "member"),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_table_admission")),
    )
    op.create_table(
        "table_presence",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
        _fk("table_presence", "table_id", "chouette_table"),
        _fk("table_presence", "member_id", "member"),
        sa.PrimaryKeyConstraint("table_id", "member_id", name=op.f("pk_table_presence")),
    )


def downgrade() -> None:
    op.drop_table("table_presence")
    op.drop_table("table_admission")
    op.drop_index("ix_seat_request_table", table_name="seat_request")
    op.drop_table("seat_request")
    op.drop_index("ix_table_message_channel", table_name="table_message")
    op.drop_table("table_message")
