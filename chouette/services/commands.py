"""Table commands: load a table's state from its log, check a command, write it (docs/log-format.md 1).

A command is one event of the log format. It is checked against the current state by the pure
rules (``chouette.table``); if legal it is appended at the next ``seq`` together with the ledger
rows it produces, in one transaction (``services.append_events``). Ledger rows are the change
in every game's money that the event causes, so a drop is booked at once, a finished game in
full, and an undo books the reversal: the ledger is always the projection of the log.

States are cached per process, keyed by the table and the seq they were folded to. A cache
miss (a cold process) resumes from the table's latest stored snapshot that the log still
leads to (``table_snapshot``, written with each event that finishes a game) and folds only
the events after it; without one it folds the whole log (a few tens of milliseconds for a
night).
"""

from __future__ import annotations

import contextlib
import functools
import random
import secrets
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.orm import joinedload

from chouette.engine import SecretsDice, legal_moves
from chouette.extensions import db
from chouette.models import ChouetteTable, Member, SeatMember, TableEvent, TableSnapshot
from chouette.refusals import say
from chouette.services import base, identity, tables
from chouette.services.game_lines import changed_lines
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
    try_event,
)
from chouette.table.actions import legal_actions
from chouette.table.cubes import BOX_SIDE
from chouette.table.decisions import STANDING, Decided, what_it_decides

ORGANIZER_ROLES = ("organizer", "admin")
ANSWERS = ("take", "drop", "beaver", "raccoon")
_CACHE_SIZE = 64
_EARLIER_STATES = 8  # per table, besides its latest (``_StateCache.state_at``)


class NotAllowed(base.ServiceError):
    """The signed-in member may not make this command (e.g. another player's cube)."""


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


class _StateCache:
    """The latest folded states, per process; safe for threaded servers."""

    def __init__(self, size: int) -> None:
        self._size = size
        # Keyed by the rename generation too: a rename anywhere is seen by every process.
        self._states: OrderedDict[tuple[str, int, int], tuple[int, TableState]] = OrderedDict()
        # The few states each table had before its latest: the pages drawn from them send
        # decisions that are judged against what they showed (``play``, ``_still_standing``).
        self._earlier: dict[tuple[str, int, int], deque[tuple[int, TableState]]] = {}
        self._lock = threading.Lock()

    def get(self, table_id: int, generation: int = 0) -> tuple[int, TableState] | None:
        key = (_database(), table_id, generation)
        with self._lock:
            found = self._states.get(key)
            if found is not None:
                self._states.move_to_end(key)
            return found

    def put(self, table_id: int, seq: int, state: TableState, generation: int = 0) -> None:
        key = (_database(), table_id, generation)
        with self._lock:
            current = self._states.get(key)
            if current is not None and current[0] > seq:
                return
            if current is not None and current[0] < seq:
                self._earlier.setdefault(key, deque(maxlen=_EARLIER_STATES)).append(current)
            self._states[key] = (seq, state)
            self._states.move_to_end(key)
            while len(self._states) > self._size:
                self._earlier.pop(self._states.popitem(last=False)[0], None)

    def state_at(self, table_id: int, seq: int, generation: int = 0) -> TableState | None:
        """The table's state after exactly ``seq`` events, if this process still holds it."""
        key = (_database(), table_id, generation)
        with self._lock:
            current = self._states.get(key)
            held = [*self._earlier.get(key, ()), *([current] if current is not None else [])]
        return next((state for at, state in held if at == seq), None)

    def seq_of(self, table_id: int, state: TableState) -> tuple[int, int] | None:
        """(seq, rename generation) of ``state`` if it is this table's cached state."""
        database = _database()
        with self._lock:
            for (where, table, generation), (seq, cached) in self._states.items():
                if cached is state and table == table_id and where == database:
                    return seq, generation
        return None

    def clear(self) -> None:
        with self._lock:
            self._states.clear()
            self._earlier.clear()
        with _seats_lock:
            _seats.clear()
            _matched_now.clear()


def _database() -> str:
    """Which database a cached state belongs to (a process may serve several in tests)."""
    return str(db.engine.url)


_cache = _StateCache(_CACHE_SIZE)


def clear_cache() -> None:
    """Forget every cached state (tests; after a restore)."""
    _cache.clear()


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
    matched_count = int(found[3] or 0)
    _matched_now[(_database(), table_id)] = matched_count
    member_names = identity.split_names(found[4]) if names else None
    cached = _cache.get(table_id, generation)
    if (cached is not None and cached[0] == seq
            and cached[1].initial_settings == Settings.from_dict(table.settings)):
        return TablePlay(table, cached[1], seq, generation, matched_count, member_names)
    state = _fold_table(table, seq, cached)
    _cache.put(table_id, seq, state, generation)
    return TablePlay(table, state, seq, generation, matched_count, member_names)


def _state_of(table_id: int) -> TableState:
    """A table's current state (for ``identity``, which reads who sits where)."""
    return load_play(table_id).state


def _settings(table: ChouetteTable) -> dict[str, Any]:
    return Settings.from_dict(table.settings).to_dict()


def _fold_table(table: ChouetteTable, seq: int, cached: tuple[int, TableState] | None
                ) -> TableState:
    """The state after exactly the first ``seq`` events: from the cached state when it is
    older and only plain events follow it, else from the stored snapshots (``resume_table``).

    Exactly ``seq``: another worker may have appended (and cached) since ``seq`` was read
    (PostgreSQL reads committed data statement by statement), and a state ahead of its seq
    would judge the next command against the wrong table.
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
    """
    query = (select(TableEvent.type, TableEvent.payload)
             .where(TableEvent.table_id == table.id, TableEvent.seq <= seq)
             .order_by(TableEvent.seq))
    log = identity.relabel_log(({"type": kind, **(payload or {})}
                                for kind, payload in db.session.execute(query)),
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


def ledger_changes(before: TableState, after: TableState) -> list[tables.LedgerRow]:
    """The ledger rows that take the money of ``before`` to that of ``after``, per game."""
    return [tables.LedgerRow(*change) for change in money_changes(before, after)]


def is_organizer(member: Member | None) -> bool:
    """Whether ``member`` runs tables (organizer or admin)."""
    return member is not None and getattr(member, "role", None) in ORGANIZER_ROLES


#: The decisions that wait for a player: answers to an offer, a partnership offered to him,
#: an extra he may give (his doubles are his too, but nothing waits for them).
WAITING_KINDS = (*ANSWERS, "partner", "extra")


def decider(state: TableState, event: Mapping[str, Any]) -> str | None:
    """The player who makes the decision ``event`` is, by docs/rules.md, or None for what only the
    organizer records (joins, the order, dice, moves, results, undo, corrections, draws,
    deals and proxies).

    A member who stepped away has handed his decisions to a proxy for the rest of the game
    (docs/rules.md 2.12): the proxy decides them (``owner`` says whose decision it is).
    """
    owner = decision_owner(state, event)
    game = state.game
    if owner is not None and game is not None and owner in game.proxies:
        return game.proxies[owner]
    return owner


def decision_owner(state: TableState, event: Mapping[str, Any]) -> str | None:
    """The player whose decision ``event`` is, by docs/rules.md, or None for what only the
    organizer records (see ``decider``, which hands an absent member's to his proxy).

    Who acts is read from the state wherever the state says it (the side an offer waits
    for), else from the event's own actor field (``by``, ``from``, ``player``), which the
    rules then check: an event naming a player as its actor can only ever be legal as his.

    - the partnership: the player it is offered to (2.8);
    - an extra: its giver (2.7); a redouble of an extra cube: the holder who doubles;
      an answer on it: the side its offer waits for (the giver sits on the box's side);
    - a double: the box's is the box's; a member's is his own (single cube: the acting
      captain's, which the rules check);
    - an answer to the box's double: each member on his own cube (2.4, 2.5; with a single
      cube the rules let only the captain beaver);
    - any other answer (to a member's double, a beaver, a raccoon, also while the box's
      double waits for other members): the side the cube's offer waits for, the box or the
      member; the team's single cube: the box, or the acting captain for the team.
    """
    kind = event.get("type")
    if (state.settings.is_match or state.settings.online) and kind in ("roll", "move"):
        return match_mover(state)  # online, the side on roll rolls and moves on its device
    if kind == "partner":
        return _named(event.get("player"))
    if kind == "extra":
        return _named(event.get("from"))
    if kind == "double":  # a double may start a game
        by = event.get("by")
        if by == "box":
            return None if "extra" in event else state.box
        return _named(by)
    game = state.game
    if game is None or kind not in ANSWERS:
        return None
    if "extra" in event:
        extra = next((e for e in game.extras if e.giver == event.get("extra")), None)
        if extra is None or extra.cube.to_answer is None:
            return None
        return extra.giver if extra.cube.to_answer == BOX_SIDE else extra.taker
    cube = event.get("cube")
    if cube == "team" and state.settings.cube_mode == "single":
        sides = {game.cubes[m].to_answer for m in game.pending}
        if sides == {"box"}:
            return state.box
        return game.acting_captain if sides == {"member"} else None
    if not isinstance(cube, str) or cube not in game.cubes:
        return None
    box_double = game.box_double
    if box_double is not None and cube in box_double.waiting:
        return cube
    side = game.cubes[cube].to_answer
    if side == "box":  # a member's double or beaver (also mid box's double, docs/rules.md 2.5)
        return state.box
    if side == "member":
        return cube
    # Nothing waits on it: a member who has answered the box's double still open is told
    # by the rules that his answer stands, not refused as someone else.
    return cube if box_double is not None and cube in box_double.cubes else None


def match_mover(state: TableState) -> str | None:
    """At a match table (or a table that plays online), the player whose dice and move they
    are now: the box or the acting captain, for the side on roll (either of them for the
    opening roll: see ``may_decide``)."""
    game = state.game
    if game is None or game.on_roll is None:
        return None
    return state.box if game.on_roll == "box" else game.acting_captain


def _named(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


#: Seat name -> member id of a table's cached states, by (database, table, seq, renames, how
#: many of the table's old joins are matched to members: ``SeatMember``): every phone at a
#: table asks it of the same state after a push. A new state takes its earlier state's seats
#: when no join came between (``_seats_of``): one query instead of three; a command that is no
#: join carries them to the state it writes (``_seats_carried``): none.
_seats: OrderedDict[tuple[str, int, int, int, int | None], dict[str, int]] = OrderedDict()
_seats_lock = threading.Lock()
#: The matched count (``TablePlay.matched``) each table was last read with, per database: a
#: guest's seat claimed by a new member is another key of ``_seats``, seen from the next read.
_matched_now: dict[tuple[str, int], int] = {}


def _seats_of(table_id: int, state: TableState) -> dict[str, int]:
    """Who sits under which name at the table whose state is ``state`` (by member id)."""
    known = _cache.seq_of(table_id, state)
    if known is None:  # a state of its own (not the process's current one): read afresh
        return identity.seat_members(table_id)
    database, (seq, generation) = _database(), known
    matched_now = _matched_now.get((database, table_id))
    key = (database, table_id, seq, generation, matched_now)
    with _seats_lock:
        found = _seats.get(key)
        if found is not None:
            return found
        # The seats of an earlier state of the table, read under the same names.
        earlier = max(((at, seats) for (where, table, at, renames, matched), seats in _seats.items()
                       if where == database and table == table_id and renames == generation
                       and matched == matched_now and at < seq),
                      key=lambda item: item[0], default=None)
    joined, matched = _seat_changes(table_id, earlier[0] if earlier else seq, seq)
    if earlier is not None and not joined and matched == matched_now:
        # The seats change with a join, a guest's seat claimed by a new member, a rename
        # (another key): none since.
        found = earlier[1]
    else:
        found = identity.seat_members_of([table_id], through=seq)[table_id]
        key = (database, table_id, seq, generation, matched)
    with _seats_lock:
        _seats[key] = found
        while len(_seats) > _CACHE_SIZE:
            _seats.popitem(last=False)
    return found


def _seats_carried(table_id: int, seq: int, generation: int, matched: int) -> None:
    """After a command other than a join written at ``seq + 1``: the new state's seats are
    those of the state at ``seq`` (which the command's check read), with as many of the
    table's joins matched to members as the command read (``matched``). The command's
    answer asks nothing of the database to know who sits where."""
    database = _database()
    with _seats_lock:
        found = _seats.get((database, table_id, seq, generation, matched))
        if found is not None:
            _seats[(database, table_id, seq + 1, generation, matched)] = found
            while len(_seats) > _CACHE_SIZE:
                _seats.popitem(last=False)


def _seat_changes(table_id: int, after: int, through: int) -> tuple[bool, int]:
    """Whether the table's log has a join after seq ``after`` up to ``through``, and how many
    of its joins are matched to members (``SeatMember``: the migration's, a guest's claimed):
    one query."""
    joined = select(TableEvent.seq).where(
        TableEvent.table_id == table_id, TableEvent.type == "join", TableEvent.seq > after,
        TableEvent.seq <= through).limit(1).exists()
    matched = select(func.count()).select_from(SeatMember).where(
        SeatMember.table_id == table_id).scalar_subquery()
    row = db.session.execute(select(joined, matched)).one()
    return bool(row[0]), int(row[1] or 0)


def seat_name(member: Member | None, table_id: int, state: TableState) -> str | None:
    """The seat ``member`` holds at this table, by his id (the log's joins), never by his
    name: an account of the same name is not him. None when he does not play here."""
    member_id = getattr(member, "id", None)
    if not isinstance(member_id, int) or not getattr(member, "is_authenticated", True):
        return None
    name = next((seat for seat, owner in _seats_of(table_id, state).items()
                 if owner == member_id), None)
    return name if name is not None and name in state.players else None


def guests_of(table_id: int, state: TableState) -> frozenset[str]:
    """The players of this table who are guests: seated under a name that is no member's
    (their money goes to no member's balance). The pages mark them."""
    seats = _seats_of(table_id, state)
    return frozenset(name for name in state.players if name not in seats)


def may_decide(member: Member | None, state: TableState, event: Mapping[str, Any],
               table_id: int | None = None) -> bool:
    """Whether ``event`` is the signed-in player's own decision (his phone may post it): the
    decider's seat is his by id (``seat_name``; no table: nobody's)."""
    if table_id is None:
        return False
    name = seat_name(member, table_id, state)
    if name is None:
        return False
    if state.settings.is_match and event.get("type") == "opening_roll":
        return state.is_seated(name)  # either player rolls the opening (docs/rules.md 1.2)
    if state.settings.online and event.get("type") == "opening_roll":
        return name in opening_rollers(state)
    return decider(state, event) == name


def opening_rollers(state: TableState) -> tuple[str, ...]:
    """At a table that plays online, who may roll the opening roll (the server's dice, one
    for each side): the box or the (acting) captain."""
    game = state.game
    captain = game.acting_captain if game is not None else state.captain
    return tuple(name for name in (state.box, captain) if name)


def candidate_decisions(state: TableState) -> list[dict[str, Any]]:
    """Every legal decision now: ``legal_actions`` and the extra cubes' redoubles and answers."""
    return [*legal_actions(state), *extra_cube_actions(state)]


def extra_cube_actions(state: TableState) -> list[dict[str, Any]]:
    """The legal redoubles and answers on the live extra cubes (each tried on the rules)."""
    found: list[dict[str, Any]] = []
    game = state.game
    for extra in game.extras if game is not None else []:
        candidates: list[dict[str, Any]] = [
            {"type": "double", "by": who, "extra": extra.giver} for who in (extra.taker, extra.giver)]
        candidates += [{"type": kind, "extra": extra.giver} for kind in ANSWERS]
        for event in candidates:
            try:
                try_event(state, event)  # a look-ahead: the cached state stays free
            except TableError:
                continue
            found.append(event)
    return found


def decisions_of(name: str | None, state: TableState,
                 legal: Sequence[Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The legal decisions that are ``name``'s now (``legal``: ``candidate_decisions``)."""
    if not name:
        return []
    events = candidate_decisions(state) if legal is None else legal
    return [dict(event) for event in events if decider(state, event) == name]


def waiting_for(name: str | None, state: TableState,
                legal: Sequence[Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The decisions that wait for ``name`` now: offers to answer, the partnership, extras."""
    return [e for e in decisions_of(name, state, legal) if e["type"] in WAITING_KINDS]


def may_run(member: Member | None, table: ChouetteTable) -> bool:
    """Whether ``member`` runs this table: an admin, the organizer who opened its night or
    the one who created it (another table's organizer may watch, not run it).

    A table with neither recorded (made outside the app's pages) is run by any organizer.
    """
    if not is_organizer(member) or member is None:
        return False
    if member.role == "admin":
        return True
    owners = {table.created_by_id, table.night.opened_by_id} - {None}
    return not owners or member.id in owners


def own_seat(member: Member | None, state: TableState, event: Mapping[str, Any],
             table_id: int) -> bool:
    """Whether ``event`` seats or unseats ``member`` themselves: a join that seats them by
    id (``identity.resolve_join`` wrote the id from the name, never from the form), with
    nothing else in it, or the leave of their own seat (``seat_name``, by id)."""
    member_id = getattr(member, "id", None)
    if not isinstance(member_id, int) or not getattr(member, "is_authenticated", True):
        return False
    if event.get("type") == "join":
        return event.get("member_id") == member_id and set(event) <= {"type", "player", "member_id"}
    if event.get("type") == "leave":
        name = seat_name(member, table_id, state)
        return name is not None and event.get("player") == name
    return False


def own_hand_over(member: Member | None, state: TableState, event: Mapping[str, Any],
                  table_id: int) -> bool:
    """Whether ``event`` is ``member`` handing their own cube decisions to a teammate for the
    rest of the game (a proxy, docs/rules.md 2.12), as they may before stepping away; the
    rules check the rest (a live cube, a teammate still playing)."""
    if event.get("type") != "proxy" or set(event) != {"type", "player", "to"}:
        return False
    name = seat_name(member, table_id, state)
    return name is not None and event.get("player") == name


def authorize(member: Member | None, state: TableState, event: Mapping[str, Any],
              table: ChouetteTable | None = None) -> None:
    """Raise NotAllowed unless ``member`` may make this command at this table: his own
    decision (``decider``), or any command for the organizers who run it (``may_run``;
    ``table`` None: any organizer)."""
    if may_decide(member, state, event, table.id if table is not None else None):
        return
    if table is not None and own_seat(member, state, event, table.id):
        return
    if table is not None and own_hand_over(member, state, event, table.id):
        return
    if table is not None and event.get("type") == "undo" and set(event) == {"type"}:
        from chouette.services.take_back import own_drop_until  # it reads the log's last row

        if own_drop_until(member, table.id, state, seat_name(member, table.id, state)):
            return
    if is_organizer(member) and (table is None or may_run(member, table)):
        return
    if (state.settings.online and event.get("type") in ("roll", "move", "opening_roll")
            and not is_organizer(member)):
        raise NotAllowed(_online_turn(state))
    raise _not_allowed(member)


def _online_turn(state: TableState) -> str:
    """The refusal of a roll or a move by a player whose turn it is not, at an online table."""
    mover = match_mover(state)
    if mover is None:
        return _("At a table played online the box or the captain rolls the opening roll, "
                 "each on their own device.")
    return _("At a table played online the player on roll rolls and moves on their own "
             "device: it is %(name)s's turn.", name=mover)


def _not_allowed(member: Member | None) -> NotAllowed:
    """The refusal of a command that is neither ``member``'s decision nor theirs to run."""
    if is_organizer(member):
        return NotAllowed(_("This table is run by the organizer who opened the night or created "
                            "the table; you may watch it."))
    return NotAllowed(_("That is not your decision: players make their own decisions at the "
                        "table, and the organizer runs it."))


#: How many times a decision that stands on its own is judged again when another command
#: was written between its read and its write (four members answering at one moment).
PLAY_ATTEMPTS = 6


def play(table_id: int, expected_seq: int, event: Mapping[str, Any], actor: Member | None,
         *, loaded: TablePlay | None = None) -> TablePlay:
    """Apply one command made at ``expected_seq`` (the seq the actor saw) and write it.

    A decision that stands on its own (docs/rules.md 2.5: an answer, a member's double of his own
    cube, an extra, a partnership answer; ``decisions.what_it_decides``) is judged on the
    table as it is now when other events came in since, as long as what it decides is
    unchanged; when it is gone (the cube answered already, the game over) the rules refuse
    it with their reason. Any other command is made on the table exactly at
    ``expected_seq``.

    ``loaded``: the table as the caller loaded it in this transaction (a view that built the
    event from it), not loaded again; ``tables.append_events`` checks the seq again under the
    write lock either way.

    Raises TableError (the rules refuse it: the message says why), TableChanged (someone
    changed the table first), NotAllowed, NotFound, NightClosed. Nothing is written then.
    """
    current = loaded if loaded is not None and loaded.table.id == table_id else load_play(table_id)
    standing = isinstance(event, Mapping) and event.get("type") in STANDING
    if current.seq != expected_seq and not standing:
        raise base.TableChanged(table_id, expected_seq)
    if not isinstance(event, Mapping):
        raise TableError(_("That is not a table action."))
    seen: list[Decided | None] = []  # what the decision decided on the page, once read
    for attempt in range(1, PLAY_ATTEMPTS + 1):
        if current.seq != expected_seq:
            _still_standing(current, expected_seq, event, seen)
        try:
            with _joining(event):
                return _write(current, event, actor)
        except base.TableChanged:
            if not standing or attempt == PLAY_ATTEMPTS:
                raise
            current = load_play(table_id)  # overtaken between the read and the write
    raise AssertionError("unreachable")


def _still_standing(current: TablePlay, expected_seq: int, event: Mapping[str, Any],
                    seen: list[Decided | None]) -> None:
    """Raise unless ``event``, made on the page drawn at ``expected_seq``, decides the same
    now: the rules' refusal when what it decided is gone, else TableChanged."""
    table_id = current.table.id
    if expected_seq > current.seq:
        raise base.TableChanged(table_id, expected_seq)
    if not seen:  # the state the page was drawn from (read once: its seq never changes)
        drawn = (_cache.state_at(table_id, expected_seq, current.generation)
                 or resume_table(current.table, expected_seq))
        seen.append(what_it_decides(drawn, event))
    if seen[0] is None:  # no decision that waited on that page
        raise base.TableChanged(table_id, expected_seq)
    if what_it_decides(current.state, event) == seen[0]:
        return
    try_event(current.state, event)  # gone: the rules' own refusal says why
    raise base.TableChanged(table_id, expected_seq)  # the rules take it, but it is another


def _joining(event: Mapping[str, Any]) -> contextlib.AbstractContextManager[None]:
    """A join is checked and written in one ``writing()``: that the member sits at no other
    open table is read under the write lock (PostgreSQL: the member's advisory lock,
    ``identity.resolve_join``). Any other command reads as a reader and writes in
    ``append_events``."""
    return base.writing(keep_loaded=True) if event.get("type") == "join" else contextlib.nullcontext()


def _write(current: TablePlay, event: Mapping[str, Any], actor: Member | None) -> TablePlay:
    """Authorize ``event`` on ``current`` (the table read at its latest seq), apply it and
    append it at the next seq. Raises TableChanged when another command was written first."""
    table_id, seq = current.table.id, current.seq
    if event.get("type") == "join":  # a member's name seats that member, by id
        event = identity.resolve_join(current.table, event, _state_of)
    authorize(actor, current.state, event, current.table)
    after = apply_event(current.state, event)
    rows = ledger_changes(current.state, after)
    snapshots = ({seq + 1: after.snapshot()}
                 if finishes_game(current.state, after, event) else None)
    written = tables.append_events(table_id, seq, [dict(event)], actor, rows, snapshots,
                                   changed_lines(current.state, after))
    _cache.put(table_id, seq + 1, after, current.generation)
    if event.get("type") != "join" and current.matched is not None:
        _seats_carried(table_id, seq, current.generation, current.matched)
    return TablePlay(current.table, after, seq + 1, current.generation,
                     current.matched, current.member_names, tuple(written))


def play_all(table_id: int, expected_seq: int, events: Sequence[Mapping[str, Any]],
             actor: Member | None, *, loaded: TablePlay | None = None) -> TablePlay:
    """Apply several commands made at once at exactly ``expected_seq`` and write them in one
    transaction, each at its own seq (the organizer's shortcuts: ``nobody_accepts``).

    Only the organizers who run the table make them (``may_run``): a player's own decisions
    are posted one by one. Raises NotAllowed, TableChanged, TableError (the rules refuse one
    of them: nothing is written), NotFound, NightClosed.
    """
    current = loaded if loaded is not None and loaded.table.id == table_id else load_play(table_id)
    if not may_run(actor, current.table):
        raise _not_allowed(actor)
    if current.seq != expected_seq:
        raise base.TableChanged(table_id, expected_seq)
    if not events:
        raise TableError(_("That is not a table action."))
    state, snapshots = current.state, {}
    for seq, event in enumerate(events, start=current.seq + 1):
        after = apply_event(state, event)
        if finishes_game(state, after, event):
            snapshots[seq] = after.snapshot()
        state = after
    written = tables.append_events(table_id, current.seq, [dict(e) for e in events], actor,
                                   ledger_changes(current.state, state), snapshots or None,
                                   changed_lines(current.state, state))
    _cache.put(table_id, current.seq + len(events), state, current.generation)
    return TablePlay(current.table, state, current.seq + len(events), current.generation,
                     current.matched, current.member_names, tuple(written))


def nobody_accepts(state: TableState) -> list[dict[str, Any]]:
    """The partnership declined by everyone it is still to be offered to, in turn, then the
    partner drawn with the server's chance (docs/rules.md 2.8): the log keeps each decline.
    When no partnership waits, the rules refuse the first event (``play_all`` applies them)."""
    events: list[dict[str, Any]] = []
    while (offered := state.next_partner_offer()) is not None:
        event = {"type": "partner", "player": offered, "accept": False}
        state = apply_event(state, event)
        events.append(event)
    return [*events, server_event(state, "partner_draw")]


# --- commands that need chance: the server rolls, with a cryptographically sound source --


def order_roll_event(state: TableState, die: Callable[[], int]) -> dict[str, Any]:
    """An order roll for everyone who must roll now (all players, or the tied ones)."""
    if state.ordered:
        raise TableError(_("The starting order is already settled."))
    if state.order_groups is None:
        rolling = list(state.waiting)
    else:
        rolling = [p for group in state.order_groups if len(group) > 1 for p in group]
    return {"type": "order_roll", "rolls": {name: die() for name in rolling}}


def partner_draw_event(state: TableState, choose: Callable[[list[str]], str]) -> dict[str, Any]:
    """The partner drawn at random among the team other than the captain."""
    candidates = list(state.seats.line)
    if not candidates:
        raise TableError(_("Nobody can be drawn as the box's partner."))
    return {"type": "partner_draw", "player": choose(candidates)}


def dice_event(state: TableState, die: Callable[[], int]) -> dict[str, Any]:
    """The next board roll: the opening roll (one die a side, no tie) or the side on roll's."""
    game = state.game
    if game is None or game.mode is None:
        return {"type": "opening_roll", "box": die(), "team": die()}
    return {"type": "roll", "dice": [die(), die()]}


def roll_event(state: TableState, typed: tuple[int, int] | None = None) -> dict[str, Any]:
    """The roll asked for now: the server's dice (``typed`` None), or the physical dice typed
    (the opening roll's: the box's die, then the team's). Every roll of the table's page
    passes here (a gate that makes a roll wait goes here).

    Raises TableError: dice typed at a table that plays online (its dice are the server's).
    """
    if typed is None:
        return server_event(state, "roll")
    no_typed_dice(state)
    game = state.game
    if game is None or game.mode is None:
        return {"type": "opening_roll", "box": typed[0], "team": typed[1]}
    return {"type": "roll", "dice": [typed[0], typed[1]]}


def no_typed_dice(state: TableState) -> None:
    """Raise TableError at a table that plays online: its dice are the server's only."""
    if state.settings.online:
        raise TableError(_("This table plays online: the dice come from the app, never typed. "
                           "Tap Roll."))


def forced_play(state: TableState) -> str | None:
    """The one legal play of the dice rolled, when the roll allows exactly one, else None."""
    game = state.game
    if game is None or game.position is None or game.dice is None:
        return None
    plays = legal_moves(game.position, game.dice)
    return str(plays[0]) if len(plays) == 1 else None


def server_event(state: TableState, kind: str) -> dict[str, Any]:
    """Build a chance event with the server's dice (``secrets``): order, partner, dice."""
    dice: Callable[[], int] = SecretsDice()
    choose: Callable[[list[str]], str] = secrets.choice
    seed = current_app.config.get("DICE_SEED")
    if seed is not None:
        # Tests only (config.py refuses DICE_SEED outside TESTING, and never reads it from the
        # environment): the chance of a table is drawn from the seed and the number of its
        # events, so the same actions roll the same dice and a failure can be replayed.
        rng = random.Random(f"{seed}:{len(state.effective)}")
        dice, choose = (lambda: rng.randint(1, 6)), rng.choice
    if kind == "order_roll":
        return order_roll_event(state, dice)
    if kind == "partner_draw":
        return partner_draw_event(state, choose)
    if kind == "roll":
        return dice_event(state, dice)
    raise TableError(_("Unknown action."))


def open_match(night_id: int, *, name: str, players: Sequence[str], settings: Mapping[str, Any],
               actor: Member) -> ChouetteTable:
    """Open a head-to-head match table (docs/rules.md 1.8): its settings, and the two players seated
    in the order given (the first on side 0, the box seat), written as its first events.

    Raises ServiceError (the players or settings make no match: nothing is written),
    NotFound, NightClosed.
    """
    checked = tables.normalize_match_settings(settings)
    events: list[dict[str, Any]] = [{"type": "join", "player": p} for p in players]
    events.append({"type": "order", "players": list(players)})
    try:
        state = fold(checked, events)
    except TableError as error:
        raise base.ServiceError(say(error.__cause__ if isinstance(error.__cause__, TableError)
                                        else error)) from error
    if len(state.players) != 2:
        raise base.ServiceError(_("A match is between two players."))
    with base.writing():  # the players checked and seated in one write (resolve_join's lock)
        # A member's name seats that member, by id, as at any table (identity.resolve_join).
        joins = [identity.resolve_join(None, {"type": "join", "player": p}, _state_of)
                 for p in state.players]
        seated = [str(join["player"]) for join in joins]
        if len(set(seated)) != 2:
            raise base.ServiceError(_("A match is between two players."))
        table = tables.create_table(night_id, name=name, settings=checked, actor=actor)
        tables.append_events(table.id, 0, [*joins, {"type": "order", "players": seated}], actor)
    return table

