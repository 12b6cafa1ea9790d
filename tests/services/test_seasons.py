"""Seasons on a real database: a season's nights, its standings (the sum of its nights' open
balances), its settle-up ticked at the season, IOUs made there carried to later nights and paid
off, closing refused while a night is open or money is owed, and payments refused once closed."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.ledger import Transfer
from chouette.models import LedgerEntry, Member, Payment, Season
from chouette.services import base, money, nights, season_checks, seasons
from tests.concurrency import at_once
from tests.factories import gen_member, gen_night, gen_table
from tests.services.test_money_services import play_night

OCTOBER = dt.date(2026, 10, 1)
DECEMBER = dt.date(2026, 12, 31)


@pytest.fixture
def organizer(app):
    with app.app_context():
        yield gen_member("organizer", name="Olga")


def night_with(balances: dict[str, int], name: str, on: dt.date, currency: str = "EUR",
               closed: bool = True) -> int:
    """A night whose ledger is exactly ``balances`` (one game), closed by default."""
    night = gen_night(name=name, date=on, currency=currency)
    table = gen_table(night)
    db.session.add_all(LedgerEntry(night_id=night.id, table_id=table.id, game=1, seq=1,
                                   player=player, points=cents // 100, cents=cents)
                       for player, cents in balances.items())
    if closed:
        nights.close_night(night.id, actor=db.session.get(Member, night.opened_by_id or 1)
                             or gen_member("organizer"))
    db.session.commit()
    return night.id


def autumn(organizer, **overrides) -> Season:
    values = {"name": "Autumn", "first": OCTOBER, "last": DECEMBER, "currency": "EUR", "actor": organizer}
    values.update(overrides)
    return seasons.create_season(**values)


def pay_all(season_id: int, organizer, method: str = "cash") -> None:
    for transfer in seasons.season_settle_up(season_id).transfers:
        seasons.record_season_payment(season_id, payer=transfer.payer, payee=transfer.payee,
                                       cents=transfer.cents, method=method, actor=organizer)


def test_a_seasons_nights_are_those_of_its_currency_within_its_dates(app, organizer):
    inside = night_with({"Ann": 100, "Bob": -100}, "Inside", dt.date(2026, 10, 2))
    night_with({"Ann": 100, "Bob": -100}, "Before", dt.date(2026, 9, 30))
    night_with({"Ann": 100, "Bob": -100}, "Dollars", dt.date(2026, 10, 3), currency="USD")
    last_day = night_with({"Ann": 100, "Bob": -100}, "Last day", DECEMBER)
    season = autumn(organizer)
    assert [night.id for night in seasons.season_nights(season)] == [inside, last_day]
    assert season_checks.season_of(db.session.get(money.Night, inside)).id == season.id


def test_season_balances_equal_the_sum_of_its_nights_open_balances(app, organizer):
    first = night_with({"Ann": 700, "Bob": -400, "Cy": -300}, "First", dt.date(2026, 10, 2))
    second = night_with({"Ann": -200, "Bob": 500, "Dee": -300}, "Second", dt.date(2026, 10, 9))
    money.record_payment(first, payer="Bob", payee="Ann", cents=400, method="cash", actor=organizer)
    money.record_payment(second, payer="Dee", payee="Bob", cents=100, method="iou", actor=organizer)
    season = autumn(organizer)
    plan = seasons.season_settle_up(season.id)
    expected: dict[str, int] = {}
    for night_id in (first, second):
        for name, cents in money.night_settle_up(night_id).open_balances.items():
            expected[name] = expected.get(name, 0) + cents
    assert plan.open_balances == {name: cents for name, cents in sorted(expected.items()) if cents}
    assert plan.open_balances == {"Ann": 100, "Bob": 400, "Cy": -300, "Dee": -200}
    rows = {line.player: line for line in plan.standings}
    assert rows["Ann"].nights == {first: 700, second: -200} and rows["Ann"].result == 500
    assert (rows["Ann"].at_nights, rows["Ann"].at_season) == (-400, 0)
    assert sum(line.open for line in plan.standings) == 0
    assert [(iou.payer, iou.payee, iou.cents) for iou in plan.ious] == [("Dee", "Bob", 100)]


def test_ticking_every_season_transfer_leaves_every_balance_at_zero(app, organizer):
    night_with({"Ann": 700, "Bob": -400, "Cy": -300}, "First", dt.date(2026, 10, 2))
    night_with({"Ann": -200, "Bob": 500, "Dee": -300}, "Second", dt.date(2026, 10, 9))
    season = autumn(organizer)
    plan = seasons.season_settle_up(season.id)
    assert len(plan.transfers) <= 3
    pay_all(season.id, organizer, "transfer")
    after = seasons.season_settle_up(season.id)
    assert after.is_settled and after.transfers == [] and all(line.open == 0 for line in after.standings)
    assert all(p.night_id is None and p.season_id == season.id for p in after.payments)
    (eur,) = money.club_balances()
    assert all(line.balance == 0 for line in eur.players), eur.players
    assert {line.player: line.paid for line in eur.players} == {
        line.player: line.at_season for line in after.standings}


def test_a_season_over_a_night_of_commands(app, organizer):
    ids = play_night(organizer, gen_night(name="Friday", date=dt.date(2026, 11, 20)))
    nights.close_night(ids["night"], actor=organizer)
    season = autumn(organizer)
    plan = seasons.season_settle_up(season.id)
    assert plan.open_balances == money.night_settle_up(ids["night"]).open_balances
    pay_all(season.id, organizer)
    seasons.close_season(season.id, actor=organizer)
    assert not season_checks.get_season(season.id).is_open


def test_overlapping_seasons_of_one_currency_are_refused(app, organizer):
    autumn(organizer)
    with pytest.raises(base.ServiceError, match="already covers some of these dates") as refused:
        autumn(organizer, name="Winter", first=dt.date(2026, 12, 31), last=dt.date(2027, 3, 31))
    assert str(refused.value) == ("The season Autumn (2026-10-01 to 2026-12-31) already covers some of "
                                  "these dates in EUR: two seasons of one currency may not overlap.")
    # Another currency, or the next day on, is fine.
    autumn(organizer, name="Autumn (USD)", currency="usd")
    autumn(organizer, name="Winter", first=dt.date(2027, 1, 1), last=dt.date(2027, 3, 31))
    assert db.session.scalar(select(func.count(Season.id))) == 3


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"name": "  "}, "A season needs a name (at most 80 characters)."),
        ({"name": "x" * 81}, "A season needs a name (at most 80 characters)."),
        ({"currency": "euro"}, "A currency is a three-letter code such as EUR."),
        ({"first": DECEMBER, "last": OCTOBER}, "A season's last date cannot come before its first date."),
    ],
)
def test_a_malformed_season_is_refused_and_nothing_is_written(app, organizer, overrides, message):
    with pytest.raises(base.ServiceError, match=re.escape(message)) as refused:
        autumn(organizer, **overrides)
    assert str(refused.value) == message
    assert db.session.scalar(select(func.count(Season.id))) == 0


def test_closing_is_refused_while_a_night_is_open(app, organizer):
    night_with({"Ann": 100, "Bob": -100}, "Friday", dt.date(2026, 10, 2), closed=False)
    season = autumn(organizer)
    with pytest.raises(base.ServiceError, match="while one of its nights is open") as refused:
        seasons.close_season(season.id, actor=organizer)
    assert str(refused.value) == ("The season cannot be closed while one of its nights is open: "
                                  "Friday (2026-10-02).")
    assert season_checks.get_season(season.id).is_open


def test_closing_is_refused_while_money_is_owed_and_says_who_owes_what(app, organizer):
    night_with({"Ann": 700, "Bob": -400, "Cy": -300}, "Friday", dt.date(2026, 10, 2))
    season = autumn(organizer)
    with pytest.raises(base.ServiceError, match="while money is still owed") as refused:
        seasons.close_season(season.id, actor=organizer)
    assert str(refused.value) == ("The season cannot be closed while money is still owed: "
                                  "Bob owes Ann €4.00; Cy owes Ann €3.00.")
    assert season_checks.get_season(season.id).is_open


def test_a_closed_season_refuses_payments_at_the_season_and_on_its_nights(app, organizer):
    night_id = night_with({"Ann": 700, "Bob": -400, "Cy": -300}, "Friday", dt.date(2026, 10, 2))
    season = autumn(organizer)
    money.record_payment(night_id, payer="Bob", payee="Ann", cents=400, method="cash", actor=organizer)
    seasons.record_season_payment(season.id, payer="Cy", payee="Ann", cents=300, method="cash",
                                   actor=organizer)
    closed = seasons.close_season(season.id, actor=organizer)
    assert closed.closed_by_id == organizer.id and closed.closed_at is not None
    before = db.session.scalar(select(func.count(Payment.id)))
    refusal = "The season Autumn is closed: its payments are final."
    with pytest.raises(base.ServiceError, match=refusal):
        seasons.record_season_payment(season.id, payer="Cy", payee="Ann", cents=1, method="cash",
                                       actor=organizer)
    with pytest.raises(base.ServiceError, match=refusal):
        seasons.undo_last_season_payment(season.id, actor=organizer)
    with pytest.raises(base.ServiceError, match=refusal):
        money.undo_last_payment(night_id, actor=organizer)
    with pytest.raises(base.ServiceError, match=r"This season is already closed."):
        seasons.close_season(season.id, actor=organizer)
    with pytest.raises(base.ServiceError, match="The season Autumn is closed: no night can be added"):
        nights.open_night(name="Late", on=dt.date(2026, 11, 1), currency="EUR", actor=organizer)
    assert db.session.scalar(select(func.count(Payment.id))) == before
    # Still readable: the final standings.
    plan = seasons.season_settle_up(season.id)
    assert plan.is_settled and {line.player: line.result for line in plan.standings} == {
        "Ann": 700, "Bob": -400, "Cy": -300}


def test_a_season_with_payments_of_its_own_takes_its_nights_payments(app, organizer):
    night_id = night_with({"Ann": 400, "Bob": -400}, "Friday", dt.date(2026, 10, 2))
    season = autumn(organizer)
    seasons.record_season_payment(season.id, payer="Bob", payee="Ann", cents=400, method="cash",
                                   actor=organizer)
    with pytest.raises(base.ServiceError, match="is being settled as a whole") as refused:
        money.record_payment(night_id, payer="Bob", payee="Ann", cents=400, method="cash", actor=organizer)
    assert str(refused.value) == ("The season Autumn is being settled as a whole: record this payment "
                                  "on the season's page.")
    assert db.session.scalar(select(func.count(Payment.id))) == 1
    # Taken back, the nights are settled night by night again.
    seasons.undo_last_season_payment(season.id, actor=organizer)
    money.record_payment(night_id, payer="Bob", payee="Ann", cents=400, method="cash", actor=organizer)
    assert seasons.season_settle_up(season.id).is_settled


@pytest.mark.parametrize(
    ("payer", "payee", "cents", "method", "message"),
    [
        ("Bob", "Ann", 401, "cash", "Bob owes only €4.00 over the season Autumn."),
        ("Ann", "Bob", 100, "cash", "Ann owes nothing over the season Autumn."),
        ("Bob", "Cy", 100, "cash", "Cy is owed nothing over the season Autumn."),
        ("Bob", "Ann", 100, "cheque", "Unknown payment method: cheque."),
        ("Bob", "Ann", 0, "cash", "A payment is an amount of more than zero."),
        ("Bob", "Bob", 100, "cash", "A payment goes from one player to another."),
    ],
)
def test_refused_season_payments_write_nothing_and_say_why(app, organizer, payer, payee, cents, method, message):
    night_with({"Ann": 400, "Bob": -400}, "Friday", dt.date(2026, 10, 2))
    season = autumn(organizer)
    with pytest.raises(base.ServiceError, match=re.escape(message)) as refused:
        seasons.record_season_payment(season.id, payer=payer, payee=payee, cents=cents, method=method,
                                       actor=organizer)
    assert str(refused.value) == message
    assert db.session.scalar(select(func.count(Payment.id))) == 0


def test_a_payment_at_a_missing_season_is_not_found(app, organizer):
    with pytest.raises(base.NotFound, match="No such season"):
        seasons.record_season_payment(99, payer="Bob", payee="Ann", cents=1, method="cash", actor=organizer)


def test_an_iou_at_the_season_is_carried_to_a_later_night_and_paid_off(app, organizer):
    night_with({"Ann": 400, "Bob": -400}, "Friday", dt.date(2026, 10, 2))
    season = autumn(organizer)
    seasons.record_season_payment(season.id, payer="Bob", payee="Ann", cents=400, method="iou",
                                   actor=organizer)
    seasons.close_season(season.id, actor=organizer)  # an IOU clears the balance
    assert not seasons.season_settle_up(season.id).can_undo  # taking the IOU back would reopen it
    later = night_with({"Bob": 100, "Cy": -100}, "January", dt.date(2027, 1, 8))
    (iou,) = money.night_settle_up(later).carried
    assert (iou.payer, iou.payee, iou.cents, iou.season_id, iou.night_id, iou.night_name) == (
        "Bob", "Ann", 400, season.id, None, "Autumn")
    # Not carried to a night of the season itself.
    assert money.outstanding_ious(before=db.session.get(money.Night, later - 1)) == []
    (eur,) = money.club_balances()
    rows = {line.player: line for line in eur.players}
    assert (rows["Bob"].iou, rows["Bob"].balance) == (-400, -300)
    # Paid off, though the season is closed: the reverse IOU and the cash leave it settled.
    money.pay_iou(None, season_id=season.id, payer="Bob", payee="Ann", cents=150, method="cash",
                     actor=organizer)
    (iou,) = money.outstanding_ious()
    assert iou.cents == 250
    with pytest.raises(base.ServiceError, match=r"The IOU is only €2.50."):
        money.pay_iou(None, season_id=season.id, payer="Bob", payee="Ann", cents=300, method="cash",
                         actor=organizer)
    with pytest.raises(base.ServiceError, match=r"Ann has no IOU to Bob from this season."):
        money.pay_iou(None, season_id=season.id, payer="Ann", payee="Bob", cents=1, method="cash",
                         actor=organizer)
    money.pay_iou(None, season_id=season.id, payer="Bob", payee="Ann", cents=250, method="transfer",
                     actor=organizer)
    assert money.outstanding_ious() == []
    assert seasons.season_settle_up(season.id).is_settled
    (eur,) = money.club_balances()
    assert {line.player: line.balance for line in eur.players} == {"Ann": 0, "Bob": 100, "Cy": -100}
    # The payoff (changing no balance) may be taken back even at a closed season.
    assert seasons.season_settle_up(season.id).can_undo
    removed = seasons.undo_last_season_payment(season.id, actor=organizer)
    assert sorted((p.method, p.cents) for p in removed) == [("iou", 250), ("transfer", 250)]
    assert money.outstanding_ious()[0].cents == 250


def test_undo_takes_back_the_latest_season_payment(app, organizer):
    night_with({"Ann": 700, "Bob": -400, "Cy": -300}, "Friday", dt.date(2026, 10, 2))
    season = autumn(organizer)
    seasons.record_season_payment(season.id, payer="Bob", payee="Ann", cents=400, method="cash",
                                   actor=organizer)
    seasons.record_season_payment(season.id, payer="Cy", payee="Ann", cents=300, method="iou",
                                   actor=organizer)
    (removed,) = seasons.undo_last_season_payment(season.id, actor=organizer)
    assert (removed.payer, removed.method) == ("Cy", "iou")
    assert seasons.season_settle_up(season.id).transfers == [Transfer("Cy", "Ann", 300)]
    seasons.undo_last_season_payment(season.id, actor=organizer)
    with pytest.raises(base.ServiceError, match=r"There is no payment to undo at this season."):
        seasons.undo_last_season_payment(season.id, actor=organizer)


def test_two_clerks_ticking_the_same_season_transfer_at_once_record_it_once(app, organizer):
    night_with({"Ann": 400, "Bob": -400}, "Friday", dt.date(2026, 10, 2))
    season_id = autumn(organizer).id
    organizer_id = organizer.id
    db.session.commit()
    results = at_once(app, 4, lambda _number: seasons.record_season_payment(
        season_id, payer="Bob", payee="Ann", cents=400, method="cash",
        actor=db.session.get(Member, organizer_id)), refused=(base.ServiceError,))
    assert sorted(results) == ["ok", "refused", "refused", "refused"], results
    assert db.session.scalar(select(func.count(Payment.id))) == 1


def test_season_csvs_trace_each_result_to_its_night(app, organizer):
    first = night_with({"Ann": 700, "Bob": -400, "Cy": -300}, "First", dt.date(2026, 10, 2))
    night_with({"Ann": -200, "Bob": 200}, "Second", dt.date(2026, 10, 9))
    season = autumn(organizer)
    money.record_payment(first, payer="Bob", payee="Ann", cents=400, method="cash", actor=organizer)
    seasons.record_season_payment(season.id, payer="Cy", payee="Ann", cents=100, method="cash",
                                   actor=organizer)
    seasons.undo_last_season_payment(season.id, actor=organizer)
    standings = seasons.season_standings_csv(season.id).splitlines()
    assert standings[0] == ("season,first_date,last_date,currency,player,night,date,result,"
                            "paid_at_nights,paid_at_season,open")
    assert "Autumn,2026-10-01,2026-12-31,EUR,Ann,First,2026-10-02,7.00,,," in standings
    assert "Autumn,2026-10-01,2026-12-31,EUR,Ann,,,5.00,-4.00,0.00,1.00" in standings
    payments = seasons.season_payments_csv(season.id).splitlines()
    assert payments[0] == "season,currency,at,night,date,payer,payee,amount,method,recorded_by,taken_back_at"
    assert len(payments) == 3
    assert ",First,2026-10-02,Bob,Ann,4.00,cash,Olga," in payments[1] and payments[1].endswith(",")
    assert ",,,Cy,Ann,1.00,cash,Olga," in payments[2] and not payments[2].endswith(",")
