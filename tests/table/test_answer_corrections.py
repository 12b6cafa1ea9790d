"""A correction fixes a cube answer: a take for a drop, or a drop for a take (rules 3.2). The
log keeps what was written; the fold plays the answer as corrected, and the later seats and
amounts follow; a fix the log cannot bear is refused naming the later event."""

from __future__ import annotations

from typing import Any

import pytest

from chouette.table import TableError, fold

from .helpers import double, drop, points, result, run, seats, take

ORDER = [{"type": "join", "player": p} for p in "ABCD"] + [{"type": "order", "players": list("ABCD")}]


def fix(game: int, cube: str, value: int, now: str) -> dict[str, Any]:
    return {"type": "correct", "game": game, "reason": "wrong tap",
            "answer": {"cube": cube, "value": value, "now": now}}


def test_a_drop_fixed_into_a_take_settles_the_cube_at_the_result():
    log = [*ORDER, double("box", "C"), drop("C"), result("team")]
    assert points(fold({}, log)) == {"A": 1 - 2, "B": 1, "C": -1, "D": 1}
    fixed = fold({}, [*log, fix(1, "C", 1, "take")])
    # C's cube at 2 wins with the team: the box pays 2.
    assert points(fixed) == {"A": -4, "B": 1, "C": 2, "D": 1}
    assert fixed.games[0].correction == "wrong tap"
    assert fixed.effective[len(ORDER) + 1] == drop("C")  # the log keeps what was written


def test_a_take_fixed_into_a_drop_and_back():
    log = [*ORDER, double("box", "B", "C"), take("B"), take("C"), result("box")]
    before = fold({}, log)
    assert points(before) == {"A": 2 + 2 + 1, "B": -2, "C": -2, "D": -1}
    dropped = fold({}, [*log, fix(1, "B", 1, "drop")])
    # The captain dropped: C acts as captain, B goes to the end; C's cube loses 2.
    assert points(dropped) == {"A": 1 + 2 + 1, "B": -1, "C": -2, "D": -1}
    assert seats(before) == ("A", None, "C", "DB")
    # B went to the end at their drop; the box beat the acting captain C.
    assert seats(dropped) == ("A", None, "D", "BC")
    back = fold({}, [*log, fix(1, "B", 1, "drop"), fix(1, "B", 1, "take")])
    assert points(back) == points(before)


def test_a_fix_two_games_back_refolds_the_later_seats_and_amounts():
    log = [*ORDER, double("box", "B"), drop("B"), result("box"),      # game 1: A keeps the box
           result("team")]                                              # game 2: C beats A
    before = fold({}, log)
    fixed = fold({}, [*log, fix(1, "B", 1, "take")])
    assert fixed.games[0].captain_won is False and len(fixed.games) == 2
    assert points(fixed)["B"] == points(before)["B"] - 1
    # As written: B's drop sends B to the end at once, the box beats the acting captain C,
    # and D beats the box in game 2. Fixed: the box beats B, and C beats the box.
    assert seats(before) == ("D", None, "B", "CA")
    assert seats(fixed) == ("C", None, "D", "BA")


def test_a_fix_that_a_later_event_cannot_bear_names_it():
    # A fix of C's take into a drop makes C's later redouble impossible.
    log = [*ORDER, double("box", "C"), take("C"), double("C"), take("C"), result("team")]
    with pytest.raises(TableError, match=r"event 8 \(double\) would be refused: C's cube is out of play"):
        fold({}, [*log, fix(1, "C", 1, "drop")])


@pytest.mark.parametrize(("answer", "said"), [
    ({"cube": "C", "value": 2, "now": "take"}, "C's cube at 2 was not doubled"),
    ({"cube": "D", "value": 1, "now": "take"}, "D's cube at 1 was not doubled"),
    ({"cube": "C", "value": 1, "now": "beaver"}, 'must be a cube, its value before the double'),
    ({"cube": "C", "value": "1", "now": "take"}, 'must be a cube, its value before the double'),
])
def test_a_fix_of_an_answer_that_never_was_is_refused(answer, said):
    log = [*ORDER, double("box", "C"), drop("C"), result("team")]
    with pytest.raises(TableError, match=said):
        fold({}, [*log, {"type": "correct", "game": 1, "reason": "x", "answer": answer}])


def test_a_fix_says_one_thing():
    log = [*ORDER, double("box", "C"), drop("C"), result("team")]
    event = {**fix(1, "C", 1, "take"), "void": True}
    with pytest.raises(TableError, match="fixes one answer"):
        fold({}, [*log, event])


def test_the_fixed_answer_and_a_fixed_result_together():
    log = [*ORDER, double("box", "C"), drop("C"), result("team")]
    both = fold({}, [*log, fix(1, "C", 1, "take"),
                     {"type": "correct", "game": 1, "reason": "and a gammon",
                      "result": {"winner": "team", "kind": "gammon"}}])
    assert points(both) == {"A": -8, "B": 2, "C": 4, "D": 2}
    undone = run(both, {"type": "undo"})
    assert points(undone) == points(fold({}, [*log, fix(1, "C", 1, "take")]))
