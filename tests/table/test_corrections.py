"""Corrections (issue 5): void a game or fix a declared result, with a reason; everything after
it is recomputed from the log, and a correction that would make a later event illegal is refused."""

from __future__ import annotations

import json

import pytest

from chouette.table import TableError, apply_event, fold
from tests.scenarios import SCENARIOS

from .helpers import double, drop, points, result, run, seated, seats, take

SCENARIO = SCENARIOS / "04-board-game.json"


def correct(game, reason="mis-entered", **change):
    return {"type": "correct", "game": game, "reason": reason, **change}


def _night():
    # Three score-sheet games; game 2 is the one corrected below.
    return run(seated("ABCDE"), result("box"), result("team", "gammon"), double("box", "D"),
               take("D"), result("box"))


def test_void_a_game_in_the_middle_of_the_night_equals_the_log_without_it():
    voided = run(_night(), correct(2, void=True))
    without = run(seated("ABCDE"), result("box"), double("box", "D"), take("D"), result("box"))
    assert seats(voided) == seats(without)
    assert points(voided) == points(without)
    assert voided.games[1].voided and voided.games[1].correction == "mis-entered"


def test_fix_a_result_recomputes_rotation_and_money_after_it():
    fixed = run(_night(), correct(2, result={"winner": "box", "kind": "single"}))
    direct = run(seated("ABCDE"), result("box"), result("box"), double("box", "D"), take("D"),
                 result("box"))
    assert seats(fixed) == seats(direct) and points(fixed) == points(direct)
    assert fixed.games[1].correction == "mis-entered"


def test_voided_game_drops_are_refunded():
    state = run(seated("ABCD"), double("box", "B", "C"), drop("B"), take("C"), result("team"),
                correct(1, void=True))
    assert points(state) == {"A": 0, "B": 0, "C": 0, "D": 0}
    assert seats(state) == seats(seated("ABCD"))


def test_correction_that_makes_a_later_event_illegal_is_refused_and_changes_nothing():
    # After game 1 (box wins), C is captain; the box doubles B in game 2. If game 1 is fixed
    # to a team win, B becomes the box and cannot be doubled.
    state = run(seated("ABCD"), result("box"), double("box", "B"))
    with pytest.raises(TableError, match=r"event \d+ \(double\) would be refused"):
        apply_event(state, correct(1, result={"winner": "team", "kind": "single"}))
    assert len(state.games) == 1 and state.game.box_double.cubes == ["B"]


@pytest.mark.parametrize(("event", "message"), [
    (correct(9, void=True), "no finished game 9"),
    (correct(1, reason="", void=True), "needs a reason"),
    (correct(1), "either voids the game or gives its right result"),
    (correct(1, void=True, result={"winner": "box", "kind": "single"}), "either voids"),
    (correct(1, result={"winner": "nobody", "kind": "single"}), "must be a winner"),
    (correct(1, result={"winner": "box", "kind": "nonsense"}), "must be a winner"),
    (correct(1, result={"winner": "box", "kind": []}), "must be a winner"),
])
def test_malformed_corrections_are_refused(event, message):
    with pytest.raises(TableError, match=message):
        apply_event(_night(), event)


def test_result_of_a_game_ended_by_drops_cannot_be_fixed_only_voided():
    state = run(seated("ABC"), double("box"), drop("B"), drop("C"))
    with pytest.raises(TableError, match="every cube was dropped"):
        apply_event(state, correct(1, result={"winner": "team", "kind": "single"}))
    assert points(run(state, correct(1, void=True)))["A"] == 0


def test_board_game_result_cannot_be_fixed_only_voided():
    log = json.loads(SCENARIO.read_text())
    state = fold(log["table"], log["events"])
    with pytest.raises(TableError, match="played on the board"):
        apply_event(state, correct(1, result={"winner": "box", "kind": "single"}))
    voided = apply_event(state, correct(1, void=True))
    assert set(points(voided).values()) == {0}


def test_undo_of_a_correction_restores_the_night():
    night = _night()
    again = run(night, correct(2, void=True), {"type": "undo"})
    assert seats(again) == seats(night) and points(again) == points(night)


def test_replay_of_a_corrected_log_is_the_same_state():
    state = run(_night(), correct(2, void=True), result("team"))
    replayed = fold({}, state.effective)
    assert seats(replayed) == seats(state) and points(replayed) == points(state)
    assert [g.voided for g in replayed.games] == [False, True, False, False]


def test_snapshot_keeps_the_corrections():
    from chouette.table import TableState, resume

    state = run(_night(), correct(2, void=True))
    restored = TableState.from_snapshot(json.loads(json.dumps(state.snapshot())))
    assert restored.corrections == state.corrections
    after = resume(state.snapshot(), [result("box")])
    assert len(after.games) == 4
