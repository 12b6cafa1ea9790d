"""Nights, their tables and each table's append-only event log (enforced by the database)."""

from __future__ import annotations

import datetime as dt
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    DDL,
    JSON,
    CheckConstraint,
    Date,
    ForeignKey,
    String,
    UniqueConstraint,
    event,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from chouette.models.base import Model, utcnow

if TYPE_CHECKING:
    from chouette.models.members import Member


class Night(Model):
    """A club night: opened, its tables played, closed."""

    __tablename__ = "night"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    date: Mapped[dt.date] = mapped_column(Date)
    currency: Mapped[str] = mapped_column(String(3), default="EUR")
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]
    opened_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))

    closed_by: Mapped[Member | None] = relationship(foreign_keys=[closed_by_id])
    tables: Mapped[list[ChouetteTable]] = relationship(
        back_populates="night", order_by="ChouetteTable.id"
    )

    @property
    def is_open(self) -> bool:
        """True until the night is closed."""
        return self.closed_at is None

    def __repr__(self) -> str:
        return f"<Night {self.id} {self.date} {self.name!r}>"


class NightReopening(Model):
    """An admin reopened a closed night: who, when, why, and the close it undid (who closed
    it, when). Appended to, never rewritten: the night's page lists them."""

    __tablename__ = "night_reopening"

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id"), index=True)
    reopened_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    reason: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))

    reopened_by: Mapped[Member | None] = relationship(foreign_keys=[reopened_by_id])
    closed_by: Mapped[Member | None] = relationship(foreign_keys=[closed_by_id])


class ChouetteTable(Model):
    """One chouette table of a night; its history is its event log."""

    __tablename__ = "chouette_table"
    __table_args__ = (UniqueConstraint("night_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    preset: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Who created it: with the night's opener and the admins, the only ones who run it.
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    # A finished table its organizer closed (``services.table_close``): off the night's list
    # of open tables and the big screen, its history kept; reopened, both are None again.
    closed_at: Mapped[datetime | None]
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))

    night: Mapped[Night] = relationship(back_populates="tables")

    @property
    def is_open(self) -> bool:
        """True while the table takes commands: neither it nor its night is closed."""
        return self.closed_at is None and self.night.is_open

    def __repr__(self) -> str:
        return f"<ChouetteTable {self.id} {self.name!r}>"


class TableEvent(Model):
    """One event of a table's append-only log; ``seq`` counts from 1 without gaps."""

    __tablename__ = "table_event"
    __table_args__ = (
        UniqueConstraint("table_id", "seq"),
        CheckConstraint("seq >= 1", name="seq_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"))
    seq: Mapped[int]
    type: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)

    def as_dict(self) -> dict[str, Any]:
        """The event in the log format of docs/log-format.md: ``{"type": ..., **payload}``."""
        return {"type": self.type, **self.payload}

    def __repr__(self) -> str:
        return f"<TableEvent {self.table_id}#{self.seq} {self.type}>"


#: The table log is append-only in the database itself: UPDATE and DELETE are refused.
#: (The same statements are in the migration "append-only table log".)
_NO_UPDATE_SQLITE = ("CREATE TRIGGER IF NOT EXISTS table_event_no_update BEFORE UPDATE ON table_event "
                     "BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END")
#: The triggers as the migration "append-only table log" wrote them.
APPEND_ONLY_SQLITE_FIRST = [
    _NO_UPDATE_SQLITE,
    ("CREATE TRIGGER IF NOT EXISTS table_event_no_delete BEFORE DELETE ON table_event "
     "BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END"),
]
#: Since the migration "staged imports": the events of a table that an import is still
#: staging (``ImportStage``: the table does not exist yet) may be deleted, when the import
#: gives up. (Naming ``import_stage`` rather than ``chouette_table`` keeps SQLite's
#: rebuilds of ``chouette_table`` in later migrations possible.)
APPEND_ONLY_SQLITE = [
    _NO_UPDATE_SQLITE,
    ("CREATE TRIGGER IF NOT EXISTS table_event_no_delete BEFORE DELETE ON table_event "
     "WHEN NOT EXISTS (SELECT 1 FROM import_stage WHERE import_stage.table_id = OLD.table_id) "
     "BEGIN SELECT RAISE(ABORT, 'the table log is append-only'); END"),
]
APPEND_ONLY_POSTGRESQL = [
    (
        "CREATE OR REPLACE FUNCTION table_event_append_only() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'the table log is append-only'; END $$"
    ),
    (
        "CREATE TRIGGER table_event_append_only BEFORE UPDATE OR DELETE ON table_event "
        "FOR EACH ROW EXECUTE FUNCTION table_event_append_only()"
    ),
]
for _statement in APPEND_ONLY_SQLITE:
    event.listen(TableEvent.__table__, "after_create", DDL(_statement).execute_if(dialect="sqlite"))
for _statement in APPEND_ONLY_POSTGRESQL:
    event.listen(TableEvent.__table__, "after_create", DDL(_statement).execute_if(dialect="postgresql"))
