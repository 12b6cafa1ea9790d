"""A typed name near a member's: matched without regard to accents, or asked about.

At "Join the table" a typo must not seat a phantom guest whose money goes to nobody's
balance:

- a name that is a member's but for its accents and case ("bob muller" for Bob Müller) seats
  that member (``member_by_loose_name``, used by ``identity.resolve_join``); a name that is
  two members' but for its accents seats neither (``AmbiguousName``);
- a name close to a member's ("Ann Archr" for Ann Archer: ``names.closeness``) asks "Did you
  mean Ann Archer?" before a guest is seated (``members_to_ask``; the page asks);
- a clearly new name ("Zed Quill") seats a guest at once.
"""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import select

from chouette.controls import first_unfit_in_name
from chouette.extensions import db
from chouette.models import Member, MemberName
from chouette.names import close_names, display_name, loose_key, name_key
from chouette.services.base import ServiceError


class AmbiguousName(ServiceError):
    """A name two members share but for its accents: the organizer types one of them."""


def _is_member_name(name: str) -> bool:
    """Whether ``name`` is a member's, now or before, by its key (``identity.member_by_name``)."""
    key = name_key(name)
    return (db.session.scalar(select(MemberName.member_id).where(MemberName.name_key == key).limit(1))
            or db.session.scalar(select(Member.id).where(Member.name_key == key).limit(1))) is not None


def _loose_owners(name: str) -> dict[int, str]:
    """The members (id -> current name) one of whose names, now or before, is ``name`` but
    for its accents and case."""
    key = loose_key(name)
    if not key:
        return {}
    recorded = select(MemberName.member_id, MemberName.name, Member.name).join(
        Member, Member.id == MemberName.member_id)
    rows: list[tuple[int, str, str]] = [(member_id, spelled, current)
                                        for member_id, spelled, current in db.session.execute(recorded)]
    # A member whose names were never recorded (written outside the services).
    rows += [(member_id, current, current) for member_id, current in db.session.execute(
        select(Member.id, Member.name).where(Member.id.not_in(select(MemberName.member_id))))]
    return {member_id: current for member_id, spelled, current in rows if loose_key(spelled) == key}


def member_by_loose_name(name: str) -> Member | None:
    """The one member whose name (or a name they had) is ``name`` without regard to accents
    and case, or None.

    Raises AmbiguousName when two members' names are ``name`` but for their accents.
    """
    owners = _loose_owners(name)
    if len(owners) > 1:
        raise AmbiguousName(_("More than one member is called %(name)s but for the accents "
                              "(%(members)s): type the name as the member spells it.",
                              name=display_name(name),
                              members=", ".join(sorted(owners.values()))))
    return db.session.get(Member, next(iter(owners))) if owners else None


def members_to_ask(name: str) -> list[str]:
    """The members' names to ask about before ``name`` seats a guest ("Did you mean ...?"),
    the closest first: none when the name is a member's (by key, or but for its accents: it
    seats them) or close to no active member's; the members it could be when it is two
    members' names but for its accents."""
    spelled = display_name(name)
    if not spelled or first_unfit_in_name(spelled) is not None or _is_member_name(spelled):
        return []  # (an unfit name: the join refuses it, saying why; no query may carry it)
    owners = _loose_owners(spelled)
    if len(owners) == 1:
        return []
    if owners:
        return sorted(owners.values())
    active = db.session.scalars(select(Member.name).where(Member.active.is_(True)))
    return close_names(spelled, active)


def may_be_a_guest(name: str) -> bool:
    """Whether ``name`` may seat a guest once the organizer says so: not when it is two
    members' names but for its accents (it is theirs; ``AmbiguousName``)."""
    return len(_loose_owners(name)) < 2
