"""The decisions the analysis judges, as data: their kinds and ``Decision`` (issue 27;
``chouette.analysis.decisions`` finds them in a table's log). Pure: the standard library."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MOVE, DOUBLE, ANSWER, EXTRA = "move", "double", "answer", "extra"
#: The cube's owner as GNU Backgammon sees it: in the middle, the player on roll, the opponent.
CENTRE, ON_ROLL, OPPONENT = "centre", "on_roll", "opponent"
ANSWERS = ("take", "drop", "beaver", "raccoon")
CUBE_FIELDS = ("member", "value", "owner", "status", "offered", "to_answer", "offer_kind")


@dataclass(frozen=True)
class Decision:
    """One decision of one player in one board game.

    ``position_id`` is the GNU Backgammon Position ID seen from the side on roll (the mover,
    or the side that could double); ``owner`` is the cube's owner from that side too.
    ``played`` is the move in our notation (``""`` when none was legal) for a play, ``double``
    or ``no double`` for a double, ``take``, ``drop`` or ``beaver`` for an answer (``level`` 0),
    ``take``, ``drop`` or ``raccoon`` for the first doubler's answer to a beaver (``level`` 1),
    ``take`` or ``drop`` for the beaverer's answer to a raccoon (``level`` 2), ``extra`` or
    ``no extra`` for a member who could give an extra cube. A cube decision keeps the position,
    value and owner of the double it answers (seen by the doubler), and the table's beavers and
    raccoons. ``extra`` names the giver of the extra cube a double or an answer is about.
    ``steps`` are the play's single-die steps (from, to) in the mover's numbering, 25 the bar
    and 0 off.
    """

    game: int
    index: int
    kind: str
    player: str
    side: str  # "box" or "team": the side the player played for
    position_id: str
    played: str
    value: int = 1
    owner: str = CENTRE
    jacoby: bool = False
    dice: tuple[int, int] | None = None
    steps: tuple[tuple[int, int], ...] = ()
    cube: str | None = None  # the member whose cube it is (cube decisions)
    forced: bool = False  # a play with a single legal choice (or none)
    level: int = 0  # an answer: 0 to a double, 1 to a beaver, 2 to a raccoon
    beavers: bool = False  # the table plays beavers (cube decisions)
    raccoons: bool = False
    extra: str | None = None  # the giver of the extra cube
    #: Every member's cube at that moment, as the table's board draws them: (member, value,
    #: owner "box"/"member"/None, status, value offered, side to answer, offer kind).
    cubes: tuple[tuple[Any, ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the runner's input, the stored results). The fields a game without
        beavers or extras does not use are left out (its fingerprint stays as it was)."""
        found = {"game": self.game, "index": self.index, "kind": self.kind, "player": self.player,
                 "side": self.side, "position_id": self.position_id, "played": self.played,
                 "value": self.value, "owner": self.owner, "jacoby": self.jacoby,
                 "dice": list(self.dice) if self.dice else None,
                 "steps": [list(s) for s in self.steps], "cube": self.cube, "forced": self.forced}
        optional = {"level": self.level, "beavers": self.beavers, "raccoons": self.raccoons,
                    "extra": self.extra}
        found.update({key: value for key, value in optional.items() if value})
        if self.cubes:
            found["cubes"] = [dict(zip(CUBE_FIELDS, cube, strict=True)) for cube in self.cubes]
        return found


__all__ = ["ANSWER", "ANSWERS", "CENTRE", "CUBE_FIELDS", "DOUBLE", "EXTRA", "MOVE", "ON_ROLL", "OPPONENT",
           "Decision"]
