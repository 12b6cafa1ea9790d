"""Rotation after each game (docs/rules.md 2.3), with the retention settings and a partner."""

from __future__ import annotations

import pytest

from .helpers import double, drop, points, result, run, seated, seats, take

EIGHT = "ABCDEFGH"


def offer(name, accept=False):
    return {"type": "partner", "player": name, "accept": accept}


def test_box_beats_captain_captain_goes_to_end_of_line():
    # docs/rules.md 2.3 example: box A, captain B, line C D E; box wins: box A, captain C, line D E B.
    assert seats(run(seated("ABCDE"), result("box"))) == ("A", None, "C", "DEB")


def test_captain_beats_box_captain_becomes_box():
    # Captain wins: box B, captain C, line D E A.
    assert seats(run(seated("ABCDE"), result("team"))) == ("B", None, "C", "DEA")


def test_captain_drop_next_member_captains_and_their_result_decides():
    state = run(seated("ABCDE"), double("box", "B"), drop("B"))
    assert seats(state) == ("A", None, "C", "DEB") and state.game is not None
    state = run(state, result("team"))
    assert seats(state) == ("C", None, "D", "EBA")


def test_everyone_dropping_box_beat_the_captain():
    state = run(seated("ABC"), double("box"), drop("B"), drop("C"))
    assert state.game is None and seats(state) == ("A", None, "C", "B")


def test_box_dropping_the_captain_double_gives_captain_the_box():
    state = run(seated("ABCDE"), double("B"), drop("B"), result("box"))
    # The box won against C, D, E, but the game against the captain decides the seats.
    assert seats(state) == ("B", None, "C", "DEA")


def test_only_the_game_against_the_captain_decides_the_seats():
    state = run(seated("ABCD"), double("box", "C", "D"), drop("C"), drop("D"), result("team"))
    assert seats(state) == ("B", None, "C", "DA")


@pytest.mark.parametrize(("retention", "keeps"), [
    ("beat_captain", True), ("net_non_negative", False), ("net_positive", False)])
def test_box_retention_when_box_beats_captain_but_loses_money(retention, keeps):
    # Box beats captain B (+1) but drops C's and D's doubles (-1 each): net -1.
    state = run(seated("ABCD", box_retention=retention),
                double("C"), double("D"), drop("C"), drop("D"), result("box"))
    if keeps:
        assert seats(state) == ("A", None, "C", "DB")
    else:
        # Box goes behind the captain at the end; the first in line becomes box.
        assert seats(state) == ("C", None, "D", "BA")


@pytest.mark.parametrize(("retention", "keeps"), [
    ("net_non_negative", True), ("net_positive", False)])
def test_box_retention_on_a_net_zero_game(retention, keeps):
    # Box beats B and E (+2), drops C's and D's doubles (-2): net 0.
    state = run(seated("ABCDE", box_retention=retention),
                double("C"), double("D"), drop("C"), drop("D"), result("box"))
    assert (state.box == "A") is keeps


def test_box_keeps_the_box_game_after_game_while_they_win():
    state = seated("ABCD")
    for _ in range(3):
        state = run(state, result("box"))
    assert seats(state) == ("A", None, "B", "CD")  # everyone came round once


def test_acting_captain_result_decides_after_captain_drop():
    # B drops, C takes and becomes captain; C wins: C is the next box.
    state = run(seated("ABCD"), double("box", "B", "C"), drop("B"), take("C"), result("team"))
    assert seats(state) == ("C", None, "D", "BA")


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
