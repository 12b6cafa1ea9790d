"""Use-cases: each loads what it needs, checks, writes, and commits once (or changes nothing).

Views call exactly one of these. Refusals are ``ServiceError`` (a ``ValueError``) whose message
a player can read; the app factory turns them into a flash message (or a 422 fragment for htmx).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from chouette.extensions import db
from chouette.models import (
    ROLES,
    ChouetteTable,
    LedgerEntry,
    LoginFailure,
    Member,
    Night,
    TableEvent,
    utcnow,
)
from chouette.table import Settings, TableError

# --------------------------------------------------------------------------- errors


class ServiceError(ValueError):
    """A refused use-case; the message says why, in words a player understands."""


class NotFound(ServiceError):
    """The thing asked for does not exist."""


class AlreadySetUp(ServiceError):
    """The first-run admin can be created only while no member exists."""


class LoginRefused(ServiceError):
    """Wrong username or password, or a deactivated member."""


class TooManyAttempts(LoginRefused):
    """Too many failed sign-ins for this username from this address."""


class NightClosed(ServiceError):
    """The night is closed: its tables no longer change."""


class TableChanged(ServiceError):
    """Someone else changed the table first; re-read it and decide again."""

    def __init__(self, table_id: int, expected_seq: int) -> None:
        super().__init__(
            _("The table changed while you were deciding. Here it is now: please try again.")
        )
        self.table_id = table_id
        self.expected_seq = expected_seq


@contextmanager
def _transaction() -> Iterator[None]:
    """Commit what the block wrote, or roll everything back when it raises."""
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


# --------------------------------------------------------------------------- members

USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{1,39}$")
MIN_PASSWORD_LENGTH = 8
LOCALES = ("en", "it")
# Checked when the username is unknown, so a wrong username costs as much as a wrong password.
_dummy_hashes: dict[str, str] = {}


def _hash_password(password: str) -> str:
    """Hash with the configured method (scrypt unless the tests choose a faster one)."""
    return generate_password_hash(password, method=current_app.config.get("PASSWORD_HASH_METHOD", "scrypt"))


def _dummy_hash() -> str:
    """A hash to check when the username is unknown (same cost as a real one)."""
    method = current_app.config.get("PASSWORD_HASH_METHOD", "scrypt")
    if method not in _dummy_hashes:
        _dummy_hashes[method] = generate_password_hash("not-a-real-password", method=method)
    return _dummy_hashes[method]


def normalize_username(username: str) -> str:
    """Usernames are compared trimmed and lower-case."""
    return username.strip().lower()


def _check_member_fields(name: str, username: str, role: str, locale: str | None) -> None:
    """Raise ServiceError when a member field is unusable."""
    if not name.strip() or len(name.strip()) > 80:
        raise ServiceError(_("A name is needed (at most 80 characters)."))
    if not USERNAME_RE.match(username):
        raise ServiceError(
            _(
                "A username has 2 to 40 letters, digits, dots, dashes or underscores, "
                "and starts with a letter or a digit."
            )
        )
    if role not in ROLES:
        raise ServiceError(_("Unknown role: %(role)s.", role=role))
    if locale is not None and locale not in LOCALES:
        raise ServiceError(_("Unknown language: %(locale)s.", locale=locale))


def _check_password(password: str) -> None:
    """Raise ServiceError when a password is too short."""
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ServiceError(
            _("A password has at least %(count)d characters.", count=MIN_PASSWORD_LENGTH)
        )


def needs_setup() -> bool:
    """True while no member exists: the first visitor may create the admin."""
    return db.session.scalar(select(func.count(Member.id))) == 0


def list_members() -> list[Member]:
    """Every member, by name."""
    return list(db.session.scalars(select(Member).order_by(func.lower(Member.name))))


def get_member(member_id: int) -> Member:
    """The member with this id. Raises NotFound."""
    member = db.session.get(Member, member_id)
    if member is None:
        raise NotFound(_("No such member."))
    return member


def _add_member(name: str, username: str, password: str, role: str, locale: str | None) -> Member:
    """Validate and stage a new member (the caller commits)."""
    username = normalize_username(username)
    _check_member_fields(name, username, role, locale)
    _check_password(password)
    taken = db.session.scalar(select(Member.id).where(Member.username == username))
    if taken is not None:
        raise ServiceError(_("The username %(username)s is taken.", username=username))
    member = Member(
        name=name.strip(),
        username=username,
        password_hash=_hash_password(password),
        role=role,
        locale=locale,
        active=True,
    )
    db.session.add(member)
    return member


def create_member(
    *, name: str, username: str, password: str, role: str = "player", locale: str | None = None
) -> Member:
    """Add a member. Raises ServiceError when a field is unusable or the username is taken."""
    with _transaction():
        member = _add_member(name, username, password, role, locale)
    return member


def create_first_admin(*, name: str, username: str, password: str) -> Member:
    """Create the first member, an admin. Raises AlreadySetUp once any member exists.

    The check and the insert are one transaction (on SQLite it holds the write lock from its
    start), so two first visitors cannot both become admin.
    """
    with _transaction():
        if not needs_setup():
            raise AlreadySetUp(_("The club is already set up: please sign in."))
        member = _add_member(name, username, password, "admin", None)
    return member


def update_member(
    member_id: int,
    *,
    name: str,
    role: str,
    locale: str | None,
    active: bool,
    password: str | None = None,
    actor: Member,
) -> Member:
    """Change a member (an admin's use-case). A new password or deactivation ends his sessions.

    Raises NotFound, or ServiceError when a field is unusable or an admin would lock himself out.
    """
    with _transaction():
        member = get_member(member_id)
        _check_member_fields(name, member.username, role, locale)
        if member.id == actor.id and (role != "admin" or not active):
            raise ServiceError(_("You cannot remove your own admin role or deactivate yourself."))
        if password:
            _check_password(password)
            member.password_hash = _hash_password(password)
            member.session_epoch += 1
        if member.active and not active:
            member.session_epoch += 1
        member.name = name.strip()
        member.role = role
        member.locale = locale
        member.active = active
    return member


def set_locale(member: Member, locale: str | None) -> None:
    """Remember a member's language (None: follow the browser)."""
    if locale is not None and locale not in LOCALES:
        raise ServiceError(_("Unknown language: %(locale)s.", locale=locale))
    with _transaction():
        member.locale = locale


def authenticate(username: str, password: str, address: str, now: dt.datetime | None = None) -> Member:
    """The member these credentials belong to.

    Failures are stored in the database, so the limit holds across every worker.
    Raises TooManyAttempts after too many recent failures for this username and address
    (without checking the password), else LoginRefused on a wrong password or inactive member.
    """
    now = now or utcnow()
    key = normalize_username(username)[:40]
    address = (address or "unknown")[:64]
    since = now - current_app.config["LOGIN_FAILURE_WINDOW"]
    with _transaction():
        failures = db.session.scalar(
            select(func.count(LoginFailure.id)).where(
                LoginFailure.username == key, LoginFailure.address == address, LoginFailure.at >= since
            )
        )
        if failures >= current_app.config["LOGIN_MAX_FAILURES"]:
            raise TooManyAttempts(
                _("Too many failed sign-ins. Wait %(minutes)d minutes and try again.",
                  minutes=int(current_app.config["LOGIN_FAILURE_WINDOW"].total_seconds() // 60))
            )
        member: Member | None = db.session.scalar(select(Member).where(Member.username == key))
        valid = check_password_hash(member.password_hash if member else _dummy_hash(), password)
        if member is not None and valid and member.active:
            db.session.execute(
                delete(LoginFailure).where(LoginFailure.username == key, LoginFailure.address == address)
            )
            return member
        db.session.execute(delete(LoginFailure).where(LoginFailure.at < since))
        db.session.add(LoginFailure(username=key, address=address, at=now))
    raise LoginRefused(_("Wrong username or password."))


# --------------------------------------------------------------------------- nights

CURRENCY_RE = re.compile(r"^[A-Z]{3}$")


def list_nights() -> list[Night]:
    """Every night, the most recent first."""
    return list(db.session.scalars(select(Night).order_by(Night.date.desc(), Night.id.desc())))


def open_nights() -> list[Night]:
    """The nights not closed yet, the most recent first."""
    query = select(Night).where(Night.closed_at.is_(None)).order_by(Night.date.desc(), Night.id.desc())
    return list(db.session.scalars(query))


def get_night(night_id: int) -> Night:
    """The night with this id. Raises NotFound."""
    night = db.session.get(Night, night_id)
    if night is None:
        raise NotFound(_("No such night."))
    return night


def open_night(*, name: str, on: dt.date, currency: str = "EUR", actor: Member) -> Night:
    """Open a club night. Raises ServiceError on an empty name or a malformed currency code."""
    name = name.strip()
    currency = currency.strip().upper()
    if not name or len(name) > 80:
        raise ServiceError(_("A night needs a name (at most 80 characters)."))
    if not CURRENCY_RE.match(currency):
        raise ServiceError(_("A currency is a three-letter code such as EUR."))
    with _transaction():
        night = Night(name=name, date=on, currency=currency, opened_by_id=actor.id)
        db.session.add(night)
    return night


def close_night(night_id: int, *, actor: Member) -> Night:
    """Close a night: its tables stop changing. Raises NotFound, NightClosed."""
    with _transaction():
        night = get_night(night_id)
        if not night.is_open:
            raise NightClosed(_("This night is already closed."))
        night.closed_at = utcnow()
    return night


# --------------------------------------------------------------------------- table settings

#: Every table setting and its default (RULES.md; keys from DESIGN.md).
TABLE_DEFAULTS: dict[str, Any] = {
    "cube_mode": "multi",
    "stake_cents": 100,
    "per_player_stakes": False,
    "jacoby": False,
    "beavers": False,
    "raccoons": False,
    "automatic_doubles": 0,
    "all_but_one": "forced_drop",
    "all_but_one_min_players": 5,
    "extras": False,
    "partner_min_players": 8,
    "partner_share_percent": 50,
    "box_retention": "beat_captain",
    "join_position": "immediate",
    "consulting": "free",
    "same_value_same_action": False,
}

#: The allowed values of the settings that are a choice.
SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "cube_mode": ("multi", "single"),
    "all_but_one": ("off", "forced_drop", "mandatory_beaver"),
    "box_retention": ("beat_captain", "net_non_negative", "net_positive"),
    "join_position": ("immediate", "after_next_rotation"),
    "consulting": ("free", "forbidden", "after_cube"),
}

#: The allowed range of the settings that are a whole number.
SETTING_RANGES: dict[str, tuple[int, int]] = {
    "stake_cents": (1, 100_000_000),
    "automatic_doubles": (0, 6),
    "all_but_one_min_players": (3, 30),
    "partner_min_players": (0, 30),
    "partner_share_percent": (0, 100),
}

#: Named presets: the seeds' defaults, and two common house rules.
PRESETS: dict[str, dict[str, Any]] = {
    "club-standard": dict(TABLE_DEFAULTS),
    "single-cube-jacoby": {**TABLE_DEFAULTS, "cube_mode": "single", "jacoby": True},
    "money-night": {
        **TABLE_DEFAULTS,
        "jacoby": True,
        "beavers": True,
        "raccoons": True,
        "automatic_doubles": 1,
    },
}


def normalize_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Complete ``raw`` with the defaults and check every value.

    Raises ServiceError naming the setting when a key is unknown or a value is out of place.
    """
    unknown = sorted(set(raw) - set(TABLE_DEFAULTS))
    if unknown:
        raise ServiceError(_("Unknown table setting: %(key)s.", key=", ".join(unknown)))
    settings = {**TABLE_DEFAULTS, **raw}
    for key, value in settings.items():
        default = TABLE_DEFAULTS[key]
        if key in SETTING_CHOICES:
            if value not in SETTING_CHOICES[key]:
                raise ServiceError(_("%(key)s cannot be %(value)s.", key=key, value=value))
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ServiceError(_("%(key)s is yes or no.", key=key))
        else:
            low, high = SETTING_RANGES[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ServiceError(
                    _("%(key)s is a whole number from %(low)d to %(high)d.", key=key, low=low, high=high)
                )
    if settings["raccoons"] and not settings["beavers"]:
        raise ServiceError(_("Raccoons need beavers."))
    if settings["all_but_one"] == "mandatory_beaver" and not settings["beavers"]:
        raise ServiceError(_("A mandatory beaver needs beavers."))
    # The chouette rules have the last word on what a table may be.
    try:
        Settings.from_dict(settings)
    except TableError as error:
        raise ServiceError(str(error)) from error
    return settings


def preset_of(settings: Mapping[str, Any]) -> str | None:
    """The name of the preset these settings are exactly, if any."""
    for name, preset in PRESETS.items():
        if dict(settings) == preset:
            return name
    return None


# --------------------------------------------------------------------------- tables


def get_table(table_id: int) -> ChouetteTable:
    """The table with this id. Raises NotFound."""
    table = db.session.get(ChouetteTable, table_id)
    if table is None:
        raise NotFound(_("No such table."))
    return table


def create_table(
    night_id: int, *, name: str, settings: Mapping[str, Any], actor: Member
) -> ChouetteTable:
    """Add a table to an open night. Raises NotFound, NightClosed, or ServiceError
    (empty or duplicate name, unusable settings)."""
    name = name.strip()
    if not name or len(name) > 60:
        raise ServiceError(_("A table needs a name (at most 60 characters)."))
    checked = normalize_settings(settings)
    with _transaction():
        night = get_night(night_id)
        if not night.is_open:
            raise NightClosed(_("This night is closed: no new tables."))
        taken = db.session.scalar(
            select(ChouetteTable.id).where(ChouetteTable.night_id == night.id, ChouetteTable.name == name)
        )
        if taken is not None:
            raise ServiceError(_("There is already a table called %(name)s tonight.", name=name))
        table = ChouetteTable(night_id=night.id, name=name, settings=checked, preset=preset_of(checked))
        db.session.add(table)
    return table


def last_seq(table_id: int) -> int:
    """The seq of the table's latest event (0 for an empty log)."""
    return db.session.scalar(select(func.coalesce(func.max(TableEvent.seq), 0)).where(TableEvent.table_id == table_id)) or 0


def table_events(table_id: int) -> list[TableEvent]:
    """The table's whole log, in order."""
    query = select(TableEvent).where(TableEvent.table_id == table_id).order_by(TableEvent.seq)
    return list(db.session.scalars(query))


def table_log(table_id: int) -> list[dict[str, Any]]:
    """The table's log in the format of DESIGN.md (what ``chouette.table.fold`` takes)."""
    return [event.as_dict() for event in table_events(table_id)]


@dataclass(frozen=True)
class LedgerRow:
    """One player's settlement of one game, to be written with the event that settled it."""

    game: int
    player: str
    points: int
    cents: int


def _check_events(events: Sequence[Mapping[str, Any]]) -> None:
    """Raise ServiceError unless every event is a dict with a short string ``type``."""
    if not events:
        raise ServiceError(_("Nothing to record."))
    for event in events:
        kind = event.get("type")
        if not isinstance(kind, str) or not kind or len(kind) > 32:
            raise ServiceError(_("An event needs a type."))


def _check_ledger_rows(rows: Sequence[LedgerRow]) -> None:
    """Every game's points and cents sum to zero (RULES.md 2.10); anything else is a bug."""
    points: dict[int, int] = defaultdict(int)
    cents: dict[int, int] = defaultdict(int)
    for row in rows:
        if not isinstance(row.points, int) or not isinstance(row.cents, int):
            raise TypeError(f"ledger amounts are whole numbers: {row!r}")
        points[row.game] += row.points
        cents[row.game] += row.cents
    for game, total in points.items():
        if total or cents[game]:
            raise ValueError(f"game {game} does not sum to zero: {total} points, {cents[game]} cents")


def append_events(
    table_id: int,
    expected_seq: int,
    events: Sequence[Mapping[str, Any]],
    actor: Member | None,
    ledger_rows: Iterable[LedgerRow] = (),
) -> list[TableEvent]:
    """Append ``events`` after ``expected_seq`` (the last seq the caller folded), with the ledger
    rows they produce, in one transaction.

    The events get seqs ``expected_seq + 1 ...``. When another request appended first, the
    UNIQUE(table_id, seq) key refuses the insert and nothing is written.
    Raises TableChanged (re-read the table and decide again), NotFound, NightClosed,
    ServiceError on a malformed event, ValueError when a game's ledger rows do not sum to zero.
    """
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 0:
        raise ServiceError(_("The table's position in its history is missing."))
    _check_events(events)
    rows = list(ledger_rows)
    _check_ledger_rows(rows)
    at = utcnow()
    actor_id = actor.id if actor is not None else None
    try:
        with _transaction():
            table = get_table(table_id)
            if not table.night.is_open:
                raise NightClosed(_("This night is closed: its tables no longer change."))
            written = [
                TableEvent(
                    table_id=table_id,
                    seq=expected_seq + offset,
                    type=str(event["type"]),
                    payload={key: value for key, value in event.items() if key != "type"},
                    actor_id=actor_id,
                    at=at,
                )
                for offset, event in enumerate(events, start=1)
            ]
            db.session.add_all(written)
            db.session.flush()
            # The unique key stops two writers at one seq; this stops a caller that skipped one:
            # n distinct seqs >= 1 whose maximum is n are exactly 1..n.
            count, highest = db.session.execute(
                select(func.count(TableEvent.id), func.max(TableEvent.seq)).where(
                    TableEvent.table_id == table_id
                )
            ).one()
            if not count == highest == expected_seq + len(events):
                raise TableChanged(table_id, expected_seq)
            db.session.add_all(
                LedgerEntry(
                    night_id=table.night_id,
                    table_id=table_id,
                    game=row.game,
                    seq=written[-1].seq,
                    player=row.player,
                    points=row.points,
                    cents=row.cents,
                    at=at,
                )
                for row in rows
            )
    except IntegrityError as error:
        raise TableChanged(table_id, expected_seq) from error
    return written
