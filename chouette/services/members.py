"""Members: accounts, roles, sign-in with its limiter."""


from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import delete, func, select, text
from werkzeug.security import check_password_hash, generate_password_hash

from chouette import caches
from chouette.extensions import db
from chouette.models import (
    ROLES,
    LoginFailure,
    Member,
    MemberSession,
    utcnow,
)
from chouette.services import identity, table_states
from chouette.services.base import (
    AlreadySetUp,
    LoginRefused,
    NotFound,
    ServiceError,
    TooManyAttempts,
    writing,
)

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


def _check_member_fields(name: str, username: str, role: str, locale: str | None,
                         member_id: int | None = None) -> str:
    """The member's name in its one spelling; raise ServiceError when a field is unusable or
    the name is another member's (``identity.check_member_name``)."""
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
    return identity.check_member_name(name, member_id)


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
    """Validate and add a new member, with their name and a guest's history under it (inside
    the caller's ``writing()``)."""
    username = normalize_username(username)
    _check_password(password)
    taken = db.session.scalar(select(Member.id).where(Member.username == username))
    if taken is not None:
        raise ServiceError(_("The username %(username)s is taken.", username=username))
    name = _check_member_fields(name, username, role, locale)
    member = Member(
        name=name,
        username=username,
        password_hash=_hash_password(password),
        role=role,
        locale=locale,
        active=True,
    )
    db.session.add(member)
    identity.record_name(member)  # the name is theirs for good (MemberName)
    db.session.flush()
    identity.claim_guest_history(member)  # a guest who played under this name was them
    return member


def create_member(
    *, name: str, username: str, password: str, role: str = "player", locale: str | None = None
) -> Member:
    """Add a member. Raises ServiceError when a field is unusable or the username is taken."""
    with writing():
        return _add_member(name, username, password, role, locale)


def create_first_admin(*, name: str, username: str, password: str) -> Member:
    """Create the first member, an admin. Raises AlreadySetUp once any member exists.

    The check and the insert are one transaction (on SQLite it holds the write lock from its
    start; on PostgreSQL it locks the member table first), so two first visitors cannot both
    become admin.
    """
    with writing():
        if db.session.get_bind().dialect.name == "postgresql":
            # Read committed would let both see "no member yet": the second waits here, then
            # sees the first's admin.
            db.session.execute(text("LOCK TABLE member IN SHARE ROW EXCLUSIVE MODE"))
        if not needs_setup():
            raise AlreadySetUp(_("The club is already set up: please sign in."))
        return _add_member(name, username, password, "admin", None)


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
    """Change a member (an admin's use-case). A new password or deactivation ends their sessions.

    A new name keeps their history: the tables they sat at read them under it, their ledger rows
    and payments take it (``identity.rewrite_history``); a name another member has or had is
    refused, so a rename never merges two members.

    Raises NotFound, or ServiceError when a field is unusable or an admin would lock themselves out.
    """
    with writing():
        if db.session.get_bind().dialect.name == "postgresql":
            # Two renames to one name at once: the second waits, then sees the first's.
            db.session.execute(text("LOCK TABLE member_name IN SHARE ROW EXCLUSIVE MODE"))
        member = get_member(member_id)
        name = _check_member_fields(name, member.username, role, locale, member.id)
        old_name = member.name
        if member.id == actor.id and (role != "admin" or not active):
            raise ServiceError(_("You cannot remove your own admin role or deactivate yourself."))
        if password:
            _check_password(password)
            member.password_hash = _hash_password(password)
            member.session_epoch += 1
            _end_sessions_of(member.id)
        if member.active and not active:
            member.session_epoch += 1
            _end_sessions_of(member.id)
        if name != old_name:
            identity.refuse_rename_clash(member, name,
                                         lambda table_id: table_states.load_play(table_id).state)
            member.name = name
            identity.record_name(member)
            db.session.flush()
            identity.rewrite_history(member, old_name)
        member.role = role
        member.locale = locale
        member.active = active
    if name != old_name:
        caches.clear_all()  # this process's folded states; the others see the rename generation move
    return member


def set_auto_forced_moves(member: Member, on: bool) -> None:
    """Remember whether a roll with one legal play plays it by itself at the member's online
    tables."""
    with writing():
        member.auto_forced_moves = bool(on)


def set_locale(member: Member, locale: str | None) -> None:
    """Remember a member's language (None: follow the browser)."""
    if locale is not None and locale not in LOCALES:
        raise ServiceError(_("Unknown language: %(locale)s.", locale=locale))
    with writing():
        member.locale = locale


def _lock_login_key(username: str, address: str) -> None:
    """Serialise the sign-ins of one username from one address until the transaction ends, so
    concurrent tries cannot all count the failures before any is written (the limit holds on
    every node). PostgreSQL: a transaction-level advisory lock on the key's hash; SQLite's
    writing transactions are serialised already (``BEGIN IMMEDIATE``)."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    digest = hashlib.sha256(f"chouette-login\0{username}\0{address}".encode()).digest()
    db.session.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                       {"key": int.from_bytes(digest[:8], "big", signed=True)})


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
    with writing():
        _lock_login_key(key, address)
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


# --------------------------------------------------------------------------- sessions

#: A server-side session ends at sign-out, or at the latest this long after sign-in (the
#: cookie itself ends after PERMANENT_SESSION_LIFETIME without a request).
SESSION_MAX_AGE = dt.timedelta(days=30)


def _token_hash(token: str) -> str:
    """What the database keeps of a session's token (the cookie carries the token)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _end_sessions_of(member_id: int) -> None:
    """Delete every server-side session of the member (inside the caller's transaction)."""
    db.session.execute(delete(MemberSession).where(MemberSession.member_id == member_id))


def start_session(member: Member, now: dt.datetime | None = None) -> str:
    """Open a server-side session for ``member`` (at sign-in) and return its token, which the
    session cookie carries (``Member.get_id``). Sessions older than ``SESSION_MAX_AGE`` go."""
    now = now or utcnow()
    token = secrets.token_urlsafe(32)
    with writing():
        db.session.execute(delete(MemberSession).where(MemberSession.created_at < now - SESSION_MAX_AGE))
        db.session.add(MemberSession(member_id=member.id, token_hash=_token_hash(token), created_at=now))
    member.session_token = token
    return token


def session_member(member_id: int, epoch: int, token: str) -> Member | None:
    """The active member whose server-side session this is (the session loader), else None:
    signed out, another epoch (a new password, deactivated), or no such session."""
    if not token:
        return None
    query = (select(Member).join(MemberSession, MemberSession.member_id == Member.id)
             .where(Member.id == member_id, MemberSession.token_hash == _token_hash(token),
                    MemberSession.created_at >= utcnow() - SESSION_MAX_AGE))
    member = db.session.scalar(query)
    if member is None or not member.active or member.session_epoch != epoch:
        return None
    member.session_token = token
    return member


def end_session(token: str | None) -> None:
    """Sign out: delete the server-side session with this token (none: nothing to do)."""
    if not token:
        return
    with writing():
        db.session.execute(delete(MemberSession).where(MemberSession.token_hash == _token_hash(token)))


def change_password(member: Member, current: str, new: str, address: str) -> None:
    """The member changes their own password: ``current`` must be right and ``new`` fit the
    sign-up rules. Every server-side session of theirs ends (the epoch moves too): the caller
    signs this device in again. A wrong current password counts as a failed sign-in from
    ``address`` (the same limiter: a stolen session cannot guess it). Raises TooManyAttempts,
    LoginRefused (wrong current password) or ServiceError; either way nothing changes."""
    try:
        authenticate(member.username, current, address)
    except TooManyAttempts:
        raise
    except LoginRefused:
        raise LoginRefused(_("The current password is wrong.")) from None
    with writing():
        stage_password(member, new)


def stage_password(member: Member, new: str) -> None:
    """Give ``member`` a new password and end all their sessions, inside the caller's
    transaction. Raises ServiceError when it does not fit the sign-up rules."""
    _check_password(new)
    member.password_hash = _hash_password(new)
    member.session_epoch += 1
    _end_sessions_of(member.id)


def stage_member(name: str, username: str, password: str, role: str, locale: str | None) -> Member:
    """Validate and stage a new member inside the caller's transaction (``create_member``'s
    checks: the username free, the name fit and nobody's). Raises ServiceError."""
    return _add_member(name, username, password, role, locale)
