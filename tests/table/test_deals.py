"""Deals: a member and the box settle the member's cube for an agreed amount (docs/rules.md
2.12, issue 14).

Players in order, so A is the box, B the captain, then C, D, E. The stake is 1.00 a point
(100 cents) unless a test says otherwise.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.ledger import LedgerError
from chouette.ledger.games import deal_cents
from chouette.standings import money_changes
from chouette.table import GameRecord, TableError, TableState, apply_event, fold
from chouette.table.cubes import DEALT, Deal

from .helpers import cents, double, drop, points, result, run, seated, seats, take


def deal(cube: str, winner: str, points: Any = None, *, amount_cents: Any = None,
         seat: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "deal", "cube": cube, "winner": winner}
    if points is not None:
        event["points"] = points
    if amount_cents is not None:
        event["cents"] = amount_cents
    if seat is not None:
        event["seat"] = seat
    return event


def doubled_all(order: str = "ABCD", **settings: Any) -> TableState:
    """The box doubled every member and each took: every cube at 2, owned by its member."""
    state = seated(order, **settings)
    members = list(order[1:])
    return run(state, double("box", *members), *[take(m) for m in members])


# --- multi cube ----------------------------------------------------------------------------


def test_deal_in_half_points_is_booked_at_once_and_the_game_goes_on():
    state = run(doubled_all(), deal("C", "box", 1.5))
    assert state.game is not None and state.game.cubes["C"].status == DEALT
    assert cents(state) == {"A": 150, "B": 0, "C": -150, "D": 0}
    assert state.game.live == ["B", "D"]


def test_deal_in_cents_is_booked_at_once():
    state = run(doubled_all(), deal("D", "member", amount_cents=275))
    assert cents(state) == {"A": -275, "B": 0, "C": 0, "D": 275}


def test_deal_writes_its_ledger_rows_at_once():
    before = doubled_all()
    after = apply_event(before, deal("C", "member", "2.5"))
    # A deal's points count (issue 25 item 6): 2.5 points, 2.50 at the stake of 1.00.
    assert money_changes(before, after) == [(1, "A", Fraction(-5, 2), -250),
                                            (1, "C", Fraction(5, 2), 250)]


def test_settled_cube_is_final_like_a_drop_the_board_result_does_not_change_it():
    state = run(doubled_all(), deal("C", "box", 1), result("team", "backgammon"))
    # B and D win 2 x 3 each; C's deal stands: C pays 1 point.
    assert cents(state) == {"A": -1100, "B": 600, "C": -100, "D": 600}
    record = state.games[-1]
    assert record.deals == (Deal("C", 2, half_points=-2),)


def test_settled_member_is_out_of_the_game_like_a_dropper():
    # A tied opening roll starts the game with every cube in the middle.
    state = run(seated("ABCD"), {"type": "opening_roll", "box": 3, "team": 3}, deal("C", "box", 1))
    with pytest.raises(TableError, match="C's cube is out of play in this game"):
        apply_event(state, double("C"))
    # The box doubles every member still playing: C's cube is not among them.
    state = run(state, double("box", "B", "D"))
    assert state.game.box_double.cubes == ["B", "D"] and state.game.box_double.all_live
    # C may leave at once, as a dropper may.
    state = run(seated(), double("box", "C"), take("C"), deal("C", "member", 1),
                {"type": "leave", "player": "C"})
    assert "C" not in state.seated


def test_settling_the_last_live_cube_ends_the_game():
    state = run(doubled_all("ABC"), deal("C", "box", 2))
    state = run(state, deal("B", "box", 2, seat="box"))
    assert state.game is None and len(state.games) == 1
    assert cents(state) == {"A": 400, "B": -200, "C": -200}
    # The box kept the seat: the box stays, the captain goes to the end of the line.
    assert seats(state) == ("A", None, "C", "B")


def test_deal_at_nothing_is_a_settlement_with_no_money():
    state = run(doubled_all(), deal("C", "box", 0))
    assert state.game.cubes["C"].status == DEALT
    assert cents(state) == {"A": 0, "B": 0, "C": 0, "D": 0}


# --- the captain and the seat ----------------------------------------------------------------


def test_captain_deal_needs_the_seat_decision():
    state = doubled_all()
    with pytest.raises(TableError, match='B is the captain: say who keeps the seat'):
        apply_event(state, deal("B", "box", 1))
    with pytest.raises(TableError, match='B is the captain: say who keeps the seat'):
        apply_event(state, deal("B", "box", 1, seat="nobody"))


def test_only_a_deal_with_the_captain_decides_the_seat():
    with pytest.raises(TableError, match=r"only a deal with the captain \(B\) decides the seat"):
        apply_event(doubled_all(), deal("C", "box", 1, seat="box"))


def test_captain_deal_box_kept_the_seat_captain_goes_at_once_to_the_end_of_the_line():
    state = run(doubled_all("ABCDE"), deal("B", "box", 1.5, seat="box"))
    # As after a captain's drop: C, the best-placed live member, is captain now.
    assert seats(state) == ("A", None, "C", "DEB")
    assert state.game.seat_captain == "C" and state.game.acting_captain == "C"
    # C's result decides the seats: C wins, so C takes the box.
    state = run(state, result("team"))
    assert seats(state) == ("C", None, "D", "EBA")
    assert cents(state) == {"A": -450, "B": -150, "C": 200, "D": 200, "E": 200}


def test_captain_deal_captain_takes_the_box_whatever_the_board_says():
    state = run(doubled_all("ABCDE"), deal("B", "member", 1, seat="captain"))
    # As after the box's drop of the captain's cube: C plays on as acting captain.
    assert state.game.acting_captain == "C" and state.game.captain_won_early
    with pytest.raises(TableError, match="B has beaten the box in this game; leave after it"):
        apply_event(state, {"type": "leave", "player": "B"})
    state = run(state, result("box", "gammon"))
    # The box beat C, but B took the seat: B is box, A to the end of the line.
    assert seats(state) == ("B", None, "C", "DEA")
    assert cents(state) == {"A": 1100, "B": 100, "C": -400, "D": -400, "E": -400}


def test_captain_deal_box_kept_the_seat_as_the_last_cube_the_box_stays():
    state = run(doubled_all("ABC"), deal("C", "member", 1), deal("B", "member", 1, seat="box"))
    assert state.game is None
    assert seats(state) == ("A", None, "C", "B")


def test_captain_deal_captain_takes_the_box_as_the_last_cube():
    state = run(doubled_all("ABC"), deal("C", "box", 1), deal("B", "box", 1, seat="captain"))
    assert state.game is None
    assert seats(state) == ("B", None, "C", "A")


def test_acting_captain_deal_passes_the_board_to_the_next_live_member():
    state = run(doubled_all("ABCDE"), *drop_after_redouble("B"))
    assert state.game.acting_captain == "C"
    state = run(state, deal("C", "box", 1))
    assert state.game.acting_captain == "D"
    # B beat the box and keeps the captain's seat: the acting captain's deal moves no seat.
    assert state.game.seat_captain == "B" and seats(state)[2] == "B"


def drop_after_redouble(member: str) -> list[dict[str, Any]]:
    return [double(member), drop(member)]


def test_retention_counts_the_deals_in_the_box_net_result():
    # The box beats the captain but loses money once the deal is counted: net_positive
    # takes the seat.
    state = run(doubled_all("ABCD", box_retention="net_positive"), deal("C", "member", 4.5),
                result("box"))
    assert cents(state) == {"A": -50, "B": -200, "C": 450, "D": -200}
    # The box beat the captain but their net is negative: they go behind the captain.
    assert seats(state) == ("C", None, "D", "BA")


# --- single cube -----------------------------------------------------------------------------


def test_single_cube_the_box_settles_with_each_member_on_their_own():
    state = seated("ABCD", cube_mode="single")
    state = run(state, double("box"), take("B"), take("C"), take("D"))
    state = run(state, deal("C", "box", 1.5), deal("D", "member", amount_cents=120))
    assert state.game.live == ["B"]
    assert cents(state) == {"A": 30, "B": 0, "C": -150, "D": 120}
    state = run(state, result("box"))
    assert cents(state) == {"A": 230, "B": -200, "C": -150, "D": 120}


def test_single_cube_captain_deal_box_kept_the_seat():
    state = seated("ABCD", cube_mode="single")
    state = run(state, double("box"), take("B"), take("C"), take("D"),
                deal("B", "box", 2, seat="box"))
    assert seats(state) == ("A", None, "C", "DB")
    # C doubles for the team now.
    state = run(state, double("C"))
    assert state.game.pending == ["C", "D"]


def test_single_cube_captain_deal_captain_takes_the_box():
    state = seated("ABCD", cube_mode="single")
    state = run(state, double("box"), take("B"), take("C"), take("D"),
                deal("B", "member", 1, seat="captain"), result("box"))
    assert seats(state) == ("B", None, "C", "DA")
    assert cents(state) == {"A": 300, "B": 100, "C": -200, "D": -200}


# --- money, partner, stakes ----------------------------------------------------------------


def test_deal_money_is_shared_with_the_partner_like_the_box_side():
    order = "ABCDEFGH"
    state = seated(order)
    state = run(state, {"type": "partner", "player": "B", "accept": True})
    assert state.partner == "B"
    state = run(state, {"type": "opening_roll", "box": 3, "team": 3}, deal("D", "box", 1.5))
    got = cents(state)
    assert got["D"] == -150 and got["A"] == 75 and got["B"] == 75
    assert sum(got.values()) == 0


def test_deal_in_points_is_priced_at_the_pairs_stake_with_per_player_stakes():
    log: list[dict[str, Any]] = [{"type": "join", "player": "A", "stake_cents": 500},
                                 {"type": "join", "player": "B", "stake_cents": 500},
                                 {"type": "join", "player": "C", "stake_cents": 125},
                                 {"type": "order", "players": ["A", "B", "C"]},
                                 double("box", "C"), take("C"), deal("C", "box", 1.5)]
    state = fold({"per_player_stakes": True}, log)
    # 1.5 points at 1.25: 1.875, the half cent to the box.
    assert cents(state) == {"A": 188, "B": 0, "C": -188}


def test_deal_cents_rounds_a_half_cent_toward_the_box():
    assert deal_cents(3, None, 125) == 187 and deal_cents(-3, None, 125) == -188
    with pytest.raises(LedgerError, match="a deal is in half points or in cents"):
        deal_cents(None, None, 100)


def test_points_tallies_count_a_deals_points_as_a_fraction():
    # Issue 25 item 6: a deal's points count wherever points are counted, points x stake
    # being the money on every line (the stake is 1.00).
    state = run(doubled_all(), deal("C", "box", 1.5), result("box"))
    assert points(state) == {"A": Fraction(11, 2), "B": -2, "C": Fraction(-3, 2), "D": -2}
    assert cents(state) == {"A": 550, "B": -200, "C": -150, "D": -200}


# --- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(("event", "message"), [
    (deal("C", "box", 7), r"C's cube is at 2: a deal is at most 6 points"),
    (deal("C", "box", amount_cents=601), r"C's cube is at 2: a deal is at most 6 points, 600 cents"),
    (deal("C", "box", -1), "the agreed amount cannot be negative"),
    (deal("C", "box", amount_cents=-5), "the agreed amount cannot be negative"),
    (deal("C", "box", "lots"), "the agreed points are a number in halves, like 1.5, not 'lots'"),
    (deal("C", "box", 1.25), r"the agreed points are whole or halves \(like 1.5\), not 1.25"),
    (deal("C", "box", True), "the agreed points are a number in halves"),
    (deal("C", "box", float("nan")), "the agreed points are a number in halves"),
    (deal("C", "box", amount_cents=1.5), "the agreed cents are a whole number"),
    (deal("C", "box"), "a deal is agreed in points or in cents: give one of them"),
    ({**deal("C", "box", 1), "cents": 100}, "a deal is agreed in points or in cents"),
    (deal("C", "nobody", 1), 'say who wins the agreed amount: "box" or "member"'),
    (deal("A", "box", 1), "A plays for the box side: a deal is between a member and the box"),
    (deal("Zed", "box", 1), "Zed is not at this table"),
    (deal("box", "box", 1), "name the member whose cube is settled, not 'box'"),
    (deal("team", "box", 1), "name the member whose cube is settled, not 'team'"),
])
def test_deal_refusals_say_why_and_change_nothing(event, message):
    state = doubled_all()
    with pytest.raises(TableError, match=message):
        apply_event(state, event)
    assert state.game.cubes["C"].is_live and cents(state) == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_settling_a_dropped_cube_is_refused():
    state = run(seated(), double("box", "C"), drop("C"))
    with pytest.raises(TableError, match="C's cube was dropped: it is settled already"):
        apply_event(state, deal("C", "box", 1))


def test_settling_a_cube_twice_is_refused():
    state = run(doubled_all(), deal("C", "box", 1))
    with pytest.raises(TableError, match="C's cube is settled already"):
        apply_event(state, deal("C", "box", 1))


def test_a_deal_without_a_game_in_progress_is_refused():
    state = run(seated("ABC"), result("box"))
    with pytest.raises(TableError, match="no game is in progress: a deal settles a cube during a game"):
        apply_event(state, deal("C", "box", 1))
    before_order = fold({}, [{"type": "join", "player": "A"}, {"type": "join", "player": "B"}])
    with pytest.raises(TableError, match="no game is in progress"):
        apply_event(before_order, deal("B", "box", 1))


def test_a_deal_while_a_double_waits_for_an_answer_is_refused():
    state = run(seated(), double("box", "C", "D"))
    with pytest.raises(TableError, match=r"answer the open double first \(waiting: C, D\)"):
        apply_event(state, deal("C", "box", 1))


def test_a_member_joining_mid_game_has_no_cube_to_settle():
    state = run(doubled_all(), {"type": "join", "player": "Eve"})
    with pytest.raises(TableError, match="Eve does not play this game"):
        apply_event(state, deal("Eve", "box", 1))


# --- undo, snapshots, the replay format -------------------------------------------------------


def test_undo_of_a_deal_gives_the_cube_back_and_books_the_reversal():
    before = doubled_all("ABCDE")
    dealt = apply_event(before, deal("B", "member", 2, seat="captain"))
    undone = apply_event(dealt, {"type": "undo"})
    assert undone.game.cubes["B"].is_live and not undone.game.deals
    assert not undone.game.captain_won_early and undone.game.acting_captain == "B"
    assert cents(undone) == cents(before)
    assert money_changes(dealt, undone) == [(1, "A", 2, 200), (1, "B", -2, -200)]


def test_undo_of_a_captain_deal_gives_the_seat_back():
    before = doubled_all("ABCDE")
    undone = run(before, deal("B", "box", 1, seat="box"), {"type": "undo"})
    assert seats(undone) == seats(before) == ("A", None, "B", "CDE")


def test_deals_survive_snapshots_and_game_records_round_trip():
    state = run(doubled_all(), deal("C", "box", 1.5), deal("B", "member", amount_cents=50, seat="box"))
    again = TableState.from_snapshot(json.loads(json.dumps(state.snapshot())))
    assert again.game.deals == state.game.deals
    finished = run(state, result("team"))
    record = finished.games[-1]
    assert GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record


def test_a_replay_format_log_with_deals_folds_to_the_same_money():
    log = [{"type": "join", "player": p} for p in ("Ann", "Bob", "Cy", "Dee")]
    log += [{"type": "order", "players": ["Ann", "Bob", "Cy", "Dee"]},
            {"type": "double", "by": "box", "cubes": ["Bob", "Cy", "Dee"]},
            {"type": "take", "cube": "Bob"}, {"type": "take", "cube": "Cy"},
            {"type": "take", "cube": "Dee"},
            {"type": "deal", "cube": "Cy", "winner": "box", "points": 1.5},
            {"type": "deal", "cube": "Bob", "winner": "member", "cents": 120, "seat": "captain"},
            {"type": "result", "winner": "box", "kind": "single"}]
    state = fold({}, json.loads(json.dumps(log)))
    assert cents(state) == {"Ann": 230, "Bob": 120, "Cy": -150, "Dee": -200}
    assert seats(state) == ("Bob", None, "Cy", "DeeAnn")


# --- properties ------------------------------------------------------------------------------

DEAL_SETTINGS = st.fixed_dictionaries({
    "cube_mode": st.sampled_from(["multi", "single"]),
    "stake_cents": st.integers(0, 999),
    "partner_min_players": st.sampled_from([0, 5]),
    "box_retention": st.sampled_from(["beat_captain", "net_non_negative", "net_positive"]),
})


@settings(max_examples=80, deadline=None)
@given(table=DEAL_SETTINGS, data=st.data())
def test_deals_keep_the_books_balanced_and_undo_restores_the_money(table, data):
    state = seated("ABCDE", **table)
    if state.needs_partner():
        state = run(state, {"type": "partner", "player": "B", "accept": True})
    members = state.seats.team
    if table["cube_mode"] == "single":
        state = run(state, double("box"), *[take(m) for m in members])
    else:
        state = run(state, double("box", *members), *[take(m) for m in members])
    while state.game is not None:
        member = data.draw(st.sampled_from(state.game.live), label="member")
        value = state.game.cubes[member].value
        amount = data.draw(st.one_of(
            st.builds(lambda h: {"points": h / 2}, st.integers(0, 6 * value)),
            st.builds(lambda c: {"cents": c}, st.integers(0, 3 * value * table["stake_cents"]))),
            label="amount")
        event = {"type": "deal", "cube": member, "winner": data.draw(
            st.sampled_from(["box", "member"]), label="winner"), **amount}
        if member == state.game.seat_captain and not state.game.captain_won_early:
            event["seat"] = data.draw(st.sampled_from(["box", "captain"]), label="seat")
        before = state
        state = apply_event(state, event)
        assert sum(cents(state).values()) == 0 and sum(points(state).values()) == 0
        assert cents(apply_event(state, {"type": "undo"})) == cents(before)
        if state.game is not None and data.draw(st.booleans(), label="end now"):
            ended = apply_event(state, result(data.draw(st.sampled_from(["box", "team"]))))
            # The money a deal booked at once is all it counts: the end moves none of it.
            dealt = {d.member for d in ended.games[-1].deals}
            assert all(player not in dealt for _game, player, _p, _c in money_changes(state, ended))
            assert sum(cents(ended).values()) == 0
            break
    assert seats(state)[0] is not None
