"""One person, one member (issue 12, finding 2; ``chouette.services.identity``).

The issue's reproductions, each a test: a second member "Cy " is refused; "Zoe  Two" answers
her own cube; "A\\u200bnn" is refused wherever a name is typed; typing "marco" seats the member
Marco; a rename keeps their history and cannot merge two members; a member cannot sit at two
open tables; a seat is its member's by id, so an account of the same name answers nothing.
"""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from sqlalchemy import select, text

from chouette import caches
from chouette.extensions import db
from chouette.models import LedgerEntry, Member, Payment, TableEvent
from chouette.services import (
    base,
    commands,
    deciders,
    exports,
    identity,
    members,
    money,
    nights,
    players,
    seasons,
    table_states,
)
from chouette.services import tables as tables_service
from tests.conftest import csrf_token_from
from tests.factories import PASSWORD, gen_member, gen_night, gen_table


def _play(table_id: int, actor, *events) -> table_states.TablePlay:
    played = None
    for event in events:
        played = commands.play(table_id, tables_service.last_seq(table_id), event, actor)
    assert played is not None
    return played


def _member(name: str, username: str, role: str = "player") -> Member:
    return members.create_member(name=name, username=username, password=PASSWORD, role=role)


def _join_payloads(table_id: int) -> list[dict]:
    return [e.payload for e in db.session.scalars(
        select(TableEvent).where(TableEvent.table_id == table_id, TableEvent.type == "join")
        .order_by(TableEvent.seq))]


@pytest.fixture
def organizer(app):
    with app.app_context():
        return gen_member("organizer", name="Olga", username="olga")


# --------------------------------------------------------------------------- unique names


@pytest.mark.parametrize("second", ["Cy ", "cy", "CY", " Cy", "C\u0443"[:1] + "y"])
def test_a_second_member_of_the_same_name_is_refused(app, second):
    with app.app_context():
        _member("Cy", "cy")
        with pytest.raises(base.ServiceError, match="There is already a member called Cy"):
            _member(second, "cy2")
        assert db.session.scalar(select(Member).where(Member.username == "cy2")) is None


def test_the_admin_page_refuses_a_second_cy_with_the_reason(app, client, login_as):
    with app.app_context():
        _member("Cy", "cy")
    login_as("admin")
    token = csrf_token_from(client.get("/admin/members").data)
    response = client.post("/admin/members", data={
        "csrf_token": token, "name": "Cy ", "username": "cy2", "password": "correct-horse-9",
        "role": "player"}, follow_redirects=True)
    assert "There is already a member called Cy" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Member).where(Member.username == "cy2")) is None


def test_the_database_refuses_two_members_of_one_key(app):
    with app.app_context():
        gen_member(name="Dee", username="dee")
        with pytest.raises(Exception, match=r"(?i)unique"):
            gen_member(name=" dee ", username="dee2")
        db.session.rollback()


def test_member_names_are_stored_in_one_spelling(app):
    with app.app_context():
        zoe = _member("  Zoe \t Two ", "zoe")
        decomposed = _member("Zoe\u0308", "zoe2")
        assert zoe.name == "Zoe Two" and zoe.name_key == "zoe two"
        assert decomposed.name == "Zo\u00eb"


# --------------------------------------------------------------------------- invisible characters


@pytest.mark.parametrize("name", ["A\u200bnn", "Ann\u200d", "\u202eAnn", "A\u2066nn", "\ufeffAnn",
                                  "A\u00adnn", "A\u3164nn"])
def test_an_invisible_character_is_refused_in_a_member_name(app, name):
    with app.app_context(), pytest.raises(base.ServiceError, match="invisible or control character"):
        _member(name, "ann")


def test_an_invisible_guest_name_is_refused_at_the_table(app, organizer):
    with app.app_context():
        table = gen_table()
        with pytest.raises(base.ServiceError, match=r"U\+200B"):
            _play(table.id, organizer, {"type": "join", "player": "A\u200bnn"})
        assert tables_service.last_seq(table.id) == 0


@pytest.mark.parametrize(("path", "field", "data"), [
    ("/tables/{table}/join", "player", {}),
    ("/nights/new", "name", {"date": "2026-11-21", "currency": "EUR"}),
    ("/admin/members", "name", {"username": "ann", "password": "correct-horse-9", "role": "player"}),
])
def test_a_zero_width_name_typed_in_a_form_is_refused_with_400(app, client, login_as, path, field, data):
    with app.app_context():
        table = gen_table()
    login_as("admin")
    response = client.post(path.format(table=table.id), data={**data, field: "A\u200bnn", "seq": "0"})
    assert response.status_code == 400
    assert "U+200B" in response.get_data(as_text=True)
    with app.app_context():
        assert tables_service.last_seq(table.id) == 0
        assert db.session.scalar(select(Member).where(Member.username == "ann")) is None


def test_a_password_may_hold_any_character(app, client):
    with app.app_context():
        gen_member(name="Pat", username="pat")
    response = client.post("/auth/login", data={"username": "pat", "password": "pass\u200bword"})
    assert response.status_code != 400  # a wrong password, refused as such


@pytest.mark.parametrize("where", ["night", "table", "season"])
def test_night_table_and_season_names_refuse_invisible_characters(app, organizer, where):
    with app.app_context():
        night = gen_night()
        makers = {
            "night": lambda: nights.open_night(name="Fri\u200bday", on=dt.date(2026, 11, 21),
                                               actor=organizer),
            "table": lambda: tables_service.create_table(night.id, name="T\u202e1", settings={},
                                                         actor=organizer),
            "season": lambda: seasons.create_season(name="Aut\u2060umn", first=dt.date(2026, 11, 1),
                                                    last=dt.date(2026, 11, 30), currency="EUR",
                                                    actor=organizer),
        }
        with pytest.raises(base.ServiceError, match="invisible or control character"):
            makers[where]()


def test_an_import_with_a_zero_width_name_is_refused(app):
    data = {"night": {"name": "N", "date": "2026-11-21"},
            "tables": [{"name": "T", "table": {}, "events": [{"type": "join", "player": "A\u200bnn"}]}]}
    with app.app_context(), pytest.raises(exports.ImportRefused, match=r"U\+200B"):
        exports.read_night_export(json.dumps(data))


# --------------------------------------------------------------------------- seats by id


def test_typing_marco_seats_the_member_marco(app, organizer):
    with app.app_context():
        marco = _member("Marco", "marco")
        table = gen_table()
        played = _play(table.id, organizer, {"type": "join", "player": "  marco "})
        assert played.state.players == ["Marco"]
        assert _join_payloads(table.id) == [{"player": "Marco", "member_id": marco.id}]
        with pytest.raises(Exception, match="Marco is already at the table"):
            _play(table.id, organizer, {"type": "join", "player": "MARCO"})


def test_a_guest_is_seated_without_an_id_and_an_id_sent_is_never_trusted(app, organizer):
    with app.app_context():
        marco = _member("Marco", "marco")
        table = gen_table()
        _play(table.id, organizer, {"type": "join", "player": "Gus", "member_id": marco.id})
        assert _join_payloads(table.id) == [{"player": "Gus"}]
        assert identity.seat_members(table.id) == {}


def _seat_four(table_id: int, organizer, names=("Ann", "Bob", "Zoe  Two", "Dee")) -> None:
    _play(table_id, organizer, *({"type": "join", "player": n} for n in names),
          {"type": "order", "players": [" ".join(n.split()) for n in names]})


def test_zoe_two_answers_her_own_cube(app, client, organizer, auth):
    with app.app_context():
        _member("Zoe  Two", "zoe")
        table = gen_table()
        _seat_four(table.id, organizer)
        _play(table.id, organizer, {"type": "double", "by": "box", "cubes": ["Zoe Two"]})
        seq = tables_service.last_seq(table.id)
    auth.login("zoe")
    response = client.post(f"/tables/{table.id}/answer",
                           data={"answer": "take", "cube": "Zoe Two", "seq": seq})
    assert response.status_code == 303
    with app.app_context():
        assert tables_service.last_seq(table.id) == seq + 1


def test_an_account_of_the_same_name_cannot_answer_anothers_cube(app, client, organizer, auth):
    """Cy's seat is the member Cy's by id. An account whose name is "Cy" too (written behind the
    services' back, its key mangled: the checks make such a twin impossible otherwise)
    answers nothing there: the seat is not theirs."""
    with app.app_context():
        cy = _member("Cy", "cy")
        table = gen_table()
        _seat_four(table.id, organizer, ("Ann", "Bob", "Cy", "Dee"))
        _play(table.id, organizer, {"type": "double", "by": "box", "cubes": ["Cy"]})
        seq = tables_service.last_seq(table.id)
        db.session.execute(text("INSERT INTO member (name, name_key, username, password_hash, role, "
                                "active, session_epoch, created_at) VALUES ('Cy', 'cy-twin', 'twin', "
                                ":hash, 'player', :active, 0, '2026-11-21 20:00:00')").bindparams(hash=cy_hash(), active=True))
        db.session.commit()
        assert identity.seat_members(table.id) == {"Cy": cy.id}
    assert auth.login("twin").status_code == 303
    response = client.post(f"/tables/{table.id}/answer", data={"answer": "take", "cube": "Cy", "seq": seq})
    assert response.status_code == 403
    with app.app_context():
        assert tables_service.last_seq(table.id) == seq
    auth.logout()
    auth.login("cy")
    response = client.post(f"/tables/{table.id}/answer", data={"answer": "take", "cube": "Cy", "seq": seq})
    assert response.status_code == 303


def cy_hash() -> str:
    from werkzeug.security import generate_password_hash

    from tests.factories import PASSWORD, TEST_HASH

    return generate_password_hash(PASSWORD, method=TEST_HASH)


def test_a_member_at_two_open_tables_is_refused_naming_the_other(app, organizer):
    with app.app_context():
        _member("Marco", "marco")
        night = gen_night(name="Friday")
        first, second = gen_table(night, name="Blue"), gen_table(night, name="Red")
        _play(first.id, organizer, {"type": "join", "player": "Marco"})
        with pytest.raises(base.ServiceError, match="Marco already sits at the table Blue of Friday"):
            _play(second.id, organizer, {"type": "join", "player": "marco"})
        assert tables_service.last_seq(second.id) == 0
        # Once Marco has left the first table, the second may seat Marco.
        _play(first.id, organizer, {"type": "leave", "player": "Marco"})
        assert _play(second.id, organizer, {"type": "join", "player": "Marco"}).state.players == ["Marco"]


def test_a_table_of_a_closed_night_does_not_hold_a_member(app, organizer):
    with app.app_context():
        _member("Marco", "marco")
        old = gen_table(gen_night(name="Last week"))
        _play(old.id, organizer, {"type": "join", "player": "Marco"})
        nights.close_night(old.night_id, actor=organizer)
        assert _play(gen_table().id, organizer, {"type": "join", "player": "Marco"}).state.players == ["Marco"]


# --------------------------------------------------------------------------- a rename


def _finished_game(table_id: int, organizer) -> None:
    _seat_four(table_id, organizer, ("Marco", "Bob", "Cy", "Dee"))
    _play(table_id, organizer, {"type": "result", "winner": "box", "kind": "single"})


def test_a_renamed_member_keeps_their_history_under_the_new_name(app, client, organizer, auth):
    with app.app_context():
        marco = _member("Marco", "marco")
        table = gen_table()
        _finished_game(table.id, organizer)
        money.record_payment(table.night_id, payer="Bob", payee="Marco", cents=100,
                                method="cash", actor=organizer)
        admin = gen_member("admin")
        members.update_member(marco.id, name="Marcus", role="player", locale=None, active=True,
                               actor=admin)
        # The ledger and the payments follow the member by id.
        assert set(db.session.scalars(select(LedgerEntry.player).where(
            LedgerEntry.member_id == marco.id))) == {"Marcus"}
        assert db.session.scalar(select(Payment.payee)) == "Marcus"
        # The table reads the member under the new name, and a new command in it is theirs.
        played = table_states.load_play(table.id)
        assert "Marcus" in played.state.players and "Marco" not in played.state.players
        assert identity.seat_members(table.id) == {"Marcus": marco.id}
        _play(table.id, organizer, {"type": "double", "by": "box", "cubes": ["Cy"]})
        history = players.player_history("Marcus")
        assert len(history.games) == 1 and history.member is not None
        seq = tables_service.last_seq(table.id)
    caches.clear_all(app)
    auth.login("marco")
    page = client.get(f"/tables/{table.id}").get_data(as_text=True)
    assert "Marcus" in page and "Marco<" not in page
    assert "Marcus joins the table" in page and "Marco joins" not in page  # the log lines too
    assert "Marcus" in client.get("/players/Marcus").get_data(as_text=True)
    assert client.get("/players/").status_code == 200
    with app.app_context():
        assert tables_service.last_seq(table.id) == seq


def test_a_rename_cannot_merge_two_members(app, organizer):
    with app.app_context():
        marco, _bob = _member("Marco", "marco"), _member("Bob", "bob")
        admin = gen_member("admin")
        with pytest.raises(base.ServiceError, match="There is already a member called Bob"):
            members.update_member(marco.id, name=" bob", role="player", locale=None, active=True,
                                   actor=admin)
        members.update_member(marco.id, name="Marcus", role="player", locale=None, active=True,
                               actor=admin)
        # The former name stays theirs: nobody else takes it, and typing it seats them.
        with pytest.raises(base.ServiceError, match="Marco was a name of the member Marcus"):
            _member("Marco", "marco2")
        table = gen_table()
        assert _play(table.id, organizer, {"type": "join", "player": "marco"}).state.players == ["Marcus"]
        # The member may take their own former name back.
        members.update_member(marco.id, name="Marco", role="player", locale=None, active=True,
                               actor=admin)
        assert table_states.load_play(table.id).state.players == ["Marco"]


def test_a_rename_to_a_guests_name_at_their_table_is_refused(app, organizer):
    with app.app_context():
        marco = _member("Marco", "marco")
        table = gen_table()
        _play(table.id, organizer, {"type": "join", "player": "Marco"},
              {"type": "join", "player": "Gus"})
        with pytest.raises(base.ServiceError, match="Gus is already a player at the table"):
            members.update_member(marco.id, name="gus", role="player", locale=None, active=True,
                                   actor=gen_member("admin"))


def test_a_new_member_named_as_a_guest_who_played_takes_over_their_history(app, organizer):
    with app.app_context():
        table = gen_table()
        _finished_game(table.id, organizer)  # Marco, a guest
        assert db.session.scalar(select(LedgerEntry.member_id).where(LedgerEntry.player == "Marco")) is None
        marco = _member("Marco", "marco")
        assert identity.seat_members(table.id) == {"Marco": marco.id}
        assert set(db.session.scalars(select(LedgerEntry.member_id).where(LedgerEntry.player == "Marco"))) \
            == {marco.id}


def test_the_night_import_refuses_a_file_with_an_invisible_name_in_a_form(app, client, login_as):
    login_as("organizer")
    page = client.get("/nights/import")
    data = {"night": {"name": "N", "date": "2026-11-21"},
            "tables": [{"name": "T", "table": {}, "events": [{"type": "join", "player": "A\u200bnn"}]}]}
    response = client.post("/nights/import", data={
        "csrf_token": csrf_token_from(page.data),
        "file": (io.BytesIO(json.dumps(data).encode()), "night.json")})
    assert response.status_code in (400, 422)
    assert "U+200B" in response.get_data(as_text=True)


def test_two_tables_seating_one_member_at_once_seat_them_once(app, organizer):
    """Two organizers type Marco at two tables at the same moment, on two app nodes: one seats
    Marco, the other is refused naming the first (PostgreSQL: the joins of one member wait for
    each other; SQLite: writers are serialised)."""
    from tests.concurrency import at_once, second_node

    with app.app_context():
        _member("Marco", "marco")
        night = gen_night(name="Friday")
        tables = [gen_table(night, name=name).id for name in ("Blue", "Red")]

    def attempt(number: int) -> None:
        actor = db.session.get(Member, organizer.id)
        commands.play(tables[number], 0, {"type": "join", "player": "Marco"}, actor)

    with second_node(app) as node:
        results = at_once(app, 2, attempt, (base.ServiceError,), nodes=[app, node])
    assert sorted(results) == ["ok", "refused"], results
    with app.app_context():
        caches.clear_all(app)
        seated = [table_id for table_id in tables if table_states.load_play(table_id).state.players]
        assert len(seated) == 1


def test_each_state_knows_who_sits_where_as_its_log_says_through_joins_undos_and_renames(app, organizer):
    """A new state takes its earlier state's seats when no join came between; at every step
    each member is found on the seat the log gives them, read afresh (a join, a guest's join,
    a rename, a guest made a member, an undone join, a leave)."""
    with app.app_context():
        ann, bob, cy = (_member(name, name.lower()) for name in ("Ann", "Bob", "Cy"))
        admin = gen_member("admin")
        table = gen_table()
        steps = [
            {"type": "join", "player": "Ann", "member_id": ann.id},
            {"type": "join", "player": "Bob", "member_id": bob.id},
            {"type": "join", "player": "Guest"},
            {"type": "order", "players": ["Ann", "Bob", "Guest"]},
            {"type": "result", "winner": "box", "kind": "single"},
            "rename Bob",
            {"type": "result", "winner": "team", "kind": "single"},
            "the guest becomes a member",
            {"type": "result", "winner": "box", "kind": "single"},
            {"type": "join", "player": "Cy", "member_id": cy.id},
            {"type": "undo"},
            {"type": "join", "player": "Cy", "member_id": cy.id},
            {"type": "leave", "player": "Guest"},
            {"type": "result", "winner": "box", "kind": "gammon"},
        ]
        watched = [ann, bob, cy]
        for step in steps:
            if step == "the guest becomes a member":
                # The seat is theirs from the table's next event (each state's seats are read once).
                watched.append(_member("Guest", "guest"))
                db.session.commit()
                continue
            if step == "rename Bob":
                members.update_member(bob.id, name="Robert", role="player", locale=None, active=True,
                                      actor=admin)
                db.session.commit()
            else:
                _play(table.id, organizer, step)
            played = table_states.load_play(table.id)
            db.session.commit()
            fresh = identity.seat_members_of([table.id], through=played.seq)[table.id]
            for member in watched:
                seat = next((name for name, owner in fresh.items() if owner == member.id), None)
                expected = seat if seat is not None and seat in played.state.players else None
                assert deciders.seat_name(member, table.id, played.state) == expected, (step, member.name)
        assert deciders.seat_name(bob, table.id, played.state) == "Robert"
        assert deciders.seat_name(cy, table.id, played.state) == "Cy"
        assert deciders.seat_name(watched[-1], table.id, played.state) == "Guest"
