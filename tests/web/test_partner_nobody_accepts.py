"""The organizer's "Nobody accepts: draw the partner" (docs/rules.md 2.8, issue #25): every
partnership offer still to be made declined, in turn, then the partner drawn with the server's
chance, written as one command; the log keeps each decline. Only the organizer who runs the
table posts it."""

from __future__ import annotations

from sqlalchemy import select

from chouette.extensions import db
from chouette.models import TableEvent
from tests.web.test_phone_decisions import Phones
from tests.web.test_play_pages import HTMX, Table, post, sign_in

EIGHT = "ABCDEFGH"  # A the box, B the captain, C to H the line: 8 players, the default minimum


def test_one_tap_declines_every_offer_left_then_draws(app, client):
    table = Table(app)
    table.seat(EIGHT)
    sign_in(client, table.owner)
    assert post(client, table, "partner", {"player": "B", "answer": "decline"}).status_code == 303
    html = client.get(f"{table.url}/live", headers=HTMX).get_data(as_text=True)
    assert "C is offered the partnership with the box." in html
    assert "Nobody accepts: draw the partner" in html
    before = table.seq()
    response = post(client, table, "partner", {"answer": "nobody"}, htmx=True)
    assert response.status_code == 200 and response.headers["HX-Trigger"] == "table-changed"
    log = table.log()
    assert len(log) == before + 7
    assert log[before:before + 6] == [{"type": "partner", "player": name, "accept": False}
                                      for name in "CDEFGH"]
    drawn = log[-1]
    assert drawn["type"] == "partner_draw" and drawn["player"] in "CDEFGH"
    state = table.state()
    assert state.partner == drawn["player"] and state.captain == "B"
    with app.app_context():  # written together: one transaction, one moment
        moments = set(db.session.scalars(select(TableEvent.at).where(
            TableEvent.table_id == table.id, TableEvent.seq > before)))
    assert len(moments) == 1
    html = response.get_data(as_text=True)
    assert "Nobody accepts" not in html and "Draw at random" not in html


def test_the_button_is_in_italian(app, client):
    table = Table(app, locale="it")
    table.seat(EIGHT)
    sign_in(client, table.owner)
    html = client.get(f"{table.url}/live", headers=HTMX).get_data(as_text=True)
    assert "Nessuno accetta: sorteggia il partner" in html


def test_a_player_may_not_post_it_and_nothing_is_written(app):
    phones = Phones(app, EIGHT)
    assert "Nobody accepts" not in phones.live("B")  # offered, B sees Accept and Decline only
    before = phones.table.log()
    for name in ("B", "C"):  # the player offered it, another at the table
        for htmx in (False, True):
            assert phones.post(name, "partner", {"answer": "nobody"}, htmx=htmx).status_code == 403
    assert phones.table.log() == before


def test_an_old_page_or_no_partnership_changes_nothing(app, client):
    table = Table(app)
    table.seat(EIGHT)
    sign_in(client, table.owner)
    old = table.seq()
    assert post(client, table, "partner", {"player": "B", "answer": "decline"}).status_code == 303
    before = table.log()
    assert post(client, table, "partner", {"answer": "nobody"}, seq=old).status_code == 409
    assert table.log() == before
    assert post(client, table, "partner", {"player": "C", "answer": "accept"}).status_code == 303
    before = table.log()
    response = post(client, table, "partner", {"answer": "nobody"})
    assert response.status_code == 422 and table.log() == before
