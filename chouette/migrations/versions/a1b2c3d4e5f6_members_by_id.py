"""One person, one member (issue 12): member names unique by their key, the names a member
had, old joins matched to members, and the members' ids beside the names on ledger rows and
payments.

- ``member.name`` is stored in its one spelling (NFC, spaces collapsed) and ``member.name_key``
  (that spelling case folded) is unique. Members whose names had one key already: the oldest
  keeps the name, each later one is renamed "Name (username)" (an admin may rename them again).
  A later one's old seats stay the oldest's: the log named them both alike and cannot tell
  them apart.
- ``member_name``: every member's current name (a rename adds the new one).
- ``seat_member``: the joins written before joins carried ``member_id``, matched once to the
  member whose name they spell exactly (NFC, spaces collapsed; another case stays a guest, as
  the old code read it). The log itself is append-only and is not touched.
- ``ledger_entry.member_id``, ``payment.payer_id`` and ``payment.payee_id``: the member a row
  names exactly, else NULL (a guest).

Revision ID: a1b2c3d4e5f6
Revises: 8e4f5a6b7c82
Create Date: 2026-11-24 10:00:00
"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "a1b2c3d4e5f6"
down_revision = "8e4f5a6b7c82"
branch_labels = None
depends_on = None


def _spelling(value: object) -> str:
    return " ".join(unicodedata.normalize("NFC", value).split()) if isinstance(value, str) else ""


def _key(value: str) -> str:
    return unicodedata.normalize("NFC", _spelling(value).casefold())


def upgrade() -> None:
    # Added in place (no copy of the member table, which every other table refers to), then
    # filled, then made unique.
    op.add_column("member", sa.Column("name_key", sa.String(length=80), server_default="", nullable=False))
    op.create_table(
        "member_name",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("name_key", sa.String(length=80), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], name=op.f("fk_member_name_member_id_member")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_name")),
        sa.UniqueConstraint("member_id", "name", name=op.f("uq_member_name_member_id_name")),
    )
    with op.batch_alter_table("member_name", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_member_name_member_id"), ["member_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_member_name_name_key"), ["name_key"], unique=False)
    op.create_table(
        "seat_member",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["chouette_table.id"], name=op.f("fk_seat_member_table_id_chouette_table")),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], name=op.f("fk_seat_member_member_id_member")),
        sa.PrimaryKeyConstraint("table_id", "seq", name=op.f("pk_seat_member")),
    )
    with op.batch_alter_table("seat_member", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_member_member_id"), ["member_id"], unique=False)
    # Columns added in place, their foreign keys with them (SQLite adds a column that refers to
    # another table without copying the table, which payment_void's rows would refuse).
    for table, column in (("ledger_entry", "member_id"), ("payment", "payer_id"), ("payment", "payee_id")):
        name = f"fk_{table}_{column}_member"
        if op.get_bind().dialect.name == "sqlite":
            op.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER "
                       f"CONSTRAINT {name} REFERENCES member (id)")
        else:
            op.add_column(table, sa.Column(column, sa.Integer(), nullable=True))
            op.create_foreign_key(op.f(name), table, "member", [column], ["id"])
        op.create_index(op.f(f"ix_{table}_{column}"), table, [column], unique=False)

    _fill()

    op.create_index("ix_member_name_key", "member", ["name_key"], unique=True)


def _fill() -> None:
    """The data: names spelled and made unique, the names recorded, old joins matched, ids
    beside the names (one pass each, at migration time, once)."""
    bind = op.get_bind()
    member = sa.table("member", sa.column("id", sa.Integer), sa.column("name", sa.String),
                      sa.column("name_key", sa.String), sa.column("username", sa.String),
                      sa.column("created_at", sa.DateTime))
    member_name = sa.table("member_name", sa.column("member_id", sa.Integer), sa.column("name", sa.String),
                           sa.column("name_key", sa.String), sa.column("at", sa.DateTime))
    seat_member = sa.table("seat_member", sa.column("table_id", sa.Integer), sa.column("seq", sa.Integer),
                           sa.column("member_id", sa.Integer))
    event = sa.table("table_event", sa.column("table_id", sa.Integer), sa.column("seq", sa.Integer),
                     sa.column("type", sa.String), sa.column("payload", sa.JSON))
    ledger = sa.table("ledger_entry", sa.column("player", sa.String), sa.column("member_id", sa.Integer))
    payment = sa.table("payment", sa.column("payer", sa.String), sa.column("payee", sa.String),
                       sa.column("payer_id", sa.Integer), sa.column("payee_id", sa.Integer))

    taken: set[str] = set()
    names: dict[str, int] = {}
    rows = bind.execute(sa.select(member.c.id, member.c.name, member.c.username, member.c.created_at)
                        .order_by(member.c.id)).all()
    for member_id, raw, username, created_at in rows:
        name = _spelling(raw) or username
        if _key(name) in taken:  # a later member of a name already taken: told apart
            base, number = f"{name} ({username})", 1
            name = base
            while _key(name) in taken:
                number += 1
                name = f"{base} {number}"
        taken.add(_key(name))
        names[name] = member_id
        bind.execute(member.update().where(member.c.id == member_id).values(name=name, name_key=_key(name)))
        bind.execute(member_name.insert().values(member_id=member_id, name=name, name_key=_key(name),
                                                 at=created_at))
    joins = bind.execute(sa.select(event.c.table_id, event.c.seq, event.c.payload)
                         .where(event.c.type == "join")).all()
    for table_id, seq, payload in joins:
        data = payload if isinstance(payload, dict) else {}
        found = names.get(_spelling(data.get("player")))
        if found is not None and "member_id" not in data:
            bind.execute(seat_member.insert().values(table_id=table_id, seq=seq, member_id=found))
    for name, member_id in names.items():
        bind.execute(ledger.update().where(ledger.c.player == name).values(member_id=member_id))
        bind.execute(payment.update().where(payment.c.payer == name).values(payer_id=member_id))
        bind.execute(payment.update().where(payment.c.payee == name).values(payee_id=member_id))


def downgrade() -> None:
    op.drop_index("ix_member_name_key", table_name="member")
    op.drop_column("member", "name_key")
    for table, column in (("ledger_entry", "member_id"), ("payment", "payer_id"), ("payment", "payee_id")):
        op.drop_index(op.f(f"ix_{table}_{column}"), table_name=table)
        if op.get_bind().dialect.name != "sqlite":  # SQLite drops the column with its reference
            op.drop_constraint(op.f(f"fk_{table}_{column}_member"), table, type_="foreignkey")
        op.drop_column(table, column)
    op.drop_table("seat_member")
    op.drop_table("member_name")
