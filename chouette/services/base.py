"""Errors and the transaction helper shared by every use-case."""


from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask_babel import gettext as _

from chouette.extensions import db

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
def transaction(*, keep_loaded: bool = False) -> Iterator[None]:
    """Commit what the block wrote, or roll everything back when it raises.

    ``keep_loaded``: the rows the request loaded stay loaded after the commit (SQLAlchemy
    expires them by default, and the next use of each reads it again): for a table command,
    whose answer draws the table, its night and the member as the command found them, not
    three more round trips to the database."""
    session = db.session()
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
        session.expire_on_commit = expire
