"""The Jellyfish ``.mat`` text format, as GNU Backgammon 1.07 and eXtreme Gammon import it.

Layout (checked with gnubg 1.07): a `` N point match`` header, a `` Game K`` line per game,
the score line, numbered lines ``  1) 64: 24/18 13/9`` with the left player's column padded
to its full width, ``/`` between points, each single-die step written out.
"""

from __future__ import annotations

from chouette.records.model import (
    LEFT,
    NAME_LENGTH,
    Double,
    Drop,
    Record,
    RecordedGame,
    Take,
    Turn,
    replay,
    safe_name,
)

#: The width of the left player's column on a numbered line.
COLUMN = 28


def _point(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)


def format_turn(turn: Turn) -> str:
    """A play as the format writes it: ``"64: 24/18 13/9"``, a dance as ``"65:"``.

    >>> from chouette.records.model import Play
    >>> format_turn(Turn(Play(0, (6, 5)), ()))
    '65:'
    """
    dice = f"{turn.play.dice[0]}{turn.play.dice[1]}:"
    steps = [f"{_point(a)}/{_point(b)}{'*' if hit else ''}" for a, b, hit in turn.steps]
    return " ".join([dice, *steps])


def _wins(points: int) -> str:
    return f" Wins {points} point{'s' if points != 1 else ''}"


def _name(name: str) -> str:
    # Any line holding "Game " starts a game for gnubg: a name never says it.
    return safe_name(name).replace("Game", "game")


def game_lines(game: RecordedGame, number: int, left: str, right: str) -> list[str]:
    """The lines of one game: its header, the score line and the numbered lines.

    Raises:
        RecordError: the game does not replay (see ``replay``).
    """
    header = f" {left} : {game.score_left}"
    lines = [f" Game {number}", f"{header:<{COLUMN + 4}}{right} : {game.score_right}"]
    rows: list[list[str | None]] = []
    for item in replay(game, number):
        text = format_turn(item) if isinstance(item, Turn) else (
            f" Doubles => {item.value}" if isinstance(item, Double)
            else " Takes" if isinstance(item, Take) else " Drops" if isinstance(item, Drop) else "")
        player = item.play.player if isinstance(item, Turn) else item.player
        _place(rows, player, text)
    if game.winner is not None:
        _place(rows, game.winner, _wins(game.points))
    for index, (first, second) in enumerate(rows, start=1):
        # The left column is padded even when empty: gnubg re-reads the line before a short one.
        left_text = f"{first or '':<{COLUMN}}"
        gap = " " if second and len(left_text) > COLUMN - 1 and not left_text.endswith(" ") else ""
        lines.append(f"{index:3d}) {left_text}{gap}{second or ''}")
    return lines


def _place(rows: list[list[str | None]], player: int, text: str) -> None:
    """Put an action in its player's column: a left action starts a line, a right one ends it."""
    if player == LEFT or not rows or rows[-1][1] is not None:
        rows.append([None, None])
    if player == LEFT:
        rows[-1][0] = text
    else:
        rows[-1][1] = text


def write_mat(record: Record) -> str:
    """The record as a Jellyfish ``.mat`` file.

    Raises:
        RecordError: a game does not replay (see ``replay``).
    """
    left, right = _name(record.left), _name(record.right)
    if left == right:
        right = f"{right[:NAME_LENGTH - 2]} 2"
    out = [f" {record.match_length} point match", ""]
    for number, game in enumerate(record.games, start=1):
        out.extend(game_lines(game, number, left, right))
        out.append("")
    return "\n".join(out) + "\n"

