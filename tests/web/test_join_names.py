"""A typo at "Join the table" seats no phantom guest (issue 25, item 4; ``services.near_names``).

Names match members without regard to accents and case ("bob muller" seats Bob Müller, no
question); a name close to a member's ("Ann Archr") asks "Did you mean Ann Archer?" and writes
nothing until the organizer picks the member or confirms a new guest; a clearly new name ("Zed
Quill") seats a guest at once. Guests are marked "guest" ("ospite") on the seats, the big
screen, the ledger and the history.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import LedgerEntry, Member, TableEvent
from chouette.names import CLOSE_RATIO, close_names, closeness, loose_key
from chouette.services import base, commands, deciders, members, near_names, table_states
from chouette.services import tables as tables_service
from tests.factories import PASSWORD, gen_member, gen_night, gen_table


def _member(name: str, username: str) -> Member:
    return members.create_member(name=name, username=username, password=PASSWORD, role="player")


def _joins(table_id: int) -> list[dict]:
    return [e.payload for e in db.session.scalars(
        select(TableEvent).where(TableEvent.table_id == table_id, TableEvent.type == "join")
        .order_by(TableEvent.seq))]


@pytest.fixture
def club(app, login_as):
    """Olga runs a table of an open night; Ann Archer and Bob Müller are members."""
    olga = login_as("organizer", name="Olga", username="olga")
    with app.app_context():
        ann, bob = _member("Ann Archer", "ann"), _member("Bob Müller", "bob")
        night = gen_night(name="Friday", opened_by_id=olga.id)
        table = gen_table(night, name="Red", created_by_id=olga.id)
        return {"olga": olga, "ann": ann.id, "bob": bob.id, "table": table.id, "night": night.id}


def _seq(app, table_id: int) -> int:
    with app.app_context():
        return tables_service.last_seq(table_id)


def _join(client, app, table_id: int, htmx: dict | None = None, **form: str):
    return client.post(f"/tables/{table_id}/join", data={"seq": _seq(app, table_id), **form},
                       headers=htmx or {})


# --------------------------------------------------------------------------- closeness


def test_names_are_one_without_accents_and_case():
    assert loose_key("Bob Müller") == loose_key("bob muller") == loose_key("BOB  MULLER ")
    assert loose_key("Ann Archer") != loose_key("Ann Archr")


def test_the_names_examples_run():
    import doctest

    from chouette import names

    result = doctest.testmod(names)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("typed", ["Ann Archr", "ann archr", "Ann Arhcer", "Anne Archer", "Archer Ann", "Ann"])
def test_a_name_close_to_a_members_is_close(typed):
    assert closeness(typed, "Ann Archer") >= CLOSE_RATIO
    assert close_names(typed, ["Ann Archer", "Bob Müller", "Cy"]) == ["Ann Archer"]


@pytest.mark.parametrize("typed", ["Zed Quill", "Anna", "Bob", "Ty", "Archibald"])
def test_a_clearly_new_name_is_close_to_no_member(typed):
    assert close_names(typed, ["Ann Archer", "Anne", "Rob Stone", "Cy"]) == []


# --------------------------------------------------------------------------- the service


def test_bob_muller_seats_the_member_bob_mueller_by_id(app, club):
    with app.app_context():
        olga = db.session.get(Member, club["olga"].id)
        for typed in ("bob muller", "BOB MULLER"):
            assert near_names.members_to_ask(typed) == []
        commands.play(club["table"], 0, {"type": "join", "player": "bob muller"}, olga)
        assert _joins(club["table"]) == [{"player": "Bob Müller", "member_id": club["bob"]}]


def test_the_service_asks_about_a_close_name_and_not_about_a_new_one(app, club):
    with app.app_context():
        assert near_names.members_to_ask("Ann Archr") == ["Ann Archer"]
        assert near_names.members_to_ask("Bob Muler") == ["Bob Müller"]
        assert near_names.members_to_ask("Zed Quill") == []
        assert near_names.members_to_ask("ann archer") == []  # the member's own name: it seats them


def test_a_name_two_members_share_but_for_accents_seats_neither(app, club):
    with app.app_context():
        olga = db.session.get(Member, club["olga"].id)
        _member("José", "jose1"), _member("Jose", "jose2")
        assert near_names.members_to_ask("JOSÈ") == ["Jose", "José"]
        assert not near_names.may_be_a_guest("JOSÈ")
        with pytest.raises(base.ServiceError, match=r"More than one member is called JOSÈ but for the accents \(Jose, José\)"):
            commands.play(club["table"], 0, {"type": "join", "player": "JOSÈ"}, olga)
        db.session.rollback()
        assert tables_service.last_seq(club["table"]) == 0


# --------------------------------------------------------------------------- the Join card


def test_bob_muller_typed_at_the_table_seats_bob_mueller_with_no_question(app, client, club, htmx):
    response = _join(client, app, club["table"], htmx, player="bob muller")
    assert response.status_code == 200
    assert "Did you mean" not in response.get_data(as_text=True)
    with app.app_context():
        assert _joins(club["table"]) == [{"player": "Bob Müller", "member_id": club["bob"]}]


@pytest.mark.parametrize("with_htmx", [True, False])
def test_ann_archr_asks_did_you_mean_ann_archer_and_writes_nothing(app, client, club, with_htmx):
    response = _join(client, app, club["table"], {"HX-Request": "true"} if with_htmx else None,
                     player="Ann Archr")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert ("<html" in html) is not with_htmx  # the fragment for htmx, the whole page without
    question = html[html.index('class="join-question"'):html.index('class="join-form"')]
    assert "Did you mean Ann Archer?" in question
    assert re.search(r'name="player" value="Ann Archer">.*?Seat the member Ann Archer', question, re.S)
    assert re.search(r'name="guest" value="Ann Archr">.*?Seat a new guest, Ann Archr', question, re.S)
    assert 'value="Ann Archr"' in html[html.index('class="join-form"'):]  # what was typed stays
    assert _seq(app, club["table"]) == 0


def test_confirming_the_guest_seats_a_guest(app, client, club, htmx):
    response = _join(client, app, club["table"], htmx, guest="Ann Archr")
    assert response.status_code == 200
    assert response.headers["HX-Trigger"] == "table-changed"
    with app.app_context():
        assert _joins(club["table"]) == [{"player": "Ann Archr"}]
        assert deciders.guests_of(club["table"], table_states.load_play(club["table"]).state) == {"Ann Archr"}


def test_picking_the_member_seats_the_member(app, client, club):
    response = _join(client, app, club["table"], player="Ann Archer")
    assert response.status_code == 303  # without JavaScript: back to the table
    with app.app_context():
        assert _joins(club["table"]) == [{"player": "Ann Archer", "member_id": club["ann"]}]


def test_a_clearly_new_name_seats_a_guest_at_once(app, client, club, htmx):
    response = _join(client, app, club["table"], htmx, player="Zed Quill")
    assert "Did you mean" not in response.get_data(as_text=True)
    with app.app_context():
        assert _joins(club["table"]) == [{"player": "Zed Quill"}]


def test_a_guest_who_left_comes_back_with_no_question(app, client, club, htmx):
    _join(client, app, club["table"], htmx, guest="Ann Archr")
    with app.app_context():
        commands.play(club["table"], 1, {"type": "leave", "player": "Ann Archr"},
                      db.session.get(Member, club["olga"].id))
    response = _join(client, app, club["table"], htmx, player="Ann Archr")
    assert "Did you mean" not in response.get_data(as_text=True)
    assert _seq(app, club["table"]) == 3


def test_the_guest_button_keeps_the_stake_typed(app, client, login_as):
    olga = login_as("organizer", name="Olga", username="olga")
    with app.app_context():
        _member("Ann Archer", "ann")
        settings = {**tables_service.TABLE_DEFAULTS, "per_player_stakes": True}
        table = gen_table(gen_night(opened_by_id=olga.id), created_by_id=olga.id, settings=settings)
    html = _join(client, app, table.id, {"HX-Request": "true"}, player="Ann Archr",
                 stake="3.50").get_data(as_text=True)
    question = html[html.index('class="join-question"'):html.index('class="join-form"')]
    assert question.count('name="stake" value="3.50"') == 2
    _join(client, app, table.id, {"HX-Request": "true"}, guest="Ann Archr", stake="3.50")
    with app.app_context():
        assert _joins(table.id) == [{"player": "Ann Archr", "stake_cents": 350}]


def test_a_name_of_two_members_asks_which_and_offers_no_guest(app, client, club, htmx):
    with app.app_context():
        _member("José", "jose1"), _member("Jose", "jose2")
    html = _join(client, app, club["table"], htmx, player="JOSÈ").get_data(as_text=True)
    assert "Did you mean one of these members?" in html
    assert "Seat the member Jose" in html and "Seat the member José" in html
    assert 'name="guest"' not in html
    assert _seq(app, club["table"]) == 0


@pytest.mark.parametrize("typed", ["Ann\x00Archr", "Ann\u200bArchr"])
def test_an_unfit_name_close_to_a_members_is_refused_not_asked_about(app, client, club, htmx, typed):
    response = _join(client, app, club["table"], htmx, player=typed)
    assert 400 <= response.status_code < 500
    assert "Did you mean" not in response.get_data(as_text=True)
    assert _seq(app, club["table"]) == 0


def test_the_question_is_in_italian(app, client, club, htmx):
    html = _join(client, app, club["table"], {**htmx, "Accept-Language": "it"},
                 player="Ann Archr").get_data(as_text=True)
    assert "Intendevi Ann Archer?" in html
    assert "Fai sedere il socio Ann Archer" in html and "Fai sedere un nuovo ospite, Ann Archr" in html


# --------------------------------------------------------------------------- guests marked


@pytest.fixture
def played_game(app, club):
    """Zed Quill (a guest), Ann Archer and Bob Müller played one game: the box, Zed, won."""
    with app.app_context():
        olga = db.session.get(Member, club["olga"].id)
        names = ["Zed Quill", "Ann Archer", "Bob Müller"]
        for seq, name in enumerate(names):
            commands.play(club["table"], seq, {"type": "join", "player": name}, olga)
        commands.play(club["table"], 3, {"type": "order", "players": names}, olga)
        commands.play(club["table"], 4, {"type": "result", "winner": "box", "kind": "single"}, olga)
        assert db.session.scalar(select(LedgerEntry.member_id).where(
            LedgerEntry.player == "Zed Quill").limit(1)) is None
    return club


_GUEST = re.compile(r'class="badge guest-badge"[^>]*>(guest|ospite)</span>')


def _row(html: str, start: str, end: str, name: str) -> str:
    """The piece of ``html`` from the ``start`` before ``name`` to the next ``end``."""
    at = html.index(name)
    return html[html.rindex(start, 0, at):html.index(end, at)]


@pytest.mark.parametrize(("language", "word"), [("en", "guest"), ("it", "ospite")])
def test_the_seats_mark_the_guest(app, client, played_game, language, word):
    html = client.get(f"/tables/{played_game['table']}",
                      headers={"Accept-Language": language}).get_data(as_text=True)
    seats = html[html.index('class="card live-seats"'):html.index('class="card live-join"')]
    assert _GUEST.search(_row(seats, "<tr", "</tr>", ">Zed Quill")).group(1) == word
    for member in ("Ann Archer", "Bob Müller"):
        assert not _GUEST.search(_row(seats, "<tr", "</tr>", f">{member}"))


def test_a_seat_before_the_order_marks_the_guest(app, client, club, htmx):
    _join(client, app, club["table"], htmx, player="Zed Quill")
    _join(client, app, club["table"], htmx, player="Ann Archer")
    html = client.get(f"/tables/{club['table']}").get_data(as_text=True)
    assert _GUEST.search(_row(html, "<li", "</li>", ">Zed Quill"))
    assert not _GUEST.search(_row(html, "<li", "</li>", ">Ann Archer"))


def test_the_history_marks_the_guest(app, client, played_game):
    html = client.get(f"/tables/{played_game['table']}").get_data(as_text=True)
    history = html[html.index('class="card live-history"'):]
    money = history[history.index('class="plain money-summary"'):]
    assert _GUEST.search(_row(money, "<li", "</li>", "Zed Quill"))
    assert not _GUEST.search(_row(money, "<li", "</li>", "Ann Archer"))


@pytest.mark.parametrize(("language", "word"), [("en", "guest"), ("it", "ospite")])
def test_the_ledger_marks_the_guest(app, client, played_game, language, word):
    html = client.get(f"/nights/{played_game['night']}/ledger",
                      headers={"Accept-Language": language}).get_data(as_text=True)
    assert _GUEST.search(_row(html, "<summary", "</summary>", ">Zed Quill")).group(1) == word
    assert not _GUEST.search(_row(html, "<summary", "</summary>", ">Bob Müller"))


@pytest.mark.parametrize(("language", "word"), [("en", "guest"), ("it", "ospite")])
def test_the_big_screen_marks_the_guest(app, client, played_game, language, word):
    html = client.get("/display", headers={"Accept-Language": language}).get_data(as_text=True)
    zed = _row(html, "<tr", "</tr>", "<span>Zed Quill</span>")
    assert re.search(rf'<small class="dt-guest">{word}</small>', zed)
    assert "dt-guest" not in _row(html, "<tr", "</tr>", "<span>Ann Archer</span>")


def test_a_new_member_named_as_the_guest_is_no_guest_any_more(app, client, played_game):
    """The club makes Zed Quill a member: their seat is theirs (identity), the pages drop the mark."""
    with app.app_context():
        _member("Zed Quill", "zed")
    html = client.get(f"/tables/{played_game['table']}").get_data(as_text=True)
    assert not _GUEST.search(html)
    ledger = client.get(f"/nights/{played_game['night']}/ledger").get_data(as_text=True)
    assert not _GUEST.search(ledger)


def test_a_member_is_never_marked(app, client, login_as):
    """A table of members only shows no guest mark anywhere."""
    with app.app_context():
        gen_member(name="Marco", username="marco")
    olga = login_as("organizer", name="Olga", username="olga")
    with app.app_context():
        table = gen_table(gen_night(opened_by_id=olga.id), created_by_id=olga.id)
        commands.play(table.id, 0, {"type": "join", "player": "marco"}, db.session.get(Member, olga.id))
    assert not _GUEST.search(client.get(f"/tables/{table.id}").get_data(as_text=True))
