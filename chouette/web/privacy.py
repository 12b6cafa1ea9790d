"""Who sees whose money: the club's rule, stated once and used by every page, fragment and
export that shows an amount.

``MONEY_VISIBILITY`` (``chouette.config``) chooses the rule:

- ``private`` (the default): a member sees their own money everywhere (their balance, their IOUs
  and payments, the money on their own player page) and the whole money of every night they
  played, that is where they sat at one of its tables: its ledger, its settle-up, the money
  of its tables. Organizers and admins (the club's treasurer is an organizer) see everyone's.
  A night they did not play is refused (403) on its ledger and settle-up; elsewhere what is not
  theirs is left out: another member's player page shows their games and points but no money, the
  balances and a season's standings show them their own row, the players' list their own total.
- ``members``: every signed-in member sees everyone's money.

Signed out, nobody sees money, except on the big screen (``/display``, public: the TV in the
room), which shows tonight's table scores with each player's money unless ``DISPLAY_MONEY``
is off. Points are the game's score and stay visible wherever the game is; the stakes of a
table are its house rules, not anyone's money. The exports (CSV, JSON logs) are the
organizers' tools: organizers only, whatever the setting.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from flask import Flask, abort, current_app, g
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import LedgerEntry, Night
from chouette.services import identity, money, seasons
from chouette.web.auth import has_role
from chouette.web.errors import error_page


def visibility() -> str:
    """The club's rule: ``private`` or ``members`` (checked at start by ``chouette.config``)."""
    return str(current_app.config.get("MONEY_VISIBILITY", "private"))


def display_shows_money() -> bool:
    """Whether the big screen shows each player's money beside their points."""
    return bool(current_app.config.get("DISPLAY_MONEY", True))


def sees_everyones_money(member: Any) -> bool:
    """Whether ``member`` sees every player's money: an organizer or admin, or any signed-in
    member when the club chose ``members``."""
    if not getattr(member, "is_authenticated", False):
        return False
    return visibility() == "members" or has_role(member, "organizer")


def played(member: Any, night: Night) -> bool:
    """Whether ``member`` played ``night``: a result in its ledger, or a seat at one of its
    tables (they sat down, even if no game has ended yet). Remembered for the request."""
    if not getattr(member, "is_authenticated", False):
        return False
    known: dict[tuple[int, int], bool] = g.setdefault("chouette_played", {})
    key = (member.id, night.id)
    if key not in known:
        known[key] = _played(member.id, night)
    return known[key]


def note_played(member: Any, night: Night) -> None:
    """``member`` holds a seat at a table of ``night`` now (``deciders.seat_name``): they played
    it, as ``played`` would find by reading (a seat at one of its tables); remembered for the
    request, so their table's page reads nothing more to know they may see its money."""
    if getattr(member, "is_authenticated", False):
        g.setdefault("chouette_played", {})[(member.id, night.id)] = True


def _played(member_id: int, night: Night) -> bool:
    """``played`` without the memory, by the member's id (never their name: another account of
    that name is someone else): their ledger rows first (one indexed query), then the tables whose
    log seated them, folded to be sure they still sit there (an undone join is no seat)."""
    from chouette.services.table_states import load_play

    booked = db.session.scalar(select(LedgerEntry.id).where(
        LedgerEntry.night_id == night.id, LedgerEntry.member_id == member_id).limit(1))
    if booked is not None:
        return True
    table_ids = [table.id for table in night.tables]
    seats = identity.seat_members_of(table_ids)
    return any(name in load_play(table_id).state.players
               for table_id in table_ids for name, owner in seats[table_id].items()
               if owner == member_id)


def may_see_night_money(member: Any, night: Night) -> bool:
    """Whether ``member`` sees everyone's money of ``night``: its ledger, its settle-up, the
    money at its tables."""
    return sees_everyones_money(member) or played(member, night)


def may_see_money_of(member: Any, player: str) -> bool:
    """Whether ``member`` sees ``player``'s money across nights (balance, player page).

    ``player`` is a name as the ledger writes it: a member's rows carry their current name
    (a rename rewrites them by id) and no other member has that name (``identity``)."""
    if sees_everyones_money(member):
        return True
    return bool(getattr(member, "is_authenticated", False)) and member.name == player


def may_see_payment(member: Any, payer: str, payee: str, night_id: int | None) -> bool:
    """Whether ``member`` sees a payment or IOU: their own, or one of a night whose money they see."""
    if may_see_money_of(member, payer) or may_see_money_of(member, payee):
        return True
    if night_id is None:
        return False
    night = db.session.get(Night, night_id)
    return night is not None and may_see_night_money(member, night)


def require_night_money(night: Night) -> None:
    """Refuse (403, saying why) a page of ``night``'s money to whoever may not see it."""
    if not may_see_night_money(current_user, night):
        abort(error_page(403, _("Only the players of this night and the organizers see its money.")))


# --------------------------------------------------------------------------- what a page shows


def balances(member: Any) -> list[money.CurrencyBalances]:
    """The balances across nights ``member`` sees: everyone's, or their own row and IOUs."""
    if sees_everyones_money(member):
        return money.club_balances()
    return money.club_balances(player=member.name)


def visible_ious(member: Any, ious: Iterable[money.Iou]) -> list[money.Iou]:
    """The standing IOUs ``member`` sees."""
    return [iou for iou in ious if may_see_payment(member, iou.payer, iou.payee, iou.night_id)]


def settle_up(member: Any, plan: money.SettleUp) -> money.SettleUp:
    """A night's settle-up as ``member`` sees it (the night's own money is the night's: they
    see it all, or the page is refused); the IOUs carried over from earlier nights are cut
    to those they see."""
    if sees_everyones_money(member):
        return plan
    return replace(plan, carried=visible_ious(member, plan.carried))


def season(member: Any, plan: seasons.SeasonSettleUp) -> seasons.SeasonSettleUp:
    """A season as ``member`` sees it: everything, or their own standing, the transfers, IOUs
    and payments that are theirs, and the payments of the nights they played."""
    if sees_everyones_money(member):
        return plan

    def seen(payer: str, payee: str, night_id: int | None) -> bool:
        return may_see_payment(member, payer, payee, night_id)

    return replace(
        plan,
        standings=[line for line in plan.standings if may_see_money_of(member, line.player)],
        transfers=[t for t in plan.transfers if seen(t.payer, t.payee, None)],
        night_payments=[p for p in plan.night_payments if seen(p.payer, p.payee, p.night_id)],
        payments=[p for p in plan.payments if seen(p.payer, p.payee, None)],
        ious=visible_ious(member, plan.ious),
        carried=visible_ious(member, plan.carried),
    )


def player_list(member: Any, rows: Iterable[tuple[str, int, dict[str, int]]]
                ) -> list[tuple[str, int, dict[str, int] | None]]:
    """The players' list (name, games, lifetime cents per currency), the cents None where not
    theirs to see."""
    return [(name, games, cents if may_see_money_of(member, name) else None)
            for name, games, cents in rows]


def init_app(app: Flask) -> None:
    """Templates ask the same rule: ``may_see_night_money(night)``, ``may_see_money_of(name)``,
    ``sees_everyones_money()``."""

    @app.context_processor
    def privacy_for_templates() -> dict[str, Any]:
        return {
            "may_see_night_money": lambda night: may_see_night_money(current_user, night),
            "may_see_money_of": lambda name: may_see_money_of(current_user, name),
            "sees_everyones_money": lambda: sees_everyones_money(current_user),
        }
