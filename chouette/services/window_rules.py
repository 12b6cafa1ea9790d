"""The rules of an online table's cube window, without the clock or the database (issue 26,
item 2; ``services.cube_window`` keeps the window's row and writes what it decides).

The decision an online table waits for (``phase_of``): the window of the side on roll ("double"
or "roll" before the roll), the answers to an offer, or a move. Who may double in a window
(``eligible``, docs/rules.md 2.4, 2.5), who is asked (everyone who may, but those on auto-roll
who did not hold the roll: ``auto_roll``), who still must answer, and the deadline
(``Window``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from chouette.models import TurnWindow
from chouette.table import TableError, TableState, try_event

ROLL, HOLD = "roll", "hold"


@dataclass(frozen=True)
class Phase:
    """The decision an online table waits for: the ``window`` (roll or double) of a ``side``,
    the ``answer`` to an offer, or a ``move``; ``key`` names it (a new key, a new clock)."""

    kind: str
    side: str | None
    key: str


def phase_of(state: TableState, seq: int = 0) -> Phase | None:
    """The timed decision of an online table's board game now, or None. ``seq``: the table's
    last seq, part of the key of a window and of a move (a roll or a move taken back by an
    undo opens a new window, or a new move, with its own clock and no answers)."""
    game = state.game
    if not state.settings.online or game is None or not game.is_board or game.on_roll is None:
        return None
    if game.is_over:
        return None
    side = "box" if game.on_roll == "box" else "team"
    if game.dice is not None:
        return Phase("move", side, f"move:{game.number}:{game.turns}:{seq}")
    if game.pending or game.pending_extras:
        return Phase("answer", None, f"answer:{game.number}:{game.turns}:{game.doubles}")
    return Phase("window", side, f"window:{game.number}:{game.turns}:{game.doubles}:{side}:{seq}")


def roller(state: TableState, phase: Phase) -> str | None:
    """Who rolls at the window's close: the box, or the (acting) captain."""
    game = state.game
    if game is None:
        return None
    return state.box if phase.side == "box" else game.acting_captain


def legal(state: TableState, event: dict[str, Any]) -> bool:
    try:
        try_event(state, event)
    except TableError:
        return False
    return True


def eligible(state: TableState, phase: Phase) -> list[str]:
    """Who may double now (docs/rules.md 2.4, 2.5): the box before rolling if any cube is theirs to
    double; on the team's turn each member whose cube may be doubled (single cube: the captain)."""
    game = state.game
    if game is None or phase.kind != "window":
        return []
    if phase.side == "box":
        cubes = [m for m in game.live if legal(state, {"type": "double", "by": "box", "cubes": [m]})]
        return [state.box] if cubes and state.box else []
    if state.settings.cube_mode == "single":
        captain = game.acting_captain
        return [captain] if legal(state, {"type": "double", "by": captain}) else []
    return [m for m in game.live if legal(state, {"type": "double", "by": m})]


def auto_roll(row: TurnWindow | None, state: TableState, name: str) -> bool:
    """``name``'s auto-roll: their choice, else on for the crew and off for the box and captain."""
    chosen = (row.auto_roll or {}).get(name) if row is not None else None
    if isinstance(chosen, bool):
        return chosen
    game = state.game
    captain = game.acting_captain if game is not None else state.captain
    return name not in (state.box, captain)


@dataclass(frozen=True)
class Window:
    """What the window of ``phase`` is now: who may double, who is asked, who still must answer."""

    phase: Phase
    roller: str | None
    eligible: tuple[str, ...]
    asked: tuple[str, ...]
    waiting: tuple[str, ...]
    answers: Mapping[str, str]
    deadline: datetime | None

    @property
    def closed(self) -> bool:
        return not self.waiting

    def seconds_left(self, now: datetime) -> int | None:
        if self.deadline is None:
            return None
        return max(0, int((self.deadline - now).total_seconds() + 0.999))

    def expired(self, now: datetime) -> bool:
        return self.deadline is not None and now >= self.deadline


def view(state: TableState, row: TurnWindow | None, began: datetime | None = None,
         seq: int = 0) -> Window | None:
    """The window (or the clock of an answer or a move) as ``row`` records it, or None;
    ``began``: when the table's last event was written (a decision ``row`` has not seen yet
    began then); ``seq``: the table's last seq (``phase_of``)."""
    phase = phase_of(state, seq)
    if phase is None:
        return None
    current = row is not None and row.key == phase.key
    answers: dict[str, str] = dict(row.answers or {}) if row is not None and current else {}
    can = eligible(state, phase)
    asked = [m for m in can if not auto_roll(row, state, m) or answers.get(m) == HOLD]
    waiting = [m for m in asked if answers.get(m) != ROLL]
    deadline = None
    opened = row.opened_at if row is not None and current else began
    seconds = state.settings.decision_seconds  # the house rule (docs/rules.md 2.12)
    if seconds and opened is not None:
        deadline = opened + timedelta(seconds=seconds)
    return Window(phase, roller(state, phase), tuple(can), tuple(asked), tuple(waiting), answers,
                  deadline)
