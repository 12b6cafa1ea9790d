"""The rail beside the landscape board: each side's name, pips and on-roll mark, and every
member's cube (cubes owned by the side at the top near the top, centred and dropped cubes in the
middle, the others near the bottom); without the rail, the pips beside the tray.
"""

from __future__ import annotations

from markupsafe import Markup

from chouette.web.board_cubes import normal_side
from chouette.web.board_drawing import BoardDrawing
from chouette.web.board_geometry import CUBE, HEIGHT, MID_Y, NR, RAIL, TRAY_X, TW
from chouette.web.board_markup import cube_group, name_lines, name_text, num, tag
from chouette.web.catalog import gettext as _


def side_block(board: BoardDrawing, side: str) -> Markup:
    """A side's name, pips and on-roll mark on the rail, top or bottom."""
    is_top = side == board.top
    name_y, pips_y = (NR + 20, NR + 46) if is_top else (HEIGHT - NR - 38, HEIGHT - NR - 12)
    name = board.name(side)
    lines = name_lines(name, 11)
    extra = 22 * (len(lines) - 1)  # a second line: the chip grows away from the board's edge
    if is_top:
        pips_y += extra
    else:
        name_y -= extra
    mark = (
        tag("circle", cx=14, cy=num(name_y - 7), r=7, class_="on-roll-mark")
        if side == board.on_roll
        else ""
    )
    body = Markup("").join(
        [
            tag("title", name),
            tag(
                "rect",
                x=4,
                y=num(name_y - 24),
                width=RAIL - 16,
                height=58 + extra,
                rx=8,
                class_=f"side-chip side-{side}",
            ),
            mark,
            *(name_text(line, 20, RAIL - 44, x=28, y=num(name_y + 22 * row))
              for row, line in enumerate(lines)),
            tag(
                "text", _("%(n)s pips", n=board.pips[side]), x=28, y=num(pips_y), class_="pips"
            ),
        ]
    )
    return tag(
        "g",
        body,
        class_=f"side side-{side}" + (" on-roll" if side == board.on_roll else ""),
        data_side=side,
        data_pips=board.pips[side],
    )

def corner_pips(board: BoardDrawing, side: str) -> Markup:
    """Without the rail: a side's pips above or below its tray."""
    y = NR - 11 if side == board.top else HEIGHT - 9
    body = tag("title", _("%(side)s: %(n)s pips", side=board.name(side), n=board.pips[side]))
    body += tag("text", str(board.pips[side]), x=num(TRAY_X + TW / 2), y=y, class_="pips")
    if side == board.on_roll:
        body += tag("circle", cx=TRAY_X - 4, cy=y - 9, r=7, class_="on-roll-mark")
    return tag(
        "g",
        body,
        class_=f"side corner side-{side}" + (" on-roll" if side == board.on_roll else ""),
        data_side=side,
        data_pips=board.pips[side],
    )

def cube_rows(board: BoardDrawing) -> Markup:
    """Every member's cube on the rail, grouped by where it stands."""
    if not board.cubes:
        return Markup("")
    top = [c for c in board.cubes if c.is_live and c.owner and normal_side(c.owner) == board.top]
    # Dropped cubes are out of the game: with the centred ones, greyed.
    middle = [c for c in board.cubes if c.is_live and not c.owner] + [
        c for c in board.cubes if not c.is_live
    ]
    bottom = [c for c in board.cubes if c.is_live and c.owner and normal_side(c.owner) == board.bottom]
    first, last = NR + 70, HEIGHT - NR - 70
    avail = last - first
    rows = top + middle + bottom
    row = min(CUBE + 8, avail / len(rows))
    size = min(CUBE, row - 4)
    ys: list[float]
    if row == CUBE + 8:
        # Room for all: top cubes at the top, the bottom's at the bottom, the rest centred.
        ys = [first + i * row for i in range(len(top))]
        mid_start = MID_Y - len(middle) * row / 2
        mid_start = max(mid_start, first + len(top) * row)
        mid_start = min(mid_start, last - (len(middle) + len(bottom)) * row)
        ys += [mid_start + i * row for i in range(len(middle))]
        ys += [last - (len(bottom) - i) * row for i in range(len(bottom))]
    else:
        ys = [first + i * row for i in range(len(rows))]
    out = [cube_group(cube, 8, y, size, RAIL - 16 - size - 10, min(17.0, row - 4))
           for cube, y in zip(rows, ys, strict=False)]
    return tag("g", Markup("").join(out), class_="cubes")


__all__ = ["corner_pips", "cube_rows", "side_block"]
