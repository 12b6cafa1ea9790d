"""Seats: starting order, rotation after a game, leaving (docs/rules.md 2.1 to 2.3, 2.8).

Pure functions over plain values; the table state calls them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from chouette.table.errors import TableError


@dataclass
class Seats:
    """Who sits where: the box, the box's partner, the captain and the line behind the captain."""

    box: str | None = None
    partner: str | None = None
    captain: str | None = None
    line: list[str] = field(default_factory=list)

    def copy(self) -> Seats:
        """An independent copy."""
        return Seats(self.box, self.partner, self.captain, list(self.line))

    @property
    def team(self) -> list[str]:
        """The captain and the line, in order."""
        return ([self.captain] if self.captain else []) + self.line

    @property
    def seated(self) -> list[str]:
        """Everyone at the table: box, partner, team."""
        return [p for p in (self.box, self.partner) if p] + self.team

    def fill(self) -> None:
        """Fill an empty box or captain seat from the front of the line."""
        if self.box is None and self.captain is not None:
            self.box, self.captain = self.captain, None
        if self.box is None and self.line:
            self.box = self.line.pop(0)
        if self.captain is None and self.line:
            self.captain = self.line.pop(0)

    def end_partnership(self) -> None:
        """The partner returns to the front of the line (they are the next captain)."""
        if self.partner is not None:
            self.line.insert(0, self.partner)
            self.partner = None

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"box": self.box, "partner": self.partner, "captain": self.captain,
                "line": list(self.line)}


def order_groups(rolls: Mapping[str, int]) -> list[list[str]]:
    """Players grouped by their die, highest first; a group of two or more must re-roll.

    >>> order_groups({"A": 5, "B": 6, "C": 3, "D": 5})
    [['B'], ['A', 'D'], ['C']]
    """
    by_die: dict[int, list[str]] = {}
    for name, die in rolls.items():
        by_die.setdefault(die, []).append(name)
    return [by_die[die] for die in sorted(by_die, reverse=True)]


def check_die(name: str, die: object) -> int:
    """A die of the starting order, checked.

    Raises:
        TableError: not a whole number from 1 to 6.
    """
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
        raise TableError("{name}'s die must be a number from 1 to 6, not {die!r}", name=name, die=die)
    return die


def rotate(seats: Seats, *, captain_won: bool, box_keeps: bool) -> bool:
    """Rotate the seats after a game (docs/rules.md 2.3); return whether the box changed.

    ``captain_won``: the captain beat the box. ``box_keeps``: when the box beat the
    captain, whether the retention setting lets them keep the box.

    >>> s = Seats("A", None, "B", ["C", "D", "E"])
    >>> rotate(s, captain_won=False, box_keeps=True), s.box, s.captain, s.line
    (False, 'A', 'C', ['D', 'E', 'B'])
    >>> s = Seats("A", None, "B", ["C", "D", "E"])
    >>> rotate(s, captain_won=True, box_keeps=True), s.box, s.captain, s.line
    (True, 'B', 'C', ['D', 'E', 'A'])
    """
    old_box, old_captain = seats.box, seats.captain
    if old_box is None or (old_captain is None and captain_won):
        return False
    if captain_won and old_captain is not None:
        seats.box, seats.captain = old_captain, None
        seats.line.append(old_box)
        seats.end_partnership()
        seats.fill()
        return True
    if old_captain is not None:  # None: a captain who dropped and left mid-double
        seats.line.append(old_captain)
    seats.captain = None
    if box_keeps:
        seats.fill()
        return False
    # The box beat the captain but the retention rule takes the seat: they go to the end,
    # right behind the captain; the first in line becomes box, the partner the next captain.
    seats.line.append(old_box)
    seats.box = seats.line.pop(0)
    seats.end_partnership()
    seats.fill()
    return True


def remove_player(seats: Seats, name: str) -> bool:
    """Take ``name`` out of their seat between games; return whether the box changed.

    The captain replaces a leaving box (the partner first returns to the front of the
    line); the first in line replaces a leaving captain.
    """
    if name == seats.box:
        seats.box = None
        seats.end_partnership()
        seats.fill()
        return True
    if name == seats.partner:
        seats.partner = None
    elif name == seats.captain:
        seats.captain = None
        seats.fill()
    elif name in seats.line:
        seats.line.remove(name)
    return False
