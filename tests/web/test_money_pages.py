"""Money pages: the night's ledger, settle-up with its "paid" ticks, IOUs, balances across
nights; each page full and as an htmx fragment, each mutation signed out / player / organizer /
admin, each refusal with its status and message, what was typed kept, nothing written."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import LedgerEntry, Payment, PaymentVoid
from chouette.services import money, nights
from tests.conftest import csrf_token_from
from tests.factories import gen_member, gen_night, gen_table
from tests.services.test_money_services import play_night


def _night_with(balances: dict[str, int], name: str = "Friday", on=dt.date(2026, 11, 20),
                currency: str = "EUR") -> int:
    """A night whose ledger is exactly ``balances`` (call inside an app context)."""
    night = gen_night(name=name, date=on, currency=currency)
    table = gen_table(night)
    db.session.add_all(LedgerEntry(night_id=night.id, table_id=table.id, game=1, seq=1,
                                   player=player, points=0, cents=cents)
                       for player, cents in balances.items())
    db.session.commit()
    return night.id


@pytest.fixture
def night(app) -> int:
    with app.app_context():
        return _night_with({"Ann": 700, "Bob": -400, "Cy": -300})


def _payments(app) -> list[tuple[str, str, int, str]]:
    """The standing payments (those not taken back)."""
    with app.app_context():
        voided = select(PaymentVoid.payment_id)
        rows = db.session.scalars(select(Payment).where(Payment.id.not_in(voided)).order_by(Payment.id))
        return [(p.payer, p.payee, p.cents, p.method) for p in rows]


def _pay(client, night_id, headers=None, **fields):
    data = {"payer": "Bob", "payee": "Ann", "amount": "4.00", "method": "cash", **fields}
    return client.post(f"/nights/{night_id}/payments", data=data, headers=headers or {})


# --------------------------------------------------------------------------- ledger


def test_ledger_needs_a_signed_in_member(app, client, night):
    response = client.get(f"/nights/{night}/ledger")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]


def test_ledger_page_and_fragment_after_a_night_of_commands(app, client, login_as, htmx):
    organizer = login_as("organizer")
    with app.app_context():
        ids = play_night(organizer)
    page = client.get(f"/nights/{ids['night']}/ledger")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<html" in html and 'id="night-ledger"' in html
    assert "does not match" not in html
    # Players with their totals, game by game with the cube and result, the partner split.
    assert 'data-player="Ann"' in html and "Window" in html and "Bar" in html
    assert "Cy: cube 2, the member owns it" in html and "Dee: cube 1, dropped" in html
    assert "the box won (gammon)" in html and "shares the box" in html
    assert re.search(r"Box side\s*<span class=\"amount pos\">\+€7.00</span>, split", html)
    assert '<span class="amount neg">-€4.00</span>' in html
    fragment = client.get(f"/nights/{ids['night']}/ledger", headers=htmx)
    assert fragment.status_code == 200
    assert fragment.get_data(as_text=True).lstrip().startswith('<section id="night-ledger"')
    assert b"<html" not in fragment.data and "HX-Request" in fragment.headers["Vary"]


def test_ledger_warns_when_rows_and_logs_differ(app, client, login_as):
    organizer = login_as("organizer")
    with app.app_context():
        ids = play_night(organizer)
        table_id = ids["tables"][0]
        db.session.add_all([
            LedgerEntry(night_id=ids["night"], table_id=table_id, game=1, seq=50, player="Ann", points=0, cents=5),
            LedgerEntry(night_id=ids["night"], table_id=table_id, game=1, seq=50, player="Eve", points=0, cents=-5),
        ])
        db.session.commit()
    html = client.get(f"/nights/{ids['night']}/ledger").get_data(as_text=True)
    assert "the ledger does not match the tables' logs" in html
    assert "Window, game 1, Ann: the ledger says €4.05, the log €4.00." in html


def test_ledger_of_a_missing_night_is_404(app, client, login_as):
    login_as("player")
    assert client.get("/nights/999/ledger").status_code == 404


def test_a_player_sees_the_ledger_of_a_night_they_played(app, client, login_as, night):
    login_as("player", name="Cy")
    response = client.get(f"/nights/{night}/ledger")
    assert response.status_code == 200 and b'data-player="Bob"' in response.data


def test_a_player_who_did_not_play_the_night_is_refused_its_ledger_and_settle_up(app, client, login_as, night, htmx):
    login_as("player", name="Eve")
    for url in (f"/nights/{night}/ledger", f"/nights/{night}/settle", f"/nights/{night}/settle?scope=all"):
        page = client.get(url)
        assert page.status_code == 403
        text = page.get_data(as_text=True)
        assert "Only the players of this night and the organizers see its money." in text
        assert "€4.00" not in text and "Bob" not in text
        fragment = client.get(url, headers=htmx)
        assert fragment.status_code == 403 and b"Bob" not in fragment.data
    night_page = client.get(f"/nights/{night}").get_data(as_text=True)
    assert f"/nights/{night}/ledger" not in night_page and f"/nights/{night}/settle" not in night_page


# --------------------------------------------------------------------------- settle-up page


def test_settle_page_and_fragment(app, client, login_as, htmx, night):
    login_as("organizer")
    page = client.get(f"/nights/{night}/settle")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<html" in html and "2 transfers settle the night." in html
    assert 'data-payer="Bob" data-payee="Ann"' in html and 'data-payer="Cy" data-payee="Ann"' in html
    assert 'value="4.00"' in html and ">Paid</button>" in html
    fragment = client.get(f"/nights/{night}/settle", headers=htmx)
    assert fragment.get_data(as_text=True).lstrip().startswith('<section id="settle-up"')
    assert b"<html" not in fragment.data and "HX-Request" in fragment.headers["Vary"]


def test_a_player_sees_the_settle_up_without_the_ticks(app, client, login_as, night):
    login_as("player", name="Bob")
    html = client.get(f"/nights/{night}/settle").get_data(as_text=True)
    assert 'data-payer="Bob" data-payee="Ann"' in html
    assert ">Paid</button>" not in html and "/payments" not in html


def test_settle_page_of_a_missing_night_is_404(app, client, login_as):
    login_as("organizer")
    assert client.get("/nights/999/settle").status_code == 404
    assert client.post("/nights/999/payments", data={"payer": "A", "payee": "B", "amount": "1",
                                                     "method": "cash"}).status_code == 404


def test_settle_one_leaver_shows_their_transfers_only(app, client, login_as, htmx):
    login_as("organizer")
    with app.app_context():
        night_id = _night_with({"Ann": -900, "Bob": 500, "Cy": 600, "Dee": -200})
    html = client.get(f"/nights/{night_id}/settle?leaver=Ann", headers=htmx).get_data(as_text=True)
    panel = html[html.index('id="leaver-transfers"'):]
    assert "Ann leaves: -€9.00" in panel
    assert 'data-payer="Ann" data-payee="Bob"' in panel and 'data-payer="Ann" data-payee="Cy"' in panel
    assert 'data-payer="Dee"' not in panel
    assert 'name="leaver" value="Ann"' in panel


def test_settling_someone_unknown_says_so(app, client, login_as, htmx, night):
    login_as("organizer")
    response = client.get(f"/nights/{night}/settle?leaver=Zed", headers=htmx)
    assert response.status_code == 422
    assert b"Zed has nothing left to settle on this night." in response.data
    assert b'id="settle-up"' in response.data


def test_cumulative_option_shows_balances_of_all_nights(app, client, login_as, night):
    login_as("organizer")
    with app.app_context():
        _night_with({"Ann": -200, "Bob": 200}, name="Earlier", on=dt.date(2026, 11, 13))
    html = client.get(f"/nights/{night}/settle?scope=all").get_data(as_text=True)
    cumulative = html[html.index('id="cumulative"'):]
    assert 'data-player="Ann"' in cumulative and "+€5.00" in cumulative
    assert "Bob → Ann · €2.00" in cumulative and "Cy → Ann · €3.00" in cumulative


# --------------------------------------------------------------------------- recording payments


def test_recording_a_payment_signed_out_sends_to_sign_in_and_writes_nothing(app, client, night, htmx):
    response = _pay(client, night)
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    assert _pay(client, night, htmx).status_code == 401
    assert _payments(app) == []


def test_a_player_ticks_only_what_is_paid_to_them(app, client, login_as, night, htmx):
    """The payee confirms what they received; the payer cannot tick their own payment, nor a
    player someone else's."""
    login_as("player", name="Bob")  # Bob owes Ann: they may not say they paid
    assert _pay(client, night).status_code == 403
    client.post("/auth/logout")
    login_as("player", name="Cy")  # a bystander to Bob -> Ann
    assert _pay(client, night).status_code == 403
    assert _payments(app) == []
    client.post("/auth/logout")
    ann = login_as("player", name="Ann")
    page = client.get(f"/nights/{night}/settle").get_data(as_text=True)
    # Her rows carry the form, nobody else's; no undo for a player.
    assert page.count(">Paid</button>") == page.count('data-payee="Ann"') >= 1
    assert "Undo the last payment" not in page
    response = _pay(client, night, headers=htmx, amount="4.00", method="transfer")
    assert response.status_code == 200 and "Bob paid Ann" in response.get_data(as_text=True)
    assert _payments(app) == [("Bob", "Ann", 400, "transfer")]
    with app.app_context():
        assert db.session.scalars(select(Payment)).one().recorded_by_id == ann.id
    # Another pair's transfer stays the organizers'.
    assert _pay(client, night, payer="Cy", payee="Bob", amount="1.00").status_code == 403
    assert len(_payments(app)) == 1


@pytest.mark.parametrize("role", ["organizer", "admin"])
def test_ticking_paid_records_the_payment_and_the_list_recomputes(app, client, login_as, role, night, htmx):
    login_as(role)
    response = _pay(client, night, htmx, method="transfer")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and html.lstrip().startswith('<section id="settle-up"')
    assert response.headers["HX-Trigger"] == "ledger-changed"
    assert "Bob paid Ann €4.00." in html
    assert 'data-payer="Bob" data-payee="Ann"' not in html.split('id="payments"')[0]
    assert "1 transfer settles the night." in html
    assert _payments(app) == [("Bob", "Ann", 400, "transfer")]


def test_ticking_paid_without_javascript_redirects_with_a_flash(app, client, login_as, night):
    login_as("organizer")
    response = _pay(client, night, amount="3", payer="Cy")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/nights/{night}/settle")
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Cy paid Ann €3.00." in html and "1 transfer settles the night." in html
    assert _payments(app) == [("Cy", "Ann", 300, "cash")]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"amount": "4.01"}, "Bob owes only €4.00 on this night."),
        ({"payee": "Bob"}, "A payment goes from one player to another."),
        ({"amount": "0"}, "A payment is an amount of more than zero."),
        ({"amount": "-2.00"}, "A payment is an amount of more than zero."),
        ({"amount": "four euros"}, "Enter an amount such as 12.50."),
        ({"amount": "1.234"}, "Enter an amount such as 12.50."),
        ({"amount": ""}, "Enter an amount such as 12.50."),
        ({"amount": "1" * 30}, "Enter an amount such as 12.50."),
        ({"method": "cheque"}, "Unknown payment method: cheque."),
        ({"payer": "<script>x</script>"}, "&lt;script&gt;x&lt;/script&gt; owes nothing on this night."),
    ],
)
@pytest.mark.parametrize("as_htmx", [True, False])
def test_refused_payments_say_why_keep_what_was_typed_and_write_nothing(
        app, client, login_as, night, fields, message, as_htmx):
    login_as("organizer")
    response = _pay(client, night, {"HX-Request": "true"} if as_htmx else None, **fields)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert message in html and "<script>x" not in html
    assert html.lstrip().startswith('<section id="settle-up"') == as_htmx
    if "payer" not in fields and "payee" not in fields:
        typed = fields.get("amount", "4.00")
        assert f'value="{typed}"' in html
    assert _payments(app) == []


def test_an_amount_with_a_comma_is_read_as_decimals(app, client, login_as, night):
    login_as("organizer")
    assert _pay(client, night, amount="2,50").status_code == 303
    assert _payments(app) == [("Bob", "Ann", 250, "cash")]


def test_payments_need_the_csrf_token(csrf_app, login_as):
    client = csrf_app.test_client()
    with csrf_app.app_context():
        gen_member("organizer", username="olga")
        night_id = _night_with({"Ann": 700, "Bob": -400, "Cy": -300})
    page = client.get("/auth/login")
    client.post("/auth/login", data={"username": "olga", "password": "correct-horse-9",
                                     "csrf_token": csrf_token_from(page.data)})
    assert _pay(client, night_id).status_code == 400
    token = csrf_token_from(client.get(f"/nights/{night_id}/settle").data)
    assert _pay(client, night_id, csrf_token=token).status_code == 303
    assert _payments(csrf_app) == [("Bob", "Ann", 400, "cash")]


def test_recording_payments_on_a_closed_night_is_allowed(app, client, login_as, night):
    login_as("organizer")
    with app.app_context():
        nights.close_night(night, actor=gen_member("organizer"))
    assert _pay(client, night).status_code == 303
    assert _payments(app) == [("Bob", "Ann", 400, "cash")]


# --------------------------------------------------------------------------- IOUs


@pytest.fixture
def iou_nights(app):
    """Bob gave Ann an IOU of 4.00 on the first night; Bob and Dee play the second."""
    with app.app_context():
        first = _night_with({"Ann": 400, "Bob": -400}, name="First", on=dt.date(2026, 11, 13))
        clerk = gen_member("organizer")
        money.record_payment(first, payer="Bob", payee="Ann", cents=400, method="iou", actor=clerk)
        second = _night_with({"Bob": 100, "Dee": -100}, name="Second", on=dt.date(2026, 11, 20))
    return first, second


def test_an_iou_is_carried_over_to_the_next_night(app, client, login_as, iou_nights):
    login_as("organizer")
    first, second = iou_nights
    html = client.get(f"/nights/{second}/settle").get_data(as_text=True)
    carried = html[html.index('id="carried-over"'):]
    assert "IOU of First" in carried and 'data-payer="Bob" data-payee="Ann"' in carried
    assert "Paid off" in carried
    assert "The night is settled." in client.get(f"/nights/{first}/settle").get_data(as_text=True)


def test_paying_off_an_iou_from_the_next_night(app, client, login_as, iou_nights):
    login_as("organizer")
    first, second = iou_nights
    data = {"iou_night": first, "payer": "Bob", "payee": "Ann", "amount": "4.00", "method": "cash",
            "back_night": second}
    response = client.post("/ious/pay", data=data)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/nights/{second}/settle")
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Bob paid off €4.00 of the IOU to Ann." in html and 'id="carried-over"' not in html
    assert _payments(app)[1:] == [("Ann", "Bob", 400, "iou"), ("Bob", "Ann", 400, "cash")]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"amount": "5.00"}, "The IOU is only €4.00."),
        ({"amount": "x"}, "Enter an amount such as 12.50."),
        ({"method": "iou"}, "Unknown payment method: iou."),
        ({"payer": "Ann", "payee": "Bob"}, "Ann has no IOU to Bob from this night."),
    ],
)
def test_refused_iou_payoffs_say_why_and_write_nothing(app, client, login_as, iou_nights, fields, message, htmx):
    login_as("organizer")
    first, second = iou_nights
    data = {"iou_night": first, "payer": "Bob", "payee": "Ann", "amount": "4.00", "method": "cash",
            "back_night": second, **fields}
    response = client.post("/ious/pay", data=data, headers=htmx)
    assert response.status_code == 422 and message in response.get_data(as_text=True)
    response = client.post("/ious/pay", data=data)
    assert response.status_code == 303
    assert message in client.get(response.headers["Location"]).get_data(as_text=True)
    assert len(_payments(app)) == 1


def test_paying_off_an_iou_of_a_missing_night_is_404(app, client, login_as):
    login_as("organizer")
    data = {"iou_night": "nope", "payer": "Bob", "payee": "Ann", "amount": "1", "method": "cash"}
    assert client.post("/ious/pay", data=data).status_code == 404


def test_iou_payoff_signed_out_and_as_player_is_refused(app, client, login_as, iou_nights):
    first, _second = iou_nights
    data = {"iou_night": first, "payer": "Bob", "payee": "Ann", "amount": "4.00", "method": "cash"}
    response = client.post("/ious/pay", data=data)
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    login_as("player", name="Ann")
    assert client.post("/ious/pay", data=data).status_code == 403
    assert len(_payments(app)) == 1


@pytest.mark.parametrize("role", ["organizer", "admin"])
def test_iou_payoff_from_the_balances_page(app, client, login_as, iou_nights, role):
    login_as(role)
    first, _second = iou_nights
    data = {"iou_night": first, "payer": "Bob", "payee": "Ann", "amount": "1.50", "method": "transfer"}
    response = client.post("/ious/pay", data=data)
    assert response.status_code == 303 and response.headers["Location"].endswith("/balances")
    html = client.get("/balances").get_data(as_text=True)
    assert "IOUs still standing" in html and "€2.50" in html


# --------------------------------------------------------------------------- balances


def test_balances_page_and_fragment_for_the_treasurer(app, client, login_as, htmx, iou_nights):
    login_as("organizer")
    page = client.get("/balances")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<html" in html and "Balances across nights" in html
    for name in ("Ann", "Bob", "Dee"):
        assert f'data-player="{name}"' in html
    bob = html[html.index('data-player="Bob"'):].split("</tr>")[0]
    # Bob: -4.00 then +1.00, nothing paid in cash, an IOU of 4.00 standing: owes 3.00.
    assert "-€4.00" in bob and "+€1.00" in bob and bob.count("-€3.00") == 1
    fragment = client.get("/balances", headers=htmx)
    assert fragment.get_data(as_text=True).lstrip().startswith('<section id="balances"')
    assert "HX-Request" in fragment.headers["Vary"]


def test_a_player_sees_only_their_own_balance(app, client, login_as, iou_nights):
    login_as("player", name="Bob")
    html = client.get("/balances").get_data(as_text=True)
    assert "Your balance" in html and 'data-player="Bob"' in html
    assert 'data-player="Ann"' not in html and 'data-player="Dee"' not in html
    assert "Paid off" not in html  # no payoff form for a player
    account = client.get("/account").get_data(as_text=True)
    assert 'id="my-balance"' in account and "-€3.00" in account
    assert "Bob owes Ann €4.00 (IOU of First)." in account


def test_balances_need_a_signed_in_member(app, client, night):
    assert client.get("/balances").status_code == 302


@pytest.mark.parametrize(
    ("locale", "currency", "expected"),
    [("en", "EUR", "+€1,234.50"), ("en", "USD", "+$1,234.50"), ("it", "EUR", "+1.234,50\xa0€")],
)
def test_money_is_formatted_for_the_language_and_currency(app, client, login_as, locale, currency, expected):
    login_as("organizer", locale=locale)
    with app.app_context():
        night_id = _night_with({"Ann": 123450, "Bob": -123450}, currency=currency)
    html = client.get(f"/nights/{night_id}/ledger").get_data(as_text=True)
    assert f'<span class="amount pos">{expected}</span>' in html
    assert '<span class="amount neg">-' in html


# --------------------------------------------------------------------------- undo a payment


def test_undo_a_payment_signed_out_and_as_player_is_refused(app, client, login_as, night):
    with app.app_context():
        money.record_payment(night, payer="Bob", payee="Ann", cents=400, method="cash",
                                actor=gen_member("organizer"))
    response = client.post(f"/nights/{night}/payments/undo")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    login_as("player", name="Bob")
    assert client.post(f"/nights/{night}/payments/undo").status_code == 403
    assert len(_payments(app)) == 1


@pytest.mark.parametrize("role", ["organizer", "admin"])
def test_undo_the_last_payment(app, client, login_as, night, htmx, role):
    login_as(role)
    _pay(client, night)
    html = client.get(f"/nights/{night}/settle").get_data(as_text=True)
    assert "Undo the last payment" in html
    response = client.post(f"/nights/{night}/payments/undo", headers=htmx)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and html.lstrip().startswith('<section id="settle-up"')
    assert "Taken back: Bob to Ann, €4.00." in html and "2 transfers settle the night." in html
    assert _payments(app) == []
    response = client.post(f"/nights/{night}/payments/undo")
    assert response.status_code == 422
    assert "There is no payment to undo on this night." in response.get_data(as_text=True)


def test_a_player_sees_no_undo_button(app, client, login_as, night):
    with app.app_context():
        money.record_payment(night, payer="Bob", payee="Ann", cents=400, method="cash",
                                actor=gen_member("organizer"))
    login_as("player", name="Cy")
    html = client.get(f"/nights/{night}/settle").get_data(as_text=True)
    assert 'id="payments"' in html and "Undo the last payment" not in html
