"""One member's cube against the box, and the pending double offers (RULES 2.4, 2.5, 2.7)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

BOX = "box"
MEMBER = "member"

LIVE = "live"
DROPPED = "dropped"  # the member dropped the box's double: he lost the pre-double value
WON = "won"  # the box dropped the member's double: he won the pre-double value


@dataclass(frozen=True)
class MemberCube:
    """A member's cube against the box: value, owner, and whether it is still live.

    ``owner`` is None while the cube is in the middle, else ``"box"`` or ``"member"``.
    ``turned`` records a taken double (automatic doubles do not count: Jacoby rule).
    ``settled`` is the member's points once the cube was dropped (either way).
    """

    member: str
    value: int = 1
    owner: str | None = None
    turned: bool = False
    status: str = LIVE
    settled: int = 0

    @property
    def is_live(self) -> bool:
        """Whether this cube is still in play."""
        return self.status == LIVE

    def can_double(self, side: str) -> bool:
        """Whether ``side`` ("box" or "member") has access to this live cube."""
        return self.is_live and self.owner in (None, side)

    def taken(self, new_value: int, owner: str) -> MemberCube:
        """The cube after a take (or beaver): its new value and owner, and turned."""
        return replace(self, value=new_value, owner=owner, turned=True)

    def dropped_by(self, side: str, pre_value: int) -> MemberCube:
        """The cube after ``side`` dropped a double from ``pre_value``."""
        if side == MEMBER:
            return replace(self, value=pre_value, status=DROPPED, settled=-pre_value)
        return replace(self, value=pre_value, status=WON, settled=pre_value)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (snapshots)."""
        return {
            "member": self.member,
            "value": self.value,
            "owner": self.owner,
            "turned": self.turned,
            "status": self.status,
            "settled": self.settled,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MemberCube:
        """Inverse of :meth:`to_dict`."""
        return cls(**data)


@dataclass
class Offer:
    """Doubles offered at one moment and not yet all answered.

    ``by`` is "box" (the box doubled ``cubes``; each member answers) or "member" (members
    doubled the box; the box answers each). ``answers`` maps a member to take/drop/beaver;
    ``pre`` the cube values before the double.
    """

    by: str
    cubes: list[str]
    pre: dict[str, int]
    answers: dict[str, str] = field(default_factory=dict)
    all_live: bool = False  # the box doubled every member still playing
    initial: bool = False  # the box's first double of the game

    @property
    def waiting(self) -> list[str]:
        """Members whose cube still awaits an answer, in offer order."""
        return [m for m in self.cubes if m not in self.answers]

    def copy(self) -> Offer:
        """An independent copy."""
        return Offer(self.by, list(self.cubes), dict(self.pre), dict(self.answers),
                     self.all_live, self.initial)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (snapshots)."""
        return {"by": self.by, "cubes": list(self.cubes), "pre": dict(self.pre),
                "answers": dict(self.answers), "all_live": self.all_live,
                "initial": self.initial}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Offer:
        """Inverse of :meth:`to_dict`."""
        return cls(**data)


@dataclass(frozen=True)
class Extra:
    """An extra 2-cube (RULES 2.7): the giver sits on the box's side against the taker."""

    giver: str
    taker: str
    value: int = 2

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"giver": self.giver, "taker": self.taker, "value": self.value}
