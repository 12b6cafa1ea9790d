"""Starting order, joining and leaving (docs/rules.md 2.1, 2.2)."""

from __future__ import annotations

import json
import re

import pytest

from chouette.table import TableError, apply_event, new_table

from .helpers import double, drop, join, leave, offer, points, result, run, seated, seats, take


def _joined(*names, **settings):
    state = new_table(settings)
    for name in names:
        state = apply_event(state, {"type": "join", "player": name})
    return state


EIGHT = "ABCDEFGH"


AFTER = {"join_position": "after_next_rotation"}


def roll(**dice):
    return {"type": "order_roll", "rolls": dice}


def joined(names, **settings):
    state = new_table(settings)
    for name in names:
        state = apply_event(state, join(name))
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
    # Z plays from the next game: their cube is not in this one.
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


def test_leaver_keeps_their_balance_and_may_rejoin_at_the_end():
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


# --- 2.1 starting order ------------------------------------------------------------------


def test_order_roll_three_way_tie_then_a_tie_inside_it():
    state = run(joined("ABCDEF"), roll(A=6, B=6, C=6, D=2, E=2, F=4))
    assert state.order_groups == [["A", "B", "C"], ["F"], ["D", "E"]]
    state = run(state, roll(A=3, B=3, C=5, D=1, E=1))
    # C won the first place; A and B still share the second and third; D and E tie again.
    assert state.order_groups == [["C"], ["A", "B"], ["F"], ["D", "E"]]
    with pytest.raises(TableError, match="only tied players roll again"):
        apply_event(state, roll(A=1, B=2, C=3))
    state = run(state, roll(A=2, B=4), roll(D=6, E=5))
    assert seats(state) == ("C", None, "B", "AFDE")


def test_order_roll_tie_for_the_last_places_only():
    state = run(joined("ABCD"), roll(A=6, B=5, C=1, D=1), roll(C=2, D=3))
    assert seats(state) == ("A", None, "B", "DC")


def test_order_roll_two_players_tie_roll_again():
    state = run(joined("AB"), roll(A=4, B=4))
    assert not state.ordered
    state = run(state, roll(A=1, B=2))
    assert seats(state) == ("B", None, "A", "")


def test_order_roll_needs_two_players():
    with pytest.raises(TableError, match="at least two players"):
        apply_event(joined("A"), roll(A=4))


def test_player_joining_during_the_tie_rolls_is_seated_last():
    # Choice: a newcomer while ties are re-rolled takes the last place without rolling.
    state = run(joined("ABC"), roll(A=6, B=6, C=1), join("D"), roll(A=1, B=2))
    assert seats(state) == ("B", None, "A", "CD")


def test_player_leaving_during_the_tie_rolls_can_end_the_tie():
    state = run(joined("ABCD"), roll(A=6, B=6, C=1, D=2), leave("A"))
    assert seats(state) == ("B", None, "D", "C")


def test_order_is_settled_once():
    state = run(joined("ABC"), roll(A=1, B=2, C=3))
    with pytest.raises(TableError, match="already settled"):
        apply_event(state, roll(A=1, B=2, C=3))


# --- names -------------------------------------------------------------------------------


def test_unicode_names_and_spaces_are_one_player():
    state = run(new_table(), join("  Zoë   Ångström "), join("Łukasz"), join("李 雷"))
    assert state.players == ["Zoë Ångström", "Łukasz", "李 雷"]
    state = run(state, roll(**{"Zoë  Ångström": 6, "Łukasz": 4, "李 雷": 2}))
    assert (state.box, state.captain, state.line) == ("Zoë Ångström", "Łukasz", ["李 雷"])
    state = run(state, double("box", "Łukasz ", "李\t雷"), take("Łukasz"), drop("李 雷"),
                result("team"))
    assert points(state) == {"Zoë Ångström": -1, "Łukasz": 2, "李 雷": -1}
    with pytest.raises(TableError, match="already at the table"):
        apply_event(state, join("Zoë Ångström"))


def test_names_equal_after_unicode_normalisation_are_one_player():
    state = run(new_table(), join("Zo\u00eb"))
    with pytest.raises(TableError, match="already at the table"):
        apply_event(state, join("Zoe\u0308"))


def test_names_differing_only_in_case_are_two_players():
    # Choice: names are case-sensitive ("ann" and "Ann" may both sit down).
    state = run(new_table(), join("ann"), join("Ann"))
    assert state.players == ["ann", "Ann"]


@pytest.mark.parametrize("name", ["box", "Team", " BOX "])
def test_reserved_names_refused(name):
    with pytest.raises(TableError, match="word the table uses"):
        apply_event(new_table(), join(name))


def test_replay_prints_unicode_names(tmp_path):
    from app import create_app

    log = {"table": {}, "events": [join("Zoë"), join("Ågot"), join("Łuk"),
                                   {"type": "order", "players": ["Zoë", "Ågot", "Łuk"]},
                                   result("box", "gammon")]}
    path = tmp_path / "unicode.json"
    path.write_text(json.dumps(log, ensure_ascii=False), encoding="utf-8")
    out = create_app({"TESTING": True}).test_cli_runner().invoke(args=["replay", str(path)])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.output)
    assert "Zoë" in out.output
    assert summary["points"] == {"Zoë": 4, "Ågot": -2, "Łuk": -2}
    assert (summary["box"], summary["captain"], summary["line"]) == ("Zoë", "Łuk", ["Ågot"])


# --- 2.2 joining -------------------------------------------------------------------------


def test_immediate_joiner_is_at_the_end_of_the_line_at_once_and_plays_next_game():
    state = run(seated("ABCD"), double("box", "C"), join("E"))
    assert seats(state) == ("A", None, "B", "CDE")
    assert "E" not in state.game.cubes
    with pytest.raises(TableError, match="E does not play this game"):
        apply_event(run(state, take("C")), double("E"))
    state = run(state, take("C"), result("box"))
    assert points(state)["E"] == 0
    assert seats(state) == ("A", None, "C", "DEB")
    state = run(state, result("team"))
    assert points(state)["E"] == 1


def test_immediate_joiner_is_ahead_of_a_captain_who_drops_later_in_the_game():
    state = run(seated("ABCD"), double("box", "C"), join("E"), take("C"), double("box", "B"),
                drop("B"))
    assert seats(state) == ("A", None, "C", "DEB")


@pytest.mark.parametrize(("events", "expected"), [
    ([result("box")], ("A", None, "C", "DBE")),
    ([result("team")], ("B", None, "C", "DAE")),
    ([double("box", "B"), drop("B"), result("box")], ("A", None, "D", "BCE")),
])
def test_after_next_rotation_joiner_is_behind_whoever_goes_to_the_end(events, expected):
    state = run(seated("ABCD", **AFTER), double("box", "D"), join("E"), take("D"), *events)
    assert seats(state) == expected


def test_after_next_rotation_joiner_behind_the_box_who_loses_the_seat_by_retention():
    # Box beats B but drops C's and D's doubles: net -1, so A goes behind B; E behind A.
    state = run(seated("ABCD", box_retention="net_non_negative", **AFTER), double("C"),
                double("D"), join("E"), drop("C"), drop("D"), result("box"))
    assert seats(state) == ("C", None, "D", "BAE")


def test_after_next_rotation_between_games_joins_at_once():
    assert seats(run(seated("ABCD", **AFTER), join("E"))) == ("A", None, "B", "CDE")


def test_after_next_rotation_joiner_may_leave_before_they_are_seated():
    state = run(seated("ABCD", **AFTER), double("box", "B"), join("E"), leave("E"),
                take("B"), result("box"))
    assert seats(state) == ("A", None, "C", "DB")


def test_rejoining_player_goes_to_the_end_and_keeps_their_balance():
    # B beats the box and then leaves as the new box: C is box, D captain.
    state = run(seated("ABCD"), result("team"), leave("B"))
    assert seats(state) == ("C", None, "D", "A")
    state = run(state, join("B"), result("box"))
    assert seats(state) == ("C", None, "A", "BD")
    assert points(state) == {"A": -3 - 1, "B": 1 - 1, "C": 1 + 3, "D": 1 - 1}


# --- 2.2 leaving -------------------------------------------------------------------------


def test_box_leaves_between_games_captain_is_box_first_in_line_captain():
    assert seats(run(seated("ABCDE"), leave("A"))) == ("B", None, "C", "DE")


def test_captain_leaves_between_games_first_in_line_captain():
    assert seats(run(seated("ABCDE"), leave("B"))) == ("A", None, "C", "DE")


def test_box_leaving_with_two_players_leaves_no_game_until_someone_joins():
    state = run(seated("AB"), leave("A"))
    assert seats(state) == ("B", None, None, "")
    with pytest.raises(TableError, match="a box and a captain"):
        apply_event(state, result("box"))
    assert seats(run(state, join("C"))) == ("B", None, "C", "")


def test_box_may_not_leave_during_a_game():
    with pytest.raises(TableError, match="box side"):
        apply_event(run(seated("ABC"), double("box", "B")), leave("A"))


def test_box_leaves_between_games_with_a_partner_the_partner_is_next_captain():
    # Choice: the partner returns to the front of the line (as when the box loses, 2.3),
    # so the old captain is box and the old partner captain; the partnership is offered anew.
    state = run(seated(EIGHT + "I"), offer("B"), offer("C", True))
    assert seats(state) == ("A", "C", "B", "DEFGHI")
    state = run(state, leave("A"))
    assert seats(state) == ("B", None, "C", "DEFGHI")
    assert state.needs_partner() and state.next_partner_offer() == "C"


def test_partner_leaving_between_games_reopens_offers_from_the_captain():
    state = run(seated(EIGHT + "I"), offer("B"), offer("C", True), result("box"))
    assert seats(state) == ("A", "C", "D", "EFGHIB")
    state = run(state, leave("C"))
    assert seats(state) == ("A", None, "D", "EFGHIB")
    assert state.next_partner_offer() == "D"
    with pytest.raises(TableError, match="partnership comes first"):
        apply_event(state, result("box"))


def test_partner_leaving_below_the_minimum_ends_the_partnership_without_offers():
    state = run(seated(EIGHT), offer("B", True), leave("B"))
    assert seats(state) == ("A", None, "C", "DEFGH") and not state.needs_partner()
    run(state, result("box"))


def test_partner_may_not_leave_during_a_game():
    state = run(seated(EIGHT), offer("B", True), double("box", "C"))
    with pytest.raises(TableError, match="box side"):
        apply_event(state, leave("B"))


def test_player_leaving_below_the_minimum_keeps_the_existing_partner():
    # Choice: the partnership is only offered with eight or more; it is not ended when a
    # line player leaves and the table falls below eight.
    state = run(seated(EIGHT), offer("B", True), leave("H"), result("box"))
    assert state.partner == "B"
