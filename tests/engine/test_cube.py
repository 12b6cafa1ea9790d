"""The money cube (docs/rules.md 1.7): every rule, every reachable value, every refusal with its reason."""

from __future__ import annotations

import doctest
import enum

import pytest

import chouette.engine.cube as cube_module
from chouette.engine.cube import Cube, CubeResult, CubeSettings, Offer
from chouette.engine.errors import CubeError, RulesError

# Every value a cube can reach by doubling, from 1 to 2**40 (well past 2**30): a published
# engine stored 32 as 64 because its tests stopped at 16.
VALUES = [2**n for n in range(41)]


def cube_at(value: int) -> Cube:
    """A cube at ``value`` reached by real actions, the sides doubling in turn from side 0."""
    cube, side = Cube(), 0
    while cube.value < value:
        cube = cube.double(side).take(1 - side)
        side = 1 - side
    return cube


def test_doctests():
    result = doctest.testmod(cube_module)
    assert result.attempted > 0, "no examples: this test would test nothing"
    assert result.failed == 0


def test_cube_starts_at_one_in_the_middle_untouched():
    assert Cube() == Cube(value=1, owner=None, offer=None, turned=False)


def test_either_side_may_double_a_centered_cube():
    assert Cube().can_double(0) and Cube().can_double(1)


# --- every value ---


@pytest.mark.parametrize("value", VALUES[:-1], ids=str)
def test_take_doubles_the_value_exactly_and_the_taker_owns(value):
    cube = Cube(value=value, owner=0 if value > 1 else None, turned=value > 1)
    taken = cube.double(0).take(1)
    assert taken.value == 2 * value
    assert taken.owner == 1
    assert taken.turned
    assert taken.offer is None


@pytest.mark.parametrize("value", VALUES[1:], ids=str)
def test_value_reached_by_a_chain_of_takes_is_exact(value):
    cube = cube_at(value)
    assert cube.value == value
    assert cube.owner == (1 if value.bit_length() % 2 == 0 else 0)


@pytest.mark.parametrize("value", VALUES[:-1], ids=str)
def test_drop_loses_value_before_double(value):
    cube = Cube(value=value, owner=1 if value > 1 else None, turned=value > 1)
    assert cube.double(1).drop(0) == CubeResult(winner=1, points=value, dropped=True)


@pytest.mark.parametrize("value", VALUES[:-3], ids=str)
def test_beaver_quadruples_and_raccoon_multiplies_by_eight(value):
    cube = Cube(value=value, owner=0 if value > 1 else None, turned=value > 1)
    beavered = cube.double(0).beaver(1)
    assert beavered.take(0).value == 4 * value
    assert beavered.raccoon(0).take(1).value == 8 * value


@pytest.mark.parametrize("value", VALUES, ids=str)
@pytest.mark.parametrize("multiplier", [1, 2, 3])
def test_points_are_value_times_kind(value, multiplier):
    cube = Cube(value=value, owner=0 if value > 1 else None, turned=value > 1)
    assert cube.points(multiplier) == value * multiplier
    assert sum(cube.settle(1, multiplier).by_side) == 0


@pytest.mark.parametrize("count", range(31))
def test_automatic_doubles_turn_the_cube_to_a_power_of_two_in_the_middle(count):
    cube = Cube.automatic(count)
    assert (cube.value, cube.owner, cube.turned) == (2**count, None, False)
    assert cube.double(0).take(1).value == 2 ** (count + 1)


# --- who may double ---


def test_cannot_double_twice_in_a_row():
    cube = Cube().double(0).take(1)
    with pytest.raises(CubeError, match="side 0 cannot double: the cube is owned by side 1"):
        cube.double(0)


def test_only_the_owner_may_redouble():
    cube = Cube().double(0).take(1)
    assert cube.can_double(1)
    assert not cube.can_double(0)
    assert cube.double(1).offer == Offer(side=1, value=4, kind="double")


def test_cannot_double_while_a_double_waits_for_an_answer():
    cube = Cube().double(0)
    for side in (0, 1):
        with pytest.raises(CubeError, match=f"side {side} cannot double: a double by side 0 to 2 is waiting"):
            cube.double(side)


def test_double_only_on_your_own_turn():
    with pytest.raises(CubeError, match="side 1 cannot double: it is side 0's turn"):
        Cube().double(1, on_roll=0)
    assert Cube().can_double(0, on_roll=0)


def test_double_only_before_rolling():
    with pytest.raises(CubeError, match="side 0 cannot double: the dice are already rolled"):
        Cube().double(0, on_roll=0, rolled=True)


def test_turns_not_tracked_allow_either_side():
    # A chouette scored from a paper sheet enters no turns: on_roll=None.
    assert Cube().double(1, on_roll=None).offer.side == 1


def test_closed_out_player_may_still_double():
    # A closed-out player does not roll (rolled stays False) but their turn still comes.
    cube = Cube().double(1).take(0)
    assert cube.double(0, on_roll=0, rolled=False).offer == Offer(0, 4)


def test_refusal_reason_is_none_when_allowed():
    assert Cube().double_refusal(0) is None
    assert "owned by side 0" in Cube(2, 0, turned=True).double_refusal(1)


# --- answers ---


def test_take_requires_a_pending_double():
    with pytest.raises(CubeError, match="side 1 cannot take: no double to take"):
        Cube().take(1)


def test_drop_requires_a_pending_double():
    with pytest.raises(CubeError, match="side 0 cannot drop: no double to drop"):
        Cube().drop(0)


def test_doubler_cannot_answer_their_own_double():
    cube = Cube().double(0)
    for action in ("take", "drop"):
        with pytest.raises(
            CubeError,
            match=f"side 0 cannot {action}: side 0 made a double by side 0 to 2; side 1 must answer",
        ):
            getattr(cube, action)(0)


def test_the_side_doubled_must_answer():
    assert Cube().to_answer is None
    assert Cube().double(1).to_answer == 0
    assert Cube().double(1).beaver(0).to_answer == 1
    assert Cube().double(1).beaver(0).raccoon(1).to_answer == 0


def test_answers_follow_the_table_settings():
    doubled = Cube().double(0)
    assert doubled.answers() == ("take", "drop")
    assert doubled.answers(beavers=True) == ("take", "drop", "beaver")
    assert doubled.beaver(1).answers(beavers=True) == ("take", "drop")
    assert doubled.beaver(1).raccoon(0).answers(beavers=True, raccoons=True) == ("take", "drop")
    assert Cube().answers(beavers=True) == ()


def test_drop_ends_the_game_with_the_doubler_winning():
    result = Cube().double(1).drop(0)
    assert (result.winner, result.loser, result.points, result.by_side) == (1, 0, 1, (-1, 1))


# --- beaver and raccoon ---


def test_beaver_keeps_the_cube_with_the_beaverer_and_asks_the_doubler():
    cube = Cube().double(0).beaver(1)
    assert cube == Cube(value=2, owner=1, offer=Offer(1, 4, "beaver"), turned=True)
    taken = cube.take(0)
    assert (taken.value, taken.owner, taken.offer) == (4, 1, None)


def test_beaver_requires_the_side_just_doubled():
    with pytest.raises(
        CubeError, match="side 0 cannot beaver: side 0 made a double by side 0 to 2; side 1 must answer"
    ):
        Cube().double(0).beaver(0)


def test_beaver_requires_a_pending_double():
    with pytest.raises(CubeError, match="side 1 cannot beaver: no double to beaver"):
        Cube().beaver(1)
    with pytest.raises(CubeError, match="no double to beaver"):
        Cube().double(0).take(1).beaver(1)


def test_beaver_is_refused_when_beavers_are_off():
    with pytest.raises(CubeError, match="side 1 cannot beaver: beavers are not allowed at this table"):
        Cube().double(0).beaver(1, allowed=False)


def test_beaver_cannot_answer_a_beaver():
    with pytest.raises(CubeError, match="only a double can be beavered, and this is a beaver by side 1 to 4"):
        Cube().double(0).beaver(1).beaver(0)


def test_dropping_a_beaver_loses_the_value_just_taken():
    assert Cube().double(0).beaver(1).drop(0) == CubeResult(winner=1, points=2, dropped=True)


def test_raccoon_keeps_the_cube_with_the_beaverer():
    cube = Cube().double(0).beaver(1).raccoon(0)
    assert cube == Cube(value=4, owner=1, offer=Offer(0, 8, "raccoon"), turned=True)
    taken = cube.take(1)
    assert (taken.value, taken.owner, taken.offer) == (8, 1, None)
    assert taken.can_double(1) and not taken.can_double(0)


def test_dropping_a_raccoon_loses_the_beavered_value():
    assert Cube().double(0).beaver(1).raccoon(0).drop(1) == CubeResult(winner=0, points=4, dropped=True)


def test_raccoon_requires_the_original_doubler():
    with pytest.raises(
        CubeError, match="side 1 cannot raccoon: side 1 made a beaver by side 1 to 4; side 0 must answer"
    ):
        Cube().double(0).beaver(1).raccoon(1)


def test_raccoon_requires_a_beaver_just_made():
    with pytest.raises(
        CubeError,
        match="side 1 cannot raccoon: a raccoon answers a beaver, and this is a double by side 0 to 2",
    ):
        Cube().double(0).raccoon(1)
    with pytest.raises(CubeError, match="side 0 cannot raccoon: no beaver to raccoon"):
        Cube().double(0).beaver(1).take(0).raccoon(0)


def test_raccoon_is_refused_when_raccoons_are_off():
    with pytest.raises(CubeError, match="raccoons are not allowed at this table"):
        Cube().double(0).beaver(1).raccoon(0, allowed=False)


def test_no_otter_after_a_raccoon():
    cube = Cube().double(0).beaver(1).raccoon(0)
    with pytest.raises(CubeError, match="only a double can be beavered"):
        cube.beaver(1)
    with pytest.raises(CubeError, match="side 0 cannot raccoon: side 0 made a raccoon"):
        cube.raccoon(0)


def test_after_beaver_normal_play_resumes_with_the_owner():
    cube = Cube().double(0).beaver(1).take(0)
    with pytest.raises(CubeError, match="side 0 cannot double: the cube is owned by side 1"):
        cube.double(0)
    assert cube.double(1).take(0) == Cube(value=8, owner=0, turned=True)


def test_settings_raccoons_need_beavers():
    with pytest.raises(CubeError, match="raccoons need beavers"):
        CubeSettings(raccoons=True)
    assert CubeSettings(beavers=True, raccoons=True).raccoons


# --- settlement and the Jacoby rule ---


def test_jacoby_gammon_counts_single_when_cube_never_turned():
    assert Cube().points(2, jacoby=True) == 1
    assert Cube().points(3, jacoby=True) == 1
    assert Cube().points(2, jacoby=False) == 2


def test_jacoby_automatic_doubles_do_not_count_as_a_turn():
    assert Cube.automatic(2).points(3, jacoby=True) == 4


def test_jacoby_gammon_counts_when_a_double_was_taken():
    assert Cube().double(0).take(1).points(2, jacoby=True) == 4
    assert Cube().double(0).beaver(1).take(0).points(3, jacoby=True) == 12


def test_game_cannot_end_with_an_unanswered_double():
    with pytest.raises(CubeError, match="waiting for an answer"):
        Cube().double(0).points(1)


@pytest.mark.parametrize("multiplier", [0, 4, -1, True, 1.0, "1"])
def test_kind_multiplier_must_be_one_two_or_three(multiplier):
    with pytest.raises(CubeError, match="the kind multiplier must be 1, 2 or 3"):
        Cube().points(multiplier)


def test_kind_multiplier_may_be_an_int_enum():
    class Kind(enum.IntEnum):  # like the engine's WinKind, whose value is the multiplier
        SINGLE = 1
        GAMMON = 2
        BACKGAMMON = 3

    assert Cube(2, 1, turned=True).points(Kind.BACKGAMMON) == 6
    assert Cube(2, 1, turned=True).settle(0, Kind.GAMMON).points == 4


def test_settle_names_winner_and_sums_to_zero():
    result = Cube(4, 0, turned=True).settle(0, 3)
    assert result == CubeResult(winner=0, points=12)
    assert result.by_side == (12, -12)


# --- validation ---


@pytest.mark.parametrize("side", [2, -1, None, "0", True, 0.0])
def test_sides_are_zero_or_one(side):
    with pytest.raises(CubeError, match="side must be 0 or 1"):
        Cube().double(side)
    with pytest.raises(CubeError, match="side must be 0 or 1"):
        Cube().double(0).take(side)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"value": 3}, "power of two"),
        ({"value": 0}, "power of two"),
        ({"value": 2.0}, "power of two"),
        ({"owner": 2, "turned": True}, "the cube owner must be 0 or 1"),
        ({"value": 2, "owner": 0}, "never turned"),
        ({"offer": Offer(0, 4)}, "an offer doubles the value: 1 to 2, not 4"),
        ({"value": 2, "owner": 1, "turned": True, "offer": Offer(0, 4)}, "side 0 cannot have doubled"),
        (
            {"value": 2, "owner": 0, "turned": True, "offer": Offer(1, 4, "beaver")},
            "needs the cube owned by the beaverer",
        ),
        ({"offer": "double"}, "must be an Offer"),
    ],
)
def test_impossible_cube_states_are_refused(kwargs, message):
    with pytest.raises(CubeError, match=message):
        Cube(**kwargs)


def test_offers_are_validated():
    with pytest.raises(CubeError, match="power of two >= 2"):
        Offer(0, 1)
    with pytest.raises(CubeError, match="double, a beaver or a raccoon"):
        Offer(0, 2, "otter")  # type: ignore[arg-type]


def test_automatic_count_must_be_a_natural_number():
    with pytest.raises(CubeError, match="int >= 0"):
        Cube.automatic(-1)


def test_cube_errors_are_rules_errors_and_value_errors():
    with pytest.raises(RulesError, match="side 0 cannot take: no double to take"):
        Cube().take(0)
    with pytest.raises(ValueError, match="side 0 cannot take: no double to take"):
        Cube().take(0)


def test_repr_evaluates_back():
    for cube in (Cube(), Cube().double(0).beaver(1).raccoon(0), Cube.automatic(30)):
        assert eval(repr(cube)) == cube
    result = Cube().double(0).drop(1)
    assert eval(repr(result)) == result


def test_cube_is_immutable_and_hashable():
    cube = Cube()
    with pytest.raises(AttributeError, match="cannot assign"):
        cube.value = 2  # type: ignore[misc]
    assert len({Cube(), Cube(), Cube.automatic(1)}) == 2
