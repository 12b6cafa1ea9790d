"""Resuming a log from a stored snapshot (``can_resume``, ``resume_log``): the state is the
full fold's, or the snapshot is refused when the later log reaches back before it (an undo
past the game's end) or corrects an earlier game."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from chouette.table import (
    TableError,
    apply_event,
    can_resume,
    finishes_game,
    fold,
    new_table,
    resume,
    resume_log,
)
from chouette.table.actions import legal_actions
from chouette.table.simulate import seat_players

from .helpers import double, result, seated, take
from .test_properties import SETTINGS, fingerprint

UNDO = {"type": "undo"}


def full(state):
    """Everything a later command can see: the fingerprint and the effective log."""
    return fingerprint(state), state.effective, state.corrections


def ends_of(settings_, events):
    """(seq, JSON snapshot) of every event that finished a game, as commands store them."""
    state, ends = new_table(settings_), []
    for seq, event in enumerate(events, start=1):
        before, state = state, apply_event(state, event)
        if finishes_game(before, state, event):
            ends.append((seq, json.loads(json.dumps(state.snapshot()))))
    return ends


def three_games():
    """A log of three score-sheet games (the box wins the first and the third)."""
    start = seated("ABCDE")
    return start.effective + [result("box"), result("team", "gammon"), double("box", "D"),
                              take("D"), result("box")]


def test_a_snapshot_resumes_to_the_full_fold_with_the_whole_effective_log():
    events = three_games()
    ends = ends_of({}, events)
    assert [seq for seq, _ in ends] == [7, 8, 11]
    for seq, snapshot in ends:
        assert can_resume(events, seq)
        assert full(resume_log(snapshot, seq, events)) == full(fold({}, events))


def test_an_undo_past_the_games_end_refuses_its_snapshot_but_not_the_one_before():
    events = three_games() + [UNDO]  # the third game's result is undone
    (first, _), (second, snap_second), (third, snap_third) = ends_of({}, three_games())
    assert not can_resume(events, third)
    with pytest.raises(TableError, match="reaches back before it"):
        resume_log(snap_third, third, events)
    # Resumed naively, the third game would still be over: the reason for the refusal.
    assert len(resume(snap_third, []).games) == 3 and len(fold({}, events).games) == 2
    assert can_resume(events, second) and can_resume(events, first)
    assert full(resume_log(snap_second, second, events)) == full(fold({}, events))


def test_undos_after_the_snapshot_that_stay_after_it_are_folded():
    first, second = fold({}, three_games()).seats.team[:2]
    events = three_games() + [double("box", first), UNDO, double("box", second), UNDO]
    seq, snapshot = ends_of({}, three_games())[-1]
    assert can_resume(events, seq)
    assert full(resume_log(snapshot, seq, events)) == full(fold({}, events))


def test_undo_then_a_new_result_is_a_new_snapshot_and_the_old_one_stays_refused():
    events = three_games() + [UNDO, result("team")]
    ends = ends_of({}, events)
    assert [seq for seq, _ in ends] == [7, 8, 11, 13]
    assert not can_resume(events, 11) and can_resume(events, 13)
    assert full(resume_log(ends[-1][1], 13, events)) == full(fold({}, events))
    assert fold({}, events).games[-1].winner == "team"


def test_a_correction_after_a_snapshot_refuses_it_and_a_snapshot_after_it_is_used():
    corrected = three_games() + [{"type": "correct", "game": 2, "reason": "r", "void": True}]
    ends = ends_of({}, three_games())
    assert not any(can_resume(corrected, seq) for seq, _ in ends)
    member = fold({}, corrected).seats.team[0]
    events = corrected + [double("box", member), take(member), result("box", "gammon")]
    (seq, snapshot), = [end for end in ends_of({}, events) if end[0] > len(corrected)]
    assert can_resume(events, seq)
    resumed = resume_log(snapshot, seq, events)
    assert full(resumed) == full(fold({}, events)) and resumed.games[1].voided


def test_undoing_the_correction_refuses_the_snapshots_taken_with_it():
    corrected = three_games() + [{"type": "correct", "game": 2, "reason": "r", "void": True}]
    member = fold({}, corrected).seats.team[0]
    corrected += [double("box", member), take(member), result("box", "gammon")]
    seq, _ = ends_of({}, corrected)[-1]
    events = corrected + [UNDO, UNDO, UNDO, UNDO]  # back to before the correction
    assert not can_resume(events, seq)
    assert [can_resume(events, s) for s, _ in ends_of({}, three_games())] == [True, True, True]


def test_undo_and_corrections_on_a_resumed_state_act_as_on_the_full_fold():
    events = three_games()
    whole = fold({}, events)
    (first, snap_first), _, (seq, snapshot) = ends_of({}, events)
    resumed = resume_log(snapshot, seq, events)
    # An undo reaching before the snapshot refolds from the start: still right.
    for _ in range(6):
        whole, resumed = apply_event(whole, UNDO), apply_event(resumed, UNDO)
        assert full(resumed) == full(whole)
    fix = {"type": "correct", "game": 1, "reason": "r", "result": {"winner": "team", "kind": "single"}}
    resumed = resume_log(snap_first, first, events)
    assert full(apply_event(resumed, fix)) == full(apply_event(fold({}, events), fix))


def test_a_snapshot_from_past_the_log_or_a_malformed_one_is_refused():
    events = three_games()
    assert not can_resume(events, len(events) + 1) and not can_resume(events, -1)
    with pytest.raises(TableError, match="malformed"):
        resume_log({"settings": {}}, 7, events)
    (first, snapshot), *_ = ends_of({}, events)
    with pytest.raises(TableError, match="not of this log"):
        resume_log(snapshot, first, [{"type": "join", "player": "Z"}, UNDO] + events)


# --------------------------------------------------------------------------- random nights


def night_with_undos(data, table):
    """A random legal night whose organizer undoes now and then (often right after a game's
    end, sometimes several events back) and corrects a game now and then."""
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    names = "ABCDEFGHIJ"[:data.draw(st.integers(3, 8), label="players")]
    state, events = seat_players(new_table(table), names, lambda: rng.randint(1, 6))
    seated_at = len(state.effective)  # never undo the seating (the order roll)
    for _ in range(data.draw(st.integers(20, 120), label="steps")):
        roll = rng.random()
        if state.games and roll < 0.04:
            number = rng.randint(1, len(state.games))
            event = {"type": "correct", "game": number, "reason": "r",
                     **rng.choice([{"void": True}, {"result": {"winner": "box", "kind": "gammon"}},
                                   {"result": {"winner": "team", "kind": "single"}}])}
        elif roll < 0.2 and len(state.effective) > seated_at:
            event = UNDO
        else:
            actions = legal_actions(state)
            if not actions:
                continue
            cube = [a for a in actions if a["type"] != "result"]
            results = [a for a in actions if a["type"] == "result"]
            event = rng.choice(results if results and (not cube or rng.random() < 0.3) else cube)
        try:
            before, state = state, apply_event(state, event)
        except TableError:
            continue  # a correction the later log refuses
        events.append(event)
        if finishes_game(before, state, event) and rng.random() < 0.4:
            for _ in range(rng.randint(1, 3)):  # undo past the game's end
                if len(state.effective) > seated_at:
                    state = apply_event(state, UNDO)
                    events.append(UNDO)
    return state, events


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), table=SETTINGS)
def test_every_snapshot_the_log_still_leads_to_resumes_to_the_full_fold(data, table):
    state, events = night_with_undos(data, table)
    whole = fold(table, events)
    assert full(whole) == full(state)
    for seq, snapshot in ends_of(table, events):
        if not can_resume(events, seq):
            note("a snapshot the later log refuses")
            continue
        note("a snapshot resumed")
        resumed = resume_log(snapshot, seq, events)
        assert full(resumed) == full(whole), f"resumed from the snapshot after event {seq}"
    # And a command after the resume (an undo, or the next legal action) too.
    latest = [(seq, snap) for seq, snap in ends_of(table, events) if can_resume(events, seq)]
    if latest and whole.effective:
        seq, snapshot = latest[-1]
        resumed = resume_log(snapshot, seq, events)
        for command in [UNDO, *legal_actions(whole)[:1]]:
            assert full(apply_event(resumed, command)) == full(apply_event(whole, command))
