"""Review of multi-cube chouette (RULES 2.5, 2.9, 2.10; seeds 000 l.514-528, 003 l.278-296)."""

from __future__ import annotations

import pytest

from chouette.table import TableError, apply_event
from chouette.table.actions import may_consult

from .helpers import (
    beaver,
    double,
    drop,
    points,
    raccoon,
    result,
    run,
    seated,
    seats,
    take,
)


def leave(name):
    return {"type": "leave", "player": name}


# --- the captain drops while others still wait ------------------------------------------


def test_captain_dropping_while_others_wait_keeps_his_seat_until_all_answered():
    state = run(seated("ABCDE"), double("box", "B", "C", "D", "E"), drop("B"), take("C"))
    assert seats(state) == ("A", None, "B", "CDE")
    with pytest.raises(TableError, match="answer the open double first"):
        apply_event(state, double("C"))
    state = run(state, take("D"), take("E"))
    assert seats(state) == ("A", None, "C", "DEB")


def test_captain_dropped_cube_not_answered_twice():
    state = run(seated("ABCD"), double("box", "B", "C"), drop("B"))
    with pytest.raises(TableError, match="already been answered"):
        apply_event(state, take("B"))


def test_second_captain_dropping_goes_to_the_end_behind_the_first():
    state = run(seated("ABCDE"), double("box", "B"), drop("B"), double("box", "C"), drop("C"))
    assert seats(state) == ("A", None, "D", "EBC")
    state = run(state, result("box"))
    assert seats(state) == ("A", None, "E", "BCD")
    assert points(state) == {"A": 4, "B": -1, "C": -1, "D": -1, "E": -1}


def test_captain_dropping_when_only_the_line_beyond_him_is_live():
    # B, C, D doubled; B and C drop: D captains; C keeps his place, B goes to the end.
    state = run(seated("ABCDE"), double("box", "B", "C", "D"), drop("B"), drop("C"), take("D"))
    assert seats(state) == ("A", None, "D", "CEB")


# --- the box drops the captain's cube ----------------------------------------------------


def test_box_dropping_the_acting_captain_cube_after_the_captain_dropped():
    # B drops the box's double: C captains. The box then drops C's double: C beat the box.
    state = run(seated("ABCDE"), double("box", "B"), drop("B"), double("C"), drop("C"))
    assert state.game.acting_captain == "D" and seats(state) == ("A", None, "C", "DEB")
    state = run(state, result("box"))
    assert seats(state) == ("C", None, "D", "EBA")
    assert points(state) == {"A": 1 - 1 + 2, "B": -1, "C": 1, "D": -1, "E": -1}


def test_box_drops_captain_cube_acting_captain_who_drops_keeps_his_place():
    state = run(seated("ABCDE"), double("B"), drop("B"), double("box", "C"), drop("C"))
    # C was only acting captain: he does not go to the end; D plays on.
    assert state.game.acting_captain == "D"
    assert seats(state) == ("A", None, "B", "CDE")
    state = run(state, result("team"))
    assert seats(state) == ("B", None, "C", "DEA")


def test_box_drops_captain_cube_then_every_other_cube_ends_the_game_captain_is_box():
    state = run(seated("ABCD"), double("B"), drop("B"), double("box", "C", "D"), drop("C"),
                drop("D"))
    assert state.game is None
    assert seats(state) == ("B", None, "C", "DA")
    assert points(state) == {"A": 1, "B": 1, "C": -1, "D": -1}


def test_box_drops_captain_beaver_captain_beat_the_box():
    # The box doubles B, B beavers, the box drops the beaver: B wins 2 and will be box.
    state = run(seated("ABCD", beavers=True), double("box", "B"), beaver("B"), drop("B"))
    assert state.game.cubes["B"].settled == 2
    assert state.game.acting_captain == "C"
    state = run(state, result("box"))
    assert seats(state) == ("B", None, "C", "DA")


def test_captain_dropping_the_box_beaver_of_his_own_double_goes_to_the_end():
    state = run(seated("ABCD", beavers=True), double("B"), beaver("B"), drop("B"))
    assert state.game.cubes["B"].settled == -2
    assert seats(state) == ("A", None, "C", "DB")


def test_captain_dropping_the_raccoon_goes_to_the_end():
    state = run(seated("ABCD", beavers=True, raccoons=True), double("box", "B"), beaver("B"),
                raccoon("B"), drop("B"))
    assert state.game.cubes["B"].settled == -4
    assert seats(state) == ("A", None, "C", "DB")


def test_player_who_beat_the_box_may_not_leave_before_the_game_ends():
    # Choice: RULES 2.2 lets a player without a live cube leave; the code keeps the
    # captain whose cube the box dropped, because he is the next box.
    state = run(seated("ABCD"), double("B"), drop("B"))
    with pytest.raises(TableError, match="has beaten the box"):
        apply_event(state, leave("B"))


def test_dropped_captain_may_leave_at_once_and_the_game_goes_on():
    state = run(seated("ABCD"), double("box", "B"), drop("B"), leave("B"))
    assert seats(state) == ("A", None, "C", "D")
    state = run(state, result("team"))
    assert seats(state) == ("C", None, "D", "A")
    assert points(state) == {"A": -1, "B": -1, "C": 1, "D": 1}


def test_live_member_may_not_leave():
    state = run(seated("ABCD"), double("box", "C"), take("C"))
    with pytest.raises(TableError, match="live cube"):
        apply_event(state, leave("C"))
    with pytest.raises(TableError, match="live cube"):
        apply_event(state, leave("D"))


# --- several cubes at one moment ---------------------------------------------------------


def test_same_value_same_action_applies_only_to_cubes_of_the_same_value():
    state = run(seated("ABCD", same_value_same_action=True), double("box", "C"), take("C"),
                double("C"), double("D"), take("C"))
    # C's cube was at 2, D's at 1: the box may drop D's.
    state = run(state, drop("D"))
    assert state.game.cubes["D"].settled == 1


def test_same_value_same_action_beaver_counts_as_a_take():
    state = run(seated("ABCD", same_value_same_action=True, beavers=True), double("C"),
                double("D"), beaver("C"))
    with pytest.raises(TableError, match="same value, same action"):
        apply_event(state, drop("D"))
    run(state, take("D"))


def test_member_may_not_double_while_the_box_double_awaits_answers():
    state = run(seated("ABCD"), double("box", "B"))
    with pytest.raises(TableError, match="answer the open double first"):
        apply_event(state, double("C"))


def test_box_may_not_double_while_a_member_double_awaits():
    state = run(seated("ABCD"), double("C"))
    with pytest.raises(TableError, match="answer the open double first"):
        apply_event(state, double("box", "B"))


def test_box_doubling_a_dropped_member_is_refused():
    state = run(seated("ABCD"), double("box", "C"), drop("C"))
    with pytest.raises(TableError, match="out of play"):
        apply_event(state, double("box", "C"))


def test_box_doubles_the_same_cube_twice_in_one_event_is_refused():
    with pytest.raises(TableError, match="named twice"):
        apply_event(seated("ABCD"), double("box", "C", "C"))


def test_member_who_won_his_cube_is_out_of_the_game():
    state = run(seated("ABCD"), double("C"), drop("C"))
    with pytest.raises(TableError, match="out of play"):
        apply_event(state, double("C"))
    state = run(state, result("box", "backgammon"))
    # C keeps the 1 the box conceded; B and D lose 3 each.
    assert points(state) == {"A": 6 - 1, "B": -3, "C": 1, "D": -3}


# --- consulting (RULES 2.9) --------------------------------------------------------------


def test_consulting_after_cube_opens_once_someone_has_doubled_even_if_dropped():
    state = run(seated("ABCD", consulting="after_cube"), double("box", "C"), drop("C"))
    assert may_consult(state) == ["D"]


def test_consulting_after_cube_only_members_whose_cube_is_in_play():
    state = run(seated("ABCDE", consulting="after_cube"), double("box", "C", "D"), take("C"),
                drop("D"))
    assert may_consult(state) == ["C", "E"]


def test_consulting_advises_the_acting_captain():
    state = run(seated("ABCDE"), double("B"), drop("B"))
    # B beat the box and is out of this game; C is acting captain; D and E may advise.
    assert may_consult(state) == ["D", "E"]


def test_consulting_automatic_double_is_not_a_turned_cube():
    state = run(seated("ABCD", consulting="after_cube", automatic_doubles=1),
                {"type": "opening_roll", "box": 3, "team": 3})
    assert may_consult(state) == []


# --- several rounds of doubles in one turn -----------------------------------------------


def _board_box_on_roll():
    return run(seated("ABCD"), {"type": "opening_roll", "box": 5, "team": 3},
               {"type": "move", "move": "13/8 6/3"}, {"type": "roll", "dice": [2, 1]},
               {"type": "move", "move": "13/11 6/5"})


def test_box_may_double_more_members_after_the_first_answers_in_the_same_turn():
    # Choice: RULES 2.5 says "any set of members before his roll"; the code also lets the
    # box double others once the first set has answered, still before his roll.
    state = run(_board_box_on_roll(), double("box", "B"), take("B"), double("box", "C"),
                drop("C"))
    assert state.game.on_roll == "box" and state.game.dice is None
    with pytest.raises(TableError, match="only the box may double now"):
        apply_event(state, double("D"))


def test_members_may_double_in_a_second_round_before_the_captain_rolls():
    state = run(_board_box_on_roll(), {"type": "roll", "dice": [3, 1]},
                {"type": "move", "move": "8/5 6/5"}, double("D"), take("D"), double("B"),
                take("B"))
    assert [state.game.cubes[m].value for m in "BCD"] == [2, 1, 2]
