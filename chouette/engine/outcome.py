"""The end of a game as data (docs/rules.md 1.6): who won, and a single, gammon or backgammon."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from chouette.engine.position import BAR, CHECKERS, OFF, Position, Side


class WinKind(enum.IntEnum):
    """How a game was won; the value is the multiplier of the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3

    def __repr__(self) -> str:
        return f"WinKind.{self.name}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: which side of the position won, and how."""

    winner: Side
    kind: WinKind

    def __repr__(self) -> str:
        return f"Outcome({self.winner!r}, {self.kind!r})"

    @property
    def on_roll_won(self) -> bool:
        """Whether the player on roll in the classified position is the winner."""
        return self.winner is Side.ON_ROLL

    @property
    def points(self) -> int:
        """The multiplier of the cube: 1, 2 or 3."""
        return int(self.kind)


def outcome(position: Position) -> Outcome | None:
    """None while the game goes on, else who won and how.

    >>> outcome(Position.initial()) is None
    True
    >>> outcome(Position.from_points({}, {24: 15}))
    Outcome(Side.ON_ROLL, WinKind.BACKGAMMON)
    """
    if position.mover[OFF] == CHECKERS:
        winner, loser = Side.ON_ROLL, position.opponent
    elif position.opponent[OFF] == CHECKERS:
        winner, loser = Side.OPPONENT, position.mover
    else:
        return None
    if loser[OFF]:
        kind = WinKind.SINGLE
    # The winner's home board is the loser's points 19..24; the bar is 25.
    elif any(loser[19 : BAR + 1]):
        kind = WinKind.BACKGAMMON
    else:
        kind = WinKind.GAMMON
    return Outcome(winner, kind)
