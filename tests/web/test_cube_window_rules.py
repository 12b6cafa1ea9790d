"""The turn's cube window at an online table (issue 26 item 2; ``services.cube_window``), on a
real database: who is asked "double or roll" (docs/rules.md 2.4, 2.5), auto-roll, the roller's
roll waiting for the window, the time limit (an unanswered window rolls, an unanswered double
is decided by the table's rule), and that bad input changes nothing.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from flask import Flask

from chouette.extensions import db
from chouette.models import Member, TurnWindow
from chouette.services import base, commands, deciders, table_states
from chouette.services import cube_window as windows
from tests.concurrency import at_once
from tests.web.test_phone_decisions import Phones

ONLINE = {"play": "online"}


def board_game(phones: Phones, *, box_first: bool = True) -> None:
    """Start a board game and play the opening: the team is on roll next (box_first) or the
    box (the team opened)."""
    if box_first:
        phones.table.play({"type": "opening_roll", "box": 3, "team": 1}, {"type": "move", "move": "8/5 6/5"})
    else:
        phones.table.play({"type": "opening_roll", "box": 1, "team": 3}, {"type": "move", "move": "8/5 6/5"})


def member(app: Flask, phones: Phones, name: str) -> Member:
    member = db.session.get(Member, phones.members[name].id)
    assert member is not None
    return member


def window(phones: Phones) -> windows.Window:
    found = windows.read_view(table_states.load_play(phones.table.id))
    db.session.rollback()  # a reader: another session may write next
    assert found is not None
    return found


def in_request(app: Flask):
    return app.test_request_context()


def test_a_club_table_has_no_window(app: Flask) -> None:
    phones = Phones(app, "ABCD")
    board_game(phones)
    with in_request(app):
        assert table_states.load_play(phones.table.id).state.settings.online is False
        assert windows.phase_of(table_states.load_play(phones.table.id).state) is None
        with pytest.raises(base.ServiceError, match="at the club"):
            windows.answer_roll(phones.table.id, member(app, phones, "B"))


def test_multi_cube_every_live_member_may_double_crew_on_auto_roll(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    with in_request(app):
        found = window(phones)
        assert found.phase.kind == "window" and found.phase.side == "team"
        assert found.eligible == ("B", "C", "D")
        # Auto-roll is the crew's default, off for the captain: only B is asked.
        assert found.asked == ("B",) and found.waiting == ("B",) and found.roller == "B"


def test_single_cube_asks_the_captain_alone(app: Flask) -> None:
    phones = Phones(app, "ABCD", cube_mode="single", **ONLINE)
    board_game(phones)
    with in_request(app):
        windows.set_auto_roll(phones.table.id, member(app, phones, "C"), False)
        found = window(phones)
        assert found.eligible == ("B",) and found.asked == ("B",)


def test_members_whose_cube_is_doubled_or_dead_are_not_asked(app: Flask) -> None:
    phones = Phones(app, "ABCDE", **ONLINE)
    board_game(phones, box_first=False)  # the team opened: the box's turn
    # The box doubles C and D; C takes (C owns the cube: C may redouble), D drops (dead).
    phones.table.play({"type": "double", "by": "box", "cubes": ["C", "D"]},
                      {"type": "take", "cube": "C"}, {"type": "drop", "cube": "D"})
    phones.table.play({"type": "roll", "dice": [3, 1]}, {"type": "move", "move": "8/5 6/5"})
    # The team's turn: E doubles the box, which takes (the box owns E's cube now).
    phones.table.play({"type": "double", "by": "E"}, {"type": "take", "cube": "E"})
    with in_request(app):
        for name in "CDE":
            windows.set_auto_roll(phones.table.id, member(app, phones, name), False)
        found = window(phones)
        assert found.phase.side == "team"
        assert found.eligible == ("B", "C")  # not D (dropped), not E (the box owns it)
        assert found.asked == ("B", "C")


def test_the_box_is_asked_before_the_box_rolls(app: Flask) -> None:
    phones = Phones(app, "ABC", **ONLINE)
    board_game(phones, box_first=False)
    with in_request(app):
        found = window(phones)
        assert found.phase.side == "box" and found.asked == ("A",) and found.roller == "A"
        before = len(phones.table.log())
        outcome = windows.answer_roll(phones.table.id, member(app, phones, "A"))
        assert outcome.rolled
    assert len(phones.table.log()) == before + 1 and phones.table.log()[-1]["type"] == "roll"


def test_the_captains_roll_waits_for_the_window(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    table_id = phones.table.id
    with in_request(app):
        windows.set_auto_roll(table_id, member(app, phones, "C"), False)
        seq = phones.table.seq()
        # The captain says roll: C has not answered, so nothing is rolled.
        outcome = windows.answer_roll(table_id, member(app, phones, "B"))
        assert not outcome.rolled
        assert outcome.message == "Your roll waits for C to say double or roll."
        assert phones.table.seq() == seq
        refusal = windows.roll_refusal(table_states.load_play(table_id))
        assert refusal == "The cube window is open: the roll waits for C to say double or roll."
        # C says roll: the window closes and the dice are rolled in the same command.
        outcome = windows.answer_roll(table_id, member(app, phones, "C"))
        assert outcome.rolled
    assert phones.table.log()[-1]["type"] == "roll"


def test_an_auto_roll_member_holds_the_roll(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    table_id = phones.table.id
    with in_request(app):
        windows.hold(table_id, member(app, phones, "D"))
        assert window(phones).asked == ("B", "D")
        windows.answer_roll(table_id, member(app, phones, "B"))
        assert window(phones).waiting == ("D",)
        # D doubles instead (the log's double event): the box must answer.
        commands.play(table_id, phones.table.seq(), {"type": "double", "by": "D"}, member(app, phones, "D"))
        db.session.commit()
        assert window(phones).phase.kind == "answer"


def test_a_member_may_answer_only_for_themselves(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    with in_request(app):
        with pytest.raises(deciders.NotAllowed):
            windows.answer_roll(phones.table.id, member(app, phones, "C"), "B")
        with pytest.raises(base.ServiceError, match="not asked"):
            windows.answer_roll(phones.table.id, member(app, phones, "A"))
        assert window(phones).answers == {}


def backdate(app: Flask, phones: Phones, seconds: int) -> None:
    """The decision the table waits for opened ``seconds`` earlier than it did (the window's
    row, brought to that decision by a "time up" that finds nothing due yet)."""
    with app.test_request_context():
        owner = db.session.get(Member, phones.table.owner.id)
        assert windows.time_up(phones.table.id, owner).rolled is False
        row = db.session.get(TurnWindow, phones.table.id)
        assert row is not None
        row.opened_at -= timedelta(seconds=seconds)
        db.session.commit()


def expire(app: Flask, phones: Phones, seconds: int = 30) -> None:
    """The decision waited for opened more than the table's time limit (``seconds``) ago."""
    backdate(app, phones, seconds + 1)


def test_the_time_limit_rolls_an_unanswered_window(app: Flask) -> None:
    phones = Phones(app, "ABCD", decision_seconds=30, **ONLINE)
    board_game(phones)
    with in_request(app):
        assert windows.time_up(phones.table.id, member(app, phones, "C")).rolled is False  # not yet
        expire(app, phones)
        seq = phones.table.seq()
        assert windows.time_up(phones.table.id, member(app, phones, "C")).rolled
    assert phones.table.seq() == seq + 1 and phones.table.log()[-1]["type"] == "roll"


@pytest.mark.parametrize("rule", ["drop", "take"])
def test_an_unanswered_double_is_decided_by_the_tables_rule(app: Flask, rule: str) -> None:
    phones = Phones(app, "ABCD", decision_seconds=20, unanswered_double=rule, **ONLINE)
    board_game(phones, box_first=False)
    phones.table.play({"type": "double", "by": "box", "cubes": ["B", "C", "D"]},
                      {"type": "take", "cube": "B"})
    expire(app, phones, 20)
    with in_request(app):
        windows.time_up(phones.table.id, member(app, phones, "B"))
    log = phones.table.log()
    assert log[-2:] == [{"type": rule, "cube": "C"}, {"type": rule, "cube": "D"}]


def test_the_time_limit_never_moves_for_anyone(app: Flask) -> None:
    phones = Phones(app, "ABCD", decision_seconds=30, **ONLINE)
    board_game(phones)
    phones.table.play({"type": "roll", "dice": [6, 5]})
    with in_request(app):
        expire(app, phones)
        seq = phones.table.seq()
        assert windows.time_up(phones.table.id, member(app, phones, "B")).rolled is False
        assert window(phones).phase.kind == "move"
    assert phones.table.seq() == seq


def test_without_a_time_limit_nothing_is_ever_overdue(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)  # decision_seconds: 0 by default, no clock
    board_game(phones)
    backdate(app, phones, 3600)
    with in_request(app):
        assert window(phones).deadline is None
        seq = phones.table.seq()
        assert windows.time_up(phones.table.id, member(app, phones, "C")).rolled is False
    assert phones.table.seq() == seq


def test_the_box_answers_every_waiting_cube_at_once(app: Flask) -> None:
    phones = Phones(app, "ABCD", beavers=True, **ONLINE)
    board_game(phones)
    table_id = phones.table.id
    for name in "CD":
        phones.table.play({"type": "double", "by": name})
    with in_request(app):
        box = member(app, phones, "A")
        seq = table_states.load_play(table_id).seq
        db.session.rollback()
        with pytest.raises(base.ServiceError, match="every cube: D"):
            windows.answer_all(table_id, seq, box, {"C": "take"})
        db.session.rollback()
        assert table_states.load_play(table_id).seq == seq
        db.session.rollback()
        with pytest.raises(deciders.NotAllowed):
            windows.answer_all(table_id, seq, member(app, phones, "B"), {"C": "take", "D": "drop"})
        db.session.rollback()
        outcome = windows.answer_all(table_id, seq, box, {"C": "take", "D": "drop"})
        assert outcome.rolled  # written
    assert phones.table.log()[-2:] == [{"type": "take", "cube": "C"}, {"type": "drop", "cube": "D"}]



def test_a_decision_is_timed_from_its_own_event(app: Flask) -> None:
    """The double written by another command (the window's row has not seen it) is timed
    from the double's own time in the log: a late command finds the rule applied first."""
    phones = Phones(app, "ABCD", decision_seconds=1, **ONLINE)
    board_game(phones, box_first=False)
    phones.table.play({"type": "double", "by": "box", "cubes": ["B"]})
    time.sleep(1.2)
    with in_request(app):
        played = table_states.load_play(phones.table.id)
        assert windows.overdue(played)
        db.session.rollback()
        windows.settle(phones.table.id, member(app, phones, "C"))
    assert phones.table.log()[-1] == {"type": "drop", "cube": "B"}


def test_answers_at_one_moment_roll_once(app: Flask) -> None:
    """The captain and two held members say roll at the same moment: every answer is kept
    (none lost by another's write) and the dice are rolled exactly once."""
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    table_id = phones.table.id
    with in_request(app):
        for name in "CD":
            windows.set_auto_roll(table_id, member(app, phones, name), False)
    seq = phones.table.seq()
    ids = [phones.members[name].id for name in "BCD"]

    def attempt(number: int) -> None:
        with app.test_request_context():
            windows.answer_roll(table_id, db.session.get(Member, ids[number]))

    assert at_once(app, 3, attempt, ()) == ["ok"] * 3
    log = phones.table.log()
    assert len(log) == seq + 1 and log[-1]["type"] == "roll"


def test_a_roll_taken_back_opens_a_new_window(app: Flask) -> None:
    """The organizer undoes the window's roll: the window is asked again, its old answers
    gone (they would roll again at once)."""
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    with in_request(app):
        assert windows.answer_roll(phones.table.id, member(app, phones, "B")).rolled
    phones.table.play({"type": "undo"})
    with in_request(app):
        found = window(phones)
        assert found.phase.kind == "window" and found.answers == {} and found.waiting == ("B",)
        assert windows.time_up(phones.table.id, member(app, phones, "C")).rolled is False
    assert phones.table.log()[-1] == {"type": "undo"}


def test_nothing_to_hold_for_who_may_not_double(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    with in_request(app):
        with pytest.raises(base.ServiceError, match=r"Nothing to hold: A may not double now\."):
            windows.hold(phones.table.id, member(app, phones, "A"))
        db.session.rollback()
        assert window(phones).answers == {}
