"""A table's talk: the consulting channels of an online table, and who is connected.

**Consulting** (docs/rules.md 2.8, 2.9; issue 26, item 4). At a table played online the team
has a channel of short messages, read and written by the captain and the members who may
advise the captain now (``table.actions.may_consult``: ``free``, every member still in the
game; ``after_cube``, once a cube has turned; ``forbidden``, nobody), and the box has one with
the partner (who "may consult with the box at any time", 2.8), when there is one. A channel
belongs to one game of the table. At a club table the players talk across the board, where
the other side hears them: no written channel there (a private one would be another game).
Messages are kept with the night (``TableMessage``), never in the rules' log, never on the big
screen, and the push carries only that the channel moved (``social_versions``), never a text.

**Presence** (item 5). A device that holds the table page open holds its social push stream
(``web.social``); the stream writes when it was last seen (``touch``), at most every
``PRESENCE_WRITE_SECONDS``, in the database, so every worker and app node reads the same.
A seat whose member was seen within ``away_seconds()`` is connected; else away.

Whether a table plays online is its current house rules' ``play`` (``Settings.online``):
changed between games by a settings event, so read from the folded table, not the table row.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app, has_app_context
from flask_babel import gettext as _
from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from chouette import caches
from chouette.controls import first_control
from chouette.extensions import db, read_only
from chouette.models import (
    ChouetteTable,
    Member,
    SeatRequest,
    TableAdmission,
    TableEvent,
    TableMessage,
    TablePresence,
    utcnow,
)
from chouette.services import table_states
from chouette.services.base import NotFound, ServiceError, writing
from chouette.table import TableState
from chouette.table.actions import may_consult

#: The longest message, in characters (a line on a phone, as a chat's short messages are).
MAX_MESSAGE = 280
#: The messages a channel shows: the latest of its game.
SHOWN = 40
#: A device's last-seen time is written at most this often (the stream's keep-alives).
PRESENCE_WRITE_SECONDS = 10.0
#: A member whose device was not seen for this long is away (three keep-alives missed).
AWAY_SECONDS = 45.0

TEAM, BOX = "team", "box"
PANEL_MARKS = caches.declare(
    "social_panel_marks", 512,
    "what a table's social panels show of its state (``panel_mark``), by (table id, seq)")


def write_seconds() -> float:
    """How often a device's last-seen time is written: a third of ``away_seconds`` at most."""
    return min(PRESENCE_WRITE_SECONDS, away_seconds() / 3)


def away_seconds() -> float:
    """How long a silent device counts as connected (``PRESENCE_AWAY_SECONDS`` in the config)."""
    if has_app_context():
        return float(current_app.config.get("PRESENCE_AWAY_SECONDS", AWAY_SECONDS))
    return AWAY_SECONDS


# --------------------------------------------------------------------------- channels


@dataclass(frozen=True)
class Channel:
    """The channel a seat reads now: its name, game, who reads it, and why it is closed."""

    name: str
    game: int
    readers: tuple[str, ...]
    closed: str | None = None  # the reason it is closed now, said to the reader

    @property
    def open(self) -> bool:
        return self.closed is None


def game_number(state: TableState) -> int:
    """The game a channel belongs to: the one on the board, else the next one."""
    return state.game.number if state.game is not None else len(state.games) + 1


def channel_of(table: ChouetteTable, state: TableState, seat: str | None) -> Channel | None:
    """The channel ``seat`` belongs to at this table now, or None: not an online table, not
    seated, or the box without a partner (no one to consult)."""
    if seat is None or not state.settings.online or not state.is_seated(seat):
        return None
    number = game_number(state)
    if seat in (state.box, state.partner):
        if state.partner is None:
            return None
        return Channel(BOX, number, (state.box or "", state.partner))
    game = state.game
    captain = game.acting_captain if game is not None else state.captain
    advisers = may_consult(state)
    readers = tuple([captain] if captain else []) + tuple(advisers)
    consulting = state.settings.consulting
    if consulting == "forbidden":
        return Channel(TEAM, number, (), _("Consulting is forbidden at this table."))
    if not advisers:
        if consulting == "after_cube":
            why = _("No cube has turned in this game yet: nobody consults before (the table's rule).")
        else:
            why = _("Nobody is left to advise the captain in this game.")
        return Channel(TEAM, number, (), why)
    if game is not None and seat not in game.cubes:
        return Channel(TEAM, number, (), _("You joined during this game: you consult from "
                                           "the next one."))
    if seat not in readers:
        return Channel(TEAM, number, (), _("Your cube is out of play: you no longer consult "
                                           "in this game."))
    return Channel(TEAM, number, readers)


def check_text(text: object) -> str:
    """The message as it is kept, or ServiceError saying what is wrong with it."""
    if not isinstance(text, str) or not text.strip():
        raise ServiceError(_("Write a message first."))
    if first_control(text) is not None:
        raise ServiceError(_("A message is one line of text: no control characters "
                             "(such as tabs or line breaks)."))
    text = text.strip()
    if len(text) > MAX_MESSAGE:
        raise ServiceError(_("A message is at most %(count)d characters.", count=MAX_MESSAGE))
    return text


def post_message(table: ChouetteTable, state: TableState, seat: str | None, member: Member,
                 text: object) -> TableMessage:
    """``member`` (seated as ``seat``) writes ``text`` to their channel. Raises ServiceError
    (not an online table, no channel, closed, a bad text); nothing is written then."""
    if not state.settings.online:
        raise ServiceError(_("Written messages are for tables played online."))
    if not table.is_open:
        raise ServiceError(_("This table is closed: it no longer changes. Its organizer "
                             "can reopen it."))
    channel = channel_of(table, state, seat)
    if channel is None or seat is None:
        raise ServiceError(_("You have no consulting channel at this table."))
    if channel.closed:
        raise ServiceError(channel.closed)
    kept = check_text(text)
    with writing():
        message = TableMessage(table_id=table.id, game=channel.game, channel=channel.name,
                               member_id=member.id, author=seat, text=kept, at=utcnow())
        db.session.add(message)
    return message


def messages(table_id: int, channel: Channel) -> list[TableMessage]:
    """The channel's latest messages of its game, oldest first (none while it is closed)."""
    if not channel.open:
        return []
    query = (select(TableMessage)
             .where(TableMessage.table_id == table_id, TableMessage.game == channel.game,
                    TableMessage.channel == channel.name)
             .order_by(TableMessage.id.desc()).limit(SHOWN))
    return list(reversed(list(db.session.scalars(query))))


# --------------------------------------------------------------------------- presence


def touch(table_id: int, member_id: int, now: datetime | None = None) -> bool:
    """Note that ``member_id``'s device holds the table open now; written only when the last
    note is ``write_seconds()`` old. True when it wrote."""
    now = now or utcnow()
    row = db.session.get(TablePresence, (table_id, member_id))
    if row is not None and (now - row.seen_at).total_seconds() < write_seconds():
        return False
    # A device seen again while its member counts as connected moves no panel: the pages are
    # told only of a member who arrives (or comes back from away). Every phone of a night
    # writes every few seconds: on PostgreSQL each announcement wakes every node's hub.
    arrives = row is None or (now - row.seen_at).total_seconds() >= away_seconds()
    try:
        with writing(quiet=not arrives):
            row = db.session.get(TablePresence, (table_id, member_id))
            if row is None:
                db.session.add(TablePresence(table_id=table_id, member_id=member_id, seen_at=now))
            else:
                row.seen_at = now
    except IntegrityError:  # the same member's other device wrote first: as good
        return False
    return True


def present_of(connection: Connection, table_ids: Iterable[int],
               now: datetime | None = None) -> dict[int, frozenset[int]]:
    """Per table: the members whose device was seen within ``away_seconds()``."""
    ids = sorted(set(table_ids))
    found: dict[int, set[int]] = {table_id: set() for table_id in ids}
    if not ids:
        return {}
    since = (now or utcnow()) - timedelta(seconds=away_seconds())
    rows = connection.execute(select(TablePresence.table_id, TablePresence.member_id)
                              .where(TablePresence.table_id.in_(ids),
                                     TablePresence.seen_at >= since))
    for table_id, member_id in rows:
        found[table_id].add(member_id)
    return {table_id: frozenset(members) for table_id, members in found.items()}


def present(table_id: int, now: datetime | None = None) -> frozenset[int]:
    """The members connected to this table now (``present_of``)."""
    return present_of(db.session.connection(), [table_id], now)[table_id]


# --------------------------------------------------------------------------- push


def panel_mark(state: TableState) -> str:
    """A checksum of what the social panels show of the table's state: who sits in which role,
    the game on the board, its cubes' statuses and proxies (who may hand their cube to whom),
    who may consult, and the house rules that say so. A roll or a move changes none of it, so
    the panels are not fetched again for every one (an online game makes some hundred)."""
    game = state.game
    shown = (state.seated, state.box, state.partner, state.captain, game_number(state),
             None if game is None else (game.acting_captain,
                                        sorted((name, cube.status) for name, cube in game.cubes.items()),
                                        sorted(game.proxies.items())),
             tuple(may_consult(state)) if state.ordered else (),
             state.settings.online, state.settings.consulting, state.settings.match_length)
    return f"{zlib.crc32(repr(shown).encode()):08x}"


def _marks(seqs: dict[int, int]) -> dict[int, str]:
    """Each table's ``panel_mark`` at its seq: kept per (table, seq), else from its state (the
    state of a table that just moved is in the process's cache, ``table_states``)."""
    kept = caches.cache(PANEL_MARKS)
    marks = {}
    for table_id, seq in seqs.items():
        mark = kept.get((table_id, seq))
        if mark is None:
            read_only(alone=True)  # the push watcher's session too: a reader, never a writer
            try:
                played = table_states.load_play(table_id)
            except NotFound:
                marks[table_id] = "-"
                continue
            mark = panel_mark(played.state)
            if played.seq == seq:  # read later than ``seq``: the next read keeps it under its own
                kept.put((table_id, seq), mark)
        marks[table_id] = mark
    return marks


def _parts_query() -> Select[Any]:
    """Per table: its last seq, latest message and seat request, how many requests wait, its
    admission; one query (each part read from the end of its table's index), where the push
    watcher reads it after every command."""
    table = ChouetteTable.__table__
    events, messages, requests = TableEvent.__table__, TableMessage.__table__, SeatRequest.__table__
    admission = TableAdmission.__table__

    def of(column: Any, *where: Any) -> Any:
        return select(column).where(*where).correlate(table).scalar_subquery()

    return select(
        table.c.id,
        of(func.max(events.c.seq), events.c.table_id == table.c.id),
        of(func.max(messages.c.id), messages.c.table_id == table.c.id),
        of(func.max(requests.c.id), requests.c.table_id == table.c.id),
        of(func.count(requests.c.id), requests.c.table_id == table.c.id, requests.c.status == "waiting"),
        of(admission.c.auto, admission.c.table_id == table.c.id),
    ).where(table.c.id.in_(bindparam("ids", expanding=True)))


_PARTS = _parts_query()


def social_versions(connection: Connection, table_ids: Iterable[int],
                    now: datetime | None = None,
                    here: Mapping[int, frozenset[int]] | None = None) -> dict[int, str]:
    """Per table, what its social panels show moved when this moved: what they show of the
    table's state (``panel_mark``: who sits, who may consult...), its latest message and seat
    request, the waiting requests, its admission, and who is connected (``here``: as the
    caller read it with ``present_of``, else read here). Carries no text."""
    ids = sorted(set(table_ids))
    if not ids:
        return {}
    parts: dict[int, list[Any]] = {table_id: [0, 0, 0, 0, "-"] for table_id in ids}
    for table_id, *values in connection.execute(_PARTS, {"ids": ids}):
        parts[table_id] = [int(value or 0) for value in values[:4]] + [
            "-" if values[4] is None else "a" if values[4] else "r"]
    marks = _marks({table_id: parts[table_id][0] for table_id in ids})
    for table_id in ids:
        parts[table_id][0] = marks[table_id]
    if here is None:
        here = present_of(connection, ids, now)
    return {table_id: ".".join(str(part) for part in parts[table_id])
            + "." + "-".join(str(member) for member in sorted(here[table_id]))
            for table_id in ids}


def social_version(table_id: int, here: frozenset[int] | None = None) -> str:
    """A table's social version, read in the current session (a stream's first message; a
    panel, with who is connected as it read it: ``present``)."""
    return social_versions(db.session.connection(), [table_id],
                           here=None if here is None else {table_id: here})[table_id]
