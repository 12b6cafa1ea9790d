"""Board mode through the engine, score-sheet mode, and undo (docs/log-format.md 4.6, docs/rules.md 1.9)."""

from __future__ import annotations

import json
import random
import re

import pytest

from chouette.engine import Position
from chouette.standings import money
from chouette.table import TableError, apply_event, effective_events, fold, new_table
from chouette.table.simulate import random_night
from tests.scenarios import SCENARIOS

from .helpers import double, drop, points, result, run, seated, seats, take

SCENARIO = SCENARIOS / "04-board-game.json"


def opening(box=5, team=3):
    return {"type": "opening_roll", "box": box, "team": team}


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


def test_opening_roll_higher_die_moves_first_with_both_dice():
    state = run(seated("ABC"), opening(3, 5))
    assert state.game.on_roll == "member" and state.game.dice == (3, 5)
    state = run(state, {"type": "move", "move": "24/16"})  # 8 pips with one checker via 21 or 19
    assert state.game.on_roll == "box" and state.game.dice is None


def test_illegal_move_refused_with_reason_and_nothing_changes():
    state = run(seated("ABC"), opening())
    with pytest.raises(TableError, match="no die or dice of 5-3 move a checker 6 pips") as info:
        apply_event(state, {"type": "move", "move": "24/18"})
    assert "24/18" in str(info.value)
    assert state.game.position == Position.initial() and state.game.dice == (5, 3)


def test_malformed_move_refused():
    state = run(seated("ABC"), opening())
    with pytest.raises(TableError, match="move 'hello': cannot read 'hello'"):
        apply_event(state, {"type": "move", "move": "hello"})


def test_move_before_roll_refused():
    state = run(seated("ABC"), opening(), {"type": "move", "move": "13/8 6/3"})
    with pytest.raises(TableError, match="roll the dice before moving"):
        apply_event(state, {"type": "move", "move": "13/8"})


def test_double_only_at_start_of_own_turn_before_rolling():
    state = run(seated("ABC"), opening(), {"type": "move", "move": "13/8 6/3"})
    with pytest.raises(TableError, match="team's turn"):
        apply_event(state, double("box", "B"))
    state = run(state, double("B"), take("B"), {"type": "roll", "dice": [6, 4]})
    with pytest.raises(TableError, match="before the roll"):
        apply_event(state, double("C"))


def test_declared_result_refused_in_board_mode():
    state = run(seated("ABC"), opening())
    with pytest.raises(TableError, match="played on the board"):
        apply_event(state, result("box"))


def test_roll_refused_in_score_sheet_mode():
    state = run(seated("ABC"), double("box", "B"), take("B"))
    with pytest.raises(TableError, match="scored on the sheet"):
        apply_event(state, {"type": "roll", "dice": [3, 1]})


def test_roll_with_no_legal_play_passes_the_turn():
    log = json.loads(SCENARIO.read_text())
    events = log["events"]
    # The scenario has a 6-6 that could not be played: the next event is the other's roll.
    index = next(i for i, e in enumerate(events) if e.get("dice") == [6, 6] and
                 events[i + 1]["type"] == "roll")
    before = fold(log["table"], events[:index])
    state = apply_event(before, events[index])
    assert state.game.dice is None and state.game.on_roll != before.game.on_roll
    assert state.game.position == before.game.position.swap()


def test_board_game_ends_by_itself_and_engine_classifies_it():
    log = json.loads(SCENARIO.read_text())
    state = fold(log["table"], log["events"])
    record = state.games[-1]
    assert (record.winner, record.kind, record.mode) == ("team", "backgammon", "board")
    assert state.game is None


def test_result_from_a_finished_position_id():
    finished = Position.from_points({}, {6: 2, 5: 13})  # the side on roll has borne off all
    state = run(seated("ABC"), {"type": "result", "position_id": finished.id, "on_roll": "team"})
    assert state.games[-1].winner == "team" and state.games[-1].kind == "gammon"


def test_result_from_an_unfinished_or_malformed_position_is_refused():
    with pytest.raises(TableError, match="not finished"):
        apply_event(seated("ABC"), {"type": "result", "position_id": "4HPwATDgc/ABMA",
                                    "on_roll": "box"})
    with pytest.raises(TableError, match="Position ID 'not-an-id!!!!!': not base64"):
        apply_event(seated("ABC"), {"type": "result", "position_id": "not-an-id!!!!!",
                                    "on_roll": "box"})


def test_undo_cancels_the_latest_effective_event():
    state = run(seated("ABC"), double("box", "B"), take("B"), {"type": "undo"})
    assert state.game.box_double.waiting == ["B"]


def test_undo_is_repeatable_and_crosses_a_finished_game():
    before = run(seated("ABCD"), double("box", "B"), take("B"))
    after = run(before, result("team"))
    assert seats(after) == ("B", None, "C", "DA")
    undone = run(after, {"type": "undo"})
    assert seats(undone) == seats(before) and undone.games == [] and undone.game is not None
    twice = run(after, {"type": "undo"}, {"type": "undo"})
    assert twice.game.box_double.waiting == ["B"]


def test_undo_then_redo_is_identity():
    state = run(seated("ABCD"), double("box", "B", "C"), take("B"), drop("C"), result("box"))
    again = run(state, {"type": "undo"}, result("box"))
    assert seats(again) == seats(state) and points(again) == points(state)


def test_undo_with_nothing_to_undo_is_refused():
    from chouette.table import new_table
    with pytest.raises(TableError, match="nothing to undo"):
        apply_event(new_table(), {"type": "undo"})


def test_undo_of_a_move_takes_it_back_until_the_next_roll():
    state = run(seated("ABC"), opening(), {"type": "move", "move": "13/8 6/3"})
    back = run(state, {"type": "undo"})
    assert back.game.position == Position.initial() and back.game.dice == (5, 3)


def test_refused_event_leaves_the_state_unchanged():
    state = run(seated("ABCD"), double("box", "B"))
    snapshot = (seats(state), state.game.to_dict(), len(state.effective))
    for bad, said in ((take("C"), "C's cube was not doubled"),
                      (result("box"), "answer the open double first (waiting: B)"),
                      ({"type": "move", "move": "13/8"}, "roll the dice before moving"),
                      ({"type": "nope"}, "unknown event type 'nope'"),
                      ({"type": "join", "player": "A"}, "A is already at the table"),
                      ("garbage", "an event must be an object with a type, not 'garbage'"),
                      ({"type": "double", "by": 7}, "the doubler needs a name")):
        with pytest.raises(TableError, match=re.escape(said)):
            apply_event(state, bad)
    assert (seats(state), state.game.to_dict(), len(state.effective)) == snapshot


# --- undo across game boundaries, partner offers, leaves and the starting order -----------


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
