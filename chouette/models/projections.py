"""What is kept beside a table's log so that a page need not fold it: snapshots of the state,
the player pages' facts, the ledger's game lines. Caches of the log: dropping every row changes
no answer.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from chouette.models.base import Model, utcnow


class TableSnapshot(Model):
    """A table's state after exactly ``seq`` events of its log (``TableState.snapshot()``),
    written with the event that finished a game so a cold process folds only what follows.

    A cache of the log, not history: dropping every row changes no answer, and only a
    table's latest few are kept. ``version`` is the snapshot format (``SNAPSHOT_VERSION``).
    """

    __tablename__ = "table_snapshot"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"))
    seq: Mapped[int]
    version: Mapped[int]
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TableFactsRow(Model):
    """A table's facts for the player pages (``services.facts.TableFacts`` as JSON), as
    folded at ``seq`` with ``settings``: a projection of the log, recomputed when it moved.

    A cache, not history: dropping every row changes no answer. ``version`` is the facts'
    format (``services.stored_facts.FACTS_VERSION``).
    """

    __tablename__ = "table_facts"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    seq: Mapped[int]
    version: Mapped[int]
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    computed_at: Mapped[datetime] = mapped_column(default=utcnow)


class GameLineRow(Model):
    """One game of a table as the night's ledger shows it (``services.game_lines``): seats,
    cubes, result and each player's points and cents, written with the event that changed
    it, so the ledger page reads rows instead of folding the log.

    A projection of the log, valid while the table's ``GameLinesMark`` is at its last seq.
    """

    __tablename__ = "game_line"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    line: Mapped[dict[str, Any]] = mapped_column(JSON)


class GameLinesMark(Model):
    """The seq a table's ``game_line`` rows are the projection of, folded with ``settings``;
    ``version`` is their format (``services.game_lines.LINES_VERSION``). Rows whose mark is
    behind the log are folded again once, by the next page that reads them."""

    __tablename__ = "game_line_mark"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    seq: Mapped[int]
    version: Mapped[int]
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
