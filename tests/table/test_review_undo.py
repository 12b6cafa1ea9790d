"""Review of undo (DESIGN "The table log"): across game boundaries, partner offers, leaves,
the starting order; an undo always equals refolding the log without the undone event."""

from __future__ import annotations

import random

import pytest

from chouette.standings import money
from chouette.table import TableError, apply_event, effective_events, fold, new_table
from chouette.table.simulate import random_night

from .helpers import double, drop, points, result, run, seated, seats, take

UNDO = {"type": "undo"}
EIGHT = "ABCDEFGH"


def offer(name, accept=False):
    return {"type": "partner", "player": name, "accept": accept}


def leave(name):
    return {"type": "leave", "player": name}


def view(state):
    """Everything a player can see of a table, for comparing two states."""
    return (state.summary(), money(state), state.game.to_dict() if state.game else None,
            [g.to_dict() for g in state.games], list(state.partner_offers),
            list(state.pending_joiners), state.order_groups, list(state.waiting))


def test_undo_of_a_result_reopens_the_game_with_its_cubes():
    state = run(seated("ABCD"), double("box", "B"), take("B"), double("B"), take("B"),
                result("team"))
    assert state.game is None and seats(state) == ("B", None, "C", "DA")
    state = run(state, UNDO)
    assert state.game is not None and len(state.games) == 0
    assert state.game.cubes["B"].value == 4 and state.game.cubes["B"].owner == "box"
    assert seats(state) == ("A", None, "B", "CD")
    assert points(run(state, result("box"))) == {"A": 6, "B": -4, "C": -1, "D": -1}


def test_undo_of_the_first_event_of_a_game_goes_back_between_games():
    state = run(seated("ABCD"), result("box"), double("box", "C"))
    state = run(state, UNDO)
    assert state.game is None and len(state.games) == 1
    assert seats(state) == ("A", None, "C", "DB")


def test_undo_back_through_two_games():
    state = run(seated("ABC"), result("box"), result("team"), UNDO, UNDO)
    assert len(state.games) == 0 and seats(state) == ("A", None, "B", "C")
    assert points(state) == {"A": 0, "B": 0, "C": 0}


def test_undo_of_a_game_ending_drop_restores_the_open_double():
    state = run(seated("ABC"), double("box", "B", "C"), drop("B"), drop("C"), UNDO)
    assert state.game is not None and state.game.box_double.waiting == ["C"]
    assert seats(state) == ("A", None, "B", "C")


def test_undo_of_a_captain_drop_puts_the_captain_back():
    state = run(seated("ABCDE"), double("box", "B"), drop("B"))
    assert seats(state) == ("A", None, "C", "DEB")
    state = run(state, UNDO)
    assert seats(state) == ("A", None, "B", "CDE") and state.game.box_double.waiting == ["B"]


def test_undo_after_a_partner_offer():
    state = run(seated(EIGHT), offer("B"), offer("C", True))
    state = run(state, UNDO)
    assert state.partner is None and state.next_partner_offer() == "C"
    state = run(state, UNDO)
    assert state.next_partner_offer() == "B"


def test_undo_of_offers_after_the_box_changed_and_of_the_result():
    state = run(seated(EIGHT), offer("B", True), result("team"), offer("B"), offer("D", True))
    assert seats(state) == ("C", "D", "B", "EFGHA")
    state = run(state, UNDO, UNDO)
    assert seats(state) == ("C", None, "B", "DEFGHA") and state.next_partner_offer() == "B"
    state = run(state, UNDO)
    # Back in the partnership game A + B, whose only event (the result) is undone.
    assert seats(state) == ("A", "B", "C", "DEFGH") and state.game is None
    assert len(state.games) == 0


def test_undo_of_a_mid_game_leave():
    state = run(seated("ABCD"), double("box", "B"), drop("B"), leave("B"))
    assert "B" not in state.line
    state = run(state, UNDO)
    assert seats(state) == ("A", None, "C", "DB")


def test_undo_of_a_tie_reroll():
    state = new_table()
    for name in "ABCD":
        state = apply_event(state, {"type": "join", "player": name})
    state = run(state, {"type": "order_roll", "rolls": {"A": 5, "B": 6, "C": 3, "D": 5}},
                {"type": "order_roll", "rolls": {"A": 2, "D": 4}}, UNDO)
    assert not state.ordered and state.order_groups == [["B"], ["A", "D"], ["C"]]


def test_undo_with_nothing_to_undo():
    with pytest.raises(TableError, match="nothing to undo"):
        apply_event(new_table(), UNDO)


@pytest.mark.parametrize("seed", range(12))
def test_undo_equals_refolding_the_log_without_the_undone_events(seed):
    rng = random.Random(seed)
    mode = rng.choice(["multi", "single"])
    settings = {"cube_mode": mode, "beavers": True, "raccoons": True, "extras": seed % 3 == 0,
                "partner_min_players": 6, "jacoby": seed % 2 == 0,
                "box_retention": rng.choice(["beat_captain", "net_non_negative",
                                             "net_positive"])}
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"][: rng.randint(3, 7)]
    state, events = random_night(settings, names, 4, rng.choice, lambda: rng.randint(1, 6))
    for _ in range(rng.randint(1, 12)):
        if not state.effective:
            break
        events.append(UNDO)
        state = apply_event(state, UNDO)
        kept = [events[i] for i in effective_events(events)]
        assert view(state) == view(fold(settings, kept))
    assert view(state) == view(fold(settings, events))
