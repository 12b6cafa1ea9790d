"""Every member's cube against the box, on the engine's cube (docs/rules.md 2.4, 2.5, 2.7).

Each member's cube is a :class:`chouette.engine.Cube` between the box (side 0) and the
member (side 1); this module adds what a chouette needs around it: whether the cube is still
in play, what it settled at when dropped, the box's doubles of several cubes at one moment,
and the extra cubes of a lone taker.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from chouette.engine import Cube
from chouette.engine.cube import Offer as CubeOffer

BOX_SIDE = 0
MEMBER_SIDE = 1
SIDE_NAMES = {BOX_SIDE: "box", MEMBER_SIDE: "member"}

LIVE = "live"
DROPPED = "dropped"  # the member dropped: they lost the value before the offer
WON = "won"  # the box dropped: the member won the value before the offer
DEALT = "dealt"  # the member and the box settled the cube for an agreed amount (a deal)


@dataclass(frozen=True)
class MemberCube:
    """A member's cube against the box: the engine cube, and whether it is still live.

    ``settled`` is the member's points once the cube was dropped, by either side.
    """

    member: str
    cube: Cube = field(default_factory=Cube)
    status: str = LIVE
    settled: int = 0

    @property
    def is_live(self) -> bool:
        """Whether this cube is still in play."""
        return self.status == LIVE

    @property
    def value(self) -> int:
        """The cube's value (before any offer still waiting)."""
        return self.cube.value

    @property
    def owner(self) -> str | None:
        """``"box"``, ``"member"``, or None while the cube is in the middle."""
        return None if self.cube.owner is None else SIDE_NAMES[self.cube.owner]

    @property
    def turned(self) -> bool:
        """Whether a double was taken on this cube in this game (Jacoby rule)."""
        return self.cube.turned

    @property
    def to_answer(self) -> str | None:
        """``"box"`` or ``"member"`` when an offer waits for that side's answer."""
        side = self.cube.to_answer
        return None if side is None else SIDE_NAMES[side]

    def with_cube(self, cube: Cube) -> MemberCube:
        """The same member's cube after an action."""
        return replace(self, cube=cube)

    def dropped(self, side: int) -> MemberCube:
        """The cube after ``side`` dropped the offer waiting on it."""
        result = self.cube.drop(side)
        points = result.points if result.winner == MEMBER_SIDE else -result.points
        return MemberCube(self.member, Cube(result.points, self.cube.owner, None,
                                            self.cube.turned),
                          WON if side == BOX_SIDE else DROPPED, points)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (snapshots, the UI)."""
        offer = self.cube.offer
        return {
            "member": self.member,
            "value": self.cube.value,
            "owner": self.cube.owner,
            "turned": self.cube.turned,
            "offer": [offer.side, offer.value, offer.kind] if offer else None,
            "status": self.status,
            "settled": self.settled,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MemberCube:
        """Inverse of :meth:`to_dict`.

        Raises:
            CubeError: the data describe an impossible cube.
        """
        offer = data.get("offer")
        cube = Cube(data["value"], data["owner"], CubeOffer(*offer) if offer else None,
                    data["turned"])
        return cls(data["member"], cube, data["status"], data["settled"])


@dataclass
class BoxDouble:
    """The box's double of several cubes at one moment, until every member has answered.

    Each answer stands at once (docs/rules.md 2.5): a drop is final and booked, and with a cube for
    each member a take or a beaver is applied too (the box may answer that beaver at once).
    With a single cube takes and beavers wait, as the captain's beaver decides for every
    taker (docs/rules.md 2.4). Once every member has answered come all-but-one and the change of
    captain. ``pre`` holds each cube's value before the double, ``before`` each cube as it
    was (``MemberCube.to_dict``), for a take that all-but-one later turns into a drop.
    """

    cubes: list[str]
    pre: dict[str, int]
    answers: dict[str, str] = field(default_factory=dict)
    all_live: bool = False  # the box doubled every member still playing
    initial: bool = False  # the box's first double of the game
    before: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def waiting(self) -> list[str]:
        """Members who have not answered yet, in offer order."""
        return [m for m in self.cubes if m not in self.answers]

    def copy(self) -> BoxDouble:
        """An independent copy."""
        return BoxDouble(list(self.cubes), dict(self.pre), dict(self.answers), self.all_live,
                         self.initial, self.before)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"cubes": list(self.cubes), "pre": dict(self.pre), "answers": dict(self.answers),
                "all_live": self.all_live, "initial": self.initial, "before": dict(self.before)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BoxDouble:
        """Inverse of :meth:`to_dict`."""
        return cls(**data)


@dataclass(frozen=True)
class Extra:
    """An extra 2-cube (docs/rules.md 2.7) between a giver (the box's side, side 0) and the lone
    taker (side 1), who owns it and may redouble it; settled like any cube between them.
    """

    giver: str
    taker: str
    cube: Cube = field(default_factory=lambda: Cube(2, MEMBER_SIDE, None, True))
    status: str = LIVE
    settled: int = 0  # the taker's points once the extra was dropped

    @property
    def value(self) -> int:
        """The extra cube's value."""
        return self.cube.value

    def with_cube(self, cube: Cube) -> Extra:
        """The same extra after a cube action."""
        return replace(self, cube=cube)

    def dropped(self, side: int) -> Extra:
        """The extra after ``side`` dropped the offer waiting on it."""
        result = self.cube.drop(side)
        points = result.points if result.winner == MEMBER_SIDE else -result.points
        return replace(self, cube=Cube(self.cube.value, self.cube.owner, None, True),
                       status=WON if side == BOX_SIDE else DROPPED, settled=points)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        offer = self.cube.offer
        return {"giver": self.giver, "taker": self.taker, "value": self.cube.value,
                "owner": self.cube.owner,
                "offer": [offer.side, offer.value, offer.kind] if offer else None,
                "status": self.status, "settled": self.settled}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Extra:
        """Inverse of :meth:`to_dict`."""
        offer = data.get("offer")
        cube = Cube(data["value"], data["owner"], CubeOffer(*offer) if offer else None, True)
        return cls(data["giver"], data["taker"], cube, data["status"], data["settled"])


@dataclass(frozen=True)
class Deal:
    """A member's cube settled with the box for an agreed amount (docs/rules.md 2.12).

    The amount is the member's result against the box side: ``half_points`` (points in
    halves, 3 for 1.5 points) or ``cents``, exactly one of them; negative when they pay.
    ``value`` is the cube's value when it was settled; ``seat`` is who keeps the seat when
    the captain settled (``"box"``: the box kept it; ``"captain"``: the captain takes the
    box), else None.

    >>> Deal("Bob", 2, half_points=-3).points_text()
    '-1.5'
    """

    member: str
    value: int
    half_points: int | None = None
    cents: int | None = None
    seat: str | None = None

    def points_text(self) -> str | None:
        """The agreed points as the club writes them (``"1.5"``, ``"-2"``), or None for cents."""
        if self.half_points is None:
            return None
        whole, half = divmod(abs(self.half_points), 2)
        sign = "-" if self.half_points < 0 else ""
        return f"{sign}{whole}.5" if half else f"{sign}{whole}"

    @property
    def sign(self) -> int:
        """1 when the member wins the amount, -1 when they pay it, 0 for a deal at nothing."""
        amount = self.half_points if self.half_points is not None else self.cents or 0
        return (amount > 0) - (amount < 0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"member": self.member, "value": self.value, "half_points": self.half_points,
                "cents": self.cents, "seat": self.seat}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        """Inverse of :meth:`to_dict`."""
        return cls(data["member"], data["value"], data.get("half_points"), data.get("cents"),
                   data.get("seat"))

    def as_ledger(self) -> tuple[str, int | None, int | None]:
        """(member, half points, cents): what the ledger prices (``ledger.games``)."""
        return (self.member, self.half_points, self.cents)
