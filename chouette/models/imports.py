"""Imports staged on SQLite: the ids an import has taken (``ImportStage``), and the hook that
gives new nights and tables ids no staged import has taken.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import event, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from chouette.models.base import Model, utcnow
from chouette.models.nights import ChouetteTable, Night


class ImportStage(Model):
    """A table that an import is writing on SQLite (``services.exports``), before the night
    and the table exist: their ids are taken here, so no other night or table gets them
    (``take_ids``), and the rows already written under them are found again if the import
    never ends. Deleted when the import publishes its night or gives up."""

    __tablename__ = "import_stage"

    # No foreign keys: the night and the table do not exist until the import publishes them.
    table_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    night_id: Mapped[int] = mapped_column(index=True)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)


def free_ids(connection: Any, model: type[Night] | type[ChouetteTable], count: int) -> list[int]:
    """``count`` new ids for nights or tables on SQLite: past every row's id and every id an
    import has taken (``ImportStage``), as SQLite would choose them were there no imports."""
    staged = ImportStage.night_id if model is Night else ImportStage.table_id
    highest = max(connection.scalar(select(func.max(model.id))) or 0,
                  connection.scalar(select(func.max(staged))) or 0)
    return list(range(highest + 1, highest + 1 + count))


@event.listens_for(Session, "before_flush")
def _take_ids(session: Session, _context: Any, _instances: Any) -> None:
    """On SQLite, new nights and tables get ids no staged import has taken (``free_ids``)."""
    for model in (Night, ChouetteTable):
        new = [obj for obj in session.new if isinstance(obj, model) and obj.id is None]
        if not new:
            continue
        connection = session.connection()
        if connection.dialect.name != "sqlite":
            return
        for obj, free in zip(new, free_ids(connection, model, len(new)), strict=True):
            obj.id = free
