"""Game records: two players, a match length (0 for money), and every game's actions.

A record is plain data built by the caller (from a chouette table's log, or a head-to-head
match); the writers (``write_mat``, ``write_sgf``) replay every game through the engine
first, so a record that would not replay is refused with the game, the action and the reason.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

from chouette.engine import (
    Move,
    Position,
    RulesError,
    apply_move,
    legal_moves,
    match_move,
    outcome,
)

LEFT, RIGHT = 0, 1
#: GNU Backgammon keeps at most this many characters of a player's name.
NAME_LENGTH = 31
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f:\[\]\\]")


class RecordError(ValueError):
    """A record that cannot be written: the message names the game, the action and why."""


@dataclass(frozen=True)
class Play:
    """One roll and its play by ``player`` (0 left, 1 right); ``move`` is "" when none is legal.

    ``move`` is in our notation from the mover's side (``"24/18 13/11"``, ``"bar/22"``).
    """

    player: int
    dice: tuple[int, int]
    move: str = ""


@dataclass(frozen=True)
class Double:
    """``player`` turns the cube to ``value``."""

    player: int
    value: int


@dataclass(frozen=True)
class Take:
    """``player`` takes the double offered to them."""

    player: int


@dataclass(frozen=True)
class Drop:
    """``player`` drops the double offered to them: the game ends."""

    player: int


Action = Play | Double | Take | Drop


@dataclass(frozen=True)
class RecordedGame:
    """One game: the score before it, its actions in order, and its result.

    ``winner`` is 0 (left) or 1 (right), or None for a game that stopped unfinished;
    ``points`` is what the winner scored (cube, gammons and the Jacoby rule applied).
    """

    actions: tuple[Action, ...]
    winner: int | None
    points: int
    score_left: int = 0
    score_right: int = 0
    crawford: bool = False


@dataclass(frozen=True)
class Record:
    """A money session (``match_length`` 0) or a match between ``left`` and ``right``."""

    left: str
    right: str
    games: tuple[RecordedGame, ...]
    match_length: int = 0
    jacoby: bool = False
    date: str | None = None  # YYYY-MM-DD
    event: str = ""
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Turn:
    """A play resolved against the position: its single-die steps in the mover's numbering."""

    play: Play
    steps: tuple[tuple[int, int, bool], ...]


def safe_name(name: str) -> str:
    """A player's name as the formats can hold it: no colon, bracket, backslash or control
    character, spaces collapsed, at most 31 characters, never empty.

    >>> safe_name("Bob: the box")
    'Bob the box'
    """
    text = unicodedata.normalize("NFC", _UNSAFE.sub(" ", name))
    text = " ".join(text.split())[:NAME_LENGTH].strip()
    return text or "Player"


def replay(game: RecordedGame, number: int = 1) -> Iterator[Action | Turn]:
    """The game's actions in order, each play as a ``Turn`` with its single-die steps.

    Raises:
        RecordError: an action out of turn, a play the engine refuses, a cube action that
            does not follow, or a result the board contradicts.
    """
    position = Position.initial()
    mover: int | None = None  # whose turn it is (None before the first play)
    cube, offered, over = 1, False, False
    board_winner: int | None = None
    for index, action in enumerate(game.actions, start=1):
        where = f"game {number}, action {index}"
        if over:
            raise RecordError(f"{where}: the game is over already")
        if action.player not in (LEFT, RIGHT):
            raise RecordError(f"{where}: the player is 0 (left) or 1 (right), not {action.player!r}")
        if isinstance(action, Play):
            if offered:
                raise RecordError(f"{where}: the double waits for an answer")
            if mover is not None and action.player != mover:
                raise RecordError(f"{where}: it is the other player's turn")
            if mover is None and action.dice[0] == action.dice[1]:
                raise RecordError(f"{where}: the opening roll cannot be a double")
            try:
                move = match_move(position, action.dice, action.move) if legal_moves(
                    position, action.dice) or action.move else Move(())
            except RulesError as exc:
                raise RecordError(f"{where}: {exc}") from exc
            position = apply_move(position, move)
            yield Turn(action, move.steps)
            if outcome(position) is not None:
                board_winner, over = action.player, True
            position, mover = position.swap(), 1 - action.player
        elif isinstance(action, Double):
            if game.crawford:
                raise RecordError(f"{where}: no double in the Crawford game")
            if offered or mover is None or action.player != mover:
                raise RecordError(f"{where}: a double comes before the doubler's own roll")
            if action.value != cube * 2:
                raise RecordError(f"{where}: the cube at {cube} is turned to {cube * 2}, not {action.value}")
            offered = True
            yield action
        else:
            if not offered or action.player == mover:
                raise RecordError(f"{where}: a take or drop answers the other player's double")
            offered = False
            if isinstance(action, Take):
                cube *= 2
            else:
                board_winner, over = 1 - action.player, True
            yield action
    if over and game.winner != board_winner:
        raise RecordError(f"game {number}: the actions end with player {board_winner} winning, "
                          f"the record says {game.winner}")
    if not over and game.winner is not None:
        raise RecordError(f"game {number}: a winner is given but the game did not end")
    if game.winner is not None and game.points < 1:
        raise RecordError(f"game {number}: the winner scores at least one point")
