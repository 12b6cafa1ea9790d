"""The analysis waits for a lull at the tables (chouette.analysis.lull): how long it waits,
read from the log's newest event, on a clock the test moves."""

from __future__ import annotations

import datetime as dt

from chouette.analysis.lull import Lull, newest_event
from chouette.services import tables
from tests.factories import gen_table

NOW = dt.datetime(2026, 11, 27, 21, 0, 0)


class Tables:
    """The log's newest event as the test writes it, and a clock that moves when slept on."""

    def __init__(self, event_id: int | None, age: float) -> None:
        self.newest = None if event_id is None else (event_id, NOW - dt.timedelta(seconds=age))
        self.clock, self.slept, self.looks = 100.0, [], 0
        self.moves: dict[float, int] = {}  # clock -> a new event's id written then

    def read(self):
        self.looks += 1
        for at in sorted(self.moves):
            if at <= self.clock:
                self.newest = (self.moves.pop(at), NOW)
        return self.newest

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.clock += seconds

    def lull(self, seconds: float) -> Lull:
        return Lull(seconds, newest=self.read, clock=lambda: self.clock,
                    now=lambda: NOW + dt.timedelta(seconds=self.clock - 100.0), sleep=self.sleep)


def test_tables_quiet_for_longer_than_the_lull_are_judged_at_once():
    played = Tables(event_id=7, age=60)
    assert played.lull(15).wait() == 0 and played.slept == []


def test_a_command_three_seconds_ago_makes_the_worker_wait_the_rest_of_the_lull():
    played = Tables(event_id=7, age=3)
    assert played.lull(15).wait() == 12
    assert all(pause <= 1.0 for pause in played.slept)  # it looks again every second


def test_a_command_during_the_wait_starts_the_lull_again():
    played = Tables(event_id=7, age=0)
    played.moves = {105.0: 8, 111.0: 9}  # two more commands, 5 and 11 s into the wait
    assert played.lull(10).wait() == 21  # 10 s after the last one, written at 111


def test_no_lull_wanted_or_no_event_yet_waits_for_nothing():
    played = Tables(event_id=7, age=0)
    assert played.lull(0).wait() == 0 and played.looks == 0  # --quiet 0: not even a look
    assert Tables(event_id=None, age=0).lull(15).wait() == 0


def test_the_newest_event_is_read_from_the_log(app):
    with app.app_context():
        assert newest_event() is None
        first, second = gen_table(), gen_table()
        tables.append_events(first.id, 0, [{"type": "join", "player": "Ann"}], None)
        written = tables.append_events(second.id, 0, [{"type": "join", "player": "Bob"}], None)
        assert newest_event() == (written[-1].id, written[-1].at)
