"""End of game (docs/rules.md 1.6): single, gammon, backgammon; the value is the multiplier."""

from __future__ import annotations

import pytest

from chouette.engine import Outcome, Position, Side, WinKind, outcome


def test_game_in_progress_has_no_outcome():
    assert outcome(Position.initial()) is None


@pytest.mark.parametrize(
    ("loser", "kind"),
    [
        ({1: 14}, WinKind.SINGLE),
        ({6: 10, 1: 5}, WinKind.GAMMON),
        ({13: 15}, WinKind.GAMMON),
        ({19: 1, 6: 14}, WinKind.BACKGAMMON),
        ({25: 1, 6: 14}, WinKind.BACKGAMMON),
        ({24: 1, 1: 13}, WinKind.SINGLE),
    ],
)
def test_win_kind_from_the_losers_checkers(loser, kind):
    result = outcome(Position.from_points({}, loser))
    assert result == Outcome(Side.ON_ROLL, kind)
    assert result.on_roll_won and result.points == int(kind)


def test_winner_can_be_the_opponent_of_the_player_on_roll():
    result = outcome(Position.from_points({6: 15}, {}))
    assert result == Outcome(Side.OPPONENT, WinKind.GAMMON) and not result.on_roll_won


def test_multiplier_values():
    assert [k.value for k in WinKind] == [1, 2, 3]


def test_outcome_repr_evaluates_back():
    result = outcome(Position.from_points({6: 1}, {}))
    assert repr(result) == "Outcome(Side.OPPONENT, WinKind.SINGLE)"
    assert eval(repr(result)) == result
