"""The money doubling cube between two sides, 0 and 1 (docs/rules.md 1.7), as an immutable state machine.

A double is an *offer* waiting for an answer: the side doubled takes, drops or (with beavers)
beavers. A beaver is a take plus an immediate redouble by the taker, who keeps the cube; the
original doubler answers it like a double: take, drop (losing the value they had just been
taken at) or, with raccoons, raccoon (take plus one more redouble; the cube stays with the
beaverer), which the beaverer answers with take or drop (the rule texts (docs/rules.md 1.7): "the original
doubler may accept or refuse as with a normal double"). Nothing is mutated: every action
returns a new :class:`Cube` or, for a drop, the finished game's :class:`CubeResult`.

>>> cube = Cube().double(0).take(1)
>>> cube
Cube(value=2, owner=1, offer=None, turned=True)
>>> cube.can_double(0)
False
>>> cube.double(1).drop(0)
CubeResult(winner=1, points=2, dropped=True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from chouette.engine.errors import CubeError, Phrase


class MatchRules(Protocol):
    """What the cube asks of a match (``chouette.engine.match.Match``), without importing it:
    the match is built on the cube, not the other way round."""

    def double_refusal(self, side: int, *, turn_number: int | None = None) -> str | None:
        """Why the match forbids ``side`` to double now, or None if it allows it."""
        ...


OfferKind = Literal["double", "beaver", "raccoon"]
OFFER_KINDS: tuple[OfferKind, ...] = ("double", "beaver", "raccoon")
SIDES = (0, 1)
SIDE_WORDS = "side {side}"  # the template naming a side in the refusals (the table names players)


def side_words(side: int) -> Phrase:
    """A side named in a refusal: ``side 0`` (a chouette table replaces it with a player's name).

    >>> str(side_words(1))
    'side 1'
    """
    return Phrase("side {side}", side=side)


def check_side(side: object, what: str = "side") -> int:
    """Return ``side`` if it is 0 or 1.

    Raises:
        CubeError: ``side`` is not the int 0 or 1.
    """
    if isinstance(side, bool) or not isinstance(side, int) or side not in SIDES:
        raise CubeError(f"{what} must be 0 or 1, not {side!r}")
    return side


def _is_power_of_two(value: object) -> bool:
    return type(value) is int and value >= 1 and value & (value - 1) == 0


@dataclass(frozen=True)
class Offer:
    """A cube offer waiting for an answer: who made it, the value offered, and its kind.

    Raises:
        CubeError: a side other than 0 or 1, a value that is not a power of two >= 2, or an
            unknown kind.
    """

    side: int
    value: int
    kind: OfferKind = "double"

    def __post_init__(self) -> None:
        check_side(self.side, "the offering side")
        if not _is_power_of_two(self.value) or self.value < 2:
            raise CubeError(f"an offer must be a power of two >= 2, not {self.value!r}")
        if self.kind not in OFFER_KINDS:
            raise CubeError(f"an offer is a double, a beaver or a raccoon, not {self.kind!r}")

    @property
    def answerer(self) -> int:
        """The side that must answer this offer."""
        return 1 - self.side


@dataclass(frozen=True)
class CubeSettings:
    """The optional cube rules of a table (docs/rules.md 1.7, 1.2); all off by default.

    Raises:
        CubeError: raccoons without beavers, or a negative number of automatic doubles.
    """

    beavers: bool = False
    raccoons: bool = False
    jacoby: bool = False
    automatic_doubles: int = 0

    def __post_init__(self) -> None:
        if self.raccoons and not self.beavers:
            raise CubeError("raccoons need beavers: a raccoon answers a beaver")
        if type(self.automatic_doubles) is not int or self.automatic_doubles < 0:
            raise CubeError(
                f"the number of automatic doubles must be an int >= 0, not {self.automatic_doubles!r}"
            )


@dataclass(frozen=True)
class CubeResult:
    """How one cube's game ended: the winner and the points they win from the loser.

    Raises:
        CubeError: a winner other than 0 or 1, or points that are not a positive int.
    """

    winner: int
    points: int
    dropped: bool = False

    def __post_init__(self) -> None:
        check_side(self.winner, "the winner")
        if type(self.points) is not int or self.points < 1:
            raise CubeError(f"a game is worth a positive number of points, not {self.points!r}")

    @property
    def loser(self) -> int:
        """The side that pays."""
        return 1 - self.winner

    @property
    def by_side(self) -> tuple[int, int]:
        """Points for side 0 and side 1; they sum to zero.

        >>> CubeResult(winner=1, points=4).by_side
        (-4, 4)
        """
        return (self.points, -self.points) if self.winner == 0 else (-self.points, self.points)


@dataclass(frozen=True)
class Cube:
    """One doubling cube: its value, its owner (None = in the middle), a pending offer, and
    whether a double was taken during this game (for the Jacoby rule).

    While an offer is pending, ``value`` and ``owner`` are those the offer would change: the
    value a drop loses, and (for a beaver or raccoon) the beaverer who keeps the cube.

    Raises:
        CubeError: an impossible state (a value that is not a power of two, an owner other
            than None, 0 or 1, an offer that does not double the value or that its side could
            not have made, an owned cube never turned).
    """

    value: int = 1
    owner: int | None = None
    offer: Offer | None = None
    turned: bool = False

    def __post_init__(self) -> None:
        if not _is_power_of_two(self.value):
            raise CubeError(f"the cube value must be a power of two >= 1, not {self.value!r}")
        if self.owner is not None:
            check_side(self.owner, "the cube owner")
            if not self.turned:
                raise CubeError(f"side {self.owner} cannot own a cube that was never turned")
        offer = self.offer
        if offer is None:
            return
        if not isinstance(offer, Offer):
            raise CubeError(f"the offer must be an Offer or None, not {offer!r}")
        if offer.value != 2 * self.value:
            raise CubeError(
                f"an offer doubles the value: {self.value} to {2 * self.value}, not {offer.value}"
            )
        if offer.kind == "double" and self.owner == offer.answerer:
            raise CubeError(f"side {offer.side} cannot have doubled: the cube is owned by side {self.owner}")
        beaverer = offer.side if offer.kind == "beaver" else offer.answerer
        if offer.kind != "double" and (self.owner != beaverer or not self.turned):
            raise CubeError(f"a pending {offer.kind} needs the cube owned by the beaverer, side {beaverer}")

    @classmethod
    def automatic(cls, count: int) -> Cube:
        """The cube after ``count`` automatic doubles: 2**count, in the middle, never turned.

        >>> Cube.automatic(2)
        Cube(value=4, owner=None, offer=None, turned=False)

        Raises:
            CubeError: ``count`` is not an int >= 0.
        """
        if type(count) is not int or count < 0:
            raise CubeError(f"the number of automatic doubles must be an int >= 0, not {count!r}")
        return cls(value=2**count)

    # --- doubling ---

    def double_refusal(
        self,
        side: int,
        *,
        on_roll: int | None = None,
        rolled: bool = False,
        match: MatchRules | None = None,
        turn_number: int | None = None,
    ) -> str | None:
        """Why ``side`` may not double now, or None if it may.

        ``on_roll`` is the side whose turn it is (None: turns not tracked, as on a paper
        sheet); ``rolled`` says the dice of this turn are already rolled. A player closed out
        does not roll, so they may still double. In match play pass ``match`` (Crawford rule) and,
        for the Holland rule, ``turn_number``: which turn of this game this is for ``side``.

        Raises:
            CubeError: ``side`` or ``on_roll`` is not 0 or 1.
            MatchError: the Holland rule applies and ``turn_number`` is missing or bad.
        """
        check_side(side)
        if on_roll is not None:
            check_side(on_roll, "the side on roll")
        refused = f"side {side} cannot double"
        if self.offer is not None:
            return f"{refused}: {self._describe_offer()} is waiting for an answer"
        if self.owner is not None and self.owner != side:
            return f"{refused}: the cube is owned by side {self.owner} (only the owner may redouble)"
        if on_roll is not None and on_roll != side:
            return f"{refused}: it is side {on_roll}'s turn (double only at the start of your own turn)"
        if rolled:
            return f"{refused}: the dice are already rolled (double only before rolling)"
        if match is not None:
            reason = match.double_refusal(side, turn_number=turn_number)
            if reason is not None:
                return f"{refused}: {reason}"
        return None

    def can_double(
        self,
        side: int,
        *,
        on_roll: int | None = None,
        rolled: bool = False,
        match: MatchRules | None = None,
        turn_number: int | None = None,
    ) -> bool:
        """Whether ``side`` may double now (see :meth:`double_refusal` for the arguments).

        Raises:
            CubeError: ``side`` or ``on_roll`` is not 0 or 1.
            MatchError: as :meth:`double_refusal`.
        """
        refusal = self.double_refusal(
            side, on_roll=on_roll, rolled=rolled, match=match, turn_number=turn_number
        )
        return refusal is None

    def double(
        self,
        side: int,
        *,
        on_roll: int | None = None,
        rolled: bool = False,
        match: MatchRules | None = None,
        turn_number: int | None = None,
    ) -> Cube:
        """``side`` offers to double: the other side must take, drop or beaver.

        >>> Cube().double(0).offer
        Offer(side=0, value=2, kind='double')

        Raises:
            CubeError: the double is not allowed now; the message says why.
            MatchError: as :meth:`double_refusal`.
        """
        refusal = self.double_refusal(
            side, on_roll=on_roll, rolled=rolled, match=match, turn_number=turn_number
        )
        if refusal is not None:
            raise CubeError(refusal)
        return Cube(self.value, self.owner, Offer(side, 2 * self.value, "double"), self.turned)

    # --- answers ---

    @property
    def to_answer(self) -> int | None:
        """The side that must answer the pending offer, or None when nothing is pending."""
        return None if self.offer is None else self.offer.answerer

    def answers(self, *, beavers: bool = False, raccoons: bool = False) -> tuple[str, ...]:
        """The answers open to :attr:`to_answer` now, for a table's beaver and raccoon settings.

        >>> Cube().double(0).answers(beavers=True)
        ('take', 'drop', 'beaver')
        >>> Cube().double(0).beaver(1).answers(beavers=True, raccoons=True)
        ('take', 'drop', 'raccoon')
        """
        if self.offer is None:
            return ()
        if self.offer.kind == "double" and beavers:
            return ("take", "drop", "beaver")
        if self.offer.kind == "beaver" and raccoons:
            return ("take", "drop", "raccoon")
        return ("take", "drop")

    def _describe_offer(self) -> Phrase:
        offer = self.offer
        assert offer is not None
        return Phrase("a {kind} by {who} to {value}", kind=offer.kind, who=side_words(offer.side),
                      value=offer.value)

    def _check_answer(self, side: int, action: str) -> Offer:
        check_side(side)
        if self.offer is None:
            raise CubeError("{who} cannot {action}: no double to {action}",
                            who=side_words(side), action=action)
        if side != self.offer.answerer:
            raise CubeError(
                "{who} cannot {action}: {who} made {offer}; {answerer} must answer",
                who=side_words(side), action=action, offer=self._describe_offer(),
                answerer=side_words(self.offer.answerer),
            )
        return self.offer

    def take(self, side: int) -> Cube:
        """``side`` accepts the pending offer: the value is doubled; after a double the taker
        owns the cube, after a beaver or raccoon the beaverer keeps it.

        >>> Cube().double(0).take(1)
        Cube(value=2, owner=1, offer=None, turned=True)

        Raises:
            CubeError: no offer is pending, or ``side`` is not the side that must answer.
        """
        offer = self._check_answer(side, "take")
        owner = side if offer.kind == "double" else self.owner
        return Cube(offer.value, owner, None, True)

    def drop(self, side: int) -> CubeResult:
        """``side`` refuses the pending offer and loses the value before it; the game is over.

        >>> Cube(value=8, owner=1, turned=True).double(1).drop(0)
        CubeResult(winner=1, points=8, dropped=True)

        Raises:
            CubeError: no offer is pending, or ``side`` is not the side that must answer.
        """
        offer = self._check_answer(side, "drop")
        return CubeResult(winner=offer.side, points=self.value, dropped=True)

    def beaver(self, side: int, *, allowed: bool = True, match: MatchRules | None = None) -> Cube:
        """``side``, just doubled, takes and at once redoubles, keeping the cube; the doubler
        must now take, drop or raccoon.

        >>> Cube().double(0).beaver(1)
        Cube(value=2, owner=1, offer=Offer(side=1, value=4, kind='beaver'), turned=True)

        Raises:
            CubeError: beavers are off (``allowed`` false, or match play), no double is
                pending, or ``side`` is not the side just doubled.
        """
        check_side(side)
        refused = Phrase("{who} cannot beaver", who=side_words(side))
        if match is not None:
            raise CubeError("{refused}: beavers are not played in matches", refused=refused)
        if not allowed:
            raise CubeError("{refused}: beavers are not allowed at this table", refused=refused)
        offer = self._check_answer(side, "beaver")
        if offer.kind != "double":
            raise CubeError("{refused}: only a double can be beavered, and this is {offer}",
                            refused=refused, offer=self._describe_offer())
        return Cube(offer.value, side, Offer(side, 2 * offer.value, "beaver"), True)

    def raccoon(self, side: int, *, allowed: bool = True, match: MatchRules | None = None) -> Cube:
        """``side``, the original doubler, answers a beaver by taking and redoubling at once;
        the cube stays with the beaverer, who must take or drop.

        >>> Cube().double(0).beaver(1).raccoon(0)
        Cube(value=4, owner=1, offer=Offer(side=0, value=8, kind='raccoon'), turned=True)

        Raises:
            CubeError: raccoons are off (``allowed`` false, or match play), no beaver is
                pending, or ``side`` is not the original doubler.
        """
        check_side(side)
        refused = Phrase("{who} cannot raccoon", who=side_words(side))
        if match is not None:
            raise CubeError("{refused}: raccoons are not played in matches", refused=refused)
        if not allowed:
            raise CubeError("{refused}: raccoons are not allowed at this table", refused=refused)
        if self.offer is None:
            raise CubeError("{refused}: no beaver to raccoon", refused=refused)
        offer = self._check_answer(side, "raccoon")
        if offer.kind != "beaver":
            raise CubeError("{refused}: a raccoon answers a beaver, and this is {offer}",
                            refused=refused, offer=self._describe_offer())
        return Cube(offer.value, self.owner, Offer(side, 2 * offer.value, "raccoon"), True)

    # --- settlement ---

    def points(self, kind_multiplier: int, *, jacoby: bool = False) -> int:
        """The points of a game finished at this cube: value x 1/2/3 for single, gammon,
        backgammon; with the Jacoby rule a gammon or backgammon counts single unless a double
        was taken during the game.

        >>> Cube.automatic(1).points(2, jacoby=True)
        2

        Raises:
            CubeError: ``kind_multiplier`` is not 1, 2 or 3, or an offer is still unanswered.
        """
        # An int or an IntEnum such as WinKind, whose value is the multiplier; never a bool.
        multiplier = kind_multiplier
        if not isinstance(multiplier, int) or isinstance(multiplier, bool) or multiplier not in (1, 2, 3):
            raise CubeError(f"the kind multiplier must be 1, 2 or 3, not {kind_multiplier!r}")
        if self.offer is not None:
            raise CubeError(
                f"the game cannot end at this cube: {self._describe_offer()} is waiting for an answer"
            )
        multiplier = 1 if jacoby and not self.turned else int(kind_multiplier)
        return self.value * multiplier

    def settle(self, winner: int, kind_multiplier: int, *, jacoby: bool = False) -> CubeResult:
        """The result of a game won by ``winner`` on the board (see :meth:`points`).

        >>> Cube(value=4, owner=0, turned=True).settle(1, 2).by_side
        (-8, 8)

        Raises:
            CubeError: ``winner`` is not 0 or 1, or :meth:`points` refuses.
        """
        check_side(winner, "the winner")
        return CubeResult(winner=winner, points=self.points(kind_multiplier, jacoby=jacoby))
