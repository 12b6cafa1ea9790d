"""The session cookie comes back only when it changed, or with a whole page: a page's push
streams and fragments, answered while a form's answer put a flash in the cookie, must not
write their older cookie over it (the flash "You sit at the table." was lost that way on a
phone whose table page was fetching its talk panel)."""

from __future__ import annotations

import re

from chouette.extensions import db
from chouette.services import commands, tables
from tests.conftest import csrf_token_from
from tests.factories import gen_member, gen_night, gen_table


def _table(app) -> int:
    with app.app_context():
        owner = gen_member("organizer", name="Olga", username="olga")
        red = gen_table(gen_night(name="Friday", opened_by_id=owner.id), name="Red",
                        created_by_id=owner.id)
        for name in ("Ann", "Bob"):
            commands.play(red.id, tables.last_seq(red.id), {"type": "join", "player": name}, owner)
        table_id = red.id
        db.session.remove()
    return table_id


def _cookie(response) -> str | None:
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith("session="):
            return header.split(";", 1)[0].split("=", 1)[1]
    return None


def test_a_fragment_answered_after_a_flash_leaves_the_flash_in_the_cookie(app, client, login_as):
    table_id = _table(app)
    login_as("player", name="Marco", username="marco")
    page = client.get(f"/tables/{table_id}")
    before = client.get_cookie("session").value
    # The page's talk panel is on its way with the cookie as it was...
    late = app.test_client()
    late.set_cookie("session", before)
    # ...while the member sits down: the answer's cookie carries the flash.
    seq = re.search(rb'name="seq" value="(\d+)"', page.data).group(1).decode()
    sat = client.post(f"/tables/{table_id}/sit",
                      data={"csrf_token": csrf_token_from(page.data), "seq": seq})
    assert sat.status_code == 303
    with_flash = _cookie(sat)
    assert with_flash is not None and with_flash != before

    fragment = late.get(f"/tables/{table_id}/social", headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    assert _cookie(fragment) is None  # nothing written over the flash
    stream_headers = {"Accept": "text/event-stream"}
    assert _cookie(late.get("/health", headers=stream_headers)) is None

    shown = client.get(f"/tables/{table_id}")
    assert "You sit at the table." in shown.get_data(as_text=True)


def test_a_whole_page_still_slides_the_cookie_expiry(app, client, login_as):
    table_id = _table(app)
    login_as("player", name="Marco", username="marco")
    client.get(f"/tables/{table_id}")  # the flash-free cookie settles
    again = client.get(f"/tables/{table_id}")
    header = next(h for h in again.headers.getlist("Set-Cookie") if h.startswith("session="))
    assert "Expires=" in header
