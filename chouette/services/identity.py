"""One person, one member: names checked and matched, seats resolved to members by id.

- A member's name is unique by its key (``names.name_key``: NFC, spaces collapsed, case
  folded), and a name a member has had stays theirs (``MemberName``): no other member, and no
  guest, may take it later.
- A join event names the seat as the rules know it (``player``) and, for a member, carries
  their id (``member_id``); a guest has none. Joins written before ids were carried are matched
  once by the migration (``SeatMember``). ``seat_members`` reads the log (and those matches)
  into seat name -> member id: "is this my seat" is decided by id, never by name.
- Typing a member's name (any case, spacing, accents, or a name they had) at a table seats that
  member (``near_names``: a name only close to a member's is asked about by the page).
- One person sits at one open table at a time.
- A renamed member keeps their history: the labels a table's log gave them (their former names)
  are read as their current name (``relabel``), and the ledger rows and payments that are theirs
  (by id) are rewritten to it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from flask import g, has_app_context
from flask_babel import gettext as _
from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.sql.elements import ColumnElement

from chouette.controls import code_point, first_control, first_invisible, first_unfit_in_name
from chouette.extensions import db
from chouette.models import (
    ChouetteTable,
    LedgerEntry,
    Member,
    MemberName,
    Night,
    Payment,
    SeatMember,
    TableEvent,
)
from chouette.names import display_name, name_key
from chouette.services import near_names
from chouette.services.base import ServiceError

#: A member sits at tables under their name: it fits a seat (``chouette.table.state.MAX_NAME``).
MAX_MEMBER_NAME = 40


# --------------------------------------------------------------------------- names


def refuse_unfit_name(name: str, *, controls: bool = True) -> None:
    """Raise ServiceError when a typed name holds a control (unless ``controls`` is off: the
    rules refuse those) or an invisible character."""
    char = first_unfit_in_name(name) if controls else first_invisible(name)
    if char is not None:
        raise ServiceError(_("A name cannot hold an invisible or control character (%(code)s): "
                             "it would look like another name. Nothing was changed.",
                             code=code_point(char)))


def member_by_name(name: str) -> Member | None:
    """The member whose name, or one of whose former names, is ``name`` by its key."""
    owner = db.session.scalar(select(MemberName.member_id).where(MemberName.name_key == name_key(name)))
    if owner is None:  # a member whose names were never recorded (written outside the services)
        return db.session.scalar(select(Member).where(Member.name_key == name_key(name)))
    return db.session.get(Member, owner)


def check_member_name(name: str, member_id: int | None = None) -> str:
    """A member's name in its one spelling, checked: not empty, not too long, nothing
    invisible, and not the name (by key) of another member, now or before.

    Raises ServiceError naming the member who has it.
    """
    refuse_unfit_name(name)
    spelled = display_name(name)
    if not spelled or len(spelled) > MAX_MEMBER_NAME:
        raise ServiceError(_("A name is needed (at most %(count)d characters).", count=MAX_MEMBER_NAME))
    other = member_by_name(spelled)
    if other is not None and other.id != member_id:
        if other.name_key == name_key(spelled):
            raise ServiceError(_("There is already a member called %(name)s: two members cannot "
                                 "share a name (whatever the case or the spaces).", name=other.name))
        raise ServiceError(_("%(name)s was a name of the member %(other)s: it stays theirs, so the "
                             "history keeps one owner.", name=spelled, other=other.name))
    return spelled


# --------------------------------------------------------------------------- seats


def _join_rows(table_ids: Sequence[int], through: int | None = None
               ) -> list[tuple[int, int, Mapping[str, Any]]]:
    """The join events of these tables: (table id, seq, payload), in seq order (up to the
    seq ``through`` when given)."""
    query = (select(TableEvent.table_id, TableEvent.seq, TableEvent.payload)
             .where(TableEvent.table_id.in_(table_ids), TableEvent.type == "join")
             .order_by(TableEvent.table_id, TableEvent.seq))
    if through is not None:
        query = query.where(TableEvent.seq <= through)
    return [(table_id, seq, payload or {}) for table_id, seq, payload in db.session.execute(query)]


def _matched(table_ids: Sequence[int]) -> dict[tuple[int, int], int]:
    """The migration's matches of old joins: (table id, seq) -> member id."""
    query = select(SeatMember.table_id, SeatMember.seq, SeatMember.member_id).where(
        SeatMember.table_id.in_(table_ids))
    return {(table_id, seq): member_id for table_id, seq, member_id in db.session.execute(query)}


def join_member(table_id: int, seq: int, payload: Mapping[str, Any],
                matched: Mapping[tuple[int, int], int]) -> int | None:
    """The member a join seated: its ``member_id``, else the migration's match, else a guest."""
    member_id = payload.get("member_id")
    if isinstance(member_id, int) and not isinstance(member_id, bool):
        return member_id
    return matched.get((table_id, seq))


def _current_names(member_ids: Iterable[int]) -> dict[int, str]:
    ids = sorted(set(member_ids))
    if not ids:
        return {}
    return dict(db.session.execute(select(Member.id, Member.name).where(Member.id.in_(ids))).all())


def seat_members_of(table_ids: Sequence[int], through: int | None = None
                    ) -> dict[int, dict[str, int]]:
    """Per table: each seat name (as the table reads it now, renames applied) -> the member
    seated under it. A guest's seat is absent. The latest join of a name decides (up to the
    seq ``through`` when given: the seats of the log as it stood then)."""
    if not table_ids:
        return {}
    matched = _matched(table_ids)
    raw: dict[int, dict[str, int | None]] = {table_id: {} for table_id in table_ids}
    for table_id, seq, payload in _join_rows(table_ids, through):
        player = payload.get("player")
        if isinstance(player, str):
            raw[table_id][display_name(player)] = join_member(table_id, seq, payload, matched)
    names = _current_names(m for seats in raw.values() for m in seats.values() if m is not None)
    found: dict[int, dict[str, int]] = {}
    for table_id, seats in raw.items():
        found[table_id] = {names.get(member_id, label): member_id
                           for label, member_id in seats.items() if member_id is not None}
    return found


def seat_members(table_id: int) -> dict[str, int]:
    """Seat name -> member id at one table (see ``seat_members_of``); remembered for the
    request, keyed by the table's last seq and the club's renames."""
    last_seq = db.session.scalar(select(func.coalesce(func.max(TableEvent.seq), 0))
                                 .where(TableEvent.table_id == table_id)) or 0
    key = (table_id, last_seq, rename_generation())
    known: dict[tuple[int, int, int], dict[str, int]] = (
        g.setdefault("chouette_seat_members", {}) if has_app_context() else {})
    if key not in known:
        known[key] = seat_members_of([table_id])[table_id]
    return known[key]


def rename_generation_column() -> ColumnElement[int]:
    """``rename_generation`` as a column, to read it in the same query as other things."""
    names = select(func.count(MemberName.id)).scalar_subquery()
    members = select(func.count(Member.id)).scalar_subquery()
    return names - members


#: Between the names of ``active_names_column`` (no name holds a control character).
_NAMES_SEPARATOR = "\x1f"


def active_names_column(dialect: str) -> ColumnElement[str | None]:
    """The active members' names in one text (``split_names`` reads it), to read them in the
    same query as other things: PostgreSQL's ``string_agg``, SQLite's ``group_concat``
    (``dialect``: the database's, as SQLAlchemy names it)."""
    if dialect == "postgresql":
        joined = func.string_agg(Member.name, _NAMES_SEPARATOR)
    else:
        joined = func.group_concat(Member.name, _NAMES_SEPARATOR)
    return select(joined).where(Member.active.is_(True)).scalar_subquery()


def split_names(joined: str | None) -> tuple[str, ...]:
    """The names of ``active_names_column``, sorted."""
    return tuple(sorted(joined.split(_NAMES_SEPARATOR))) if joined else ()


def rename_generation() -> int:
    """How many renames the club has made (names recorded beyond one per member): folded
    states and facts cached by a process are read again when it moves."""
    return int(db.session.scalar(select(rename_generation_column())) or 0)


def relabels_of(table_ids: Sequence[int]) -> dict[int, dict[str, str]]:
    """Per table, the labels of its log to read as another name: each former name of a
    member seated there -> their current name (empty unless one of them was renamed)."""
    if not table_ids or rename_generation() == 0:
        return {table_id: {} for table_id in table_ids}
    matched = _matched(table_ids)
    members: dict[int, set[int]] = {table_id: set() for table_id in table_ids}
    for table_id, seq, payload in _join_rows(table_ids):
        member_id = join_member(table_id, seq, payload, matched)
        if member_id is not None:
            members[table_id].add(member_id)
    everyone = sorted({m for found in members.values() for m in found})
    renamed: dict[int, dict[str, str]] = {}
    if everyone:
        query = (select(MemberName.member_id, MemberName.name, Member.name)
                 .join(Member, Member.id == MemberName.member_id)
                 .where(MemberName.member_id.in_(everyone), MemberName.name != Member.name))
        for member_id, old, new in db.session.execute(query):
            renamed.setdefault(member_id, {})[old] = new
    return {table_id: {old: new for m in sorted(found) for old, new in renamed.get(m, {}).items()}
            for table_id, found in members.items()}


def relabel_log(events: Iterable[Mapping[str, Any]], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """A log with a renamed member's old labels read as their current name."""
    if not names:
        return [dict(e) for e in events]
    return [relabel(e, names) for e in events]


#: The fields of the log's events that name players (docs/log-format.md); "box" and
#: "team" are words of the table, never a player's name.
NAME_FIELDS = ("player", "by", "cube", "extra", "from", "to")
NAME_LISTS = ("players", "cubes")


def relabel(event: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """``event`` with the player names in ``names`` replaced (a renamed member's old labels).

    >>> relabel({"type": "double", "by": "Bob", "cubes": ["Bob", "Cy"]}, {"Bob": "Rob"})
    {'type': 'double', 'by': 'Rob', 'cubes': ['Rob', 'Cy']}
    """
    if not names:
        return dict(event)
    out = dict(event)
    for field in NAME_FIELDS:
        value = out.get(field)
        if isinstance(value, str) and value in names:
            out[field] = names[value]
    for field in NAME_LISTS:
        value = out.get(field)
        if isinstance(value, list):
            out[field] = [names.get(v, v) if isinstance(v, str) else v for v in value]
    rolls = out.get("rolls")
    if isinstance(rolls, dict):
        out["rolls"] = {names.get(k, k) if isinstance(k, str) else k: v for k, v in rolls.items()}
    return out


# --------------------------------------------------------------------------- one open table


#: A table's state by its id (``table_states.load_play(...).state``): passed in by the callers,
#: which sit above this module (the commands fold tables; identity only reads who sits where).
StateOf = Callable[[int], Any]


def open_table_of(member_id: int, state_of: StateOf, *, besides: int | None = None
                  ) -> ChouetteTable | None:
    """An open table of an open night (other than ``besides``) where ``member_id`` sits now."""
    query = (select(ChouetteTable.id).join(Night, Night.id == ChouetteTable.night_id)
             .where(Night.closed_at.is_(None), ChouetteTable.closed_at.is_(None))
             .order_by(ChouetteTable.id))
    table_ids = [table_id for table_id in db.session.scalars(query) if table_id != besides]
    seats = seat_members_of(table_ids)
    for table_id in table_ids:
        name = next((n for n, owner in seats[table_id].items() if owner == member_id), None)
        if name is not None and state_of(table_id).is_seated(name):
            return db.session.get(ChouetteTable, table_id)
    return None


def _lock_member_seat(member_id: int) -> None:
    """Serialise the joins of one member until the transaction ends, so two tables cannot
    both seat them at once: PostgreSQL, a transaction-level advisory lock on their id (the
    second join waits, then sees the first); SQLite's writers are serialised already."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    digest = hashlib.sha256(f"chouette-seat\0{member_id}".encode()).digest()
    db.session.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                       {"key": int.from_bytes(digest[:8], "big", signed=True)})


def resolve_join(table: ChouetteTable | None, event: Mapping[str, Any], state_of: StateOf
                 ) -> dict[str, Any]:
    """A join as it is written: a typed name that is a member's (by key, but for its accents,
    or a name they had) seats that member, under their name and with their id; any other name
    is a guest's, checked for invisible characters. An id sent with the event is never trusted.
    ``table``: the table they join (None: one not written yet).

    Raises ServiceError: an unfit name, a name two members share but for its accents, or the
    member already sits at another open table.
    """
    out = {k: v for k, v in event.items() if k != "member_id"}
    player = out.get("player")
    if not isinstance(player, str):
        return out  # the rules refuse it, saying why
    refuse_unfit_name(player, controls=False)  # a control character: the rules say so
    if first_control(player, lines_ok=True) is not None:
        return out  # ... and no query may carry it (PostgreSQL refuses a NUL in text)
    member = (member_by_name(player) or near_names.member_by_loose_name(player)
              if display_name(player) else None)
    if member is None:
        return out
    _lock_member_seat(member.id)
    elsewhere = open_table_of(member.id, state_of, besides=table.id if table is not None else None)
    if elsewhere is not None:
        raise ServiceError(_("%(name)s already sits at the table %(table)s of %(night)s: one "
                             "person plays at one open table at a time (they leave it first).",
                             name=member.name, table=elsewhere.name, night=elsewhere.night.name))
    out["player"] = member.name
    out["member_id"] = member.id
    return out


# --------------------------------------------------------------------------- a rename


def rewrite_history(member: Member, old_name: str) -> list[int]:
    """After ``member`` was renamed from ``old_name``: their ledger rows and payments (by id)
    take the new name, and the tables they sat at forget the facts folded under the old one.
    Returns those tables' ids (inside the caller's transaction)."""
    from chouette.models import TableFactsRow, TableSnapshot

    db.session.execute(update(LedgerEntry).where(LedgerEntry.member_id == member.id)
                       .values(player=member.name))
    db.session.execute(update(Payment).where(Payment.payer_id == member.id).values(payer=member.name))
    db.session.execute(update(Payment).where(Payment.payee_id == member.id).values(payee=member.name))
    from chouette.services import analysis

    analysis.reattribute(member.id, member.name)  # GNU Backgammon's figures of their games
    tables = tables_of(member.id)
    if tables:
        # Caches of the logs folded under the old labels: dropping them changes no answer.
        db.session.execute(delete(TableFactsRow).where(TableFactsRow.table_id.in_(tables)))
        db.session.execute(delete(TableSnapshot).where(TableSnapshot.table_id.in_(tables)))
    return tables


def tables_of(member_id: int) -> list[int]:
    """Every table where ``member_id`` ever joined."""
    joined = {table_id for table_id, seq, payload in _join_rows_all()
              if payload.get("member_id") == member_id}
    joined |= set(db.session.scalars(select(SeatMember.table_id).where(SeatMember.member_id == member_id)))
    return sorted(joined)


def _join_rows_all() -> list[tuple[int, int, Mapping[str, Any]]]:
    # Through the table: an import's staged events have none yet (``import_staged.write_staged``).
    query = (select(TableEvent.table_id, TableEvent.seq, TableEvent.payload)
             .join(ChouetteTable, ChouetteTable.id == TableEvent.table_id).where(TableEvent.type == "join"))
    return [(table_id, seq, payload or {}) for table_id, seq, payload in db.session.execute(query)]


def refuse_rename_clash(member: Member, new_name: str, state_of: StateOf) -> None:
    """Raise ServiceError when ``new_name`` is already another player's seat at a table where
    ``member`` sits (a guest of that name): the two would become one at that table."""
    key = name_key(new_name)
    for table_id in tables_of(member.id):
        seats = seat_members(table_id)
        for name in state_of(table_id).players:
            if name_key(name) == key and seats.get(name) != member.id:
                table = db.session.get(ChouetteTable, table_id)
                raise ServiceError(_("%(name)s is already a player at the table %(table)s where "
                                     "%(member)s plays: choose another name.",
                                     name=name, table=table.name if table else table_id,
                                     member=member.name))


# --------------------------------------------------------------------------- ids kept beside names


def member_ids(names: Iterable[str]) -> dict[str, int]:
    """The ids of the members named (exactly so) among ``names``: what a new ledger row or
    payment carries beside the name (a table seats a member under their current name)."""
    wanted = sorted(set(names))
    if not wanted:
        return {}
    return dict(db.session.execute(select(Member.name, Member.id).where(Member.name.in_(wanted))).all())


def record_name(member: Member) -> None:
    """Add ``member``'s current name to their names (``MemberName``), unless it is there
    already (a change of case is a new spelling: the logs may hold the old one). Called by
    the services that create or rename a member, in their ``writing()``."""
    if not member.name:
        return
    staged = any(isinstance(obj, MemberName) and obj.name == member.name and obj.member is member
                 for obj in db.session.new)
    if staged or (member.id is not None and db.session.scalar(select(MemberName.id).where(
            MemberName.member_id == member.id, MemberName.name == member.name)) is not None):
        return
    db.session.add(MemberName(member=member, name=member.name, name_key=name_key(member.name)))


def claim_guest_history(member: Member) -> None:
    """A new member whose name a guest played under (spelled exactly so) is that guest: the
    club made a regular guest a member. Their seats, ledger rows and payments become theirs by
    id, matched once, here, as the migration matched the members it found. Called by the
    service that creates the member, in its ``writing()``, once the member has an id."""
    if member.id is None:
        db.session.flush()
    name, member_id = member.name, member.id
    db.session.execute(update(LedgerEntry).where(LedgerEntry.player == name, LedgerEntry.member_id.is_(None))
                       .values(member_id=member_id))
    db.session.execute(update(Payment).where(Payment.payer == name, Payment.payer_id.is_(None))
                       .values(payer_id=member_id))
    db.session.execute(update(Payment).where(Payment.payee == name, Payment.payee_id.is_(None))
                       .values(payee_id=member_id))
    joins = db.session.execute(select(TableEvent.table_id, TableEvent.seq, TableEvent.payload)
                               .join(ChouetteTable, ChouetteTable.id == TableEvent.table_id)
                               .where(TableEvent.type == "join")).all()
    claimed = [(table_id, seq) for table_id, seq, payload in joins
               if isinstance(payload, dict) and "member_id" not in payload
               and display_name(str(payload.get("player", ""))) == name]
    if not claimed:
        return
    known = set(db.session.execute(select(SeatMember.table_id, SeatMember.seq)).all())
    rows = [{"table_id": t, "seq": s, "member_id": member_id} for t, s in claimed if (t, s) not in known]
    if rows:
        db.session.execute(insert(SeatMember), rows)


def with_member_ids(payment: Payment) -> Payment:
    """``payment`` carrying the ids of the members it names (a guest has none): called by
    each service that records a payment, before it adds it."""
    ids = member_ids((payment.payer, payment.payee))
    payment.payer_id, payment.payee_id = ids.get(payment.payer), ids.get(payment.payee)
    return payment
