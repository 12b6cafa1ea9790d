"""A table's talk, seat requests and presence (issue 26, items 4 and 5; chouette.web.social).

A is the box, B the captain, C and D members, each signed in on their own phone; Olga runs
the table. Most tests play online (the table setting ``play``); a few check a club table.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from chouette.extensions import db
from chouette.models import Member, SeatRequest, TableMessage, utcnow
from chouette.services import social
from tests.conftest import make_app
from tests.factories import gen_member
from tests.web.test_phone_decisions import Phones
from tests.web.test_play_pages import HTMX, post, sign_in

TIED = {"type": "opening_roll", "box": 3, "team": 3}  # starts the game, cubes in the middle
# Online the cube waits for the opening roll: the team opens and moves; the box may double.
OPENED = [{"type": "opening_roll", "box": 1, "team": 6}, {"type": "move", "move": "13/7 8/7"}]


def panel(phones: Phones, name: str) -> str:
    return phones.phone(name).get(f"{phones.table.url}/social", headers=HTMX).get_data(as_text=True)


def owner_client(phones: Phones):
    client = phones.app.test_client()
    sign_in(client, phones.table.owner)
    return client


def say(phones: Phones, name: str, text: str, *, htmx: bool = True):
    return phones.phone(name).post(f"{phones.table.url}/messages", data={"text": text},
                                   headers=HTMX if htmx else {})


def message_count(phones: Phones) -> int:
    with phones.app.app_context():
        return db.session.scalar(select(func.count(TableMessage.id))) or 0


# --------------------------------------------------------------------------- consulting


def test_the_team_reads_its_channel_and_the_box_the_organizer_and_the_screen_do_not(app):
    phones = Phones(app, play="online")
    phones.table.play(TIED)
    answer = say(phones, "C", "Double now, B?")
    assert answer.status_code == 200 and "Double now, B?" in answer.get_data(as_text=True)
    for reader in "BCD":
        assert "Double now, B?" in panel(phones, reader) and "Team talk" in panel(phones, reader)
    box = panel(phones, "A")
    assert "Double now, B?" not in box and "Team talk" not in box
    # The table page itself draws the viewer's panel (it works without JavaScript).
    assert "Double now, B?" in phones.phone("D").get(phones.table.url).get_data(as_text=True)
    assert "Double now, B?" not in phones.phone("A").get(phones.table.url).get_data(as_text=True)
    organizer = owner_client(phones)
    assert "Double now, B?" not in organizer.get(f"{phones.table.url}/social").get_data(as_text=True)
    assert "Double now, B?" not in organizer.get(phones.table.url).get_data(as_text=True)
    for screen in (f"/display/{phones.table.night_id}", "/display"):
        assert "Double now, B?" not in organizer.get(screen).get_data(as_text=True)
    # The push carries no text: the stream's message is a version.
    stream = phones.phone("A").get(f"{phones.table.url}/social/stream").get_data(as_text=True)
    assert "event: changed" in stream and "Double now" not in stream
    # Not in the rules' log either.
    assert all("Double now" not in str(event) for event in phones.table.log())


def test_the_box_has_no_team_channel_and_cannot_write_to_it(app):
    phones = Phones(app, play="online")
    phones.table.play(TIED)
    answer = say(phones, "A", "I hear you")
    assert answer.status_code == 422
    assert "You have no consulting channel at this table." in answer.get_data(as_text=True)
    assert message_count(phones) == 0


def test_the_box_and_the_partner_share_their_own_channel(app):
    phones = Phones(app, "ABCDE", partner_min_players=3, play="online")
    phones.table.play({"type": "partner", "player": "B", "accept": True})
    state = phones.table.state()
    assert state.partner == "B"
    assert say(phones, "B", "They look weak").status_code == 200
    assert "They look weak" in panel(phones, "A") and "The box's talk" in panel(phones, "A")
    assert "They look weak" not in panel(phones, state.captain)
    assert "They look weak" not in panel(phones, "E")


def test_consulting_forbidden_refuses_every_message(app):
    phones = Phones(app, consulting="forbidden", play="online")
    phones.table.play(TIED)
    answer = say(phones, "C", "Roll")
    assert answer.status_code == 422
    assert "Consulting is forbidden at this table." in answer.get_data(as_text=True)
    assert message_count(phones) == 0
    assert "Consulting is forbidden at this table." in panel(phones, "B")


def test_after_cube_opens_once_a_cube_turned_and_only_for_live_cubes(app):
    phones = Phones(app, consulting="after_cube", play="online")
    phones.table.play(*OPENED)
    answer = say(phones, "C", "Too early")
    assert answer.status_code == 422 and "No cube has turned in this game yet" in answer.get_data(as_text=True)
    phones.table.play({"type": "double", "by": "box", "cubes": ["B", "C", "D"]},
                      {"type": "take", "cube": "B"}, {"type": "take", "cube": "C"},
                      {"type": "drop", "cube": "D"})
    assert say(phones, "C", "Now we talk").status_code == 200
    assert "Now we talk" in panel(phones, "B")
    dropped = say(phones, "D", "Me too")
    assert dropped.status_code == 422
    assert "Your cube is out of play" in dropped.get_data(as_text=True)
    assert "Now we talk" not in panel(phones, "D")
    assert message_count(phones) == 1


def test_no_written_channel_at_a_club_table(app):
    phones = Phones(app)
    phones.table.play(TIED)
    answer = say(phones, "C", "Psst")
    assert answer.status_code == 422
    assert "Written messages are for tables played online." in answer.get_data(as_text=True)
    assert "Team talk" not in panel(phones, "B")


def test_a_message_is_short_one_line_and_escaped(app):
    phones = Phones(app, play="online")
    phones.table.play(TIED)
    too_long = say(phones, "C", "x" * (social.MAX_MESSAGE + 1))
    assert too_long.status_code == 422
    assert f"A message is at most {social.MAX_MESSAGE} characters." in too_long.get_data(as_text=True)
    for text in ("two\nlines", "a\ttab"):
        refused = say(phones, "C", text)
        assert refused.status_code == 422 and "no control characters" in refused.get_data(as_text=True)
    assert say(phones, "C", "   ").status_code == 422
    assert message_count(phones) == 0
    assert say(phones, "C", "<b>bold</b> & co").status_code == 200
    html = panel(phones, "B")
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; co" in html and "<b>bold</b>" not in html
    # Without JavaScript: back to the table, the refusal flashed.
    plain = say(phones, "C", "", htmx=False)
    assert plain.status_code == 303


def test_messages_belong_to_their_game(app):
    phones = Phones(app, play="online")
    phones.table.play(*OPENED)
    say(phones, "C", "Game one talk")
    phones.table.play({"type": "double", "by": "box", "cubes": ["B", "C", "D"]},
                      *[{"type": "drop", "cube": m} for m in "BCD"])
    assert phones.table.state().game is None or phones.table.state().game.number == 2
    assert "Game one talk" not in panel(phones, "C")


# --------------------------------------------------------------------------- seat requests


def _newcomer(phones: Phones, name: str = "Eve") -> Member:
    with phones.app.app_context():
        member = gen_member("player", name=name)
    client = phones.app.test_client()
    sign_in(client, member)
    phones.clients[name] = client
    phones.members[name] = member
    return member


def _requests(phones: Phones) -> list[tuple[int, str]]:
    with phones.app.app_context():
        return [(r.member_id, r.status) for r in db.session.scalars(select(SeatRequest))]


def test_at_an_online_table_a_member_asks_and_the_runner_admits(app):
    phones = Phones(app, play="online")
    eve = _newcomer(phones)
    before = phones.table.log()
    asked = post(phones.phone("Eve"), phones.table, "sit")
    assert asked.status_code == 303
    assert phones.table.log() == before and _requests(phones) == [(eve.id, "waiting")]
    page = phones.phone("Eve").get(phones.table.url, follow_redirects=True).get_data(as_text=True)
    assert "Your request to sit down has gone to the table" in page
    assert "waiting for the table's organizer" in panel(phones, "Eve")
    again = post(phones.phone("Eve"), phones.table, "sit", )
    again_page = phones.phone("Eve").get(again.headers["Location"]).get_data(as_text=True)
    assert "already waiting" in again_page and len(_requests(phones)) == 1
    organizer = owner_client(phones)
    html = organizer.get(f"{phones.table.url}/social", headers=HTMX).get_data(as_text=True)
    assert "Admit Eve" in html
    with app.app_context():
        request_id = db.session.scalar(select(SeatRequest.id))
    # Nobody but the runner answers; a request of another table or none at all is not found.
    assert phones.post("C", f"seat-requests/{request_id}/admit", {}).status_code == 403
    assert organizer.post(f"{phones.table.url}/seat-requests/999/admit").status_code == 404
    assert organizer.post(f"/tables/999/seat-requests/{request_id}/admit").status_code == 404
    admitted = organizer.post(f"{phones.table.url}/seat-requests/{request_id}/admit", headers=HTMX)
    assert admitted.status_code == 200
    assert phones.table.log()[-1] == {"type": "join", "player": "Eve", "member_id": eve.id}
    assert _requests(phones) == [(eve.id, "admitted")]
    twice = organizer.post(f"{phones.table.url}/seat-requests/{request_id}/refuse", headers=HTMX)
    assert twice.status_code == 422 and "already been answered" in twice.get_data(as_text=True)
    seated = post(phones.phone("Eve"), phones.table, "sit")
    seated_page = phones.phone("Eve").get(seated.headers["Location"]).get_data(as_text=True)
    assert "You already sit at this table." in seated_page


def test_the_runner_refuses_and_nothing_is_seated(app):
    phones = Phones(app, play="online")
    eve = _newcomer(phones)
    post(phones.phone("Eve"), phones.table, "sit")
    with app.app_context():
        request_id = db.session.scalar(select(SeatRequest.id))
    before = phones.table.log()
    refused = owner_client(phones).post(f"{phones.table.url}/seat-requests/{request_id}/refuse")
    assert refused.status_code == 303
    assert phones.table.log() == before and _requests(phones) == [(eve.id, "refused")]
    assert "did not admit you" in panel(phones, "Eve")


def test_a_table_that_admits_by_itself_seats_at_once(app):
    phones = Phones(app, play="online")
    eve = _newcomer(phones)
    organizer = owner_client(phones)
    assert organizer.post(f"{phones.table.url}/admission", data={"auto": "maybe"},
                          headers=HTMX).status_code == 422
    assert phones.post("C", "admission", {"auto": "1"}).status_code == 403
    assert organizer.post(f"{phones.table.url}/admission", data={"auto": "1"}).status_code == 303
    post(phones.phone("Eve"), phones.table, "sit")
    assert phones.table.log()[-1] == {"type": "join", "player": "Eve", "member_id": eve.id}
    assert _requests(phones) == []


def test_a_club_table_seats_at_once_unless_its_runner_admits_each_one(app):
    phones = Phones(app)
    eve, finn = _newcomer(phones), _newcomer(phones, "Finn")
    post(phones.phone("Eve"), phones.table, "sit")
    assert phones.table.log()[-1] == {"type": "join", "player": "Eve", "member_id": eve.id}
    owner_client(phones).post(f"{phones.table.url}/admission", data={"auto": "0"})
    post(phones.phone("Finn"), phones.table, "sit")
    assert _requests(phones) == [(finn.id, "waiting")]


# --------------------------------------------------------------------------- presence


@pytest.fixture
def quick_app(tmp_path):
    from tests.conftest import dispose

    app = make_app(tmp_path, PRESENCE_AWAY_SECONDS=2.0)  # a busy machine's requests fit in it
    yield app
    dispose(app)


def test_a_device_holding_the_stream_is_connected_then_away_then_back(quick_app):
    phones = Phones(quick_app)
    phones.table.play(TIED)
    with quick_app.app_context():
        before = social.social_version(phones.table.id)
    assert "connected" not in panel(phones, "B").replace("not connected", "")
    opened = utcnow()
    phones.phone("C").get(f"{phones.table.url}/social/stream").get_data()  # opens, then drops
    html = panel(phones, "B")
    assert '<li class="presence is-connected">' in html and "C</span>" in html
    with quick_app.app_context():
        assert social.present(phones.table.id, opened + timedelta(seconds=1)) == {phones.members["C"].id}
        assert social.social_version(phones.table.id) != before
    time.sleep(2.1)  # no keep-alive came: C's device dropped
    html = panel(phones, "B")
    assert "is-connected" not in html and "away" in html
    phones.phone("C").get(f"{phones.table.url}/social/stream").get_data()  # reconnects
    assert '<li class="presence is-connected">' in panel(phones, "B")


def test_presence_is_read_from_the_database_by_time(app):
    phones = Phones(app)
    member_id = phones.members["D"].id
    with app.app_context():
        now = utcnow()
        assert social.touch(phones.table.id, member_id, now)
        assert not social.touch(phones.table.id, member_id, now + timedelta(seconds=1))  # throttled
        assert social.present(phones.table.id, now + timedelta(seconds=5)) == {member_id}
        later = now + timedelta(seconds=social.AWAY_SECONDS + 1)
        assert social.present(phones.table.id, later) == frozenset()
        assert social.touch(phones.table.id, member_id, later)
        assert social.present(phones.table.id, later) == {member_id}


def test_the_stream_needs_signing_in_and_a_table(app):
    phones = Phones(app)
    assert app.test_client().get(f"{phones.table.url}/social/stream").status_code == 302
    assert phones.phone("C").get("/tables/999/social/stream").status_code == 404
    assert phones.phone("C").get("/tables/999/social").status_code == 404


# --------------------------------------------------------------------------- handing one's cube


def test_a_member_hands_their_own_cube_to_a_teammate_and_no_one_elses(app):
    phones = Phones(app)
    phones.table.play(TIED)
    assert "Hand over my cube" in panel(phones, "C")
    assert "Hand over my cube" not in panel(phones, "B")  # the captain plays the board
    before = phones.table.log()
    phones.refused("C", "proxy", {"player": "D", "to": "C"})
    assert phones.table.log() == before
    phones.made("C", "proxy", {"player": "C", "to": "D"}, {"type": "proxy", "player": "C", "to": "D"})
    with app.app_context():
        from chouette.services import tables

        assert tables.table_events(phones.table.id)[-1].actor_id == phones.members["C"].id
    assert "Hand over my cube" not in panel(phones, "C")
    refused = phones.post("D", "proxy", {"player": "D", "to": "B"})
    assert refused.status_code == 422 and "decides for a teammate" in refused.get_data(as_text=True)


def test_the_panel_and_its_refusals_speak_italian(app):
    phones = Phones(app, play="online")
    phones.table.play(TIED)
    with app.app_context():
        member = gen_member("player", name="Eva", locale="it")
    client = app.test_client()
    sign_in(client, member)
    post(client, phones.table, "sit")
    again = post(client, phones.table, "sit")
    page = client.get(again.headers["Location"]).get_data(as_text=True)
    assert "La tua richiesta di sederti è già in attesa dell&#39;organizzatore del tavolo." in page \
        or "La tua richiesta di sederti è già in attesa dell'organizzatore del tavolo." in page
    html = client.get(f"{phones.table.url}/social", headers=HTMX).get_data(as_text=True)
    assert "Chi c'è" in html and "assente" in html  # the game is on: away
    with app.app_context():
        db.session.get(Member, phones.members["A"].id).locale = "it"
        db.session.commit()
    refused = say(phones, "A", "Ciao")  # the box, without a partner
    assert refused.status_code == 422
    assert "A questo tavolo non hai un canale per consultarti." in refused.get_data(as_text=True)
    assert "Chi c'è" in panel(phones, "A")


def test_someone_not_at_the_table_cannot_write_to_it(app):
    phones = Phones(app, play="online")
    _newcomer(phones)
    assert say(phones, "Eve", "Hello").status_code == 403
    assert message_count(phones) == 0


def test_an_admission_the_rules_refuse_says_why_and_the_request_still_waits(app):
    phones = Phones(app, play="online")
    eve = _newcomer(phones)
    post(phones.phone("Eve"), phones.table, "sit")
    other = Phones(app, "WXYZ", play="online")  # another open table, where Eve then sits
    other.table.play({"type": "join", "player": "Eve"})
    with app.app_context():
        request_id = db.session.scalar(select(SeatRequest.id))
    before = phones.table.log()
    refused = owner_client(phones).post(f"{phones.table.url}/seat-requests/{request_id}/admit",
                                        headers=HTMX)
    assert refused.status_code == 422
    assert "Eve already sits at the table" in refused.get_data(as_text=True)
    assert phones.table.log() == before and _requests(phones) == [(eve.id, "waiting")]


def test_a_member_who_joins_during_a_game_consults_from_the_next(app):
    phones = Phones(app, play="online")
    phones.table.play(TIED)
    say(phones, "C", "Before you came")
    _newcomer(phones)
    phones.table.play({"type": "join", "player": "Eve"})
    refused = say(phones, "Eve", "Hi team")
    assert refused.status_code == 422
    assert "You joined during this game: you consult from the next one." in refused.get_data(as_text=True)
    assert "Before you came" not in panel(phones, "Eve")
