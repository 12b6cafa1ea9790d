"""The club's members and their accounts: names, sessions, sign-in failures, links, invitations."""

from __future__ import annotations

from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from chouette.models.base import Model, utcnow
from chouette.names import display_name, name_key

ROLES = ("player", "organizer", "admin")


class Member(UserMixin, Model):
    """A club member who signs in: a player, an organizer or an admin."""

    __tablename__ = "member"
    __table_args__ = (
        CheckConstraint("role IN ('player', 'organizer', 'admin')", name="role"),
        Index("ix_member_name_key", "name_key", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # Stored in its one spelling (``names.display_name``); ``name_key`` (case folded) is
    # unique: two members never share a name, whatever the case or the spaces.
    name: Mapped[str] = mapped_column(String(80))
    name_key: Mapped[str] = mapped_column(String(80), server_default="")
    username: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default="player")
    locale: Mapped[str | None] = mapped_column(String(8))
    active: Mapped[bool] = mapped_column(default=True)
    # Bumped when the password changes or the member is deactivated: old sessions end.
    session_epoch: Mapped[int] = mapped_column(default=0)
    # At a table that plays online: a roll with one legal play plays it by itself.
    auto_forced_moves: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    @validates("name")
    def _spell_name(self, _key: str, value: str) -> str:
        """Store the name in its one spelling and keep its key beside it."""
        name = display_name(value)
        self.name_key = name_key(name)
        return name

    @property
    def is_active(self) -> bool:
        """Flask-Login: a deactivated member cannot sign in or stay signed in."""
        return bool(self.active)

    @property
    def session_token(self) -> str | None:
        """The server-side session (``MemberSession``) this object stands for, if any: set
        at sign-in and by the session loader; not a column."""
        return self.__dict__.get("_chouette_session_token")

    @session_token.setter
    def session_token(self, token: str | None) -> None:
        self.__dict__["_chouette_session_token"] = token

    def get_id(self) -> str:
        """Flask-Login's session id: the member id, the session epoch and the server-side
        session's token (signing out deletes that session: a copied cookie then opens nothing)."""
        return f"{self.id}.{self.session_epoch}.{self.session_token or ''}"

    def __repr__(self) -> str:
        return f"<Member {self.id} {self.username!r} {self.role}>"


class MemberName(Model):
    """A name a member has had (their current one included): a name's key belongs to one
    member for good, so a rename keeps their history (the tables' logs name them as they were
    called then) and another member can never take a name they had."""

    __tablename__ = "member_name"
    __table_args__ = (UniqueConstraint("member_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    name_key: Mapped[str] = mapped_column(String(80), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)

    member: Mapped[Member] = relationship()


class SeatMember(Model):
    """Which member a join event seated, for the joins written before join events carried
    the member's id (``member_id`` in the payload): matched by name once, by the migration
    "members by id". The log is append-only, so the match is kept beside it."""

    __tablename__ = "seat_member"

    table_id: Mapped[int] = mapped_column(ForeignKey("chouette_table.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), index=True)


class MemberSession(Model):
    """A signed-in session, server side: signing out deletes it, and a session cookie whose
    session is gone signs nobody in. Only a hash of the cookie's token is stored."""

    __tablename__ = "member_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LoginFailure(Model):
    """One failed sign-in, kept for the limiter (shared by every worker through the DB)."""

    __tablename__ = "login_failure"
    __table_args__ = (Index("ix_login_failure_key", "username", "address", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class PasswordLink(Model):
    """A one-time link to set a new password, made by an admin or organizer for a member:
    only a hash of its token is stored; it works once and until ``expires_at``."""

    __tablename__ = "password_link"

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]

    member: Mapped[Member] = relationship(foreign_keys=[member_id])


class Invitation(Model):
    """A link to join the club: whoever opens it creates a player account, until
    ``expires_at``, at most ``max_uses`` times, unless revoked. Only its token's hash is stored."""

    __tablename__ = "invitation"
    __table_args__ = (CheckConstraint("uses >= 0 AND uses <= max_uses", name="uses"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(80), default="")
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    max_uses: Mapped[int]
    uses: Mapped[int] = mapped_column(default=0)
    revoked_at: Mapped[datetime | None]
