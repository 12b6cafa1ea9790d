"""A night's settle-up plan that holds (issue 14, item 5; docs/settle-up.md), on a real
database and through the page: a payment changes only the transfers it touches, an early
leaver is settled with the night's own transfers, an IOU paid off and an undo change nothing else."""

from __future__ import annotations

import datetime as dt

import pytest

from chouette.ledger import Transfer, apply_payments, settle_up
from chouette.services import money, seasons
from tests.factories import gen_member
from tests.web.test_money_pages import _night_with

# The fewest transfers: Bob -> Eve 1.00, Cy -> Eve 4.00, Dee -> Ann 2.00. After Dee pays Ann
# 1.00, settling the open balances afresh would rewire Bob and Dee (Bob -> Ann, Dee -> Eve).
BOOKS = {"Ann": 200, "Bob": -100, "Cy": -400, "Dee": -200, "Eve": 500}
PLAN = [Transfer("Bob", "Eve", 100), Transfer("Cy", "Eve", 400), Transfer("Dee", "Ann", 200)]


@pytest.fixture
def organizer(app):
    with app.app_context():
        yield gen_member("organizer")


def _pay(night_id: int, payer: str, payee: str, cents: int, organizer, method: str = "cash") -> None:
    money.record_payment(night_id, payer=payer, payee=payee, cents=cents, method=method, actor=organizer)


def test_a_partial_payment_changes_only_the_transfer_it_pays(app, organizer):
    night_id = _night_with(BOOKS)
    assert money.night_settle_up(night_id).transfers == PLAN
    _pay(night_id, "Dee", "Ann", 100, organizer)
    plan = money.night_settle_up(night_id)
    assert plan.transfers == [Transfer("Bob", "Eve", 100), Transfer("Cy", "Eve", 400),
                              Transfer("Dee", "Ann", 100)]
    # What a fresh settle-up of the open balances would have said instead.
    assert settle_up(plan.open_balances) != plan.transfers


def test_with_nothing_paid_the_night_is_settled_with_the_fewest_transfers(app, organizer):
    night_id = _night_with(BOOKS)
    assert money.night_settle_up(night_id).transfers == settle_up(BOOKS)


def test_a_payment_beside_the_plan_reroutes_only_the_transfers_of_its_payer_and_payee(app, organizer):
    night_id = _night_with(BOOKS)
    _pay(night_id, "Cy", "Ann", 100, organizer)  # Cy was to pay Eve; Dee was to pay Ann
    plan = money.night_settle_up(night_id)
    assert plan.transfers == [Transfer("Bob", "Eve", 100), Transfer("Cy", "Eve", 300),
                              Transfer("Dee", "Ann", 100), Transfer("Dee", "Eve", 100)]
    assert all(cents == 0 for cents in apply_payments(plan.open_balances, plan.transfers).values())


def test_an_early_leaver_is_settled_with_the_nights_own_transfers(app, organizer):
    night_id = _night_with(BOOKS)
    _pay(night_id, "Dee", "Ann", 100, organizer)
    plan = money.night_settle_up(night_id, leaver="Eve")
    assert plan.leaver_transfers == [Transfer("Bob", "Eve", 100), Transfer("Cy", "Eve", 400)]
    assert all(transfer in plan.transfers for transfer in plan.leaver_transfers)
    _pay(night_id, "Cy", "Eve", 400, organizer)
    assert money.night_settle_up(night_id, leaver="Eve").leaver_transfers == [Transfer("Bob", "Eve", 100)]
    assert money.night_settle_up(night_id).transfers == [Transfer("Bob", "Eve", 100),
                                                            Transfer("Dee", "Ann", 100)]


def test_paying_off_an_iou_changes_no_transfer_of_the_night(app, organizer):
    night_id = _night_with(BOOKS)
    _pay(night_id, "Dee", "Ann", 100, organizer)
    _pay(night_id, "Bob", "Eve", 100, organizer, method="iou")
    held = money.night_settle_up(night_id).transfers
    assert held == [Transfer("Cy", "Eve", 400), Transfer("Dee", "Ann", 100)]
    money.pay_iou(night_id, payer="Bob", payee="Eve", cents=100, method="cash", actor=organizer)
    assert money.night_settle_up(night_id).transfers == held


def test_undoing_a_payment_gives_back_the_plan_before_it(app, organizer):
    night_id = _night_with(BOOKS)
    _pay(night_id, "Dee", "Ann", 100, organizer)
    before = money.night_settle_up(night_id).transfers
    _pay(night_id, "Cy", "Ann", 100, organizer)
    money.undo_last_payment(night_id, actor=organizer)
    assert money.night_settle_up(night_id).transfers == before


def test_the_page_after_a_partial_tick_keeps_the_other_transfers(app, client, login_as, htmx):
    login_as("organizer")
    with app.app_context():
        night_id = _night_with(BOOKS)
    page = client.get(f"/nights/{night_id}/settle").get_data(as_text=True)
    assert "3 transfers settle the night." in page
    data = {"payer": "Dee", "payee": "Ann", "amount": "1.00", "method": "cash"}
    html = client.post(f"/nights/{night_id}/payments", data=data, headers=htmx).get_data(as_text=True)
    section = html[html.index('id="night-transfers"'):html.index('id="leaver"')]
    for payer, payee in (("Bob", "Eve"), ("Cy", "Eve"), ("Dee", "Ann")):
        assert f'data-payer="{payer}" data-payee="{payee}"' in section
    assert 'data-payee="Ann"' in section and 'data-payer="Bob" data-payee="Ann"' not in section
    assert "3 transfers settle the night." in section


def test_a_partial_payment_at_a_season_changes_only_the_transfer_it_pays(app, organizer):
    from tests.services.test_seasons import autumn, night_with

    night_with(BOOKS, "October", dt.date(2026, 10, 2))
    season = autumn(organizer)
    assert seasons.season_settle_up(season.id).transfers == PLAN
    seasons.record_season_payment(season.id, payer="Dee", payee="Ann", cents=100, method="cash",
                                   actor=organizer)
    assert seasons.season_settle_up(season.id).transfers == [
        Transfer("Bob", "Eve", 100), Transfer("Cy", "Eve", 400), Transfer("Dee", "Ann", 100)]
