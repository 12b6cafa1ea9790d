"""The analysis pages: a player's own figures, the night's and the season's tables, privacy
as the money's (real gnubg, real SQLite)."""

from __future__ import annotations

import datetime as dt

import pytest

from chouette.models import Season
from tests.analysis.games import beaver_game
from tests.analysis.night import PLAYERS, analysed_night
from tests.factories import save

pytestmark = [pytest.mark.gnubg, pytest.mark.sqlite_only]


def test_a_player_sees_their_own_analysis_and_not_anothers(app, client, auth):
    with app.app_context():
        night_id = analysed_night()
    auth.login("bob")
    page = client.get("/analysis/players/Bob").get_data(as_text=True)
    assert "Checker rate (mEMG)" in page and 'id="analysis-trend"' in page
    assert client.get("/analysis/players/Ann").status_code == 403
    night = client.get(f"/analysis/nights/{night_id}").get_data(as_text=True)
    # Bob's own row and decisions only.
    assert ">Bob</a>" in night and ">Ann</a>" not in night
    own = night.split('id="analysis-night-page"')[1]
    assert "<td>Ann</td>" not in own and "<h3>Ann:" not in own


def test_organizers_see_everyone_and_the_table_sorts(app, client, auth):
    with app.app_context():
        night_id = analysed_night()
        save(Season(name="Autumn", first_date=dt.date(2026, 9, 1), last_date=dt.date(2026, 12, 31)))
    auth.login("olga")
    assert client.get("/analysis/players/Ann").status_code == 200
    by_name = client.get(f"/analysis/nights/{night_id}?sort=name").get_data(as_text=True)
    assert by_name.index(">Ann</a>") < by_name.index(">Bob</a>") < by_name.index(">Cy</a>")
    reverse = client.get(f"/analysis/nights/{night_id}?sort=name&dir=desc").get_data(as_text=True)
    assert reverse.index(">Cy</a>") < reverse.index(">Bob</a>") < reverse.index(">Ann</a>")
    assert 'aria-sort="descending"' in reverse
    # The worst five drawn on the board, with their Position ID and XGID.
    assert by_name.count('class="card analysis-position"') == 5
    assert "Position ID: <code>" in by_name and "XGID: <code>XGID=" in by_name and "<svg" in by_name
    season = client.get("/analysis/seasons/1").get_data(as_text=True)
    assert ">Ann</a>" in season and ">Cy</a>" in season
    player = client.get("/analysis/players/Ann").get_data(as_text=True)
    assert 'id="analysis-season"' in player


def test_the_club_may_open_the_analysis_to_every_member(app, client, auth):
    with app.app_context():
        analysed_night()
    app.config["ANALYSIS_VISIBILITY"] = "members"
    auth.login("bob")
    assert client.get("/analysis/players/Ann").status_code == 200


def test_the_worst_five_show_every_members_cube_with_the_position_id_and_xgid(app, client, auth):
    with app.app_context():
        night_id = analysed_night()
    auth.login("olga")
    page = client.get(f"/analysis/nights/{night_id}").get_data(as_text=True)
    cards = page.split('class="card analysis-position"')[1:]
    assert len(cards) == 5
    for card in cards:
        card = card.split("</article>")[0]
        # Each member's cube as the table's page draws it: on the board's rail and in the list.
        assert card.count('class="cube-badge') == 2
        assert 'title="Bob: cube 1' in card and 'title="Cy: cube 1' in card
        assert 'class="cube owner-' in card.split("<svg")[1]  # drawn on the rail too
        assert "Position ID: <code>" in card and "XGID: <code>XGID=" in card
    # The box's double waiting for its answers shows on the cubes of the answers' positions.
    answers = [c for c in cards if "Drop</strong>" in c.split("Played")[1][:80]]
    assert answers
    for card in answers:
        assert "1 → 2?" in card


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("Beaver", "Answer to the beaver", "Raccoon", "Answer to the raccoon")),
    ("it", ("Beaver", "Risposta al beaver", "Raccoon", "Risposta al raccoon")),
])
def test_a_nights_beavers_and_raccoons_are_named_in_its_decisions(app, client, auth, language, words):
    with app.app_context():
        night_id = analysed_night(beaver_game(PLAYERS))
    auth.login("olga")
    page = client.get(f"/analysis/nights/{night_id}", headers={"Accept-Language": language}).get_data(as_text=True)
    for word in words:
        assert word in page, word
