"""Single-cube chouette (docs/rules.md 2.4)."""

from __future__ import annotations

import pytest

from chouette.table import TableError, apply_event

from .helpers import beaver, double, drop, points, raccoon, result, run, seated, seats, take


def single(order="ABCD", **settings):
    return seated(order, cube_mode="single", **settings)


BEAVERS = {"beavers": True, "raccoons": True}


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
    # Only the old captain moves; C, who dropped too, keeps their place in the line.
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
    # docs/rules.md 2.4: a beaver with a single cube is a decision of the captain; a member's
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


# --- everyone drops: the box beat the captain (docs/rules.md 2.4 last-but-one point) ----------------


def test_single_cube_team_dropping_the_box_beaver_box_beat_the_captain():
    # The captain doubles, the box beavers, the team drops: everyone dropped, so the box
    # beat the captain B, who goes to the end of the line: box A, captain C, line D B.
    state = run(single(**BEAVERS), double("B"), beaver("team"), drop("team"))
    assert state.game is None
    assert points(state) == {"A": 6, "B": -2, "C": -2, "D": -2}
    assert seats(state) == ("A", None, "C", "DB")


def test_single_cube_team_dropping_the_box_raccoon_box_beat_the_captain():
    state = run(single(**BEAVERS), double("box"), beaver("B"), take("C"), take("D"),
                raccoon("team"), drop("team"))
    assert points(state) == {"A": 12, "B": -4, "C": -4, "D": -4}
    assert seats(state) == ("A", None, "C", "DB")


def test_single_cube_team_dropping_the_raccoon_after_a_captain_change():
    # B drops the box's double; C (now captain) beavers for C and D; the box raccoons; the
    # team drops: the box beat the captain C, who goes to the end: captain D, line B C.
    state = run(single(**BEAVERS), double("box"), drop("B"), beaver("C"), take("D"),
                raccoon("team"), drop("team"))
    assert points(state) == {"A": 9, "B": -1, "C": -4, "D": -4}
    assert seats(state) == ("A", None, "D", "BC")


def test_single_cube_everyone_dropping_the_box_double_box_beat_the_captain():
    state = run(single("ABCDE"), double("box"), drop("C"), drop("B"), drop("E"), drop("D"))
    assert seats(state) == ("A", None, "C", "DEB")


def test_single_cube_box_dropping_the_team_beaver_each_taker_wins_the_value_taken():
    state = run(single(**BEAVERS), double("box"), beaver("B"), drop("C"), take("D"),
                drop("team"))
    # C dropped at 1; B and D had taken at 2 and beavered: the box concedes 2 to each.
    assert points(state) == {"A": 1 - 4, "B": 2, "C": -1, "D": 2}
    assert seats(state) == ("B", None, "C", "DA")


def test_single_cube_box_answers_the_team_beaver_of_its_redouble_once():
    state = run(single(**BEAVERS), double("box"), take("B"), take("C"), take("D"),
                double("B"), take("team"), double("box"), beaver("B"), take("C"), take("D"))
    # Cube at 4 owned by the team; the box redoubles to 8, the captain beavers to 16.
    with pytest.raises(TableError, match='cube "team"'):
        apply_event(state, take("C"))
    state = run(state, take("team"), result("team"))
    assert points(state) == {"A": -48, "B": 16, "C": 16, "D": 16}


# --- the captain's beaver decides for every member who took -----------------------------


def test_single_cube_captain_beaver_does_not_touch_members_who_dropped():
    state = run(single("ABCDE", **BEAVERS), double("box"), beaver("B"), drop("C"),
                take("D"), take("E"), take("team"), result("box"))
    assert points(state) == {"A": 1 + 4 + 4 + 4, "B": -4, "C": -1, "D": -4, "E": -4}


def test_single_cube_new_captain_beaver_decides_after_the_captain_dropped():
    state = run(single("ABCDE", **BEAVERS), double("box"), drop("B"), take("C"))
    # C, the best-placed taker, is the new captain; their take decides for D and E, and D's
    # beaver is refused (docs/rules.md 2.4: the captain's decision).
    with pytest.raises(TableError, match="C beavers for the team, D takes or drops"):
        apply_event(state, beaver("D"))
    state = run(state, take("D"), take("E"))
    assert state.captain == "C"
    assert [state.game.cubes[m].value for m in "CDE"] == [2, 2, 2]
    assert state.game.pending == []
    state = run(single("ABCDE", **BEAVERS), double("box"), drop("B"), beaver("C"), take("D"),
                take("E"))
    assert [state.game.cubes[m].cube.offer.value for m in "CDE"] == [4, 4, 4]


def test_single_cube_team_raccoon_after_box_beaver_is_the_captain_decision():
    # The captain doubles, the box beavers, the captain raccoons for the team.
    state = run(single(**BEAVERS), double("B"), beaver("team"), raccoon("team"))
    assert all(c.cube.offer.value == 8 for c in state.game.cubes.values())
    state = run(state, take("team"), result("box"))
    # The box took the raccoon: the cube is 8, still owned by the box (the beaverer).
    assert points(state) == {"A": 24, "B": -8, "C": -8, "D": -8}


# --- the acting captain -------------------------------------------------------------------


def test_single_cube_acting_captain_doubles_for_the_team_old_captain_may_not():
    state = run(single("ABCDE"), double("box"), drop("B"), take("C"), take("D"), take("E"))
    with pytest.raises(TableError, match=r"only the captain \(C\)"):
        apply_event(state, double("B"))
    state = run(state, double("C"), take("team"), double("box"), drop("C"), take("D"),
                take("E"))
    assert seats(state) == ("A", None, "D", "EBC")
    with pytest.raises(TableError, match=r"only the captain \(D\)"):
        apply_event(state, double("E"))
    state = run(state, double("D"), take("team"), result("team"))
    # D and E: cube 16 single; C dropped the box's redouble at 4, B the first double at 1.
    assert points(state) == {"A": -32 + 4 + 1, "B": -1, "C": -4, "D": 16, "E": 16}
    # D beat the box: box D, captain E, line B C A.
    assert seats(state) == ("D", None, "E", "BCA")


def test_single_cube_box_drops_team_double_after_captain_change_new_captain_is_box():
    state = run(single("ABCDE"), double("box"), drop("B"), take("C"), take("D"), drop("E"),
                double("C"), drop("team"))
    assert state.game is None
    assert points(state) == {"A": 1 + 1 - 4, "B": -1, "C": 2, "D": 2, "E": -1}
    # Line after B moved: D E B; C is the new box, A to the end.
    assert seats(state) == ("C", None, "D", "EBA")


def test_single_cube_box_redouble_reaches_only_the_members_still_playing():
    state = run(single("ABCDE"), double("box"), take("B"), drop("C"), take("D"), take("E"),
                double("B"), take("team"), double("box"))
    assert state.game.box_double.cubes == ["B", "D", "E"]
    with pytest.raises(TableError, match="every member still playing"):
        apply_event(run(single("ABCDE"), double("box"), take("B"), drop("C"), take("D"),
                        take("E"), double("B"), take("team")), double("box", "B", "C", "D", "E"))


def test_single_cube_droppers_other_than_the_captain_keep_their_place_in_line():
    # Ambiguity (the rule texts: "those who took take the place of those who dropped"): the code
    # moves only the old captain; a dropper lower in the line keeps their place.
    state = run(single("ABCDEF"), double("box"), drop("B"), drop("C"), drop("D"), take("E"),
                take("F"))
    assert seats(state) == ("A", None, "E", "CDFB")


def test_single_cube_jacoby_box_gammon_after_a_turned_cube_counts_double():
    state = run(single(jacoby=True), double("box"), take("B"), drop("C"), take("D"),
                result("box", "gammon"))
    assert points(state) == {"A": 1 + 4 + 4, "B": -4, "C": -1, "D": -4}


def test_single_cube_box_beaver_of_the_team_double_is_answered_by_the_team_as_one():
    # Ambiguity: docs/rules.md 2.4 lets each member decide alone on the box's doubles; the code has
    # the team answer the box's beaver (a redouble by the box) as one, with cube "team".
    state = run(single(**BEAVERS), double("B"), beaver("team"))
    with pytest.raises(TableError, match='cube "team"'):
        apply_event(state, drop("C"))
    state = run(state, take("team"), result("team", "gammon"))
    assert points(state) == {"A": -24, "B": 8, "C": 8, "D": 8}


# --- one change of captain per team answer (single cube) ---------------------------------


def test_single_cube_box_dropping_the_team_beaver_captain_is_next_box():
    # The box drops the team's beaver: every member wins; the captain B is next box.
    state = run(seated("ABCD", cube_mode="single", beavers=True), double("box"), beaver("B"),
                take("C"), take("D"), drop("team"))
    assert state.game is None
    assert (state.box, state.captain, state.line) == ("B", "C", ["D", "A"])
