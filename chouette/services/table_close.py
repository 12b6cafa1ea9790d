"""A finished table closed by its organizer, and reopened; a member seating themselves.

Closing a table takes its night's row lock exclusively (as closing the night does), so a
command either commits before the close or sees the table closed (``tables.append_events``
reads ``closed_at`` under its shared lock). A closed table leaves the night's list of open
tables and the big screen; its log, ledger rows and records stay. It is refused while a game
is in progress (nothing is left unfinished, unlike a night's close with confirmation).

A signed-in member sits down at an open table (a join made for them, by id, under their
name: ``identity.resolve_join``, one open table at a time) and stands up when the rules let
them (the same leave rules as the organizer's: ``chouette.table.rules.on_leave``).
"""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import ChouetteTable, Member, utcnow
from chouette.services import identity
from chouette.services.base import NightClosed, ServiceError, TableClosed, writing
from chouette.services.commands import play
from chouette.services.deciders import may_run, seat_name
from chouette.services.night_rows import lock_night
from chouette.services.table_states import TablePlay, load_play
from chouette.services.tables import get_table


class NotYourTable(ServiceError):
    """Only the organizers who run the table (or an admin) close or reopen it."""


class GameUnfinished(ServiceError):
    """A game is in progress at the table: it is not closed."""


def open_tables(night_id: int) -> list[ChouetteTable]:
    """The night's tables not closed, in the order they were made."""
    query = (select(ChouetteTable).where(ChouetteTable.night_id == night_id,
                                         ChouetteTable.closed_at.is_(None))
             .order_by(ChouetteTable.id))
    return list(db.session.scalars(query))


def closed_tables(night_id: int) -> list[ChouetteTable]:
    """The night's closed tables, in the order they were made."""
    query = (select(ChouetteTable).where(ChouetteTable.night_id == night_id,
                                         ChouetteTable.closed_at.is_not(None))
             .order_by(ChouetteTable.id))
    return list(db.session.scalars(query))


def _locked(table_id: int, actor: Member) -> ChouetteTable:
    """The table, its night locked exclusively and open, ``actor`` one who runs it."""
    table = get_table(table_id)
    night = lock_night(table.night_id, exclusive=True)
    db.session.refresh(table)
    if not may_run(actor, table):
        raise NotYourTable(_("Only the organizer who runs this table, or an admin, closes or "
                             "reopens it."))
    if not night.is_open:
        raise NightClosed(_("This night is closed: its tables no longer change."))
    return table


def close_table(table_id: int, *, actor: Member) -> ChouetteTable:
    """Close a finished table. Raises NotFound, NotYourTable, NightClosed, TableClosed (already
    closed), GameUnfinished (a game in progress, with what it waits for)."""
    from chouette.services.nights import pending_words

    with writing():
        table = _locked(table_id, actor)
        if table.closed_at is not None:
            raise TableClosed(_("This table is already closed."))
        game = load_play(table.id).state.game
        if game is not None:
            raise GameUnfinished(_(
                "Game %(number)d is still in progress at this table (%(pending)s): finish it, "
                "or undo it, before closing the table.", number=game.number, pending=pending_words(game)))
        table.closed_at = utcnow()
        table.closed_by_id = actor.id
    return table


def reopen_table(table_id: int, *, actor: Member) -> ChouetteTable:
    """Reopen a closed table of an open night. Refused while one of its seated members sits
    at another open table (one open table at a time). Raises NotFound, NotYourTable,
    NightClosed, ServiceError."""
    with writing():
        table = _locked(table_id, actor)
        if table.closed_at is None:
            raise ServiceError(_("This table is open."))
        state = load_play(table.id).state
        for name, member_id in identity.seat_members(table.id).items():
            if not state.is_seated(name):
                continue
            elsewhere = identity.open_table_of(member_id, lambda t: load_play(t).state,
                                               besides=table.id)
            if elsewhere is not None:
                raise ServiceError(_(
                    "%(name)s now sits at the table %(table)s: one person plays at one open "
                    "table at a time, so this table stays closed until they leave it.",
                    name=name, table=elsewhere.name))
        table.closed_at = None
        table.closed_by_id = None
    return table


# --------------------------------------------------------------------------- self-seating


def sit_down(table_id: int, expected_seq: int, member: Member) -> TablePlay:
    """``member`` sits down at the table: a join made for them, by id, under their name.
    Raises TableError (the rules refuse: already seated...), ServiceError (seated at another
    open table), TableChanged, NightClosed, TableClosed, NotFound."""
    return play(table_id, expected_seq, {"type": "join", "player": member.name}, member)


def stand_up(table_id: int, expected_seq: int, member: Member) -> TablePlay:
    """``member`` leaves the table where they sit, when the rules let them. Raises
    ServiceError (not seated here), TableError (a live cube...), TableChanged, NightClosed,
    TableClosed, NotFound."""
    loaded = load_play(table_id)
    name = seat_name(member, table_id, loaded.state)
    if name is None or not loaded.state.is_seated(name):
        raise ServiceError(_("You are not seated at this table."))
    return play(table_id, expected_seq, {"type": "leave", "player": name}, member, loaded=loaded)
