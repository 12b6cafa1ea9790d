"""GNU Backgammon's SGF (``GM[6]``): one game tree per game, the match info in each root.

White (``W``) is the left player (gnubg's player 0), Black (``B``) the right one. A play is
its dice then one pair of letters per single-die step, in the mover's own numbering: for
White ``a`` is White's 1-point, for Black ``x``; ``y`` is the bar and ``z`` off.
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


def _letter(point: int, player: int) -> str:
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + point - 1) if player == LEFT else chr(ord("x") - (point - 1))


def format_play(turn: Turn) -> str:
    """A play as an SGF move value: ``"32xumk"`` is White's 3-2 played 24/21 13/11.

    >>> from chouette.records.model import Play
    >>> format_play(Turn(Play(0, (3, 2)), ((24, 21, False), (13, 11, False))))
    '32xumk'
    """
    player = turn.play.player
    steps = "".join(_letter(a, player) + _letter(b, player) for a, b, _hit in turn.steps)
    return f"{turn.play.dice[0]}{turn.play.dice[1]}{steps}"


def _text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def game_tree(record: Record, game: RecordedGame, number: int, left: str, right: str) -> str:
    """One game as an SGF game tree.

    Raises:
        RecordError: the game does not replay (see ``replay``).
    """
    root = ["FF[4]GM[6]CA[UTF-8]AP[chouette]",
            (f"MI[length:{record.match_length}][game:{number - 1}]"
            f"[ws:{game.score_left}][bs:{game.score_right}]"),
            f"PW[{_text(left)}]PB[{_text(right)}]"]
    if record.date:
        root.append(f"DT[{_text(record.date)}]")
    if record.event:
        root.append(f"EV[{_text(safe_name(record.event))}]")
    if record.match_length:
        root.append("RU[Crawford:CrawfordGame]" if game.crawford else "RU[Crawford]")
    elif record.jacoby:
        root.append("RU[Jacoby]")
    if game.winner is not None:
        root.append(f"RE[{'W' if game.winner == LEFT else 'B'}+{game.points}]")
    nodes = ["(;" + "".join(root)]
    for item in replay(game, number):
        player = item.play.player if isinstance(item, Turn) else item.player
        colour = "W" if player == LEFT else "B"
        value = format_play(item) if isinstance(item, Turn) else (
            "double" if isinstance(item, Double) else "take" if isinstance(item, Take)
            else "drop" if isinstance(item, Drop) else "")
        nodes.append(f";{colour}[{value}]")
    return "\n".join(nodes) + ")"


def write_sgf(record: Record) -> str:
    """The record as a GNU Backgammon SGF file (``load match`` reads every game).

    Raises:
        RecordError: a game does not replay (see ``replay``).
    """
    left, right = safe_name(record.left), safe_name(record.right)
    if left == right:
        right = f"{right[:NAME_LENGTH - 2]} 2"
    return "\n".join(game_tree(record, game, number, left, right)
                     for number, game in enumerate(record.games, start=1)) + "\n"
