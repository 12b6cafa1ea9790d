"""A table's state: loaded from its log, folded, kept in the app's cache (docs/log-format.md 1).

A table's state is the fold of its log by the pure rules (``chouette.table``). The latest
states of each table are kept in the app's ``table_states`` cache (``chouette.caches``), by
the table, the club's renames (a rename relabels the log) and how many of its joins are
matched to members (``SeatMember``: a guest's seat claimed relabels nothing, but seats a
member), each with the seq it was folded to. A miss (a cold process) resumes from the
table's latest stored snapshot that the log still leads to (``table_snapshot``, written with
each event that finishes a game) and folds only the events after it; without one it folds
the whole log (a few tens of milliseconds for a night).

Who sits under which name is part of the state: the joins the fold applied carry the member
they seat (``member_id``; a join matched to a member afterwards gets it when it is read), so
``seat_members`` reads it from the state without asking the database.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import has_app_context
from flask_babel import gettext as _
from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.orm import joinedload

from chouette import caches
from chouette.extensions import db
from chouette.models import ChouetteTable, SeatMember, TableEvent, TableSnapshot
from chouette.services import base, identity, tables
from chouette.standings import money_changes
from chouette.table import (
    SNAPSHOT_VERSION,
    Settings,
    TableError,
    TableState,
    apply_event,
    can_resume,
    finishes_game,
    fold,
    resume_log,
)
from chouette.table.state import check_name

#: How many states each table keeps besides its latest: the pages drawn from them send
#: decisions that are judged against what they showed (``commands.play``).
EARLIER_STATES = 8

TABLE_STATES = caches.declare(
    "table_states", 64,
    "a table's latest folded state and the few before it (oldest first, each with its seq), "
    "by (table id, rename generation, how many of its joins SeatMember matches)")


TABLE_SEATS = caches.declare(
    "table_seats", 64,
    "who sits under which name (seat name -> member id) in a folded state, by the state's id "
    "(the entry holds the state: while it is held, no other object has its id)")


@dataclass(frozen=True)
class TablePlay:
    """A table with its folded state and the seq of the last event folded."""

    table: ChouetteTable
    state: TableState
    seq: int
    #: ``identity.rename_generation()`` when the state was folded (its seats' names)
    generation: int = 0
    #: How many of the table's joins were matched to members when it was read
    #: (``SeatMember``: the migration's, a guest's seat claimed), or None
    matched: int | None = None
    #: The active members' names, read with the table for the organizers who run it (the
    #: Join card's list: ``load_play(..., names=True)``), or None
    member_names: tuple[str, ...] | None = None
    #: The events a command wrote (``play``), with their seqs and times
    written: tuple[TableEvent, ...] = ()


Held = tuple[tuple[int, TableState], ...]


@functools.cache
def _play_query(dialect: str, names: bool) -> Select[Any]:
    """``load_play``'s one statement, built once per dialect (every command, fetch and push
    stream runs it: building it anew cost more than running it on SQLite)."""
    # The table, its night, its last seq, the club's renames, how many of its seats are
    # matched to members (and the names), read together.
    last_seq = (select(func.coalesce(func.max(TableEvent.seq), 0))
                .where(TableEvent.table_id == ChouetteTable.id).correlate(ChouetteTable)
                .scalar_subquery())
    matched = (select(func.count()).select_from(SeatMember)
               .where(SeatMember.table_id == ChouetteTable.id).correlate(ChouetteTable)
               .scalar_subquery())
    columns: list[Any] = [ChouetteTable, last_seq, identity.rename_generation_column(), matched]
    if names:
        columns.append(identity.active_names_column(dialect))
    return (select(*columns).options(joinedload(ChouetteTable.night))
            .where(ChouetteTable.id == bindparam("table_id")))


def load_play(table_id: int, *, names: bool = False) -> TablePlay:
    """The table and its current state (``names``: with the active members' names, for the
    organizers' Join card). Raises NotFound."""
    query = _play_query(db.session.get_bind().dialect.name, names)
    found = db.session.execute(query, {"table_id": table_id}).first()
    if found is None:
        raise base.NotFound(_("No such table."))
    table, seq, generation = found[0], int(found[1] or 0), int(found[2] or 0)
    matched = int(found[3] or 0)
    member_names = identity.split_names(found[4]) if names else None
    held: Held = caches.cache(TABLE_STATES).get((table_id, generation, matched)) or ()
    state = next((state for at, state in held if at == seq), None)
    if state is None or state.initial_settings != Settings.from_dict(table.settings):
        older = [(at, state) for at, state in held if at < seq]
        state = _fold_table(table, seq, older[-1] if older else None)
        remember(table_id, generation, matched, seq, state)
    return TablePlay(table, state, seq, generation, matched, member_names)


def state_of(table_id: int) -> TableState:
    """A table's current state (``identity`` reads who sits where with it)."""
    return load_play(table_id).state


def remember(table_id: int, generation: int, matched: int | None, seq: int,
             state: TableState) -> None:
    """Keep ``state``, the table's after ``seq`` events, as its latest (unless a later one
    is kept already): the one before it stays among the few earlier ones."""
    if matched is None:
        return

    def add(held: Held | None) -> Held:
        held = held or ()
        if held and held[-1][0] > seq:
            return held
        return (*[(at, kept) for at, kept in held if at < seq], (seq, state))[-EARLIER_STATES - 1:]

    caches.cache(TABLE_STATES).update((table_id, generation, matched), add)


def state_at(played: TablePlay, seq: int) -> TableState:
    """The table's state after exactly ``seq`` events (``seq`` at most ``played.seq``): kept
    in the cache when a page was drawn from it lately, else folded from the stored snapshots."""
    held: Held = caches.cache(TABLE_STATES).get(
        (played.table.id, played.generation, played.matched)) or ()
    found = next((state for at, state in held if at == seq), None)
    return found if found is not None else resume_table(played.table, seq)


def _settings(table: ChouetteTable) -> dict[str, Any]:
    return Settings.from_dict(table.settings).to_dict()


def _fold_table(table: ChouetteTable, seq: int, cached: tuple[int, TableState] | None
                ) -> TableState:
    """The state after exactly the first ``seq`` events: from the cached state when it is
    older and only plain events follow it, else from the stored snapshots (``resume_table``).

    Exactly ``seq``: another worker may have appended (and cached) since ``seq`` was read
    (PostgreSQL reads committed data statement by statement), and a state ahead of its seq
    would judge the next command against the wrong table.

    The events after a cached state need no match to a member: a join matched afterwards
    (a guest's seat claimed) moves the count of matches, another key of the cache.
    """
    if cached is not None and cached[0] < seq:
        query = (select(TableEvent).where(TableEvent.table_id == table.id,
                                          TableEvent.seq > cached[0], TableEvent.seq <= seq)
                 .order_by(TableEvent.seq))
        newer = list(db.session.scalars(query))
        if all(event.type != "undo" for event in newer):
            names = identity.relabels_of([table.id])[table.id]
            state = cached[1]
            for event in newer:
                state = apply_event(state, identity.relabel(event.as_dict(), names))
            return state
    return resume_table(table, seq)


def resume_table(table: ChouetteTable, seq: int) -> TableState:
    """The state after exactly the first ``seq`` events, from the table's stored snapshots.

    The latest snapshot at or below ``seq`` that the log still leads to (``can_resume``: no
    later undo reaches back before it, no later correction) is loaded and only the events
    after it are folded; the rows of the whole log are read all the same, so the state
    keeps its effective log (undo, corrections and the undo page use it). Without a usable
    snapshot, or with one of other settings or another format, the log is folded whole.

    A join written before joins carried their member, or a guest's claimed by a new member,
    is read with the member ``SeatMember`` matched to it (``seat_members``).
    """
    query = (select(TableEvent.seq, TableEvent.type, TableEvent.payload)
             .where(TableEvent.table_id == table.id, TableEvent.seq <= seq)
             .order_by(TableEvent.seq))
    matches: dict[int, int] = dict(db.session.execute(
        select(SeatMember.seq, SeatMember.member_id).where(SeatMember.table_id == table.id)).all())
    log = identity.relabel_log((_matched_join(kind, payload or {}, matches.get(at))
                                for at, kind, payload in db.session.execute(query)),
                               identity.relabels_of([table.id])[table.id])
    stored = list(db.session.scalars(
        select(TableSnapshot.seq)
        .where(TableSnapshot.table_id == table.id, TableSnapshot.seq <= seq,
               TableSnapshot.version == SNAPSHOT_VERSION)
        .order_by(TableSnapshot.seq.desc())))
    at = next((candidate for candidate in stored if can_resume(log, candidate)), None)
    if at is not None:
        snapshot = db.session.scalar(select(TableSnapshot.state).where(
            TableSnapshot.table_id == table.id, TableSnapshot.seq == at))
        try:
            if snapshot is not None and snapshot.get("settings") == _settings(table):
                return resume_log(snapshot, at, log)
        except TableError:
            pass  # a snapshot this code cannot read: the log itself is the truth
    return fold(table.settings, log)


def _matched_join(kind: str, payload: Mapping[str, Any], member_id: int | None) -> dict[str, Any]:
    """An event of the log as the fold reads it: a join without its member takes the one
    ``SeatMember`` matched to it."""
    if kind == "join" and member_id is not None and "member_id" not in payload:
        return {"type": kind, **payload, "member_id": member_id}
    return {"type": kind, **payload}


def seat_members(state: TableState) -> Mapping[str, int]:
    """Who sits under which name (by member id), from the joins the fold applied: the latest
    join of a name decides; a guest's seat is absent.

    Read once per state (``table_seats``): a command's checks and a phone's page ask it several
    times of the same state: reading a night's log (900 events) took 0.53 ms, a held answer
    0.02 ms (docs/performance.md 14)."""
    if not has_app_context():
        return _seats_of(state)
    held = caches.cache(TABLE_SEATS)
    found = held.get(id(state))
    if found is not None and found[0] is state:
        return found[1]
    seats = _seats_of(state)
    held.put(id(state), (state, seats))
    return seats


def _seats_of(state: TableState) -> dict[str, int]:
    seats: dict[str, int] = {}
    for event in state.effective:
        if event.get("type") != "join":
            continue
        name, member_id = check_name(event.get("player")), event.get("member_id")
        if isinstance(member_id, int) and not isinstance(member_id, bool):
            seats[name] = member_id
        else:
            seats.pop(name, None)
    return seats


def log_snapshots(settings: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
                  ) -> dict[int, dict[str, Any]]:
    """The snapshots a log written at once should get (``append_events``' ``snapshots``):
    the states after its last games' ends, by seq (builders of whole nights, benchmarks)."""
    state = TableState(Settings.from_dict(settings))
    ends: list[tuple[int, TableState]] = []
    for seq, event in enumerate(events, start=1):
        before, state = state, apply_event(state, event)
        if finishes_game(before, state, event):
            ends = [*ends, (seq, state)][-tables.SNAPSHOTS_KEPT:]
    return {seq: ended.snapshot() for seq, ended in ends}


def played_through(state: TableState, seq: int, events: Sequence[Mapping[str, Any]]
                   ) -> tuple[TableState, dict[int, dict[str, Any]]]:
    """``events`` applied in turn to ``state`` (the table at ``seq``): the state after them,
    and the snapshot of each game they finish by its seq (``append_events``' ``snapshots``).
    Raises TableError (the rules refuse one of them)."""
    snapshots: dict[int, dict[str, Any]] = {}
    for at, event in enumerate(events, start=seq + 1):
        after = apply_event(state, event)
        if finishes_game(state, after, event):
            snapshots[at] = after.snapshot()
        state = after
    return state, snapshots


def ledger_changes(before: TableState, after: TableState) -> list[tables.LedgerRow]:
    """The ledger rows that take the money of ``before`` to that of ``after``, per game."""
    return [tables.LedgerRow(*change) for change in money_changes(before, after)]
