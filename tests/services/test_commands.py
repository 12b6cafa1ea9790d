"""Table commands on a real database: one transaction each, ledger rows as the log's projection."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from chouette import caches
from chouette.extensions import db
from chouette.models import LedgerEntry, Member, TableEvent
from chouette.services import base, chance, commands, deciders, table_states, tables
from chouette.standings import money
from chouette.table import TableError, fold
from tests.concurrency import at_once
from tests.factories import gen_member, gen_table


def _seat(table_id, organizer, names="ABCD"):
    for name in names:
        commands.play(table_id, tables.last_seq(table_id), {"type": "join", "player": name},
                      organizer)
    return commands.play(table_id, tables.last_seq(table_id),
                         {"type": "order", "players": list(names)}, organizer)


def _ledger(table_id):
    rows = db.session.execute(
        select(LedgerEntry.player, func.sum(LedgerEntry.points), func.sum(LedgerEntry.cents))
        .where(LedgerEntry.table_id == table_id).group_by(LedgerEntry.player)).all()
    return {player: (points, cents) for player, points, cents in rows if points or cents}


def _projection(table_id):
    table = tables.get_table(table_id)
    points, cents = money(fold(table.settings, tables.table_log(table_id)))
    return {p: (points[p], cents[p]) for p in points if points[p] or cents[p]}


@pytest.fixture
def setup(app):
    with app.app_context():
        organizer = gen_member("organizer")
        table_id = gen_table().id
        _seat(table_id, organizer)
        caches.clear_all(app)
        # Every transaction takes SQLite's write lock at its start: end this one (and read no
        # expired attribute afterwards, which would start another).
        db.session.commit()
        yield table_id, organizer


def test_command_is_appended_at_the_next_seq(app, setup):
    table_id, organizer = setup
    played = commands.play(table_id, 5, {"type": "double", "by": "box", "cubes": ["C"]}, organizer)
    assert played.seq == 6 and tables.last_seq(table_id) == 6
    assert played.state.game.box_double.cubes == ["C"]


def test_refused_command_writes_nothing_and_says_why(app, setup):
    table_id, organizer = setup
    with pytest.raises(TableError, match="there is no double to take"):
        commands.play(table_id, 5, {"type": "take", "cube": "B"}, organizer)
    assert tables.last_seq(table_id) == 5


def test_stale_seq_is_refused_with_table_changed(app, setup):
    table_id, organizer = setup
    commands.play(table_id, 5, {"type": "double", "by": "C"}, organizer)
    with pytest.raises(base.TableChanged, match="The table changed while you were deciding"):
        commands.play(table_id, 5, {"type": "result", "winner": "box", "kind": "single"}, organizer)
    assert tables.last_seq(table_id) == 6


def test_members_doubling_at_one_moment_are_each_taken_from_the_same_seq(app, setup):
    table_id, organizer = setup
    commands.play(table_id, 5, {"type": "double", "by": "C"}, organizer)
    played = commands.play(table_id, 5, {"type": "double", "by": "D"}, organizer)
    assert played.seq == 7 and played.state.game.member_doubles == ["C", "D"]


def test_drop_is_booked_at_once_and_game_in_full_at_its_end(app, setup):
    table_id, organizer = setup
    commands.play(table_id, 5, {"type": "double", "by": "box", "cubes": ["C"]}, organizer)
    commands.play(table_id, 6, {"type": "drop", "cube": "C"}, organizer)
    assert _ledger(table_id) == {"A": (1, 100), "C": (-1, -100)}
    commands.play(table_id, 7, {"type": "result", "winner": "team", "kind": "gammon"}, organizer)
    assert _ledger(table_id) == _projection(table_id)
    assert _ledger(table_id) == {"A": (-3, -300), "B": (2, 200), "C": (-1, -100), "D": (2, 200)}


def test_undo_books_the_reversal_and_never_deletes(app, setup):
    table_id, organizer = setup
    commands.play(table_id, 5, {"type": "result", "winner": "box", "kind": "single"}, organizer)
    rows_before = db.session.scalar(select(func.count(LedgerEntry.id)))
    commands.play(table_id, 6, {"type": "undo"}, organizer)
    assert _ledger(table_id) == {} == _projection(table_id)
    assert db.session.scalar(select(func.count(LedgerEntry.id))) == 2 * rows_before
    assert db.session.scalar(select(func.count(TableEvent.id))) == 7


def test_ledger_is_the_projection_of_the_log_after_a_cold_reload(app, setup):
    table_id, organizer = setup
    for event in ({"type": "double", "by": "box", "cubes": ["B", "C"]}, {"type": "take", "cube": "B"},
                  {"type": "drop", "cube": "C"}, {"type": "result", "winner": "box", "kind": "gammon"},
                  {"type": "undo"}, {"type": "result", "winner": "team", "kind": "single"}):
        commands.play(table_id, tables.last_seq(table_id), event, organizer)
    caches.clear_all(app)
    played = table_states.load_play(table_id)
    assert len(played.state.games) == 1
    assert _ledger(table_id) == _projection(table_id)


def test_a_player_makes_their_own_decisions_only(app, setup):
    table_id, organizer = setup
    carla = gen_member("player", name="C")
    dora = gen_member("player", name="D")
    commands.play(table_id, 5, {"type": "double", "by": "box", "cubes": ["C"]}, organizer)
    with pytest.raises(deciders.NotAllowed, match="That is not your decision"):
        commands.play(table_id, 6, {"type": "take", "cube": "C"}, dora)
    with pytest.raises(deciders.NotAllowed, match="That is not your decision"):
        commands.play(table_id, 6, {"type": "double", "by": "C"}, dora)
    # Her own double is hers to make, and the rules refuse it while C's answer waits.
    with pytest.raises(TableError, match="answer the open double first"):
        commands.play(table_id, 6, {"type": "double", "by": "D"}, dora)
    commands.play(table_id, 6, {"type": "take", "cube": "C"}, carla)
    assert tables.last_seq(table_id) == 7


def test_signed_out_actor_may_not_command(app, setup):
    table_id, _ = setup
    with pytest.raises(deciders.NotAllowed, match="That is not your decision"):
        commands.play(table_id, 5, {"type": "result", "winner": "box", "kind": "single"}, None)


def test_server_rolls_the_order_for_everyone_then_the_tied(app):
    with app.app_context():
        organizer = gen_member("organizer")
        table = gen_table()
        for name in "ABCDEF":
            commands.play(table.id, tables.last_seq(table.id), {"type": "join", "player": name},
                          organizer)
        for _ in range(50):
            played = table_states.load_play(table.id)
            if played.state.ordered:
                break
            event = chance.server_event(played.state, "order_roll")
            assert set(event["rolls"]) <= set("ABCDEF")
            commands.play(table.id, played.seq, event, organizer)
        assert table_states.load_play(table.id).state.ordered


def test_concurrent_commands_one_wins_each_seq(app, setup):
    table_id, organizer = setup
    organizer_id = organizer.id
    db.session.commit()
    # Results: each depends on the exact table (a decision that stands on its own, such as a
    # member's double, would be taken by each: test_answers_stand_alone).
    results = at_once(app, 9, lambda number: commands.play(
        table_id, 5, {"type": "result", "winner": ("box", "team")[number % 2], "kind": "single"},
        db.session.get(Member, organizer_id)), refused=(base.TableChanged,))
    assert results.count("ok") == 1 and results.count("refused") == 8, results
    seqs = db.session.scalars(select(TableEvent.seq).where(TableEvent.table_id == table_id)
                              .order_by(TableEvent.seq)).all()
    assert seqs == list(range(1, 7))
