"""The board drawn server-side as an inline SVG, landscape: points, checkers, bar, trays, dice.

What every drawing shares (the sides, their counts and names, a stack of checkers) is
``board_drawing.BoardDrawing``; the numbers of the layout are ``board_geometry``; the rail
with the names, pips and cubes is ``board_rail``. Colours live in ``static/css/board.css``; the
SVG carries classes only.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from markupsafe import Markup

from chouette.engine import Position
from chouette.web.board_cubes import BOX, CubeView, other_side
from chouette.web.board_drawing import BoardDrawing
from chouette.web.board_geometry import (
    BOARD_X,
    BOARD_Y,
    BW,
    DIE,
    HEIGHT,
    HW,
    IH,
    MG,
    MID_Y,
    NR,
    PH,
    PW,
    RAIL,
    SLAB,
    TRAY_X,
    TW,
    WIDTH,
    D,
    F,
    R,
)
from chouette.web.board_markup import die_face, num, tag
from chouette.web.board_rail import corner_pips, cube_rows, side_block
from chouette.web.catalog import gettext as _


class LandscapeBoard(BoardDrawing):
    """The board on its side, the rail on the left, the trays on the right."""

    @staticmethod
    def column(bottom_point: int) -> tuple[float, bool]:
        """(x of the point's left edge, whether it is on the top row)."""
        if bottom_point <= 12:
            col, is_top = 12 - bottom_point, False
        else:
            col, is_top = bottom_point - 13, True
        x = BOARD_X + col * PW + (BW if col >= 6 else 0)
        return x, is_top

    def point(self, bottom_point: int) -> Markup:
        """A point: its hit area, its triangle, and the checkers on it."""
        x, is_top = self.column(bottom_point)
        col = 12 - bottom_point if bottom_point <= 12 else bottom_point - 13
        shade = "a" if (col + is_top) % 2 == 0 else "b"
        base_y, tip_y = (
            (BOARD_Y, BOARD_Y + PH - 8) if is_top else (BOARD_Y + IH, BOARD_Y + IH - PH + 8)
        )
        mp = self.mover_point(bottom_point)
        triangle = tag(
            "polygon",
            points=f"{num(x)},{num(base_y)} {num(x + PW)},{num(base_y)} {num(x + PW / 2)},{num(tip_y)}",
            class_=f"triangle shade-{shade}",
        )
        hit = tag(
            "rect",
            x=num(x),
            y=num(BOARD_Y if is_top else BOARD_Y + IH - PH),
            width=PW,
            height=PH,
            class_="hit",
        )
        parts = [hit, triangle]
        mover_count = 0
        cx = x + PW / 2
        y0, step = (BOARD_Y + R, D) if is_top else (BOARD_Y + IH - R, -D)
        for side in (self.bottom, self.top):
            count = self.count(side, bottom_point)
            if count:
                if side == self.mover:
                    mover_count = count
                parts.append(self.checker_stack(side, count, cx, y0, step, mp, r=R - 1))
        return self.point_group(parts, bottom_point, mover_count, self.stack_data(cx, y0, 0, step, R - 1))

    def bar(self) -> Markup:
        """The bar: the side at the bottom's checkers in the upper half, the other's below."""
        cx = BOARD_X + HW + BW / 2
        parts = [
            tag("rect", x=num(BOARD_X + HW), y=BOARD_Y, width=BW, height=IH, class_="bar"),
        ]
        stacks = {}
        for side in (self.bottom, self.top):
            if side == self.bottom:
                y0, step = MID_Y - MG / 2 - R, -D
            else:
                y0, step = MID_Y + MG / 2 + R, D
            stacks[side] = self.stack_data(cx, y0, 0, step, R - 1)
            count = self.own[side][25]
            if count:
                point = 25 if side == self.mover else None
                parts.append(self.checker_stack(side, count, cx, y0, step, point, r=R - 1))
        mover_bar = self.own[self.mover][25]
        classes = "bar-area" + (" movable" if self.legal is not None and 25 in self.legal else "")
        return tag(
            "g",
            Markup("").join(parts),
            class_=classes,
            data_point=25,
            data_mover=mover_bar,
            data_other=self.own[other_side(self.mover)][25],
            data_stack_box=stacks[BOX],
            data_stack_team=stacks[other_side(BOX)],
            data_targets=" ".join(str(t) for t in sorted(self.legal[25]))
            if self.legal and 25 in self.legal
            else None,
            **self.control(None, "bar"),
        )

    def tray(self, side: str) -> Markup:
        """A side's borne-off tray: slabs stacked from the outer edge, and the count."""
        is_top = side == self.top
        half = IH / 2
        y = BOARD_Y if is_top else MID_Y
        parts = [
            tag("rect", x=TRAY_X, y=num(y), width=TW, height=num(half), class_="tray-half"),
        ]
        count = self.own[side][0]
        slabs = []
        for i in range(count):
            sy = (BOARD_Y + 4 + i * SLAB) if is_top else (BOARD_Y + IH - 4 - (i + 1) * SLAB)
            slabs.append(
                tag(
                    "rect",
                    x=TRAY_X + 6,
                    y=num(sy),
                    width=TW - 12,
                    height=SLAB - 2,
                    rx=3,
                    class_="slab",
                )
            )
        count_y = (
            (BOARD_Y + 4 + count * SLAB + 24) if is_top else (BOARD_Y + IH - 4 - count * SLAB - 10)
        )
        body = Markup("").join(slabs)
        if count:
            body += tag(
                "text", str(count), x=num(TRAY_X + TW / 2), y=num(count_y), class_="off-count"
            )
        parts.append(
            tag(
                "g",
                body,
                class_=f"checkers off side-{side}" + (" mover" if side == self.mover else ""),
                data_side=side,
                data_count=count,
                data_point=0 if side == self.mover else None,
            )
        )
        # For board.js: slab i at (x0, y0 + i * dy), w x h; the count at (tx, ty + count * dy).
        slabs_data = (
            (TRAY_X + 6, BOARD_Y + 4, 0, SLAB, TW - 12, SLAB - 2, TRAY_X + TW / 2, BOARD_Y + 28)
            if is_top
            else (TRAY_X + 6, BOARD_Y + IH - 4 - SLAB, 0, -SLAB, TW - 12, SLAB - 2, TRAY_X + TW / 2,
                  BOARD_Y + IH - 14)
        )
        return tag(
            "g",
            Markup("").join(parts),
            class_="tray",
            data_point=0 if side == self.mover else None,
            data_mover=count if side == self.mover else None,
            data_slabs=" ".join(num(v) for v in slabs_data) if side == self.mover else None,
            **(self.control(None, "tray") if side == self.mover else {}),
        )

    def numbers(self) -> Markup:
        """The point numbers above and below the frame."""
        out = []
        for bottom_point in range(1, 25):
            x, is_top = self.column(bottom_point)
            n = bottom_point if self.numbering == "bottom" else self.mover_point(bottom_point)
            y = NR - 11 if is_top else HEIGHT - 9
            out.append(tag("text", str(n), x=num(x + PW / 2), y=y, class_="number"))
        return tag("g", Markup("").join(out), class_="numbers", aria_hidden="true")

    def die(self, value: int, x: float, y: float) -> Markup:
        """One die: a rounded square with its pips."""
        return die_face(value, x, y, DIE, 7, 4.5)

    def dice_group(self) -> Markup:
        """The roll, in the right half for the side at the bottom, the left half for the other."""
        if not self.dice:
            return Markup("")
        a, b = self.dice
        right = self.mover == self.bottom
        cx = BOARD_X + (HW + BW + HW / 2 if right else HW / 2)
        y = MID_Y - DIE / 2
        body = tag("title", _("Roll %(a)s-%(b)s", a=a, b=b))
        body += self.die(a, cx - DIE - 6, y) + self.die(b, cx + 6, y)
        return tag("g", body, class_=f"dice side-{self.mover}", data_dice=f"{a}-{b}")

    def render(self) -> Markup:
        """The whole SVG element."""
        label = self.summary()
        frame = Markup("").join(
            [
                tag(
                    "rect",
                    x=RAIL,
                    y=NR,
                    width=WIDTH - RAIL,
                    height=IH + 2 * F,
                    rx=10,
                    class_="frame",
                ),
                tag("rect", x=BOARD_X, y=BOARD_Y, width=HW, height=IH, class_="felt"),
                tag("rect", x=BOARD_X + HW + BW, y=BOARD_Y, width=HW, height=IH, class_="felt"),
            ]
        )
        points = Markup("").join(self.point(p) for p in range(1, 25))
        body = Markup("").join(
            [
                tag("title", label),
                frame,
                self.numbers(),
                tag("g", points, class_="points"),
                self.bar(),
                self.tray(self.top),
                self.tray(self.bottom),
                self.dice_group(),
            ]
        )
        if self.rail:
            body += side_block(self, self.top) + side_block(self, self.bottom) + cube_rows(self)
            view = f"0 0 {WIDTH} {HEIGHT}"
        else:
            body += corner_pips(self, self.top) + corner_pips(self, self.bottom)
            view = f"{RAIL - 4} 0 {WIDTH - RAIL + 4} {HEIGHT}"
        return self.svg(body, view, f"board bottom-{self.bottom}" + ("" if self.rail else " no-rail"), label)


def render_board(
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
    controls: bool = False,
) -> Markup:
    """Draw a position as an inline SVG (a ``Markup`` string, every text escaped).

    ``position`` is seen from the side ``on_roll`` (``"box"``, ``"member"``/``"team"``, or None
    when nobody is on roll: then it is read from the box's side). ``bottom`` is the side drawn at
    the bottom. ``labels`` maps ``"box"``/``"team"`` to the names shown. ``legal`` maps the
    on-roll player's points to the points one die takes them to (``legal_steps``), to mark the
    checkers that can move. ``numbering`` is ``"bottom"`` (point numbers from the side at the
    bottom) or ``"on_roll"``. ``rail=False`` leaves out the rail (names, cubes), for a page that
    shows them itself, and puts the pips beside the tray: the board then fills the width.
    Every point carries ``data-point`` in the on-roll player's numbering. ``controls``: a board
    its viewer plays on (taps): the points, the bar and the tray are named buttons.

    Raises:
        ValueError: a side name that is not box/member/team, or an unknown numbering.
        DiceError: a die that is not 1..6.

    >>> svg = render_board(Position.initial(), on_roll="box", dice=(6, 5))
    >>> 'aria-label="Board: Box on roll; rolled 6-5; pips: Box 167, Team 167"' in svg
    True
    """
    return LandscapeBoard.drawn(position, bottom, on_roll, dice, cubes, labels, legal, numbering, rail, controls)


__all__ = ["render_board"]
