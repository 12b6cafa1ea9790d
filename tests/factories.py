"""``gen_*`` factories (CTFd style): one committed row, sensible defaults, ``**overrides``.

Call them inside ``app.app_context()``. The rows keep their loaded attributes after the
context ends (the commit does not expire them), and no transaction is left open: on SQLite
an open transaction would hold the write lock against the test client's requests.
"""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

from werkzeug.security import generate_password_hash

from chouette.extensions import db
from chouette.models import ChouetteTable, Member, Night, TableEvent
from chouette.services import identity, tables

#: Every generated member's password, and the fast hashing the tests use (production: scrypt).
PASSWORD = "correct-horse-9"
TEST_HASH = "pbkdf2:sha256:1000"
_numbers = itertools.count(1)


def save(*rows: Any) -> None:
    """Commit ``rows`` and keep their attributes readable afterwards."""
    session = db.session()
    session.add_all(rows)
    keep = session.expire_on_commit
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = keep


def gen_member(role: str = "player", password: str = PASSWORD, **overrides: Any) -> Member:
    """A member who can sign in with ``password``, made as ``members.create_member`` makes one:
    their name recorded (``MemberName``), a guest's history under it theirs."""
    number = next(_numbers)
    values: dict[str, Any] = {
        "name": f"{role.title()} {number}",
        "username": f"{role}{number}",
        "password_hash": generate_password_hash(password, method=TEST_HASH),
        "role": role,
        "active": True,
    }
    values.update(overrides)
    member = Member(**values)
    db.session.add(member)
    identity.record_name(member)  # as members.create_member does: the name is theirs,
    identity.claim_guest_history(member)  # and a guest's history under it
    save(member)
    return member


def gen_night(**overrides: Any) -> Night:
    """An open night, today."""
    values: dict[str, Any] = {"name": f"Night {next(_numbers)}", "date": dt.date(2026, 11, 21), "currency": "EUR"}
    values.update(overrides)
    night = Night(**values)
    save(night)
    return night


def gen_table(night: Night | None = None, **overrides: Any) -> ChouetteTable:
    """A table with the default settings, in ``night`` (a new open one by default)."""
    night = night or gen_night()
    values: dict[str, Any] = {
        "night_id": night.id,
        "name": f"Table {next(_numbers)}",
        "settings": dict(tables.TABLE_DEFAULTS),
        "preset": "club-standard",
    }
    values.update(overrides)
    table = ChouetteTable(**values)
    save(table)
    return table


def gen_event(table: ChouetteTable, seq: int, **overrides: Any) -> TableEvent:
    """One event of ``table``'s log at ``seq`` (a join by default)."""
    values: dict[str, Any] = {"table_id": table.id, "seq": seq, "type": "join", "payload": {"player": f"P{seq}"}}
    values.update(overrides)
    event = TableEvent(**values)
    save(event)
    return event
