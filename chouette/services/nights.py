"""Club nights: open, list, close (asking first when a game is in progress), reopen.

A night's row lock orders its end against its tables' commands, on every database and
across nodes: closing (and reopening) takes it exclusively, every command and every new
table takes it shared (``lock_night``), so no command lands after the close.
"""


from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import delete, select

from chouette.extensions import db
from chouette.models import (
    ChouetteTable,
    Member,
    Night,
    NightReopening,
    TableFactsRow,
    utcnow,
)
from chouette.services.base import NightClosed, ServiceError, writing
from chouette.services.night_rows import CURRENCY_RE, get_night, lock_night, new_id
from chouette.services.season_checks import locked_season, refuse_night_in_closed_season, season_of
from chouette.services.stored_facts import store_night_facts
from chouette.services.table_states import load_play

#: The longest reason for reopening a night.
MAX_REOPEN_REASON = 200


class NotYourNight(ServiceError):
    """Only the organizer who opened the night, or an admin, closes it; only an admin reopens."""


@dataclass(frozen=True)
class GameInProgress:
    """A game a close would leave unfinished: its table, its number and what is pending."""

    table_id: int
    table: str
    game: int
    pending: str

    def __str__(self) -> str:
        return _("%(table)s, game %(number)d: %(pending)s", table=self.table, number=self.game,
                 pending=self.pending)


class GamesInProgress(ServiceError):
    """Closing would leave games unfinished: the organizer must confirm first."""

    def __init__(self, games: list[GameInProgress]) -> None:
        super().__init__(_(
            "A game is still in progress: %(games)s. Closing the night now leaves it unfinished "
            "for good (nothing still pending is booked). Confirm to close all the same.",
            games="; ".join(str(game) for game in games)))
        self.games = games

# --------------------------------------------------------------------------- nights

def list_nights() -> list[Night]:
    """Every night, the most recent first."""
    return list(db.session.scalars(select(Night).order_by(Night.date.desc(), Night.id.desc())))


def open_nights() -> list[Night]:
    """The nights not closed yet, the most recent first."""
    query = select(Night).where(Night.closed_at.is_(None)).order_by(Night.date.desc(), Night.id.desc())
    return list(db.session.scalars(query))


def may_close_night(member: Any, night: Night) -> bool:
    """Whether ``member`` may close ``night``: an admin, or the organizer who opened it (a night
    with no opener recorded, made outside the app's pages, by any organizer), as
    ``deciders.may_run`` for its tables."""
    role = getattr(member, "role", None)
    if role == "admin":
        return True
    if role != "organizer":
        return False
    return night.opened_by_id is None or night.opened_by_id == getattr(member, "id", None)


def may_reopen_night(member: Any) -> bool:
    """Whether ``member`` may reopen a closed night: an admin only."""
    return getattr(member, "role", None) == "admin"


def pending_words(game: Any) -> str:
    """What a game in progress waits for, in words."""
    parts = []
    if game.box_double is not None and game.box_double.waiting:
        parts.append(_("the box's double waits for %(names)s", names=", ".join(game.box_double.waiting)))
    waiting = set(game.box_double.waiting) if game.box_double is not None else set()
    box_answers = [m for m in game.pending if m not in waiting and game.cubes[m].to_answer == "box"]
    member_answers = [m for m in game.pending if m not in waiting and game.cubes[m].to_answer != "box"]
    if box_answers:
        parts.append(_("the box has to answer the double of %(names)s", names=", ".join(box_answers)))
    if member_answers:
        parts.append(_("%(names)s to answer a double", names=", ".join(member_answers)))
    if game.pending_extras:
        parts.append(_("an extra cube's redouble waits for an answer"))
    return "; ".join(parts) or _("in play, no cube answer pending")


def rules_in_force(night: Night) -> dict[int, dict[str, Any]]:
    """Each table's house rules in force now (a change between games included), by table id:
    the night page shows its stake and cube, not those the table was created with."""
    return {table.id: load_play(table.id).state.settings.to_dict() for table in night.tables}


def games_in_progress(night_id: int) -> list[GameInProgress]:
    """The games started and not finished at the night's tables, with what each waits for."""

    found = []
    tables = db.session.scalars(select(ChouetteTable).where(ChouetteTable.night_id == night_id)
                                .order_by(ChouetteTable.id))
    for table in tables:
        game = load_play(table.id).state.game
        if game is not None:
            found.append(GameInProgress(table.id, table.name, game.number, pending_words(game)))
    return found


def open_night(*, name: str, on: dt.date, currency: str = "EUR", actor: Member) -> Night:
    """Open a club night. Raises ServiceError on an empty name, a malformed currency code, or a
    date inside a closed season of that currency."""
    from chouette.services.identity import refuse_unfit_name

    refuse_unfit_name(name)
    name = name.strip()
    currency = currency.strip().upper()
    if not name or len(name) > 80:
        raise ServiceError(_("A night needs a name (at most 80 characters)."))
    if not CURRENCY_RE.match(currency):
        raise ServiceError(_("A currency is a three-letter code such as EUR."))

    refuse_night_in_closed_season(on, currency)
    with writing():
        night = Night(id=new_id(Night), name=name, date=on, currency=currency, opened_by_id=actor.id)
        db.session.add(night)
    return night


def close_night(night_id: int, *, actor: Member, confirm_games: bool = False) -> Night:
    """Close a night: its tables stop changing.

    The night's row is locked first, so every command either commits before the close or is
    refused after it. With a game in progress the close is refused unless ``confirm_games``
    (the organizer saw the games it leaves unfinished). Then its tables' facts for the player
    pages are folded and stored (a cache: its failure is only logged), so no player page
    ever folds this night's logs.
    Raises NotFound, NotYourNight, NightClosed, GamesInProgress.
    """

    with writing():
        night = lock_night(night_id, exclusive=True)
        if not may_close_night(actor, night):
            raise NotYourNight(_("This night is closed by the organizer who opened it, or by an admin."))
        if not night.is_open:
            raise NightClosed(_("This night is already closed."))
        games = games_in_progress(night.id)
        if games and not confirm_games:
            raise GamesInProgress(games)
        night.closed_at = utcnow()
        night.closed_by_id = actor.id
    store_night_facts(night.id)
    return night


def reopen_night(night_id: int, *, actor: Member, reason: str) -> NightReopening:
    """Reopen a closed night (an admin's use-case): its tables take commands again. Logged
    with who, when, why and the close it undoes; the facts stored at closing are dropped (a
    cache: they are folded again as the tables move, and stored at the next close).

    Raises NotFound, NotYourNight, ServiceError (no reason, the night open, its season closed).
    """

    if not may_reopen_night(actor):
        raise NotYourNight(_("Only an admin reopens a night."))
    reason = " ".join(reason.split())
    if not reason or len(reason) > MAX_REOPEN_REASON:
        raise ServiceError(_("Say why the night is reopened (at most %(count)d characters).",
                             count=MAX_REOPEN_REASON))
    with writing():
        season = season_of(get_night(night_id))
        if season is not None:
            # Locked before the night, as closing the season does: it waits, then sees the
            # night open (and refuses to close).

            season = locked_season(season.id)
            if not season.is_open:
                raise ServiceError(_("The season %(season)s is closed: its nights stay closed.",
                                     season=season.name))
        night = lock_night(night_id, exclusive=True)
        if night.is_open:
            raise ServiceError(_("This night is open."))
        entry = NightReopening(night_id=night.id, reopened_by_id=actor.id, reason=reason,
                               at=utcnow(), closed_at=night.closed_at, closed_by_id=night.closed_by_id)
        db.session.add(entry)
        tables = select(ChouetteTable.id).where(ChouetteTable.night_id == night.id)
        db.session.execute(delete(TableFactsRow).where(TableFactsRow.table_id.in_(tables)))
        night.closed_at = None
        night.closed_by_id = None
    return entry


def night_reopenings(night_id: int) -> list[NightReopening]:
    """The night's reopenings, the earliest first."""
    query = (select(NightReopening).where(NightReopening.night_id == night_id)
             .order_by(NightReopening.at, NightReopening.id))
    return list(db.session.scalars(query))
