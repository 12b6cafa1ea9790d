"""The box's partner (docs/rules.md 2.8)."""

from __future__ import annotations

import pytest

from chouette.table import SettingsError, TableError, apply_event
from chouette.table.actions import legal_actions

from .helpers import cents, double, join, points, result, run, seated, seats, take

EIGHT = "ABCDEFGH"


def offer(player, accept=False):
    return {"type": "partner", "player": player, "accept": accept}


def test_no_game_before_the_partnership_is_offered_with_eight_players():
    with pytest.raises(TableError, match="partnership comes first: offer it to B"):
        apply_event(seated(EIGHT), result("box"))


def test_no_partner_below_the_minimum_players():
    state = run(seated("ABCDEFG"), result("box"))
    assert state.partner is None and len(state.games) == 1


def test_partners_off_with_minimum_zero():
    state = run(seated(EIGHT, partner_min_players=0), result("box"))
    assert state.partner is None


def test_offers_start_with_the_captain_and_go_down_the_line():
    state = seated(EIGHT)
    with pytest.raises(TableError, match="must be offered to B now, not C"):
        apply_event(state, offer("C"))
    state = run(state, offer("B"), offer("C"), offer("D", True))
    assert seats(state) == ("A", "D", "B", "CEFGH")


def test_captain_who_accepts_is_replaced_by_the_next_in_line():
    state = run(seated(EIGHT), offer("B", True))
    assert seats(state) == ("A", "B", "C", "DEFGH")


def test_partner_drawn_among_the_team_but_the_captain_when_all_decline():
    state = run(seated(EIGHT), *[offer(p) for p in "BCDEFGH"])
    with pytest.raises(TableError, match="other than the captain, not B"):
        apply_event(state, {"type": "partner_draw", "player": "B"})
    state = run(state, {"type": "partner_draw", "player": "F"})
    assert seats(state) == ("A", "F", "B", "CDEGH")


def test_draw_refused_before_everyone_declined():
    with pytest.raises(TableError, match="first be offered to C"):
        apply_event(run(seated(EIGHT), offer("B")), {"type": "partner_draw", "player": "F"})


def test_partner_shares_the_box_result_odd_point_to_the_box():
    state = run(seated(EIGHT), offer("B", True), result("box"))
    # Six members pay 1: box side +6; A +3, B +3.
    assert points(state)["A"] == 3 and points(state)["B"] == 3
    state = run(seated(EIGHT), offer("B", True), double("box", "C"), take("C"), result("box"))
    # Box side +7: A +4 (the odd point), B +3.
    assert (points(state)["A"], points(state)["B"]) == (4, 3)


def test_odd_point_to_the_box_when_losing_too():
    state = run(seated(EIGHT), offer("B", True), double("box", "C"), take("C"), result("team"))
    assert (points(state)["A"], points(state)["B"]) == (-4, -3)


def test_partnership_stays_while_the_box_keeps_the_box():
    state = run(seated(EIGHT), offer("B", True), result("box"), result("box"))
    assert state.partner == "B" and len(state.games) == 2


def test_box_loses_partner_goes_to_front_of_line_as_next_captain():
    state = run(seated(EIGHT), offer("B", True), result("team"))
    assert seats(state) == ("C", None, "B", "DEFGHA")
    with pytest.raises(TableError, match="offer it to B"):
        apply_event(state, result("box"))


def test_share_percent_is_a_setting():
    state = run(seated(EIGHT, partner_share_percent=25), offer("B", True),
                double("box", "C"), take("C"), result("box"))
    assert (points(state)["A"], points(state)["B"]) == (6, 1)


def test_per_player_stakes_split_in_cents_odd_cent_to_the_box():
    state = seated(EIGHT, per_player_stakes=True, stake_cents=100)
    for name, stake in {"A": 101, "C": 101, "D": 101, "E": 101, "F": 101, "G": 101, "H": 101}.items():
        state.stakes[name] = stake
    state = run(state, offer("B", True), result("box"))
    # Six members pay 101 cents at the pair's lower stake: 606; split 303 / 303.
    assert (cents(state)["A"], cents(state)["B"]) == (303, 303)
    state = run(state, double("box", "D"), take("D"), result("box"))
    # Box side: 5 x 101 + 202 = 707; A 354, B 353.
    assert (cents(state)["A"] - 303, cents(state)["B"] - 303) == (354, 353)


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
