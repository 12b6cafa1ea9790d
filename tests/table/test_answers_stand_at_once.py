"""Each answer stands at once, and an extra is a cube (issue 10; docs/rules.md 2.2, 2.4, 2.5, 2.7).

The logs are the minimized ones of the issue: players in roll order, so A is the box and B
the captain.
"""

from __future__ import annotations

import pytest

from chouette.standings import money_changes
from chouette.table import TableError, apply_event, fold

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


def join(*names):
    return [{"type": "join", "player": name} for name in names]


def leave(name):
    return {"type": "leave", "player": name}


def extra(giver, taker):
    return {"type": "extra", "from": giver, "to": taker}


ROLLS_ABCD = {"type": "order_roll", "rolls": {"A": 6, "B": 5, "C": 4, "D": 3}}


# --- A. the box answers a beaver at once (docs/rules.md 2.5, 1.7) ---------------------------------


def test_box_answers_a_beaver_before_every_member_has_answered():
    log = [*join(*"ABCD"), ROLLS_ABCD, double("box", "B", "C"), beaver("B"), take("B"),
           take("C"), result("box")]
    state = fold({"beavers": True}, log)
    assert points(state) == {"A": 7, "B": -4, "C": -2, "D": -1}
    assert seats(state) == ("A", None, "C", "DB")


def test_box_may_answer_the_beaver_while_the_other_member_is_still_waiting():
    state = fold({"beavers": True}, [*join(*"ABCD"), ROLLS_ABCD, double("box", "B", "C"),
                                     beaver("B")])
    assert state.game.cubes["B"].to_answer == "box"
    assert state.game.box_double.waiting == ["C"]
    # The box's answer stands; C answers afterwards.
    state = run(state, take("B"))
    assert state.game.cubes["B"].value == 4 and state.game.cubes["B"].owner == "member"
    with pytest.raises(TableError, match="answer the open double first \\(waiting: C\\)"):
        apply_event(state, result("box"))


def test_box_drop_of_a_beaver_is_final_before_the_others_answer():
    state = fold({"beavers": True}, [*join(*"ABCD"), ROLLS_ABCD, double("box", "B", "C"),
                                     beaver("B"), drop("B")])
    # B (the captain) wins the value they were taken at, booked at once: they beat the box.
    assert points(state) == {"A": -2, "B": 2, "C": 0, "D": 0}
    with pytest.raises(TableError, match="B has beaten the box"):
        apply_event(state, leave("B"))
    state = run(state, take("C"), result("box"))
    assert points(state) == {"A": 1, "B": 2, "C": -2, "D": -1}
    assert seats(state) == ("B", None, "C", "DA")


def test_member_answers_a_raccoon_before_the_others_answer():
    state = fold({"beavers": True, "raccoons": True},
                 [*join(*"ABCD"), ROLLS_ABCD, double("box", "B", "C"), beaver("B"),
                  raccoon("B"), drop("B")])
    # B dropped the raccoon: B loses 4 at once; the seats wait for C's answer.
    assert points(state) == {"A": 4, "B": -4, "C": 0, "D": 0}
    assert state.captain == "B"
    state = run(state, take("C"))
    assert state.captain == "C" and state.line == ["D", "B"]


# --- B. a drop is final at once (docs/rules.md 2.5, 2.2) ------------------------------------------


def test_drop_on_a_double_to_several_members_is_booked_at_once():
    state = run(seated("ABCDE"), double("box", "C", "D", "E"), drop("E"))
    assert points(state) == {"A": 1, "B": 0, "C": 0, "D": 0, "E": -1}


def test_dropper_of_a_double_to_several_members_may_leave_at_once():
    state = run(seated("ABCDE"), double("box", "C", "D", "E"), drop("E"), leave("E"))
    assert "E" not in state.seated and points(state)["E"] == -1
    state = run(state, take("C"), take("D"), result("team"))
    assert points(state) == {"A": 1 - 5, "B": 1, "C": 2, "D": 2, "E": -1}
    assert seats(state) == ("B", None, "C", "DA")


def test_single_cube_dropper_may_leave_at_once():
    state = run(seated("ABCD", cube_mode="single"), double("box"), drop("C"))
    assert points(state) == {"A": 1, "B": 0, "C": -1, "D": 0}
    state = run(state, leave("C"), take("B"), take("D"), result("box"))
    assert points(state) == {"A": 5, "B": -2, "C": -1, "D": -2}


def test_forced_drop_of_the_lone_taker_is_booked_when_it_happens_and_earlier_drops_stay():
    state = run(seated("ABCDE"), double("box"), take("B"), drop("C"))
    assert points(state) == {"A": 1, "B": 0, "C": -1, "D": 0, "E": 0}
    before = run(state, drop("D"))
    after = run(before, drop("E"))
    # The last drop books E's drop and B's take turned into a drop, nothing else.
    assert money_changes(before, after) == [(1, "A", 2, 200), (1, "B", -1, -100),
                                            (1, "E", -1, -100)]
    assert after.game is None
    assert points(after) == {"A": 4, "B": -1, "C": -1, "D": -1, "E": -1}
    assert seats(after) == ("A", None, "C", "DEB")


def test_captain_who_dropped_may_leave_before_the_others_answer():
    state = run(seated("ABCDE"), double("box"), drop("B"), leave("B"))
    # B's seat waits for the others' answers (rules 2.4, 2.5): nobody moves yet.
    assert seats(state) == ("A", None, None, "CDE")
    assert state.game.captain_left and points(state)["B"] == -1
    state = run(state, take("C"), take("D"), take("E"), result("box"))
    assert points(state) == {"A": 1 + 6, "B": -1, "C": -2, "D": -2, "E": -2}
    assert seats(state) == ("A", None, "D", "EC")


# --- C. an extra is a cube: the game goes on while one is live (docs/rules.md 2.5, 2.7) -----------


def _lone_taker_with_an_extra(**settings):
    log = [*join(*"ABCD"), {"type": "order", "players": list("ABCD")},
           double("box", "B", "C", "D"), drop("B"), drop("C"), take("D"), extra("B", "D")]
    return fold({"extras": True, **settings}, log)


def test_extras_outlive_the_lone_takers_cube_when_the_box_drops_their_double():
    state = run(_lone_taker_with_an_extra(), double("D"), drop("D"))
    assert state.game is not None and state.game.live == []
    state = run(state, result("box"))
    assert len(state.games) == 1
    assert points(state) == {"A": 0, "B": 0, "C": -1, "D": 1}
    assert seats(state) == ("D", None, "C", "BA")


def test_extras_outlive_the_lone_takers_cube_when_they_drop_the_boxs_beaver():
    state = run(_lone_taker_with_an_extra(beavers=True), double("D"), beaver("D"), drop("D"))
    # D lost 4 on their own cube at once; B's extra is still to be played.
    assert state.game is not None
    assert points(state) == {"A": 2 + 4, "B": -1 - 1, "C": -1, "D": -4 + 1}
    state = run(state, result("team", "gammon"))
    # The extra at 2 for a gammon: B pays D 4.
    assert points(state) == {"A": 6, "B": -2 - 4, "C": -1, "D": -3 + 4}
    assert len(state.games) == 1


def test_game_ends_when_the_last_live_cube_is_an_extra_and_it_is_dropped():
    state = run(_lone_taker_with_an_extra(), double("D"), drop("D"),
                {"type": "double", "by": "D", "extra": "B"})
    assert state.game is not None
    state = run(state, {"type": "drop", "extra": "B"})
    # B dropped D's redouble of the extra: D wins its 2 (and the fee); no cube is live.
    assert state.game is None and state.games[0].winner is None
    assert points(state) == {"A": 2 - 2, "B": -1 - 3, "C": -1, "D": 2 + 3}


def test_box_cannot_double_when_only_extras_are_live():
    state = run(_lone_taker_with_an_extra(), double("D"), drop("D"))
    with pytest.raises(TableError, match="the box has no cube to double"):
        apply_event(state, double("box"))
    with pytest.raises(TableError, match="D's cube is out of play"):
        apply_event(state, double("box", "D"))


def test_lone_taker_with_a_live_extra_may_not_leave():
    state = run(_lone_taker_with_an_extra(beavers=True), double("D"), beaver("D"), drop("D"))
    with pytest.raises(TableError, match="D has a live cube in this game"):
        apply_event(state, leave("D"))


# --- refusals that say what is wrong ------------------------------------------------------


def test_single_cube_beaver_by_a_member_other_than_the_acting_captain_is_refused():
    state = run(seated("ABCD", cube_mode="single", beavers=True), double("box"), take("B"))
    with pytest.raises(TableError, match="with a single cube a beaver is the captain's "
                                         "decision: B beavers for the team, C takes or drops"):
        apply_event(state, beaver("C"))


def test_single_cube_beaver_by_the_member_who_becomes_acting_captain_is_allowed():
    state = run(seated("ABCD", cube_mode="single", beavers=True), double("box"), drop("B"),
                beaver("C"), take("D"))
    assert state.captain == "C"
    assert [state.game.cubes[m].cube.offer.value for m in "CD"] == [4, 4]


def test_take_on_cube_team_in_multi_cube_mode_names_the_members_cube():
    state = run(seated("ABCD"), double("box", "B", "C"))
    with pytest.raises(TableError, match="each member has a cube of their own at this table: name "
                                         "the member whose cube is answered, not 'team'"):
        apply_event(state, take("team"))
    state = run(seated("ABCD"), double("B"))
    with pytest.raises(TableError, match="name the member whose cube is answered"):
        apply_event(state, take("team"))


def test_single_cube_box_answer_to_the_beaver_waits_for_every_member():
    state = run(seated("ABCD", cube_mode="single", beavers=True), double("box"), beaver("B"))
    with pytest.raises(TableError, match="the box answers the team's beaver once every member "
                                         "has answered the box's double \\(waiting: C, D\\)"):
        apply_event(state, take("team"))
    with pytest.raises(TableError, match="the box answers the team's beaver once"):
        apply_event(state, take("B"))
    state = run(state, take("C"), take("D"), take("team"))
    assert [state.game.cubes[m].value for m in "BCD"] == [4, 4, 4]


def test_single_cube_member_answers_the_box_double_by_their_own_name():
    state = run(seated("ABCD", cube_mode="single"), double("box"))
    with pytest.raises(TableError, match="each member answers the box's double alone"):
        apply_event(state, take("team"))


def test_box_drop_of_a_beaver_stands_when_all_but_one_would_later_apply():
    # E beavers first and the box drops at once: E won 2, final. When B, C and D then drop,
    # E is no lone taker to force: E's cube is out of play already (docs/rules.md 2.5, 2.6).
    state = run(seated("ABCDE", beavers=True), double("box"), beaver("E"), drop("E"))
    assert points(state) == {"A": -2, "B": 0, "C": 0, "D": 0, "E": 2}
    state = run(state, drop("B"), drop("C"), drop("D"))
    assert state.game is None
    assert points(state) == {"A": 1, "B": -1, "C": -1, "D": -1, "E": 2}
    assert seats(state) == ("A", None, "C", "DEB")
