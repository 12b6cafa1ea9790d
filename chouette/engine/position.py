"""Backgammon positions: an immutable value seen from the player on roll, and its Position ID.

Every count is a 26-slot tuple from its owner's own side: slot 0 = borne off, 1..24 = points,
25 = bar. The player on roll is the *mover*; the opponent's point ``q`` is the mover's
point ``25 - q`` (docs/rules.md 1.1).
"""

from __future__ import annotations

import base64
import binascii
import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chouette.engine.errors import FormatError

CHECKERS = 15
OFF = 0
BAR = 25
_START = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class Side(enum.Enum):
    """One side of a position: the player on roll or their opponent."""

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
        """The starting position (docs/rules.md 1.1)."""
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
        return parse_xgid(text)[0]

    def xgid(self, fields: XgidFields | None = None) -> str:
        """This position as an XGID; ``fields`` (cube, turn, dice, score...) default to a money game.

        >>> Position.initial().xgid()
        'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
        """
        return format_xgid(self, fields)

    def swap(self) -> Position:
        """The same position seen from the opponent, for their turn."""
        return Position(self.opponent, self.mover)

    def pips(self) -> tuple[int, int]:
        """(pips of the player on roll, pips of their opponent); the bar counts 25."""
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


# --- XGID (here, not in a module of its own: Position reads and writes it, and the XGID is
# built of positions; chouette.engine.xgid names the same functions).
# XGID (eXtreme Gammon's position and match text) both ways.
#
# ``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``: 26 position characters (slot 0 the
# top player's bar, 1..24 the points from the bottom player's side, 25 the bottom player's bar;
# ``A``-``O`` bottom checkers, ``a``-``o`` top checkers, ``-`` empty), then cube value as log2,
# cube position (1 bottom owns, 0 centred, -1 top owns), turn (1 bottom, -1 top), dice (``00``
# not rolled, ``D`` doubled, ``B`` beavered, ``R`` raccooned, or two digits), bottom score, top
# score, the Crawford (match) or Jacoby/beaver (money) field, match length (0 = money) and
# the maximum cube as log2 (older strings omit it).

_DICE = re.compile(r"00|[1-6][1-6]|[DBR]")
_POSITION = re.compile(r"[-a-oA-O]{26}")


@dataclass(frozen=True, slots=True)
class XgidFields:
    """Everything an XGID says besides the checkers. Defaults: a money game before the first roll."""

    cube_log2: int = 0
    cube_owner: int = 0
    turn: int = 1
    dice: str = "00"
    score_bottom: int = 0
    score_top: int = 0
    crawford_jacoby: int = 0
    match_length: int = 0
    max_cube_log2: int | None = 10

    def __post_init__(self) -> None:
        if self.cube_log2 < 0 or self.cube_owner not in (-1, 0, 1) or self.turn not in (-1, 1):
            raise FormatError("XGID fields out of range (cube, cube position, turn): {fields!r}", fields=self)
        if not _DICE.fullmatch(self.dice):
            raise FormatError("XGID dice {dice!r}: expected 00, D, B, R or two digits 1-6", dice=self.dice)
        if min(self.score_bottom, self.score_top, self.crawford_jacoby, self.match_length) < 0:
            raise FormatError("XGID scores, rules and match length must not be negative: {fields!r}", fields=self)
        if self.max_cube_log2 is not None and self.max_cube_log2 < 0:
            raise FormatError("XGID maximum cube must not be negative: {fields!r}", fields=self)

    @property
    def cube_value(self) -> int:
        """The value shown on the cube (1, 2, 4, ...)."""
        return 1 << self.cube_log2

    @property
    def roll(self) -> tuple[int, int] | None:
        """The dice rolled, or None before the roll or during a cube action."""
        return (int(self.dice[0]), int(self.dice[1])) if self.dice.isdigit() and self.dice != "00" else None


def _char(count: int, upper: bool) -> str:
    return "-" if count == 0 else chr((65 if upper else 97) + count - 1)


def parse_xgid(text: str) -> tuple[Position, XgidFields]:
    """Read an XGID: the position from the side of the player on roll, and the other fields.

    Raises:
        FormatError: wrong number of fields, bad characters, impossible counts (names the input).

    >>> position, fields = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    >>> position == Position.initial(), fields.match_length
    (True, 0)
    """
    raw = text.strip()
    body = raw[5:] if raw[:5].upper() == "XGID=" else raw
    parts = body.split(":")
    if len(parts) not in (9, 10):
        raise FormatError("XGID {xgid!r}: expected 10 fields separated by ':', got {count}",
                          xgid=text, count=len(parts))
    board = parts[0]
    if not _POSITION.fullmatch(board):
        raise FormatError("XGID {xgid!r}: the position must be 26 characters of -, a-o, A-O", xgid=text)
    if board[0].isupper() or board[25].islower():
        raise FormatError("XGID {xgid!r}: a bar holds a checker of the wrong side", xgid=text)
    try:
        numbers = [int(part) for part in parts[1:4] + parts[5:]]
    except ValueError:
        raise FormatError("XGID {xgid!r}: a numeric field is not a number", xgid=text) from None
    try:
        fields = XgidFields(
            cube_log2=numbers[0],
            cube_owner=numbers[1],
            turn=numbers[2],
            dice=parts[4],
            score_bottom=numbers[3],
            score_top=numbers[4],
            crawford_jacoby=numbers[5],
            match_length=numbers[6],
            max_cube_log2=numbers[7] if len(numbers) > 7 else None,
        )
    except FormatError as exc:
        raise FormatError("XGID {xgid!r}: {reason}", xgid=text, reason=exc.phrase) from None
    bottom = [0] * 26
    top = [0] * 26
    for index, char in enumerate(board):
        if char == "-":
            continue
        if char.isupper():
            bottom[index] += ord(char) - 64
        else:
            # The top player's point k is the bottom player's 25 - k; slot 0 is the top player's bar.
            top[BAR - index] += ord(char) - 96
    mover, opponent = (bottom, top) if fields.turn == 1 else (top, bottom)
    try:
        return Position.from_points(mover, opponent), fields
    except FormatError as exc:
        raise FormatError("XGID {xgid!r}: {reason}", xgid=text, reason=exc.phrase) from None


def format_xgid(position: Position, fields: XgidFields | None = None) -> str:
    """Write an XGID; the player on roll is the bottom player unless ``fields.turn`` is -1.

    >>> format_xgid(Position.initial())
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
    """
    fields = fields or XgidFields()
    bottom, top = (position.mover, position.opponent) if fields.turn == 1 else (position.opponent, position.mover)
    chars = [_char(top[BAR], False)]
    for point in range(1, 25):
        chars.append(_char(bottom[point], True) if bottom[point] else _char(top[BAR - point], False))
    chars.append(_char(bottom[BAR], True))
    numbers = [
        fields.cube_log2,
        fields.cube_owner,
        fields.turn,
        fields.dice,
        fields.score_bottom,
        fields.score_top,
        fields.crawford_jacoby,
        fields.match_length,
    ]
    if fields.max_cube_log2 is not None:
        numbers.append(fields.max_cube_log2)
    return "XGID=" + "".join(chars) + ":" + ":".join(str(n) for n in numbers)
