"""The board as its template gets it: the drawing, the cube list beside it, the tap hints.

``board_context`` gives ``templates/board/_board.html`` all it needs: the SVG drawn by
``chouette.web.board_svg``, the cubes as a list of badges readable on a phone, and the legal
plays as single-die steps for the board's tap hints (``legal_steps``, ``legal_plays``), in the
on-roll player's numbering. The hints only help the tapping: the server still validates the play.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup

from chouette.engine import Position, legal_moves
from chouette.web.board_cubes import BOX, CubeView, _side
from chouette.web.board_svg import _short, _tag, render_board


def legal_steps(position: Position, dice: tuple[int, int]) -> dict[int, set[int]]:
    """Every single-die step of every legal play, from the player on roll: {from: {to, ...}}.

    A hint for the board (which checkers can move, where); the server still validates the play.

    >>> sorted(legal_steps(Position.initial(), (2, 1))[24])
    [22, 23]
    """
    steps: dict[int, set[int]] = {}
    for move in legal_moves(position, dice):
        for start, end, _hit in move.steps:
            steps.setdefault(start, set()).add(end)
    return steps


def legal_plays(position: Position, dice: tuple[int, int]) -> str:
    """Every legal play as single-die steps, for the board's tap hints after the first step:
    ``"24/22 22/21;13/11 24/23;..."`` (plays by ``;``, steps by a space, bar 25, off 0), in the
    on-roll player's numbering. The engine gives one play per resulting position; a checker
    that uses both dice may also take them the other way round when the point between is
    open, so that order is listed too (24/23 23/21 beside 24/22 22/21). A hint only: the
    server validates the play.

    >>> plays = legal_plays(Position.initial(), (2, 1)).split(";")
    >>> "22/21 24/22" in plays and "23/21 24/23" in plays
    True
    """
    opponent = position.opponent  # in the opponent's numbering: his point 25 - q is our q
    blocked = {q for q in range(1, 25) if opponent[25 - q] >= 2}
    found: dict[tuple[tuple[int, int], ...], None] = {}
    for move in legal_moves(position, dice):
        steps = [(start, end) for start, end, _hit in move.steps]
        found[tuple(sorted(steps))] = None
        if dice[0] == dice[1]:
            continue  # every die the same: the order of a checker's steps changes nothing
        for (a, b), (c, d) in itertools.permutations(steps, 2):
            # One checker a -> b -> d by two different dice, not bearing off: the other order
            # passes through a - (b - d) instead of b.
            middle = a - (b - d)
            if b == c and d > 0 and a - b != b - d and 0 < middle < 25 and middle not in blocked:
                other = list(steps)
                other.remove((a, b))
                other.remove((c, d))
                found[tuple(sorted([*other, (a, middle), (middle, d)]))] = None
    return ";".join(" ".join(f"{a}/{b}" for a, b in play) for play in found)


def render_cube_list(cubes: Iterable[CubeView] | None) -> Markup:
    """The cubes as an HTML list of badges, readable on a phone beside or under the board."""
    items = []
    for cube in cubes or []:
        where = "middle" if not cube.owner else _side(cube.owner)
        value = (
            f"{cube.value} → {cube.offered}?"
            if cube.offered and cube.to_answer
            else str(cube.value)
        )
        classes = f"cube-badge owner-{where}" + ("" if cube.is_live else f" cube-{cube.status}")
        items.append(
            _tag(
                "li",
                Markup('{} <b>{}</b> <span class="cube-where">{}</span>').format(
                    _short(cube.member, 24), value, _where_text(cube)
                ),
                class_=classes,
                title=cube.describe(),
            )
        )
    if not items:
        return Markup("")
    return _tag("ul", Markup("").join(items), class_="board-cubes", aria_label=_("Cubes"))


def _where_text(cube: CubeView) -> str:
    if not cube.is_live:
        return _("dropped") if cube.status == "dropped" else _("box dropped")
    if not cube.owner:
        return _("in the middle")
    return (
        _("owned by the box")
        if _side(cube.owner) == BOX
        else _("owned by %(name)s", name=cube.member)
    )


def board_context(
    table_id: int | str,
    position: Position,
    *,
    bottom: str = BOX,
    on_roll: str | None,
    dice: tuple[int, int] | None,
    cubes: Iterable[CubeView] | None = None,
    labels: Mapping[str, str] | None = None,
    legal: Mapping[int, Collection[int]] | None = None,
    numbering: str = "bottom",
    rail: bool = True,
    interactive: bool = False,
    move_url: str | None = None,
    move_value: str = "",
    hx_target: str | None = None,
) -> dict[str, Any]:
    """Everything ``templates/board/_board.html`` needs, the SVG and the cube list drawn."""
    cube_list = list(cubes or [])
    return {
        "table_id": table_id,
        "board_svg": render_board(
            position,
            bottom=bottom,
            on_roll=on_roll,
            dice=dice,
            cubes=cube_list,
            labels=labels,
            legal=legal,
            numbering=numbering,
            rail=rail,
        ),
        "cube_list": render_cube_list(cube_list),
        "position_id": position.id,
        "interactive": interactive and on_roll is not None,
        "plays": legal_plays(position, dice) if interactive and on_roll is not None and dice else "",
        "move_url": move_url,
        "move_value": move_value,
        "hx_target": hx_target,
        "dice": dice,
    }


__all__ = ["board_context", "legal_plays", "legal_steps", "render_cube_list"]
