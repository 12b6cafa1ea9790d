"""All but one decline (docs/rules.md 2.6) and extra cubes for a lone taker (docs/rules.md 2.7)."""

from __future__ import annotations

import json

import pytest

from chouette.table import TableError, apply_event, new_table
from chouette.table.state import TableState, resume

from .helpers import beaver, cents, double, drop, join, leave, offer, points, result, run, seated, seats, take


def _lone_take(order="ABCDE", **settings):
    return run(seated(order, **settings), double("box"), drop("B"), drop("C"), drop("D"), take("E"))


def extra(giver, taker="E"):
    return {"type": "extra", "from": giver, "to": taker}


def lone_take(order="ABCDE", **settings):
    return run(seated(order, **settings), double("box"), drop("B"), drop("C"), drop("D"),
               take("E"))


def extras_of(state):
    return {(g, t): p for g, t, p in state.games[-1].extras}


def double_extra(by, giver="B"):
    return {"type": "double", "by": by, "extra": giver}


def answer_extra(answer, giver="B"):
    return {"type": answer, "extra": giver}


def lone_take_with_extra(**settings):
    return run(seated("ABCDE", extras=True, **settings), double("box"), drop("B"), drop("C"),
               drop("D"), take("E"), extra("B"))


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


# --- 2.6 all but one ---------------------------------------------------------------------


def test_all_but_one_counts_the_partner_among_the_five_players():
    state = run(seated("ABCDE", partner_min_players=5), offer("B", True), double("box"),
                drop("C"), drop("D"), take("E"))
    assert state.game is None
    # Box side +3: A +2 (the odd point), B +1.
    assert points(state) == {"A": 2, "B": 1, "C": -1, "D": -1, "E": -1}
    assert seats(state) == ("A", "B", "D", "EC")


def test_all_but_one_on_a_later_double_of_every_member_still_playing():
    state = run(seated("ABCDE"), double("box", "B"), drop("B"), double("box", "C", "D", "E"),
                drop("C"), drop("D"), take("E"))
    assert state.game is None
    assert points(state) == {"A": 4, "B": -1, "C": -1, "D": -1, "E": -1}


def test_all_but_one_with_only_two_members_still_playing():
    state = run(seated("ABCDE"), double("box", "C"), drop("C"), double("box", "D"), drop("D"),
                double("box", "B", "E"), drop("B"), take("E"))
    assert state.game is None and points(state)["E"] == -1


def test_all_but_one_not_when_the_box_could_not_double_every_live_cube():
    # B owns their cube at 2: the box doubles the three others; C and D drop, E takes.
    state = run(seated("ABCDE"), double("box", "B"), take("B"),
                double("box", "C", "D", "E"), drop("C"), drop("D"), take("E"))
    assert state.game is not None and state.game.cubes["E"].value == 2


def test_all_but_one_not_when_two_take():
    state = run(seated("ABCDEF"), double("box"), drop("B"), drop("C"), drop("D"), take("E"),
                take("F"))
    assert state.game is not None


def test_all_but_one_forced_drop_turns_a_lone_beaver_into_a_drop():
    state = run(seated("ABCDE", beavers=True), double("box"), drop("B"), drop("C"),
                drop("D"), beaver("E"))
    assert state.game is None and points(state)["E"] == -1


def test_all_but_one_lone_taker_is_the_captain():
    state = run(seated("ABCDE"), double("box"), take("B"), drop("C"), drop("D"), drop("E"))
    assert state.game is None
    assert seats(state) == ("A", None, "C", "DEB")


def test_mandatory_beaver_box_may_drop_the_lone_beaver():
    state = run(seated("ABCDE", all_but_one="mandatory_beaver", beavers=True), double("box"),
                drop("B"), drop("C"), drop("D"), beaver("E"), drop("E"))
    assert state.game is None
    # E took at 2 and beavered; the box drops: E wins 2; the others lost 1 each.
    assert points(state) == {"A": 3 - 2, "B": -1, "C": -1, "D": -1, "E": 2}
    # B dropped, so E was captain; the box dropped E's cube: E beat the box.
    assert seats(state) == ("E", None, "C", "DBA")


def test_all_but_one_does_not_count_an_immediate_joiner_who_does_not_play_this_game():
    # Choice: the count is of the players of this game (the box side and the members who
    # started it); E joined during it and has no cube, so four play and the rule is off.
    state = run(seated("ABCD"), double("box", "B"), take("B"), join("E"), double("B"),
                take("B"), double("box", "B", "C", "D"), drop("B"), drop("C"), take("D"))
    assert state.game is not None


def test_all_but_one_does_not_count_a_joiner_waiting_for_the_next_rotation():
    # The same game with join_position after_next_rotation: E is not counted (see report:
    # the count depends on the join setting).
    state = run(seated("ABCD", join_position="after_next_rotation"), double("box", "B"),
                take("B"), join("E"), double("B"), take("B"),
                double("box", "B", "C", "D"), drop("B"), drop("C"), take("D"))
    assert state.game is not None


def test_all_but_one_counts_a_dropper_who_left_this_game():
    # B played this game (and dropped) before leaving: five play it, the rule applies.
    state = run(seated("ABCDE"), double("box", "B"), drop("B"), leave("B"),
                double("box", "C", "D", "E"), drop("C"), drop("D"), take("E"))
    assert state.game is None


# --- 2.7 extras --------------------------------------------------------------------------


def test_extras_example_arithmetic_step_by_step():
    # docs/rules.md 2.7: B, C, D pay A 1 each and E 1 each at once; E wins a single: A pays E 2,
    # B, C, D pay E 2 each: A +1, B -4, C -4, D -4, E +11.
    state = run(lone_take(extras=True), extra("B"), extra("C"), extra("D"), result("team"))
    assert points(state) == {"A": 3 - 2, "B": -1 - 1 - 2, "C": -4, "D": -4, "E": 2 + 3 * 3}
    assert extras_of(state) == {("B", "E"): 3, ("C", "E"): 3, ("D", "E"): 3}


def test_extras_backgammon_for_the_team():
    state = run(lone_take(extras=True), extra("C"), result("team", "backgammon"))
    # E: 2 x 3 = 6 from A; extra 2 x 3 = 6 + 1 fee from C.
    assert points(state) == {"A": 3 - 6, "B": -1, "C": -1 - 7, "D": -1, "E": 6 + 7}


def test_extras_with_jacoby_count_the_gammon_because_the_cube_was_turned():
    state = run(lone_take(extras=True, jacoby=True), extra("B"), result("team", "gammon"))
    assert points(state) == {"A": -1, "B": -6, "C": -1, "D": -1, "E": 9}


def test_extras_replace_forced_drop_even_below_five_players():
    state = run(seated("ABCD", extras=True), double("box"), drop("B"), drop("C"), take("D"))
    assert state.game.extras_open == ("D", ("B", "C"))


def test_extras_need_a_lone_take_of_a_double_of_every_member():
    # Choice: the box's first double of only some members, with one taker, gives no extras.
    state = run(seated("ABCDE", extras=True), double("box", "B", "C", "D"), drop("B"),
                drop("C"), take("D"))
    assert state.game.extras_open is None


def test_extras_replace_mandatory_beaver_too():
    # Ambiguity: docs/rules.md 2.7 says extras replace forced_drop; with mandatory_beaver the code lets
    # the lone taker take without a beaver and opens the extras.
    state = lone_take(extras=True, all_but_one="mandatory_beaver", beavers=True)
    assert state.game is not None and state.game.extras_open == ("E", ("B", "C", "D"))


def test_extras_replace_forced_drop_only_on_the_initial_double():
    # Choice: extras apply to the box's initial double only (docs/rules.md 2.7), and replace the
    # forced drop there; a lone take of a later double of everyone is forced to drop.
    state = run(seated("ABCDE", extras=True), double("box", "B"), take("B"), double("B"),
                take("B"), double("box", "B", "C", "D", "E"), drop("B"), drop("C"),
                drop("D"), take("E"))
    assert state.game is None


def test_extras_only_from_members_who_dropped_that_double():
    # Choice: "any teammate" is read as the members who dropped; F, whose own double the
    # box dropped before, is out of the game and may not give one.
    state = run(seated("ABCDEF", extras=True), double("F"), drop("F"), double("box"),
                drop("B"), drop("C"), drop("D"), take("E"))
    with pytest.raises(TableError, match="F cannot give an extra"):
        apply_event(state, extra("F"))


def test_extras_window_closes_with_the_next_cube_action():
    state = run(lone_take(extras=True), extra("B"), double("E"))
    with pytest.raises(TableError, match="only right after a lone take"):
        apply_event(state, extra("C"))


def test_extra_stays_live_when_the_taker_drops_a_box_redouble():
    # docs/rules.md 2.5, 2.7: an extra is a cube; when E's own cube ends by their drop the game goes
    # on for the extra, and the board's result settles it (fee kept).
    state = run(lone_take(extras=True), extra("B"), double("E"), take("E"),
                double("box", "E"), drop("E"))
    assert state.game is not None and not state.game.live
    assert points(state) == {"A": 3 + 4, "B": -1 - 1, "C": -1, "D": -1, "E": -4 + 1}
    with pytest.raises(TableError, match="E has a live cube"):
        apply_event(state, leave("E"))
    won = run(state, result("team"))
    assert extras_of(won) == {("B", "E"): 2 + 1}
    assert points(won) == {"A": 7, "B": -1 - 3, "C": -1, "D": -1, "E": -4 + 3}
    lost = run(state, result("box"))
    assert extras_of(lost) == {("B", "E"): -2 + 1}
    assert points(lost) == {"A": 7, "B": -1 + 1, "C": -1, "D": -1, "E": -4 - 1}


def test_extra_stays_live_when_the_box_drops_the_takers_double():
    # The box's drop of E's redouble ends E's own cube (+2), not B's extra: the board's
    # result settles it.
    state = run(lone_take(extras=True), extra("B"), double("E"), drop("E"))
    assert state.game is not None
    state = run(state, result("box"))
    assert extras_of(state) == {("B", "E"): -2 + 1}
    assert points(state) == {"A": 3 - 2, "B": -1 + 1, "C": -1, "D": -1, "E": 2 - 1}
    assert len(state.games) == 1


def test_extras_in_single_cube_mode():
    state = run(lone_take(extras=True, cube_mode="single"), extra("B"), extra("C"),
                extra("D"), result("team"))
    assert points(state) == {"A": 1, "B": -4, "C": -4, "D": -4, "E": 11}
    assert seats(state) == ("E", None, "C", "DBA")


def test_extras_with_per_player_stakes_play_at_the_lower_stake_of_giver_and_taker():
    state = new_table({"per_player_stakes": True, "stake_cents": 100, "extras": True})
    for name, stake in zip("ABCDE", (100, 100, 30, 100, 50), strict=False):
        state = apply_event(state, join(name, stake_cents=stake))
    state = run(state, {"type": "order", "players": list("ABCDE")}, double("box"),
                drop("B"), drop("C"), drop("D"), take("E"), extra("C"), result("team"))
    # E vs A at 50: +100; extra C-E (3 points) at 30: 90.
    assert cents(state) == {"A": 100 + 30 + 100 - 100, "B": -100, "C": -30 - 90, "D": -100,
                            "E": 100 + 90}


def test_extra_cube_taker_may_redouble_it():
    state = run(lone_take(extras=True), extra("B"))
    state = run(state, {"type": "double", "by": "E", "extra": "B"},
                {"type": "take", "extra": "B"})
    assert state.game.cubes["E"].value == 2  # E's own cube against the box is untouched
    state = run(state, result("team"))
    assert extras_of(state) == {("B", "E"): 4 + 1}


# --- extra cubes redoubled (docs/rules.md 2.7) ---------------------------------------------------


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


def test_a_member_may_not_double_while_their_extra_redouble_waits():
    state = run(lone_take_with_extra(), double_extra("E"))
    with pytest.raises(TableError, match="answer the open double first"):
        apply_event(state, double("E"))


def test_extra_with_a_pending_offer_survives_a_snapshot():
    state = run(lone_take_with_extra(beavers=True), double_extra("E"))
    snap = json.loads(json.dumps(state.snapshot()))
    assert TableState.from_snapshot(snap).game.extras == state.game.extras
    resumed = resume(snap, [answer_extra("take"), result("box")])
    assert points(resumed) == {"A": 3 + 2, "B": -1 + 4 - 1, "C": -1, "D": -1, "E": -2 - 4 + 1}
