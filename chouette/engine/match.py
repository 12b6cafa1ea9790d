"""Match play (docs/rules.md 1.8): the score to N points, the Crawford and Holland rules.

A :class:`Match` is the state between games and during one: the scores, and where the match
stands with respect to the Crawford game. Every game is recorded with
:meth:`Match.record_game`; points beyond N give no bonus.

>>> match = Match(5).record_game(0, 4)
>>> match
Match(length=5, scores=(4, 0), crawford_rule=True, holland_rule=False, crawford_game=True, post_crawford=False)
>>> match.can_double(1)
False
>>> match.record_game(1, 2).can_double(1)
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from chouette.engine.cube import CubeResult, CubeSettings, check_side
from chouette.engine.errors import CubeError, MatchError


def _side(side: object, what: str = "side") -> int:
    try:
        return check_side(side, what)
    except CubeError as error:
        raise MatchError(str(error)) from None


@dataclass(frozen=True)
class Match:
    """A match to ``length`` points: scores of side 0 and side 1, the rules in use, and
    whether this game is the Crawford game or the Crawford game has been played.

    Raises:
        MatchError: a length below 1, a score outside 0..length, both sides at the length,
            or Crawford flags that no match could reach (e.g. a Crawford game with nobody at
            N-1, or a score at N-1 before the Crawford game without the flag set).
    """

    length: int
    scores: tuple[int, int] = (0, 0)
    crawford_rule: bool = True
    holland_rule: bool = False
    crawford_game: bool = False
    post_crawford: bool = False

    def __post_init__(self) -> None:
        length, scores = self.length, self.scores
        if type(length) is not int or length < 1:
            raise MatchError(f"a match is to an int >= 1 points, not {length!r}")
        if (
            not isinstance(scores, tuple)
            or len(scores) != 2
            or any(type(score) is not int or not 0 <= score <= length for score in scores)
        ):
            raise MatchError(f"scores {scores!r} are not two ints from 0 to {length}")
        if scores == (length, length):
            raise MatchError(f"both sides cannot have won the match to {length}: {scores!r}")
        if self.holland_rule and not self.crawford_rule:
            raise MatchError("the Holland rule applies after the Crawford game: it needs the Crawford rule")
        self._check_crawford_flags()

    def _check_crawford_flags(self) -> None:
        at_match_point = [score == self.length - 1 for score in self.scores]
        state = f"{self.scores!r} in a match to {self.length}"
        if self.crawford_game and self.post_crawford:
            raise MatchError(f"the Crawford game cannot be both now and over ({state})")
        if not self.crawford_rule or self.length == 1:
            # Without the rule, or in a 1-point match (both start at N-1), no Crawford game.
            if self.crawford_game or self.post_crawford:
                raise MatchError(f"no Crawford game in this match ({state})")
            return
        if self.crawford_game and (sum(at_match_point) != 1 or self.is_over):
            raise MatchError(f"the Crawford game needs exactly one side at {self.length - 1}: {state}")
        if self.post_crawford and max(self.scores) < self.length - 1:
            raise MatchError(f"the Crawford game cannot be over with nobody past {self.length - 2}: {state}")
        if any(at_match_point) and not self.is_over and not (self.crawford_game or self.post_crawford):
            raise MatchError(
                f"a side at {self.length - 1} means the Crawford game is now or over: "
                f"set crawford_game or post_crawford ({state})"
            )

    # --- the state ---

    @property
    def is_over(self) -> bool:
        """Whether a side has reached the length."""
        return self.length in self.scores

    @property
    def winner(self) -> int | None:
        """The side that won the match, or None while it goes on."""
        return self.scores.index(self.length) if self.is_over else None

    def away(self, side: int) -> int:
        """How many points ``side`` still needs.

        >>> Match(7, (2, 5)).away(0)
        5

        Raises:
            MatchError: ``side`` is not 0 or 1.
        """
        return self.length - self.scores[_side(side)]

    @property
    def trailer(self) -> int | None:
        """The side behind, or None when the scores are level."""
        first, second = self.scores
        return None if first == second else (0 if first < second else 1)

    @property
    def cube_settings(self) -> CubeSettings:
        """The optional cube rules in a match: none (no automatic doubles, beavers, Jacoby)."""
        return CubeSettings()

    # --- doubling ---

    def double_refusal(self, side: int, *, turn_number: int | None = None) -> str | None:
        """Why the match forbids ``side`` to double now, or None if it allows it.

        ``turn_number`` counts ``side``'s turns in this game from 1; only the Holland rule
        needs it. Doubling beyond what a side needs (a dead cube) is allowed.

        Raises:
            MatchError: ``side`` is not 0 or 1, a bad ``turn_number``, or the Holland rule
                applies and ``turn_number`` is None.
        """
        _side(side)
        if turn_number is not None and (type(turn_number) is not int or turn_number < 1):
            raise MatchError(f"a turn number is an int >= 1, not {turn_number!r}")
        if self.is_over:
            return f"the match is over ({self.scores[0]}-{self.scores[1]} to {self.length})"
        if self.crawford_game:
            return "nobody may double in the Crawford game"
        if self.holland_rule and self.post_crawford and self.trailer == side:
            if turn_number is None:
                raise MatchError(f"the Holland rule needs side {side}'s turn number in this game")
            if turn_number < 3:
                return f"after the Crawford game the trailer may not double before their third turn (Holland rule; this is turn {turn_number})"
        return None

    def can_double(self, side: int, *, turn_number: int | None = None) -> bool:
        """Whether the match allows ``side`` to double now (see :meth:`double_refusal`).

        Raises:
            MatchError: as :meth:`double_refusal`.
        """
        return self.double_refusal(side, turn_number=turn_number) is None

    # --- recording games ---

    def record_game(self, winner: int, points: int) -> Match:
        """The match after ``winner`` won a game worth ``points`` (capped at the length).

        The game after the one in which a side first reaches N-1 is the Crawford game; it is
        played once, and the games after it are post-Crawford.

        >>> Match(3).record_game(1, 8).scores
        (0, 3)

        Raises:
            MatchError: the match is over, ``winner`` is not 0 or 1, or ``points`` is not an
                int >= 1.
        """
        _side(winner, "the winner")
        if type(points) is not int or points < 1:
            raise MatchError(f"a game is worth an int >= 1 points, not {points!r}")
        if self.is_over:
            raise MatchError(
                f"the match to {self.length} is over ({self.scores[0]}-{self.scores[1]}): no more games"
            )
        scores = list(self.scores)
        scores[winner] = min(self.length, scores[winner] + points)
        # Once the Crawford game is played (or now being recorded), the match is post-Crawford
        # for good; otherwise the Crawford game follows the first game that leaves a side at N-1.
        post_crawford = self.crawford_game or self.post_crawford
        crawford_game = (
            not post_crawford and self.crawford_rule and self.length > 1 and scores[winner] == self.length - 1
        )
        return replace(
            self, scores=(scores[0], scores[1]), crawford_game=crawford_game, post_crawford=post_crawford
        )

    def record(self, result: CubeResult) -> Match:
        """The match after a game ended with ``result`` (from a drop or a finished board).

        >>> from chouette.engine.cube import Cube
        >>> Match(7).record(Cube().double(0).drop(1)).scores
        (1, 0)

        Raises:
            MatchError: as :meth:`record_game`.
        """
        return self.record_game(result.winner, result.points)


def effective_settings(settings: CubeSettings, match: Match | None) -> CubeSettings:
    """The cube rules that apply: the table's for money play, none in a match (docs/rules.md 1.8).

    >>> effective_settings(CubeSettings(beavers=True, jacoby=True), Match(5))
    CubeSettings(beavers=False, raccoons=False, jacoby=False, automatic_doubles=0)
    """
    return settings if match is None else match.cube_settings
