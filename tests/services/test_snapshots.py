"""Stored snapshots (``table_snapshot``): written with the command that finishes a game, read
by a cold process, never one that the later log invalidates, and only a cache: dropping
every row changes no answer."""

from __future__ import annotations

import copy
import json
import random

import pytest
from sqlalchemy import delete, select

from chouette import caches
from chouette.extensions import db
from chouette.models import Member, TableFactsRow, TableSnapshot
from chouette.services import exports, players, table_states, tables
from chouette.table import SNAPSHOT_VERSION, TableError, apply_event, fold, new_table
from chouette.table.actions import legal_actions
from chouette.table.simulate import seat_players
from tests.factories import gen_member, gen_night, gen_table
from tests.table.test_properties import fingerprint
from tests.web.test_exports import KNOWN, known_table, play_log

UNDO = {"type": "undo"}
MARK = "read from the stored snapshot"


def full(state):
    """Everything a later command or page can see of a state."""
    return fingerprint(state), state.effective, state.corrections, state.players


def folded(table_id):
    """The table's state folded from its whole log (the truth)."""
    return fold(tables.get_table(table_id).settings, tables.table_log(table_id))


def cold(table_id):
    """The state a process that never saw the table loads."""
    caches.clear_all()
    return table_states.load_play(table_id).state


def stored(table_id):
    """The table's snapshot rows: seq -> state data."""
    rows = db.session.execute(select(TableSnapshot.seq, TableSnapshot.state)
                              .where(TableSnapshot.table_id == table_id)
                              .order_by(TableSnapshot.seq))
    return dict(rows.all())


def mark(table_id, seq, label=MARK):
    """Write ``label`` as the first game's correction reason in the stored snapshot at
    ``seq``: a load that shows it was resumed from that row (the rules never read it)."""
    row = db.session.scalar(select(TableSnapshot).where(TableSnapshot.table_id == table_id,
                                                        TableSnapshot.seq == seq))
    state = copy.deepcopy(row.state)
    state["games"][0]["correction"] = label
    row.state = state
    db.session.commit()


def first_reason(state):
    return state.games[0].correction if state.games else None


@pytest.fixture
def known(app):
    """KNOWN played command by command: its three games end at seqs 8, 11 and 12."""
    with app.app_context():
        return known_table()


def test_the_command_that_finishes_a_game_stores_the_state_after_exactly_its_seq(app, known):
    table_id, _ = known
    with app.app_context():
        rows = stored(table_id)
        assert sorted(rows) == [8, 11, 12]
        for seq, data in rows.items():
            assert data == json.loads(json.dumps(fold({}, KNOWN[:seq]).snapshot()))
        versions = set(db.session.scalars(select(TableSnapshot.version)))
        assert versions == {SNAPSHOT_VERSION}


def test_only_the_latest_snapshots_are_kept(app, known):
    table_id, organizer_id = known
    with app.app_context():
        organizer = db.session.get(Member, organizer_id)
        play_log(table_id, [{"type": "result", "winner": "team", "kind": "single"}], organizer)
        captain = table_states.load_play(table_id).state.captain
        play_log(table_id, [{"type": "double", "by": "box", "cubes": [captain]},
                            {"type": "take", "cube": captain}], organizer)
        assert sorted(stored(table_id)) == [8, 11, 12, 13][-tables.SNAPSHOTS_KEPT:]
        play_log(table_id, [{"type": "result", "winner": "box", "kind": "single"}], organizer)
        assert sorted(stored(table_id)) == [8, 11, 12, 13, 16][-tables.SNAPSHOTS_KEPT:]
        assert full(cold(table_id)) == full(folded(table_id))


def test_a_cold_load_resumes_from_the_latest_snapshot(app, known):
    table_id, organizer_id = known
    with app.app_context():
        organizer = db.session.get(Member, organizer_id)
        play_log(table_id, [{"type": "double", "by": "box", "cubes": ["Cy"]}], organizer)
        assert full(cold(table_id)) == full(folded(table_id))
        mark(table_id, 11, "older")
        mark(table_id, 12)
        assert first_reason(cold(table_id)) == MARK


def test_an_undo_past_a_games_end_falls_back_to_the_snapshot_before_it(app, known):
    table_id, organizer_id = known
    with app.app_context():
        organizer = db.session.get(Member, organizer_id)
        play_log(table_id, [UNDO], organizer)  # the third game's result
        resumed = cold(table_id)
        assert full(resumed) == full(folded(table_id)) and len(resumed.games) == 2
        mark(table_id, 11, "older")
        mark(table_id, 12)
        assert first_reason(cold(table_id)) == "older"
        # Two more undos reach back past the second game's end: the first game's snapshot.
        mark(table_id, 11, None)
        play_log(table_id, [UNDO, UNDO], organizer)
        assert full(cold(table_id)) == full(folded(table_id))
        mark(table_id, 8, "oldest")
        assert first_reason(cold(table_id)) == "oldest"


def test_undoing_every_games_end_folds_the_whole_log(app, known):
    table_id, organizer_id = known
    with app.app_context():
        organizer = db.session.get(Member, organizer_id)
        for seq in (8, 11, 12):
            mark(table_id, seq)
        play_log(table_id, [UNDO] * 8, organizer)  # back before the first game's result
        state = cold(table_id)
        assert first_reason(state) is None and not state.games
        assert full(state) == full(folded(table_id))


def test_a_correction_refolds_the_log_until_the_next_games_end(app, known):
    table_id, organizer_id = known
    with app.app_context():
        organizer = db.session.get(Member, organizer_id)
        for seq in (8, 11, 12):
            mark(table_id, seq)
        play_log(table_id, [{"type": "correct", "game": 3, "reason": "wrong winner",
                             "result": {"winner": "team", "kind": "single"}}], organizer)
        state = cold(table_id)
        assert state.games[2].correction == "wrong winner" and first_reason(state) is None
        assert full(state) == full(folded(table_id))
        captain = state.captain
        play_log(table_id, [{"type": "double", "by": captain},
                            {"type": "take", "cube": captain},
                            {"type": "result", "winner": "box", "kind": "single"}], organizer)
        assert max(stored(table_id)) == 16
        assert full(cold(table_id)) == full(folded(table_id))
        mark(table_id, 16)
        assert first_reason(cold(table_id)) == MARK


def test_undo_and_correct_commands_after_a_cold_load_act_on_the_whole_log(app, known):
    table_id, organizer_id = known
    with app.app_context():
        organizer = db.session.get(Member, organizer_id)
        cold(table_id)  # resumed from seq 12, its cache used by the next commands
        play_log(table_id, [UNDO, UNDO, UNDO, UNDO], organizer)
        assert full(table_states.load_play(table_id).state) == full(folded(table_id))
        cold(table_id)
        play_log(table_id, [{"type": "correct", "game": 1, "reason": "r", "void": True}],
                 organizer)
        assert full(table_states.load_play(table_id).state) == full(folded(table_id))


def test_a_snapshot_of_another_format_or_other_settings_is_not_used(app, known):
    table_id, _ = known
    with app.app_context():
        mark(table_id, 12)
        db.session.execute(TableSnapshot.__table__.update().values(version=SNAPSHOT_VERSION + 1))
        db.session.commit()
        assert first_reason(cold(table_id)) is None
        db.session.execute(TableSnapshot.__table__.update().values(version=SNAPSHOT_VERSION))
        table = tables.get_table(table_id)
        table.settings = {**table.settings, "jacoby": not table.settings["jacoby"]}
        db.session.commit()
        state = cold(table_id)
        assert first_reason(state) is None and full(state) == full(folded(table_id))


def test_a_malformed_snapshot_is_ignored(app, known):
    table_id, _ = known
    with app.app_context():
        row = db.session.scalar(select(TableSnapshot).where(TableSnapshot.seq == 12))
        row.state = {**row.state, "seats": "nonsense"}
        db.session.commit()
        assert full(cold(table_id)) == full(folded(table_id))


def test_append_events_refuses_snapshots_at_other_seqs_and_writes_nothing(app):
    with app.app_context():
        organizer = gen_member("organizer")
        table = gen_table()
        with pytest.raises(ValueError, match="not at the seqs written"):
            tables.append_events(table.id, 0, [{"type": "join", "player": "Ann"}], organizer,
                                   snapshots={5: new_table({}).snapshot()})
        assert tables.last_seq(table.id) == 0 and stored(table.id) == {}


def test_the_builders_snapshots_are_those_the_commands_write(app, known):
    table_id, organizer_id = known
    with app.app_context():
        organizer = db.session.get(Member, organizer_id)
        other = gen_table(name="Built at once")
        tables.append_events(other.id, 0, KNOWN, organizer, (),
                               table_states.log_snapshots(other.settings, KNOWN))
        assert stored(other.id) == stored(table_id)


def test_an_imported_night_gets_the_snapshots_of_its_last_games(app, known):
    table_id, organizer_id = known
    with app.app_context():
        organizer = db.session.get(Member, organizer_id)
        play_log(table_id, [{"type": "result", "winner": "team", "kind": "single"}, UNDO,
                            {"type": "result", "winner": "team", "kind": "gammon"}], organizer)
        export = exports.night_export(tables.get_table(table_id).night_id)
        export["night"]["name"] = "Friday, imported"
        night = exports.import_night(export, organizer)
        (imported,) = night.tables
        assert stored(imported.id) == stored(table_id)
        assert sorted(stored(imported.id)) == [12, 13, 15]  # 13: a result undone at 14
        assert full(cold(imported.id)) == full(folded(imported.id))


# --------------------------------------------------------------------------- only a cache


def random_commands(rng, names, steps, settings=None):
    """A random legal night as commands: cube actions and results, undos (often right after
    a game's end), a correction now and then."""
    state, events = seat_players(new_table(settings or {}), names, lambda: rng.randint(1, 6))
    seated_at = len(state.effective)
    for _ in range(steps):
        roll = rng.random()
        if state.games and roll < 0.05:
            event = {"type": "correct", "game": rng.randint(1, len(state.games)), "reason": "r",
                     **rng.choice([{"void": True}, {"result": {"winner": "team", "kind": "single"}}])}
        elif roll < 0.2 and len(state.effective) > seated_at:
            event = UNDO
        else:
            actions = legal_actions(state)
            cube = [a for a in actions if a["type"] != "result"]
            results = [a for a in actions if a["type"] == "result"]
            event = rng.choice(results if results and (not cube or rng.random() < 0.35) else cube)
        try:
            state = apply_event(state, event)
        except TableError:
            continue
        events.append(event)
    return events


def answers(table_ids, names):
    """Every answer the snapshots and stored facts could change, from a cold process."""
    caches.clear_all()
    result = {}
    for table_id in table_ids:
        result[table_id] = full(table_states.load_play(table_id).state)
    night_id = tables.get_table(table_ids[0]).night_id
    result["sheet"] = [(sheet.players, [row.totals for row in sheet.rows], sheet.cents)
                       for sheet in exports.score_sheet(night_id)[1]]
    result["totals"] = exports.night_ledger_totals(night_id)
    for name in names:
        history = players.player_history(name)
        result[name] = (history.points, history.cents, history.voided,
                        [(g.table_id, g.game, g.role, g.points, g.cents) for g in history.games],
                        {r: (t.games, t.won, t.lost) for r, t in history.roles.items()},
                        {a: (t.count, t.won, t.lost, t.open, t.points, t.cents)
                         for a, t in history.decisions.items()},
                        history.decisions_as)
    return result


@pytest.mark.parametrize("seed", range(3))
def test_dropping_every_stored_snapshot_and_facts_row_changes_no_answer(app, seed):
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:3 + seed]
    with app.app_context():
        organizer = gen_member("organizer")
        night = gen_night()
        table_ids = [gen_table(night, name=f"Table {n}").id for n in (1, 2)]
        for table_id in table_ids:
            play_log(table_id, random_commands(rng, names, 90), organizer)
        assert db.session.scalar(select(TableSnapshot.id).limit(1)) is not None
        before = answers(table_ids, names)
        assert db.session.scalar(select(TableFactsRow.table_id).limit(1)) is not None
        for table_id in table_ids:
            assert before[table_id] == full(folded(table_id))
        stored_again = answers(table_ids, names)  # now read from the stored facts
        db.session.execute(delete(TableSnapshot))
        db.session.execute(delete(TableFactsRow))
        db.session.commit()
        assert answers(table_ids, names) == before == stored_again
