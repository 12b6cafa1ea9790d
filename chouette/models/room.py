"""The room around a table: its talk, seat requests and admissions, who is there, the turn's clock."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from chouette.models.base import Model, utcnow


class TableMessage(Model):
    """A short message of a table's consulting channel (``services.social``): the team's
    (``team``) or the box's with the partner (``box``), in one game of the table. Kept with
    the night, never in the rules' log, never on the big screen."""

    __tablename__ = "table_message"
    __table_args__ = (Index("ix_table_message_channel", "table_id", "game", "channel", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"))
    game: Mapped[int]
    channel: Mapped[str] = mapped_column(String(8))
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"))
    author: Mapped[str] = mapped_column(String(60))  # the seat's name when it was written
    text: Mapped[str] = mapped_column(String(400))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class SeatRequest(Model):
    """A member asks to sit down at a table from their device; its runner admits or refuses
    (``services.social``). ``status``: waiting, admitted, refused."""

    __tablename__ = "seat_request"
    __table_args__ = (Index("ix_seat_request_table", "table_id", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"))
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"))
    status: Mapped[str] = mapped_column(String(10), default="waiting")
    asked_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None]
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))


class TableAdmission(Model):
    """Whether a table seats a member who asks at once (``auto``) or its runner admits each
    one; no row: the default of its kind (``services.social.admits_by_itself``)."""

    __tablename__ = "table_admission"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    auto: Mapped[bool]
    changed_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    changed_at: Mapped[datetime] = mapped_column(default=utcnow)


class TablePresence(Model):
    """When a member's device last held a table's page open (its push stream), written at
    most every ``social.PRESENCE_WRITE_SECONDS``: connected while recent, away after."""

    __tablename__ = "table_presence"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)


class TurnWindow(Model):
    """An online table's clock of the decision it waits for now (``services.cube_window``): the
    turn's cube window ("double" or "roll", docs/using.md), the answers to an offer, a move.

    Not the rules' log: a "roll" answer is no event (a "double" is the log's double event).
    ``key`` names the decision waited for (another key: a new decision, its clock and answers
    start again); ``answers`` holds who said "roll" or asked to hold the roll; ``auto_roll``
    each player's auto-roll choice (absent: the default, on for the crew, off for the box and
    the captain). The time limit is the house rule ``decision_seconds`` (with
    ``unanswered_double``), in the table's log.
    """

    __tablename__ = "turn_window"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(80), default="")
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    answers: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    auto_roll: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
