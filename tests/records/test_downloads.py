"""Downloads of game records: a game, a table, a night, a player; formats and who may."""

from __future__ import annotations

import io
import json
import random
import zipfile

import pytest

from chouette import caches
from chouette.extensions import db
from tests.factories import gen_member, gen_night, gen_table
from tests.records.games import table_log
from tests.scenarios import SCENARIOS
from tests.web.test_exports import write_log


@pytest.fixture
def night(app):
    """A night with the board-mode scenario's table (A, B, C) and a random multi-cube table."""
    log = json.loads((SCENARIOS / "04-board-game.json").read_text())
    other = table_log(random.Random(4), "multi", games=3, players=("Dee", "Eve", "Fay"))
    with app.app_context():
        organizer = gen_member("organizer")
        night = gen_night(name="Friday")
        first = gen_table(night, name="Table 1", settings=log["table"])
        second = gen_table(night, name="Table 2", settings=other["table"])
        write_log(first.id, log["events"], organizer)
        write_log(second.id, other["events"], organizer)
        caches.clear_all(app)
        db.session.commit()
        return {"night": night.id, "first": first.id, "second": second.id}


def test_one_game_as_mat_with_its_type_and_name(client, night, login_as):
    login_as("organizer")
    response = client.get(f"/records/tables/{night['first']}.mat?game=1")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert response.headers["Content-Disposition"] == f'attachment; filename="table-{night["first"]}-game-1.mat"'
    assert response.text.startswith(" 0 point match\n\n Game 1\n A : 0")


def test_one_game_as_sgf(client, night, login_as):
    login_as("organizer")
    response = client.get(f"/records/tables/{night['first']}.sgf?game=1")
    assert response.status_code == 200 and response.mimetype == "application/x-go-sgf"
    assert 'filename="table-' in response.headers["Content-Disposition"]
    assert response.text.startswith("(;FF[4]GM[6]") and "DT[2026-11-21]" in response.text


def test_a_player_downloads_a_game_they_played(client, night, login_as):
    login_as("player", name="C")
    assert client.get(f"/records/tables/{night['first']}.mat?game=1").status_code == 200


def test_a_player_may_not_download_a_game_they_did_not_play(client, night, login_as):
    login_as("player", name="Zed")
    assert client.get(f"/records/tables/{night['first']}.mat?game=1").status_code == 403


def test_signed_out_goes_to_sign_in(client, night):
    response = client.get(f"/records/tables/{night['first']}.mat?game=1")
    assert response.status_code in (302, 303) and "/auth/login" in response.headers["Location"]


def test_a_game_that_is_not_a_board_game_is_not_found(client, night, login_as):
    login_as("organizer")
    assert client.get(f"/records/tables/{night['first']}.mat?game=9").status_code == 404


def test_a_night_as_sgf_holds_every_table_s_board_games(client, night, login_as):
    login_as("organizer")
    response = client.get(f"/records/nights/{night['night']}.sgf")
    assert response.status_code == 200
    assert response.text.count("(;FF[4]") >= 2
    assert "PW[A]PB[Team B]" in response.text
    assert any(f"PB[Team {p}]" in response.text for p in ("Dee", "Eve", "Fay"))


def test_a_night_as_mat_is_a_zip_of_one_file_per_pair(client, night, login_as):
    login_as("organizer")
    response = client.get(f"/records/nights/{night['night']}.mat")
    assert response.status_code == 200 and response.mimetype == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(response.data)).namelist()
    assert len(names) >= 2 and all(n.endswith(".mat") for n in names)
    assert any("-A-v-Team-B.mat" in n for n in names)


def test_a_player_gets_only_their_games_of_a_night(client, night, login_as):
    login_as("player", name="A")
    response = client.get(f"/records/nights/{night['night']}.sgf")
    assert response.status_code == 200
    assert response.text.count("(;FF[4]") == 1 and "PW[A]PB[Team B]" in response.text


def test_a_table_download(client, night, login_as):
    login_as("organizer")
    response = client.get(f"/records/tables/{night['first']}.mat")
    assert response.status_code == 200 and response.mimetype == "text/plain"


def test_a_player_downloads_their_own_games_from_every_night(client, night, login_as):
    login_as("player", name="B")
    response = client.get("/records/player.sgf?name=B")
    assert response.status_code == 200
    assert "PB[Team B]" in response.text


def test_a_player_may_not_download_another_player_s_games(client, night, login_as):
    login_as("player", name="B")
    assert client.get("/records/player.mat?name=Dee").status_code == 403


def test_an_organizer_downloads_any_player_s_games(client, night, login_as):
    login_as("organizer")
    response = client.get("/records/player.sgf?name=Dee")
    assert response.status_code == 200 and "Dee" in response.text


def test_an_unknown_format_is_not_found(client, night, login_as):
    login_as("organizer")
    assert client.get(f"/records/tables/{night['first']}.txt?game=1").status_code == 404


def test_the_history_links_each_board_game_s_record(client, night, login_as):
    login_as("organizer")
    page = client.get(f"/tables/{night['first']}").text
    assert f"/records/tables/{night['first']}.mat?game=1" in page
    assert f"/records/tables/{night['first']}.sgf?game=1" in page


def test_the_night_exports_link_the_night_and_table_records(client, night, login_as):
    login_as("organizer")
    page = client.get(f"/nights/{night['night']}/exports").text
    assert f"/records/nights/{night['night']}.mat" in page and f"/records/nights/{night['night']}.sgf" in page
    assert f"/records/tables/{night['second']}.sgf" in page


def test_the_player_page_links_their_records_to_themselves_only(client, night, login_as, auth):
    login_as("player", name="A")
    assert "/records/player.mat?name=A" in client.get("/players/A").text
    assert "/records/player.mat?name=B" not in client.get("/players/B").text


def test_a_game_number_that_is_not_a_number_is_not_found(client, night, login_as):
    login_as("organizer")
    assert client.get(f"/records/tables/{night['first']}.mat?game=x").status_code == 404
