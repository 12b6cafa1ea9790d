"""Money per game (docs/rules.md 2.10, 2.11), automatic doubles (docs/rules.md 1.2) and the opening roll."""

from __future__ import annotations

import pytest

from chouette.table import TableError, apply_event, new_table

from .helpers import beaver, cents, double, drop, join, leave, offer, points, result, run, seated, take


def tie(n=3):
    return {"type": "opening_roll", "box": n, "team": n}


def staked(stakes, **settings):
    """Players joined with per-player stakes, ordered as given (box, captain, line)."""
    state = new_table({"per_player_stakes": True, "stake_cents": 100, **settings})
    for name, stake in stakes.items():
        state = apply_event(state, join(name, stake_cents=stake) if stake is not None
                            else join(name))
    return apply_event(state, {"type": "order", "players": list(stakes)})


def test_one_stake_money_is_points_times_stake():
    state = run(seated("ABC", stake_cents=250), result("team", "gammon"))
    assert cents(state) == {"A": -1000, "B": 500, "C": 500}


def test_per_player_stakes_pair_plays_at_the_lower_stake():
    state = new_table({"per_player_stakes": True, "stake_cents": 100})
    for name, stake in (("A", 500), ("B", 200), ("C", 1000)):
        state = apply_event(state, {"type": "join", "player": name, "stake_cents": stake})
    state = run(state, {"type": "order", "players": ["A", "B", "C"]}, result("team"))
    assert cents(state) == {"A": -700, "B": 200, "C": 500}


def test_stake_per_player_refused_when_the_table_has_one_stake():
    with pytest.raises(TableError, match="one stake for everyone"):
        apply_event(new_table(), {"type": "join", "player": "A", "stake_cents": 300})


def test_automatic_double_on_opening_tie_up_to_the_cap():
    state = seated("ABC", automatic_doubles=2)
    for _ in range(3):
        state = run(state, {"type": "opening_roll", "box": 4, "team": 4})
    assert [c.value for c in state.game.cubes.values()] == [4, 4]  # capped at two
    state = run(state, {"type": "opening_roll", "box": 3, "team": 1})
    assert state.game.mode == "board" and state.game.on_roll == "box"


def test_automatic_doubles_off_tie_just_rolls_again():
    state = run(seated("ABC"), {"type": "opening_roll", "box": 4, "team": 4})
    assert [c.value for c in state.game.cubes.values()] == [1, 1]


def test_automatic_doubles_do_not_count_as_a_turn_for_jacoby():
    state = run(seated("ABC", automatic_doubles=1, jacoby=True),
                {"type": "opening_roll", "box": 2, "team": 2}, result("team", "gammon"))
    # The cube is at 2 but was never turned: single.
    assert points(state) == {"A": -4, "B": 2, "C": 2}


def test_game_points_and_cents_sum_to_zero():
    state = run(seated("ABCDE", stake_cents=75), double("box", "B", "C"), take("B"),
                {"type": "drop", "cube": "C"}, double("D"), take("D"), result("box", "backgammon"))
    assert sum(points(state).values()) == 0 and sum(cents(state).values()) == 0


# --- stakes ------------------------------------------------------------------------------


def test_per_player_stakes_with_a_partner_split_in_cents_odd_cent_to_the_box():
    # Partner B's own stake (100) plays no part: each pair is box-member (choice, docs/rules.md 2.11).
    state = run(staked({"A": 500, "B": 100, "C": 300, "D": 201}, partner_min_players=4),
                offer("B", True), result("box"))
    assert points(state) == {"A": 1, "B": 1, "C": -1, "D": -1}
    assert cents(state) == {"A": 251, "B": 250, "C": -300, "D": -201}


def test_per_player_stakes_partner_share_of_a_loss_odd_cent_to_the_box():
    state = run(staked({"A": 500, "B": 100, "C": 300, "D": 201}, partner_min_players=4),
                offer("B", True), result("team"))
    assert cents(state) == {"A": -251, "B": -250, "C": 300, "D": 201}


def test_one_stake_with_a_partner_money_follows_the_split_points():
    state = run(seated("ABCD", partner_min_players=4, stake_cents=150), offer("B", True),
                double("box", "C"), take("C"), result("box"))
    # Box side +3 points: A 2, B 1 -> 300 and 150 (not 225 each).
    assert cents(state) == {"A": 300, "B": 150, "C": -300, "D": -150}


def test_player_joining_without_a_stake_plays_at_the_table_stake():
    state = run(staked({"A": 500, "B": None, "C": 50}), result("team"))
    assert cents(state) == {"A": -150, "B": 100, "C": 50}


def test_a_zero_stake_plays_for_nothing_but_scores_points():
    state = run(staked({"A": 500, "B": 0, "C": 500}), result("team", "gammon"))
    assert points(state) == {"A": -4, "B": 2, "C": 2}
    assert cents(state) == {"A": -1000, "B": 0, "C": 1000}


def test_rejoining_at_another_stake_does_not_change_past_games():
    state = run(staked({"A": 100, "B": 100, "C": 100}), result("team"))
    assert cents(state) == {"A": -200, "B": 100, "C": 100}
    state = run(state, leave("C"), join("C", stake_cents=50))
    assert cents(state) == {"A": -200, "B": 100, "C": 100}


def test_a_leaver_keeps_their_ledger_balance():
    state = run(seated("ABCD"), double("box", "D"), drop("D"), leave("D"), result("box"))
    assert points(state) == {"A": 3, "B": -1, "C": -1, "D": -1}
    assert "D" not in (state.box, state.captain, *state.line)


# --- the Jacoby rule -----------------------------------------------------------------------


def test_jacoby_a_beavered_cube_is_turned():
    state = run(seated("ABC", jacoby=True, beavers=True), double("box", "B"), beaver("B"),
                take("B"), result("team", "gammon"))
    assert points(state) == {"A": -9, "B": 8, "C": 1}


def test_jacoby_a_dropped_double_turns_nothing():
    state = run(seated("ABC", jacoby=True), double("box", "B"), drop("B"),
                result("box", "backgammon"))
    assert points(state) == {"A": 2, "B": -1, "C": -1}


def test_jacoby_backgammon_single_on_an_unturned_cube():
    state = run(seated("ABCD", jacoby=True), result("team", "backgammon"))
    assert points(state) == {"A": -3, "B": 1, "C": 1, "D": 1}


# --- automatic doubles (docs/rules.md 1.2, 1.7) ----------------------------------------------------


def test_automatic_doubles_with_jacoby_turned_cube_counts_the_gammon():
    state = run(seated("ABC", automatic_doubles=1, jacoby=True), tie(),
                double("box", "C"), take("C"), result("team", "gammon"))
    # B: 2 never turned -> single 2; C: 4 turned -> gammon 8.
    assert points(state) == {"A": -10, "B": 2, "C": 8}


def test_automatic_doubles_a_drop_loses_the_automatic_value():
    state = run(seated("ABC", automatic_doubles=2), tie(), tie(), double("box", "B"),
                drop("B"), result("box"))
    assert points(state) == {"A": 8, "B": -4, "C": -4}


def test_automatic_doubles_cube_stays_in_the_middle_either_side_may_double():
    state = run(seated("ABC", automatic_doubles=1), tie())
    cube = state.game.cubes["B"]
    assert (cube.value, cube.owner, cube.turned) == (2, None, False)
    run(state, double("B"))
    run(state, double("box", "B"))


def test_automatic_doubles_in_single_cube_mode():
    state = run(seated("ABCD", cube_mode="single", automatic_doubles=3), tie(), tie())
    assert [c.value for c in state.game.cubes.values()] == [4, 4, 4]
    state = run(state, double("box"), drop("B"), take("C"), take("D"), result("box"))
    assert points(state) == {"A": 4 + 16, "B": -4, "C": -8, "D": -8}


def test_automatic_doubles_capped_at_the_setting():
    state = run(seated("ABC", automatic_doubles=1), tie(), tie(), tie())
    assert [c.value for c in state.game.cubes.values()] == [2, 2]


def test_no_automatic_double_after_a_cube_action():
    state = run(seated("ABC", automatic_doubles=2), double("box", "B"), take("B"))
    with pytest.raises(TableError, match="before any cube action"):
        apply_event(state, tie())


def test_automatic_doubles_then_scoresheet_result():
    state = run(seated("ABC", automatic_doubles=1), tie(), result("box"))
    assert points(state) == {"A": 4, "B": -2, "C": -2}


# --- every game sums to zero -------------------------------------------------------------


def test_points_and_cents_sum_to_zero_with_partner_extras_and_odd_stakes():
    state = run(seated("ABCDEF", partner_min_players=6, extras=True, stake_cents=33),
                offer("B", True), double("box"), drop("C"), drop("D"), drop("E"), take("F"),
                {"type": "extra", "from": "C", "to": "F"}, {"type": "extra", "from": "E",
                                                            "to": "F"},
                double("F"), take("F"), result("box", "gammon"))
    assert sum(points(state).values()) == 0 and sum(cents(state).values()) == 0
    # F: -4 x 2 = -8 to the box side; extras: -(2 x 2) + 1 = -3 each to C and E.
    assert points(state)["F"] == -8 - 3 - 3
    assert points(state)["C"] == -1 + 3


# --- when a drop is booked (docs/rules.md 2.10: "at the moment of the drop") ----------------------


def test_a_drop_is_booked_at_the_moment_of_the_drop():
    state = run(seated("ABCD"), double("box", "D"), drop("D"), leave("D"))
    assert state.game is not None
    assert points(state) == {"A": 1, "B": 0, "C": 0, "D": -1}


def test_a_drop_is_in_the_balance_once_the_game_ends():
    state = run(seated("ABCD"), double("box", "D"), drop("D"), leave("D"), result("team"))
    assert points(state) == {"A": 1 - 2, "B": 1, "C": 1, "D": -1}


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
