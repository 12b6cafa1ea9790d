"""One drawing of the board in progress, whatever its layout: what both layouts share.

The game stores its position from the side on roll (``chouette.engine.Position``). A drawing
always puts the same side at the bottom (the box by default) in the same colour, moving the same
way, whoever is on roll; only the ``data-point`` attributes follow the player on roll, so that a
tap builds move text in their numbering (docs/rules.md 1.1: bar = 25, off = 0).
``BoardDrawing`` holds the two sides' counts in their own numbering, their names and pips, and
draws what does not depend on the layout: a stack of checkers, a point's name as a button, the
summary read out for the board. ``board_svg`` (landscape) and ``board_portrait`` (upright) lay
the pieces out.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from markupsafe import Markup

from chouette.engine import Position, Side, check_roll
from chouette.web.board_cubes import BOX, SIDE_NAMES, CubeView, normal_side, other_side
from chouette.web.board_markup import num, tag
from chouette.web.catalog import gettext as _

SHOWN = 5  # checkers drawn on one stack; a label gives the count beyond


class BoardDrawing:
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
        self.bottom = normal_side(bottom)
        self.top = other_side(self.bottom)
        self.on_roll = normal_side(on_roll) if on_roll is not None else None
        # With nobody on roll, the position is read from the box's side.
        self.mover = self.on_roll or BOX
        self.own = {
            self.mover: position.checkers(Side.ON_ROLL),
            other_side(self.mover): position.swap().checkers(Side.ON_ROLL),
        }
        mover_pips, other_pips = position.pips()
        self.pips = {self.mover: mover_pips, other_side(self.mover): other_pips}
        self.dice = dice
        self.cubes = cubes
        self.labels = {
            normal_side(key): str(value) for key, value in labels.items() if key in SIDE_NAMES
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

    @classmethod
    def drawn(
        cls,
        position: Position,
        bottom: str,
        on_roll: str | None,
        dice: tuple[int, int] | None,
        cubes: Iterable[CubeView] | None,
        labels: Mapping[str, str] | None,
        legal: Mapping[int, Collection[int]] | None,
        numbering: str,
        rail: bool,
        controls: bool,
    ) -> Markup:
        """The board drawn in this layout, as ``render_board``/``render_portrait_board`` take
        it: the dice checked (``DiceError``), no cubes or labels when None."""
        board = cls(
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

    def render(self) -> Markup:
        """The whole drawing (each layout draws its own)."""
        raise NotImplementedError

    # --- numbering -------------------------------------------------------------------------

    def mover_point(self, bottom_point: int) -> int:
        """The on-roll player's number for a point given in the bottom side's numbering."""
        return bottom_point if self.mover == self.bottom else 25 - bottom_point

    def count(self, side: str, bottom_point: int) -> int:
        """How many of ``side``'s checkers stand on a point (bottom side's numbering)."""
        own = bottom_point if side == self.bottom else 25 - bottom_point
        return self.own[side][own]

    def name(self, side: str) -> str:
        """The side's label (a player's name) or its role."""
        return self.labels.get(side) or (_("Box") if side == BOX else _("Team"))

    def point_group(self, parts: list[Markup], bottom_point: int, mover_count: int, stack: str) -> Markup:
        """A point drawn from its ``parts``: marked movable, with the points one die takes its
        checkers to, when the player on roll may move from it; ``stack`` is its
        ``stack_data``; a button on a board played on."""
        mp = self.mover_point(bottom_point)
        classes = "point"
        targets = None
        if self.legal is not None and mp in self.legal:
            classes += " movable"
            targets = " ".join(str(t) for t in sorted(self.legal[mp]))
        return tag(
            "g",
            Markup("").join(parts),
            class_=classes,
            data_point=mp,
            data_mover=mover_count,
            data_other=self.count(other_side(self.mover), bottom_point),
            data_targets=targets,
            data_stack=stack,
            **self.control(bottom_point),
        )

    def svg(self, body: Markup, view_box: str, classes: str, label: str, **extra: object) -> Markup:
        """The drawing's root: its view, classes and the attributes the page's script reads
        (the Position ID, who is on roll, the dice); a group of buttons when played on."""
        return tag(
            "svg",
            body,
            xmlns="http://www.w3.org/2000/svg",
            viewBox=view_box,
            class_=classes,
            role="group" if self.controls else "img",
            aria_label=label,
            data_position_id=self.position.id,
            data_on_roll=self.on_roll or "",
            data_bottom=self.bottom,
            data_dice=f"{self.dice[0]}-{self.dice[1]}" if self.dice else "",
            preserveAspectRatio="xMidYMid meet",
            **extra,
        )

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
            for side in (self.mover, other_side(self.mover)):
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
        *,
        r: float,
    ) -> Markup:
        """Up to five checkers from (``x0``, ``y0``) (centre of the first), each ``dx`` across and
        ``step`` down from the one before, with a count beyond five."""
        shown = min(count, SHOWN)
        body = [
            tag("circle", cx=num(x0 + i * dx), cy=num(y0 + i * step), r=num(r), class_="checker")
            for i in range(shown)
        ]
        if count > SHOWN:
            body.append(
                tag(
                    "text",
                    str(count),
                    x=num(x0 + (shown - 1) * dx),
                    y=num(y0 + (shown - 1) * step),
                    class_="count",
                )
            )
        return tag(
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
        return " ".join(num(v) for v in (x0, y0, dx, dy, r))

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


__all__ = ["BoardDrawing"]
