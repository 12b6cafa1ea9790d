"""Seasons: the nights of one currency between two dates, settled and closed together.

A season's nights are not stored: they are the nights whose date lies in its range and whose
currency is its currency (two seasons of one currency never overlap, so a night belongs to one
season at most). A season's money, per player:

- its result = the ledger of its nights;
- its open balance = that result + every payment recorded on its nights and at the season
  (IOUs included, as on a night: an IOU clears the balance and stays a standing debt);
- the season settle-up = the fewest transfers that clear every open balance, each ticked as a
  payment *at the season* (``Payment.season_id``, no night).

So a season's open balances are the sum of its nights' open balances plus its own payments. A
season is closed once all its nights are closed and nothing is open; then its payments (at the
season and on its nights) are final. Its IOUs stay payable (a payoff writes the reverse IOU and
the payment, which leaves every balance as it was).
"""

from __future__ import annotations

import datetime as dt
import io
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import func, or_, select, text

from chouette.extensions import db
from chouette.ledger import Transfer, cents_to_decimal, settle_up, settle_up_after
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
from chouette.services.csv_cells import safe_writer
from chouette.services.ledger import message_amount
from chouette.services.money import (
    Iou,
    check_payment,
    outstanding_ious,
    standing_ious,
    void_latest,
)
from chouette.services.night_rows import CURRENCY_RE
from chouette.services.season_checks import (
    balances_moved,
    check_undo,
    get_season,
    locked_season,
    refuse_closed,
    season_payments,
    standing_payment,
)

# --------------------------------------------------------------------------- seasons


def list_seasons() -> list[Season]:
    """Every season, the most recent first."""
    return list(db.session.scalars(select(Season).order_by(Season.first_date.desc(), Season.id.desc())))


def season_nights(season: Season) -> list[Night]:
    """The season's nights, the earliest first."""
    query = (select(Night).where(Night.currency == season.currency, Night.date >= season.first_date,
                                 Night.date <= season.last_date)
             .order_by(Night.date, Night.id))
    return list(db.session.scalars(query))


def usual_currency() -> str:
    """The club's usual currency: the one most of its nights used (before the first night, the
    club's ``CLUB_CURRENCY``)."""
    counts = Counter(dict(db.session.execute(select(Night.currency, func.count(Night.id))
                                             .group_by(Night.currency)).all()))
    return counts.most_common(1)[0][0] if counts else current_app.config["CLUB_CURRENCY"]


def create_season(*, name: str, first: dt.date, last: dt.date, currency: str, actor: Member) -> Season:
    """Create a season over ``first`` .. ``last`` in ``currency``.

    Raises ServiceError: an empty name, a malformed currency code, the last date before the
    first, or a season of the same currency already covering some of these dates.
    """
    from chouette.services.identity import refuse_unfit_name

    refuse_unfit_name(name)
    name = name.strip()
    currency = currency.strip().upper()
    if not name or len(name) > 80:
        raise ServiceError(_("A season needs a name (at most 80 characters)."))
    if not CURRENCY_RE.match(currency):
        raise ServiceError(_("A currency is a three-letter code such as EUR."))
    if last < first:
        raise ServiceError(_("A season's last date cannot come before its first date."))
    with writing():
        if db.session.get_bind().dialect.name == "postgresql":
            # Two organizers creating overlapping seasons at once: the second waits, then sees
            # the first (SQLite already serializes writing transactions).
            db.session.execute(text("LOCK TABLE season IN SHARE ROW EXCLUSIVE MODE"))
        overlapping = db.session.scalars(
            select(Season).where(Season.currency == currency, Season.first_date <= last,
                                 Season.last_date >= first).order_by(Season.first_date)).first()
        if overlapping is not None:
            raise ServiceError(_(
                "The season %(season)s (%(first)s to %(last)s) already covers some of these dates "
                "in %(currency)s: two seasons of one currency may not overlap.",
                season=overlapping.name, first=overlapping.first_date.isoformat(),
                last=overlapping.last_date.isoformat(), currency=currency))
        season = Season(name=name, first_date=first, last_date=last, currency=currency,
                        created_by_id=actor.id)
        db.session.add(season)
    return season


# --------------------------------------------------------------------------- the season's money


@dataclass(frozen=True)
class SeasonStanding:
    """One player's season: their result night by night, what was paid, what is still open."""

    player: str
    nights: dict[int, int]  # night id -> their ledger that night
    at_nights: int  # paid or promised on the season's nights (IOUs included): out minus in
    at_season: int  # paid or promised at the season's settle-up
    open: int  # result + at_nights + at_season: what they are still owed (negative: owes)

    @property
    def result(self) -> int:
        """The player's ledger over the season's nights."""
        return sum(self.nights.values())


@dataclass(frozen=True)
class SeasonSettleUp:
    """A season: its nights, everyone's standing, the payments made, the standing IOUs, and the
    fewest transfers that clear every open balance."""

    season: Season
    nights: list[Night]
    standings: list[SeasonStanding]
    transfers: list[Transfer]
    night_payments: list[Payment]  # on its nights, oldest first
    payments: list[Payment]  # at the season, oldest first
    ious: list[Iou]  # standing IOUs made on its nights or at the season
    carried: list[Iou]  # standing IOUs from before the season

    @property
    def open_balances(self) -> dict[str, int]:
        """Each player's open balance (non-zero only), by name."""
        return {line.player: line.open for line in sorted(self.standings, key=lambda line: line.player)
                if line.open}

    @property
    def is_settled(self) -> bool:
        """True when nothing is open over the season."""
        return not self.open_balances

    @property
    def can_undo(self) -> bool:
        """True when the latest recording at the season may be taken back: any, while the
        season is open; once closed, only one that changes no balance (an IOU paid off)."""
        if not self.payments:
            return False
        if self.season.is_open:
            return True
        latest = max(payment.at for payment in self.payments)
        return not any(balances_moved(p for p in self.payments if p.at == latest).values())

    @property
    def nights_by_id(self) -> dict[int, Night]:
        """Its nights by id."""
        return {night.id: night for night in self.nights}

    @property
    def open_nights(self) -> list[Night]:
        """Its nights not closed yet."""
        return [night for night in self.nights if night.is_open]


def _nights_payments(night_ids: list[int]) -> list[Payment]:
    """The standing payments recorded on these nights, oldest first."""
    if not night_ids:
        return []
    query = (select(Payment).where(Payment.night_id.in_(night_ids), standing_payment())
             .order_by(Payment.at, Payment.id))
    return list(db.session.scalars(query))


def _standings(nights: list[Night], night_payments: Iterable[Payment],
               payments: Iterable[Payment]) -> list[SeasonStanding]:
    """Every player's standing: ledger per night, payments on the nights and at the season."""
    per_night: dict[str, dict[int, int]] = defaultdict(dict)
    if nights:
        query = (select(LedgerEntry.night_id, LedgerEntry.player, func.sum(LedgerEntry.cents))
                 .where(LedgerEntry.night_id.in_([night.id for night in nights]))
                 .group_by(LedgerEntry.night_id, LedgerEntry.player))
        for night_id, player, cents in db.session.execute(query):
            if cents:
                per_night[player][night_id] = int(cents)
    at_nights: dict[str, int] = defaultdict(int)
    at_season: dict[str, int] = defaultdict(int)
    for sums, rows in ((at_nights, night_payments), (at_season, payments)):
        for payment in rows:
            sums[payment.payer] += payment.cents
            sums[payment.payee] -= payment.cents
    players = set(per_night) | set(at_nights) | set(at_season)
    lines = []
    for player in players:
        result = sum(per_night[player].values())
        open_cents = result + at_nights[player] + at_season[player]
        lines.append(SeasonStanding(player, dict(per_night[player]), at_nights[player],
                                    at_season[player], open_cents))
    return sorted(lines, key=lambda line: (-line.result, line.player))


def _open_balances(season: Season) -> dict[str, int]:
    """The season's open balances (non-zero only), read now."""
    nights = season_nights(season)
    standings = _standings(nights, _nights_payments([night.id for night in nights]),
                           season_payments(season.id))
    return {line.player: line.open for line in standings if line.open}


def season_settle_up(season_id: int) -> SeasonSettleUp:
    """The season's page: nights, standings, payments, IOUs, and its settle-up (a plan that
    holds: made from what was open before the season's own payments, each applied to it; see
    docs/settle-up.md). Raises NotFound."""
    from chouette.services.money import plan_moves

    season = get_season(season_id)
    nights = season_nights(season)
    night_ids = [night.id for night in nights]
    night_payments = _nights_payments(night_ids)
    payments = season_payments(season.id)
    standings = _standings(nights, night_payments, payments)
    before = {line.player: line.result + line.at_nights for line in standings}
    transfers = settle_up_after({name: cents for name, cents in before.items() if cents}, plan_moves(payments))
    ious = standing_ious([p for p in night_payments + payments if p.method == "iou"],
                 {night.id: night for night in nights}, {season.id: season})
    players = {line.player for line in standings}
    carried = [iou for iou in outstanding_ious(players=players)
               if iou.season_id != season.id and iou.night_id not in night_ids
               and _made_on(iou) < season.first_date]
    return SeasonSettleUp(season, nights, standings, transfers, night_payments, payments, ious, carried)


def _made_on(iou: Iou) -> dt.date:
    """The date an IOU counts from: its night's, or its season's last date."""
    if iou.season_id is not None:
        return get_season(iou.season_id).last_date
    return db.session.get(Night, iou.night_id).date  # type: ignore[union-attr]


def record_season_payment(season_id: int, *, payer: str, payee: str, cents: int, method: str,
                          actor: Member) -> Payment:
    """Record that ``payer`` paid ``payee`` at the season's settle-up (cash, transfer or IOU).

    The payer must still owe at least ``cents`` over the season and the payee be owed as much.
    Raises NotFound, ServiceError (closed season, unknown method, amount not positive, same
    player, more than owed). One transaction: nothing is written when it raises.
    """
    amount = check_payment(payer, payee, cents, method, PAYMENT_METHODS)
    with writing():
        season = locked_season(season_id)
        refuse_closed(season)
        _check_owed(season, _open_balances(season), payer, payee, amount)
        payment = Payment(season_id=season.id, payer=payer, payee=payee, cents=amount,
                          method=method, recorded_by_id=actor.id)
        db.session.add(identity.with_member_ids(payment))
    return payment


def _check_owed(season: Season, open_balances: dict[str, int], payer: str, payee: str,
                amount: int) -> None:
    """Refuse a payment larger than what the payer owes or the payee is owed over the season."""
    owes = -open_balances.get(payer, 0)
    owed = open_balances.get(payee, 0)
    if owes <= 0:
        raise ServiceError(_("%(payer)s owes nothing over the season %(season)s.",
                             payer=payer, season=season.name))
    if owed <= 0:
        raise ServiceError(_("%(payee)s is owed nothing over the season %(season)s.",
                             payee=payee, season=season.name))
    if amount > owes:
        raise ServiceError(_("%(payer)s owes only %(amount)s over the season %(season)s.",
                             payer=payer, season=season.name, amount=message_amount(owes, season.currency)))
    if amount > owed:
        raise ServiceError(_("%(payee)s is owed only %(amount)s over the season %(season)s.",
                             payee=payee, season=season.name, amount=message_amount(owed, season.currency)))


def undo_last_season_payment(season_id: int, *, actor: Member) -> list[Payment]:
    """Take back the season's latest recording (a tick, or an IOU paid off: its two rows), made
    by mistake; returns what was taken back. A PaymentVoid row cancels each payment.
    Raises NotFound, ServiceError (nothing to undo, the season closed)."""
    with writing():
        season = locked_season(season_id)
        return void_latest(Payment.season_id == season.id, _("There is no payment to undo at this season."),
                           lambda voided: check_undo(season, voided), actor)


def close_season(season_id: int, *, actor: Member) -> Season:
    """Close the season: its standings and payments become final.

    Raises NotFound, ServiceError (already closed, a night still open, money still owed: the
    message says who owes what).
    """
    with writing():
        season = locked_season(season_id)
        if not season.is_open:
            raise ServiceError(_("This season is already closed."))
        still_open = [night for night in season_nights(season) if night.is_open]
        if still_open:
            raise ServiceError(_(
                "The season cannot be closed while one of its nights is open: %(nights)s.",
                nights=", ".join(f"{night.name} ({night.date.isoformat()})" for night in still_open)))
        open_balances = _open_balances(season)
        if open_balances:
            transfers = settle_up(open_balances)
            owed = "; ".join(_("%(payer)s owes %(payee)s %(amount)s", payer=t.payer, payee=t.payee,
                               amount=message_amount(t.cents, season.currency)) for t in transfers)
            raise ServiceError(_("The season cannot be closed while money is still owed: %(owed)s.",
                                 owed=owed))
        season.closed_at = utcnow()
        season.closed_by_id = actor.id
    return season


# --------------------------------------------------------------------------- exports


def season_filename(season: Season, suffix: str) -> str:
    """A safe download name: ``season-2026-09-01-3-<suffix>``."""
    return f"season-{season.first_date.isoformat()}-{season.id}-{suffix}"


def season_standings_csv(season_id: int) -> str:
    """The season's standings as CSV: one row per player per night, and their season's totals."""
    plan = season_settle_up(season_id)
    season = plan.season
    out = io.StringIO()
    writer = safe_writer(out)
    writer.writerow(["season", "first_date", "last_date", "currency", "player", "night", "date",
                     "result", "paid_at_nights", "paid_at_season", "open"])
    head = [season.name, season.first_date.isoformat(), season.last_date.isoformat(), season.currency]
    for line in plan.standings:
        for night in plan.nights:
            if night.id in line.nights:
                writer.writerow([*head, line.player, night.name, night.date.isoformat(),
                                 cents_to_decimal(line.nights[night.id]), "", "", ""])
        writer.writerow([*head, line.player, "", "", cents_to_decimal(line.result),
                         cents_to_decimal(line.at_nights), cents_to_decimal(line.at_season),
                         cents_to_decimal(line.open)])
    return out.getvalue()


def season_payments_csv(season_id: int) -> str:
    """Every payment of the season (on its nights and at the season) as CSV, those taken back
    included and marked, oldest first."""
    season = get_season(season_id)
    nights = {night.id: night for night in season_nights(season)}
    voided = {row.payment_id: row for row in db.session.scalars(select(PaymentVoid))}
    members = {member.id: member.name for member in db.session.scalars(select(Member))}
    query = (select(Payment).where(or_(Payment.season_id == season.id,
                                       Payment.night_id.in_(list(nights) or [-1])))
             .order_by(Payment.at, Payment.id))
    out = io.StringIO()
    writer = safe_writer(out)
    writer.writerow(["season", "currency", "at", "night", "date", "payer", "payee", "amount",
                     "method", "recorded_by", "taken_back_at"])
    for payment in db.session.scalars(query):
        night = nights.get(payment.night_id) if payment.night_id is not None else None
        void = voided.get(payment.id)
        writer.writerow([
            season.name, season.currency, payment.at.isoformat(timespec="seconds"),
            night.name if night else "", night.date.isoformat() if night else "",
            payment.payer, payment.payee, cents_to_decimal(payment.cents), payment.method,
            members.get(payment.recorded_by_id or 0, ""),
            void.at.isoformat(timespec="seconds") if void else "",
        ])
    return out.getvalue()
