"""A player's history: every table he sat at, folded once, and his ledger rows.

A player is a display name as used at the tables (members and guests alike). The facts of a
table (each finished game's seats and result, each cube decision and how it ended) come from
its log; they are cached per process, keyed by the table and its last seq, and stored in the
``table_facts`` rows (a projection of the log, keyed by the seq it was folded at), so a cold
process reads them instead of folding: a table is folded again only when its log moved, and
a closed night's tables never move. The money comes from the ledger rows, summed per game in
one query, so every amount matches the ledger.
"""

from __future__ import annotations

import logging
import threading
import unicodedata
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, insert, or_, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from chouette.extensions import db
from chouette.ledger.money import pair_stake_cents, points_to_cents
from chouette.models import (
    ChouetteTable,
    LedgerEntry,
    Member,
    Night,
    TableEvent,
    TableFactsRow,
    TableSnapshot,
    utcnow,
)
from chouette.table import (
    SNAPSHOT_VERSION,
    GameRecord,
    Settings,
    TableError,
    TableState,
    apply_event,
    can_resume,
)
from chouette.table.cubes import BOX_SIDE
from chouette.table.state import corrections_of, effective_after, effective_events

ANSWERS = ("take", "beaver", "raccoon", "drop")
_CACHE_SIZE = 4096
#: The format of the stored facts (``TableFacts.to_dict``); rows of another version are
#: folded again (bump it when the facts' shape, or what the rules make of a log, changes).
FACTS_VERSION = 1

log = logging.getLogger(__name__)


def display_name(value: object) -> str:
    """A name as the tables spell it: NFC, single spaces (``check_name``'s spelling)."""
    if not isinstance(value, str):
        return ""
    return " ".join(unicodedata.normalize("NFC", value).split())


# --------------------------------------------------------------------------- one table's facts


@dataclass(frozen=True)
class Decision:
    """One answer to a double: who answered, as what, and how that cube ended for him.

    ``points`` is the answerer's result on the cubes he answered for (negative: what a drop
    cost); ``cents`` the same in money at those cubes' stakes; ``outcome`` is ``won``,
    ``lost``, ``even``, ``open`` (the game is still on) or ``void`` (a correction voided it).
    """

    player: str
    answer: str  # take, beaver, raccoon, drop
    role: str  # box, member, giver (of an extra cube), taker (of an extra cube)
    game: int
    value: int  # the value offered
    points: int
    cents: int
    outcome: str

    def to_list(self) -> list[Any]:
        """JSON-ready form (a list: a night has hundreds of decisions)."""
        return [self.player, self.answer, self.role, self.game, self.value, self.points,
                self.cents, self.outcome]

    @classmethod
    def from_list(cls, data: Sequence[Any]) -> Decision:
        """Inverse of :meth:`to_list` (JSON gives back the same strings and ints).

        Raises:
            TypeError: not the eight fields.
        """
        return cls(*data)


@dataclass(frozen=True)
class TableFacts:
    """What the player page needs from one table's log: the seats of its finished games and
    its cube decisions (not the game records themselves: those were nine tenths of a stored
    row and two thirds of the time to read one back, for nothing the page shows)."""

    decisions: tuple[Decision, ...]
    stake_cents: int
    #: player -> game number -> (seat, his result in it, voided): counted once per fold.
    seats: dict[str, dict[int, tuple[str, int, bool]]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what a ``table_facts`` row stores); ``from_dict`` reads it back."""
        return {
            "decisions": [decision.to_list() for decision in self.decisions],
            "stake_cents": self.stake_cents,
            "seats": {player: {str(number): [seat, result, voided]
                               for number, (seat, result, voided) in games.items()}
                      for player, games in self.seats.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableFacts:
        """Inverse of :meth:`to_dict`. Raises KeyError, TypeError or ValueError when malformed."""
        return cls(
            tuple(Decision.from_list(decision) for decision in data["decisions"]),
            int(data["stake_cents"]),
            {player: {int(number): (seat, result, voided)
                      for number, (seat, result, voided) in games.items()}
             for player, games in data["seats"].items()},
        )


@dataclass
class _Pending:
    """A decision seen in the log, waiting for its game's end to know its outcome."""

    player: str
    answer: str
    role: str
    game: int
    value: int
    members: tuple[str, ...] = ()  # the member cubes it answered for
    extra: str | None = None  # the giver of the extra cube it answered for


def _answerer(before: TableState, event: Mapping[str, Any]) -> _Pending | None:
    """Who answers this take/drop/beaver/raccoon, for which cubes (``before`` the event)."""
    game = before.game
    if game is None:
        return None
    answer = str(event["type"])
    if "extra" in event:
        giver = display_name(event.get("extra"))
        for extra in game.extras:
            if extra.giver == giver and extra.cube.to_answer is not None:
                offer = extra.cube.offer
                side = extra.cube.to_answer
                who, role = (extra.giver, "giver") if side == BOX_SIDE else (extra.taker, "taker")
                return _Pending(who, answer, role, game.number, offer.value if offer else 0,
                                extra=extra.giver)
        return None
    target = display_name(event.get("cube"))
    if game.box_double is not None:
        cube = game.cubes.get(target)
        offer = cube.cube.offer if cube else None
        return _Pending(target, answer, "member", game.number, offer.value if offer else 0, (target,))
    if target == "team":
        members = tuple(game.pending)
    else:
        members = (target,)
    if not members or members[0] not in game.cubes:
        return None
    cube = game.cubes[members[0]]
    offer = cube.cube.offer
    value = offer.value if offer else 0
    if cube.cube.to_answer == BOX_SIDE:
        return _Pending(before.box or "", answer, "box", game.number, value, members)
    return _Pending(members[0], answer, "member", game.number, value, members)


def _stake(settings: Settings, record: GameRecord, player: str, other: str) -> int:
    """The stake of the cube between ``player`` and ``other`` in this game."""
    if not settings.per_player_stakes:
        return settings.stake_cents
    stakes = dict(record.stakes)
    return pair_stake_cents(stakes.get(player, settings.stake_cents),
                            stakes.get(other, settings.stake_cents))


def _close(pending: _Pending, record: GameRecord | None, settings: Settings) -> Decision:
    """The decision with its outcome, from the record of its game (None: still playing)."""
    if record is None:
        return Decision(pending.player, pending.answer, pending.role, pending.game,
                        pending.value, 0, 0, "open")
    if record.voided:
        return Decision(pending.player, pending.answer, pending.role, pending.game,
                        pending.value, 0, 0, "void")
    points = cents = 0
    if pending.extra is not None:
        for giver, taker, taker_points in record.extras:
            if giver == pending.extra:
                sign = 1 if pending.role == "taker" else -1
                points += sign * taker_points
                cents += points_to_cents(sign * taker_points, _stake(settings, record, giver, taker))
    else:
        pairs = dict(record.pairs)
        sign = -1 if pending.role == "box" else 1
        for member in pending.members:
            member_points = pairs.get(member, 0)
            points += sign * member_points
            cents += points_to_cents(sign * member_points, _stake(settings, record, record.box, member))
    outcome = "won" if points > 0 else "lost" if points < 0 else "even"
    return Decision(pending.player, pending.answer, pending.role, pending.game, pending.value,
                    points, cents, outcome)


def table_facts(settings: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> TableFacts:
    """Fold a table's log once, noting every cube decision (pure: no database).

    Undone events are left out first; corrections are known in advance, as the rules' own
    refold does, so every game ends as it does in the table's state.

    Raises:
        TableError: the log is refused by the rules (it never is for a stored log).
    """
    kept = [events[i] for i in effective_events(events)]
    state = TableState(Settings.from_dict(settings), corrections=corrections_of(kept))
    return _fold_facts(state, kept, TableFacts((), state.settings.stake_cents), 0)


def facts_since(earlier: TableFacts, snapshot: Mapping[str, Any], at: int,
                events: Sequence[Mapping[str, Any]]) -> TableFacts:
    """The facts of the whole log ``events``, folding only the events after ``at``:
    ``snapshot`` is the state after the first ``at`` events, ``earlier`` the facts of the
    log as it was at a seq from ``at`` on, which must also have led from ``at``
    (``can_resume`` of that shorter log): the games finished by ``at`` are final in them.

    Raises:
        TableError: the log after ``at`` invalidates the snapshot (see ``can_resume``), it
            is malformed, or an event is refused.
    """
    after = effective_after(events, at)
    if after is None:
        raise TableError(f"the log after event {at} reaches back before it")
    state = TableState.from_snapshot(snapshot)
    finished = len(state.games)
    kept_earlier = TableFacts(
        tuple(d for d in earlier.decisions if d.game <= finished), earlier.stake_cents,
        {player: {n: seat for n, seat in games.items() if n <= finished}
         for player, games in earlier.seats.items()})
    return _fold_facts(state, [events[i] for i in after], kept_earlier, finished)


def _fold_facts(state: TableState, kept: Sequence[Mapping[str, Any]], earlier: TableFacts,
                finished: int) -> TableFacts:
    """Fold the effective events ``kept`` from ``state`` noting each decision; the facts are
    ``earlier``'s (of the first ``finished`` games) and those of the games after them."""
    pending: list[_Pending] = []
    for event in kept:
        if event.get("type") == "correct":
            continue  # only checked by the rules; its effect is already known to the fold
        if event.get("type") in ANSWERS:
            found = _answerer(state, event)
            if found is not None:
                pending.append(found)
        state = apply_event(state, event)
    records = {record.number: record for record in state.games}
    decisions = earlier.decisions + tuple(_close(p, records.get(p.game), state.settings)
                                          for p in pending)
    seats: dict[str, dict[int, tuple[str, int, bool]]] = defaultdict(dict)
    for player, games in earlier.seats.items():
        seats[player].update(games)
    for record in state.games[finished:]:
        for player in {record.box, record.partner, *(c.member for c in record.cubes)}:
            found = _role(record, player) if player else None
            if found is not None:
                seats[player][record.number] = (*found, record.voided)
    return TableFacts(decisions, state.settings.stake_cents, {p: g for p, g in seats.items() if g})


class _FactsCache:
    """Table facts per (database, table, last seq, settings); safe for threaded servers."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._facts: OrderedDict[tuple[str, int, int, str], TableFacts] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, int, str]) -> TableFacts | None:
        with self._lock:
            found = self._facts.get(key)
            if found is not None:
                self._facts.move_to_end(key)
            return found

    def put(self, key: tuple[str, int, int, str], facts: TableFacts) -> None:
        with self._lock:
            self._facts[key] = facts
            self._facts.move_to_end(key)
            while len(self._facts) > self._size:
                self._facts.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._facts.clear()


_cache = _FactsCache(_CACHE_SIZE)


def clear_player_cache() -> None:
    """Forget every table's cached facts (tests; benchmarks measuring a cold page)."""
    _cache.clear()


#: Facts folded by a read, to be stored: table id -> (seq, settings, facts).
Folded = dict[int, tuple[int, dict[str, Any], TableFacts]]


def _facts_of(tables: Iterable[ChouetteTable], seqs: Mapping[int, int]
              ) -> tuple[dict[int, TableFacts], Folded]:
    """Each table's facts: cached in the process, else stored (``table_facts``) at the
    table's seq, else folded from its log (one query for all the missing); and the facts
    folded here, for ``store_facts`` once the page is read.

    A table whose stored facts are of an older seq (a live night's) is folded only from its
    latest stored snapshot at or before that seq that the log still leads to
    (``facts_since``), else from the start.
    """
    database = str(db.engine.url)
    found: dict[int, TableFacts] = {}
    folded: Folded = {}
    missing: dict[int, tuple[tuple[str, int, int, str], ChouetteTable]] = {}
    for table in tables:
        key = (database, table.id, seqs.get(table.id, 0), repr(sorted(table.settings.items())))
        cached = _cache.get(key)
        if cached is not None:
            found[table.id] = cached
        else:
            missing[table.id] = (key, table)
    stale: dict[int, tuple[int, TableFacts]] = {}
    stored = stored_facts({table_id: table.settings for table_id, (_key, table) in missing.items()})
    for table_id, (seq, facts) in stored.items():
        key = missing[table_id][0]
        if seq == key[2]:
            _cache.put(key, facts)
            found[table_id] = facts
            del missing[table_id]
        elif seq < key[2]:
            stale[table_id] = (seq, facts)
    if missing:
        logs: dict[int, list[dict[str, Any]]] = defaultdict(list)
        # Plain rows, not ORM objects: a thousand games are some twenty thousand events.
        query = (select(TableEvent.table_id, TableEvent.seq, TableEvent.type, TableEvent.payload)
                 .where(TableEvent.table_id.in_(missing))
                 .order_by(TableEvent.table_id, TableEvent.seq))
        for table_id, seq, kind, payload in db.session.execute(query):
            if seq <= missing[table_id][0][2]:
                logs[table_id].append({"type": kind, **(payload or {})})
        since = _facts_since_snapshots(
            {table_id: (stale[table_id], missing[table_id][1], logs[table_id]) for table_id in stale})
        for table_id, (key, table) in missing.items():
            facts = since.get(table_id) or table_facts(table.settings, logs[table_id])
            _cache.put(key, facts)
            found[table_id] = facts
            folded[table_id] = (key[2], dict(table.settings), facts)
    return found, folded


def _facts_since_snapshots(
    stale: Mapping[int, tuple[tuple[int, TableFacts], ChouetteTable, Sequence[Mapping[str, Any]]]]
) -> dict[int, TableFacts]:
    """The facts of tables whose stored facts are of an older seq (table id -> ((that seq,
    those facts), the table, its log)), from their stored snapshots where one serves."""
    if not stale:
        return {}
    points: dict[int, list[int]] = defaultdict(list)
    for table_id, seq in db.session.execute(
        select(TableSnapshot.table_id, TableSnapshot.seq)
        .where(TableSnapshot.table_id.in_(stale), TableSnapshot.version == SNAPSHOT_VERSION)
        .order_by(TableSnapshot.seq.desc())
    ):
        points[table_id].append(seq)
    chosen: dict[int, int] = {}
    for table_id, ((seen, _facts), _table, events) in stale.items():
        # The facts stored at ``seen`` are final for the games finished at ``at`` only if the
        # log as it was then led from ``at`` too (a correction made and later undone).
        at = next((p for p in points[table_id] if p <= seen and can_resume(events, p)
                   and can_resume(events[:seen], p)), None)
        if at is not None:
            chosen[table_id] = at
    result: dict[int, TableFacts] = {}
    for table_id, at, snapshot in db.session.execute(
        select(TableSnapshot.table_id, TableSnapshot.seq, TableSnapshot.state)
        .where(tuple_(TableSnapshot.table_id, TableSnapshot.seq).in_(list(chosen.items())))
    ) if chosen else ():
        (_seen, earlier), table, events = stale[table_id]
        if snapshot.get("settings") != Settings.from_dict(table.settings).to_dict():
            continue
        try:
            result[table_id] = facts_since(earlier, snapshot, at, events)
        except TableError:
            continue  # a snapshot this code cannot read: the table is folded whole
    return result


def stored_facts(wanted: Mapping[int, Mapping[str, Any]]) -> dict[int, tuple[int, TableFacts]]:
    """The stored facts of the tables ``wanted`` (table id -> settings) folded with those
    settings and this ``FACTS_VERSION``: table id -> (the seq they were folded at, facts)."""
    if not wanted:
        return {}
    query = (select(TableFactsRow.table_id, TableFactsRow.seq, TableFactsRow.settings,
                    TableFactsRow.facts)
             .where(TableFactsRow.table_id.in_(wanted), TableFactsRow.version == FACTS_VERSION))
    found: dict[int, tuple[int, TableFacts]] = {}
    for table_id, seq, settings, data in db.session.execute(query):
        if dict(settings or {}) != dict(wanted[table_id]):
            continue
        try:
            found[table_id] = (seq, TableFacts.from_dict(data))
        except (KeyError, TypeError, ValueError, AttributeError):
            log.warning("table %s: stored facts unreadable, folding its log", table_id)
    return found


def store_facts(folded: Folded) -> None:
    """Store tables' facts (table id -> (seq, settings, facts)) for the next cold process.

    Called by a read: the caller's transaction is ended first (it only read; on SQLite a
    reader must not write, see ``read_only``), then one short transaction of its own upserts
    the rows. An upsert, because two workers may fold the same table at once (on PostgreSQL
    ``INSERT ... ON CONFLICT`` waits for the other and then updates or skips); a row is only
    replaced by one folded at the same or a later seq (the log only grows). A cache that
    cannot be written (the database busy) is logged and the page served all the same.
    """
    if not folded:
        return
    db.session.commit()
    at = utcnow()
    values = [{"table_id": table_id, "seq": seq, "version": FACTS_VERSION,
               "settings": dict(settings), "facts": facts.to_dict(), "computed_at": at}
              for table_id, (seq, settings, facts) in sorted(folded.items())]
    try:
        for row in values:
            db.session.execute(_upsert(row))
        db.session.commit()
    except SQLAlchemyError as error:
        db.session.rollback()
        log.warning("table facts not stored (they will be folded again): %s", error)


def store_night_facts(night_id: int) -> None:
    """Fold and store the facts of a night's tables, once it is closed (or imported closed):
    its tables never move again, so no player page ever folds them. After the caller's
    transaction (``store_facts`` ends it); a failure is logged, never raised."""
    tables = list(db.session.scalars(select(ChouetteTable).where(ChouetteTable.night_id == night_id)))
    if not tables:
        return
    seqs = dict(db.session.execute(
        select(TableEvent.table_id, func.max(TableEvent.seq))
        .where(TableEvent.table_id.in_([table.id for table in tables])).group_by(TableEvent.table_id)
    ).all())
    store_facts(_facts_of(tables, seqs)[1])


def _upsert(row: Mapping[str, Any]) -> Any:
    """INSERT the facts row, or UPDATE the stored one when it is older or of another version."""
    table = TableFactsRow.__table__
    dialect = db.session.get_bind().dialect.name
    maker = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}.get(dialect)
    if maker is None:  # another database: no upsert, a plain insert refused by the key
        return insert(table).values(**row)
    statement = maker(table).values(**row)
    return statement.on_conflict_do_update(
        index_elements=[table.c.table_id],
        set_={name: statement.excluded[name] for name in row if name != "table_id"},
        where=or_(table.c.seq <= statement.excluded.seq, table.c.version != statement.excluded.version),
    )


# --------------------------------------------------------------------------- the history


@dataclass
class Tally:
    """Games in one role: how many, won, lost."""

    games: int = 0
    won: int = 0
    lost: int = 0

    def add(self, result: int) -> None:
        """Count one game with the player's result in it (> 0 won, < 0 lost)."""
        self.games += 1
        if result > 0:
            self.won += 1
        elif result < 0:
            self.lost += 1


@dataclass
class DecisionTally:
    """Answers of one kind: how many, how they ended, their points and money."""

    count: int = 0
    won: int = 0
    lost: int = 0
    open: int = 0
    points: int = 0
    cents: dict[str, int] = field(default_factory=dict)  # per currency


@dataclass(frozen=True)
class GameLine:
    """One game the player played or has money in (the chart's points, the latest games)."""

    night_id: int
    night: str
    date: Any
    currency: str
    table_id: int
    table: str
    game: int
    role: str  # box, partner, captain, member; "" while the game is still on
    points: int
    cents: int
    balance: int  # running cents after this game (in this game's currency)


@dataclass
class NightLine:
    """The player's result for one night."""

    night_id: int
    name: str
    date: Any
    currency: str
    tables: list[str] = field(default_factory=list)
    games: int = 0
    points: int = 0
    cents: int = 0


@dataclass
class PlayerHistory:
    """Everything the player page shows."""

    name: str
    member: Member | None
    games: list[GameLine] = field(default_factory=list)
    nights: list[NightLine] = field(default_factory=list)
    roles: dict[str, Tally] = field(default_factory=dict)  # box, partner, captain, member
    decisions: dict[str, DecisionTally] = field(default_factory=dict)  # per answer
    decisions_as: dict[str, dict[str, int]] = field(default_factory=dict)  # answer -> role -> n
    points: int = 0
    cents: dict[str, int] = field(default_factory=dict)  # lifetime money per currency
    voided: int = 0

    @property
    def found(self) -> bool:
        """Whether the name ever sat at a table."""
        return bool(self.games or self.nights or sum(t.games for t in self.roles.values()))


def _tables_of(name: str) -> set[int]:
    """The tables where ``name`` joined, or has ledger rows."""
    query = select(TableEvent.table_id, TableEvent.payload).where(TableEvent.type == "join")
    tables = {table_id for table_id, payload in db.session.execute(query)
              if display_name((payload or {}).get("player")) == name}
    tables |= set(db.session.scalars(
        select(LedgerEntry.table_id).where(LedgerEntry.player == name).distinct()))
    return tables


def _role(record: GameRecord, name: str) -> tuple[str, int] | None:
    """The player's role in a finished game and his result in it (points), if he played."""
    pairs = dict(record.pairs)
    if record.box == name:
        return "box", record.box_side_points
    if record.partner == name:
        return "partner", record.box_side_points
    if name == record.captain:
        return "captain", 1 if record.captain_won else -1
    if name in pairs:
        return "member", pairs[name]
    if any(cube.member == name for cube in record.cubes):
        return "member", 0  # a voided game: no points
    return None


def player_history(name: str) -> PlayerHistory:
    """The player's whole history (an unknown name gives an empty one).

    It only reads, then stores the facts of the tables it had to fold in a short
    transaction of its own (``store_facts``: the caller's transaction is ended first).
    """
    name = display_name(name)
    member = db.session.scalar(select(Member).where(Member.name == name).limit(1))
    history = PlayerHistory(name, member,
                            roles={r: Tally() for r in ("box", "partner", "captain", "member")},
                            decisions={a: DecisionTally() for a in ANSWERS})
    table_ids = _tables_of(name)
    if not table_ids:
        return history
    rows = db.session.execute(
        select(ChouetteTable, Night).join(Night, Night.id == ChouetteTable.night_id)
        .where(ChouetteTable.id.in_(table_ids)).order_by(Night.date, Night.id, ChouetteTable.id)
    ).all()
    seqs = dict(db.session.execute(
        select(TableEvent.table_id, func.max(TableEvent.seq))
        .where(TableEvent.table_id.in_(table_ids)).group_by(TableEvent.table_id)
    ).all())
    money: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    for table_id, game, points, cents in db.session.execute(
        select(LedgerEntry.table_id, LedgerEntry.game, func.sum(LedgerEntry.points),
               func.sum(LedgerEntry.cents))
        .where(LedgerEntry.player == name).group_by(LedgerEntry.table_id, LedgerEntry.game)
    ):
        money[table_id][game] = (int(points), int(cents))
    facts, folded = _facts_of((table for table, _night in rows), seqs)
    nights: dict[int, NightLine] = {}
    balance: dict[str, int] = defaultdict(int)
    for table, night in rows:
        table_id, table_name = table.id, table.name
        night_id, night_name, date, currency = night.id, night.name, night.date, night.currency
        line = nights.setdefault(night_id, NightLine(night_id, night_name, date, currency))
        line.tables.append(table_name)
        table_facts_ = facts[table_id]
        roles = _add_games(history, table_facts_, name)
        _add_decisions(history, table_facts_.decisions, name, currency)
        # Every finished game he played (even at zero), and any other game with his money in
        # it (the game in progress).
        table_money = money.get(table_id, {})
        for number in sorted(set(roles) | set(table_money)):
            points, cents = table_money.get(number, (0, 0))
            if number not in roles and not points and not cents:
                continue
            balance[currency] += cents
            history.games.append(GameLine(
                night_id, night_name, date, currency, table_id, table_name, number,
                roles.get(number, ""), points, cents, balance[currency]))
            line.games += 1
            line.points += points
            line.cents += cents
    history.nights = [n for n in nights.values() if n.games or n.tables]
    history.points = sum(n.points for n in history.nights)
    for night_line in history.nights:
        history.cents[night_line.currency] = history.cents.get(night_line.currency, 0) + night_line.cents
    store_facts(folded)
    return history


def _add_games(history: PlayerHistory, facts: TableFacts, name: str) -> dict[int, str]:
    """Count the player's seats in a table's finished games; return his seat per game."""
    roles: dict[int, str] = {}
    for number, (role, result, voided) in facts.seats.get(name, {}).items():
        if voided:
            history.voided += 1
            continue
        roles[number] = role
        history.roles[role].add(result)
    return roles


def _add_decisions(history: PlayerHistory, decisions: Iterable[Decision], name: str,
                   currency: str) -> None:
    for decision in decisions:
        if decision.player != name or decision.outcome == "void":
            continue
        tally = history.decisions[decision.answer]
        tally.count += 1
        if decision.outcome == "won":
            tally.won += 1
        elif decision.outcome == "lost":
            tally.lost += 1
        elif decision.outcome == "open":
            tally.open += 1
        tally.points += decision.points
        tally.cents[currency] = tally.cents.get(currency, 0) + decision.cents
        by_role = history.decisions_as.setdefault(decision.answer, {})
        by_role[decision.role] = by_role.get(decision.role, 0) + 1


def player_names() -> list[tuple[str, int, int]]:
    """Everyone with ledger rows: (name, games with money, cents over all nights), by name."""
    per_game = (select(LedgerEntry.player.label("player"), func.sum(LedgerEntry.cents).label("cents"))
                .group_by(LedgerEntry.player, LedgerEntry.table_id, LedgerEntry.game).subquery())
    query = (select(per_game.c.player, func.count(), func.sum(per_game.c.cents))
             .group_by(per_game.c.player).order_by(per_game.c.player))
    return [(player, int(games), int(cents)) for player, games, cents in db.session.execute(query)]
