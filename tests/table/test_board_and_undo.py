"""Board mode through the engine, score-sheet mode, and undo (DESIGN.md, RULES 1.9)."""

from __future__ import annotations

import json
import re

import pytest

from chouette.engine import Position
from chouette.table import TableError, apply_event, fold
from tests.scenarios import SCENARIOS

from .helpers import double, drop, points, result, run, seated, seats, take

SCENARIO = SCENARIOS / "04-board-game.json"


def opening(box=5, team=3):
    return {"type": "opening_roll", "box": box, "team": team}


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
