"""Multi-cube chouette (docs/rules.md 2.5, 2.10)."""

from __future__ import annotations

import re

import pytest

from chouette.table import TableError, apply_event

from .helpers import beaver, double, drop, points, raccoon, result, run, seated, seats, take


def leave(name):
    return {"type": "leave", "player": name}


def test_each_member_has_their_own_cube():
    state = run(seated("ABCD"), double("box", "B"), take("B"), result("team"))
    assert points(state) == {"A": -4, "B": 2, "C": 1, "D": 1}


def test_box_doubles_any_set_of_members_each_answers_alone():
    state = run(seated("ABCDE"), double("box", "C", "E"), take("C"), drop("E"), result("box"))
    assert points(state) == {"A": 5, "B": -1, "C": -2, "D": -1, "E": -1}


def test_box_doubling_without_cubes_doubles_every_live_member():
    state = run(seated("ABC"), double("box"))
    assert sorted(state.game.box_double.cubes) == ["B", "C"]


def test_member_doubles_box_box_answers_each_cube():
    state = run(seated("ABCD"), double("C"), double("D"), take("C"), drop("D"), result("team"))
    assert points(state) == {"A": -4, "B": 1, "C": 2, "D": 1}


def test_member_dropped_is_out_of_the_game():
    state = run(seated("ABCD"), double("box", "C"), drop("C"))
    with pytest.raises(TableError, match="C's cube is out of play"):
        apply_event(state, double("C"))


def test_taker_owns_the_cube_only_they_may_redouble():
    state = run(seated("ABC"), double("box", "B"), take("B"))
    with pytest.raises(TableError, match="the box cannot double B: B owns that cube"):
        apply_event(state, double("box", "B"))
    state = run(state, double("B"), take("B"))
    assert state.game.cubes["B"].value == 4 and state.game.cubes["B"].owner == "box"
    with pytest.raises(TableError, match="B cannot double: the box owns that cube"):
        apply_event(state, double("B"))


@pytest.mark.parametrize("turns", range(1, 31))
def test_cube_value_over_every_reachable_value(turns):
    # The box and B redouble each other: the cube reaches 2**turns exactly, up to the highest
    # cube (4096 = 2**12, cube_rules.MAX_CUBE); the double past it is refused.
    state = seated("ABC")
    reachable = min(turns, 12)
    for i in range(reachable):
        state = run(state, double("box", "B") if i % 2 == 0 else double("B"), take("B"))
    if turns > reachable:
        with pytest.raises(TableError, match="a cube goes no higher than 4096"):
            run(state, double("box", "B") if reachable % 2 == 0 else double("B"))
    assert state.game.cubes["B"].value == 2**reachable
    state = run(state, result("team"))
    assert points(state)["B"] == 2**reachable


def test_drop_costs_the_value_before_the_double_at_every_value():
    for turns in range(12):  # the last double offers the highest cube, 4096
        state = seated("ABC")
        for i in range(turns):
            state = run(state, double("box", "B") if i % 2 == 0 else double("B"), take("B"))
        doubler = "box" if turns % 2 == 0 else "B"
        state = run(state, double(doubler, "B") if doubler == "box" else double("B"), drop("B"))
        expected = -(2**turns) if doubler == "box" else 2**turns
        assert state.game.cubes["B"].settled == expected


def test_captain_drop_makes_best_placed_live_member_acting_captain():
    state = run(seated("ABCDE"), double("box", "B", "C", "D"), drop("B"), drop("C"), take("D"))
    assert state.captain == "D"
    assert state.line == ["C", "E", "B"]  # B at once to the end of the line


def test_acting_captain_is_chosen_once_every_member_has_answered():
    state = run(seated("ABCDE"), double("box", "B", "C"), drop("B"))
    assert state.captain == "B"  # C has not answered yet
    state = run(state, take("C"))
    assert state.captain == "C"


def test_box_drops_captain_cube_captain_will_be_box_acting_captain_plays_on():
    state = run(seated("ABCDE"), double("B"), drop("B"))
    assert state.game.acting_captain == "C" and state.captain == "B"
    # The acting captain loses, but their result does not change the seats.
    state = run(state, result("box"))
    assert (state.box, state.captain) == ("B", "C")


def test_game_ends_when_no_cube_is_live():
    state = run(seated("ABC"), double("box", "B"), drop("B"), double("C"), drop("C"))
    assert state.game is None and len(state.games) == 1
    assert points(state) == {"A": 0, "B": -1, "C": 1}


def test_same_value_same_action_when_on():
    state = run(seated("ABCD", same_value_same_action=True), double("C"), double("D"), take("C"))
    with pytest.raises(TableError, match="same value, same action"):
        apply_event(state, drop("D"))
    run(state, take("D"))  # allowed


def test_same_value_same_action_off_lets_the_box_choose_per_cube():
    run(seated("ABCD"), double("C"), double("D"), take("C"), drop("D"))


def test_beaver_member_redoubles_and_keeps_the_cube_box_must_answer():
    state = run(seated("ABC", beavers=True), double("box", "B"), beaver("B"))
    cube = state.game.cubes["B"]
    assert (cube.value, cube.owner, cube.to_answer) == (2, "member", "box")
    with pytest.raises(TableError, match="answer the open double first"):
        apply_event(state, result("box"))
    cube = run(state, take("B")).game.cubes["B"]
    assert (cube.value, cube.owner, cube.to_answer) == (4, "member", None)


def test_box_dropping_a_beaver_loses_the_value_it_was_taken_at():
    # Seeds: the original doubler answers a beaver like a normal double.
    state = run(seated("ABC", beavers=True), double("box", "B"), beaver("B"), drop("B"))
    assert state.game.cubes["B"].settled == 2


def test_box_beavers_a_member_double_member_must_answer():
    state = run(seated("ABC", beavers=True), double("B"), beaver("B"))
    assert state.game.cubes["B"].to_answer == "member"
    cube = run(state, take("B")).game.cubes["B"]
    assert (cube.value, cube.owner) == (4, "box")


def test_raccoon_after_beaver_cube_stays_with_taker():
    state = run(seated("ABC", beavers=True, raccoons=True), double("box", "B"), beaver("B"),
                raccoon("B"), take("B"), result("team", "gammon"))
    assert state.games[-1].cubes[0].value == 8 and state.games[-1].cubes[0].owner == "member"
    assert points(state)["B"] == 16


def test_member_dropping_a_raccoon_loses_the_beavered_value():
    state = run(seated("ABC", beavers=True, raccoons=True), double("box", "B"), beaver("B"),
                raccoon("B"), drop("B"))
    assert state.game.cubes["B"].settled == -4


def test_beaver_refused_when_off():
    with pytest.raises(TableError, match="beavers are not played"):
        apply_event(run(seated("ABC"), double("box", "B")), beaver("B"))


def test_raccoon_refused_without_beaver_or_after_the_next_action():
    state = run(seated("ABC", beavers=True, raccoons=True), double("box", "B"))
    with pytest.raises(TableError, match="no beaver to raccoon"):
        apply_event(run(state, take("B")), raccoon("B"))
    state = run(state, beaver("B"), take("B"))
    with pytest.raises(TableError, match="no beaver to raccoon"):
        apply_event(state, raccoon("B"))


def test_take_nobody_offered_is_refused():
    with pytest.raises(TableError, match="there is no double to take"):
        apply_event(seated("ABC"), take("B"))


def test_answer_for_a_cube_not_doubled_is_refused():
    state = run(seated("ABCD"), double("box", "B"))
    with pytest.raises(TableError, match="C's cube was not doubled"):
        apply_event(state, take("C"))


def test_nothing_else_while_a_double_awaits_answers():
    state = run(seated("ABCD"), double("box", "B", "C"), take("B"))
    with pytest.raises(TableError, match="answer the open double first"):
        apply_event(state, result("box"))


def test_members_may_double_at_the_same_moment_before_answers():
    state = run(seated("ABCD"), double("C"), double("D"))
    assert state.game.member_doubles == ["C", "D"]
    with pytest.raises(TableError, match=re.escape("answer the open double first (waiting: the box on D's cube)")):
        apply_event(run(state, take("C")), double("B"))


def test_jacoby_counts_an_unturned_cube_single_per_cube():
    state = run(seated("ABC", jacoby=True), double("box", "B"), take("B"), result("team", "gammon"))
    # B's turned cube: 2 x gammon = 4; C's cube was never turned: single.
    assert points(state) == {"A": -5, "B": 4, "C": 1}


def test_without_jacoby_gammon_and_backgammon_multiply():
    state = run(seated("ABC"), result("team", "backgammon"))
    assert points(state) == {"A": -6, "B": 3, "C": 3}


# --- the captain drops while others still wait ------------------------------------------


def test_captain_dropping_while_others_wait_keeps_their_seat_until_all_answered():
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


def test_captain_dropping_when_only_the_line_beyond_them_is_live():
    # B, C, D doubled; B and C drop: D captains; C keeps their place, B goes to the end.
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


def test_box_drops_captain_cube_acting_captain_who_drops_keeps_their_place():
    state = run(seated("ABCDE"), double("B"), drop("B"), double("box", "C"), drop("C"))
    # C was only acting captain: C does not go to the end; D plays on.
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


def test_captain_dropping_the_box_beaver_of_their_own_double_goes_to_the_end():
    state = run(seated("ABCD", beavers=True), double("B"), beaver("B"), drop("B"))
    assert state.game.cubes["B"].settled == -2
    assert seats(state) == ("A", None, "C", "DB")


def test_captain_dropping_the_raccoon_goes_to_the_end():
    state = run(seated("ABCD", beavers=True, raccoons=True), double("box", "B"), beaver("B"),
                raccoon("B"), drop("B"))
    assert state.game.cubes["B"].settled == -4
    assert seats(state) == ("A", None, "C", "DB")


def test_player_who_beat_the_box_may_not_leave_before_the_game_ends():
    # Choice: docs/rules.md 2.2 lets a player without a live cube leave; the code keeps the
    # captain whose cube the box dropped, because they are the next box.
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


def test_member_who_won_their_cube_is_out_of_the_game():
    state = run(seated("ABCD"), double("C"), drop("C"))
    with pytest.raises(TableError, match="out of play"):
        apply_event(state, double("C"))
    state = run(state, result("box", "backgammon"))
    # C keeps the 1 the box conceded; B and D lose 3 each.
    assert points(state) == {"A": 6 - 1, "B": -3, "C": 1, "D": -3}


# --- several rounds of doubles in one turn -----------------------------------------------


def _board_box_on_roll():
    return run(seated("ABCD"), {"type": "opening_roll", "box": 5, "team": 3},
               {"type": "move", "move": "13/8 6/3"}, {"type": "roll", "dice": [2, 1]},
               {"type": "move", "move": "13/11 6/5"})


def test_box_may_double_more_members_after_the_first_answers_in_the_same_turn():
    # Choice: docs/rules.md 2.5 lets the box double "any set of members" before rolling; the
    # code also lets the box double others once the first set has answered, still before rolling.
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
