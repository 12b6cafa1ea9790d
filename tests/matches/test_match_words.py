"""A match in its own words (issue 25, item 8): its pages name the two players, its score and
its stake, and never speak of a box, a captain or a team, in English or in Italian."""

from __future__ import annotations

import html as entities
import re

import pytest

from tests.matches.test_match_pages import MatchNight
from tests.web.test_play_pages import HTMX

CHOUETTE_WORDS = re.compile(r"\b(box|captain|captains|team|teams|squadra|capitano|partner)\b",
                            re.IGNORECASE)


def visible(page: str) -> str:
    """The text a reader sees: no scripts, styles, drawings, tags or attributes."""
    page = re.sub(r"(?s)<(script|style|svg)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<!--.*?-->", " ", page)
    text = entities.unescape(re.sub(r"<[^>]+>", " ", page))
    return re.sub(r"\s+", " ", text)


def chouette_words(page: str) -> list[str]:
    return CHOUETTE_WORDS.findall(visible(page))


@pytest.fixture
def night(app) -> MatchNight:
    return MatchNight(app)


def _pages(night: MatchNight, client, *, language: str = "en") -> dict[str, str]:
    headers = {"Accept-Language": language}
    return {
        "live (organizer)": night.client("olga").get(night.url, headers=headers).get_data(as_text=True),
        "live (Ann's phone)": night.client("ann").get(f"{night.url}/live",
                                                      headers={**HTMX, **headers}).get_data(as_text=True),
        "display": client.get("/display", headers=headers).get_data(as_text=True),
        "ledger": night.client("olga").get(f"/nights/{night.night_id}/ledger",
                                           headers=headers).get_data(as_text=True),
    }


def test_the_live_page_its_history_the_ledger_and_the_tv_name_the_two_players(night, client):
    night.open(match_length="5", match_stake="point", stake_cents="1")
    # A tied opening roll, then Ann opens; Bob doubles, Ann takes; Ann redoubles.
    assert night.post("olga", "roll", {"how": "dice", "die1": "3", "die2": "3"}).status_code == 303
    tie = night.client("olga").get(night.url).get_data(as_text=True)
    assert "Opening roll: Ann 3, Bob 3. Tie: roll again." in visible(tie)
    night.play_turn("olga", (5, 4))
    assert night.post("bob", "double", {"by": "Bob"}).status_code == 303
    assert night.post("ann", "answer", {"cube": "team", "answer": "take"}).status_code == 303
    night.play_turn("olga", (6, 5))
    assert night.post("ann", "double", {"by": "box"}).status_code == 303
    # While Bob thinks: every page in the match's words.
    for name, page in _pages(night, client).items():
        assert chouette_words(page) == [], (name, chouette_words(page), visible(page))
        assert "Ann" in visible(page) and "Bob" in visible(page), name
    live = visible(_pages(night, client)["live (organizer)"])
    for line in ("Opening roll: Ann 3, Bob 3, tie: roll again", "Opening roll: Ann 5, Bob 4",
                 "Bob doubles Ann", "Ann takes", "Ann doubles Bob", "Players: Ann, Bob"):
        assert line in live, line
    tv = visible(_pages(night, client)["display"])
    assert "waiting for Bob" in tv
    # Bob drops (2-0 for Ann); then a game from a physical board: Bob wins a gammon at 2.
    assert night.post("bob", "answer", {"cube": "Bob", "answer": "drop"}).status_code == 303
    assert night.post("olga", "result", {"winner": "Bob", "kind": "gammon", "cube": "2"}).status_code == 303
    pages = _pages(night, client)
    for name, page in pages.items():
        assert chouette_words(page) == [], (name, chouette_words(page))
    live = visible(pages["live (organizer)"])
    assert "Bob drops" in live and "Bob wins a gammon · cube 2" in live
    tv = pages["display"]
    assert re.search(r'data-player="Ann".*?dt-score[^>]*>\s*2<', tv, re.DOTALL)
    assert re.search(r'data-player="Bob".*?dt-score[^>]*>\s*4<', tv, re.DOTALL)
    ledger = visible(pages["ledger"])
    assert "against Bob" in ledger and "Ann won: Bob dropped" in ledger and "Bob won (gammon)" in ledger
    # The same in Italian.
    for name, page in _pages(night, client, language="it").items():
        assert chouette_words(page) == [], (name, chouette_words(page))
    live = visible(_pages(night, client, language="it")["live (organizer)"])
    assert "Tiro d'apertura: Ann 5, Bob 4" in live and "Bob raddoppia a Ann" in live
    assert "Bob vince un gammon · cubo 2" in live


@pytest.mark.parametrize(("form", "words"), [
    ({"match_stake": "match", "stake_cents": "10"}, "Match to 3 · €10.00 the match"),
    ({"match_stake": "point", "stake_cents": "1"}, "Match to 3 · €1.00 a point"),
    ({"match_stake": "none"}, "Match to 3 · no stake"),
])
def test_the_night_page_says_a_match_and_its_stake(night, form, words):
    assert night.open(**form).status_code == 303
    page = visible(night.client("olga").get(f"/nights/{night.night_id}").get_data(as_text=True))
    assert words in page
    assert "Single cube" not in page and "a point" not in page.replace(words, "")


def test_the_night_page_says_the_match_stake_in_italian(night):
    night.open(match_stake="match", stake_cents="10")
    page = night.client("olga").get(f"/nights/{night.night_id}", headers={"Accept-Language": "it"})
    assert re.search(r"Match a 3 · 10,00\s€ il match", visible(page.get_data(as_text=True)))
