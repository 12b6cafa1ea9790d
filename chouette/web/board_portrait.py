"""The board upright, for a phone: the landscape board turned a quarter clockwise, text kept level.

On a 390 px phone the landscape board gives each point about 25 CSS px: too small for a finger.
Upright, the twelve points of a side of the board stand one under the other, each 56 units tall
in a drawing 440 units wide, so a point is 40 CSS px or more whenever the board is 310 px wide
or more. ``templates/board/_board.html`` shows this drawing instead of the landscape one when
the board's container is narrower than 720 px (``static/css/board.css``); only a board a player
taps on gets it.

Layout (the side at the bottom's numbering): points 12..7 then 6..1 down the left column, 13..18
then 19..24 down the right one, the bar across the middle with the dice, the trays along the
bottom (the bottom side's on the left, under that side's home board). Names and pips along the top.
Same classes and ``data-`` attributes as the landscape board, so board.css and board.js need
nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from markupsafe import Markup

from chouette.engine import Position
from chouette.web.board_cubes import BOX, CubeView, other_side
from chouette.web.board_drawing import BoardDrawing
from chouette.web.board_markup import cube_group, die_face, name_lines, name_text, num, tag
from chouette.web.catalog import gettext as _

P = 56  # a point's height: the finger-size target
NUM = 30  # the point numbers, outside each column
FR = 8  # frame
PL = 170  # a point's length
GAP = 24  # between the two columns
W = 2 * (NUM + FR + PL) + GAP
HEAD = 44  # names and pips
BAR_H = 64
TRAY_H = 60
TOP = HEAD + FR  # top of the points
BAR_Y = TOP + 6 * P
TRAY_Y = BAR_Y + BAR_H + 6 * P + FR
H = TRAY_Y + TRAY_H
CR = 22  # checker radius
STEP = 30  # checkers overlap a little: five fit a point
DIE_P = 36
SLAB_W, SLAB_DX = 9, 11
CUBE_ROW = 46  # a row of the cubes under the trays: two cubes side by side
CUBE_P = 36


class PortraitBoard(BoardDrawing):
    """The same board, drawn upright."""

    @staticmethod
    def place(bottom_point: int) -> tuple[float, bool, float]:
        """(top y of the point, whether it is in the right column, x of its outer edge)."""
        row = 12 - bottom_point if bottom_point <= 12 else bottom_point - 13
        y = TOP + row * P + (BAR_H if row >= 6 else 0)
        right = bottom_point > 12
        return y, right, (W if right else 0)

    def point(self, bottom_point: int) -> Markup:
        """A point lying across its column, its number outside, its checkers from the edge in."""
        y, right, _edge = self.place(bottom_point)
        sign = -1 if right else 1
        base = W - NUM - FR if right else NUM + FR
        tip = base + sign * (PL - 6)
        row = 12 - bottom_point if bottom_point <= 12 else bottom_point - 13
        shade = "a" if (row + right) % 2 == 0 else "b"
        mp = self.mover_point(bottom_point)
        number = bottom_point if self.numbering == "bottom" else mp
        hit_x = W / 2 if right else 0
        parts = [
            tag("rect", x=num(hit_x), y=num(y), width=num(W / 2), height=P, class_="hit"),
            tag(
                "polygon",
                points=f"{num(base)},{num(y + 2)} {num(base)},{num(y + P - 2)} {num(tip)},{num(y + P / 2)}",
                class_=f"triangle shade-{shade}",
            ),
            tag(
                "text",
                str(number),
                x=num(W - NUM / 2 if right else NUM / 2),
                y=num(y + P / 2 + 7),
                class_="number",
            ),
        ]
        x0 = base + sign * (CR + 2)
        mover_count = 0
        for side in (self.bottom, self.top):
            count = self.count(side, bottom_point)
            if count:
                mover_count = count if side == self.mover else mover_count
                parts.append(
                    self.checker_stack(side, count, x0, y + P / 2, 0, mp, dx=sign * STEP, r=CR)
                )
        return self.point_group(parts, bottom_point, mover_count,
                                self.stack_data(x0, y + P / 2, sign * STEP, 0, CR))

    @property
    def other(self) -> str:
        """The side not on roll."""
        return self.top if self.mover == self.bottom else self.bottom

    def bar(self) -> Markup:
        """The bar across the middle: the bottom side's checkers on the right, the other's left."""
        parts = [tag("rect", x=0, y=BAR_Y, width=W, height=BAR_H, class_="bar")]
        cy = BAR_Y + BAR_H / 2
        stacks = {}
        for side in (self.bottom, self.top):
            sign = 1 if side == self.bottom else -1
            x0 = W / 2 + sign * (DIE_P + 10 + CR)
            stacks[side] = self.stack_data(x0, cy, sign * STEP, 0, CR)
            count = self.own[side][25]
            if count:
                point = 25 if side == self.mover else None
                parts.append(self.checker_stack(side, count, x0, cy, 0, point, dx=sign * STEP, r=CR))
        parts.append(self.dice_group())
        return tag(
            "g",
            Markup("").join(parts),
            class_="bar-area" + (" movable" if self.legal is not None and 25 in self.legal else ""),
            data_point=25,
            data_mover=self.own[self.mover][25],
            data_other=self.own[self.other][25],
            data_stack_box=stacks[BOX],
            data_stack_team=stacks[other_side(BOX)],
            **self.control(None, "bar"),
        )

    def dice_group(self) -> Markup:
        """The roll in the middle of the bar."""
        if not self.dice:
            return Markup("")
        a, b = self.dice
        y = BAR_Y + (BAR_H - DIE_P) / 2
        body = tag("title", _("Roll %(a)s-%(b)s", a=a, b=b))
        body += self.small_die(a, W / 2 - DIE_P - 4, y) + self.small_die(b, W / 2 + 4, y)
        return tag("g", body, class_=f"dice side-{self.mover}", data_dice=f"{a}-{b}")

    def small_die(self, value: int, x: float, y: float) -> Markup:
        """A die of the upright board (smaller than the landscape one)."""
        return die_face(value, x, y, DIE_P, 6, 3.5)

    def tray(self, side: str) -> Markup:
        """A side's tray along the bottom: slabs side by side, and the count."""
        left = side == self.bottom
        x = 0 if left else W / 2
        parts = [tag("rect", x=num(x), y=TRAY_Y, width=num(W / 2), height=TRAY_H, class_="tray-half")]
        count = self.own[side][0]
        x0 = x + 10
        slab_y = TRAY_Y + 8
        body = Markup("").join(
            tag("rect", x=num(x0 + i * SLAB_DX), y=slab_y, width=SLAB_W, height=TRAY_H - 16, rx=2,
                 class_="slab")
            for i in range(count)
        )
        text_x, text_y = x0 + 14, TRAY_Y + TRAY_H / 2 + 8
        if count:
            body += tag("text", str(count), x=num(text_x + count * SLAB_DX), y=num(text_y),
                         class_="off-count")
        is_mover = side == self.mover
        parts.append(
            tag(
                "g",
                body,
                class_=f"checkers off side-{side}" + (" mover" if is_mover else ""),
                data_side=side,
                data_count=count,
                data_point=0 if is_mover else None,
            )
        )
        slabs = (x0, slab_y, SLAB_DX, 0, SLAB_W, TRAY_H - 16, text_x, text_y)
        return tag(
            "g",
            Markup("").join(parts),
            class_="tray",
            data_point=0 if is_mover else None,
            data_mover=count if is_mover else None,
            data_slabs=" ".join(num(v) for v in slabs) if is_mover else None,
            **(self.control(None, "tray") if is_mover else {}),
        )

    def heading(self, side: str) -> Markup:
        """A side's name and pips along the top: the bottom side's on the left."""
        left = side == self.bottom
        x = 8 if left else W / 2 + 8
        mark = (
            tag("circle", cx=num(x + 6), cy=HEAD / 2, r=6, class_="on-roll-mark")
            if side == self.on_roll
            else ""
        )
        lines = name_lines(self.name(side), 10)
        # A long name (issue #25) wraps in two smaller lines in the heading's height, never cut.
        if len(lines) == 1:
            names = [name_text(lines[0], 19, W / 2 - 80, x=num(x + 16), y=HEAD / 2 + 7)]
        else:
            names = [name_text(line, 15, W / 2 - 80, "side-name two-lines", x=num(x + 16),
                                y=num(HEAD / 2 - 3 + 18 * row)) for row, line in enumerate(lines)]
        body = Markup("").join(
            [
                tag("title", self.name(side)),
                mark,
                *names,
                tag("text", str(self.pips[side]), x=num(x + W / 2 - 20), y=HEAD / 2 + 7,
                     class_="pips corner-pips"),
            ]
        )
        return tag(
            "g",
            body,
            class_=f"side side-{side}" + (" on-roll" if side == self.on_roll else ""),
            data_side=side,
            data_pips=self.pips[side],
        )

    def cube_strip(self) -> tuple[Markup, float]:
        """Every member's cube under the trays, two a row, in the order of the team (issue 25:
        a phone reads each name whole); and the height they take."""
        if not self.cubes:
            return Markup(""), 0
        top = TRAY_Y + TRAY_H + 10
        half = W / 2
        groups = [cube_group(cube, 8 + (i % 2) * half, top + (i // 2) * CUBE_ROW, CUBE_P,
                             half - CUBE_P - 28, 17)
                  for i, cube in enumerate(self.cubes)]
        rows = (len(self.cubes) + 1) // 2
        return tag("g", Markup("").join(groups), class_="cubes"), 10 + rows * CUBE_ROW

    def render(self) -> Markup:
        """The whole upright SVG element."""
        label = self.summary()
        cubes, cubes_height = self.cube_strip()
        frame = Markup("").join(
            [
                tag("rect", x=NUM, y=HEAD, width=W - 2 * NUM, height=TRAY_Y - HEAD, rx=8, class_="frame"),
                tag("rect", x=NUM + FR, y=TOP, width=PL, height=6 * P, class_="felt"),
                tag("rect", x=NUM + FR, y=BAR_Y + BAR_H, width=PL, height=6 * P, class_="felt"),
                tag("rect", x=W - NUM - FR - PL, y=TOP, width=PL, height=6 * P, class_="felt"),
                tag("rect", x=W - NUM - FR - PL, y=BAR_Y + BAR_H, width=PL, height=6 * P, class_="felt"),
            ]
        )
        points = Markup("").join(self.point(p) for p in range(1, 25))
        body = Markup("").join(
            [
                tag("title", label),
                frame,
                tag("g", points, class_="points"),
                self.bar(),
                self.tray(self.bottom),
                self.tray(self.top),
                self.heading(self.bottom),
                self.heading(self.top),
                cubes,
            ]
        )
        # Hidden until board.css shows it: while a swapped-in copy's stylesheet loads, the page
        # shows one board, not both.
        return self.svg(body, f"0 0 {W} {num(H + cubes_height)}", f"board portrait bottom-{self.bottom}",
                        label, display="none")


def render_portrait_board(
    position: Position,
    *,
    bottom: str = BOX,
    on_roll: str | None,
    dice: tuple[int, int] | None,
    cubes: Iterable[CubeView] | None = None,
    labels: Mapping[str, str] | None = None,
    numbering: str = "bottom",
    controls: bool = False,
) -> Markup:
    """Draw a position upright (for a phone), with the arguments of ``render_board``.

    Raises:
        ValueError: a side name that is not box/member/team, or an unknown numbering.
        DiceError: a die that is not 1..6.

    >>> svg = render_portrait_board(Position.initial(), on_roll="box", dice=(6, 5))
    >>> 'class="board portrait bottom-box"' in svg and 'data-point="24"' in svg
    True
    """
    return PortraitBoard.drawn(position, bottom, on_roll, dice, cubes, labels, None, numbering, False, controls)


__all__ = ["render_portrait_board"]
