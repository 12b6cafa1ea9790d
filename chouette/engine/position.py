"""Backgammon positions: an immutable value seen from the player on roll, and its Position ID.

Every count is a 26-slot tuple from its owner's own side: slot 0 = borne off, 1..24 = points,
25 = bar. The player on roll is the *mover*; his opponent's point ``q`` is the mover's
point ``25 - q`` (RULES.md 1.1).
"""

from __future__ import annotations

import base64
import binascii
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chouette.engine.errors import FormatError

if TYPE_CHECKING:
    from chouette.engine.xgid import XgidFields

CHECKERS = 15
OFF = 0
BAR = 25
_START = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class Side(enum.Enum):
    """One side of a position: the player on roll or his opponent."""

    ON_ROLL = "on_roll"
    OPPONENT = "opponent"

    def __repr__(self) -> str:
        return f"Side.{self.name}"

    def other(self) -> Side:
        """The other side."""
        return Side.OPPONENT if self is Side.ON_ROLL else Side.ON_ROLL


def _counts(raw: Sequence[int] | Mapping[int, int], what: str) -> tuple[int, ...]:
    """Normalise a 26-slot sequence or a {point: count} mapping; slot 0 (off) is recomputed."""
    slots = [0] * 26
    if isinstance(raw, Mapping):
        items = list(raw.items())
    else:
        if len(raw) != 26:
            raise FormatError("{what}: expected 26 slots (off, points 1..24, bar), got {count}: {raw!r}",
                              what=what, count=len(raw), raw=raw)
        items = list(enumerate(raw))[1:]
    for point, count in items:
        if not isinstance(point, int) or not 1 <= point <= 25:
            raise FormatError(f"{what}: point {point!r} is not 1..24 or 25 (bar) in {raw!r}")
        if not isinstance(count, int) or count < 0:
            raise FormatError(f"{what}: count {count!r} on point {point} is not a non-negative int in {raw!r}")
        slots[point] = count
    on_board = sum(slots)
    if on_board > CHECKERS:
        raise FormatError("{what}: {count} checkers, more than {most}, in {raw!r}",
                          what=what, count=on_board, most=CHECKERS, raw=raw)
    if not isinstance(raw, Mapping) and raw[0] not in (0, CHECKERS - on_board):
        raise FormatError(f"{what}: slot 0 says {raw[0]} off but the board leaves {CHECKERS - on_board} in {raw!r}")
    slots[OFF] = CHECKERS - on_board
    return tuple(slots)


@dataclass(frozen=True, slots=True)
class Position:
    """A backgammon position seen from the player on roll (the mover).

    >>> Position.initial().id
    '4HPwATDgc/ABMA'
    >>> Position.initial().pips()
    (167, 167)
    """

    mover: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        for name, counts in (("mover", self.mover), ("opponent", self.opponent)):
            if len(counts) != 26 or sum(counts) != CHECKERS or min(counts) < 0:
                raise FormatError(f"{name} counts must be 26 slots summing to {CHECKERS}: {counts!r}")
        for point in range(1, 25):
            if self.mover[point] and self.opponent[25 - point]:
                raise FormatError("both sides have checkers on point {point} (mover's numbering): {position!r}",
                                  point=point, position=self)

    @classmethod
    def initial(cls) -> Position:
        """The starting position (RULES.md 1.1)."""
        return cls(_START, _START)

    @classmethod
    def from_points(
        cls, mover: Sequence[int] | Mapping[int, int], opponent: Sequence[int] | Mapping[int, int]
    ) -> Position:
        """Build a position from each side's counts in its own numbering (26 slots or {point: n}).

        Checkers not on the board are off. Raises:
            FormatError: more than 15 checkers a side, a bad slot, or both sides on one point.

        >>> Position.from_points({6: 2}, {6: 1}).pips()
        (12, 6)
        """
        return cls(_counts(mover, "mover"), _counts(opponent, "opponent"))

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a GNU Backgammon Position ID (14 base64 characters).

        Raises:
            FormatError: bad length or characters, more than 15 checkers a side, or both on a point.
        """
        text = position_id.strip()
        if len(text) != 14:
            raise FormatError("Position ID {position_id!r}: expected 14 characters, got {count}",
                              position_id=position_id, count=len(text))
        try:
            key = base64.b64decode(text + "==", validate=True)
        except (binascii.Error, ValueError) as exc:
            raise FormatError("Position ID {position_id!r}: not base64 ({reason})",
                              position_id=position_id, reason=str(exc)) from None
        bits = int.from_bytes(key, "little")
        sides: list[list[int]] = []
        index = 0
        for _ in range(2):
            slots = [0] * 26
            point = 1
            while point <= 25:
                if index >= 80:
                    raise FormatError("Position ID {position_id!r}: the key runs out of bits",
                                      position_id=position_id)
                if bits >> index & 1:
                    slots[point] += 1
                else:
                    point += 1
                index += 1
            sides.append(slots)
        if bits >> index:
            raise FormatError("Position ID {position_id!r}: checkers beyond the 30 counts (more than 15 a side)",
                              position_id=position_id)
        # GNU Backgammon writes the opponent first, then the player on roll.
        opponent, mover = sides
        try:
            return cls.from_points(mover, opponent)
        except FormatError as exc:
            raise FormatError("Position ID {position_id!r}: {reason}", position_id=position_id,
                              reason=exc.phrase) from None

    @property
    def id(self) -> str:
        """The GNU Backgammon Position ID of this position (player on roll to move)."""
        bits = 0
        index = 0
        for counts in (self.opponent, self.mover):
            for point in range(1, 26):
                count = counts[point]
                bits |= ((1 << count) - 1) << index
                index += count + 1
        return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]

    @classmethod
    def from_xgid(cls, text: str) -> Position:
        """The position of an XGID, from the side of the player on roll (fields: ``parse_xgid``).

        Raises:
            FormatError: the XGID is malformed (the message names it).
        """
        from chouette.engine.xgid import parse_xgid

        return parse_xgid(text)[0]

    def xgid(self, fields: XgidFields | None = None) -> str:
        """This position as an XGID; ``fields`` (cube, turn, dice, score...) default to a money game.

        >>> Position.initial().xgid()
        'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
        """
        from chouette.engine.xgid import format_xgid

        return format_xgid(self, fields)

    def swap(self) -> Position:
        """The same position seen from the opponent, for his turn."""
        return Position(self.opponent, self.mover)

    def pips(self) -> tuple[int, int]:
        """(pips of the player on roll, pips of his opponent); the bar counts 25."""
        return (
            sum(point * count for point, count in enumerate(self.mover)),
            sum(point * count for point, count in enumerate(self.opponent)),
        )

    def checkers(self, side: Side = Side.ON_ROLL) -> tuple[int, ...]:
        """A side's 26 slots indexed by the mover's numbering: 0 = that side's off, 25 = its bar.

        >>> Position.initial().checkers(Side.OPPONENT)[1]
        2
        """
        if side is Side.ON_ROLL:
            return self.mover
        opp = self.opponent
        return (opp[OFF],) + tuple(opp[25 - point] for point in range(1, 25)) + (opp[BAR],)

    @property
    def board(self) -> tuple[int, ...]:
        """Points 1..24 from the mover's side, signed: + mover's checkers, - opponent's (slot 0 unused, 0)."""
        opp = self.opponent
        return (0,) + tuple(self.mover[p] - opp[25 - p] for p in range(1, 25))

    def off(self, side: Side = Side.ON_ROLL) -> int:
        """How many checkers that side has borne off."""
        return (self.mover if side is Side.ON_ROLL else self.opponent)[OFF]

    def bar(self, side: Side = Side.ON_ROLL) -> int:
        """How many checkers that side has on the bar."""
        return (self.mover if side is Side.ON_ROLL else self.opponent)[BAR]

    def is_contact(self) -> bool:
        """Whether any checker still has to pass an opposing one."""
        mover_back = max(p for p in range(26) if self.mover[p]) if self.mover[OFF] < CHECKERS else 0
        opp_back = max(p for p in range(26) if self.opponent[p]) if self.opponent[OFF] < CHECKERS else 0
        return mover_back + opp_back > 25

    def __repr__(self) -> str:
        return f"Position.from_id({self.id!r})"

    def __str__(self) -> str:
        return self.id
