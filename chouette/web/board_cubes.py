"""What the board shows of each member's cube (``CubeView``), and the two sides' names.

A ``CubeView`` is the drawing's input for one cube: its value, its owner, whether it is still
in play, the offer waiting for an answer, and the line that says all of it in words (the
``<title>`` on the board, the badge in the cube list). The sides are ``"box"`` and ``"team"``;
``"member"`` is read as the team (``normal_side``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chouette.web.catalog import gettext as _

BOX = "box"
TEAM = "team"
SIDE_NAMES = {"box": BOX, "team": TEAM, "member": TEAM}


@dataclass(frozen=True)
class CubeView:
    """What the board shows of one member's cube.

    ``owner`` is ``"box"``, ``"member"`` (or ``"team"``), or None while the cube is in the
    middle. ``status`` is ``"live"``, ``"dropped"`` (the member dropped), ``"won"`` (the box
    dropped) or ``"dealt"`` (settled for an agreed amount). ``offered`` is the value offered (``offer_kind``: ``"double"``, ``"beaver"``,
    ``"raccoon"``) while ``to_answer`` (``"box"``/``"member"``) has not answered yet.
    """

    member: str
    value: int = 1
    owner: str | None = None
    status: str = "live"
    offered: int | None = None
    to_answer: str | None = None
    offer_kind: str = "double"

    @classmethod
    def from_member_cube(cls, cube: Any, name: str | None = None) -> CubeView:
        """The view of a ``chouette.table.cubes.MemberCube`` (or anything shaped like it)."""
        offer = cube.cube.offer
        return cls(
            member=name if name is not None else str(cube.member),
            value=cube.value,
            owner=cube.owner,
            status=cube.status,
            offered=offer.value if offer is not None else None,
            to_answer=cube.to_answer,
            offer_kind=offer.kind if offer is not None else "double",
        )

    @property
    def is_live(self) -> bool:
        """Whether the cube is still in play."""
        return self.status == "live"

    def describe(self) -> str:
        """One line for a title or a list: value, owner, offer, status (not escaped)."""
        owner = normal_side(self.owner) if self.owner else None
        if not self.is_live:
            what = {"dropped": _("dropped"), "dealt": _("settled")}.get(self.status, _("box dropped"))
            return _(
                "%(name)s: cube %(value)s, %(what)s", name=self.member, value=self.value, what=what
            )
        if owner is None:
            text = _("%(name)s: cube %(value)s, in the middle", name=self.member, value=self.value)
        elif owner == BOX:
            text = _(
                "%(name)s: cube %(value)s, owned by the box", name=self.member, value=self.value
            )
        else:
            text = _(
                "%(name)s: cube %(value)s, owned by %(name)s", name=self.member, value=self.value
            )
        if self.offered and self.to_answer:
            answerer = _("the box") if normal_side(self.to_answer) == BOX else self.member
            if self.offer_kind == "beaver":
                text += _(
                    "; beavered to %(value)s, %(who)s to answer", value=self.offered, who=answerer
                )
            elif self.offer_kind == "raccoon":
                text += _(
                    "; raccooned to %(value)s, %(who)s to answer", value=self.offered, who=answerer
                )
            else:
                text += _(
                    "; doubled to %(value)s, %(who)s to answer", value=self.offered, who=answerer
                )
        return text


def normal_side(name: str | None) -> str:
    """Normalise a side's name: ``"box"``, or ``"team"`` for the member/team side.

    Raises:
        ValueError: the name is neither.
    """
    try:
        return SIDE_NAMES[str(name)]
    except KeyError:
        raise ValueError(f"side {name!r}: expected 'box', 'member' or 'team'") from None


def other_side(side: str) -> str:
    """The other side: the team for the box, the box for the team."""
    return TEAM if side == BOX else BOX


__all__ = ["BOX", "SIDE_NAMES", "TEAM", "CubeView", "normal_side", "other_side"]
