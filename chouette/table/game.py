"""One game of a chouette: its cubes, offers, extras, board, and its result (docs/rules.md 2.4-2.10)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chouette.engine import Cube, Position
from chouette.table.cubes import LIVE, BoxDouble, Deal, Extra, MemberCube
from chouette.table.lines import SheetLine

BOARD = "board"
SCORESHEET = "scoresheet"
KINDS = {"single": 1, "gammon": 2, "backgammon": 3}


@dataclass
class Game:
    """The game in progress: who plays, every member's cube, the board when there is one."""

    number: int
    members: list[str]
    cubes: dict[str, MemberCube]
    seat_captain: str
    acting_captain: str
    mode: str | None = None
    box_double: BoxDouble | None = None  # the box's double until every member answered it
    member_doubles: list[str] = field(default_factory=list)  # doubled the box at one moment
    box_answers: dict[str, tuple[str, int]] = field(default_factory=dict)  # answer, pre value
    captain_won_early: bool = False  # the box dropped the seat captain's cube
    box_doubled: bool = False
    doubles: int = 0  # doubles offered in this game, dropped or not (consulting after_cube)
    automatic: int = 0
    extras: list[Extra] = field(default_factory=list)
    extras_open: tuple[str, tuple[str, ...]] | None = None  # (lone taker, possible givers)
    # Board mode: the position as seen by the side on roll; dice once rolled, else None.
    position: Position | None = None
    on_roll: str | None = None
    dice: tuple[int, int] | None = None
    turns: int = 0
    last_move: str | None = None
    stakes: dict[str, int] = field(default_factory=dict)  # per-player stakes at the start
    start_seats: dict[str, Any] = field(default_factory=dict)  # seats when it began (void)
    deals: dict[str, Deal] = field(default_factory=dict)  # member -> their cube's deal
    proxies: dict[str, str] = field(default_factory=dict)  # absent member -> who decides for them
    # The seat captain dropped the box's double and left before every member answered it: the
    # captain's seat waits for those answers (rules 2.4, 2.5), then goes to the best-placed
    # live member, or the game ends and the line moves up.
    captain_left: bool = False

    @classmethod
    def start(cls, number: int, team: list[str]) -> Game:
        """A new game for ``team`` (captain first), every cube in the middle at 1."""
        cubes = {m: MemberCube(m, Cube()) for m in team}
        return cls(number, list(team), cubes, team[0], team[0])

    def copy(self) -> Game:
        """An independent copy (cubes and positions are immutable and shared)."""
        return Game(
            self.number, list(self.members), dict(self.cubes), self.seat_captain,
            self.acting_captain, self.mode,
            self.box_double.copy() if self.box_double else None, list(self.member_doubles),
            dict(self.box_answers), self.captain_won_early, self.box_doubled, self.doubles,
            self.automatic,
            list(self.extras), self.extras_open, self.position, self.on_roll, self.dice,
            self.turns, self.last_move, self.stakes, self.start_seats, dict(self.deals),
            dict(self.proxies), self.captain_left,
        )

    @property
    def live(self) -> list[str]:
        """Members whose cube is still in play, in game order."""
        return [m for m in self.members if self.cubes[m].status == LIVE]

    @property
    def live_extras(self) -> list[Extra]:
        """Extra cubes still in play."""
        return [e for e in self.extras if e.status == LIVE]

    @property
    def is_over(self) -> bool:
        """Whether no cube is live, extra cubes included: the game ends (docs/rules.md 2.5)."""
        return not self.live and not self.live_extras

    @property
    def is_board(self) -> bool:
        """Whether the game is played on the app's board."""
        return self.mode == BOARD

    @property
    def any_double(self) -> bool:
        """Whether any cube action has happened in this game."""
        return self.box_doubled or any(
            c.turned or c.status != LIVE or c.to_answer for c in self.cubes.values())

    @property
    def pending(self) -> list[str]:
        """Members whose cube waits for an answer (of the box or of the member)."""
        return [m for m in self.members if self.cubes[m].to_answer is not None]

    @property
    def pending_extras(self) -> list[Extra]:
        """Extra cubes whose redouble waits for an answer."""
        return [e for e in self.extras if e.cube.offer is not None]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (snapshots, the UI)."""
        return {
            "number": self.number,
            "members": list(self.members),
            "cubes": [self.cubes[m].to_dict() for m in self.members],
            "seat_captain": self.seat_captain,
            "acting_captain": self.acting_captain,
            "mode": self.mode,
            "box_double": self.box_double.to_dict() if self.box_double else None,
            "member_doubles": list(self.member_doubles),
            "box_answers": {m: list(a) for m, a in self.box_answers.items()},
            "captain_won_early": self.captain_won_early,
            "box_doubled": self.box_doubled,
            "doubles": self.doubles,
            "automatic": self.automatic,
            "extras": [e.to_dict() for e in self.extras],
            "extras_open": [self.extras_open[0], list(self.extras_open[1])]
            if self.extras_open else None,
            "position_id": self.position.id if self.position is not None else None,
            "on_roll": self.on_roll,
            "dice": list(self.dice) if self.dice else None,
            "turns": self.turns,
            "last_move": self.last_move,
            "stakes": dict(self.stakes),
            "start_seats": self.start_seats,
            "deals": [d.to_dict() for d in self.deals.values()],
            "proxies": dict(self.proxies),
            "captain_left": self.captain_left,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Inverse of :meth:`to_dict`.

        Raises:
            FormatError: a malformed Position ID in the data.
        """
        cubes = {c["member"]: MemberCube.from_dict(c) for c in data["cubes"]}
        extras_open = data.get("extras_open")
        position_id = data.get("position_id")
        return cls(
            data["number"], list(data["members"]), cubes, data["seat_captain"],
            data["acting_captain"], data["mode"],
            BoxDouble.from_dict(data["box_double"]) if data.get("box_double") else None,
            list(data["member_doubles"]),
            {m: (a, v) for m, (a, v) in data["box_answers"].items()},
            data["captain_won_early"], data["box_doubled"], data["doubles"], data["automatic"],
            [Extra.from_dict(e) for e in data["extras"]],
            (extras_open[0], tuple(extras_open[1])) if extras_open else None,
            Position.from_id(position_id) if position_id else None,
            data["on_roll"], tuple(data["dice"]) if data.get("dice") else None,
            data["turns"], data.get("last_move"), dict(data.get("stakes") or {}),
            dict(data.get("start_seats") or {}),
            {d["member"]: Deal.from_dict(d) for d in data.get("deals") or ()},
            dict(data.get("proxies") or {}), bool(data.get("captain_left")),
        )


@dataclass(frozen=True)
class GameRecord:
    """A finished game: seats, result, and every cube's points (member vs the box side).

    ``pairs`` holds (member, their points against the box side); ``extras`` holds
    (giver, taker, the taker's points against the giver), fees included. The box side's
    result is minus the sum of ``pairs``; the ledger splits it with the partner.
    """

    number: int
    box: str
    partner: str | None
    captain: str
    captain_won: bool
    winner: str | None
    kind: str | None
    mode: str
    cubes: tuple[MemberCube, ...]
    pairs: tuple[tuple[str, int], ...]
    extras: tuple[tuple[str, str, int], ...]
    stakes: tuple[tuple[str, int], ...] = ()  # per-player stakes in force during this game
    voided: bool = False  # a correction voided it: no money, no rotation
    correction: str | None = None  # the reason of the correction that changed it, if any
    deals: tuple[Deal, ...] = ()  # cubes settled for an agreed amount (docs/rules.md 2.12)
    proxies: tuple[tuple[str, str], ...] = ()  # (absent member, who decided for them)
    lines: tuple[SheetLine, ...] = ()  # what happened in it, in order (``chouette.table.lines``)
    extra_cubes: tuple[Extra, ...] = ()  # its extra cubes as they ended

    @property
    def box_side_points(self) -> int:
        """The box side's points for the game (box and partner together)."""
        return -sum(points for _, points in self.pairs)

    @property
    def started_by(self) -> str:
        """The captain who started the game (``captain`` is the seat's captain at its end)."""
        return self.cubes[0].member if self.cubes else self.captain

    @property
    def captains(self) -> tuple[str, ...]:
        """Everyone who captained the team in this game: who started it, then each acting
        captain in turn (docs/rules.md 2.4, 2.5)."""
        found = [self.started_by]
        for line in self.lines:
            if line.kind == "acting_captain" and line.who not in found:
                found.append(line.who)
        return tuple(found)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "number": self.number, "box": self.box, "partner": self.partner,
            "captain": self.captain, "captain_won": self.captain_won,
            "winner": self.winner, "kind": self.kind, "mode": self.mode,
            "cubes": [c.to_dict() for c in self.cubes],
            "pairs": [list(p) for p in self.pairs],
            "extras": [list(e) for e in self.extras],
            "stakes": [list(s) for s in self.stakes],
            "voided": self.voided,
            "correction": self.correction,
            "deals": [d.to_dict() for d in self.deals],
            "proxies": [list(p) for p in self.proxies],
            "lines": [line.to_list() for line in self.lines],
            "extra_cubes": [extra.to_dict() for extra in self.extra_cubes],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """Inverse of :meth:`to_dict`."""
        return cls(
            data["number"], data["box"], data["partner"], data["captain"],
            data["captain_won"], data["winner"], data["kind"], data["mode"],
            tuple(MemberCube.from_dict(c) for c in data["cubes"]),
            tuple((m, p) for m, p in data["pairs"]),
            tuple((g, t, p) for g, t, p in data["extras"]),
            tuple((n, c) for n, c in data.get("stakes", ())),
            bool(data.get("voided", False)),
            data.get("correction"),
            deals=tuple(Deal.from_dict(d) for d in data.get("deals") or ()),
            proxies=tuple((a, p) for a, p in data.get("proxies") or ()),
            lines=tuple(SheetLine.from_list(line) for line in data.get("lines") or ()),
            extra_cubes=tuple(Extra.from_dict(extra) for extra in data.get("extra_cubes") or ()),
        )


def settle(game: Game, winner: str | None, kind: str | None, *, jacoby: bool
           ) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, str, int], ...]]:
    """Points of every cube and extra of a finished game (docs/rules.md 2.10).

    Dropped cubes count their pre-double value, settled cubes (deals) no points: their agreed
    amount is in ``Game.deals``; live cubes the value times 1/2/3 for the
    winner, single when the Jacoby rule is on and the cube was never turned.
    """
    multiplier = KINDS[kind] if kind else 1
    pairs = []
    for member in game.members:
        cube = game.cubes[member]
        if cube.status != LIVE:
            pairs.append((member, cube.settled))
            continue
        points = cube.cube.points(multiplier, jacoby=jacoby)
        pairs.append((member, points if winner == "team" else -points))
    extras = []
    for extra in game.extras:
        if extra.status != LIVE:
            points = extra.settled
        else:
            # Settled by the board like any cube, whatever became of the taker's own cube:
            # a game goes on while an extra is live (docs/rules.md 2.5, 2.7).
            points = extra.cube.points(multiplier)
            points = points if winner == "team" else -points
        # The fee of one point was paid to the taker at once.
        extras.append((extra.giver, extra.taker, points + 1))
    return tuple(pairs), tuple(extras)


def settled_so_far(game: Game) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, str, int], ...]]:
    """What a game in progress has settled already: dropped cubes and extras, extra fees.

    docs/rules.md 2.10 books a drop at the moment of the drop, and the extra's fee is paid at once.
    """
    pairs = tuple((m, game.cubes[m].settled) for m in game.members if not game.cubes[m].is_live)
    extras = tuple((e.giver, e.taker, 1 + (e.settled if e.status != LIVE else 0))
                   for e in game.extras)
    return pairs, extras
