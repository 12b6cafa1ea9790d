"""The club's money: amounts written as the club writes them (MONEY_LOCALE) whatever the
reader's language, or in the reader's language when the club chose nothing; new nights start
in the club's currency (CLUB_CURRENCY); a wrong setting stops the app at start."""

from __future__ import annotations

import pytest

from chouette.extensions import db
from chouette.services import commands, tables
from tests.conftest import dispose, make_app
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

HTMX = {"HX-Request": "true"}


def dropped_night(app, currency: str = "EUR") -> None:
    """A table at 1,234.50 a point where the captain dropped the box's double: -1,234.50."""
    with app.app_context():
        organizer = gen_member("organizer")
        night = gen_night(name="Friday", currency=currency)
        table = gen_table(night, settings={**tables.TABLE_DEFAULTS, "stake_cents": 123450})
        events = [{"type": "join", "player": name} for name in ("Ann", "Bob", "Cy")]
        events += [{"type": "order", "players": ["Ann", "Bob", "Cy"]},
                   {"type": "double", "by": "box", "cubes": ["Bob", "Cy"]},
                   {"type": "drop", "cube": "Bob"}]
        for event in events:
            commands.play(table.id, tables.last_seq(table.id), event, organizer)
        db.session.commit()


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_clubs_format_whatever_the_readers_language(tmp_path, language):
    app = make_app(tmp_path, MONEY_LOCALE="it_IT")
    try:
        dropped_night(app)
        html = app.test_client().get("/display", headers={**HTMX, "Accept-Language": language}).get_data(as_text=True)
        assert "1.234,50\xa0€" in html and "€1,234.50" not in html
    finally:
        dispose(app)


def test_an_american_club_writes_dollars_its_way_for_an_italian_reader(tmp_path):
    app = make_app(tmp_path, MONEY_LOCALE="en-US")
    try:
        assert app.config["MONEY_LOCALE"] == "en_US"
        dropped_night(app, currency="USD")
        html = app.test_client().get("/display", headers={**HTMX, "Accept-Language": "it"}).get_data(as_text=True)
        assert "$1,234.50" in html and "1.234,50" not in html
    finally:
        dispose(app)


def test_without_a_club_format_amounts_follow_the_reader(app, client):
    dropped_night(app)
    english = client.get("/display", headers={**HTMX, "Accept-Language": "en"}).get_data(as_text=True)
    italian = client.get("/display", headers={**HTMX, "Accept-Language": "it"}).get_data(as_text=True)
    assert "€1,234.50" in english and "1.234,50\xa0€" in italian


def test_new_nights_start_in_the_clubs_currency(tmp_path):
    app = make_app(tmp_path, CLUB_CURRENCY="chf")
    try:
        assert app.config["CLUB_CURRENCY"] == "CHF"
        with app.app_context():
            gen_member("organizer", username="olga")
        client = app.test_client()
        client.post("/auth/login", data={"username": "olga", "password": PASSWORD})
        page = client.get("/nights/new").get_data(as_text=True)
        assert 'name="currency"' in page and 'value="CHF"' in page
    finally:
        dispose(app)


@pytest.mark.parametrize(("setting", "value", "says"), [
    ("MONEY_LOCALE", "xx_YY", "MONEY_LOCALE: 'xx_YY' is not a locale"),
    ("CLUB_CURRENCY", "euro", "CLUB_CURRENCY: 'EURO' is not a three-letter code"),
    ("CLUB_CURRENCY", "E1R", "CLUB_CURRENCY: 'E1R' is not a three-letter code"),
])
def test_a_wrong_setting_stops_the_app_with_a_clear_message(tmp_path, setting, value, says):
    with pytest.raises(ValueError, match=says):
        make_app(tmp_path, **{setting: value})
