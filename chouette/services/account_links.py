"""Links that open an account: a one-time link to set a new password (an admin or organizer
hands it to a member, no e-mail needed), and invitations to join the club.

A link carries a random token; the database keeps only its SHA-256 hash, so a copy of the
database opens no account. A password link works once and until it expires
(``PASSWORD_LINK_LIFETIME``); an invitation until its date, for a number of uses, unless revoked.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import select, update

from chouette.extensions import db
from chouette.models import Invitation, Member, PasswordLink, utcnow
from chouette.services import members
from chouette.services.base import NotFound, ServiceError, writing

#: The longest an invitation may stay open, and its most uses.
MAX_INVITATION_DAYS = 90
MAX_INVITATION_USES = 500


class LinkRefused(ServiceError):
    """The link is unknown, expired, used up or revoked: the page says which."""


def _token_hash(token: str) -> str:
    """What the database keeps of a link's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _new_token() -> tuple[str, str]:
    """A fresh token and its hash."""
    token = secrets.token_urlsafe(32)
    return token, _token_hash(token)


def _lock(query):  # type: ignore[no-untyped-def]
    """Lock the row read (PostgreSQL; SQLite's writing transactions are serialised already)."""
    return query.with_for_update() if db.session.get_bind().dialect.name == "postgresql" else query


# --------------------------------------------------------------------------- password links


def may_make_password_link(actor: Member, member: Member) -> bool:
    """An admin may for anyone; an organizer for players only (never an admin's or another
    organizer's account: that would hand over a higher role)."""
    if actor.role == "admin":
        return True
    return actor.role == "organizer" and member.role == "player"


def make_password_link(member_id: int, actor: Member, now: dt.datetime | None = None) -> tuple[str, PasswordLink]:
    """A new one-time link for the member: (token, row). Raises NotFound, or ServiceError when
    ``actor`` may not make one for this member or the member is inactive."""
    now = now or utcnow()
    with writing():
        member = members.get_member(member_id)
        if not may_make_password_link(actor, member):
            raise ServiceError(_("Only an admin can make a password link for an organizer or an admin."))
        if not member.active:
            raise ServiceError(_("%(name)s is inactive: reactivate the account first.", name=member.name))
        token, digest = _new_token()
        link = PasswordLink(member_id=member.id, token_hash=digest, created_by_id=actor.id, created_at=now,
                            expires_at=now + current_app.config["PASSWORD_LINK_LIFETIME"])
        db.session.add(link)
    return token, link


def _usable_password_link(token: str, now: dt.datetime) -> PasswordLink:
    """The link with this token, still usable. Raises LinkRefused saying why not."""
    link = db.session.scalar(_lock(select(PasswordLink).where(PasswordLink.token_hash == _token_hash(token))))
    if link is None:
        raise LinkRefused(_("This link is unknown: ask an organizer for a new one."))
    if link.used_at is not None:
        raise LinkRefused(_("This link was used already: it works once. Ask an organizer for a new one."))
    if link.expires_at <= now:
        raise LinkRefused(_("This link has expired: ask an organizer for a new one."))
    if not link.member.active:
        raise LinkRefused(_("This account is inactive."))
    return link


def check_password_link(token: str, now: dt.datetime | None = None) -> Member:
    """The member whose usable link this is (to greet on the page). Raises LinkRefused."""
    return _usable_password_link(token, now or utcnow()).member


def use_password_link(token: str, new: str, now: dt.datetime | None = None) -> Member:
    """Set the member's new password through the link, which then works no more; every
    session of the member ends. Raises LinkRefused, or ServiceError when the password does not
    fit the rules (the link stays usable then)."""
    now = now or utcnow()
    with writing():
        link = _usable_password_link(token, now)
        members.stage_password(link.member, new)
        link.used_at = now
        # The member's other links end too: one new password, one way in.
        db.session.execute(update(PasswordLink)
                           .where(PasswordLink.member_id == link.member_id, PasswordLink.used_at.is_(None))
                           .values(used_at=now))
        return link.member


# --------------------------------------------------------------------------- invitations


def make_invitation(actor: Member, *, label: str, hours: int, max_uses: int,
                    now: dt.datetime | None = None) -> tuple[str, Invitation]:
    """A new invitation to join the club: (token, row). Raises ServiceError on a bad field."""
    now = now or utcnow()
    label = " ".join(label.split())
    if len(label) > 80:
        raise ServiceError(_("A label has at most %(count)d characters.", count=80))
    if not 1 <= hours <= MAX_INVITATION_DAYS * 24:
        raise ServiceError(_("An invitation lasts from 1 hour to %(days)d days.", days=MAX_INVITATION_DAYS))
    if not 1 <= max_uses <= MAX_INVITATION_USES:
        raise ServiceError(_("An invitation serves from 1 to %(count)d people.", count=MAX_INVITATION_USES))
    token, digest = _new_token()
    with writing():
        invitation = Invitation(token_hash=digest, label=label, created_by_id=actor.id, created_at=now,
                                expires_at=now + dt.timedelta(hours=hours), max_uses=max_uses, uses=0)
        db.session.add(invitation)
    return token, invitation


def list_invitations() -> list[Invitation]:
    """Every invitation, the newest first."""
    return list(db.session.scalars(select(Invitation).order_by(Invitation.created_at.desc(), Invitation.id.desc())))


def invitation_state(invitation: Invitation, now: dt.datetime | None = None) -> str:
    """``open``, ``revoked``, ``expired`` or ``used_up``."""
    now = now or utcnow()
    if invitation.revoked_at is not None:
        return "revoked"
    if invitation.expires_at <= now:
        return "expired"
    if invitation.uses >= invitation.max_uses:
        return "used_up"
    return "open"


def revoke_invitation(invitation_id: int, now: dt.datetime | None = None) -> Invitation:
    """End an invitation now (nobody joins through it after). Raises NotFound."""
    with writing():
        invitation = db.session.get(Invitation, invitation_id)
        if invitation is None:
            raise NotFound(_("No such invitation."))
        if invitation.revoked_at is None:
            invitation.revoked_at = now or utcnow()
        return invitation


def _usable_invitation(token: str, now: dt.datetime) -> Invitation:
    """The open invitation with this token. Raises LinkRefused saying why not."""
    invitation = db.session.scalar(_lock(select(Invitation).where(Invitation.token_hash == _token_hash(token))))
    if invitation is None:
        raise LinkRefused(_("This invitation is unknown: ask the club for a new link."))
    refusals = {
        "revoked": _("This invitation was withdrawn: ask the club for a new link."),
        "expired": _("This invitation has expired: ask the club for a new link."),
        "used_up": _("This invitation has been used as many times as it allows: ask the club for a new link."),
    }
    state = invitation_state(invitation, now)
    if state in refusals:
        raise LinkRefused(refusals[state])
    return invitation


def check_invitation(token: str, now: dt.datetime | None = None) -> Invitation:
    """The open invitation with this token. Raises LinkRefused."""
    return _usable_invitation(token, now or utcnow())


def join_with_invitation(token: str, *, name: str, username: str, password: str,
                         now: dt.datetime | None = None) -> Member:
    """Whoever holds the link becomes a member (a player) and the invitation counts one use.
    Raises LinkRefused, or ServiceError when a field is unusable or the name or username is
    taken (the invitation's uses are then unchanged)."""
    now = now or utcnow()
    with writing():
        invitation = _usable_invitation(token, now)
        member = members.stage_member(name, username, password, "player", None)
        invitation.uses += 1
    return member
