"""Invariants over random legal logs (hypothesis): zero sums, seats, undo, determinism."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette.standings import money
from chouette.table import apply_event, fold
from chouette.table.simulate import random_night

SETTINGS = st.fixed_dictionaries({
    "cube_mode": st.sampled_from(["multi", "single"]),
    "beavers": st.just(True),
    "raccoons": st.booleans(),
    "jacoby": st.booleans(),
    "extras": st.booleans(),
    "automatic_doubles": st.integers(0, 2),
    "all_but_one": st.sampled_from(["off", "forced_drop", "mandatory_beaver"]),
    "box_retention": st.sampled_from(["beat_captain", "net_non_negative", "net_positive"]),
    "same_value_same_action": st.booleans(),
    "stake_cents": st.integers(1, 1000),
})
NAMES = "ABCDEFGHIJ"


def fingerprint(state):
    return (
        state.summary(),
        money(state),
        state.game.to_dict() if state.game else None,
        [g.to_dict() for g in state.games],
    )


def night(data, table, board=False, games=None):
    # A seeded generator drives the hundreds of choices of a night; hypothesis picks the seed.
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    count = data.draw(st.integers(3, 9))
    games = games if games is not None else data.draw(st.integers(1, 5))
    return random_night(table, NAMES[:count], games, rng.choice, lambda: rng.randint(1, 6),
                        board=board)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), table=SETTINGS)
def test_every_game_and_the_night_sum_to_zero(data, table):
    state, _ = night(data, table)
    points, cents = money(state)
    assert sum(points.values()) == 0 and sum(cents.values()) == 0
    for record in state.games:
        assert record.box_side_points == -sum(p for _, p in record.pairs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), table=SETTINGS)
def test_each_player_seated_once_and_line_is_the_team(data, table):
    state, _ = night(data, table)
    seated = [p for p in (state.box, state.partner, state.captain) if p] + state.line
    assert len(seated) == len(set(seated))
    assert sorted(seated) == sorted(state.players)
    assert state.box is not None and state.captain is not None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), table=SETTINGS)
def test_replay_is_deterministic_and_equals_the_incremental_state(data, table):
    state, events = night(data, table)
    assert fingerprint(fold(table, events)) == fingerprint(state)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), table=SETTINGS)
def test_undo_then_reapply_gives_the_same_state(data, table):
    state, _events = night(data, table)
    k = data.draw(st.integers(1, min(5, len(state.effective))))
    undone = state
    for _ in range(k):
        undone = apply_event(undone, {"type": "undo"})
    assert len(undone.effective) == len(state.effective) - k
    redone = undone
    for event in state.effective[-k:]:
        redone = apply_event(redone, event)
    assert fingerprint(redone) == fingerprint(state)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), table=SETTINGS)
def test_board_mode_nights_keep_the_invariants(data, table):
    state, events = night(data, table, board=True, games=2)
    points, cents = money(state)
    assert sum(points.values()) == 0 and sum(cents.values()) == 0
    assert fingerprint(fold(table, events)) == fingerprint(state)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), table=SETTINGS)
def test_snapshot_round_trips_and_resumes_like_a_full_fold(data, table):
    import json

    from chouette.table import TableState, effective_events, resume

    state, events = night(data, table, board=data.draw(st.booleans()), games=3)
    snap = json.loads(json.dumps(state.snapshot()))  # it is plain JSON
    assert fingerprint(TableState.from_snapshot(snap)) == fingerprint(state)
    # Resume from the snapshot of the first finished game and fold what follows.
    first = min(state.snapshots)
    start = state.snapshots[first]
    resumed = resume(start.snapshot(), state.effective[first:])
    assert fingerprint(resumed) == fingerprint(state)
    assert effective_events(events + [{"type": "undo"}]) == list(range(len(events) - 1))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), table=SETTINGS)
def test_corrections_keep_zero_sums_and_replay_identically(data, table):
    from chouette.table import TableError

    state, _ = night(data, table, games=4)
    number = data.draw(st.integers(1, len(state.games)))
    change = data.draw(st.sampled_from([{"void": True},
                                        {"result": {"winner": "box", "kind": "gammon"}}]))
    try:
        corrected = apply_event(state, {"type": "correct", "game": number, "reason": "r", **change})
    except TableError:
        return  # refused: a later event would be illegal, or a result that cannot be fixed
    points, cents = money(corrected)
    assert sum(points.values()) == 0 and sum(cents.values()) == 0
    assert fingerprint(fold(table, corrected.effective)) == fingerprint(corrected)
