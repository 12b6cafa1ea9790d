"""Legal plays (docs/rules.md 1.3-1.5): reference counts with a divide, frozen cases, the FAQ figures."""

from __future__ import annotations

import json
import pathlib

import pytest

from chouette.engine import DiceError, Position, apply_move, legal_moves

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "perft.json").read_text())
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def _key(roll: tuple[int, int]) -> str:
    return f"{max(roll)}{min(roll)}"


def _divide(expected: dict[str, int], got: dict[str, int]) -> str:
    lines = [f"{roll}: expected {expected[roll]}, got {got.get(roll)}" for roll in expected]
    bad = [line for line, roll in zip(lines, expected, strict=False) if expected[roll] != got.get(roll)]
    return "divide (roll: expected vs got)\n" + "\n".join(lines) + "\nwrong: " + ", ".join(bad)


def _plays(position: Position, roll: tuple[int, int]) -> list[str]:
    return sorted(str(move) for move in legal_moves(position, roll))


@pytest.mark.parametrize("case", DATA["positions"], ids=lambda c: c["id"])
def test_distinct_plays_per_roll_match_reference(case):
    position = Position.from_id(case["id"])
    got = {_key(roll): len(legal_moves(position, roll)) for roll in ROLLS}
    assert got == case["depth_1"], _divide(case["depth_1"], got)
    assert sum(got.values()) == case["depth_1_total"]


@pytest.mark.parametrize("case", DATA["positions"], ids=lambda c: c["id"])
def test_two_plies_of_distinct_plays_match_reference(case):
    position = Position.from_id(case["id"])
    got = {}
    for roll in ROLLS:
        total = 0
        for move in legal_moves(position, roll):
            reply = apply_move(position, move).swap()
            total += sum(len(legal_moves(reply, second)) for second in ROLLS)
        got[_key(roll)] = total
    assert sum(got.values()) == case["depth_2_total"], _divide(case["depth_2"], got)
    assert got == case["depth_2"], _divide(case["depth_2"], got)


def test_plays_are_distinct_and_in_a_stable_order():
    position = Position.initial()
    first = legal_moves(position, (1, 1))
    again = legal_moves(position, (1, 1))
    assert [str(m) for m in first] == [str(m) for m in again]
    results = {apply_move(position, move) for move in first}
    assert len(results) == len(first) == 42


def test_roll_order_does_not_matter():
    position = Position.initial()
    assert _plays(position, (1, 3)) == _plays(position, (3, 1))


@pytest.mark.parametrize("roll", [(0, 3), (7, 1), (3,), "31", (1.0, 2)])
def test_bad_roll_is_refused(roll):
    with pytest.raises(DiceError, match="roll"):
        legal_moves(Position.initial(), roll)


# --- frozen cases -------------------------------------------------------------------------


def test_must_play_larger_die():
    assert _plays(Position.from_id("C0iEMj7++wAEAA"), (5, 4)) == ["13/8"]


def test_must_enter_with_the_only_open_point_and_hit():
    assert _plays(Position.from_id("Fc8HASRSc/CAYA"), (6, 1)) == ["bar/24*"]


@pytest.mark.parametrize("roll", [(2, 2), (6, 2), (6, 6)])
def test_roll_with_no_play_gives_empty_list(roll):
    assert legal_moves(Position.from_id("hucHASRSc/CAUA"), roll) == []


def test_enter_then_play_the_other_die_anywhere():
    position = Position.from_id("hucHASRSc/CAUA")
    plays = legal_moves(position, (5, 1))
    assert len(plays) == 10
    assert all(str(move).startswith("bar/") for move in plays)


def test_bear_off_either_die_first_gives_two_plays():
    assert _plays(Position.from_id("27YBAOBYAAAAAA"), (6, 2)) == ["5/3 4/off", "5/off 4/2"]


# --- bearing off: the FAQ figures of the rule texts (docs/rules.md 1.5) ------------------------------------

# The opponent holds the mover's 1 point (the opponent's 24 point) with two checkers in all of these.
_ANCHOR = {24: 2, 13: 13}


def test_must_bear_off_two_when_only_that_uses_both_dice():
    # Figure 8: 4-3, checkers on 4, 3 and 2; 4/1 is blocked, the 2 cannot bear off over the 3.
    position = Position.from_points({4: 1, 3: 1, 2: 2}, _ANCHOR)
    assert _plays(position, (4, 3)) == ["4/off 3/off"]


def test_bearing_off_is_not_compulsory_when_another_play_uses_the_dice():
    # Figure 9: 4-2 may bear off two, or play 4/2 then bear off from the 2 with the 4.
    position = Position.from_points({4: 1, 2: 1, 1: 2}, {25: 1, 13: 14})
    plays = legal_moves(position, (4, 2))
    assert sorted(str(m) for m in plays) == ["4/off", "4/off 2/off"]
    one_off = next(m for m in plays if str(m) == "4/off")
    assert sorted(one_off.steps) == [(2, 0, False), (4, 2, False)]
    assert apply_move(position, one_off).mover[2] == 1


def test_larger_die_bears_off_from_highest_point_and_smaller_is_lost():
    # Figure 10: 6-4; the 6 bears off from the 5, 5/1 is blocked, the 3 cannot bear off over the 5.
    position = Position.from_points({5: 2, 3: 1}, _ANCHOR)
    assert _plays(position, (6, 4)) == ["5/off"]


def test_cannot_bear_off_from_six_when_only_6_2_then_5_off_uses_both_dice():
    # Figure 11: 6-4; 6/off would leave the 4 unplayable (5/1 blocked), so 6/2 and 5/off.
    position = Position.from_points({6: 1, 5: 2}, _ANCHOR)
    assert _plays(position, (6, 4)) == ["6/2 5/off"]


def test_exact_die_bears_off_from_its_point_else_a_higher_checker_must_move():
    # 5-1: the 5-point is empty, so the 5 must move the checker on the 6 (6/1); it may not
    # bear off a checker from the 2 while the 6 is occupied.
    position = Position.from_points({6: 1, 2: 2}, {25: 1, 13: 14})
    assert _plays(position, (5, 1)) == ["6/1 2/1", "6/off"]


def test_hit_checker_must_reenter_and_come_home_before_bearing_off():
    position = Position.from_points({25: 1, 6: 4, 5: 4, 4: 4, 3: 2}, {1: 5, 24: 2, 13: 8})
    plays = legal_moves(position, (6, 1))
    assert plays
    assert all("off" not in str(move) for move in plays)
    assert all(move.steps[0][0] == 25 for move in plays)
    # Once home again, the next roll may bear off.
    home = Position.from_points({6: 5, 5: 4, 4: 4, 3: 2}, {1: 5, 24: 2, 13: 8})
    assert _plays(home, (6, 6)) == ["6/off(4)"]


# --- the bar ------------------------------------------------------------------------------


def test_checker_on_bar_enters_before_anything_else():
    position = Position.from_points({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    plays = legal_moves(position, (6, 5))
    assert plays and all(str(move).startswith("bar/") for move in plays)


def test_partial_entry_forfeits_the_rest_of_the_roll():
    # Two on the bar, only a 5 can enter (on the mover's 20, the opponent's 5-point).
    position = Position.from_points({25: 2, 13: 13}, {6: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 5})
    assert _plays(position, (6, 5)) == ["bar/20"]
    assert _plays(position, (6, 6)) == []
    # Both enter with 5-5, then the other two 5s are played by any checker.
    assert all(sorted(move.steps)[-2:] == [(25, 20, False)] * 2 for move in legal_moves(position, (5, 5)))


def test_closed_out_has_no_play():
    position = Position.from_points({25: 1, 13: 14}, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 3})
    assert all(legal_moves(position, roll) == [] for roll in ROLLS)


def test_one_checker_uses_both_dice_only_through_an_open_point():
    # 6-5 from the 24: 18 and 19 both blocked, so 24/13 is impossible.
    position = Position.from_points({24: 1, 6: 14}, {7: 2, 6: 2, 13: 11})
    assert all(not str(m).startswith("24/13") for m in legal_moves(position, (6, 5)))


def test_doubles_are_played_four_times_when_possible():
    plays = legal_moves(Position.initial(), (6, 6))
    assert all(len(move.steps) == 4 for move in plays)


def test_doubles_play_as_many_as_possible():
    # 6-6: 24/18 is blocked, so only 14/8/2 (two 6s); the 24 keeps the rest from bearing off.
    position = Position.from_points({24: 1, 14: 1, 2: 13}, {7: 2, 13: 13})
    plays = legal_moves(position, (6, 6))
    assert [str(m) for m in plays] == ["14/2"] and len(plays[0].steps) == 2


def test_hits_on_the_way_are_marked():
    # A blot on the mover's 18: 24/13 with 6-5 can go through it (24/18*/13) or through 19.
    position = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {7: 1, 5: 4, 8: 3, 13: 5, 24: 2})
    plays = _plays(position, (6, 5))
    assert "24/18*/13" in plays and "24/13" in plays


def test_finished_position_has_no_play():
    finished = Position.from_points({}, {6: 15})
    assert all(legal_moves(finished, roll) == [] for roll in ROLLS)
