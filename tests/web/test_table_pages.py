"""Tables: creating one with settings or a preset, its page, its house-rules card."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from chouette.extensions import db
from chouette.models import ChouetteTable
from chouette.services import base, nights, tables
from tests.conftest import csrf_client, csrf_token_from
from tests.factories import gen_member, gen_night, gen_table


def _form(settings: dict, name: str = "Main table") -> dict[str, str]:
    """The new-table form as a browser posts it (unchecked boxes are absent)."""
    data = {"name": name}
    for key, value in settings.items():
        if isinstance(value, bool):
            if value:
                data[key] = "y"
        elif key == "stake_cents":
            data[key] = f"{value // 100}.{value % 100:02d}"
        else:
            data[key] = str(value)
    return data


def _tables(app) -> list[ChouetteTable]:
    with app.app_context():
        return list(db.session.scalars(select(ChouetteTable).order_by(ChouetteTable.id)))


@pytest.fixture
def night(app):
    with app.app_context():
        return gen_night(name="Friday")


def test_new_table_signed_out_redirects_and_creates_nothing(app, client, night):
    with app.app_context():
        gen_member("admin")
    assert client.get(f"/nights/{night.id}/tables/new").status_code == 302
    assert client.post(f"/nights/{night.id}/tables/new", data=_form(tables.TABLE_DEFAULTS)).status_code == 302
    assert _tables(app) == []


def test_a_player_may_not_create_a_table(app, client, login_as, night):
    login_as("player")
    assert client.get(f"/nights/{night.id}/tables/new").status_code == 403
    assert client.post(f"/nights/{night.id}/tables/new", data=_form(tables.TABLE_DEFAULTS)).status_code == 403
    assert _tables(app) == []


@pytest.mark.parametrize("preset", list(tables.PRESETS))
def test_an_organizer_creates_a_table_from_each_preset(app, client, login_as, night, preset):
    login_as("organizer")
    form = client.get(f"/nights/{night.id}/tables/new?preset={preset}")
    assert form.status_code == 200
    response = client.post(f"/nights/{night.id}/tables/new", data=_form(tables.PRESETS[preset]))
    assert response.status_code == 303
    [table] = _tables(app)
    assert response.headers["Location"] == f"/tables/{table.id}"
    assert table.settings == tables.PRESETS[preset]
    assert table.preset == preset


def _input(html: bytes, field_id: str) -> str:
    """The whole ``<input>`` or ``<select>`` tag with this id."""
    match = re.search(rf'<(input|select)[^>]*\bid="{field_id}"[^>]*>', html.decode())
    assert match, f"no field {field_id}"
    return match.group(0)


def test_choosing_a_preset_fills_in_its_settings_as_page_and_as_fragment(app, client, login_as, night, htmx):
    login_as("organizer")
    page = client.get(f"/nights/{night.id}/tables/new?preset=money-night")
    assert b"<html" in page.data
    assert "checked" in _input(page.data, "beavers")
    assert "checked" not in _input(page.data, "extras")
    fragment = client.get(f"/nights/{night.id}/tables/new?preset=money-night&name=Upstairs", headers=htmx)
    assert fragment.data.lstrip().startswith(b'<section id="table-form"')
    assert b"<html" not in fragment.data
    assert 'value="Upstairs"' in _input(fragment.data, "name")
    assert 'value="1"' in _input(fragment.data, "automatic_doubles")
    assert "HX-Request" in fragment.headers["Vary"]
    plain = client.get(f"/nights/{night.id}/tables/new?preset=single-cube-jacoby")
    assert re.search(r'<option selected value="single">', plain.data.decode())


def test_custom_settings_are_stored_as_typed(app, client, login_as, night):
    login_as("organizer")
    settings = {**tables.TABLE_DEFAULTS, "cube_mode": "single", "stake_cents": 250, "consulting": "after_cube", "box_retention": "net_positive"}
    assert client.post(f"/nights/{night.id}/tables/new", data=_form(settings)).status_code == 303
    [table] = _tables(app)
    assert table.settings == settings
    assert table.preset is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"stake_cents": "lots"}, b"Enter an amount such as 1 or 2.50."),
        ({"stake_cents": "1.005"}, b"Enter an amount such as 1 or 2.50."),
        ({"stake_cents": "-2"}, b"Enter an amount such as 1 or 2.50."),
        ({"stake_cents": "1000000.01"}, b"That stake is too large."),
        ({"stake_cents": "1E26"}, b"That stake is too large."),  # beyond Decimal's precision
        ({"stake_cents": "-1E26"}, b"Enter an amount such as 1 or 2.50."),
        ({"stake_cents": "Infinity"}, b"Enter an amount such as 1 or 2.50."),
        ({"automatic_doubles": "many"}, b"Not a valid integer value."),
        ({"automatic_doubles": "9"}, b"Between 0 and 6."),
        ({"partner_share_percent": "150"}, b"Between 0 and 100."),
        ({"cube_mode": "triple"}, b"Not a valid choice"),
        ({"raccoons": "y"}, b"Raccoons need beavers."),
        ({"name": ""}, b"This field is required."),
    ],
)
def test_bad_settings_are_refused_with_the_reason_and_kept(app, client, login_as, night, change, message):
    login_as("organizer")
    data = {**_form(tables.TABLE_DEFAULTS, name="Kept name"), **change}
    response = client.post(f"/nights/{night.id}/tables/new", data=data)
    assert response.status_code == 422
    assert message in response.data
    if "stake_cents" in change:
        assert f'value="{change["stake_cents"]}"'.encode() in response.data
    if change.get("name", "x"):
        assert b'value="Kept name"' in response.data
    assert _tables(app) == []


def test_a_second_table_with_the_same_name_tonight_is_refused(app, client, login_as, night):
    login_as("organizer")
    client.post(f"/nights/{night.id}/tables/new", data=_form(tables.TABLE_DEFAULTS, name="Main"))
    response = client.post(f"/nights/{night.id}/tables/new", data=_form(tables.TABLE_DEFAULTS, name="Main"))
    assert response.status_code == 422
    assert b"There is already a table called Main tonight." in response.data
    assert len(_tables(app)) == 1


def test_a_closed_night_gets_no_new_table(app, client, login_as, night):
    organizer = login_as("organizer")
    with app.test_request_context():
        nights.close_night(night.id, actor=organizer)
    response = client.post(f"/nights/{night.id}/tables/new", data=_form(tables.TABLE_DEFAULTS))
    assert response.status_code == 422
    assert b"This night is closed: no new tables." in response.data
    assert _tables(app) == []


def test_table_page_shows_the_house_rules_card_as_page_and_as_fragment(app, client, login_as, htmx):
    login_as("player")
    with app.app_context():
        table = gen_table(name="Window", settings=tables.PRESETS["money-night"], preset="money-night")
    page = client.get(f"/tables/{table.id}")
    assert page.status_code == 200 and b"<html" in page.data and b"Window" in page.data
    assert b"Money night: beavers, raccoons, automatic doubles (cap 1), Jacoby" in page.data
    fragment = client.get(f"/tables/{table.id}", headers=htmx)
    assert fragment.data.lstrip().startswith(f'<section id="rules-card-{table.id}"'.encode())
    assert "HX-Request" in fragment.headers["Vary"]


def test_house_rules_card_states_every_setting_in_words(app, client, login_as):
    login_as("player")
    with app.app_context():
        table = gen_table(settings={**tables.PRESETS["money-night"], "stake_cents": 250})
    page = client.get(f"/tables/{table.id}").data.decode()
    for key in tables.TABLE_DEFAULTS:
        if key != "unanswered_double":  # said only with a time limit, online
            assert f'data-setting="{key}"' in page, key
    assert 'data-setting="unanswered_double"' not in page
    assert "No time limit: every decision waits for its player." in page
    assert "€2.50 a point." in page
    assert "On, at most 1: a tied opening roll turns the cube." in page
    assert "Allowed: the doubler may answer a beaver by redoubling again." in page
    assert "On: gammons and backgammons count single unless the cube was turned." in page


def test_printable_card_is_in_english_and_in_italian(app, client, login_as):
    login_as("player")
    with app.app_context():
        table = gen_table()
    page = client.get(f"/tables/{table.id}/rules")
    assert page.status_code == 200
    text = page.data.decode()
    assert f'id="rules-card-{table.id}-en"' in text and f'id="rules-card-{table.id}-it"' in text
    english, italian = text.split(f'id="rules-card-{table.id}-it"')
    assert "House rules" in english and "Multi-cube: every member has a cube of their own against the box." in english
    assert "Regole della casa" in italian and "Multi-cubo" in italian


def test_unknown_table_is_404(app, client, login_as):
    login_as("player")
    assert client.get("/tables/404").status_code == 404
    assert client.get("/tables/404/rules").status_code == 404


def test_creating_a_table_needs_the_csrf_token(csrf_app):
    with csrf_app.app_context():
        organizer = gen_member("organizer")
        night = gen_night()
    client = csrf_client(csrf_app, organizer.username)
    assert client.post(f"/nights/{night.id}/tables/new", data=_form(tables.TABLE_DEFAULTS)).status_code == 400
    assert _tables(csrf_app) == []
    token = csrf_token_from(client.get(f"/nights/{night.id}/tables/new").data)
    data = {**_form(tables.TABLE_DEFAULTS), "csrf_token": token}
    assert client.post(f"/nights/{night.id}/tables/new", data=data).status_code == 303


def test_the_web_knows_every_table_setting_with_the_rules_defaults():
    """The form, the card and the presets cover exactly the settings of chouette.table."""
    from chouette.table import Settings

    # ``play`` at its default ("club") and the clock at its defaults (no time limit) are left
    # out of the settings written (a table's settings, snapshots and exports as before online
    # play): the whole value has them.
    def whole(settings: Settings) -> dict[str, object]:
        return {**settings.to_dict(), "play": settings.play,
                "decision_seconds": settings.decision_seconds,
                "unanswered_double": settings.unanswered_double}

    assert whole(Settings()) == tables.TABLE_DEFAULTS
    for preset in tables.PRESETS.values():
        assert whole(Settings.from_dict(preset)) == preset


def test_a_mandatory_beaver_without_beavers_is_refused(app, client, login_as, night):
    login_as("organizer")
    data = {**_form(tables.TABLE_DEFAULTS), "all_but_one": "mandatory_beaver"}
    response = client.post(f"/nights/{night.id}/tables/new", data=data)
    assert response.status_code == 422
    assert b"A mandatory beaver needs beavers." in response.data
    assert _tables(app) == []


def test_settings_refused_by_the_rules_are_refused_by_the_service(app):
    with app.test_request_context():
        with pytest.raises(base.ServiceError, match="Unknown table setting: colour"):
            tables.normalize_settings({"colour": "green"})
        with pytest.raises(base.ServiceError, match="stake_cents is a whole number"):
            tables.normalize_settings({"stake_cents": 2.5})
        with pytest.raises(base.ServiceError, match="cube_mode cannot be triple"):
            tables.normalize_settings({"cube_mode": "triple"})


def test_a_table_without_partners_says_so_on_its_card(app, client, login_as):
    login_as("player")
    with app.app_context():
        table = gen_table(settings={**tables.TABLE_DEFAULTS, "partner_min_players": 0, "same_value_same_action": True})
    page = client.get(f"/tables/{table.id}").data
    assert b"No box partner at this table." in page
    assert b"On: cubes of the same value doubled together must all be taken or all dropped by the box." in page


def test_table_page_and_printed_card_carry_a_qr_code_of_the_table(app, client, login_as):
    import segno

    login_as("player")
    with app.app_context():
        table = gen_table()
    url = f"http://localhost/tables/{table.id}"
    expected = segno.make(url, error="m").svg_inline(scale=4, omitsize=True, svgclass="qr")
    for page in (client.get(f"/tables/{table.id}").data.decode(), client.get(f"/tables/{table.id}/rules").data.decode()):
        assert expected in page
        assert url in page
