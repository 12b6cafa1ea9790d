"""Rotation after each game (RULES 2.3), with the retention settings and a partner."""

from __future__ import annotations

import pytest

from .helpers import double, drop, result, run, seated, seats, take


def test_box_beats_captain_captain_goes_to_end_of_line():
    # RULES example: box A, captain B, line C D E; box wins: box A, captain C, line D E B.
    assert seats(run(seated("ABCDE"), result("box"))) == ("A", None, "C", "DEB")


def test_captain_beats_box_captain_becomes_box():
    # Captain wins: box B, captain C, line D E A.
    assert seats(run(seated("ABCDE"), result("team"))) == ("B", None, "C", "DEA")


def test_captain_drop_next_member_captains_and_his_result_decides():
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


def test_box_keeps_the_box_game_after_game_while_he_wins():
    state = seated("ABCD")
    for _ in range(3):
        state = run(state, result("box"))
    assert seats(state) == ("A", None, "B", "CD")  # everyone came round once


def test_acting_captain_result_decides_after_captain_drop():
    # B drops, C takes and becomes captain; C wins: C is the next box.
    state = run(seated("ABCD"), double("box", "B", "C"), drop("B"), take("C"), result("team"))
    assert seats(state) == ("C", None, "D", "BA")
