"""The player page of a member who only played matches (issue 25): their matches, no chouette
seats or cube answers (all zero, they said nothing); a member who also sat at a chouette keeps
both; a match game in the latest games is called a match, not a seat."""

from __future__ import annotations

import re

import pytest

from chouette.extensions import db
from chouette.models import Member, Night
from chouette.services import commands, tables
from tests.factories import gen_table
from tests.matches.test_match_pages import MatchNight


@pytest.fixture
def night(app) -> MatchNight:
    return MatchNight(app)


def _page(night: MatchNight, name: str, lang: str = "en") -> str:
    return night.client("olga").get(f"/players/{name}", headers={"Accept-Language": lang}).get_data(as_text=True)


def _latest_seats(html: str) -> list[str]:
    section = html[html.index("Latest games"):] if "Latest games" in html else html[html.index("Ultime partite"):]
    return [re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<tr>\s*<td>.*?</td>\s*<td>.*?</td>\s*<td[^>]*>.*?</td>\s*<td>(.*?)</td>",
                                   section, re.DOTALL)]


def test_a_member_who_only_played_matches_sees_the_matches_not_chouette_seats(app, night):
    # Bob first sits at a chouette for a game (Cy the box, Bob the captain) and leaves it.
    with app.app_context():
        chouette = gen_table(db.session.get(Night, night.night_id), created_by_id=night.olga.id).id
        olga = db.session.get(Member, night.olga.id)
        for event in ({"type": "join", "player": "Bob"}, {"type": "join", "player": "Cy"},
                      {"type": "order", "players": ["Cy", "Bob"]},
                      {"type": "result", "winner": "box", "kind": "single"},
                      {"type": "leave", "player": "Bob"}):
            commands.play(chouette, tables.last_seq(chouette), event, olga)
        db.session.commit()
    night.open(match_length="3", match_stake="point", stake_cents="2")
    assert night.post("olga", "result", {"winner": "Bob", "kind": "gammon", "cube": "1"}).status_code == 303

    html = _page(night, "Ann")
    assert 'id="player-matches"' in html and 'id="stat-matches"' in html
    assert 'id="player-chouette"' not in html
    assert ">Seats<" not in html and ">Cube decisions<" not in html
    assert _latest_seats(html) == ["Match"]
    italian = _page(night, "Ann", "it")
    assert 'id="player-chouette"' not in italian and 'id="player-matches"' in italian
    assert _latest_seats(italian) == ["Match"]

    # Bob played both: their chouette seats are there beside their match.
    html = _page(night, "Bob")
    assert 'id="player-chouette"' in html and 'id="player-matches"' in html
    assert re.search(r'id="seat-captain"><th scope="row">Captain</th><td class="num">1</td>', html)
    assert sorted(_latest_seats(html)) == ["Captain", "Match"]
