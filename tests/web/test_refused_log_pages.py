"""A table whose stored log the rules refuse (a hand-edited database, a bug of an older
version): the pages that show it say why with a 422 page; none redirects to itself."""

from __future__ import annotations

from tests.factories import gen_event, gen_member, gen_night, gen_table


def test_a_refused_stored_log_is_a_page_with_the_reason_not_a_redirect_loop(app, client, login_as):
    member = login_as("player", name="Ann")
    with app.app_context():
        night = gen_night(name="Friday", opened_by_id=gen_member("organizer").id)
        table = gen_table(night, name="Broken")
        gen_event(table, 1, type="join", payload={"player": "Ann", "member_id": member.id})
        gen_event(table, 2, type="join", payload={"player": "Bob"})
        gen_event(table, 3, type="take", payload={"cube": ["Nobody"]})
        table_id = table.id
    for url in ("/", f"/tables/{table_id}", f"/tables/{table_id}/live"):
        response = client.get(url)
        assert response.status_code == 422, url
        assert 'take: &#34;cube&#34; must be a name' in response.get_data(as_text=True), url
