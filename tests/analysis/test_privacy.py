"""Who sees whose analysis: the club's own setting ``ANALYSIS_VISIBILITY``, apart from the
money's. Private (the default): each member sees their own, organizers everyone's; members:
every signed-in member sees everyone's (real gnubg, real SQLite)."""

from __future__ import annotations

import re

import pytest

from tests.analysis.night import analysed_night
from tests.conftest import dispose, make_app
from tests.factories import PASSWORD, gen_member

pytestmark = [pytest.mark.gnubg, pytest.mark.sqlite_only]


def _night_page(client, night_id):
    return client.get(f"/analysis/nights/{night_id}").get_data(as_text=True).split(
        'id="analysis-night-page"')[1]


def test_private_a_member_sees_their_own_analysis_only(app, client, auth):
    with app.app_context():
        night_id = analysed_night()
    assert app.config["ANALYSIS_VISIBILITY"] == "private"
    auth.login("bob")
    assert client.get("/analysis/players/Bob").status_code == 200
    refused = client.get("/analysis/players/Ann")
    assert refused.status_code == 403
    assert "Only this player and the organizers see this analysis." in refused.get_data(as_text=True)
    night = _night_page(client, night_id)
    assert ">Bob</a>" in night and "<td>Bob</td>" in night and "<h3>Bob:" in night
    # Nobody else's figures, decisions or worst positions (the boards of Bob's own decisions
    # name the game's box and draw its cubes, as the table's page does for everyone).
    for name in ("Ann", "Cy"):
        assert f">{name}</a>" not in night and f"<td>{name}</td>" not in night
        assert f"<h3>{name}:" not in night
    # The player's page links to the analysis only where it may be read.
    assert 'id="player-analysis"' in client.get("/players/Bob").get_data(as_text=True)
    assert 'id="player-analysis"' not in client.get("/players/Ann").get_data(as_text=True)


def test_private_organizers_see_everyones(app, client, auth):
    with app.app_context():
        night_id = analysed_night()
    auth.login("olga")
    for name in ("Ann", "Bob", "Cy"):
        assert client.get(f"/analysis/players/{name}").status_code == 200
    night = _night_page(client, night_id)
    assert all(f">{name}</a>" in night for name in ("Ann", "Bob", "Cy"))
    assert 'id="player-analysis"' in client.get("/players/Ann").get_data(as_text=True)


def test_signed_out_nobody_sees_any_analysis(app, client):
    with app.app_context():
        night_id = analysed_night()
    for url in ("/analysis/players/Ann", f"/analysis/nights/{night_id}", "/analysis/seasons/1"):
        answer = client.get(url)
        assert answer.status_code == 302 and "/auth/login" in answer.headers["Location"]


@pytest.mark.parametrize(("money", "analysis", "sees_others_analysis", "sees_others_money"), [
    ("private", "members", True, False),
    ("members", "private", False, True),
])
def test_the_analysis_has_its_own_setting_apart_from_the_moneys(tmp_path, money, analysis,
                                                                sees_others_analysis, sees_others_money):
    app = make_app(tmp_path, MONEY_VISIBILITY=money, ANALYSIS_VISIBILITY=analysis)
    try:
        with app.app_context():
            night_id = analysed_night()
            eve = gen_member("player", name="Eve")  # played no game
        client = app.test_client()
        client.post("/auth/login", data={"username": eve.username, "password": PASSWORD})
        assert (client.get("/analysis/players/Ann").status_code == 200) is sees_others_analysis
        night = _night_page(client, night_id)
        assert (">Ann</a>" in night) is sees_others_analysis
        player = client.get("/players/Ann").get_data(as_text=True)
        assert ('id="player-analysis"' in player) is sees_others_analysis
        assert ('id="money-private"' not in player) is sees_others_money
    finally:
        dispose(app)


def test_a_wrong_analysis_setting_stops_the_app_with_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.setenv("ANALYSIS_VISIBILITY", "everyone")
    with pytest.raises(ValueError, match=re.escape(
            "ANALYSIS_VISIBILITY: 'everyone' is not one of private, members")):
        make_app(tmp_path)


def test_the_setting_is_read_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("ANALYSIS_VISIBILITY", " Members ")
    app = make_app(tmp_path)
    try:
        assert app.config["ANALYSIS_VISIBILITY"] == "members"
    finally:
        dispose(app)
