"""Imports staged on SQLite: the ids an import has taken (``ImportStage``), and the ids new
nights and tables get past them (``free_ids``, asked by ``services.night_rows.new_id``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Mapped, mapped_column

from chouette.models.base import Model, utcnow
from chouette.models.nights import ChouetteTable, Night


class ImportStage(Model):
    """A table that an import is writing on SQLite (``services.exports``), before the night
    and the table exist: their ids are taken here, so no other night or table gets them
    (``free_ids``), and the rows already written under them are found again if the import
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


