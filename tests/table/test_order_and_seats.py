"""Starting order, joining and leaving (RULES 2.1, 2.2)."""

from __future__ import annotations

import re

import pytest

from chouette.table import TableError, apply_event, new_table

from .helpers import double, drop, result, run, seated, seats, take


def _joined(*names, **settings):
    state = new_table(settings)
    for name in names:
        state = apply_event(state, {"type": "join", "player": name})
    return state


def test_starting_order_example_of_the_rules():
    # A=5, B=6, C=3, D=5; A and D re-roll 2 and 4: box B, captain D, line A, C.
    state = _joined("A", "B", "C", "D")
    state = run(state, {"type": "order_roll", "rolls": {"A": 5, "B": 6, "C": 3, "D": 5}})
    assert not state.ordered
    state = run(state, {"type": "order_roll", "rolls": {"A": 2, "D": 4}})
    assert seats(state) == ("B", None, "D", "AC")


def test_only_tied_players_roll_again():
    state = run(_joined("A", "B", "C", "D"),
                {"type": "order_roll", "rolls": {"A": 5, "B": 6, "C": 3, "D": 5}})
    with pytest.raises(TableError, match="only tied players roll again"):
        apply_event(state, {"type": "order_roll", "rolls": {"A": 2, "C": 4}})
    with pytest.raises(TableError, match="only tied players roll again"):
        apply_event(state, {"type": "order_roll", "rolls": {"A": 2, "D": 4, "B": 1}})


def test_ties_in_two_places_reroll_separately_or_together():
    state = run(_joined("A", "B", "C", "D", "E"),
                {"type": "order_roll", "rolls": {"A": 6, "B": 6, "C": 2, "D": 2, "E": 4}})
    one = run(state, {"type": "order_roll", "rolls": {"C": 1, "D": 3}},
              {"type": "order_roll", "rolls": {"A": 1, "B": 5}})
    both = run(state, {"type": "order_roll", "rolls": {"A": 1, "B": 5, "C": 1, "D": 3}})
    assert seats(one) == seats(both) == ("B", None, "A", "EDC")


def test_every_player_rolls_for_the_order():
    state = _joined("A", "B", "C")
    with pytest.raises(TableError, match="missing: C"):
        apply_event(state, {"type": "order_roll", "rolls": {"A": 5, "B": 6}})


def test_order_die_must_be_one_to_six():
    state = _joined("A", "B")
    with pytest.raises(TableError, match="from 1 to 6"):
        apply_event(state, {"type": "order_roll", "rolls": {"A": 7, "B": 6}})


def test_recorded_order_seats_box_captain_line():
    state = seated("CAB")
    assert seats(state) == ("C", None, "A", "B")


def test_recorded_order_must_name_everyone_once():
    state = _joined("A", "B", "C")
    with pytest.raises(TableError, match="exactly once"):
        apply_event(state, {"type": "order", "players": ["A", "B", "B"]})


def test_order_needs_two_players():
    with pytest.raises(TableError, match="at least two"):
        apply_event(_joined("A"), {"type": "order_roll", "rolls": {"A": 3}})


def test_join_of_a_name_already_seated_is_refused():
    state = seated("ABC")
    with pytest.raises(TableError, match="already at the table"):
        apply_event(state, {"type": "join", "player": "B"})


def test_newcomer_joins_at_end_of_line_at_once():
    state = run(seated("ABC"), double("box", "B"), {"type": "join", "player": "Z"})
    assert state.line == ["C", "Z"]
    # He plays from the next game: his cube is not in this one.
    with pytest.raises(TableError, match="Z does not play this game"):
        apply_event(run(state, take("B")), double("box", "Z"))


def test_join_after_next_rotation_goes_behind_whoever_goes_to_the_end():
    state = seated("ABCD", join_position="after_next_rotation")
    state = run(state, double("box", "B"), {"type": "join", "player": "Z"})
    assert "Z" not in state.line
    state = run(state, take("B"), result("box"))
    assert seats(state) == ("A", None, "C", "DBZ")


def test_join_between_games_with_after_next_rotation_is_immediate():
    state = run(seated("ABC", join_position="after_next_rotation"), {"type": "join", "player": "Z"})
    assert state.line == ["C", "Z"]


def test_player_with_live_cube_cannot_leave():
    state = run(seated("ABCD"), double("box", "C"), take("C"))
    with pytest.raises(TableError, match="C has a live cube"):
        apply_event(state, {"type": "leave", "player": "C"})
    with pytest.raises(TableError, match="box side"):
        apply_event(state, {"type": "leave", "player": "A"})


def test_player_whose_cube_was_dropped_may_leave_during_the_game():
    state = run(seated("ABCD"), double("box", "C"), drop("C"), {"type": "leave", "player": "C"})
    assert seats(state) == ("A", None, "B", "D")


def test_box_leaving_between_games_captain_becomes_box():
    state = run(seated("ABCD"), {"type": "leave", "player": "A"})
    assert seats(state) == ("B", None, "C", "D")


def test_captain_leaving_first_in_line_becomes_captain():
    state = run(seated("ABCD"), {"type": "leave", "player": "B"})
    assert seats(state) == ("A", None, "C", "D")


def test_leaver_keeps_his_balance_and_may_rejoin_at_the_end():
    state = run(seated("ABC"), result("team"), {"type": "leave", "player": "A"})
    assert "A" not in state.seated
    from .helpers import points
    assert points(state)["A"] == -2
    state = run(state, {"type": "join", "player": "A"})
    assert state.line[-1] == "A" and points(state)["A"] == -2


def test_unknown_player_is_refused():
    with pytest.raises(TableError, match="Q is not at this table"):
        apply_event(seated("ABC"), double("box", "Q"))


def test_reserved_and_empty_names_are_refused():
    for name, said in (("box", "'box' is a word the table uses"), ("Team", "'Team' is a word the table uses"),
                       ("", "the player needs a name"), ("   ", "the player needs a name"),
                       (None, "the player needs a name"), (3, "the player needs a name")):
        with pytest.raises(TableError, match=re.escape(said)):
            apply_event(new_table(), {"type": "join", "player": name})


def test_game_needs_the_order_first():
    state = _joined("A", "B", "C")
    with pytest.raises(TableError, match="starting order first"):
        apply_event(state, result("box"))
