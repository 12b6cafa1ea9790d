"""GNU Backgammon's analysis: the tables waiting for it, each game's judgement, each player's figures."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from chouette.models.base import Model, utcnow


class AnalysisRequest(Model):
    """A table whose board games GNU Backgammon should judge (again): written with the event
    that finished a game, an undo or a correction (``chouette.analysis.queue``). The analysis
    worker claims it with a lease (``lease_until``): a worker that dies loses its claim when the
    lease runs out, and another takes the table again. Deleted once the worker has judged the
    table at ``seq``; a later event moves ``seq`` on, and the table is judged again."""

    __tablename__ = "analysis_request"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    seq: Mapped[int]
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    lease_until: Mapped[datetime | None]
    worker: Mapped[str | None] = mapped_column(String(80))
    attempts: Mapped[int] = mapped_column(default=0)
    error: Mapped[str | None] = mapped_column(String(2000))


class GameAnalysis(Model):
    """GNU Backgammon's judgement of one board game of a table: every decision (``decisions``,
    ``judge.Judged.to_dict``) and each player's figures. ``fingerprint`` names the decisions it
    judged: a game changed by an undo or a correction is judged again, a voided one deleted.
    One row per game (the unique key): a worker that dies mid-game leaves no half a row."""

    __tablename__ = "game_analysis"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), index=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id"), index=True)
    number: Mapped[int]
    fingerprint: Mapped[str] = mapped_column(String(64))
    decisions: Mapped[list[Any]] = mapped_column(JSON)
    analysed_at: Mapped[datetime] = mapped_column(default=utcnow)
    players: Mapped[list[PlayerAnalysis]] = relationship(
        back_populates="game", cascade="all, delete-orphan", order_by="PlayerAnalysis.name")


class PlayerAnalysis(Model):
    """One player's figures in one analysed game (errors in EMG, positive): the rows the
    player's page, the night's and the season's tables add up."""

    __tablename__ = "player_analysis"
    __table_args__ = (UniqueConstraint("game_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game_analysis.id", ondelete="CASCADE"), index=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    member_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"), index=True)
    moves: Mapped[int] = mapped_column(default=0)
    checker_error: Mapped[float] = mapped_column(Float, default=0.0)
    cube_decisions: Mapped[int] = mapped_column(default=0)
    cube_error: Mapped[float] = mapped_column(Float, default=0.0)

    game: Mapped[GameAnalysis] = relationship(back_populates="players")
