"""The night's score sheet of a match table (issue 25): the two players by name, game by game
(winner, how, the cube, the points, each one's match score after it), the Crawford game
marked; no box, captain, team or cube-of-members columns; the CSV says the same."""

from __future__ import annotations

import csv
import io
import re

import pytest

from tests.matches.test_match_pages import MatchNight


@pytest.fixture
def night(app) -> MatchNight:
    return MatchNight(app)


def record(night: MatchNight, winner: str, kind: str, cube: str) -> None:
    response = night.post("olga", "result", {"winner": winner, "kind": kind, "cube": cube})
    assert response.status_code == 303, response.get_data(as_text=True)


def _sheet(night: MatchNight, lang: str = "en") -> str:
    html = night.client("olga").get(f"/nights/{night.night_id}/score-sheet",
                                    headers={"Accept-Language": lang}).get_data(as_text=True)
    return html[html.index(f'id="sheet-{night.table_id}"'):]


def _row(html: str, number: int) -> str:
    return re.search(rf'<tr class="[^"]*" data-game="{number}">.*?</tr>', html, re.DOTALL).group(0)


def _cells(row: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.DOTALL)]


def test_a_match_sheet_shows_the_two_players_game_by_game_with_the_score_and_crawford(night):
    night.open(match_length="5", match_stake="match", stake_cents="10")
    record(night, "Bob", "gammon", "2")    # Bob 4-0: a gammon at 2 is 4 points
    record(night, "Ann", "single", "1")    # Crawford game (Bob 1 away): Ann 1-4
    record(night, "Ann", "backgammon", "4")  # 12 points, capped at the 4 Ann needs: 5-4
    html = _sheet(night)
    assert "Match to 5" in html and "€10.00 for the match." in html
    for chouette_word in (">Box<", ">Captain<", ">Cubes<", "What happened", "in the middle", "then "):
        assert chouette_word not in html
    head = _cells(re.search(r"<thead>.*?</thead>", html, re.DOTALL).group(0))
    assert head == ["Game", "Winner", "How", "Ann", "Bob"]
    assert _cells(_row(html, 1)) == ["1", "Bob", "gammon · cube 2", "0", "+4 4"]
    assert _cells(_row(html, 2)) == ["2 Crawford", "Ann", "single", "+1 1", "4"]
    assert _cells(_row(html, 3)) == ["3", "Ann", "backgammon · cube 4", "+4 5", "4"]  # capped
    assert 'data-score="5-4"' in html and "Ann wins the match" in html
    money = _cells(re.search(r"<tfoot>.*?</tfoot>", html, re.DOTALL).group(0))
    assert money == ["Score", "", "", "5", "4", "Money", "", "", "€10.00", "-€10.00"]


def test_the_crawford_game_still_to_play_and_the_italian_sheet(night):
    night.open(match_length="3")
    record(night, "Ann", "gammon", "1")  # Ann 2-0: the next game is the Crawford game
    html = _sheet(night, "it")
    assert 'data-score="2-0"' in html
    assert "Match a 3" in html and "Partita Crawford: niente raddoppi" in html
    assert "la colonna di ogni giocatore" in html.lower()
    assert ">Box<" not in html and ">Capitano<" not in html


def test_the_score_sheet_csv_of_a_match_names_the_players_not_box_and_team(night):
    night.open(match_length="3")
    record(night, "Bob", "single", "2")
    record(night, "Ann", "single", "1")  # the Crawford game
    text = night.client("olga").get(f"/nights/{night.night_id}/score-sheet.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    picked = [(r["game"], r["box"], r["captain"], r["cubes"], r["winner"], r["match_first"],
               r["match_second"], r["match_how"], r["match_cube"], r["match_points"],
               r["match_score"], r["crawford"]) for r in rows]
    assert picked == [("1", "", "", "", "Bob", "Ann", "Bob", "single", "2", "2", "0-2", ""),
                      ("2", "", "", "", "Ann", "Ann", "Bob", "single", "1", "1", "1-2", "yes")]
