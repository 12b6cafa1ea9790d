"""Money at its bounds on every database (issue 12, finding 5): the highest stake with the
highest cube and a backgammon is booked to the cent and shown on every page; past the bounds
the web answers the rules' reason (422), writes nothing, and the table plays on.

Before: a per-player stake had no upper bound (10**17 cents: OverflowError, 500, on SQLite);
the ledger's ``cents`` was a 32-bit column on PostgreSQL (500 "integer out of range" for the
highest table stake with the cube at 8 and a backgammon); 69 redoubles then a result: 500.
"""

from __future__ import annotations

import csv
import io

import pytest
from flask import url_for
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.ledger import cents_to_decimal
from chouette.models import LedgerEntry, Member, Payment
from chouette.services import commands, money, seasons, table_states, tables
from chouette.table.cube_rules import MAX_CUBE
from chouette.table.settings import MAX_STAKE_CENTS
from tests.conftest import AuthActions
from tests.factories import gen_member, gen_night, gen_table


def _play(table_id: int, *events) -> None:
    actor = db.session.scalar(select(Member).where(Member.username == "boss"))
    for event in events:
        commands.play(table_id, tables.last_seq(table_id), event, actor)


def _doubles(cube: int, members: list[str]) -> list[dict]:
    """The box doubles ``members`` and they take, then each redoubles and the box takes, and
    so on until the cubes reach ``cube``."""
    events: list[dict] = []
    value = 1
    while value < cube:
        events += [{"type": "double", "by": "box", "cubes": members},
                   *({"type": "take", "cube": m} for m in members)]
        value *= 2
        if value < cube:
            for member in members:
                events += [{"type": "double", "by": member}, {"type": "take", "cube": member}]
            value *= 2
    return events


@pytest.fixture
def club(app):
    """The admin ``boss``, an open night, and a season around it."""
    with app.app_context():
        admin = gen_member("admin", username="boss", name="Boss")
        night = gen_night(opened_by_id=admin.id)
        season = seasons.create_season(name="Autumn", first=night.date, last=night.date,
                                        currency=night.currency, actor=admin)
        ids = {"night_id": night.id, "member_id": admin.id, "season_id": season.id, "admin": admin}
        db.session.remove()
    return ids


def _table(app, club, players, **settings) -> int:
    with app.app_context():
        table_id = gen_table(db.session.get(money.Night, club["night_id"]),
                             created_by_id=club["member_id"],
                             settings={**tables.TABLE_DEFAULTS, "partner_min_players": 0, **settings}).id
        for name, stake in players:
            event = {"type": "join", "player": name}
            if stake is not None:
                event["stake_cents"] = stake
            _play(table_id, event)
        _play(table_id, {"type": "order", "players": [name for name, _stake in players]})
        db.session.remove()
        return table_id


def _seq(app, table_id: int) -> str:
    with app.app_context():
        return str(tables.last_seq(table_id))


def _ledger(app, club) -> dict[str, int]:
    with app.app_context():
        rows = db.session.execute(select(LedgerEntry.player, func.sum(LedgerEntry.cents))
                                  .where(LedgerEntry.night_id == club["night_id"])
                                  .group_by(LedgerEntry.player)).all()
        return dict(rows)


def _every_page_answers(app, client, club, table_id: int, names: list[str]) -> None:
    """Every GET page of the club (ledger, settle-up, balances, player pages, season, CSVs,
    big screen...) answers without a server error."""
    ids = {"night_id": club["night_id"], "table_id": table_id, "season_id": club["season_id"],
           "member_id": club["member_id"]}
    with app.test_request_context():
        urls = [url_for(rule.endpoint, **{n: ids.get(n, names[0]) for n in rule.arguments})
                for rule in app.url_map.iter_rules()
                if "GET" in (rule.methods or ()) and rule.endpoint not in ("static", "streams.table",
                                                                           "streams.display")]
    urls += [f"/players/{name}" for name in names]
    for url in urls:
        response = client.get(url)
        assert response.status_code < 500, (url, response.status_code)


def test_the_highest_table_stake_with_the_cube_at_8_and_a_backgammon_is_booked(app, client, club):
    table_id = _table(app, club, [("Ann", None), ("Bob", None)], stake_cents=MAX_STAKE_CENTS)
    with app.app_context():
        _play(table_id, *_doubles(8, ["Bob"]))
    AuthActions(client).login("boss")
    response = client.post(f"/tables/{table_id}/result",
                           data={"winner": "box", "kind": "backgammon", "seq": _seq(app, table_id)})
    assert response.status_code == 303, response.data[:300]
    amount = 8 * 3 * MAX_STAKE_CENTS  # 2.4e9 cents: past a 32-bit column
    assert amount > 2**31
    assert _ledger(app, club) == {"Ann": amount, "Bob": -amount}
    rows = list(csv.DictReader(io.StringIO(client.get(f"/nights/{club['night_id']}/ledger.csv").data.decode())))
    assert {row["player"]: row["amount"] for row in rows} == {"Ann": cents_to_decimal(amount),
                                                            "Bob": cents_to_decimal(-amount)}
    _every_page_answers(app, client, club, table_id, ["Ann", "Bob"])


def test_per_player_stakes_of_30_million_cents_are_booked(app, client, club):
    players = [("Ann", 30_000_000), ("Bob", 30_000_000), ("Cy", 30_000_000), ("Dee", 30_000_000)]
    table_id = _table(app, club, players, per_player_stakes=True)
    with app.app_context():
        _play(table_id, *_doubles(8, ["Bob", "Cy", "Dee"]),
              {"type": "result", "winner": "box", "kind": "backgammon"})
    box = 3 * 8 * 3 * 30_000_000
    assert _ledger(app, club)["Ann"] == box > 2**31
    AuthActions(client).login("boss")
    _every_page_answers(app, client, club, table_id, ["Ann", "Bob"])


def test_at_the_highest_stake_and_cube_a_double_past_it_is_refused_and_the_game_still_ends(app, client, club):
    table_id = _table(app, club, [("Ann", None), ("Bob", None)], stake_cents=MAX_STAKE_CENTS)
    with app.app_context():
        _play(table_id, *_doubles(MAX_CUBE, ["Bob"]))
        state = table_states.load_play(table_id).state
        assert state.game.cubes["Bob"].value == MAX_CUBE and state.game.cubes["Bob"].owner == "box"
        db.session.remove()
    AuthActions(client).login("boss")
    seq = _seq(app, table_id)
    for headers in ({}, {"HX-Request": "true"}):
        response = client.post(f"/tables/{table_id}/double", data={"by": "box", "cubes": "Bob", "seq": seq},
                               headers=headers)
        assert response.status_code == 422
        assert ("a cube goes no higher than 4096: Bob&#39;s cube would reach 8192"
                in response.get_data(as_text=True))
        assert _seq(app, table_id) == seq
    italian = client.post(f"/tables/{table_id}/double", data={"by": "box", "cubes": "Bob", "seq": seq},
                          headers={"Accept-Language": "it"})
    assert "un cubo non va oltre 4096: il cubo di Bob arriverebbe a 8192" in italian.get_data(as_text=True)
    # Not stuck: the result is booked, the largest amount the bounds allow for one cube.
    response = client.post(f"/tables/{table_id}/result",
                           data={"winner": "team", "kind": "backgammon", "seq": seq})
    assert response.status_code == 303
    amount = MAX_CUBE * 3 * MAX_STAKE_CENTS
    assert _ledger(app, club) == {"Ann": -amount, "Bob": amount}
    # ... paid in full at the settle-up (a 64-bit payment), and every page shows it.
    response = client.post(f"/nights/{club['night_id']}/payments",
                           data={"payer": "Ann", "payee": "Bob", "amount": cents_to_decimal(amount),
                                 "method": "transfer"})
    assert response.status_code in (200, 303), response.data[:300]
    with app.app_context():
        assert db.session.scalar(select(Payment.cents)) == amount
    _every_page_answers(app, client, club, table_id, ["Ann", "Bob"])


def test_69_redoubles_stop_at_the_limit_and_a_result_is_booked(app, client, club):
    table_id = _table(app, club, [("Ann", None), ("Bob", None)])
    AuthActions(client).login("boss")
    statuses = []
    for n in range(69):
        by = "box" if n % 2 == 0 else "Bob"
        response = client.post(f"/tables/{table_id}/double",
                               data={"by": by, "cubes": "Bob", "seq": _seq(app, table_id)})
        statuses.append(response.status_code)
        if response.status_code == 303:
            assert client.post(f"/tables/{table_id}/answer",
                               data={"answer": "take", "cube": "Bob", "seq": _seq(app, table_id)}
                               ).status_code == 303
    assert statuses.count(303) == 12 and set(statuses) == {303, 422}
    response = client.post(f"/tables/{table_id}/result",
                           data={"winner": "team", "kind": "backgammon", "seq": _seq(app, table_id)})
    assert response.status_code == 303
    assert _ledger(app, club) == {"Ann": -MAX_CUBE * 3 * 100, "Bob": MAX_CUBE * 3 * 100}


@pytest.mark.parametrize("stake", ["1000000.01", "100000000000000000", "99999999999999999999"])
def test_a_players_stake_past_the_bound_is_refused_with_the_reason(app, client, club, stake):
    table_id = _table(app, club, [("Ann", None), ("Bob", None)], per_player_stakes=True)
    AuthActions(client).login("boss")
    seq = _seq(app, table_id)
    response = client.post(f"/tables/{table_id}/join", data={"player": "Cy", "stake": stake, "seq": seq})
    assert response.status_code == 422
    assert "Cy&#39;s stake can be at most 1000000.00 a point" in response.get_data(as_text=True)
    assert _seq(app, table_id) == seq
    response = client.post(f"/tables/{table_id}/join", data={"player": "Cy", "stake": "1000000.00", "seq": seq})
    assert response.status_code == 303


def test_the_table_stake_goes_up_to_the_bound(app, client, club):
    AuthActions(client).login("boss")
    form = {**{key: value for key, value in tables.TABLE_DEFAULTS.items() if not isinstance(value, bool)},
            "name": "High", "stake_cents": "1000000.00"}
    response = client.post(f"/nights/{club['night_id']}/tables/new", data=form)
    assert response.status_code == 303, response.data[:500]
    with app.app_context():
        table = tables.get_table(int(response.headers["Location"].rstrip("/").split("/")[-1]))
        assert table.settings["stake_cents"] == MAX_STAKE_CENTS
    response = client.post(f"/nights/{club['night_id']}/tables/new", data={**form, "stake_cents": "1000000.01"})
    assert response.status_code == 422 and b"That stake is too large." in response.data
