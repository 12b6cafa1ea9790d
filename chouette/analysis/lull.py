"""The analysis waits for a lull at the tables: gnubg takes a whole core while it judges.

On a club's two-core machine, a game being judged slowed the organizers' commands' p95 by
0-60% (docs/performance.md 12), whatever its priority. The tables come first: the worker
judges a game only once no table has taken a command for ``seconds`` (``--quiet``), so the
analysis runs in the night's lulls, and after it. A game already started is judged to its
end (a few seconds).

A lull is read from the log itself: the newest event's id (the primary key, one index
lookup) and, the first time, its time. An id that moved since the last look starts the lull
again, by the worker's own clock (no clock shared with the web's machine is needed for that).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import select

from chouette.extensions import db
from chouette.models import TableEvent, utcnow

#: Seconds without a command at any table before a game is judged (``analysis-worker --quiet``).
QUIET_SECONDS = 15.0
#: Seconds between two looks at the log while waiting.
LOOK_SECONDS = 1.0

Newest = Callable[[], tuple[int, datetime] | None]


def newest_event() -> tuple[int, datetime] | None:
    """The id and time of the newest event of any table (None: no event yet)."""
    row = db.session.execute(select(TableEvent.id, TableEvent.at)
                             .order_by(TableEvent.id.desc()).limit(1)).first()
    db.session.rollback()  # a reader: no transaction stays open while the worker waits
    return (row[0], row[1]) if row is not None else None


class Lull:
    """Waits until no table has moved for ``seconds``.

    ``newest``, ``clock``, ``now`` and ``sleep`` are the log's newest event, a monotonic clock,
    the wall clock (UTC, naive, as the log's times) and a sleep: given by tests.
    """

    def __init__(self, seconds: float = QUIET_SECONDS, *, newest: Newest = newest_event,
                 clock: Callable[[], float] = time.monotonic, now: Callable[[], datetime] = utcnow,
                 sleep: Callable[[float], object] = time.sleep, look: float = LOOK_SECONDS) -> None:
        self.seconds, self.look = seconds, look
        self._newest, self._clock, self._now, self._sleep = newest, clock, now, sleep
        self._seen: int | None = None
        self._since: float | None = None  # the worker's clock when the tables last moved

    def left(self) -> float:
        """Seconds still to wait (0: the tables are quiet now)."""
        if self.seconds <= 0:
            return 0.0
        newest = self._newest()
        clock = self._clock()
        if newest is None:
            return 0.0
        event_id, at = newest
        if self._since is None:  # the first look: how long ago the newest event was written
            self._since = clock - max((self._now() - at).total_seconds(), 0.0)
        elif event_id != self._seen:
            self._since = clock
        self._seen = event_id
        return max(self._since + self.seconds - clock, 0.0)

    def wait(self) -> float:
        """Return once the tables are quiet; the seconds waited."""
        waited = 0.0
        while (left := self.left()) > 0:
            pause = min(left, self.look)
            self._sleep(pause)
            waited += pause
        return waited
