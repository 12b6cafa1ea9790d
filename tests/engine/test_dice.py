"""Dice sources, rolls, and the opening roll with automatic doubles (docs/rules.md 1.2)."""

from __future__ import annotations

import doctest
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chouette.engine.dice as dice_module
from chouette.engine.cube import Cube
from chouette.engine.dice import (
    FixedDice,
    OpeningRoll,
    SecretsDice,
    check_die,
    check_roll,
    opening_from_rolls,
    opening_roll,
    roll,
)
from chouette.engine.errors import DiceError

die = st.integers(min_value=1, max_value=6)


def test_doctests():
    result = doctest.testmod(dice_module)
    assert result.attempted > 0, "no examples: this test would test nothing"
    assert result.failed == 0


# --- dice sources ---


def test_secrets_dice_give_every_face_and_nothing_else():
    faces = Counter(SecretsDice()() for _ in range(3000))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert repr(SecretsDice()) == "SecretsDice()"


def test_fixed_dice_give_their_dice_in_order():
    dice = FixedDice([6, 1, 3])
    assert [dice(), dice(), dice()] == [6, 1, 3]


def test_fixed_dice_raise_when_exhausted():
    dice = FixedDice([4])
    dice()
    with pytest.raises(DiceError, match="FixedDice exhausted: all 1 dice were used"):
        dice()


@pytest.mark.parametrize("bad", [0, 7, -1, 3.0, "3", True, None])
def test_fixed_dice_refuse_a_die_out_of_range(bad):
    with pytest.raises(DiceError, match=f"a die is an int from 1 to 6, not {bad!r}"):
        FixedDice([1, bad])


def test_fixed_dice_repr_shows_what_remains_and_evaluates_back():
    dice = FixedDice([2, 5, 6])
    dice()
    assert repr(dice) == "FixedDice([5, 6])"
    assert eval(repr(dice)).remaining == (5, 6)


# --- rolls ---


@given(die, die)
def test_roll_takes_two_dice_from_the_source(first, second):
    assert roll(FixedDice([first, second])) == (first, second)


@pytest.mark.parametrize("bad", [0, 7, 2.5, None])
def test_roll_refuses_a_source_giving_a_bad_die(bad):
    with pytest.raises(DiceError, match="a die is an int from 1 to 6"):
        roll(lambda: bad)


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ((6,), "a roll is two dice, not \\(6,\\)"),
        ((1, 2, 3), "a roll is two dice"),
        ("65", "a roll is two dice, not '65'"),
        ((0, 3), "impossible roll \\(0, 3\\): a die is an int from 1 to 6, not 0"),
        ([6, 7], "impossible roll \\[6, 7\\]"),
    ],
)
def test_check_roll_refuses_impossible_rolls(dice, message):
    with pytest.raises(DiceError, match=message):
        check_roll(dice)


def test_check_die_accepts_every_face():
    assert [check_die(face) for face in range(1, 7)] == [1, 2, 3, 4, 5, 6]


# --- the opening roll ---


def test_higher_die_moves_first_with_both_dice():
    opening = opening_roll(FixedDice([3, 5]))
    assert opening == OpeningRoll(dice=(3, 5), automatic_doubles=0, ties=())
    assert opening.winner == 1


def test_ties_roll_again():
    opening = opening_roll(FixedDice([4, 4, 1, 1, 6, 2]))
    assert opening.dice == (6, 2)
    assert opening.winner == 0
    assert opening.ties == ((4, 4), (1, 1))
    assert opening.automatic_doubles == 0
    assert opening.cube == Cube()


def test_automatic_doubles_turn_the_cube_per_tie_up_to_the_cap():
    rolls = [5, 5, 2, 2, 3, 3, 1, 4]
    assert opening_roll(FixedDice(rolls), automatic_doubles_cap=1).cube == Cube.automatic(1)
    assert opening_roll(FixedDice(rolls), automatic_doubles_cap=2).cube == Cube(value=4)
    assert opening_roll(FixedDice(rolls), automatic_doubles_cap=3).automatic_doubles == 3
    assert opening_roll(FixedDice(rolls), automatic_doubles_cap=9).automatic_doubles == 3


def test_automatic_doubles_leave_the_cube_centered_and_unturned():
    cube = opening_roll(FixedDice([6, 6, 2, 1]), automatic_doubles_cap=5).cube
    assert (cube.value, cube.owner, cube.turned) == (2, None, False)


def test_ties_beyond_the_cap_just_roll_again():
    opening = opening_roll(FixedDice([1, 1, 2, 2, 3, 3, 4, 4, 5, 6]), automatic_doubles_cap=2)
    assert opening.automatic_doubles == 2
    assert len(opening.ties) == 4


def test_opening_roll_raises_when_the_dice_run_out_on_a_tie():
    with pytest.raises(DiceError, match="exhausted"):
        opening_roll(FixedDice([3, 3]))


def test_negative_cap_is_refused_before_rolling():
    dice = FixedDice([1, 2])
    with pytest.raises(DiceError, match="cap must be an int >= 0, not -1"):
        opening_roll(dice, automatic_doubles_cap=-1)
    assert dice.remaining == (1, 2)


@given(st.lists(st.tuples(die, die), min_size=1, max_size=30), st.integers(min_value=0, max_value=10))
def test_opening_roll_property(pairs, cap):
    flat = [face for pair in pairs for face in pair] + [1, 2]
    opening = opening_roll(FixedDice(flat), automatic_doubles_cap=cap)
    ties_before = 0
    for first, second in pairs:
        if first != second:
            assert opening.dice == (first, second)
            break
        ties_before += 1
    else:
        assert opening.dice == (1, 2)
    assert len(opening.ties) == ties_before
    assert opening.automatic_doubles == min(ties_before, cap)
    assert opening.cube.value == 2**opening.automatic_doubles
    assert opening.winner == (0 if opening.dice[0] > opening.dice[1] else 1)
    assert eval(repr(opening)) == opening


def test_opening_from_recorded_rolls():
    assert opening_from_rolls([[2, 2], [6, 3]], automatic_doubles_cap=1) == OpeningRoll((6, 3), 1, ((2, 2),))


@pytest.mark.parametrize(
    ("rolls", "message"),
    [
        ([], "needs at least one roll"),
        ([(3, 3)], "the opening roll \\(3, 3\\) is a tie: both roll again"),
        ([(3, 1), (2, 5)], "the roll \\(3, 1\\) decided the opening: no roll may follow it"),
        ([(3, 9)], "impossible roll"),
    ],
)
def test_opening_from_rolls_refuses_impossible_sequences(rolls, message):
    with pytest.raises(DiceError, match=message):
        opening_from_rolls(rolls)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dice": (4, 4)}, "is a tie"),
        ({"dice": (4, 2), "ties": ((1, 2),)}, "is not a tie"),
        ({"dice": (4, 2), "automatic_doubles": 1}, "1 automatic doubles after 0 ties"),
        ({"dice": (4, 8)}, "impossible roll"),
    ],
)
def test_impossible_opening_rolls_are_refused(kwargs, message):
    with pytest.raises(DiceError, match=message):
        OpeningRoll(**kwargs)
