"""Game records to download: any board game, a table's, a night's or a player's board games,
as Jellyfish ``.mat`` or GNU Backgammon SGF (``chouette.records``).

Who may download: organizers and admins every game; a member the games they played (as box,
partner or in the team), as the read rules of ``chouette.web.privacy`` let a player see their
own night. Records hold no money.

A record that cannot be made (a stored log the rules now refuse, a game the writers cannot
replay) is refused with a page that says which table and why (422), never a redirect. The
links carry no ``download`` attribute: a record is saved by its ``Content-Disposition``, and a
refusal shows as the page it is (with ``download`` the browser would save, or fail, silently).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from flask import Blueprint, abort, make_response, request
from flask_babel import gettext as _
from flask_login import current_user, login_required
from sqlalchemy import select
from werkzeug.wrappers import Response

from chouette.extensions import db
from chouette.models import ChouetteTable, TableEvent
from chouette.records import Record, RecordError, write_mat, write_sgf
from chouette.records.matches import match_record
from chouette.records.tables import table_records
from chouette.refusals import say
from chouette.services import exports
from chouette.table import GameRecord, TableError, fold
from chouette.web.auth import has_role
from chouette.web.errors import error_page
from chouette.web.nights import get_night
from chouette.web.tables import get_table

bp = Blueprint("records", __name__, url_prefix="/records")
View = TypeVar("View", bound=Callable[..., Any])

FORMATS = ("mat", "sgf")
MIMETYPES = {"mat": "text/plain", "sgf": "application/x-go-sgf", "zip": "application/zip"}


def _each_format(path: str) -> Callable[[View], View]:
    """One route and endpoint per format: ``path.mat`` is ``<view>_mat``, the view called
    with ``fmt`` (a URL variable of its own would break url_for with plain ids)."""

    def register(view: View) -> View:
        for fmt in FORMATS:
            bp.add_url_rule(f"{path}.{fmt}", endpoint=f"{view.__name__}_{fmt}",
                            view_func=_with_format(view, fmt), methods=["GET"])
        return view

    return register


class RecordRefused(Exception):
    """A record that cannot be made; the message says which table and why."""


@bp.errorhandler(RecordRefused)
def _refused(error: RecordRefused) -> Response:
    """The reason as a page of its own (422): a download link must never get a redirect."""
    return error_page(422, str(error))


def _with_format(view: Callable[..., Response], fmt: str) -> Callable[..., Response]:
    def download(**values: Any) -> Response:
        return view(fmt=fmt, **values)

    download.__doc__ = view.__doc__
    return download


def players_of(record: GameRecord) -> set[str]:
    """Everyone who played a game: the box, the box's partner and the team."""
    return {record.box, *([record.partner] if record.partner else []), *(c.member for c in record.cubes)}


def _table_records(table: ChouetteTable, member: Any, *, number: int | None = None) -> list[Record]:
    """The board games of ``table`` that ``member`` may download, as records.

    Raises:
        RecordRefused: the table's log cannot be replayed (says which table and why).
    """
    try:
        return _records_of(table, member, number)
    except TableError as error:
        raise RecordRefused(_("The game records of table “%(table)s” cannot be made: %(reason)s",
                              table=table.name, reason=say(error))) from error


def _records_of(table: ChouetteTable, member: Any, number: int | None) -> list[Record]:
    """``_table_records`` itself. Raises TableError (LogError) when the log cannot be replayed."""
    log = exports.table_export(table.id)
    state = fold(log["table"], log["events"])
    everything = has_role(member, "organizer")
    if state.settings.is_match:
        # A match downloads whole, to organizers and to its two players.
        if not (everything or member.name in state.players) or not state.games:
            return []
        record = match_record(log["table"], log["events"], date=table.night.date.isoformat(),
                              event=f"{table.night.name} {table.name}")
        return [record] if record is not None and (number is None or number <= len(state.games)) else []
    numbers = [g.number for g in state.games
               if (number is None or g.number == number)
               and (everything or member.name in players_of(g))]
    if not numbers:
        return []
    return table_records(log["table"], log["events"], games=numbers,
                         date=table.night.date.isoformat(), event=f"{table.night.name} {table.name}")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:40] or "x"


def _send(records: Sequence[Record], fmt: str, stem: str) -> Response:
    """The records as one download: SGF holds every game; .mat one pair, else a zip of them."""
    if not records:
        abort(404)
    try:
        if fmt == "sgf":
            body: str | bytes = "".join(write_sgf(r) for r in records)
            kind, name = "sgf", f"{stem}.sgf"
        elif len(records) == 1:
            body, kind, name = write_mat(records[0]), "mat", f"{stem}.mat"
        else:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                for index, record in enumerate(records, start=1):
                    inner = f"{stem}-{index:03d}-{_slug(record.left)}-v-{_slug(record.right)}.mat"
                    archive.writestr(inner, write_mat(record))
            body, kind, name = buffer.getvalue(), "zip", f"{stem}-mat.zip"
    except RecordError as error:
        raise RecordRefused(_("The game records cannot be written: %(reason)s",
                              reason=str(error))) from error
    response = make_response(body)
    response.mimetype = MIMETYPES[kind]
    if kind != "zip":
        response.content_type = f"{MIMETYPES[kind]}; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


@_each_format("/tables/<int:table_id>")
@login_required
def table(table_id: int, fmt: str) -> Response:
    """A table's board games (a member gets those they played), or one (``?game=N``): to
    organizers, and to whoever played it (else 403)."""
    found = get_table(table_id)
    if "game" not in request.args:
        return _send(_table_records(found, current_user), fmt, f"table-{found.id}-games")
    number = request.args.get("game", type=int)
    if number is None:
        abort(404)
    records = _table_records(found, current_user, number=number)
    if not records and _table_records(found, _Organizer(), number=number):
        abort(403)
    return _send(records, fmt, f"table-{found.id}-game-{number}")


@_each_format("/nights/<int:night_id>")
@login_required
def night(night_id: int, fmt: str) -> Response:
    """A night's board games, every table's (a member gets those they played)."""
    found = get_night(night_id)
    records = [r for t in found.tables for r in _table_records(t, current_user)]
    return _send(records, fmt, exports.night_filename(found, "games"))


@_each_format("/player")
@login_required
def player(fmt: str) -> Response:
    """A player's board games at every night (``?name=``): their own, or any to an organizer."""
    name = request.args.get("name", "")
    if not name:
        abort(404)
    if not has_role(current_user, "organizer") and current_user.name != name:
        abort(403)
    records = [r for t in _tables_joined_by(name) for r in _table_records(t, _Player(name))]
    return _send(records, fmt, f"player-{_slug(name)}-games")


def _tables_joined_by(name: str) -> Iterable[ChouetteTable]:
    """The tables where a join names ``name``, oldest first."""
    rows = db.session.execute(select(TableEvent.table_id, TableEvent.payload).where(TableEvent.type == "join"))
    ids = sorted({table_id for table_id, payload in rows
                  if isinstance(payload, dict) and payload.get("player") == name})
    tables = (db.session.get(ChouetteTable, i) for i in ids)
    return [t for t in tables if t is not None]


class _Player:
    """A stand-in reader who sees exactly one player's games."""

    is_authenticated = True
    role = "player"

    def __init__(self, name: str) -> None:
        self.name = name


class _Organizer:
    """A stand-in reader who sees every game (to tell 403 from 404)."""

    is_authenticated = True
    role = "organizer"
    name = ""
