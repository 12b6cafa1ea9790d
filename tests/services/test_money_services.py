"""Money services on a real database: the night's ledger against the logs, payments, IOUs
carried over, settle-up without what is paid, an early leaver settled alone, balances."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import func, select

from chouette import caches
from chouette.extensions import db
from chouette.ledger import Transfer
from chouette.models import LedgerEntry, Payment, PaymentVoid
from chouette.services import base, commands, ledger, tables
from chouette.services import money as money_service
from tests.concurrency import at_once
from tests.factories import gen_member, gen_night, gen_table

PARTNER_TABLE = {**tables.TABLE_DEFAULTS, "partner_min_players": 4}


def play(table_id: int, actor, *events: dict) -> None:
    """Apply events through the table commands, each at the table's current seq."""
    for event in events:
        commands.play(table_id, tables.last_seq(table_id), event, actor)


def play_night(organizer, night=None) -> dict:
    """A night of two tables driven through commands: joins, order, a partner, doubles, takes,
    drops, results, an undo. Returns the night id and the table ids."""
    night = night or gen_night(name="Friday")
    first = gen_table(night, name="Window", settings=PARTNER_TABLE)
    second = gen_table(night, name="Bar")
    play(first.id, organizer,
         *({"type": "join", "player": name} for name in ("Ann", "Bob", "Cy", "Dee", "Eve")),
         {"type": "order", "players": ["Ann", "Bob", "Cy", "Dee", "Eve"]},
         {"type": "partner", "player": "Bob", "accept": True},
         {"type": "double", "by": "box", "cubes": ["Cy", "Dee"]},
         {"type": "take", "cube": "Cy"},
         {"type": "drop", "cube": "Dee"},
         {"type": "result", "winner": "box", "kind": "gammon"},
         {"type": "result", "winner": "team", "kind": "single"},
         {"type": "undo"},
         {"type": "result", "winner": "box", "kind": "single"})
    play(second.id, organizer,
         *({"type": "join", "player": name} for name in ("Fay", "Gus", "Ann2")),
         {"type": "order", "players": ["Fay", "Gus", "Ann2"]},
         {"type": "double", "by": "Gus"},
         {"type": "drop", "cube": "Gus"},
         {"type": "result", "winner": "team", "kind": "single"})
    caches.clear_all()
    db.session.commit()
    return {"night": night.id, "tables": (first.id, second.id)}


@pytest.fixture
def organizer(app):
    with app.app_context():
        yield gen_member("organizer")


def _settled_night(app, organizer, balances: dict[str, int], name="Night", on=dt.date(2026, 11, 20)):
    """A night whose ledger is exactly ``balances`` (rows written directly, one game)."""
    night = gen_night(name=name, date=on)
    table = gen_table(night)
    db.session.add_all(LedgerEntry(night_id=night.id, table_id=table.id, game=1, seq=1,
                                   player=player, points=cents // 100, cents=cents)
                       for player, cents in balances.items())
    db.session.commit()
    return night.id


def test_night_ledger_equals_the_projection_of_the_logs_after_a_night_of_commands(app, organizer):
    ids = play_night(organizer)
    book = ledger.night_ledger(ids["night"])
    assert book.is_consistent and book.mismatches == ()
    assert book.total_cents == 0 and sum(line.points for line in book.players) == 0
    projection = ledger.projected_totals(book.games)
    assert ledger.ledger_totals(ids["night"]) == projection
    # The projection from scratch, folding each log cold, gives the same numbers.
    from chouette.standings import money
    from chouette.table import fold

    cold: dict[str, int] = {}
    for table_id in ids["tables"]:
        table = tables.get_table(table_id)
        for player, cents in money(fold(table.settings, tables.table_log(table_id)))[1].items():
            cold[player] = cold.get(player, 0) + cents
    assert {k: v for k, v in cold.items() if v} == ledger.night_balances(ids["night"])


def test_night_ledger_shows_each_game_with_cubes_result_and_partner_split(app, organizer):
    ids = play_night(organizer)
    book = ledger.night_ledger(ids["night"])
    window = [game for game in book.games if game.table_name == "Window"]
    first = window[0]
    assert (first.box, first.partner, first.winner, first.kind) == ("Ann", "Bob", "box", "gammon")
    assert first.cube_of("Cy").value == 2 and first.cube_of("Cy").owner == "member"
    assert first.cube_of("Dee").status == "dropped"
    assert first.role("Bob") == "partner" and first.role("Ann") == "box"
    # Dee dropped the 2-cube (1 point), Cy took it and lost a gammon (4 points), Eve a gammon
    # at 1 (2 points): the box side wins 7 points, split 4/3, the odd point to the box.
    assert first.cents == {"Cy": -400, "Dee": -100, "Eve": -200, "Ann": 400, "Bob": 300}
    assert first.box_side_cents == 700
    ann = next(line for line in book.players if line.player == "Ann")
    assert [(game.number, cents) for game, _points, cents in ann.games if game.table_name == "Window"] == [
        (1, 400), (2, window[1].cents["Ann"])]


def test_a_tampered_ledger_row_is_reported_as_a_mismatch(app, organizer):
    ids = play_night(organizer)
    table_id = ids["tables"][1]
    db.session.add_all([
        LedgerEntry(night_id=ids["night"], table_id=table_id, game=1, seq=99, player="Fay", points=1, cents=100),
        LedgerEntry(night_id=ids["night"], table_id=table_id, game=1, seq=99, player="Gus", points=-1, cents=-100),
    ])
    db.session.commit()
    book = ledger.night_ledger(ids["night"])
    assert not book.is_consistent
    assert any("Fay" in line for line in book.mismatches) and any("Gus" in line for line in book.mismatches)


def test_settle_up_lists_the_fewest_transfers_for_the_night(app, organizer):
    night_id = _settled_night(app, organizer, {"Ann": 700, "Bob": -400, "Cy": -300})
    plan = money_service.night_settle_up(night_id)
    assert plan.transfers == [Transfer("Bob", "Ann", 400), Transfer("Cy", "Ann", 300)]
    assert not plan.is_settled


def test_a_payment_is_left_out_of_the_next_settle_up(app, organizer):
    night_id = _settled_night(app, organizer, {"Ann": 700, "Bob": -400, "Cy": -300})
    money_service.record_payment(night_id, payer="Bob", payee="Ann", cents=400, method="cash", actor=organizer)
    plan = money_service.night_settle_up(night_id)
    assert plan.transfers == [Transfer("Cy", "Ann", 300)]
    assert plan.open_balances == {"Ann": 300, "Cy": -300}
    money_service.record_payment(night_id, payer="Cy", payee="Ann", cents=100, method="transfer", actor=organizer)
    assert money_service.night_settle_up(night_id).transfers == [Transfer("Cy", "Ann", 200)]
    money_service.record_payment(night_id, payer="Cy", payee="Ann", cents=200, method="cash", actor=organizer)
    plan = money_service.night_settle_up(night_id)
    assert plan.is_settled and plan.transfers == []
    assert [p.method for p in plan.payments] == ["cash", "transfer", "cash"]


@pytest.mark.parametrize(
    ("payer", "payee", "cents", "method", "message"),
    [
        ("Bob", "Ann", 401, "cash", "Bob owes only €4.00 on this night."),
        ("Cy", "Ann", 400, "cash", "Cy owes only €3.00 on this night."),
        ("Bob", "Bob", 100, "cash", "A payment goes from one player to another."),
        ("Bob", "Ann", 0, "cash", "A payment is an amount of more than zero."),
        ("Bob", "Ann", -100, "cash", "A payment is an amount of more than zero."),
        ("Bob", "Ann", 1.5, "cash", "A payment is an amount of more than zero."),
        ("Bob", "Ann", 100, "cheque", "Unknown payment method: cheque."),
        ("Ann", "Bob", 100, "cash", "Ann owes nothing on this night."),
        ("Bob", "Cy", 100, "cash", "Cy is owed nothing on this night."),
        ("Zed", "Ann", 100, "cash", "Zed owes nothing on this night."),
    ],
)
def test_refused_payments_write_nothing_and_say_why(app, organizer, payer, payee, cents, method, message):
    night_id = _settled_night(app, organizer, {"Ann": 700, "Bob": -400, "Cy": -300})
    with pytest.raises(base.ServiceError, match=re.escape(message)) as refused:
        money_service.record_payment(night_id, payer=payer, payee=payee, cents=cents, method=method, actor=organizer)
    assert str(refused.value) == message
    assert db.session.scalar(select(func.count(Payment.id))) == 0


def test_paying_more_than_the_payee_is_owed_is_refused(app, organizer):
    night_id = _settled_night(app, organizer, {"Ann": 100, "Dee": 600, "Bob": -700})
    with pytest.raises(base.ServiceError, match=r"Ann is owed only €1.00"):
        money_service.record_payment(night_id, payer="Bob", payee="Ann", cents=200, method="cash", actor=organizer)
    assert db.session.scalar(select(func.count(Payment.id))) == 0


def test_a_payment_on_a_missing_night_is_not_found(app, organizer):
    with pytest.raises(base.NotFound, match="No such night"):
        money_service.record_payment(999, payer="Bob", payee="Ann", cents=100, method="cash", actor=organizer)


def test_an_iou_settles_the_night_but_is_carried_over_to_the_next_night(app, organizer):
    first = _settled_night(app, organizer, {"Ann": 700, "Bob": -400, "Cy": -300}, "First", dt.date(2026, 11, 13))
    money_service.record_payment(first, payer="Bob", payee="Ann", cents=400, method="iou", actor=organizer)
    money_service.record_payment(first, payer="Cy", payee="Ann", cents=300, method="cash", actor=organizer)
    assert money_service.night_settle_up(first).is_settled
    second = _settled_night(app, organizer, {"Bob": 200, "Dee": -200}, "Second", dt.date(2026, 11, 20))
    plan = money_service.night_settle_up(second)
    assert [(i.night_id, i.payer, i.payee, i.cents) for i in plan.carried] == [(first, "Bob", "Ann", 400)]
    assert plan.transfers == [Transfer("Dee", "Bob", 200)]
    # The IOU is no money: Bob still owes it over all nights, and Ann is still owed it.
    (eur,) = money_service.club_balances()
    rows = {line.player: line for line in eur.players}
    assert (rows["Bob"].balance, rows["Bob"].iou, rows["Bob"].paid) == (-400 + 200, -400, 0)
    assert (rows["Ann"].balance, rows["Ann"].iou, rows["Ann"].paid) == (400, 400, -300)
    assert rows["Cy"].balance == 0 and rows["Dee"].balance == -200
    assert eur.ious[0].payer == "Bob"
    # The IOU does not show on an earlier night's page.
    assert money_service.night_settle_up(first).carried == []


def test_paying_off_an_iou_clears_it_and_leaves_the_night_settled(app, organizer):
    first = _settled_night(app, organizer, {"Ann": 400, "Bob": -400}, "First", dt.date(2026, 11, 13))
    money_service.record_payment(first, payer="Bob", payee="Ann", cents=400, method="iou", actor=organizer)
    money_service.pay_iou(first, payer="Bob", payee="Ann", cents=150, method="cash", actor=organizer)
    (iou,) = money_service.outstanding_ious()
    assert iou.cents == 250
    assert money_service.night_settle_up(first).is_settled
    money_service.pay_iou(first, payer="Bob", payee="Ann", cents=250, method="transfer", actor=organizer)
    assert money_service.outstanding_ious() == []
    (eur,) = money_service.club_balances()
    assert {line.player: (line.balance, line.iou, line.paid) for line in eur.players} == {
        "Ann": (0, 0, -400), "Bob": (0, 0, 400)}


@pytest.mark.parametrize(
    ("payer", "payee", "cents", "method", "message"),
    [
        ("Bob", "Ann", 401, "cash", "The IOU is only €4.00."),
        ("Ann", "Bob", 100, "cash", "Ann has no IOU to Bob from this night."),
        ("Bob", "Ann", 100, "iou", "Unknown payment method: iou."),
        ("Bob", "Ann", 0, "cash", "A payment is an amount of more than zero."),
        ("Bob", "Bob", 100, "cash", "A payment goes from one player to another."),
    ],
)
def test_refused_iou_payoffs_write_nothing(app, organizer, payer, payee, cents, method, message):
    first = _settled_night(app, organizer, {"Ann": 400, "Bob": -400})
    money_service.record_payment(first, payer="Bob", payee="Ann", cents=400, method="iou", actor=organizer)
    with pytest.raises(base.ServiceError, match=re.escape(message)) as refused:
        money_service.pay_iou(first, payer=payer, payee=payee, cents=cents, method=method, actor=organizer)
    assert str(refused.value) == message
    assert db.session.scalar(select(func.count(Payment.id))) == 1


def test_an_early_leaver_is_settled_alone_and_the_rest_stays_open(app, organizer):
    night_id = _settled_night(app, organizer, {"Ann": -900, "Bob": 500, "Cy": 600, "Dee": -200})
    plan = money_service.night_settle_up(night_id, leaver="Ann")
    assert plan.leaver_transfers == [Transfer("Ann", "Bob", 300), Transfer("Ann", "Cy", 600)]
    for transfer in plan.leaver_transfers:
        money_service.record_payment(night_id, payer=transfer.payer, payee=transfer.payee,
                                cents=transfer.cents, method="cash", actor=organizer)
    after = money_service.night_settle_up(night_id)
    assert "Ann" not in after.open_balances
    assert after.open_balances == {"Bob": 200, "Dee": -200}
    assert after.transfers == [Transfer("Dee", "Bob", 200)]
    with pytest.raises(base.ServiceError, match="Ann has nothing left to settle"):
        money_service.night_settle_up(night_id, leaver="Ann")


def test_an_early_leaver_mid_night_from_commands(app, organizer):
    ids = play_night(organizer)
    plan = money_service.night_settle_up(ids["night"], leaver="Gus")
    owed = plan.open_balances["Gus"]
    assert owed == 100  # the box dropped Gus's double: Gus won 1 point at once
    assert sum(t.cents for t in plan.leaver_transfers) == owed
    assert all(t.payee == "Gus" for t in plan.leaver_transfers)


def test_balances_across_nights_add_each_night_and_payments(app, organizer):
    first = _settled_night(app, organizer, {"Ann": 300, "Bob": -300}, "First", dt.date(2026, 11, 13))
    second = _settled_night(app, organizer, {"Ann": -100, "Bob": 100}, "Second", dt.date(2026, 11, 20))
    money_service.record_payment(first, payer="Bob", payee="Ann", cents=300, method="cash", actor=organizer)
    (eur,) = money_service.club_balances()
    assert [night.id for night in eur.nights] == [first, second]
    rows = {line.player: line for line in eur.players}
    assert rows["Ann"].nights == {first: 300, second: -100}
    assert (rows["Ann"].won, rows["Ann"].paid, rows["Ann"].balance) == (200, -300, -100)
    assert eur.transfers == [Transfer("Ann", "Bob", 100)]
    (own,) = money_service.club_balances(player="Bob")
    assert [line.player for line in own.players] == ["Bob"] and own.players[0].balance == 100


def test_balances_are_kept_apart_per_currency(app, organizer):
    _settled_night(app, organizer, {"Ann": 300, "Bob": -300}, "Euro night")
    night = gen_night(name="Dollar night", currency="USD")
    table = gen_table(night)
    db.session.add_all([
        LedgerEntry(night_id=night.id, table_id=table.id, game=1, seq=1, player="Ann", points=-1, cents=-500),
        LedgerEntry(night_id=night.id, table_id=table.id, game=1, seq=1, player="Bob", points=1, cents=500),
    ])
    db.session.commit()
    groups = {group.currency: group for group in money_service.club_balances()}
    assert set(groups) == {"EUR", "USD"}
    assert {line.player: line.balance for line in groups["USD"].players} == {"Ann": -500, "Bob": 500}
    assert {line.player: line.balance for line in groups["EUR"].players} == {"Ann": 300, "Bob": -300}


def test_two_clerks_ticking_the_same_transfer_at_once_record_it_once(app, organizer):

    from chouette.models import Member

    night_id = _settled_night(app, organizer, {"Ann": 400, "Bob": -400})
    organizer_id = organizer.id
    db.session.commit()
    results = at_once(app, 4, lambda _number: money_service.record_payment(
        night_id, payer="Bob", payee="Ann", cents=400, method="cash",
        actor=db.session.get(Member, organizer_id)), refused=(base.ServiceError,))
    assert sorted(results) == ["ok", "refused", "refused", "refused"], results
    assert db.session.scalar(select(func.count(Payment.id))) == 1


def test_undo_takes_back_the_latest_payment_only(app, organizer):
    night_id = _settled_night(app, organizer, {"Ann": 700, "Bob": -400, "Cy": -300})
    money_service.record_payment(night_id, payer="Bob", payee="Ann", cents=400, method="cash", actor=organizer)
    money_service.record_payment(night_id, payer="Cy", payee="Ann", cents=300, method="iou", actor=organizer)
    (removed,) = money_service.undo_last_payment(night_id, actor=organizer)
    assert (removed.payer, removed.payee, removed.method) == ("Cy", "Ann", "iou")
    assert money_service.night_settle_up(night_id).transfers == [Transfer("Cy", "Ann", 300)]
    assert money_service.outstanding_ious() == []
    money_service.undo_last_payment(night_id, actor=organizer)
    assert money_service.night_settle_up(night_id).open_balances == {"Ann": 700, "Bob": -400, "Cy": -300}
    with pytest.raises(base.ServiceError, match=r"There is no payment to undo on this night."):
        money_service.undo_last_payment(night_id, actor=organizer)


def test_undo_takes_back_an_iou_payoff_whole(app, organizer):
    night_id = _settled_night(app, organizer, {"Ann": 400, "Bob": -400})
    money_service.record_payment(night_id, payer="Bob", payee="Ann", cents=400, method="iou", actor=organizer)
    money_service.pay_iou(night_id, payer="Bob", payee="Ann", cents=100, method="cash", actor=organizer)
    removed = money_service.undo_last_payment(night_id, actor=organizer)
    assert sorted((p.payer, p.method) for p in removed) == [("Ann", "iou"), ("Bob", "cash")]
    (iou,) = money_service.outstanding_ious()
    assert iou.cents == 400
    # Nothing is deleted: the three rows stay, two are cancelled by payment_void rows.
    assert db.session.scalar(select(func.count(Payment.id))) == 3
    assert db.session.scalar(select(func.count(PaymentVoid.id))) == 2
    assert [p.method for p in money_service.night_payments(night_id)] == ["iou"]
