"""A captain who drops the box's double and leaves before the others answer (rules 2.4, 2.5).

The acting captain is chosen once every member has answered that double: the captain's
leaving moves nobody else's seat, and the seats come out as if the captain had stayed, less
the captain. And a dropper who left gives no extra (rules 2.7).
"""

from __future__ import annotations

from typing import Any

import pytest

from chouette.table import TableError, TableState

from .helpers import double, drop, points, result, run, seated, seats, take


def leave(name: str) -> dict[str, Any]:
    return {"type": "leave", "player": name}


def join(name: str) -> dict[str, Any]:
    return {"type": "join", "player": name}


def without(state: TableState, name: str) -> tuple[Any, ...]:
    """The seats of ``state`` with ``name`` taken out of the line."""
    box, partner, captain, line = seats(state)
    return box, partner, captain, line.replace(name, "")


def test_issue_example_captain_c_line_d():
    stays = run(seated("ABCD"), double("box"), drop("B"), drop("C"), drop("D"))
    leaves = run(seated("ABCD"), double("box"), drop("B"), leave("B"), drop("C"), drop("D"))
    assert seats(stays) == ("A", None, "C", "DB")
    assert seats(leaves) == ("A", None, "C", "D") == without(stays, "B")
    assert points(leaves) == points(stays)


@pytest.mark.parametrize("cube_mode", ["multi", "single"])
@pytest.mark.parametrize("answers", [
    ("drop", "drop", "drop"),
    ("take", "drop", "drop"),
    ("drop", "take", "take"),
    ("take", "take", "take"),
    ("drop", "drop", "take"),
])
def test_seats_as_if_the_captain_had_stayed_less_the_captain(cube_mode, answers):
    def play(*middle: dict[str, Any]) -> TableState:
        state = run(seated("ABCDE", cube_mode=cube_mode, all_but_one="off"),
                    double("box"), drop("B"), *middle)
        events = [take(m) if a == "take" else drop(m) for m, a in zip("CDE", answers, strict=True)]
        state = run(state, *events)
        if state.game is not None:
            state = run(state, result("box"))
        return state

    stays, leaves = play(), play(leave("B"))
    assert without(stays, "B") == seats(leaves)
    assert points(stays) == points(leaves)


@pytest.mark.parametrize("cube_mode", ["multi", "single"])
def test_seat_waits_while_the_answers_are_pending(cube_mode):
    state = run(seated("ABCDE", cube_mode=cube_mode), double("box"), drop("B"), leave("B"),
                take("C"))
    assert state.game is not None and state.game.captain_left
    assert state.captain is None  # no stand-in: the seat waits for D's and E's answers
    assert seats(state) == ("A", None, None, "CDE")
    state = run(state, drop("D"), take("E"))
    assert not state.game.captain_left
    # The other dropper keeps a place in the line.
    assert seats(state) == ("A", None, "C", "DE")
    assert state.game.acting_captain == "C"


def test_the_lone_taker_forced_to_drop_ends_the_game_and_the_line_moves_up():
    # Five players, all but one decline forced: C's take becomes a drop, the box beat the
    # captain, and the seats are those of the captain who stayed, less that captain.
    def play(*middle: dict[str, Any]) -> TableState:
        return run(seated("ABCDE"), double("box"), drop("B"), *middle, take("C"), drop("D"),
                   drop("E"))

    stays, leaves = play(), play(leave("B"))
    assert stays.game is None and leaves.game is None
    assert seats(stays) == ("A", None, "C", "DEB")
    assert seats(leaves) == ("A", None, "C", "DE")
    assert points(leaves) == points(stays) == {"A": 4, "B": -1, "C": -1, "D": -1, "E": -1}


@pytest.mark.parametrize("cube_mode", ["multi", "single"])
def test_a_join_during_the_pending_answers_waits_in_the_line(cube_mode):
    state = run(seated("ABCD", cube_mode=cube_mode), double("box"), drop("B"), leave("B"),
                join("F"))
    # The joiner does not fill the waiting captain's seat.
    assert seats(state) == ("A", None, None, "CDF")
    state = run(state, take("C"), drop("D"))
    assert seats(state) == ("A", None, "C", "DF")
    state = run(state, result("box"))
    assert seats(state) == ("A", None, "D", "FC")
    stays = run(seated("ABCD", cube_mode=cube_mode), double("box"), drop("B"), join("F"),
                take("C"), drop("D"), result("box"))
    assert seats(state) == without(stays, "B")


def test_every_member_drops_after_the_captain_left_with_a_join():
    state = run(seated("ABCD"), double("box"), drop("B"), leave("B"), join("F"), drop("C"),
                drop("D"))
    assert state.game is None
    assert seats(state) == ("A", None, "C", "DF")


def _lone_taker_after(*middle: dict[str, Any]) -> TableState:
    return run(seated("ABCD", extras=True), double("box"), *middle)


def test_a_dropper_who_left_gives_no_extra():
    state = _lone_taker_after(drop("C"), leave("C"), drop("B"), take("D"))
    assert state.game.extras_open is not None
    with pytest.raises(TableError, match="C is not at this table"):
        run(state, {"type": "extra", "from": "C", "to": "D"})
    # A dropper still at the table may.
    state = run(state, {"type": "extra", "from": "B", "to": "D"})
    assert points(state) == {"A": 2, "B": -1 - 1, "C": -1, "D": 1}


def test_a_captain_who_dropped_and_left_gives_no_extra():
    state = _lone_taker_after(drop("B"), leave("B"), drop("C"), take("D"))
    assert seats(state) == ("A", None, "D", "C")
    with pytest.raises(TableError, match="B is not at this table"):
        run(state, {"type": "extra", "from": "B", "to": "D"})
