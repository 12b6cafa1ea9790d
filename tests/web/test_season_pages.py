"""Season pages: the list, creating one, its page (full and as an htmx fragment), its ticks,
undo, closing, the CSV exports, the night settle-up's link to its season; every mutation signed
out / player / organizer, every refusal with its status and message and nothing written."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import Payment, PaymentVoid, Season
from chouette.services import nights, seasons
from tests.conftest import csrf_token_from
from tests.factories import gen_member
from tests.web.test_money_pages import _night_with


def _count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model)) or 0


@pytest.fixture
def season(app) -> int:
    """Autumn over two closed nights: Ann is owed 5, Bob owes 2, Cy owes 3 over the season."""
    with app.app_context():
        organizer = gen_member("organizer", name="Olga", username="olga")
        first = _night_with({"Ann": 700, "Bob": -400, "Cy": -300}, "First", dt.date(2026, 10, 2))
        second = _night_with({"Ann": -200, "Bob": 200}, "Second", dt.date(2026, 10, 9))
        for night_id in (first, second):
            nights.close_night(night_id, actor=organizer)
        season = seasons.create_season(name="Autumn", first=dt.date(2026, 10, 1), last=dt.date(2026, 12, 31),
                                         currency="EUR", actor=organizer)
        return season.id


def _tick(client, season_id, headers=None, **fields):
    data = {"payer": "Cy", "payee": "Ann", "amount": "3.00", "method": "cash", **fields}
    return client.post(f"/seasons/{season_id}/payments", data=data, headers=headers or {})


def test_seasons_need_a_signed_in_member(app, client, season):
    for url in ("/seasons/", f"/seasons/{season}"):
        response = client.get(url)
        assert response.status_code == 302 and "/auth/login" in response.headers["Location"]


def test_the_seasons_list_is_linked_from_the_menu_and_the_balances(app, client, login_as, season):
    login_as("player")
    page = client.get("/balances").get_data(as_text=True)
    assert page.count('href="/seasons/"') == 2  # the menu and the balances' own link
    listing = client.get("/seasons/").get_data(as_text=True)
    assert f'href="/seasons/{season}"' in listing and "Autumn" in listing
    assert 'href="/seasons/new"' not in listing  # a player creates no season


def test_season_page_and_fragment(app, client, login_as, htmx, season):
    login_as("organizer")
    page = client.get(f"/seasons/{season}")
    assert page.status_code == 200 and "HX-Request" in page.headers["Vary"]
    text = page.get_data(as_text=True)
    assert "<html" in text and "Season: Autumn" in text and 'id="season"' in text
    assert "2 transfers settle the season." in text
    assert "/nights/1/ledger" in text and "/nights/2/settle" in text
    assert f"/seasons/{season}/standings.csv" in text and f"/seasons/{season}/payments.csv" in text
    fragment = client.get(f"/seasons/{season}", headers=htmx).get_data(as_text=True)
    assert "<html" not in fragment and fragment.lstrip().startswith('<section id="season"')


def test_a_player_sees_the_season_without_ticks_close_or_exports(app, client, login_as, season):
    login_as("player", name="Cy")
    text = client.get(f"/seasons/{season}").get_data(as_text=True)
    # Cy's own standing and transfer only (chouette.web.privacy): Cy owes Ann 3.
    assert "Your transfers over the season" in text and 'data-payer="Cy" data-payee="Ann"' in text
    assert 'data-player="Cy"' in text and 'data-player="Ann"' not in text and 'data-player="Bob"' not in text
    assert "pay-form" not in text and "Close the season" not in text and "standings.csv" not in text
    assert client.get(f"/seasons/{season}/standings.csv").status_code == 403


def test_a_missing_season_is_404(app, client, login_as):
    login_as("organizer")
    assert client.get("/seasons/9").status_code == 404
    assert client.post("/seasons/9/payments", data={}).status_code == 404
    assert client.post("/seasons/9/close", data={"confirm": "y"}).status_code == 404


def test_an_organizer_creates_a_season_with_the_clubs_usual_currency(app, client, login_as):
    login_as("organizer")
    with app.app_context():
        _night_with({"Ann": 100, "Bob": -100}, "Dollars", dt.date(2026, 10, 2), currency="USD")
    form = client.get("/seasons/new").get_data(as_text=True)
    assert 'value="USD"' in form
    response = client.post("/seasons/new", data={"name": "Autumn", "first_date": "2026-10-01",
                                                 "last_date": "2026-12-31", "currency": "usd"})
    assert response.status_code == 303 and response.headers["Location"].endswith("/seasons/1")
    with app.app_context():
        season = db.session.get(Season, 1)
        assert (season.name, season.currency, season.first_date) == ("Autumn", "USD", dt.date(2026, 10, 1))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"first_date": "yesterday"}, "Not a valid date value."),
        ({"last_date": ""}, "Enter a date such as 2026-11-21."),
        ({"currency": "euro"}, "A three-letter code such as EUR."),
        ({"name": ""}, "This field is required."),
        ({"first_date": "2027-01-01"}, "A season&#39;s last date cannot come before its first date."),
        ({"first_date": "2026-12-01", "last_date": "2027-02-01"},
         "The season Autumn (2026-10-01 to 2026-12-31) already covers some of these dates in EUR"),
    ],
)
def test_a_malformed_season_is_refused_with_a_message_and_nothing_written(app, client, login_as, season,
                                                                           fields, message):
    login_as("organizer")
    data = {"name": "Winter", "first_date": "2026-10-01", "last_date": "2026-12-31", "currency": "EUR", **fields}
    response = client.post("/seasons/new", data=data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert _count(app, Season) == 1


def test_creating_a_season_signed_out_or_as_a_player_is_refused(app, client, login_as):
    data = {"name": "Autumn", "first_date": "2026-10-01", "last_date": "2026-12-31", "currency": "EUR"}
    response = client.post("/seasons/new", data=data)
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    login_as("player")
    assert client.post("/seasons/new", data=data).status_code == 403
    assert _count(app, Season) == 0


@pytest.mark.parametrize("role", ["organizer", "admin"])
def test_ticking_a_season_transfer_records_a_payment_at_the_season(app, client, login_as, role, season, htmx):
    login_as(role)
    response = _tick(client, season, htmx, method="transfer")
    assert response.status_code == 200 and response.headers["HX-Trigger"] == "ledger-changed"
    text = response.get_data(as_text=True)
    assert "Cy paid Ann €3.00." in text and "1 transfer settles the season." in text
    with app.app_context():
        (payment,) = db.session.scalars(select(Payment)).all()
        assert (payment.season_id, payment.night_id, payment.method, payment.cents) == (season, None, "transfer", 300)


def test_ticking_without_javascript_redirects_with_a_flash(app, client, login_as, season):
    login_as("organizer")
    response = _tick(client, season, method="iou")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/seasons/{season}")
    assert "Cy owes Ann €3.00 (IOU)." in client.get(f"/seasons/{season}").get_data(as_text=True)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"amount": "lots"}, "Enter an amount such as 12.50."),
        ({"amount": "3.01"}, "Cy owes only €3.00 over the season Autumn."),
        ({"payer": "Ann", "payee": "Bob"}, "Ann owes nothing over the season Autumn."),
        ({"method": "cheque"}, "Unknown payment method: cheque."),
        ({"payee": "Cy"}, "A payment goes from one player to another."),
        ({"payer": "<script>alert(1)</script>"}, "&lt;script&gt;alert(1)&lt;/script&gt; owes nothing"),
    ],
)
@pytest.mark.parametrize("as_htmx", [True, False])
def test_refused_season_ticks_say_why_keep_what_was_typed_and_write_nothing(
        app, client, login_as, season, fields, message, as_htmx):
    login_as("organizer")
    response = _tick(client, season, {"HX-Request": "true"} if as_htmx else None, **fields)
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert message in text
    if "amount" in fields:
        assert f'value="{fields["amount"]}"' in text
    assert _count(app, Payment) == 0


def test_season_ticks_signed_out_or_as_a_player_are_refused(app, client, login_as, season):
    assert _tick(client, season).status_code == 302
    login_as("player")
    assert _tick(client, season).status_code == 403
    assert client.post(f"/seasons/{season}/payments/undo").status_code == 403
    assert client.post(f"/seasons/{season}/close", data={"confirm": "y"}).status_code == 403
    assert _count(app, Payment) == 0


def test_season_ticks_need_the_csrf_token(csrf_app, season):
    from tests.conftest import AuthActions

    client = csrf_app.test_client()
    page = client.get("/auth/login")
    AuthActions(client)._client.post("/auth/login", data={
        "username": "olga", "password": "correct-horse-9", "csrf_token": csrf_token_from(page.data)})
    token = csrf_token_from(client.get(f"/seasons/{season}").data)
    data = {"payer": "Cy", "payee": "Ann", "amount": "3.00", "method": "cash"}
    assert client.post(f"/seasons/{season}/payments", data=data).status_code == 400
    assert client.post(f"/seasons/{season}/close", data={"confirm": "y"}).status_code == 400
    assert _count(csrf_app, Payment) == 0
    assert client.post(f"/seasons/{season}/payments", data={**data, "csrf_token": token}).status_code == 303
    assert _count(csrf_app, Payment) == 1


def test_undo_the_last_season_payment(app, client, login_as, season, htmx):
    login_as("organizer")
    _tick(client, season)
    response = client.post(f"/seasons/{season}/payments/undo", headers=htmx)
    assert response.status_code == 200
    assert "Taken back: Cy to Ann, €3.00." in response.get_data(as_text=True)
    assert _count(app, PaymentVoid) == 1
    response = client.post(f"/seasons/{season}/payments/undo", headers=htmx)
    assert response.status_code == 422
    assert "There is no payment to undo at this season." in response.get_data(as_text=True)
    assert _count(app, PaymentVoid) == 1


def test_closing_needs_the_box_ticked_and_is_refused_while_money_is_owed(app, client, login_as, season, htmx):
    login_as("organizer")
    response = client.post(f"/seasons/{season}/close", data={}, headers=htmx)
    assert response.status_code == 422
    assert "Tick the box to confirm" in response.get_data(as_text=True)
    response = client.post(f"/seasons/{season}/close", data={"confirm": "y"}, headers=htmx)
    assert response.status_code == 422
    assert ("The season cannot be closed while money is still owed: Bob owes Ann €2.00; "
            "Cy owes Ann €3.00.") in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Season, season).is_open


def test_a_closed_season_says_who_closed_it_and_refuses_ticks(app, client, login_as, season):
    login_as("organizer", name="Treasurer")
    _tick(client, season)
    _tick(client, season, payer="Bob", amount="2")
    response = client.post(f"/seasons/{season}/close", data={"confirm": "y"})
    assert response.status_code == 303
    text = client.get(f"/seasons/{season}").get_data(as_text=True)
    assert "Closed by Treasurer on" in text and "Final standings" in text
    assert "pay-form" not in text and "Close the season</button>" not in text
    assert "Undo the last payment" not in text  # it would reopen a balance
    response = _tick(client, season, amount="1")
    assert response.status_code == 422
    assert "The season Autumn is closed: its payments are final." in response.get_data(as_text=True)
    # Its nights' settle-up pages say so and offer no tick; a payment there is refused too.
    night = client.get("/nights/1/settle").get_data(as_text=True)
    assert "which is closed: its payments are final." in night and "pay-form" not in night
    assert f'href="/seasons/{season}"' in night
    response = client.post("/nights/1/payments", data={"payer": "Bob", "payee": "Ann", "amount": "1",
                                                       "method": "cash"})
    assert response.status_code == 422
    assert "The season Autumn is closed: its payments are final." in response.get_data(as_text=True)
    assert _count(app, Payment) == 2
    assert "closed" in client.get("/seasons/").get_data(as_text=True)


def test_a_night_settle_up_links_to_its_season(app, client, login_as, season):
    login_as("organizer")
    text = client.get("/nights/1/settle").get_data(as_text=True)
    assert "Season: Autumn" in text and f'href="/seasons/{season}"' in text
    assert "pay-form" in text  # not settled at the season yet: night by night still works
    _tick(client, season)
    text = client.get("/nights/1/settle").get_data(as_text=True)
    assert "which is being settled as a whole" in text and "pay-form" not in text


def test_a_season_iou_is_paid_off_from_the_season_page(app, client, login_as, season):
    login_as("organizer")
    _tick(client, season, method="iou")
    text = client.get(f"/seasons/{season}").get_data(as_text=True)
    assert 'name="iou_season"' in text and "IOU of Autumn" in text
    response = client.post("/ious/pay", data={"iou_season": str(season), "payer": "Cy", "payee": "Ann",
                                              "amount": "1.00", "method": "cash", "back_season": str(season)})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/seasons/{season}")
    assert "Cy paid off €1.00 of the IOU to Ann." in client.get(f"/seasons/{season}").get_data(as_text=True)
    response = client.post("/ious/pay", data={"iou_season": "77", "payer": "Cy", "payee": "Ann",
                                              "amount": "1.00", "method": "cash"})
    assert response.status_code == 404


def test_season_csv_exports_are_downloads_for_organizers(app, client, login_as, season):
    login_as("organizer")
    response = client.get(f"/seasons/{season}/standings.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == 'attachment; filename="season-2026-10-01-1-standings.csv"'
    assert "Autumn,2026-10-01,2026-12-31,EUR,Ann,,,5.00,0.00,0.00,5.00" in response.get_data(as_text=True)
    response = client.get(f"/seasons/{season}/payments.csv")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "private, no-store"
