"""XGID (eXtreme Gammon's position and match text) both ways.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``: 26 position characters (slot 0 the
top player's bar, 1..24 the points from the bottom player's side, 25 the bottom player's bar;
``A``-``O`` bottom checkers, ``a``-``o`` top checkers, ``-`` empty), then cube value as log2,
cube position (1 bottom owns, 0 centred, -1 top owns), turn (1 bottom, -1 top), dice (``00``
not rolled, ``D`` doubled, ``B`` beavered, ``R`` raccooned, or two digits), bottom score, top
score, the Crawford (match) or Jacoby/beaver (money) field, match length (0 = money) and
the maximum cube as log2 (older strings omit it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chouette.engine.errors import FormatError
from chouette.engine.position import BAR, Position

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
            # The top player's point k is the bottom player's 25 - k; slot 0 is his bar.
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
