"""House rules changed between games (docs/rules.md 2.12, issue 14 item 3): a settings event applies
from the next game, is refused while a game is in progress, and folds, resumes and undoes
like any event; every game keeps the rules it was played by."""

from __future__ import annotations

import pytest

from chouette.standings import games_money
from chouette.table import (
    Settings,
    TableError,
    TableState,
    apply_event,
    fold,
    resume_log,
)
from tests.table.helpers import double, drop, result, run, seated, take


def change(**settings: object) -> dict[str, object]:
    return {"type": "settings", "settings": settings}


def cents_of(state: TableState, number: int) -> dict[str, int]:
    return next(g.cents for g in games_money(state) if g.number == number)


def test_a_settings_change_applies_from_the_next_game():
    state = run(seated("ABC"), result("team"))
    state = apply_event(state, change(stake_cents=250, jacoby=True))
    state = run(state, result("team", "gammon"))
    assert state.settings_for(1).stake_cents == 100 and not state.settings_for(1).jacoby
    assert state.settings_for(2).stake_cents == 250 and state.settings_for(2).jacoby
    # Game 1 at 1.00 a point; game 2 (box B, captain C) at 2.50, and with the Jacoby rule
    # now on the gammon of a cube never turned counts single.
    assert cents_of(state, 1) == {"A": -200, "B": 100, "C": 100}
    assert cents_of(state, 2) == {"B": -500, "C": 250, "A": 250}
    changes = state.settings_changes()
    assert [(first, changed) for first, _s, changed in changes] == [
        (2, {"stake_cents": (100, 250), "jacoby": (False, True)})]


def test_the_settings_of_a_finished_game_never_change_afterwards():
    state = run(seated("ABC"), double("box", "B"), take("B"), result("box"))
    paid = cents_of(state, 1)
    state = apply_event(state, change(stake_cents=1000, partner_share_percent=40))
    assert cents_of(state, 1) == paid


def test_a_settings_change_is_refused_while_a_game_is_in_progress():
    state = run(seated("ABC"), double("box", "B", "C"))
    with pytest.raises(TableError, match="between games: finish game 1 first"):
        apply_event(state, change(stake_cents=500))
    state = run(state, take("B"), drop("C"))
    with pytest.raises(TableError, match="between games"):
        apply_event(state, change(beavers=True))
    state = run(state, result("team"))
    assert apply_event(state, change(beavers=True)).settings.beavers


@pytest.mark.parametrize(("event", "reason"), [
    ({"type": "settings"}, "names the settings it changes"),
    ({"type": "settings", "settings": {}}, "names the settings it changes"),
    ({"type": "settings", "settings": ["jacoby"]}, "names the settings it changes"),
    (change(colour="red"), "unknown table setting: colour"),
    (change(stake_cents=-1), "stake_cents must be between"),
    (change(jacoby="yes"), "jacoby must be true or false"),
    (change(raccoons=True), "raccoons need beavers"),
    (change(stake_cents=100), "nothing changes"),
])
def test_a_bad_settings_change_is_refused_with_its_reason_and_changes_nothing(event, reason):
    state = run(seated("ABC"), result("box"))
    with pytest.raises(TableError, match=reason):
        apply_event(state, event)
    assert state.settings == Settings() and len(state.settings_log) == 1


def test_undo_of_a_settings_change_restores_the_rules_before_it():
    state = run(seated("ABC"), result("team"))
    changed = apply_event(state, change(cube_mode="single", stake_cents=300))
    undone = apply_event(changed, {"type": "undo"})
    assert undone.settings == Settings() and undone.settings_log == state.settings_log
    assert undone.settings_changes() == []
    # The next game is played by the old rules again.
    after = run(undone, result("team"))
    assert cents_of(after, 2) == {"B": -200, "C": 100, "A": 100}


def test_undo_and_corrections_refold_from_the_tables_first_settings():
    # A change before the first game, then an undo reaching back before the only snapshot
    # and a correction (both refold the log from the start): still at 2.00 a point.
    state = run(seated("ABC"), change(stake_cents=200), result("team"))
    redone = run(state, {"type": "undo"}, result("team"))
    assert cents_of(redone, 1) == {"A": -400, "B": 200, "C": 200}
    corrected = apply_event(redone, {"type": "correct", "game": 1, "reason": "misread",
                                     "result": {"winner": "box", "kind": "single"}})
    assert cents_of(corrected, 1) == {"A": 400, "B": -200, "C": -200}
    assert corrected.settings.stake_cents == 200
    assert corrected.initial_settings.stake_cents == 100


def test_replay_of_a_log_with_settings_events_gives_the_same_table():
    events = [
        *({"type": "join", "player": p} for p in "ABCD"),
        {"type": "order", "players": list("ABCD")},
        double("box", "B", "C", "D"), take("B"), drop("C"), take("D"), result("team"),
        change(stake_cents=500, beavers=True),
        double("box", "C", "D", "A"), {"type": "beaver", "cube": "C"}, take("D"), take("A"),
        {"type": "take", "cube": "C"}, result("box", "gammon"),
        change(beavers=False), change(jacoby=True),
        result("team", "gammon"),
    ]
    folded = fold({}, events)
    stepped = run(TableState(Settings()), *events)
    assert folded.settings_log == stepped.settings_log
    assert [g.to_dict() for g in folded.games] == [g.to_dict() for g in stepped.games]
    assert [(first, changed) for first, _s, changed in folded.settings_changes()] == [
        (2, {"stake_cents": (100, 500), "beavers": (False, True)}),
        (3, {"beavers": (True, False), "jacoby": (False, True)}),
    ]
    # Game 3: Jacoby on, no cube turned: the gammon counts single, at 5.00 a point.
    assert cents_of(folded, 3)["A"] == 500
    # A snapshot after the first game resumes to the same table, settings log included.
    ended = fold({}, events[:11])
    resumed = resume_log(ended.snapshot(), 11, events)
    assert resumed.settings_log == folded.settings_log
    assert resumed.snapshot() == folded.snapshot()
    assert TableState.from_snapshot(folded.snapshot()).settings_log == folded.settings_log


def test_a_snapshot_names_the_tables_first_settings_and_every_change():
    state = run(seated("ABC"), result("team"), change(stake_cents=300))
    snapshot = state.snapshot()
    assert snapshot["settings"] == Settings().to_dict()
    assert snapshot["settings_log"][-1] == [2, Settings(stake_cents=300).to_dict()]
    assert TableState.from_snapshot(snapshot).settings.stake_cents == 300


def test_two_changes_before_one_game_are_one_change_from_that_game():
    state = run(seated("ABC"), result("team"), change(stake_cents=300), change(stake_cents=100),
                change(jacoby=True))
    assert [(first, changed) for first, _s, changed in state.settings_changes()] == [
        (2, {"jacoby": (False, True)})]


def test_the_clock_of_an_online_table_is_a_house_rule_that_replays():
    """docs/rules.md 2.12: an online table's time limit per decision and what an unanswered
    double becomes change between games like any house rule, and replay from the log."""
    events = [
        *({"type": "join", "player": p} for p in "ABC"),
        {"type": "order", "players": list("ABC")},
        result("team"),
        change(play="online", decision_seconds=45, unanswered_double="take"),
        result("box"),
        change(decision_seconds=0),
        result("team"),
        change(play="club"),
    ]
    folded = fold({}, events)
    assert folded.settings_for(1).decision_seconds == 0
    assert (folded.settings_for(2).decision_seconds, folded.settings_for(2).unanswered_double) == (45, "take")
    assert folded.settings_for(3).decision_seconds == 0 and folded.settings_for(3).online
    # Every change is listed, the play mode's too (left out of to_dict while "club").
    assert [(first, changed) for first, _s, changed in folded.settings_changes()] == [
        (2, {"play": ("club", "online"), "decision_seconds": (0, 45), "unanswered_double": ("drop", "take")}),
        (3, {"decision_seconds": (45, 0)}),
        (4, {"play": ("online", "club")}),
    ]
    resumed = resume_log(fold({}, events[:5]).snapshot(), 5, events)
    assert resumed.settings_log == folded.settings_log
    assert TableState.from_snapshot(folded.snapshot()).settings_log == folded.settings_log


def test_a_log_written_before_the_clock_existed_has_no_time_limit():
    # Settings without the clock's keys (every log and snapshot written before) mean no limit,
    # and settings at those defaults are written as before: without the keys.
    old = Settings.from_dict({"play": "online", "stake_cents": 200})
    assert (old.decision_seconds, old.unanswered_double) == (0, "drop")
    assert "decision_seconds" not in old.to_dict() and "unanswered_double" not in old.to_dict()
    timed = Settings(play="online", decision_seconds=30)
    assert timed.to_dict()["decision_seconds"] == 30 and Settings.from_dict(timed.to_dict()) == timed


@pytest.mark.parametrize(("settings", "reason"), [
    ({"decision_seconds": -1}, "decision_seconds must be between 0 and 600"),
    ({"decision_seconds": 601}, "decision_seconds must be between 0 and 600"),
    ({"decision_seconds": "30"}, "decision_seconds must be a whole number"),
    ({"unanswered_double": "beaver"}, "unanswered_double must be one of drop, take"),
])
def test_a_bad_clock_is_refused_and_changes_nothing(settings, reason):
    state = run(seated("ABC"), result("box"))
    with pytest.raises(TableError, match=reason):
        apply_event(state, change(**settings))
    assert state.settings == Settings() and len(state.settings_log) == 1
