"""Game records for analysis programs: Jellyfish ``.mat`` and GNU Backgammon's SGF.

Pure Python (the standard library, the engine and the table rules). Build a ``Record``, then
``write_mat(record)`` or ``write_sgf(record)``; both replay every game through the engine first.

>>> record = Record("Ann", "Bob", (RecordedGame((Play(0, (3, 1), "8/5 6/5"),), None, 0),))
>>> print(write_mat(record).splitlines()[3])
 Ann : 0                        Bob : 0
"""

from chouette.records.mat import write_mat
from chouette.records.model import (
    LEFT,
    RIGHT,
    Action,
    Double,
    Drop,
    Play,
    Record,
    RecordedGame,
    RecordError,
    Take,
    Turn,
    replay,
    safe_name,
)
from chouette.records.sgf import write_sgf

__all__ = [
    "LEFT",
    "RIGHT",
    "Action",
    "Double",
    "Drop",
    "Play",
    "Record",
    "RecordError",
    "RecordedGame",
    "Take",
    "Turn",
    "replay",
    "safe_name",
    "write_mat",
    "write_sgf",
]
