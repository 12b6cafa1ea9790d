"""Money: each game's ledger rows, payments (and their voids), and seasons."""

from __future__ import annotations

import datetime as dt
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from chouette.models.base import Cents, Model, utcnow

if TYPE_CHECKING:
    from chouette.models.members import Member

PAYMENT_METHODS = ("cash", "transfer", "iou")


class LedgerEntry(Model):
    """One player's result for one game, written with the event that settled the game."""

    __tablename__ = "ledger_entry"
    __table_args__ = (Index("ix_ledger_entry_night_player", "night_id", "player"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), index=True)
    game: Mapped[int]
    seq: Mapped[int]
    player: Mapped[str] = mapped_column(String(80))
    # The member this row is, None for a guest: a rename rewrites ``player`` by it.
    member_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"), index=True)
    points: Mapped[int]
    # The row's points beyond the whole ``points`` when a deal made them a fraction (docs/rules.md
    # 2.12): an exact fraction as text, ``"1/2"``, ``"-3/4"`` (``services.points``); None
    # when the row's points are whole.
    points_fraction: Mapped[str | None] = mapped_column(String(40))
    cents: Mapped[int] = mapped_column(Cents)
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Payment(Model):
    """Money handed from one player to another (or promised: an IOU)."""

    __tablename__ = "payment"
    __table_args__ = (
        CheckConstraint("cents > 0", name="cents_positive"),
        CheckConstraint("method IN ('cash', 'transfer', 'iou')", name="method"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int | None] = mapped_column(ForeignKey("night.id"), index=True)
    payer: Mapped[str] = mapped_column(String(80))
    payee: Mapped[str] = mapped_column(String(80))
    # The members paying and paid, None for a guest: a rename rewrites the names by them.
    payer_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"), index=True)
    payee_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"), index=True)
    cents: Mapped[int] = mapped_column(Cents)
    method: Mapped[str] = mapped_column(String(16), default="cash")
    recorded_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    # Recorded at a season's settle-up (then it has no night).
    season_id: Mapped[int | None] = mapped_column(ForeignKey("season.id"), index=True)


class PaymentVoid(Model):
    """A payment taken back (a tick made by mistake): the payment row stays, this row cancels
    it, so the payments' history is appended to and never rewritten."""

    __tablename__ = "payment_void"

    id: Mapped[int] = mapped_column(primary_key=True)
    payment_id: Mapped[int] = mapped_column(ForeignKey("payment.id"), unique=True)
    voided_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Season(Model):
    """A season: the nights of one currency between two dates, settled and closed together.

    Its nights are not stored: they are the nights whose date lies in ``first_date`` ..
    ``last_date`` and whose currency is the season's (seasons of one currency never overlap).
    """

    __tablename__ = "season"
    __table_args__ = (CheckConstraint("first_date <= last_date", name="dates_in_order"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    first_date: Mapped[dt.date] = mapped_column(Date)
    last_date: Mapped[dt.date] = mapped_column(Date)
    currency: Mapped[str] = mapped_column(String(3), default="EUR")
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))

    closed_by: Mapped[Member | None] = relationship(foreign_keys=[closed_by_id])

    @property
    def is_open(self) -> bool:
        """True until the season is closed."""
        return self.closed_at is None

    def __repr__(self) -> str:
        return f"<Season {self.id} {self.first_date}..{self.last_date} {self.currency} {self.name!r}>"
