"""The chouette rules, pure Python: a table's log folded through docs/rules.md part 2.

>>> state = fold({}, [{"type": "join", "player": p} for p in "ABC"]
...              + [{"type": "order_roll", "rolls": {"A": 6, "B": 4, "C": 2}}])
>>> state.box, state.captain, state.line
('A', 'B', ['C'])
"""

from chouette.table.errors import LogError, SettingsError, TableError
from chouette.table.game import Game, GameRecord
from chouette.table.seats import Seats, rotate
from chouette.table.settings import Settings
from chouette.table.state import (
    SNAPSHOT_VERSION,
    TableState,
    apply_event,
    can_resume,
    effective_events,
    finishes_game,
    fold,
    new_table,
    resume,
    resume_log,
    try_event,
)

__all__ = [
    "SNAPSHOT_VERSION",
    "Game",
    "GameRecord",
    "LogError",
    "Seats",
    "Settings",
    "SettingsError",
    "TableError",
    "TableState",
    "apply_event",
    "can_resume",
    "effective_events",
    "finishes_game",
    "fold",
    "new_table",
    "resume",
    "resume_log",
    "rotate",
    "try_event",
]
