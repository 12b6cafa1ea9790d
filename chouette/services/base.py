"""Errors and ``writing()``, the one way to write, shared by every use-case."""


from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask_babel import gettext as _

from chouette.extensions import WRITING, announce, db, start_writer, stop_writer

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


class TableClosed(NightClosed):
    """The table is closed (its night may be open): it no longer changes until reopened."""


class TableChanged(ServiceError):
    """Someone else changed the table first; re-read it and decide again."""

    def __init__(self, table_id: int, expected_seq: int) -> None:
        super().__init__(
            _("The table changed while you were deciding. Here it is now: please try again.")
        )
        self.table_id = table_id
        self.expected_seq = expected_seq


@contextmanager
def writing(*, keep_loaded: bool = False, quiet: bool = False) -> Iterator[None]:
    """The one way to write: what the block writes is committed together, or rolled back
    (nothing written) when it raises; then the change is announced to the pages
    (``extensions.announce``: the push hubs).

    Every request reads as a reader (``extensions.start_reading``): its session may not
    write (a flush there raises RuntimeError). ``writing()`` ends the reader, takes the
    write lock and begins (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: an ordinary transaction), so what the block reads it reads
    again under the lock; a command checks its table's seq there (``TableChanged``). After
    the block the request reads as a reader again: drawing the answer holds no write lock.
    A ``writing()`` inside another one joins it (the outer one commits).

    ``keep_loaded``: the rows loaded before the commit stay loaded after it (SQLAlchemy
    expires them by default, and the next use of each reads it again): for a table command,
    whose answer draws the table, its night and the member as the command found them, not
    three more round trips to the database.

    ``quiet``: what the block writes changes nothing a page shows (a connected member's device
    seen again, ``social.touch``): committed, not announced."""
    session = db.session()
    if session.info.get(WRITING):
        yield  # inside an outer writing(): it commits
        return
    start_writer(session)
    expire = session.expire_on_commit
    if keep_loaded:
        session.expire_on_commit = False
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        wrote = stop_writer(session)
        session.expire_on_commit = expire
    if wrote and not quiet:
        announce()
