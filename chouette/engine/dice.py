"""Dice sources, rolls and the opening roll with automatic doubles (docs/rules.md 1.2).

Randomness is passed in: a dice source is any callable returning a die from 1 to 6.
:class:`SecretsDice` is the club's real source (the ``secrets`` module, no global ``random``);
:class:`FixedDice` replays recorded or scripted dice.

>>> opening_roll(FixedDice([3, 3, 2, 2, 6, 1]), automatic_doubles_cap=1)
OpeningRoll(dice=(6, 1), automatic_doubles=1, ties=((3, 3), (2, 2)))
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from chouette.engine.cube import Cube
from chouette.engine.errors import DiceError

DiceSource = Callable[[], int]


def check_die(value: object) -> int:
    """Return ``value`` if it is a die: an int from 1 to 6.

    >>> check_die(6)
    6

    Raises:
        DiceError: ``value`` is not an int from 1 to 6.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise DiceError(f"a die is an int from 1 to 6, not {value!r}")
    return value


def check_roll(dice: object) -> tuple[int, int]:
    """Return ``dice`` as a tuple if it is a roll: two dice from 1 to 6.

    >>> check_roll([6, 5])
    (6, 5)

    Raises:
        DiceError: not exactly two dice, or a die out of range.
    """
    if not isinstance(dice, (tuple, list)) or len(dice) != 2:
        raise DiceError(f"a roll is two dice, not {dice!r}")
    try:
        return (check_die(dice[0]), check_die(dice[1]))
    except DiceError as error:
        raise DiceError(f"impossible roll {dice!r}: {error}") from None


class SecretsDice:
    """A dice source drawing from the operating system's cryptographically secure generator."""

    def __call__(self) -> int:
        """Return one die from 1 to 6."""
        return secrets.randbelow(6) + 1

    def __repr__(self) -> str:
        return "SecretsDice()"


class FixedDice:
    """A dice source returning given dice in order, for tests and for replaying physical dice.

    >>> dice = FixedDice([6, 5])
    >>> dice(), dice
    (6, FixedDice([5]))

    Raises:
        DiceError: a given die is out of range (at construction), or the dice are exhausted.
    """

    def __init__(self, dice: Iterable[int]) -> None:
        self._dice = [check_die(value) for value in dice]
        self._used = 0

    def __call__(self) -> int:
        """Return the next die.

        Raises:
            DiceError: every given die has been used.
        """
        if self._used == len(self._dice):
            raise DiceError(f"FixedDice exhausted: all {len(self._dice)} dice were used")
        self._used += 1
        return self._dice[self._used - 1]

    @property
    def remaining(self) -> tuple[int, ...]:
        """The dice not used yet."""
        return tuple(self._dice[self._used :])

    def __repr__(self) -> str:
        return f"FixedDice({list(self.remaining)!r})"


def roll(dice: DiceSource) -> tuple[int, int]:
    """Roll two dice from ``dice``.

    >>> roll(FixedDice([4, 2]))
    (4, 2)

    Raises:
        DiceError: the source gives something other than a die from 1 to 6, or is exhausted.
    """
    return (check_die(dice()), check_die(dice()))


@dataclass(frozen=True)
class OpeningRoll:
    """The opening roll: the deciding ``dice`` (side 0's die, side 1's die), the automatic
    doubles it turned, and the tied rolls before it. The higher die moves first with both dice.

    Raises:
        DiceError: the deciding dice are a tie, a tie is not a pair of equal dice, or more
            automatic doubles than ties.
    """

    dice: tuple[int, int]
    automatic_doubles: int = 0
    ties: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        first, second = check_roll(self.dice)
        if first == second:
            raise DiceError(f"the opening roll {self.dice!r} is a tie: both roll again")
        for tie in self.ties:
            if check_roll(tie)[0] != tie[1]:
                raise DiceError(f"{tie!r} is not a tie")
        count = self.automatic_doubles
        if type(count) is not int or not 0 <= count <= len(self.ties):
            raise DiceError(f"{count!r} automatic doubles after {len(self.ties)} ties")

    @property
    def winner(self) -> int:
        """The side that moves first: the one with the higher die."""
        return 0 if self.dice[0] > self.dice[1] else 1

    @property
    def cube(self) -> Cube:
        """The cube the game starts with: turned once per automatic double, in the middle."""
        return Cube.automatic(self.automatic_doubles)


def _check_cap(cap: object) -> None:
    if type(cap) is not int or cap < 0:
        raise DiceError(f"the automatic doubles cap must be an int >= 0, not {cap!r}")


def opening_from_rolls(rolls: Sequence[Sequence[int]], *, automatic_doubles_cap: int = 0) -> OpeningRoll:
    """The opening roll from recorded rolls (side 0's die, side 1's die): ties, then the
    deciding roll. Each tie turns the cube while fewer than ``automatic_doubles_cap`` have.

    >>> opening_from_rolls([(4, 4), (2, 5)], automatic_doubles_cap=3).cube.value
    2

    Raises:
        DiceError: no rolls, a die out of range, a tie last, a non-tie before the last, or a
            negative cap.
    """
    _check_cap(automatic_doubles_cap)
    checked = [check_roll(pair) for pair in rolls]
    if not checked:
        raise DiceError("an opening roll needs at least one roll")
    *ties, last = checked
    for pair in ties:
        if pair[0] != pair[1]:
            raise DiceError(f"the roll {pair!r} decided the opening: no roll may follow it")
    return OpeningRoll(last, min(len(ties), automatic_doubles_cap), tuple(ties))


def opening_roll(dice: DiceSource, *, automatic_doubles_cap: int = 0) -> OpeningRoll:
    """Each side rolls one die (side 0 first) until they differ (docs/rules.md 1.2).

    >>> opening_roll(FixedDice([2, 5])).winner
    1

    Raises:
        DiceError: the source gives a bad die or runs out, or the cap is negative.
    """
    _check_cap(automatic_doubles_cap)
    rolls = [roll(dice)]
    while rolls[-1][0] == rolls[-1][1]:
        rolls.append(roll(dice))
    return opening_from_rolls(rolls, automatic_doubles_cap=automatic_doubles_cap)
