"""Money per game (RULES 2.10, 2.11), automatic doubles (RULES 1.2) and the opening roll."""

from __future__ import annotations

import pytest

from chouette.table import TableError, apply_event, new_table

from .helpers import cents, double, points, result, run, seated, take


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
