"""Match play (docs/rules.md 1.8): scores capped at N, the Crawford game exactly once, the Holland rule."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chouette.engine.match as match_module
from chouette.engine.cube import Cube, CubeSettings
from chouette.engine.errors import CubeError, MatchError
from chouette.engine.match import Match, effective_settings


def test_doctests():
    result = doctest.testmod(match_module)
    assert result.attempted > 0, "no examples: this test would test nothing"
    assert result.failed == 0


def play(match: Match, *games: tuple[int, int]) -> Match:
    for winner, points in games:
        match = match.record_game(winner, points)
    return match


# --- scores ---


def test_game_scores_cube_times_kind():
    result = Cube().double(0).take(1).settle(1, 2)
    assert Match(7).record(result).scores == (0, 4)


def test_points_beyond_the_length_give_no_bonus():
    match = Match(3).record_game(1, 8)
    assert match.scores == (0, 3)
    assert match.is_over and match.winner == 1


def test_match_is_over_at_the_length():
    match = play(Match(5), (0, 2), (1, 1), (0, 3))
    assert match.scores == (5, 1)
    assert (match.is_over, match.winner, match.away(0), match.away(1)) == (True, 0, 0, 4)


def test_recording_after_the_end_raises():
    with pytest.raises(MatchError, match="the match to 3 is over \\(3-0\\): no more games"):
        Match(3).record_game(0, 3).record_game(1, 1)


@pytest.mark.parametrize("points", [0, -1, 1.0, True, None])
def test_a_game_is_worth_at_least_one_point(points):
    with pytest.raises(MatchError, match=f"a game is worth an int >= 1 points, not {points!r}"):
        Match(5).record_game(0, points)


@pytest.mark.parametrize("winner", [2, -1, None])
def test_the_winner_is_side_zero_or_one(winner):
    with pytest.raises(MatchError, match="the winner must be 0 or 1"):
        Match(5).record_game(winner, 1)


@pytest.mark.parametrize("length", [1, 2, 3, 5, 7, 11, 13, 25, 99])
def test_any_length_from_one_is_accepted(length):
    assert Match(length).away(0) == length


# --- the Crawford rule ---


def test_crawford_game_follows_first_reaching_n_minus_1():
    match = Match(5).record_game(0, 4)
    assert match.crawford_game and not match.post_crawford
    assert not match.can_double(0) and not match.can_double(1)
    assert match.double_refusal(1) == "nobody may double in the Crawford game"


def test_cube_refuses_a_double_in_the_crawford_game():
    match = Match(7).record_game(1, 6)
    with pytest.raises(CubeError, match="side 0 cannot double: nobody may double in the Crawford game"):
        Cube().double(0, match=match)
    assert not Cube().can_double(1, match=match)


def test_crawford_game_only_once():
    match = play(Match(5), (0, 4), (1, 1))  # the Crawford game, won by the trailer
    assert match.post_crawford and not match.crawford_game
    assert match.can_double(1)
    match = match.record_game(1, 3)  # the trailer reaches N-1 too: no second Crawford game
    assert match.scores == (4, 4)
    assert match.post_crawford and not match.crawford_game
    assert match.can_double(0) and match.can_double(1)


def test_trailer_reaching_n_minus_1_in_the_crawford_game_makes_no_second_one():
    match = play(Match(5), (0, 2), (1, 4), (0, 2))  # side 1 first at 4; the Crawford game: 4-4
    assert match.scores == (4, 4)
    assert match.post_crawford and not match.crawford_game


def test_double_allowed_after_the_crawford_game():
    match = play(Match(3), (0, 2), (1, 1))
    assert Cube().double(1, match=match).offer.value == 2


def test_jumping_past_n_minus_1_makes_no_crawford_game():
    match = Match(5).record_game(0, 3).record_game(1, 1)
    assert not match.crawford_game and not match.post_crawford
    assert Match(5).record_game(0, 6).is_over


def test_reaching_n_minus_1_later_in_the_match_starts_the_crawford_game():
    match = play(Match(9), (0, 2), (1, 4), (0, 3), (1, 2), (0, 3))
    assert match.scores == (8, 6)
    assert match.crawford_game


def test_winning_the_crawford_game_ends_the_match():
    match = play(Match(5), (0, 4), (0, 1))
    assert match.is_over and match.winner == 0 and not match.crawford_game


def test_no_crawford_game_without_the_rule():
    match = Match(5, crawford_rule=False).record_game(0, 4)
    assert not match.crawford_game and match.can_double(1)


def test_one_point_match_has_no_crawford_game():
    match = Match(1)
    assert not match.crawford_game and match.can_double(0)


def test_dead_cube_doubles_are_legal():
    match = play(Match(3), (0, 1))
    cube = Cube(value=4, owner=1, turned=True)
    assert cube.double(1, match=match).offer.value == 8


# --- the Holland rule ---


def test_holland_trailer_cannot_double_before_their_third_turn():
    match = play(Match(5, holland_rule=True), (0, 4), (1, 1))
    assert match.trailer == 1
    assert not match.can_double(1, turn_number=1)
    assert not match.can_double(1, turn_number=2)
    assert match.can_double(1, turn_number=3)
    with pytest.raises(CubeError, match="before their third turn \\(Holland rule; this is turn 2\\)"):
        Cube().double(1, match=match, turn_number=2)


def test_holland_does_not_restrict_the_leader_or_level_scores():
    match = play(Match(5, holland_rule=True), (0, 4), (1, 1))
    assert match.can_double(0, turn_number=1)
    assert play(match, (1, 3)).can_double(1, turn_number=1)  # 4-4: nobody trails


def test_holland_does_not_apply_before_the_crawford_game():
    assert Match(5, holland_rule=True).can_double(1, turn_number=1)


def test_holland_needs_the_turn_number():
    match = play(Match(5, holland_rule=True), (0, 4), (1, 1))
    with pytest.raises(MatchError, match="the Holland rule needs side 1's turn number"):
        match.can_double(1)


@pytest.mark.parametrize("turn", [0, -2, 1.5])
def test_turn_number_counts_from_one(turn):
    with pytest.raises(MatchError, match="a turn number is an int >= 1"):
        Match(5).can_double(0, turn_number=turn)


def test_holland_needs_crawford():
    with pytest.raises(MatchError, match="needs the Crawford rule"):
        Match(5, crawford_rule=False, holland_rule=True)


# --- no automatic doubles, beavers or Jacoby in matches ---


def test_matches_play_without_beavers_raccoons_jacoby_or_automatic_doubles():
    table = CubeSettings(beavers=True, raccoons=True, jacoby=True, automatic_doubles=3)
    assert effective_settings(table, Match(7)) == CubeSettings()
    assert effective_settings(table, None) == table


def test_cube_refuses_beaver_and_raccoon_in_a_match():
    with pytest.raises(CubeError, match="side 1 cannot beaver: beavers are not played in matches"):
        Cube().double(0).beaver(1, match=Match(7))
    with pytest.raises(CubeError, match="side 0 cannot raccoon: raccoons are not played in matches"):
        Cube().double(0).beaver(1).raccoon(0, match=Match(7))


def test_no_double_once_the_match_is_over():
    assert Match(3, (3, 1)).double_refusal(1) == "the match is over (3-1 to 3)"


# --- impossible states ---


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"length": 0}, "a match is to an int >= 1 points, not 0"),
        ({"length": 5.0}, "not 5.0"),
        ({"length": 5, "scores": (6, 0)}, "are not two ints from 0 to 5"),
        ({"length": 5, "scores": (-1, 0)}, "are not two ints from 0 to 5"),
        ({"length": 5, "scores": [1, 0]}, "are not two ints"),
        ({"length": 5, "scores": (5, 5)}, "both sides cannot have won"),
        ({"length": 5, "scores": (4, 0)}, "set crawford_game or post_crawford"),
        ({"length": 5, "scores": (3, 0), "crawford_game": True}, "needs exactly one side at 4"),
        ({"length": 5, "scores": (4, 4), "crawford_game": True}, "needs exactly one side at 4"),
        ({"length": 5, "scores": (2, 1), "post_crawford": True}, "nobody past 3"),
        ({"length": 5, "scores": (4, 1), "crawford_game": True, "post_crawford": True}, "both now and over"),
        ({"length": 5, "scores": (4, 0), "crawford_rule": False, "crawford_game": True}, "no Crawford game"),
        ({"length": 1, "crawford_game": True}, "no Crawford game"),
    ],
)
def test_impossible_match_states_are_refused(kwargs, message):
    with pytest.raises(MatchError, match=message):
        Match(**kwargs)


def test_match_repr_evaluates_back_and_is_immutable():
    match = play(Match(11, holland_rule=True), (0, 10), (1, 2))
    assert eval(repr(match)) == match
    with pytest.raises(AttributeError, match="cannot assign"):
        match.length = 3  # type: ignore[misc]


# --- a whole match, at random ---


@given(
    length=st.integers(min_value=1, max_value=25),
    crawford_rule=st.booleans(),
    games=st.lists(st.tuples(st.sampled_from((0, 1)), st.sampled_from((1, 2, 3, 4, 6, 8, 16))), max_size=60),
)
def test_random_matches_keep_the_crawford_game_exactly_once(length, crawford_rule, games):
    match = Match(length, crawford_rule=crawford_rule)
    crawford_games = 0
    reached_match_point_first = None  # index of the game after which a side first had N-1
    for index, (winner, points) in enumerate(games):
        if match.is_over:
            with pytest.raises(MatchError, match="is over"):
                match.record_game(winner, points)
            break
        before = match
        crawford_games += match.crawford_game
        match = match.record_game(winner, points)
        assert match.scores[winner] == min(length, before.scores[winner] + points)
        assert match.scores[1 - winner] == before.scores[1 - winner]
        if reached_match_point_first is None and length - 1 in match.scores and length > 1:
            reached_match_point_first = index
            expected = crawford_rule and not match.is_over
            assert match.crawford_game == expected
        elif match.crawford_game:
            raise AssertionError(f"a second Crawford game after game {index}: {match!r}")
    assert crawford_games <= 1
