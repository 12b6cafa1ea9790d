"""A table's state in the app's cache (chouette/services/table_states.py): each app its own,
the few earlier states kept, and the seats read from the folded joins."""

from __future__ import annotations

from sqlalchemy import select

from chouette import caches
from chouette.extensions import db
from chouette.models import SeatMember, TableEvent
from chouette.services import commands, deciders, table_states, tables
from tests.conftest import dispose, make_app
from tests.factories import gen_member, gen_table
from tests.serving.test_database import sqlite_only


def _seat(table_id, organizer, names):
    for name in names:
        commands.play(table_id, tables.last_seq(table_id), {"type": "join", "player": name}, organizer)
    commands.play(table_id, tables.last_seq(table_id), {"type": "order", "players": list(names)},
                  organizer)


@sqlite_only  # two databases: two SQLite files (the PostgreSQL run has one database)
def test_two_apps_in_one_process_do_not_share_a_tables_cached_state(tmp_path):
    """Two databases with a table of the same id at the same seq, other players: each app
    folds and keeps its own (the cache belongs to the app, its keys carry no address)."""
    apps = []
    for folder, names in (("first", "ABC"), ("second", "XYZ")):
        (tmp_path / folder).mkdir()
        app = make_app(tmp_path / folder)
        with app.app_context():
            table_id = gen_table().id
            _seat(table_id, gen_member("organizer"), names)
            assert table_states.load_play(table_id).state.players == list(names)
            db.session.remove()
        apps.append((app, table_id, names))
    try:
        assert apps[0][1] == apps[1][1]  # the same table id, the same seq
        for app, table_id, names in apps:
            with app.app_context():
                assert table_states.load_play(table_id).state.players == list(names)
                held = caches.cache(table_states.TABLE_STATES).items()
                assert [state.players for _key, kept in held for _seq, state in kept][-1] == list(names)
                db.session.remove()
    finally:
        for app, _table_id, _names in apps:
            dispose(app)


def test_the_latest_state_and_the_few_before_it_are_kept(app):
    with app.app_context():
        organizer = gen_member("organizer")
        table_id = gen_table().id
        _seat(table_id, organizer, "ABCD")
        for _game in range(table_states.EARLIER_STATES + 2):
            played = table_states.load_play(table_id)
            commands.play(table_id, played.seq, {"type": "result", "winner": "box", "kind": "single"},
                          organizer)
        played = table_states.load_play(table_id)
        kept = caches.cache(table_states.TABLE_STATES).get((table_id, played.generation, played.matched))
        assert [seq for seq, _state in kept] == list(range(played.seq - table_states.EARLIER_STATES,
                                                           played.seq + 1))
        assert kept[-1][1] is played.state
        # An earlier state is the one the table had then (the pages drawn from it judge with it).
        assert len(table_states.state_at(played, played.seq - 1).games) == len(played.state.games) - 1


def test_seats_are_read_from_the_folded_joins_by_member_id(app):
    """A member's seat is theirs by the id their join carried; a guest's name seats nobody; a join
    matched to a member afterwards (``SeatMember``: a guest's seat claimed) is read with them."""
    with app.app_context():
        organizer = gen_member("organizer")
        ann = gen_member("player", name="Ann", username="ann")
        table_id = gen_table().id
        _seat(table_id, organizer, ["Ann", "Bob", "Cy"])
        state = table_states.load_play(table_id).state
        assert table_states.seat_members(state) == {"Ann": ann.id}
        assert deciders.seat_name(ann, table_id, state) == "Ann"
        assert deciders.guests_of(table_id, state) == {"Bob", "Cy"}
        # Bob, a guest, becomes a member: Bob's join (seq 2) is matched to the new member.
        bob = gen_member("player", name="Bob", username="bob")
        assert db.session.scalar(select(TableEvent.payload).where(
            TableEvent.table_id == table_id, TableEvent.seq == 2)) == {"player": "Bob"}
        db.session.merge(SeatMember(table_id=table_id, seq=2, member_id=bob.id))
        db.session.commit()
        state = table_states.load_play(table_id).state  # another key: folded again
        assert table_states.seat_members(state) == {"Ann": ann.id, "Bob": bob.id}
        assert deciders.seat_name(bob, table_id, state) == "Bob"
        assert deciders.guests_of(table_id, state) == {"Cy"}
