"""The night's money in its export (issue 25, item 3): every payment (cash, transfer, IOU),
those taken back, an IOU paid off later, and the night's opening and closing times; an import
into an empty database gives back every money page, balance, settle-up line and IOU exactly.
Bad payment data refuses the whole file and writes nothing."""

from __future__ import annotations

import copy
import csv
import datetime as dt
import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from chouette import caches
from chouette.extensions import db
from chouette.ledger import cents_to_decimal
from chouette.models import ChouetteTable, LedgerEntry, Member, Night, Payment, PaymentVoid, TableEvent
from chouette.services import exports, money, seasons, tables
from chouette.services import nights as nights_service
from tests.conftest import AuthActions, dispose, make_app
from tests.factories import gen_member, gen_night, gen_table
from tests.records.games import club_night_log
from tests.web.test_exports import KNOWN, play_log, write_log


def _pay(night_id: int, actor: Member, index: int, method: str, cents: int | None = None) -> money.Transfer:
    """Pay the settle-up's transfer ``index`` (all of it, or ``cents``) by ``method``."""
    transfer = money.night_settle_up(night_id).transfers[index]
    money.record_payment(night_id, payer=transfer.payer, payee=transfer.payee,
                         cents=cents or transfer.cents, method=method, actor=actor)
    return transfer


@pytest.fixture
def night(app: Flask) -> dict[str, Any]:
    """A closed night of two tables (one whose house rules changed), its money part paid in
    cash and by transfer, part by an IOU paid off in part later, and a tick taken back."""
    club = club_night_log(1)
    with app.app_context():
        organizer = gen_member("organizer", username="boss")
        night = gen_night(name="Friday")
        first = gen_table(night, name="Table 1")
        second = gen_table(night, name="Table 2", settings={**tables.TABLE_DEFAULTS, **club["table"],
                                                            "stake_cents": 150})
        play_log(first.id, KNOWN, organizer)
        write_log(second.id, club["events"], organizer)
        caches.clear_all(app)
        db.session.commit()
        nights_service.close_night(night.id, actor=organizer, confirm_games=True)
        transfers = money.night_settle_up(night.id).transfers
        assert len(transfers) >= 3, transfers
        _pay(night.id, organizer, 0, "cash")
        _pay(night.id, organizer, 0, "transfer", cents=1)
        money.undo_last_payment(night.id, actor=organizer)  # a tick made by mistake
        iou = _pay(night.id, organizer, 0, "iou")
        _pay(night.id, organizer, 0, "transfer", cents=max(1, transfers[-1].cents // 2))
        money.pay_iou(night.id, payer=iou.payer, payee=iou.payee, cents=max(1, iou.cents // 3),
                      method="cash", actor=organizer)
        return {"night": night.id, "iou": iou}


def _money_of(night_id: int) -> dict[str, Any]:
    """Everything the money pages are made of, night ids left out."""
    settle = money.night_settle_up(night_id)
    def ious(found: list[money.Iou]) -> list[tuple[str, str, str, str, int]]:
        return [(i.night_name, i.currency, i.payer, i.payee, i.cents) for i in found]

    club = [(c.currency, [n.name for n in c.nights], c.transfers, ious(c.ious),
             [(b.player, list(b.nights.values()), b.paid, b.iou, b.balance) for b in c.players])
            for c in money.club_balances()]
    return {
        "balances": settle.balances, "open": settle.open_balances, "transfers": settle.transfers,
        "settled": settle.is_settled, "carried": ious(settle.carried),
        "payments": [(p.payer, p.payee, p.cents, p.method, p.at) for p in settle.payments],
        "club": club, "ious": ious(money.outstanding_ious()),
    }


def _pages(app: Flask, night_id: int) -> dict[str, str]:
    """The money pages as an organizer reads them, night ids and tokens left out."""
    client = app.test_client()
    assert AuthActions(client).login("boss").status_code == 303
    pages = {}
    for name, path in (("ledger", f"/nights/{night_id}/ledger"), ("settle", f"/nights/{night_id}/settle"),
                       ("balances", "/balances")):
        response = client.get(path)
        assert response.status_code == 200, path
        text = re.sub(rf"/nights/{night_id}\b", "/nights/N", response.text)
        pages[name] = re.sub(r"[\w-]{20,}\.[\w-]{6}\.[\w-]{20,}", "TOKEN", text)  # CSRF tokens
    return pages


def test_the_export_holds_every_payment_the_voids_and_the_night_s_times(app, night):
    with app.app_context():
        data = exports.night_export(night["night"])
        found = db.session.get(Night, night["night"])
        assert data["night"]["opened_at"] == found.opened_at.isoformat(timespec="microseconds")
        assert data["night"]["closed_at"] == found.closed_at.isoformat(timespec="microseconds")
        stored = db.session.scalar(select(func.count(Payment.id)).where(Payment.night_id == found.id))
    payments = data["payments"]
    assert len(payments) == stored == 6
    assert {p["method"] for p in payments} == {"cash", "transfer", "iou"}
    assert [p["taken_back_at"] is not None for p in payments] == [False, True, False, False, False, False]
    # The IOU paid off later: its reverse IOU and the cash share their time.
    assert payments[-1]["at"] == payments[-2]["at"] and payments[-2]["method"] == "iou"
    assert payments[-2]["payer"] == night["iou"].payee


def test_round_trip_to_an_empty_database_gives_back_every_balance_settle_up_line_and_iou(app, night, tmp_path):
    with app.app_context():
        export = exports.to_json(exports.night_export(night["night"]))
        before = _money_of(night["night"])
        found = db.session.get(Night, night["night"])
        times = (found.opened_at, found.closed_at)
    pages = _pages(app, night["night"])
    assert before["ious"] and before["payments"] and before["transfers"]
    name = _member_name(app)  # before the fresh app, which empties a shared PostgreSQL database
    fresh_dir = tmp_path / "fresh"
    fresh_dir.mkdir()
    fresh = make_app(fresh_dir)
    try:
        with fresh.app_context():
            gen_member("organizer", username="boss", name=name)
            imported = exports.import_night(exports.read_night_export(export.encode()), None)
            assert _money_of(imported.id) == before
            assert (imported.opened_at, imported.closed_at) == times
            assert db.session.scalar(select(func.count(PaymentVoid.id))) == 1
            again = json.loads(exports.to_json(exports.night_export(imported.id)))
            assert again == json.loads(export)
            new_id = imported.id
        assert _pages(fresh, new_id) == pages
    finally:
        dispose(fresh)


def _member_name(app: Flask) -> str:
    with app.app_context():
        return db.session.scalar(select(Member.name).where(Member.username == "boss")) or ""


def _counts(app: Flask) -> tuple[int, ...]:
    with app.app_context():
        return tuple(db.session.scalar(select(func.count(model.id)))  # type: ignore[misc]
                     for model in (Night, ChouetteTable, TableEvent, LedgerEntry, Payment, PaymentVoid))


def _upload(client, data: dict[str, Any]):
    return client.post("/nights/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "night.json")},
                       content_type="multipart/form-data")


def _spoil(data: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    """``data`` with one field changed: ``payments``, ``payments.N.key`` or ``night.key``."""
    spoiled = copy.deepcopy(data)
    *path, key = where.split(".")
    target: Any = spoiled
    for step in path:
        target = target[int(step)] if isinstance(target, list) else target[step]
    target[int(key) if isinstance(target, list) else key] = value
    return spoiled


@pytest.mark.parametrize(("where", "value", "message"), [
    ("payments", {"payer": "Ann"}, 'A night export&#39;s &#34;payments&#34; is a list.'),
    ("payments.0", "cash", "Payment 1: a payment is an object with a payer, a payee, cents, a method and a time."),
    ("payments.1.payer", "Zed", "Payment 2: Zed has no money on this night."),
    ("payments.0.payee", None, "Payment 1: None has no money on this night."),
    ("payments.2.cents", 0, "Payment 3: the amount is a whole number of cents, more than zero."),
    ("payments.2.cents", "5.00", "Payment 3: the amount is a whole number of cents, more than zero."),
    ("payments.2.cents", True, "Payment 3: the amount is a whole number of cents, more than zero."),
    ("payments.2.cents", 2**63, "Payment 3: the amount is a whole number of cents, more than zero."),
    ("payments.0.method", "cheque", "Payment 1: unknown payment method: cheque."),
    ("payments.0.amount", 500, "Payment 1: unknown key “amount”."),
    ("payments.0.at", "yesterday", "Payment 1: its time is not a date and time (YYYY-MM-DDTHH:MM:SS)."),
    ("payments.1.taken_back_at", "2020-01-01T00:00:00",
     "Payment 2: it is taken back before it was made."),
    ("payments.1.taken_back_at", 7,
     "Payment 2: the time it was taken back is not a date and time (YYYY-MM-DDTHH:MM:SS)."),
    ("night.opened_at", "tonight", "The night&#39;s opened_at is not a date and time (YYYY-MM-DDTHH:MM:SS)."),
    ("night.closed_at", "2000-01-01T00:00:00", "The night closes before it opens."),
    ("night.closed", False, "The night has a closing time but is not closed."),
])
def test_bad_payment_data_refuses_the_whole_file_and_writes_nothing(app, client, night, login_as,
                                                                   where, value, message):
    login_as("organizer")
    with app.app_context():
        data = exports.night_export(night["night"])
    spoiled = _spoil(data, where, value)
    if where == "payments.0.payee":
        spoiled["payments"][0]["payer"] = data["payments"][0]["payer"]
    before = _counts(app)
    response = _upload(client, spoiled)
    assert response.status_code == 422
    assert message in response.text
    assert _counts(app) == before
    # The same file, unspoiled, imports (the refusal was the payment's).
    assert _upload(client, data).status_code == 303


def test_an_export_without_payments_or_times_still_imports(app, client, night, login_as):
    login_as("organizer")
    with app.app_context():
        data = exports.night_export(night["night"])
    del data["payments"], data["night"]["opened_at"], data["night"]["closed_at"]
    response = _upload(client, data)
    assert response.status_code == 303
    new_id = int(response.headers["Location"].rstrip("/").split("/")[-1])
    with app.app_context():
        imported = db.session.get(Night, new_id)
        assert imported.closed_at is not None and imported.opened_at is not None
        assert money.night_payments(new_id) == []


def test_the_season_s_export_holds_its_own_payments_an_iou_paid_later_and_those_taken_back(app, night):
    with app.app_context():
        boss = db.session.scalar(select(Member).where(Member.username == "boss"))
        season = seasons.create_season(name="Autumn", first=dt.date(2026, 11, 1),
                                       last=dt.date(2026, 11, 30), currency="EUR", actor=boss)
        owed = seasons.season_settle_up(season.id).transfers[0]
        seasons.record_season_payment(season.id, payer=owed.payer, payee=owed.payee, cents=1,
                                      method="transfer", actor=boss)
        seasons.undo_last_season_payment(season.id, actor=boss)
        seasons.record_season_payment(season.id, payer=owed.payer, payee=owed.payee,
                                      cents=owed.cents, method="iou", actor=boss)
        money.pay_iou(None, season_id=season.id, payer=owed.payer, payee=owed.payee, cents=5,
                      method="cash", actor=boss)
        rows = list(csv.DictReader(io.StringIO(seasons.season_payments_csv(season.id))))
        night_rows = json.loads(exports.to_json(exports.night_export(night["night"])))["payments"]
    at_season = [r for r in rows if not r["night"]]
    assert [(r["payer"], r["payee"], r["amount"], r["method"], bool(r["taken_back_at"])) for r in at_season] == [
        (owed.payer, owed.payee, "0.01", "transfer", True),
        (owed.payer, owed.payee, str(cents_to_decimal(owed.cents)), "iou", False),
        (owed.payee, owed.payer, "0.05", "iou", False),
        (owed.payer, owed.payee, "0.05", "cash", False)]
    assert at_season[-1]["at"] == at_season[-2]["at"]  # the IOU paid off later: one recording
    # Every payment of the season's night is there too; the night's export holds none of the season's.
    assert len(rows) - len(at_season) == len(night_rows) == 6
    assert sum(bool(r["taken_back_at"]) for r in rows) == 2
