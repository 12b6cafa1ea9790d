"""All but one decline (RULES 2.6) and extra cubes for a lone taker (RULES 2.7)."""

from __future__ import annotations

import pytest

from chouette.table import TableError, apply_event

from .helpers import beaver, double, drop, points, result, run, seated, seats, take


def _lone_take(order="ABCDE", **settings):
    return run(seated(order, **settings), double("box"), drop("B"), drop("C"), drop("D"), take("E"))


def test_forced_drop_lone_taker_must_drop_too_with_five_players():
    state = _lone_take()
    assert state.game is None
    assert points(state) == {"A": 4, "B": -1, "C": -1, "D": -1, "E": -1}
    assert seats(state) == ("A", None, "C", "DEB")


def test_all_but_one_not_applied_below_the_minimum_players():
    state = run(seated("ABCD"), double("box"), drop("B"), drop("C"), take("D"))
    assert state.game is not None and state.game.cubes["D"].value == 2


def test_all_but_one_minimum_is_a_setting():
    state = run(seated("ABCD", all_but_one_min_players=4), double("box"), drop("B"), drop("C"),
                take("D"))
    assert state.game is None


def test_all_but_one_off():
    assert _lone_take(all_but_one="off").game is not None


def test_all_but_one_only_when_the_box_doubled_every_member_still_playing():
    state = run(seated("ABCDE"), double("box", "B", "C", "D"), drop("B"), drop("C"), take("D"))
    assert state.game is not None


def test_all_but_one_in_single_cube_mode():
    assert _lone_take(cube_mode="single").game is None


def test_mandatory_beaver_lone_taker_who_beavers_plays_on():
    state = run(seated("ABCDE", all_but_one="mandatory_beaver", beavers=True), double("box"),
                drop("B"), drop("C"), drop("D"), beaver("E"), take("E"))
    assert state.game is not None and state.game.cubes["E"].value == 4


def test_mandatory_beaver_lone_take_becomes_a_drop():
    state = _lone_take(all_but_one="mandatory_beaver", beavers=True)
    assert state.game is None and points(state)["E"] == -1


def test_extras_example_of_the_rules():
    # Box A doubles all four; B, C, D drop, E takes; B, C, D give extras; E wins a single.
    state = _lone_take(extras=True)
    state = run(state, *[{"type": "extra", "from": g, "to": "E"} for g in "BCD"], result("team"))
    assert points(state) == {"A": 1, "B": -4, "C": -4, "D": -4, "E": 11}


def test_extra_settled_like_any_cube_gammon_for_the_box():
    state = _lone_take(extras=True)
    state = run(state, {"type": "extra", "from": "B", "to": "E"}, result("box", "gammon"))
    # E: -4 to the box, fee +1, extra -4 to B.
    assert points(state) == {"A": 3 + 4, "B": -1 - 1 + 4, "C": -1, "D": -1, "E": -4 + 1 - 4}


def test_extra_only_from_a_member_who_dropped_and_only_to_the_lone_taker():
    state = _lone_take(extras=True)
    with pytest.raises(TableError, match="extra goes to the lone taker, E"):
        apply_event(state, {"type": "extra", "from": "B", "to": "C"})
    with pytest.raises(TableError, match="already given"):
        apply_event(run(state, {"type": "extra", "from": "B", "to": "E"}),
                    {"type": "extra", "from": "B", "to": "E"})


def test_extras_off_refused():
    state = run(seated("ABCD"), double("box"), drop("B"), drop("C"), take("D"))
    with pytest.raises(TableError, match="extras are not played"):
        apply_event(state, {"type": "extra", "from": "B", "to": "D"})


def test_extras_only_right_after_the_initial_double():
    state = run(_lone_take(extras=True), double("E"), take("E"))
    with pytest.raises(TableError, match="only right after a lone take"):
        apply_event(state, {"type": "extra", "from": "B", "to": "E"})
