"""Asking for a seat: a member asks to sit down from their device, the table's runner admits
or refuses them, or the table admits members by itself (issue 26, item 5).

The self-seating of ``table_close.sit_down`` stays what seats a member: an admission is that
join, made by the runner for the member (by id: ``identity.resolve_join``). A table admits by
itself when its runner says so (``TableAdmission``); with no word from the runner, a club table
does (the member stands at the table, in sight of its organizer, as before) and an online
table does not (anyone anywhere could take a seat).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import ChouetteTable, Member, SeatRequest, TableAdmission, utcnow
from chouette.services import commands, deciders, table_close, table_states
from chouette.services.base import NotFound, ServiceError, TableChanged, TableClosed, writing
from chouette.table import TableState

#: How often an admission's join is tried again when the table moved meanwhile.
ATTEMPTS = 4


def admits_by_itself(table: ChouetteTable, state: TableState | None = None) -> bool:
    """Whether a member who asks sits down at once (the runner's word, else the default of
    the table's kind: a club table yes, an online table no); ``state``: the table's, when the
    caller holds it already."""
    row = db.session.get(TableAdmission, table.id)
    if row is not None:
        return row.auto
    return not (state or table_states.load_play(table.id).state).settings.online


def set_admission(table: ChouetteTable, auto: bool, actor: Member) -> None:
    """The runner says whether the table admits members by itself. Raises NotAllowed."""
    if not commands.may_run(actor, table):
        raise deciders.NotAllowed(_("Only the table's organizer decides who sits down."))
    with writing():
        row = db.session.get(TableAdmission, table.id)
        if row is None:
            row = TableAdmission(table_id=table.id, auto=auto)
            db.session.add(row)
        row.auto, row.changed_by_id, row.changed_at = auto, actor.id, utcnow()


def waiting(table_id: int) -> list[tuple[SeatRequest, Member]]:
    """The table's waiting requests, first asked first."""
    query = (select(SeatRequest, Member).join(Member, Member.id == SeatRequest.member_id)
             .where(SeatRequest.table_id == table_id, SeatRequest.status == "waiting")
             .order_by(SeatRequest.id))
    return [(request, member) for request, member in db.session.execute(query)]


def latest_of(table_id: int, member_id: int) -> SeatRequest | None:
    """The member's latest request at this table, if any."""
    return db.session.scalars(select(SeatRequest)
                              .where(SeatRequest.table_id == table_id,
                                     SeatRequest.member_id == member_id)
                              .order_by(SeatRequest.id.desc()).limit(1)).first()


@dataclass(frozen=True)
class Asked:
    """What asking did: ``seated`` at once, or a request now ``waiting``."""

    seated: bool


def ask(table: ChouetteTable, expected_seq: int, member: Member) -> Asked:
    """``member`` asks to sit down: seated at once where the table admits by itself, else a
    request waits for the runner. Raises ServiceError (seated already, a request already
    waiting, the table closed), and what ``sit_down`` raises."""
    if not table.is_open:
        raise TableClosed(_("This table is closed: it no longer changes. Its organizer "
                            "can reopen it."))
    state = table_states.load_play(table.id).state
    name = deciders.seat_name(member, table.id, state)
    if name is not None and state.is_seated(name):
        raise ServiceError(_("You already sit at this table."))
    if admits_by_itself(table):
        table_close.sit_down(table.id, expected_seq, member)
        return Asked(seated=True)
    found = latest_of(table.id, member.id)
    if found is not None and found.status == "waiting":
        raise ServiceError(_("Your request to sit down is already waiting for the table's "
                             "organizer."))
    with writing():
        db.session.add(SeatRequest(table_id=table.id, member_id=member.id, status="waiting",
                                   asked_at=utcnow()))
    return Asked(seated=False)


def _request(table: ChouetteTable, request_id: int, actor: Member) -> SeatRequest:
    if not deciders.may_run(actor, table):
        raise deciders.NotAllowed(_("Only the table's organizer decides who sits down."))
    request = db.session.get(SeatRequest, request_id)
    if request is None or request.table_id != table.id:
        raise NotFound(_("No such request."))
    if request.status != "waiting":
        raise ServiceError(_("This request has already been answered."))
    return request


def admit(table: ChouetteTable, request_id: int, actor: Member) -> SeatRequest:
    """The runner admits a waiting request: the member is seated (a join for them, made by
    the runner), then the request is marked admitted. Raises NotAllowed, NotFound,
    ServiceError (answered already), TableError or ServiceError when the join is refused
    (seated at another table...): the request then still waits."""
    request = _request(table, request_id, actor)
    member = db.session.get(Member, request.member_id)
    assert member is not None  # a foreign key
    for attempt in range(1, ATTEMPTS + 1):
        loaded = table_states.load_play(table.id)
        name = deciders.seat_name(member, table.id, loaded.state)
        if name is not None and loaded.state.is_seated(name):
            break  # seated meanwhile (by the runner's Join card, or an earlier admission)
        try:
            commands.play(table.id, loaded.seq, {"type": "join", "player": member.name}, actor,
                          loaded=loaded)
            break
        except TableChanged:
            db.session.rollback()
            if attempt == ATTEMPTS:
                raise
    return _decide(request.id, "admitted", actor)


def refuse(table: ChouetteTable, request_id: int, actor: Member) -> SeatRequest:
    """The runner refuses a waiting request. Raises NotAllowed, NotFound, ServiceError."""
    request = _request(table, request_id, actor)
    return _decide(request.id, "refused", actor)


def _decide(request_id: int, status: str, actor: Member) -> SeatRequest:
    with writing():
        request = db.session.get(SeatRequest, request_id)
        assert request is not None
        if request.status != "waiting":
            raise ServiceError(_("This request has already been answered."))
        request.status, request.decided_at, request.decided_by_id = status, utcnow(), actor.id
    return request
