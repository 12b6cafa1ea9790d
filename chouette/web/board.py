"""The board as its template gets it: the drawing, the cube list beside it, the tap hints.

``board_context`` gives ``templates/board/_board.html`` all it needs: the SVG drawn by
``chouette.web.board_svg``, the cubes as a list of badges readable on a phone, and the legal
steps that mark the movable checkers (``legal_steps``) and the tap graph that the board's hints
walk (``tap_hints``, see ``chouette.web.board_taps``), in the on-roll player's numbering. The
hints only help the tapping: the server still validates the play.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache
from typing import Any

from flask import has_app_context
from flask_babel import get_locale
from markupsafe import Markup

from chouette import caches
from chouette.engine import Position, legal_moves
from chouette.web.board_cubes import BOX, CubeView, normal_side
from chouette.web.board_markup import short, tag
from chouette.web.board_portrait import render_portrait_board
from chouette.web.board_svg import render_board
from chouette.web.board_taps import encode, tap_graph
from chouette.web.catalog import gettext as _


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


@lru_cache(maxsize=256)
def tap_hints(position: Position, dice: tuple[int, int]) -> str:
    """The board's ``data-taps``: the tap graph of ``chouette.web.board_taps``, encoded.

    Remembered per process: a table is drawn again on every refresh, its position rarely changes.
    """
    return encode(tap_graph(position, dice))


def render_cube_list(cubes: Iterable[CubeView] | None) -> Markup:
    """The cubes as an HTML list of badges, readable on a phone beside or under the board."""
    items = []
    for cube in cubes or []:
        where = "middle" if not cube.owner else normal_side(cube.owner)
        value = (
            f"{cube.value} → {cube.offered}?"
            if cube.offered and cube.to_answer
            else str(cube.value)
        )
        classes = f"cube-badge owner-{where}" + ("" if cube.is_live else f" cube-{cube.status}")
        items.append(
            tag(
                "li",
                Markup('{} <b>{}</b> <span class="cube-where">{}</span>').format(
                    short(cube.member, 24), value, _where_text(cube)
                ),
                class_=classes,
                title=cube.describe(),
            )
        )
    if not items:
        return Markup("")
    return tag("ul", Markup("").join(items), class_="board-cubes", aria_label=_("Cubes"))


def _where_text(cube: CubeView) -> str:
    if not cube.is_live:
        return {"dropped": _("dropped"), "dealt": _("settled")}.get(cube.status, _("box dropped"))
    if not cube.owner:
        return _("in the middle")
    return (
        _("owned by the box")
        if normal_side(cube.owner) == BOX
        else _("owned by %(name)s", name=cube.member)
    )


#: A board's drawing depends on what it shows only: the tables' devices after a move (the
#: mover's answer, each side's phones, the player now on roll, fetching again) ask for the
#: same few (docs/performance.md, section 13).
BOARD_DRAWINGS = caches.declare(
    "board_drawings", 256,
    "language, position, side at the bottom, side on roll, dice, cubes, names, legal steps, numbering, "
    "rail, whether its points are buttons -> the board's SVG drawings (landscape, then upright)")


def _frozen_steps(legal: Mapping[int, Collection[int]] | None) -> tuple[tuple[int, tuple[int, ...]], ...] | None:
    return None if legal is None else tuple(sorted((start, tuple(sorted(ends))) for start, ends in legal.items()))


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
    taps = interactive and on_roll is not None and dice is not None

    def draw() -> Markup:
        svg = render_board(
            position,
            bottom=bottom,
            on_roll=on_roll,
            dice=dice,
            cubes=cube_list,
            labels=labels,
            legal=legal,
            numbering=numbering,
            rail=rail,
            controls=taps,
        )
        if taps or rail:
            # A phone gets the upright drawing (board.css shows one of the two): it taps on it, and
            # reads the names and every cube whole (issue 25; the landscape rail is too small there).
            svg += render_portrait_board(
                position, bottom=bottom, on_roll=on_roll, dice=dice, cubes=cube_list, labels=labels,
                numbering=numbering, controls=taps,
            )
        return svg

    if has_app_context():
        key = (str(get_locale()), position, bottom, on_roll, dice, tuple(cube_list),
               tuple(sorted((labels or {}).items())), _frozen_steps(legal), numbering, rail, taps)
        board_svg = caches.cache(BOARD_DRAWINGS).get_or_make(key, draw)
    else:  # a script's drawing, outside the app
        board_svg = draw()
    return {
        "table_id": table_id,
        "board_svg": board_svg,
        "cube_list": render_cube_list(cube_list),
        "position_id": position.id,
        "interactive": interactive and on_roll is not None,
        "taps": tap_hints(position, dice) if taps and dice else "",
        "move_url": move_url,
        "move_value": move_value,
        "hx_target": hx_target,
        "dice": dice,
    }


__all__ = ["board_context", "legal_steps", "render_cube_list", "tap_hints"]
