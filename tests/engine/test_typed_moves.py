"""match_move: what a person typed, resolved against the legal plays, refused with the reason."""

from __future__ import annotations

import pytest

from chouette.engine import (
    IllegalMoveError,
    Move,
    NotationError,
    Position,
    apply_move,
    legal_moves,
    match_move,
)

START = Position.initial()


@pytest.mark.parametrize(
    ("roll", "typed", "legal"),
    [
        ((6, 5), "24/18/13", "24/13"),
        ((6, 5), "24/13", "24/13"),
        ((6, 5), "24/19/13", "24/13"),
        ((3, 1), "6/5 8/5", "8/5 6/5"),
        ((3, 1), "8-5, 6-5", "8/5 6/5"),
        ((1, 1), "8/7(2) 6/5(2)", "8/7(2) 6/5(2)"),
        ((6, 6), "24/18 24/18 13/7 13/7", "24/18(2) 13/7(2)"),
    ],
)
def test_typed_move_resolves_to_the_legal_play(roll, typed, legal):
    move = match_move(START, roll, typed)
    assert str(move) == legal
    assert move in legal_moves(START, roll)


def test_typed_move_through_a_blot_prefers_the_written_hits():
    # A blot on the mover's 18: 24/13 can pass through it or through the 19.
    position = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {7: 1, 5: 4, 8: 3, 13: 5, 24: 2})
    assert str(match_move(position, (6, 5), "24/13")) == "24/13"
    assert str(match_move(position, (6, 5), "24/18*/13")) == "24/18*/13"
    hit = apply_move(position, match_move(position, (6, 5), "24/18*/13"))
    assert hit.bar() == 0 and hit.opponent[25] == 1


def test_unreadable_typed_move_raises_notation_error():
    with pytest.raises(NotationError, match="24/x"):
        match_move(START, (6, 5), "24/x")


def _refusal(position: Position, roll: tuple[int, int], typed: str) -> str:
    with pytest.raises(IllegalMoveError, match=r"^illegal move ") as error:
        match_move(position, roll, typed)
    message = str(error.value)
    assert repr(typed) in message and f"{max(roll)}-{min(roll)}" in message and position.id in message
    return message


def test_refusal_names_a_blocked_point():
    assert "point 19 is blocked" in _refusal(START, (5, 2), "24/19 13/11")


def test_refusal_says_bar_checkers_enter_first():
    position = Position.from_id("hucHASRSc/CAUA")
    assert "on the bar must enter" in _refusal(position, (5, 1), "13/8 6/5")


def test_refusal_says_both_dice_must_be_used():
    assert "both dice" in _refusal(START, (6, 5), "13/7")


def test_refusal_says_the_larger_die_must_be_played():
    assert "larger (5)" in _refusal(Position.from_id("C0iEMj7++wAEAA"), (5, 4), "13/9")


def test_refusal_says_cannot_bear_off_yet():
    assert "cannot bear off yet" in _refusal(START, (6, 5), "6/off 8/3")


def test_refusal_of_a_pass_when_a_play_exists():
    assert "passing is not allowed" in _refusal(START, (6, 5), "")


def test_refusal_when_the_roll_has_no_play():
    message = _refusal(Position.from_id("hucHASRSc/CAUA"), (6, 6), "bar/19")
    assert "no legal play" in message


def test_refusal_names_a_missing_checker():
    assert "no checker of yours on point 20" in _refusal(START, (4, 2), "20/16 20/18")


def test_refusal_of_a_wrong_distance():
    assert "4 pips" in _refusal(START, (6, 5), "24/20 13/8")


def test_refusal_says_a_larger_die_bears_off_only_from_the_highest_point():
    # Figure 10: 6-4 with checkers on the 5s and the 3; the 4 cannot bear off the 3.
    position = Position.from_points({5: 2, 3: 1}, {24: 2, 13: 13})
    message = _refusal(position, (6, 4), "5/off 3/off")
    assert "cannot bear off from 3 with a larger die while checkers are on the 5" in message


def test_match_move_accepts_a_move_object():
    assert str(match_move(START, (3, 1), Move.parse("8/5 6/5"))) == "8/5 6/5"


def test_empty_move_is_the_legal_one_when_nothing_can_be_played():
    position = Position.from_id("hucHASRSc/CAUA")
    assert match_move(position, (6, 6), "") == Move(())


def test_refusal_of_more_pips_than_the_roll():
    assert "covers 17 pips but 6-5 gives 11" in _refusal(START, (6, 5), "24/18 24/13")


def test_refusal_of_bearing_off_from_the_six_when_both_dice_can_play():
    # Figure 11: 6/off would leave the 4 unplayed; the only play is 6/2 5/off.
    position = Position.from_points({6: 1, 5: 2}, {24: 2, 13: 13})
    assert "must use both dice when a legal play does (legal: 6/2 5/off)" in _refusal(position, (6, 4), "6/off")
