"""Review of seats: starting order, joining, leaving, rotation, retention, the partner
(RULES 2.1, 2.2, 2.3, 2.8; seeds 000 l.504-534, 003 l.266-302)."""

from __future__ import annotations

import json

import pytest

from chouette.table import SettingsError, TableError, apply_event, new_table
from chouette.table.actions import legal_actions

from .helpers import double, drop, points, result, run, seated, seats, take

EIGHT = "ABCDEFGH"
AFTER = {"join_position": "after_next_rotation"}


def join(name, **extra):
    return {"type": "join", "player": name, **extra}


def leave(name):
    return {"type": "leave", "player": name}


def offer(name, accept=False):
    return {"type": "partner", "player": name, "accept": accept}


def roll(**dice):
    return {"type": "order_roll", "rolls": dice}


def joined(names, **settings):
    state = new_table(settings)
    for name in names:
        state = apply_event(state, join(name))
    return state


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


def test_after_next_rotation_joiner_may_leave_before_he_is_seated():
    state = run(seated("ABCD", **AFTER), double("box", "B"), join("E"), leave("E"),
                take("B"), result("box"))
    assert seats(state) == ("A", None, "C", "DB")


def test_rejoining_player_goes_to_the_end_and_keeps_his_balance():
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


# --- 2.3 rotation ------------------------------------------------------------------------


def test_rotation_with_two_players():
    assert seats(run(seated("AB"), result("box"))) == ("A", None, "B", "")
    assert seats(run(seated("AB"), result("team"))) == ("B", None, "A", "")
    assert seats(run(seated("AB"), double("box", "B"), drop("B"))) == ("A", None, "B", "")
    assert seats(run(seated("AB"), double("B"), drop("B"))) == ("B", None, "A", "")


def test_rotation_with_three_players():
    assert seats(run(seated("ABC"), result("box"))) == ("A", None, "C", "B")
    assert seats(run(seated("ABC"), result("team"))) == ("B", None, "C", "A")


def test_retention_with_three_players_box_goes_behind_the_captain():
    # The box beats B (+1) but drops C's double (-1): net 0; net_positive takes the seat.
    state = run(seated("ABC", box_retention="net_positive"), double("C"), drop("C"),
                result("box"))
    assert seats(state) == ("C", None, "B", "A")
    state = run(seated("ABC", box_retention="net_non_negative"), double("C"), drop("C"),
                result("box"))
    assert seats(state) == ("A", None, "C", "B")


def test_retention_settings_never_keep_a_box_who_lost_to_the_captain():
    for retention in ("beat_captain", "net_non_negative", "net_positive"):
        state = run(seated("ABCD", box_retention=retention), double("box", "C", "D"),
                    drop("C"), drop("D"), result("team"))
        assert seats(state) == ("B", None, "C", "DA")


def test_retention_counts_the_whole_game_net_including_gammons():
    # Box beats B by a gammon (+2) and drops C's and D's doubles (-2): net 0.
    state = run(seated("ABCDE", box_retention="net_positive"), double("C"), double("D"),
                drop("C"), drop("D"), double("box", "E"), take("E"), result("box", "gammon"))
    # E: -2 x 2 = -4 more: net +4 -> keeps.
    assert state.box == "A"


def test_retention_with_a_partner_keeps_the_partnership_when_net_is_not_negative():
    state = run(seated(EIGHT, box_retention="net_non_negative"), offer("B", True),
                double("D"), double("E"), drop("D"), drop("E"), result("box"))
    assert seats(state) == ("A", "B", "D", "EFGHC")
    assert points(state)["A"] == 1 and points(state)["B"] == 1


def test_retention_with_a_partner_box_loses_the_seat_partner_is_next_captain():
    # Box side: beats C, G, H (+3), drops D, E, F (-3): net 0, net_positive takes the seat.
    # Choice: the first in line (D) is box; the old partner goes to the front (captain).
    state = run(seated(EIGHT, box_retention="net_positive"), offer("B", True),
                double("D"), double("E"), double("F"), drop("D"), drop("E"), drop("F"),
                result("box"))
    assert seats(state) == ("D", None, "B", "EFGHCA")
    assert state.next_partner_offer() == "B"


def test_box_change_by_captain_win_with_partner_example():
    state = run(seated(EIGHT), offer("B", True), result("team"))
    assert seats(state) == ("C", None, "B", "DEFGHA")


# --- 2.8 partner offers ------------------------------------------------------------------


def test_partner_offers_go_down_the_whole_team_then_a_draw():
    state = run(seated(EIGHT), *[offer(p) for p in "BCDEFGH"])
    assert {e["type"] for e in legal_actions(state)} == {"partner_draw"}
    assert sorted(e["player"] for e in legal_actions(state)) == list("CDEFGH")


def test_partner_offers_between_games_only():
    state = run(seated(EIGHT), offer("B", True), double("box", "C"))
    with pytest.raises(TableError, match="between games"):
        apply_event(state, offer("C", True))


def test_partner_offered_anew_when_a_joiner_brings_the_table_to_eight():
    state = run(seated("ABCDEFG"), double("box", "B"), join("H"), take("B"), result("box"))
    assert state.needs_partner() and state.next_partner_offer() == "C"


def test_partner_declines_are_remembered_across_a_join_between_offers():
    state = run(seated(EIGHT), offer("B"), offer("C"), join("I"))
    assert state.next_partner_offer() == "D"
    state = run(state, *[offer(p) for p in "DEFGH"])
    assert state.next_partner_offer() == "I"


def test_partner_minimum_below_three_never_leaves_the_table_stuck():
    try:
        state = seated("AB", partner_min_players=2)
    except SettingsError:
        return
    state = run(state, offer("B"))
    assert legal_actions(state), "no legal action: no game can ever start"
