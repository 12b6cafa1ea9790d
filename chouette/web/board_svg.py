"""The board drawn server-side as an inline SVG: points, checkers, bar, trays, dice, pips, cubes.

The game stores its position from the side on roll (``chouette.engine.Position``). The drawing
always puts the same side at the bottom (the box by default) in the same colour, moving the same
way, whoever is on roll; only the ``data-point`` attributes follow the player on roll, so that a
tap builds move text in his numbering (docs/rules.md 1.1: bar = 25, off = 0).

Layout, in the side at the bottom's numbering: points 1..6 bottom right (his home board),
7..12 bottom left, 13..18 top left, 19..24 top right; he bears off into the lower half of the
tray on the right. The rail on the left shows both sides' names, pips and every member's cube:
cubes owned by the side at the top near the top, centred cubes in the middle, the others near
the bottom. Colours live in ``static/css/board.css``; the SVG carries classes only.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from markupsafe import Markup, escape

from chouette.engine import Position, Side, check_roll
from chouette.web.board_cubes import _SIDE_ALIASES, BOX, CubeView, _other, _side
from chouette.web.catalog import gettext as _

# Geometry, in viewBox units.
D = 50  # checker diameter
R = D // 2
PW = 56  # point width
PH = 5 * D  # point height: five checkers
MG = 90  # the gap between the top and bottom points
BW = 60  # bar width
F = 14  # frame
TW = 64  # tray width
RAIL = 170  # the rail on the left: names, pips, cubes
NR = 40  # the row of point numbers above and below the frame
HW = 6 * PW
IW = 2 * HW + BW
IH = 2 * PH + MG
BOARD_X = RAIL + F  # left of the playing area
BOARD_Y = NR + F  # top of the playing area
TRAY_X = BOARD_X + IW + F
WIDTH = TRAY_X + TW + F
HEIGHT = BOARD_Y + IH + F + NR
MID_Y = BOARD_Y + IH / 2
SHOWN = 5  # checkers drawn on one stack; a label gives the count beyond
SLAB = 14  # height of one borne-off checker in the tray
DIE = 44
CUBE = 40
NAME_CHARS = 9  # characters of a member's name on the rail (the <title> has it all)


_ATTR_NAMES: dict[str, str] = {}


def _attr_name(name: str) -> str:
    """``data_point`` -> ``data-point``, ``class_`` -> ``class`` (memoised: it is hot)."""
    try:
        return _ATTR_NAMES[name]
    except KeyError:
        return _ATTR_NAMES.setdefault(name, name.rstrip("_").replace("_", "-"))


def _tag(name: str, body: Markup | str = "", **attrs: object) -> Markup:
    """One element; every attribute value is escaped, and ``body`` too unless it is Markup.

    Built with f-strings and ``escape`` rather than ``Markup.format``: five times faster, and a
    board has a few hundred elements. Attributes whose value is None are left out.
    """
    attributes = "".join(
        f' {_attr_name(key)}="{value if type(value) is int else escape(value)}"'
        for key, value in attrs.items()
        if value is not None
    )
    return Markup(f"<{name}{attributes}>{escape(body)}</{name}>")


def _short(text: str, limit: int = NAME_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _name_lines(name: str, limit: int) -> list[str]:
    """A side's name in at most two lines of about ``limit`` characters, broken between
    words (issue #25: a name is wrapped, never cut); a line still longer is drawn squeezed
    to its width (``_name_text``)."""
    words = name.split()
    if len(name) <= limit or len(words) < 2:
        return [name]
    # The break that makes the longer line shortest.
    cut = min(range(1, len(words)),
              key=lambda i: max(len(" ".join(words[:i])), len(" ".join(words[i:]))))
    return [" ".join(words[:cut]), " ".join(words[cut:])]


def _name_text(line: str, font: float, width: float, class_: str = "side-name",
               **attrs: object) -> Markup:
    """One line of a side's name in a ``font`` px bold font: squeezed to ``width`` when it
    may be wider (estimated at 0.65 em a character: over rather than under)."""
    squeeze = len(line) * font * 0.65 > width
    return _tag("text", line, textLength=_num(width) if squeeze else None,
                lengthAdjust="spacingAndGlyphs" if squeeze else None, class_=class_, **attrs)


def _num(value: float) -> str:
    """A coordinate without a useless ``.0``."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def cube_group(cube: CubeView, x: float, y: float, size: float, name_width: float,
               font: float) -> Markup:
    """One member's cube: its face (the value, or the value offered and a "?") at (x, y), and
    the member's whole name beside it in ``name_width`` (issue 25: never cut with "…"). A name
    too long for one line breaks between words in two smaller lines when the row is tall
    enough, else it is drawn squeezed to the width (``_name_text``)."""
    where = "middle" if not cube.owner else _side(cube.owner)
    classes = f"cube owner-{where}"
    if not cube.is_live:
        classes += f" cube-{cube.status}"
    if cube.offered and cube.to_answer:
        classes += " offered"
    value = str(cube.offered) + "?" if cube.offered and cube.to_answer else str(cube.value)
    lines = [cube.member]
    if len(cube.member) * font * 0.6 > name_width and size >= 30:
        lines = _name_lines(cube.member, max(1, int(name_width / (font * 0.5))))
    small = font * 0.8 if len(lines) > 1 else font
    first = y + size / 2 + (small * 0.35 if len(lines) == 1 else -small * 0.2)
    names = [_name_text(line, small, name_width, "cube-name", x=_num(x + size + 8),
                        y=_num(round(first + row * small * 1.05, 1)), font_size=_num(round(small, 1)))
             for row, line in enumerate(lines)]
    body = Markup("").join([
        _tag("title", cube.describe()),
        _tag("rect", x=_num(x), y=_num(y), width=_num(size), height=_num(size), rx=6,
             class_="cube-face"),
        _tag("text", value, x=_num(x + size / 2), y=_num(y + size / 2 + 7),
             class_="cube-value" if len(value) <= 2 else "cube-value small"),
        *names,
    ])
    return _tag("g", body, class_=classes, data_member=cube.member, data_value=cube.value)


class _Board:
    """One drawing in progress: the two sides' counts in their own numbering, and the view."""

    def __init__(
        self,
        position: Position,
        bottom: str,
        on_roll: str | None,
        dice: tuple[int, int] | None,
        cubes: list[CubeView],
        labels: Mapping[str, str],
        legal: Mapping[int, Collection[int]] | None,
        numbering: str,
        rail: bool = True,
    ) -> None:
        self.bottom = _side(bottom)
        self.top = _other(self.bottom)
        self.on_roll = _side(on_roll) if on_roll is not None else None
        # With nobody on roll, the position is read from the box's side.
        self.mover = self.on_roll or BOX
        self.own = {
            self.mover: position.checkers(Side.ON_ROLL),
            _other(self.mover): position.swap().checkers(Side.ON_ROLL),
        }
        mover_pips, other_pips = position.pips()
        self.pips = {self.mover: mover_pips, _other(self.mover): other_pips}
        self.dice = dice
        self.cubes = cubes
        self.labels = {
            _side(key): str(value) for key, value in labels.items() if key in _SIDE_ALIASES
        }
        self.legal = legal
        if numbering not in ("bottom", "on_roll"):
            raise ValueError(f"numbering {numbering!r}: expected 'bottom' or 'on_roll'")
        self.numbering = numbering
        self.rail = rail
        self.position = position
        #: A board its viewer plays on: each point, the bar and the tray a button (keyboard,
        #: screen reader) named by its number as the viewer counts it.
        self.controls = False

    # --- numbering -------------------------------------------------------------------------

    def mover_point(self, bottom_point: int) -> int:
        """The on-roll player's number for a point given in the bottom side's numbering."""
        return bottom_point if self.mover == self.bottom else 25 - bottom_point

    def count(self, side: str, bottom_point: int) -> int:
        """How many of ``side``'s checkers stand on a point (bottom side's numbering)."""
        own = bottom_point if side == self.bottom else 25 - bottom_point
        return self.own[side][own]

    @staticmethod
    def column(bottom_point: int) -> tuple[float, bool]:
        """(x of the point's left edge, whether it is on the top row)."""
        if bottom_point <= 12:
            col, is_top = 12 - bottom_point, False
        else:
            col, is_top = bottom_point - 13, True
        x = BOARD_X + col * PW + (BW if col >= 6 else 0)
        return x, is_top

    def name(self, side: str) -> str:
        """The side's label (a player's name) or its role."""
        return self.labels.get(side) or (_("Box") if side == BOX else _("Team"))

    def control(self, bottom_point: int | None, where: str = "point") -> dict[str, object]:
        """The attributes that make a point (``bottom_point``, in the bottom side's numbering),
        the bar or the tray a button of a board played on: its name says its number as the
        viewer counts it and the checkers on it. Nothing on a board only looked at."""
        if not self.controls:
            return {}
        if where == "bar":
            name = _("Bar: %(count)d to enter", count=self.own[self.mover][25])
        elif where == "tray":
            name = _("Bear off: %(count)d off", count=self.own[self.mover][0])
        else:
            assert bottom_point is not None
            number = bottom_point if self.numbering == "bottom" else self.mover_point(bottom_point)
            name = _("Point %(number)d", number=number)
            for side in (self.mover, _other(self.mover)):
                count = self.count(side, bottom_point)
                if count:
                    name = _("Point %(number)d: %(count)d of %(name)s", number=number,
                             count=count, name=self.name(side))
                    break
        return {"role": "button", "tabindex": "0", "aria_label": name}

    # --- pieces ----------------------------------------------------------------------------

    def checker_stack(
        self,
        side: str,
        count: int,
        x0: float,
        y0: float,
        step: float,
        point: int | None,
        dx: float = 0,
        r: float = R - 1,
    ) -> Markup:
        """Up to five checkers from (``x0``, ``y0``) (centre of the first), each ``dx`` across and
        ``step`` down from the one before, with a count beyond five."""
        shown = min(count, SHOWN)
        body = [
            _tag("circle", cx=_num(x0 + i * dx), cy=_num(y0 + i * step), r=_num(r), class_="checker")
            for i in range(shown)
        ]
        if count > SHOWN:
            body.append(
                _tag(
                    "text",
                    str(count),
                    x=_num(x0 + (shown - 1) * dx),
                    y=_num(y0 + (shown - 1) * step),
                    class_="count",
                )
            )
        return _tag(
            "g",
            Markup("").join(body),
            class_=f"checkers side-{side}" + (" mover" if side == self.mover else ""),
            data_side=side,
            data_count=count,
            data_point=point,
        )

    @staticmethod
    def stack_data(x0: float, y0: float, dx: float, dy: float, r: float) -> str:
        """Where a stack goes, for board.js to draw the checkers of a move being composed."""
        return " ".join(_num(v) for v in (x0, y0, dx, dy, r))

    def point(self, bottom_point: int) -> Markup:
        """A point: its hit area, its triangle, and the checkers on it."""
        x, is_top = self.column(bottom_point)
        col = 12 - bottom_point if bottom_point <= 12 else bottom_point - 13
        shade = "a" if (col + is_top) % 2 == 0 else "b"
        base_y, tip_y = (
            (BOARD_Y, BOARD_Y + PH - 8) if is_top else (BOARD_Y + IH, BOARD_Y + IH - PH + 8)
        )
        mp = self.mover_point(bottom_point)
        triangle = _tag(
            "polygon",
            points=f"{_num(x)},{_num(base_y)} {_num(x + PW)},{_num(base_y)} {_num(x + PW / 2)},{_num(tip_y)}",
            class_=f"triangle shade-{shade}",
        )
        hit = _tag(
            "rect",
            x=_num(x),
            y=_num(BOARD_Y if is_top else BOARD_Y + IH - PH),
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
                parts.append(self.checker_stack(side, count, cx, y0, step, mp))
        classes = "point"
        targets = None
        if self.legal is not None and mp in self.legal:
            classes += " movable"
            targets = " ".join(str(t) for t in sorted(self.legal[mp]))
        return _tag(
            "g",
            Markup("").join(parts),
            class_=classes,
            data_point=mp,
            data_mover=mover_count,
            data_other=self.count(_other(self.mover), bottom_point),
            data_targets=targets,
            data_stack=self.stack_data(cx, y0, 0, step, R - 1),
            **self.control(bottom_point),
        )

    def bar(self) -> Markup:
        """The bar: the side at the bottom's checkers in the upper half, the other's below."""
        cx = BOARD_X + HW + BW / 2
        parts = [
            _tag("rect", x=_num(BOARD_X + HW), y=BOARD_Y, width=BW, height=IH, class_="bar"),
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
                parts.append(self.checker_stack(side, count, cx, y0, step, point))
        mover_bar = self.own[self.mover][25]
        classes = "bar-area" + (" movable" if self.legal is not None and 25 in self.legal else "")
        return _tag(
            "g",
            Markup("").join(parts),
            class_=classes,
            data_point=25,
            data_mover=mover_bar,
            data_other=self.own[_other(self.mover)][25],
            data_stack_box=stacks[BOX],
            data_stack_team=stacks[_other(BOX)],
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
            _tag("rect", x=TRAY_X, y=_num(y), width=TW, height=_num(half), class_="tray-half"),
        ]
        count = self.own[side][0]
        slabs = []
        for i in range(count):
            sy = (BOARD_Y + 4 + i * SLAB) if is_top else (BOARD_Y + IH - 4 - (i + 1) * SLAB)
            slabs.append(
                _tag(
                    "rect",
                    x=TRAY_X + 6,
                    y=_num(sy),
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
            body += _tag(
                "text", str(count), x=_num(TRAY_X + TW / 2), y=_num(count_y), class_="off-count"
            )
        parts.append(
            _tag(
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
        return _tag(
            "g",
            Markup("").join(parts),
            class_="tray",
            data_point=0 if side == self.mover else None,
            data_mover=count if side == self.mover else None,
            data_slabs=" ".join(_num(v) for v in slabs_data) if side == self.mover else None,
            **(self.control(None, "tray") if side == self.mover else {}),
        )

    def numbers(self) -> Markup:
        """The point numbers above and below the frame."""
        out = []
        for bottom_point in range(1, 25):
            x, is_top = self.column(bottom_point)
            n = bottom_point if self.numbering == "bottom" else self.mover_point(bottom_point)
            y = NR - 11 if is_top else HEIGHT - 9
            out.append(_tag("text", str(n), x=_num(x + PW / 2), y=y, class_="number"))
        return _tag("g", Markup("").join(out), class_="numbers", aria_hidden="true")

    def die(self, value: int, x: float, y: float) -> Markup:
        """One die: a rounded square with its pips."""
        spots = {
            1: [(1, 1)],
            2: [(0, 0), (2, 2)],
            3: [(0, 0), (1, 1), (2, 2)],
            4: [(0, 0), (2, 0), (0, 2), (2, 2)],
            5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
            6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
        }[value]
        cell = DIE / 4
        body = [_tag("rect", x=_num(x), y=_num(y), width=DIE, height=DIE, rx=7, class_="die-face")]
        body += [
            _tag(
                "circle",
                cx=_num(x + cell * (i + 1)),
                cy=_num(y + cell * (j + 1)),
                r=4.5,
                class_="die-pip",
            )
            for i, j in spots
        ]
        return _tag("g", Markup("").join(body), class_="die", data_value=value)

    def dice_group(self) -> Markup:
        """The roll, in the right half for the side at the bottom, the left half for the other."""
        if not self.dice:
            return Markup("")
        a, b = self.dice
        right = self.mover == self.bottom
        cx = BOARD_X + (HW + BW + HW / 2 if right else HW / 2)
        y = MID_Y - DIE / 2
        body = _tag("title", _("Roll %(a)s-%(b)s", a=a, b=b))
        body += self.die(a, cx - DIE - 6, y) + self.die(b, cx + 6, y)
        return _tag("g", body, class_=f"dice side-{self.mover}", data_dice=f"{a}-{b}")

    def side_block(self, side: str) -> Markup:
        """A side's name, pips and on-roll mark on the rail, top or bottom."""
        is_top = side == self.top
        name_y, pips_y = (NR + 20, NR + 46) if is_top else (HEIGHT - NR - 38, HEIGHT - NR - 12)
        name = self.name(side)
        lines = _name_lines(name, 11)
        extra = 22 * (len(lines) - 1)  # a second line: the chip grows away from the board's edge
        if is_top:
            pips_y += extra
        else:
            name_y -= extra
        mark = (
            _tag("circle", cx=14, cy=_num(name_y - 7), r=7, class_="on-roll-mark")
            if side == self.on_roll
            else ""
        )
        body = Markup("").join(
            [
                _tag("title", name),
                _tag(
                    "rect",
                    x=4,
                    y=_num(name_y - 24),
                    width=RAIL - 16,
                    height=58 + extra,
                    rx=8,
                    class_=f"side-chip side-{side}",
                ),
                mark,
                *(_name_text(line, 20, RAIL - 44, x=28, y=_num(name_y + 22 * row))
                  for row, line in enumerate(lines)),
                _tag(
                    "text", _("%(n)s pips", n=self.pips[side]), x=28, y=_num(pips_y), class_="pips"
                ),
            ]
        )
        return _tag(
            "g",
            body,
            class_=f"side side-{side}" + (" on-roll" if side == self.on_roll else ""),
            data_side=side,
            data_pips=self.pips[side],
        )

    def corner_pips(self, side: str) -> Markup:
        """Without the rail: a side's pips above or below its tray."""
        y = NR - 11 if side == self.top else HEIGHT - 9
        body = _tag("title", _("%(side)s: %(n)s pips", side=self.name(side), n=self.pips[side]))
        body += _tag("text", str(self.pips[side]), x=_num(TRAY_X + TW / 2), y=y, class_="pips")
        if side == self.on_roll:
            body += _tag("circle", cx=TRAY_X - 4, cy=y - 9, r=7, class_="on-roll-mark")
        return _tag(
            "g",
            body,
            class_=f"side corner side-{side}" + (" on-roll" if side == self.on_roll else ""),
            data_side=side,
            data_pips=self.pips[side],
        )

    def cube_rows(self) -> Markup:
        """Every member's cube on the rail, grouped by where it stands."""
        if not self.cubes:
            return Markup("")
        top = [c for c in self.cubes if c.is_live and c.owner and _side(c.owner) == self.top]
        # Dropped cubes are out of the game: with the centred ones, greyed.
        middle = [c for c in self.cubes if c.is_live and not c.owner] + [
            c for c in self.cubes if not c.is_live
        ]
        bottom = [c for c in self.cubes if c.is_live and c.owner and _side(c.owner) == self.bottom]
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
        return _tag("g", Markup("").join(out), class_="cubes")

    # --- the whole board -------------------------------------------------------------------

    def summary(self) -> str:
        """The aria-label: who is on roll, the dice, the pips, the checkers off."""
        bits = [_("Board")]
        if self.on_roll:
            bits.append(_("%(side)s on roll", side=self.name(self.on_roll)))
        if self.dice:
            bits.append(_("rolled %(a)s-%(b)s", a=self.dice[0], b=self.dice[1]))
        bits.append(
            _(
                "pips: %(a)s %(pa)s, %(b)s %(pb)s",
                a=self.name(self.bottom),
                pa=self.pips[self.bottom],
                b=self.name(self.top),
                pb=self.pips[self.top],
            )
        )
        for side in (self.bottom, self.top):
            if self.own[side][0]:
                bits.append(_("%(side)s: %(n)s off", side=self.name(side), n=self.own[side][0]))
        return "; ".join([bits[0] + ": " + bits[1]] + bits[2:]) if len(bits) > 1 else bits[0]

    def render(self) -> Markup:
        """The whole SVG element."""
        label = self.summary()
        frame = Markup("").join(
            [
                _tag(
                    "rect",
                    x=RAIL,
                    y=NR,
                    width=WIDTH - RAIL,
                    height=IH + 2 * F,
                    rx=10,
                    class_="frame",
                ),
                _tag("rect", x=BOARD_X, y=BOARD_Y, width=HW, height=IH, class_="felt"),
                _tag("rect", x=BOARD_X + HW + BW, y=BOARD_Y, width=HW, height=IH, class_="felt"),
            ]
        )
        points = Markup("").join(self.point(p) for p in range(1, 25))
        body = Markup("").join(
            [
                _tag("title", label),
                frame,
                self.numbers(),
                _tag("g", points, class_="points"),
                self.bar(),
                self.tray(self.top),
                self.tray(self.bottom),
                self.dice_group(),
            ]
        )
        if self.rail:
            body += self.side_block(self.top) + self.side_block(self.bottom) + self.cube_rows()
            view = f"0 0 {WIDTH} {HEIGHT}"
        else:
            body += self.corner_pips(self.top) + self.corner_pips(self.bottom)
            view = f"{RAIL - 4} 0 {WIDTH - RAIL + 4} {HEIGHT}"
        return _tag(
            "svg",
            body,
            xmlns="http://www.w3.org/2000/svg",
            viewBox=view,
            class_=f"board bottom-{self.bottom}" + ("" if self.rail else " no-rail"),
            role="group" if self.controls else "img",
            aria_label=label,
            data_position_id=self.position.id,
            data_on_roll=self.on_roll or "",
            data_bottom=self.bottom,
            data_dice=f"{self.dice[0]}-{self.dice[1]}" if self.dice else "",
            preserveAspectRatio="xMidYMid meet",
        )


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
    board = _Board(
        position,
        bottom,
        on_roll,
        check_roll((dice[0], dice[1])) if dice else None,
        list(cubes or []),
        labels or {},
        legal,
        numbering,
        rail,
    )
    board.controls = controls
    return board.render()


__all__ = ["render_board"]
