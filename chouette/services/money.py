"""Money after play: payments, settle-up, IOUs and balances across nights.

The ledger rows (``LedgerEntry``) are the source of truth for money (each night's ledger,
checked against its tables' logs, is ``chouette.services.ledger``). Payments are recorded per
night.

How an IOU works: an IOU is a payment of method ``iou``. It clears the debt from the night's
settle-up (the night is settled) but no money moved, so it stays a standing debt between the
two players, shown as "carried over" on the next nights' settle-up pages and on the balances
until it is paid off. Paying it off (``pay_iou``) writes, on the IOU's own night and in one
transaction, the reverse IOU (which cancels it) and the cash or transfer payment. So:

- a night's open balance = its ledger + all its payments (IOUs included);
- a pair's standing IOU on a night = IOUs payer->payee minus IOUs payee->payer;
- a player's real balance over all nights = ledger + cash and transfer payments (IOUs do not
  move money) = what their nights still owe them + their standing IOUs.

A payment may also be recorded at a season's settle-up (``Payment.season_id``, no night; see
``chouette.services.seasons``): its currency is the season's, and an IOU made there is carried
over and paid off like a night's.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, or_, select

from chouette.extensions import db
from chouette.ledger import Transfer, settle_up, settle_up_after
from chouette.models import (
    PAYMENT_METHODS,
    LedgerEntry,
    Member,
    Night,
    Payment,
    PaymentVoid,
    Season,
    utcnow,
)
from chouette.services import identity
from chouette.services.base import ServiceError, writing
from chouette.services.ledger import message_amount, night_balances
from chouette.services.night_rows import get_night
from chouette.services.season_checks import (
    check_night_payment,
    check_night_undo,
    locked_season,
    season_payments,
    standing_payment,
)

#: Methods that move money (an IOU does not).
MONEY_METHODS = ("cash", "transfer")


# --------------------------------------------------------------------------- payments, IOUs


@dataclass(frozen=True)
class Iou:
    """A standing IOU: ``payer`` still owes ``payee`` ``cents`` from a night (``night_id``), or
    from a season's settle-up (``season_id``; ``night_id`` is None and ``night_name`` is the
    season's name)."""

    night_id: int | None
    night_name: str
    currency: str
    payer: str
    payee: str
    cents: int
    season_id: int | None = None


def night_payments(night_id: int) -> list[Payment]:
    """The payments recorded for a night and not taken back, oldest first."""
    query = (select(Payment).where(Payment.night_id == night_id, standing_payment())
             .order_by(Payment.at, Payment.id))
    return list(db.session.scalars(query))


def _open_balances(night_id: int, payments: Iterable[Payment]) -> dict[str, int]:
    """The night's ledger after its payments (IOUs included): what still has to change hands."""
    totals = dict(night_balances(night_id))
    for payment in payments:
        totals[payment.payer] = totals.get(payment.payer, 0) + payment.cents
        totals[payment.payee] = totals.get(payment.payee, 0) - payment.cents
    return {name: totals[name] for name in sorted(totals) if totals[name]}


def standing_ious(payments: Iterable[Payment], nights: dict[int, Night],
          seasons: dict[int, Season] | None = None) -> list[Iou]:
    """The standing IOUs of these payments, netted per night (or season) and pair, oldest first
    (a season's IOUs count from its last date)."""
    seasons = seasons or {}
    net: dict[tuple[str, int, str, str], int] = defaultdict(int)
    for payment in payments:
        if payment.method != "iou":
            continue
        if payment.night_id is not None:
            where = ("night", payment.night_id)
        elif payment.season_id is not None:
            where = ("season", payment.season_id)
        else:
            continue
        net[(*where, payment.payer, payment.payee)] += payment.cents
        net[(*where, payment.payee, payment.payer)] -= payment.cents
    result = []
    for (kind, place, payer, payee), cents in sorted(net.items()):
        if cents <= 0:
            continue
        if kind == "night":
            night = nights[place]
            result.append(Iou(place, night.name, night.currency, payer, payee, cents))
        else:
            season = seasons[place]
            result.append(Iou(None, season.name, season.currency, payer, payee, cents, place))
    return sorted(result, key=lambda iou: (*_iou_order(iou, nights, seasons), iou.payer, iou.payee))


def _iou_order(iou: Iou, nights: dict[int, Night], seasons: dict[int, Season]) -> tuple[dt.date, int, int]:
    """Where an IOU sorts: its night's date, or its season's last date (after that day's nights)."""
    if iou.season_id is not None:
        return (seasons[iou.season_id].last_date, 1, iou.season_id)
    assert iou.night_id is not None
    return (nights[iou.night_id].date, 0, iou.night_id)


def outstanding_ious(*, players: Iterable[str] | None = None, before: Night | None = None) -> list[Iou]:
    """Standing IOUs, oldest first; only those involving ``players`` and made before ``before``
    when given (a night's: on nights before it by date, then id; a season's: when the season
    ended before its date)."""
    payments = list(db.session.scalars(select(Payment).where(Payment.method == "iou", standing_payment())))
    nights = {night.id: night for night in db.session.scalars(select(Night))}
    seasons = {season.id: season for season in db.session.scalars(select(Season))}
    ious = standing_ious(payments, nights, seasons)
    if players is not None:
        wanted = set(players)
        ious = [iou for iou in ious if iou.payer in wanted or iou.payee in wanted]
    if before is not None:
        ious = [iou for iou in ious
                if _iou_order(iou, nights, seasons)[0] < before.date
                or (iou.season_id is None and (nights[iou.night_id].date, iou.night_id)  # type: ignore[index]
                    < (before.date, before.id))]
    return ious


def check_payment(payer: str, payee: str, cents: object, method: str, methods: Iterable[str]) -> int:
    """Refuse an unknown method, a non-positive amount, or a payment to oneself."""
    if method not in methods:
        raise ServiceError(_("Unknown payment method: %(method)s.", method=method))
    if isinstance(cents, bool) or not isinstance(cents, int) or cents <= 0:
        raise ServiceError(_("A payment is an amount of more than zero."))
    if not payer or not payee or payer == payee:
        raise ServiceError(_("A payment goes from one player to another."))
    return cents


def _locked_night(night_id: int) -> Night:
    """The night, locked for this transaction: payments are read-check-write, and two clerks
    ticking the same transfer at once must record it once (SQLite already serializes writing
    transactions with BEGIN IMMEDIATE; PostgreSQL needs the row lock)."""
    db.session.execute(select(Night.id).where(Night.id == night_id).with_for_update())
    return get_night(night_id)


def record_payment(night_id: int, *, payer: str, payee: str, cents: int, method: str,
                   actor: Member) -> Payment:
    """Record that ``payer`` paid ``payee`` for a night (cash, transfer, or an IOU).

    The payer must still owe at least ``cents`` on the night and the payee be owed as much.
    Raises NotFound, ServiceError (unknown method, amount not positive, same player, more than
    owed, its season closed or settled at the season). One transaction: nothing is written
    when it raises.
    """
    amount = check_payment(payer, payee, cents, method, PAYMENT_METHODS)
    with writing():
        night = _locked_night(night_id)
        open_balances = _open_balances(night.id, night_payments(night.id))
        owes = -open_balances.get(payer, 0)
        owed = open_balances.get(payee, 0)
        if owes <= 0:
            raise ServiceError(_("%(payer)s owes nothing on this night.", payer=payer))
        if owed <= 0:
            raise ServiceError(_("%(payee)s is owed nothing on this night.", payee=payee))
        if amount > owes:
            raise ServiceError(_("%(payer)s owes only %(amount)s on this night.",
                                 payer=payer, amount=message_amount(owes, night.currency)))
        if amount > owed:
            raise ServiceError(_("%(payee)s is owed only %(amount)s on this night.",
                                 payee=payee, amount=message_amount(owed, night.currency)))

        check_night_payment(night)
        payment = Payment(night_id=night.id, payer=payer, payee=payee, cents=amount,
                          method=method, recorded_by_id=actor.id)
        db.session.add(identity.with_member_ids(payment))
    return payment


def pay_iou(night_id: int | None, *, payer: str, payee: str, cents: int, method: str,
            actor: Member, season_id: int | None = None) -> Payment:
    """Record that ``payer`` paid off (some of) their IOU to ``payee`` from night ``night_id``
    (or, with ``night_id`` None, from the settle-up of season ``season_id``).

    Writes the reverse IOU (cancelling that much of it) and the cash or transfer payment,
    both on the IOU's night (or season), in one transaction; returns the payment. Together
    they change no balance, so a closed season's IOUs stay payable.
    Raises NotFound, ServiceError (method not cash or transfer, amount not positive, same
    player, no such IOU, more than the IOU).
    """
    amount = check_payment(payer, payee, cents, method, MONEY_METHODS)
    with writing():
        if night_id is None:

            season = locked_season(season_id or 0)
            place, currency = {"season_id": season.id}, season.currency
            ious = standing_ious(season_payments(season.id), {}, {season.id: season})
            nothing = _("%(payer)s has no IOU to %(payee)s from this season.", payer=payer, payee=payee)
        else:
            night = _locked_night(night_id)
            place, currency = {"night_id": night.id}, night.currency
            ious = standing_ious(night_payments(night.id), {night.id: night})
            nothing = _("%(payer)s has no IOU to %(payee)s from this night.", payer=payer, payee=payee)
        standing = sum(iou.cents for iou in ious if iou.payer == payer and iou.payee == payee)
        if standing <= 0:
            raise ServiceError(nothing)
        if amount > standing:
            raise ServiceError(_("The IOU is only %(amount)s.", amount=message_amount(standing, currency)))
        at = utcnow()  # one moment for both rows: one undo takes both back
        db.session.add(identity.with_member_ids(Payment(**place, payer=payee, payee=payer, cents=amount,
                                                        method="iou", recorded_by_id=actor.id, at=at)))
        payment = Payment(**place, payer=payer, payee=payee, cents=amount,
                          method=method, recorded_by_id=actor.id, at=at)
        db.session.add(identity.with_member_ids(payment))
    return payment


def undo_last_payment(night_id: int, *, actor: Member) -> list[Payment]:
    """Take back the night's latest recording (a tick, or an IOU paid off: its two rows), made
    by mistake; returns what was taken back. Nothing is deleted: a PaymentVoid row cancels
    each payment. Raises NotFound, ServiceError (nothing to undo; its season closed, unless
    it was an IOU paid off, which changes no balance)."""

    with writing():
        night = _locked_night(night_id)
        return void_latest(Payment.night_id == night.id, _("There is no payment to undo on this night."),
                           lambda voided: check_night_undo(night, voided), actor)


def void_latest(scope: Any, nothing: str, check: Callable[[list[Payment]], None],
                actor: Member) -> list[Payment]:
    """Take back the latest recording among the standing payments in ``scope`` (a tick, or the
    two rows of an IOU paid off: a recording's rows share their time), once ``check`` let it:
    a PaymentVoid row each. Call it inside the transaction that locked the night or season.
    Raises ServiceError (``nothing`` when there is nothing to take back, or ``check``'s)."""
    latest = db.session.scalar(select(func.max(Payment.at)).where(scope, standing_payment()))
    if latest is None:
        raise ServiceError(nothing)
    voided = list(db.session.scalars(select(Payment).where(scope, Payment.at == latest, standing_payment())))
    check(voided)
    db.session.add_all(PaymentVoid(payment_id=p.id, voided_by_id=actor.id) for p in voided)
    return voided


# --------------------------------------------------------------------------- settle-up


@dataclass(frozen=True)
class SettleUp:
    """What settles a night: its open balances, the fewest transfers, the payments made,
    an early leaver's own transfers, and the IOUs carried over from earlier nights."""

    night: Night
    balances: dict[str, int]  # the night's ledger
    open_balances: dict[str, int]  # after the payments recorded
    transfers: list[Transfer]
    payments: list[Payment]
    carried: list[Iou]
    leaver: str | None = None
    leaver_transfers: list[Transfer] = field(default_factory=list)

    @property
    def is_settled(self) -> bool:
        """True once every balance of the night has been paid (or turned into an IOU)."""
        return not self.open_balances

    @property
    def players(self) -> list[str]:
        """Everyone with money on the night, by name."""
        return sorted(self.balances)


def night_settle_up(night_id: int, leaver: str | None = None) -> SettleUp:
    """The settle-up of a night, and of one early ``leaver`` alone if named.

    The plan holds (docs/settle-up.md): the fewest transfers for the night's ledger, each
    payment since applied to it, so a payment changes only the transfers it touches; the
    leaver's transfers are their own in that same plan.
    Raises NotFound, ServiceError (the leaver has nothing to settle).
    """
    night = get_night(night_id)
    payments = night_payments(night.id)
    balances = night_balances(night.id)
    open_balances = _open_balances(night.id, payments)
    transfers = settle_up_after(balances, plan_moves(payments))
    leaver_transfers: list[Transfer] = []
    if leaver is not None:
        if leaver not in open_balances:
            raise ServiceError(_("%(player)s has nothing left to settle on this night.", player=leaver))
        leaver_transfers = [t for t in transfers if leaver in (t.payer, t.payee)]
    carried = outstanding_ious(players=set(balances) | {p.payer for p in payments}, before=night)
    return SettleUp(night, balances, open_balances, transfers, payments, carried, leaver,
                    leaver_transfers)


def plan_moves(payments: Iterable[Payment]) -> list[Transfer]:
    """The payments as the plan takes them, oldest first; a recording that changes no balance
    (an IOU paid off: its reverse IOU and the cash share their time) is left out, so it
    changes no transfer."""
    recordings: dict[dt.datetime, list[Payment]] = defaultdict(list)
    for payment in payments:
        recordings[payment.at].append(payment)
    moves: list[Transfer] = []
    for rows in recordings.values():
        net: dict[str, int] = defaultdict(int)
        for payment in rows:
            net[payment.payer] += payment.cents
            net[payment.payee] -= payment.cents
        if any(net.values()):
            moves.extend(Transfer(p.payer, p.payee, p.cents) for p in rows)
    return moves


# --------------------------------------------------------------------------- balances across nights


@dataclass(frozen=True)
class PlayerBalance:
    """One player's money over all nights in one currency (positive: they are owed)."""

    player: str
    nights: dict[int, int]  # night id -> the night's ledger
    paid: int  # cash and transfers: paid out minus received
    iou: int  # standing IOUs: owed to them minus owed by them
    balance: int  # ledger + paid: what they are still owed overall (IOUs included)

    @property
    def won(self) -> int:
        """The player's ledger over every night."""
        return sum(self.nights.values())


@dataclass
class _Tally:
    """A player's running sums while the balances are added up."""

    nights: dict[int, int] = field(default_factory=dict)
    paid: int = 0
    iou: int = 0


@dataclass(frozen=True)
class CurrencyBalances:
    """Everyone's balances in one currency, the nights as columns, and the transfers that
    would settle everything at once (the cumulative settle-up)."""

    currency: str
    nights: list[Night]
    players: list[PlayerBalance]
    transfers: list[Transfer]
    ious: list[Iou]


def club_balances(player: str | None = None) -> list[CurrencyBalances]:
    """Every player's running balance over all nights, payments (on the nights and at the
    seasons) and IOUs included, per currency (only ``player``'s row and IOUs when named)."""
    nights = {night.id: night for night in db.session.scalars(select(Night))}
    ledger = db.session.execute(  # through the night: an import's staged rows have none yet
        select(LedgerEntry.night_id, LedgerEntry.player, func.sum(LedgerEntry.cents))
        .join(Night, Night.id == LedgerEntry.night_id)
        .group_by(LedgerEntry.night_id, LedgerEntry.player)
    ).all()
    seasons = {season.id: season for season in db.session.scalars(select(Season))}
    payments = list(db.session.scalars(select(Payment).where(
        or_(Payment.night_id.is_not(None), Payment.season_id.is_not(None)), standing_payment())))
    ious = standing_ious(payments, nights, seasons)
    per_currency: dict[str, dict[str, _Tally]] = defaultdict(dict)
    used: dict[str, set[int]] = defaultdict(set)

    def tally(currency: str, name: str) -> _Tally:
        return per_currency[currency].setdefault(name, _Tally())

    for night_id, name, cents in ledger:
        currency = nights[night_id].currency
        if cents:
            tally(currency, name).nights[night_id] = int(cents)
            used[currency].add(night_id)
    for payment in payments:
        if payment.method in MONEY_METHODS:
            currency = _payment_currency(payment, nights, seasons)
            tally(currency, payment.payer).paid += payment.cents
            tally(currency, payment.payee).paid -= payment.cents
    for iou in ious:
        tally(iou.currency, iou.payer).iou -= iou.cents
        tally(iou.currency, iou.payee).iou += iou.cents
    result = []
    for currency in sorted(per_currency):
        rows = [
            PlayerBalance(name, dict(t.nights), t.paid, t.iou, sum(t.nights.values()) + t.paid)
            for name, t in per_currency[currency].items()
        ]
        rows.sort(key=lambda line: (-line.balance, line.player))
        totals = {line.player: line.balance for line in rows if line.balance}
        transfers = settle_up(totals)
        columns = sorted((nights[i] for i in used[currency]), key=lambda n: (n.date, n.id))
        currency_ious = [iou for iou in ious if iou.currency == currency]
        if player is not None:
            rows = [line for line in rows if line.player == player]
            transfers = [t for t in transfers if player in (t.payer, t.payee)]
            currency_ious = [iou for iou in currency_ious if player in (iou.payer, iou.payee)]
            if not rows:
                continue
            columns = [night for night in columns if night.id in rows[0].nights]
        result.append(CurrencyBalances(currency, columns, rows, transfers, currency_ious))
    return result



def _payment_currency(payment: Payment, nights: dict[int, Night], seasons: dict[int, Season]) -> str:
    """A payment's currency: its night's, or its season's."""
    if payment.night_id is not None:
        return nights[payment.night_id].currency
    return seasons[payment.season_id].currency  # type: ignore[index]
