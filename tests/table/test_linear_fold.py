"""Folding a log is linear (issue 12, finding 6): each event costs the same however long the
log, counted, not timed.

A state shares its effective log, its games and its snapshots with the state before it
(``chouette.table.history``); ``WORK`` counts the events the rules applied and the items
copied out of a shared list. Before, every ``apply_event`` copied the whole log and every
game: a fold of n events copied about n * n / 2 items (10,000 events: 24.5 s to import).
"""

from __future__ import annotations

import random
import threading

import pytest

from chouette.standings import money_changes, touched_games
from chouette.table import apply_event, fold, new_table, try_event
from chouette.table.actions import legal_actions
from chouette.table.history import WORK, History, Snapshots
from chouette.table.simulate import random_night

SETTINGS = {"partner_min_players": 0}


@pytest.fixture(scope="module")
def night() -> list[dict]:
    """A seeded night of 160 games (about 2,000 events)."""
    rng = random.Random(12)
    _state, events = random_night(SETTINGS, list("ABCDEF"), 160, rng.choice, lambda: rng.randint(1, 6))
    return events


def _work(run) -> tuple[int, int]:
    """(events applied, items copied) while ``run()`` runs."""
    events, copied = WORK.events, WORK.copied
    run()
    return WORK.events - events, WORK.copied - copied


def _one_by_one(events: list[dict]):
    """The import's way: ``apply_event`` for each event, keeping each state before."""
    state = new_table(SETTINGS)
    for event in events:
        before, state = state, apply_event(state, event)
        money_changes(before, state)
    return state


@pytest.mark.parametrize("way", [lambda events: fold(SETTINGS, events), _one_by_one],
                         ids=["fold", "apply_event"])
def test_a_log_four_times_longer_costs_four_times_the_work(night, way):
    quarter = len(night) // 4
    short = _work(lambda: way(night[:quarter]))
    whole = _work(lambda: way(night[:4 * quarter]))
    # Each event applied once, nothing refolded, nothing copied: work in proportion.
    assert short == (quarter, 0)
    assert whole == (4 * quarter, 0)


def test_the_state_after_an_event_shares_the_log_and_the_games_of_the_state_before(night):
    state = fold(SETTINGS, night)
    games = len(state.games)
    event = next(a for a in legal_actions(state) if a["type"] == "result")
    after = apply_event(state, event)
    assert after.effective.shared_prefix(state.effective) == len(state.effective)
    assert after.games.shared_prefix(state.games) == games
    assert len(after.games) == games + 1 and len(after.effective) == len(night) + 1
    # The state before is unchanged: the next event is judged against what it was.
    assert len(state.effective) == len(night) and len(state.games) == games


def test_money_changes_of_one_event_look_only_at_the_games_it_touched(night):
    state = fold(SETTINGS, night)
    event = next(a for a in legal_actions(state) if a["type"] == "result")
    after = apply_event(state, event)
    assert touched_games(state, after) == {len(state.games) + 1}


def test_trying_events_leaves_the_log_free_for_the_next_real_event(night):
    state = fold(SETTINGS, night)
    legal = legal_actions(state)  # tries every candidate on the state (try_event)
    assert len(legal) > 3
    applied, copied = _work(lambda: apply_event(state, legal[0]))
    assert (applied, copied) == (1, 0)


def test_an_event_applied_after_an_earlier_try_with_apply_event_copies_once():
    state = fold(SETTINGS, [{"type": "join", "player": p} for p in "ABC"])
    apply_event(state, {"type": "join", "player": "D"})  # the shared list now ends past state
    _applied, copied = _work(lambda: apply_event(state, {"type": "join", "player": "E"}))
    assert copied == 3  # its own copy of the three joins; the other state keeps its own


def test_undo_refolds_only_from_the_last_game_end(night):
    state = fold(SETTINGS, night[:-1])  # the last game before its result
    since_last_game = len(state.effective) - max(state.snapshots)
    assert since_last_game > 1
    applied, _copied = _work(lambda: apply_event(state, {"type": "undo"}))
    assert applied == since_last_game - 1


def test_try_event_gives_the_same_state_as_apply_event(night):
    state = fold(SETTINGS, night[:-1])
    tried, applied = try_event(state, night[-1]), apply_event(state, night[-1])
    assert tried.snapshot() == applied.snapshot()
    assert list(tried.effective) == list(applied.effective) == night
    assert list(tried.games) == list(applied.games)


def test_folding_prefixes_by_apply_event_and_fold_agree(night):
    for cut in (1, 17, len(night) // 2, len(night)):
        assert _one_by_one(night[:cut]).snapshot() == fold(SETTINGS, night[:cut]).snapshot()


# --------------------------------------------------------------------------- History


def test_views_of_one_list_each_see_their_own_items():
    first = History("ab")
    second = first.copy()
    second.append("c")
    third = first.copy()
    third.append("x")  # first's list already goes on with "c": third copies
    assert (list(first), list(second), list(third)) == (["a", "b"], ["a", "b", "c"], ["a", "b", "x"])
    assert second.shared_prefix(first) == 2 and third.shared_prefix(first) is None
    assert second == ["a", "b", "c"] and second[-1] == "c" and second[1:] == ["b", "c"]
    assert list(reversed(second)) == ["c", "b", "a"] and second + ["d"] == ["a", "b", "c", "d"]
    with pytest.raises(IndexError):
        second[3]


def test_an_overlay_reads_through_and_writes_aside():
    base = History([1, 2, 3])
    look = base.overlay()
    look.append(4)
    assert list(look) == [1, 2, 3, 4] and look[2] == 3 and look[3] == 4 and look[-4] == 1
    assert look[1:] == [2, 3, 4] and list(reversed(look)) == [4, 3, 2, 1]
    assert list(look.prefix(2)) == [1, 2] and list(look.prefix(4)) == [1, 2, 3, 4]
    base.append(5)  # the shared list is still free: in place, no copy
    assert list(base) == [1, 2, 3, 5] and list(look) == [1, 2, 3, 4]


def test_a_prefix_is_a_view_and_refuses_a_length_out_of_range():
    items = History(range(5))
    head = items.prefix(2)
    head.append(9)
    assert list(head) == [0, 1, 9] and list(items) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="prefix of 6"):
        items.prefix(6)


def test_snapshots_keep_keys_in_order_and_find_the_latest_before():
    marks = Snapshots([(7, "g"), (3, "c")])
    assert dict(marks) == {3: "c", 7: "g"} and marks[7] == "g"
    assert marks.upto(2) is None and marks.upto(3) == 3 and marks.upto(100) == 7
    assert dict(marks.before(5)) == {3: "c"}
    with pytest.raises(ValueError, match="at 7 after one at 7"):
        marks.add(7, "again")
    with pytest.raises(KeyError):
        marks[4]


def test_views_appending_at_once_from_threads_never_see_each_others_items():
    shared = History(range(100))
    views = [shared.copy() for _ in range(8)]
    start = threading.Barrier(len(views))

    def grow(view: History, mark: int) -> None:
        start.wait()
        for _ in range(500):
            view.append(mark)

    threads = [threading.Thread(target=grow, args=(view, n)) for n, view in enumerate(views)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for n, view in enumerate(views):
        assert list(view) == [*range(100), *[n] * 500]
    assert list(shared) == list(range(100))


def test_sampled_games_are_legal_whole_games():
    from chouette.table.simulate import play_game, seat_players

    rng = random.Random(5)
    state, events = seat_players(new_table(SETTINGS), list("ABCDE"), lambda: rng.randint(1, 6))
    for _ in range(30):
        games = len(state.games)
        state, more = play_game(state, rng.choice, lambda: rng.randint(1, 6), sample=True)
        assert len(state.games) == games + 1 and more
        events += more
    assert fold(SETTINGS, events).snapshot() == state.snapshot()


@pytest.mark.parametrize("cut", [slice(None), slice(2, None), slice(None, -2), slice(-3, None),
                                 slice(None, None, -1), slice(5, 1, -2), slice(-100, 100), slice(4, 2)])
def test_a_history_slices_as_a_list_does(cut):
    whole = History(range(10))
    head = whole.prefix(6)
    look = head.overlay()
    look.append(99)
    assert whole[cut] == list(range(10))[cut]
    assert head[cut] == list(range(6))[cut]
    assert look[cut] == [*range(6), 99][cut]
