"""Stored table facts (``table_facts``): what the player page folded, stored at the table's
seq so a cold process reads instead of folding; recomputed when the log moved; an upsert
that two workers may make at once."""

from __future__ import annotations

import json
import logging
import random
import re
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st
from sqlalchemy import func, select

from chouette import caches
from chouette.extensions import db
from chouette.models import Member, TableFactsRow
from chouette.services import exports, night_rows, nights, players, tables
from chouette.services.facts import TableFacts, facts_since, table_facts
from chouette.services.stored_facts import (
    FACTS_VERSION,
    store_facts,
)
from chouette.table import TableError, can_resume
from tests.factories import gen_member, gen_table
from tests.services.test_snapshots import random_commands
from tests.table.test_properties import SETTINGS
from tests.table.test_snapshot_resume import ends_of, night_with_undos
from tests.web.test_exports import KNOWN, known_table, play_log


def row_of(table_id):
    return db.session.scalar(select(TableFactsRow).where(TableFactsRow.table_id == table_id))


def page_of(client, name: str) -> str:
    """A player's page without its CSRF tokens (signed with the time: two views a second apart
    carry different ones)."""
    html = client.get(f"/players/{name}").get_data(as_text=True)
    return re.sub(r'(csrf[-_]token" (?:content|value)=|"X-CSRFToken": )"[^"]*"', r'\1"…"', html)


def folded_facts(table_id):
    return table_facts(tables.get_table(table_id).settings, tables.table_log(table_id))


@pytest.fixture
def known(app):
    """KNOWN played at one table; returns the table and organizer ids."""
    with app.app_context():
        return known_table()


@pytest.mark.parametrize("seed", range(8))
def test_facts_round_trip_exactly_through_json(seed):
    from chouette.table import fold
    from chouette.table.simulate import play_game

    rng = random.Random(seed)
    settings = {"beavers": True, "raccoons": seed % 2 == 0, "extras": seed % 3 == 0,
                "cube_mode": "single" if seed % 4 == 3 else "multi",
                "per_player_stakes": seed % 2 == 1}
    events = random_commands(rng, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:3 + seed % 4], 120,
                             settings)
    if seed % 4 == 0:  # a board game too
        state = fold(settings, events)
        state, more = play_game(state, rng.choice, lambda: rng.randint(1, 6), board=True)
        events += more
    facts = table_facts(settings, events)
    assert facts.decisions and facts.seats
    data = json.loads(json.dumps(facts.to_dict()))
    assert TableFacts.from_dict(data) == facts
    assert TableFacts.from_dict(data).to_dict() == data
    empty = table_facts(settings, [])
    assert TableFacts.from_dict(json.loads(json.dumps(empty.to_dict()))) == empty


def test_the_player_page_stores_each_tables_facts_at_its_seq(app, client, known, login_as):
    table_id, _ = known
    login_as("player")
    with app.app_context():
        assert row_of(table_id) is None
    assert client.get("/players/Bob").status_code == 200
    with app.app_context():
        row = row_of(table_id)
        assert (row.seq, row.version, row.settings) == (
            tables.last_seq(table_id), FACTS_VERSION, tables.get_table(table_id).settings)
        assert TableFacts.from_dict(row.facts) == folded_facts(table_id)


def test_a_cold_process_reads_the_stored_facts(app, client, known, login_as):
    table_id, _ = known
    login_as("player")
    client.get("/players/Bob")
    with app.app_context():
        # Take Bob's decisions out of the stored row: a page that shows none read the row.
        row = row_of(table_id)
        row.facts = {**row.facts, "decisions": [d for d in row.facts["decisions"] if d[0] != "Bob"]}
        db.session.commit()
        caches.clear_all(app)
        assert players.player_history("Bob").decisions["take"].count == 0


def test_closing_a_night_stores_its_tables_facts(app, known):
    """Its tables never move again: no player page will fold them."""
    table_id, organizer_id = known
    with app.app_context():
        assert row_of(table_id) is None
        night_id = tables.get_table(table_id).night_id
        nights.close_night(night_id, actor=db.session.get(Member, organizer_id))
        row = row_of(table_id)
        assert row is not None and row.seq == tables.last_seq(table_id)
        assert TableFacts.from_dict(row.facts) == folded_facts(table_id)


def test_an_imported_closed_night_has_its_facts_stored(app, known):
    table_id, organizer_id = known
    with app.app_context():
        organizer = db.session.get(Member, organizer_id)
        night_id = tables.get_table(table_id).night_id
        nights.close_night(night_id, actor=organizer)
        exported = exports.night_export(night_id)
        exported["night"]["name"] = "Friday, again"
        night = exports.import_night(exported, actor=organizer)
        imported = night_rows.get_night(night.id).tables[0].id
        row = row_of(imported)
        assert row is not None and row.seq == tables.last_seq(imported)
        assert TableFacts.from_dict(row.facts) == folded_facts(imported)


def test_when_the_table_moves_its_stored_facts_follow_the_log(app, known):
    table_id, organizer_id = known
    with app.app_context():
        players.player_history("Bob")
        organizer = db.session.get(Member, organizer_id)
        play_log(table_id, [{"type": "result", "winner": "team", "kind": "single"}], organizer)
        caches.clear_all(app)
        assert players.player_history("Bob").decisions["take"].count == 2
        assert row_of(table_id).seq == tables.last_seq(table_id)
        assert TableFacts.from_dict(row_of(table_id).facts) == folded_facts(table_id)


@pytest.mark.parametrize("seed", range(3))
def test_facts_stored_during_a_night_brought_up_to_date_equal_the_fold(app, seed):
    """A page viewed by a cold process every few commands: each time the stored facts of an
    older seq are brought forward from a snapshot (or folded again) and stored."""
    rng = random.Random(100 + seed)
    names = ["Ann", "Bob", "Cy", "Dee"]
    with app.app_context():
        organizer = gen_member("organizer")
        table_id = gen_table().id
        events = random_commands(rng, names, 160)
        for start in range(0, len(events), 9):
            play_log(table_id, events[start:start + 9], organizer)
            caches.clear_all(app)
            history = players.player_history(names[start % len(names)])
            assert row_of(table_id).seq == tables.last_seq(table_id)
            assert TableFacts.from_dict(row_of(table_id).facts) == folded_facts(table_id)
            caches.clear_all(app)
            assert players.player_history(history.name) == history


def test_facts_stored_while_a_later_undone_correction_was_in_force_are_not_brought_forward():
    log = KNOWN[:8]  # game 1 ends at seq 8
    (at, snapshot), = ends_of({}, log)
    corrected = log + [{"type": "correct", "game": 1, "reason": "r", "void": True}]
    events = corrected + [{"type": "undo"}]
    assert can_resume(events, at) and not can_resume(corrected, at)
    stale = table_facts({}, corrected)  # as a page saw them at seq 9
    assert stale != table_facts({}, events)
    assert facts_since(table_facts({}, log), snapshot, at, events) == table_facts({}, events)


def test_stored_facts_of_another_format_or_other_settings_are_folded_again(app, known):
    table_id, _ = known
    with app.app_context():
        players.player_history("Bob")
        row = row_of(table_id)
        row.facts, row.version = {**row.facts, "decisions": []}, FACTS_VERSION + 1
        db.session.commit()
        caches.clear_all(app)
        assert players.player_history("Bob").decisions["take"].count == 2
        assert row_of(table_id).version == FACTS_VERSION
        row = row_of(table_id)
        row.facts, row.settings = {**row.facts, "decisions": []}, {**row.settings, "jacoby": True}
        db.session.commit()
        caches.clear_all(app)
        assert players.player_history("Bob").decisions["take"].count == 2
        row = row_of(table_id)
        row.facts = {"decisions": "unreadable"}
        db.session.commit()
        caches.clear_all(app)
        assert players.player_history("Bob").decisions["take"].count == 2


def test_stored_facts_equal_the_fold_after_corrections_and_undos(app, client, login_as):
    login_as("player")
    rng = random.Random(11)
    names = ["Ann", "Bob", "Cy", "Dee"]
    with app.app_context():
        organizer = gen_member("organizer")
        table_id = gen_table().id
        events = random_commands(rng, names, 150)
        assert any(e["type"] == "undo" for e in events) and any(e["type"] == "correct" for e in events)
        play_log(table_id, events, organizer)
        db.session.commit()
    client.get("/players/")  # shows (and so ends) the sign-in's welcome message
    pages = {name: page_of(client, name) for name in names}
    with app.app_context():
        assert TableFacts.from_dict(row_of(table_id).facts) == folded_facts(table_id)
        caches.clear_all(app)
    assert {name: page_of(client, name) for name in names} == pages


def test_storing_the_same_facts_twice_or_older_ones_keeps_one_row_at_the_latest_seq(app, known):
    table_id, _organizer_id = known
    with app.app_context():
        settings = dict(tables.get_table(table_id).settings)
        facts = folded_facts(table_id)
        seq = tables.last_seq(table_id)
        store_facts({table_id: (seq, settings, facts)})
        store_facts({table_id: (seq, settings, facts)})
        older = table_facts(settings, tables.table_log(table_id)[:8])
        store_facts({table_id: (8, settings, older)})
        assert db.session.scalar(select(func.count()).select_from(TableFactsRow)) == 1
        assert row_of(table_id).seq == seq
        assert TableFacts.from_dict(row_of(table_id).facts) == facts


def test_two_workers_storing_the_same_facts_at_once_both_succeed(app, known, caplog):
    table_id, _ = known
    with app.app_context():
        settings = dict(tables.get_table(table_id).settings)
        facts = folded_facts(table_id)
        seq = tables.last_seq(table_id)
        db.session.commit()
    start = threading.Barrier(2)
    errors = []

    def worker():
        try:
            with app.app_context():
                start.wait(timeout=10)
                store_facts({table_id: (seq, settings, facts)})
                db.session.remove()
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)

    with caplog.at_level(logging.WARNING, logger="chouette.services.stored_facts"):
        threads = [threading.Thread(target=worker) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    assert errors == [] and not [r for r in caplog.records if "not stored" in r.getMessage()]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(TableFactsRow)) == 1
        assert row_of(table_id).seq == seq



@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), table=SETTINGS)
def test_facts_since_a_snapshot_equal_the_facts_of_the_whole_log(data, table):
    """Stored facts of an older seq, brought up to date from a snapshot at or before it."""
    _state, events = night_with_undos(data, table)
    ends = [(seq, snap) for seq, snap in ends_of(table, events) if can_resume(events, seq)]
    note("a usable snapshot" if ends else "no usable snapshot")
    whole = table_facts(table, events)
    for at, snapshot in ends:
        seen = data.draw(st.integers(at, len(events)), label="the stored facts' seq")
        if can_resume(events[:seen], at):
            earlier = table_facts(table, events[:seen])
            assert facts_since(earlier, snapshot, at, events) == whole
    for seq, snapshot in ends_of(table, events):
        if not can_resume(events, seq):
            with pytest.raises(TableError, match="reaches back before it"):
                facts_since(whole, snapshot, seq, events)
