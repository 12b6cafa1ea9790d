"""Single-cube chouette (RULES 2.4)."""

from __future__ import annotations

import pytest

from chouette.table import TableError, apply_event

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


def single(order="ABCD", **settings):
    return seated(order, cube_mode="single", **settings)


def test_box_double_turns_the_one_cube_for_every_member():
    state = run(single(), double("box"))
    assert state.game.box_double.cubes == ["B", "C", "D"]


def test_box_cannot_double_only_some_members_with_a_single_cube():
    with pytest.raises(TableError, match="every member still playing"):
        apply_event(single(), double("box", "B"))


def test_each_member_decides_alone_droppers_pay_and_are_out():
    state = run(single(), double("box"), drop("B"), take("C"), take("D"), result("box"))
    assert points(state) == {"A": 1 + 2 + 2, "B": -1, "C": -2, "D": -2}


def test_captain_drop_best_placed_taker_captains_old_captain_to_end_at_once():
    state = run(single("ABCDE"), double("box"), drop("B"), drop("C"), take("D"), take("E"))
    # Only the old captain moves; C, who dropped too, keeps his place in the line.
    assert seats(state) == ("A", None, "D", "CEB")


def test_new_captain_result_decides_rotation():
    state = run(single(), double("box"), drop("B"), take("C"), take("D"), result("team"))
    assert seats(state) == ("C", None, "D", "BA")


def test_everyone_drops_box_beat_the_captain():
    state = run(single(), double("box"), drop("B"), drop("C"), drop("D"))
    assert state.game is None
    assert seats(state) == ("A", None, "C", "DB")
    assert points(state) == {"A": 3, "B": -1, "C": -1, "D": -1}


def test_only_the_captain_doubles_for_the_team():
    with pytest.raises(TableError, match=r"only the captain \(B\) doubles for the team"):
        apply_event(single(), double("C"))


def test_box_answers_the_team_double_once():
    state = run(single(), double("B"), take("team"))
    assert all(c.value == 2 and c.owner == "box" for c in state.game.cubes.values())
    with pytest.raises(TableError, match='cube "team"'):
        apply_event(run(single(), double("B")), take("B"))


def test_box_drops_the_team_double_every_member_wins_the_pre_double_value():
    state = run(single(), double("B"), drop("team"))
    assert state.game is None and seats(state) == ("B", None, "C", "DA")
    assert points(state) == {"A": -3, "B": 1, "C": 1, "D": 1}


def test_captain_beaver_decides_for_all_members_who_took():
    state = run(single(beavers=True), double("box"), beaver("B"), take("C"), drop("D"))
    # The box answers the team's beaver once.
    state = run(state, take("team"))
    assert [state.game.cubes[m].value for m in "BC"] == [4, 4]


def test_single_cube_beaver_by_a_member_other_than_the_captain_is_refused():
    # RULES 2.4: a beaver with a single cube is a decision of the captain; a member's
    # beaver is refused with that reason (it was once taken silently as a take).
    state = run(single(beavers=True), double("box"), take("B"))
    with pytest.raises(TableError, match="a beaver is the captain's decision: B beavers for "
                                         "the team, C takes or drops"):
        apply_event(state, beaver("C"))
    # Before the captain answers, too.
    with pytest.raises(TableError, match="captain's decision: B beavers"):
        apply_event(run(single(beavers=True), double("box")), beaver("D"))
    state = run(state, take("C"), take("D"))
    assert [state.game.cubes[m].value for m in "BCD"] == [2, 2, 2]


def test_single_cube_raccoon_for_the_team():
    state = run(single(beavers=True, raccoons=True), double("box"), beaver("B"), take("C"),
                take("D"), raccoon("team"), take("team"))
    assert [state.game.cubes[m].value for m in "BCD"] == [8, 8, 8]


def test_consulting_free_forbidden_and_after_cube():
    from chouette.table.actions import may_consult

    assert may_consult(seated("ABCD")) == ["C", "D"]
    assert may_consult(seated("ABCD", consulting="forbidden")) == []
    state = seated("ABCD", consulting="after_cube")
    assert may_consult(state) == []  # no double yet
    state = run(state, double("box", "C"), take("C"))
    assert may_consult(state) == ["C", "D"]


def test_a_member_who_dropped_may_not_consult():
    from chouette.table.actions import may_consult

    state = run(single(), double("box"), take("B"), drop("C"), take("D"))
    assert may_consult(state) == ["D"]
