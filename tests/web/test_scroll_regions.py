"""Every table that may scroll sideways on a phone sits in a scroll container a keyboard can
reach (issue 25, accessibility): ``tabindex="0"``, the role ``region`` and a name (its card's
heading), in English and in Italian, on the ledger, the settle-up, the balances, the season,
the seasons' list, the player page and the score sheet."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from chouette.demo import DEMO_PASSWORD, build_demo
from chouette.extensions import db
from chouette.models import Member
from chouette.services import seasons as seasons_service

SCROLLERS = re.compile(r'<div class="(?:scroll-x|sheet-scroll|chart-scroll)"[^>]*>')


@pytest.fixture
def demo(app):
    with app.app_context():
        today = dt.date.today()
        night = build_demo(today=today)
        olga = db.session.scalar(db.select(Member).filter_by(username="olga"))
        season = seasons_service.create_season(
            name="Autumn", first=today - dt.timedelta(days=30), last=today + dt.timedelta(days=30),
            currency="EUR", actor=olga)
        db.session.commit()
        return night.night_id, season.id


@pytest.mark.parametrize(("lang", "names"), [
    ("en", {"Game by game", "Tonight's balances", "EUR", "Standings", "Seasons", "Seats",
            "Cube decisions", "Nights", "Latest games", "Balance, game by game", "Upstairs"}),
    ("it", {"Partita per partita", "Classifica", "Stagioni", "Serate", "EUR", "Upstairs"}),
])
def test_every_scrolling_table_is_a_named_focusable_region(app, client, demo, lang, names):
    night_id, season_id = demo
    assert client.post("/auth/login", data={"username": "olga", "password": DEMO_PASSWORD}).status_code == 303
    found: dict[str, list[str]] = {}
    for url in (f"/nights/{night_id}/ledger", f"/nights/{night_id}/settle", "/balances",
                f"/seasons/{season_id}", "/seasons/", "/players/Ann", f"/nights/{night_id}/score-sheet"):
        html = client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
        tags = SCROLLERS.findall(html)
        assert tags, f"{url} has no scrolling table"
        for tag in tags:
            assert 'tabindex="0"' in tag and 'role="region"' in tag, (url, tag)
            label = re.search(r'aria-label="([^"]+)"', tag)
            assert label and label.group(1).strip(), (url, tag)
            found.setdefault(url, []).append(label.group(1).replace("&#39;", "'").replace("&#x27;", "'"))
    every = {name for labels in found.values() for name in labels}
    assert names <= every, (names - every, found)
