"""Second review pass, on the fixes of the first findings (commit 05ed5a4): extra cubes that
can be redoubled, per-game stakes, drops booked at once."""

from __future__ import annotations

import json

import pytest

from chouette.table import TableError, apply_event, new_table
from chouette.table.state import TableState, resume

from .helpers import beaver, cents, double, drop, points, result, run, seated, take


def join(name, **extra):
    return {"type": "join", "player": name, **extra}


def leave(name):
    return {"type": "leave", "player": name}


def extra(giver, taker="E"):
    return {"type": "extra", "from": giver, "to": taker}


def double_extra(by, giver="B"):
    return {"type": "double", "by": by, "extra": giver}


def answer_extra(answer, giver="B"):
    return {"type": answer, "extra": giver}


def lone_take_with_extra(**settings):
    return run(seated("ABCDE", extras=True, **settings), double("box"), drop("B"), drop("C"),
               drop("D"), take("E"), extra("B"))


# --- per-game stakes ---------------------------------------------------------------------


def test_a_drop_keeps_the_stake_in_force_when_it_was_made():
    state = new_table({"per_player_stakes": True, "stake_cents": 100})
    for name in "ABCD":
        state = apply_event(state, join(name, stake_cents=100))
    state = run(state, {"type": "order", "players": list("ABCD")}, double("box", "D"),
                drop("D"))
    assert cents(state)["D"] == -100
    state = run(state, leave("D"), join("D", stake_cents=20))
    assert cents(state)["D"] == -100
    state = run(state, result("box"))
    assert cents(state) == {"A": 300, "B": -100, "C": -100, "D": -100}


def test_stakes_of_a_finished_game_are_kept_after_a_rejoin():
    state = new_table({"per_player_stakes": True, "stake_cents": 100})
    for name, stake in zip("ABC", (100, 300, 50), strict=False):
        state = apply_event(state, join(name, stake_cents=stake))
    state = run(state, {"type": "order", "players": list("ABC")}, result("box", "gammon"))
    assert cents(state) == {"A": 300, "B": -200, "C": -100}
    state = run(state, leave("C"), join("C", stake_cents=500), result("box"))
    # Game 2 (box A, captain C, line B): C now plays at min(100, 500) = 100.
    assert cents(state) == {"A": 500, "B": -300, "C": -200}


# --- extra cubes redoubled (RULES 2.7) ---------------------------------------------------


def test_extra_redoubled_by_the_taker_beavered_by_the_giver_settles_with_the_gammon():
    state = run(lone_take_with_extra(beavers=True), double_extra("E"), answer_extra("beaver"),
                answer_extra("take"), result("team", "gammon"))
    # E vs A: 2 x 2 = 4; the extra: 8 x 2 = 16 plus the fee.
    assert points(state) == {"A": -1, "B": -18, "C": -1, "D": -1, "E": 21}


def test_extra_redoubled_by_its_giver_and_dropped_by_the_taker():
    state = run(lone_take_with_extra(), double_extra("E"), answer_extra("take"),
                double_extra("B"), answer_extra("drop"))
    # E dropped the extra at 4: E -4 + 1 fee to B, booked at once; the game goes on.
    assert state.game is not None
    assert points(state) == {"A": 3, "B": -1 + 3, "C": -1, "D": -1, "E": -3}
    state = run(state, result("team"))
    assert points(state) == {"A": 1, "B": 2, "C": -1, "D": -1, "E": -1}


def test_only_the_owner_of_the_extra_may_redouble_it():
    state = lone_take_with_extra()
    with pytest.raises(TableError, match="B cannot double the extra cube: the other side owns it"):
        apply_event(state, double_extra("B"))
    with pytest.raises(TableError, match="C does not hold the extra cube B gave E"):
        apply_event(state, double_extra("C"))


def test_nothing_else_while_an_extra_redouble_waits_except_the_answer():
    state = run(lone_take_with_extra(), double_extra("E"))
    for event in (result("team"), double("box", "E")):
        with pytest.raises(TableError, match="answer the open double first"):
            apply_event(state, event)


def test_a_member_may_not_double_while_his_extra_redouble_waits():
    state = run(lone_take_with_extra(), double_extra("E"))
    with pytest.raises(TableError, match="answer the open double first"):
        apply_event(state, double("E"))


def test_extra_with_a_pending_offer_survives_a_snapshot():
    state = run(lone_take_with_extra(beavers=True), double_extra("E"))
    snap = json.loads(json.dumps(state.snapshot()))
    assert TableState.from_snapshot(snap).game.extras == state.game.extras
    resumed = resume(snap, [answer_extra("take"), result("box")])
    assert points(resumed) == {"A": 3 + 2, "B": -1 + 4 - 1, "C": -1, "D": -1, "E": -2 - 4 + 1}


# --- one change of captain per team answer (single cube) ---------------------------------


def test_single_cube_box_dropping_the_team_beaver_captain_is_next_box():
    # The box drops the team's beaver: every member wins; the captain B is next box.
    state = run(seated("ABCD", cube_mode="single", beavers=True), double("box"), beaver("B"),
                take("C"), take("D"), drop("team"))
    assert state.game is None
    assert (state.box, state.captain, state.line) == ("B", "C", ["D", "A"])
