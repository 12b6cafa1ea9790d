"""Hostile input on every endpoint of the URL map (new ones included as they land): no 500,
clear 4xx answers, oversized bodies refused with 413, and names with markup escaped on every
page.

The club is seeded with hostile names everywhere a name is shown (members, the night, the
table, seated players), a game in progress with cubes and a finished one with money; the
client is signed in as the admin who runs it, so every view goes past its role check to its
parsing. Hypothesis generates forms (move notation, Position IDs, XGIDs, numbers, names with
markup and unicode, missing and repeated fields) and query strings.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, url_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chouette.extensions import db
from chouette.services import commands, exports, seasons, tables
from tests.conftest import AuthActions, dispose, make_app
from tests.factories import PASSWORD, gen_member, gen_night, gen_table

SCRIPT = "<script>alert(1)</script>"
IMAGE = '"><img src=x onerror=alert(1)>'
QUOTE = "O'Neil & <b>Sons</b>"
HOSTILE_NAMES = (SCRIPT, IMAGE, QUOTE, "Zoë 🎲")
#: What must never appear unescaped in an HTML or SVG answer.
RAW_MARKUP = (SCRIPT, "<img src=x onerror=alert(1)>", "<b>Sons</b>")
ESCAPED_SCRIPT = "&lt;script&gt;alert(1)&lt;/script&gt;"
#: Endpoints that accept a larger body than MAX_CONTENT_LENGTH (a night export's upload).
LARGER_BODIES = {"exports.import_night": exports.MAX_IMPORT_BYTES + 64 * 1024}

#: Every form field name the app's forms use, and some they don't.
FIELDS = (
    "name", "username", "password", "password2", "confirm", "role", "active", "locale", "next", "csrf_token",
    "date", "currency", "preset", "seq", "player", "players", "stake", "how", "die", "die1", "die2",
    "answer", "cube", "cubes", "by", "giver", "taker", "move", "winner", "kind", "position_id", "on_roll",
    "game", "reason", "void", "result", "fix", "payer", "payee", "amount", "method", "cents", "file", "xgid",
    "cube_mode", "stake_cents", "per_player_stakes", "jacoby", "beavers", "raccoons", "automatic_doubles",
    "all_but_one", "all_but_one_min_players", "extras", "partner_min_players", "partner_share_percent",
    "box_retention", "join_position", "consulting", "same_value_same_action", "paid", "transfer",
    "first_date", "last_date", "iou_night", "iou_season", "back_night", "back_season",
)

moves = st.from_regex(r"\A((bar|2[0-5]|1?[0-9])/(off|2[0-5]|1?[0-9])\*?(\(\d\))? ?){0,5}\Z")
position_ids = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", max_size=20)
xgids = st.builds(lambda body: "XGID=" + body,
                  st.text(alphabet="-abcdefghijklmnoABCDEFGHIJKLMNO0123456789:", max_size=60))
numbers = st.one_of(st.integers(-(10**30), 10**30).map(str), st.floats(allow_nan=True).map(str),
                    st.sampled_from(["1e309", "-0", "0x10", "٣", "１", "1,5", "2.50", "99999999999999999999", ""]))
names = st.one_of(st.sampled_from(HOSTILE_NAMES), st.text(max_size=40),
                  st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
choices = st.sampled_from(["box", "team", "take", "drop", "beaver", "raccoon", "single", "gammon", "backgammon",
                           "roll", "dice", "record", "draw", "accept", "decline", "cash", "transfer", "iou",
                           "multi", "single", "admin", "organizer", "player", "y", "on", "true", "it", "en"])
values = st.one_of(moves, position_ids, xgids, numbers, names, choices)
forms = st.dictionaries(st.sampled_from(FIELDS), st.one_of(values, st.lists(values, max_size=4)), max_size=10)


def _seed(app: Flask) -> dict[str, Any]:
    """The hostile club: names with markup everywhere, a finished game, a game with cubes."""
    with app.app_context():
        admin = gen_member("admin", name=SCRIPT, username="boss")
        for index, name in enumerate(HOSTILE_NAMES[1:]):
            gen_member("player", name=name, username=f"hostile{index}")
        night = gen_night(name=IMAGE, opened_by_id=admin.id)
        table = gen_table(night, name=SCRIPT, created_by_id=admin.id)
        gen_table(night, name=QUOTE, created_by_id=admin.id)
        seated = list(HOSTILE_NAMES)
        for name in seated:
            commands.play(table.id, tables.last_seq(table.id), {"type": "join", "player": name}, admin)
        for event in ({"type": "order", "players": seated},
                      {"type": "double", "by": "box", "cubes": seated[2:]},
                      {"type": "take", "cube": seated[2]}, {"type": "drop", "cube": seated[3]},
                      {"type": "result", "winner": "team", "kind": "gammon"},
                      {"type": "double", "by": "box", "cubes": [seated[0]]}):
            try:
                commands.play(table.id, tables.last_seq(table.id), event, admin)
            except Exception:  # noqa: BLE001 (the rotation decides who may double next)
                db.session.rollback()
        ids = {"night_id": night.id, "table_id": table.id, "member_id": admin.id}
        season = seasons.create_season(name=QUOTE, first=night.date, last=night.date,
                                        currency=night.currency, actor=admin)
        ids["season_id"] = season.id
        db.session.remove()
    return ids


@pytest.fixture
def hostile(tmp_path: Path):
    """(app, signed-in admin client, ids) on the hostile club."""
    app = make_app(tmp_path)
    ids = _seed(app)
    client = app.test_client()
    assert AuthActions(client).login("boss").status_code == 303
    yield app, client, ids
    dispose(app)


def _routes(app: Flask, ids: dict[str, int], method: str) -> list[tuple[str, str]]:
    """(endpoint, url) of every rule answering ``method``, its arguments real."""
    found = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if method not in (rule.methods or ()) or rule.endpoint == "static":
                continue
            # A link's token (a password link, an invitation) is no id: an unknown one is 410.
            values = {name: ids.get(name, SCRIPT if name == "name" else "no-such-token" if name == "token" else 1)
                      for name in rule.arguments}
            found.append((rule.endpoint, url_for(rule.endpoint, **values)))
    return sorted(found)


def _is_markup(response) -> bool:
    return response.mimetype in ("text/html", "image/svg+xml", "application/xhtml+xml")


def _assert_escaped(response, where: str) -> None:
    if _is_markup(response):
        text = response.get_data(as_text=True)
        for raw in RAW_MARKUP:
            assert raw not in text, f"{where}: {raw!r} unescaped"


def test_every_page_shows_hostile_names_escaped(hostile):
    app, client, ids = hostile
    shown = []
    for endpoint, url in _routes(app, ids, "GET"):
        if endpoint == "auth.login":
            continue
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(url, headers=headers)
            assert response.status_code < 500, (endpoint, response.status_code)
            _assert_escaped(response, f"{endpoint} {headers}")
            if ESCAPED_SCRIPT in response.get_data(as_text=True):
                shown.append(endpoint)
    # The names were really on the pages, escaped: the check above was not vacuous.
    assert {"tables.show", "nights.show", "play.live", "seasons.show"} <= set(shown), shown


def test_every_get_survives_hostile_query_strings(hostile):
    app, client, ids = hostile
    routes = [route for route in _routes(app, ids, "GET") if route[0] != "health"]

    @settings(max_examples=4 * len(routes), deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(route=st.sampled_from(routes), query=forms, htmx=st.booleans())
    def fetch(route, query, htmx):
        endpoint, url = route
        response = client.get(url, query_string=query, headers={"HX-Request": "true"} if htmx else {})
        assert response.status_code < 500, (endpoint, query)
        _assert_escaped(response, endpoint)

    fetch()


@pytest.mark.parametrize("number", [0, 2**31, 2**63, 10**30])
def test_ids_no_row_can_have_are_not_found(hostile, number):
    app, client, ids = hostile
    for endpoint, url in _routes(app, ids, "GET") + _routes(app, ids, "POST"):
        url_with_number = re.sub(r"/\d+(?=/|$|\.)", f"/{number}", url, count=1)
        if url_with_number == url:
            continue
        method = client.post if (endpoint, url) in _routes(app, ids, "POST") else client.get
        response = method(url_with_number)
        assert response.status_code == 404, (endpoint, url_with_number, response.status_code)


def test_every_post_survives_hypothesis_forms_with_a_clear_4xx(hostile):
    app, client, ids = hostile
    posts = [route for route in _routes(app, ids, "POST") if route[0] not in ("auth.logout", "auth.login")]
    statuses: dict[str, set[int]] = {}

    def fuzz(endpoint: str, url: str) -> None:
        """Hypothesis forms on one endpoint (each endpoint gets its own examples)."""

        @settings(max_examples=12, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
        @given(form=forms, htmx=st.booleans(), current_seq=st.booleans())
        def post(form, htmx, current_seq):
            if current_seq:  # past the "page out of date" check, on to the rules
                with app.app_context():
                    form = {**form, "seq": str(tables.last_seq(ids["table_id"]))}
                    db.session.remove()
            response = client.post(url, data=form, headers={"HX-Request": "true"} if htmx else {})
            status = response.status_code
            statuses.setdefault(endpoint, set()).add(status)
            assert status < 500, (endpoint, form)
            if 400 <= status < 500 and status != 404:
                assert response.get_data(as_text=True).strip(), f"{endpoint}: an empty {status}"
            _assert_escaped(response, endpoint)

        post()

    for endpoint, url in posts:
        fuzz(endpoint, url)
    assert set(statuses) == {endpoint for endpoint, _url in posts}
    # A signed-in admin is never refused for their role: the 4xx were the input's fault. Only a
    # message needs a seat of the admin's own, which another fuzzed post (a stand) may have taken.
    refused = {endpoint: found for endpoint, found in statuses.items()
               if 403 in found and not endpoint.startswith("main.")}
    assert set(refused) <= {"social.post_message"}, refused


#: A control character other than tab, LF and CR (category Cc).
CONTROL_OUTSIDE_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def test_login_survives_hypothesis_forms(hostile):
    app, _client, _ids = hostile

    @settings(max_examples=60, deadline=None, database=None)
    @given(form=forms)
    def sign_in(form):
        response = app.test_client().post("/auth/login", data=form)
        # 400: a control character anywhere in the form is refused before any view (issue 12).
        assert response.status_code in (303, 400, 401, 422, 429), form
        texts = [text for value in form.values() for text in (value if isinstance(value, list) else [value])]
        if any(CONTROL_OUTSIDE_LINES.search(text) for text in texts):
            assert response.status_code == 400, form
        _assert_escaped(response, "auth.login")

    sign_in()


def test_an_oversized_body_is_refused_with_413_on_every_post(tmp_path):
    """As in production (CSRF checks on: every post's body is read before its view)."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    ids = _seed(app)
    client = app.test_client()
    page = client.get("/auth/login")
    token = re.search(rb'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page.data).group(1).decode()
    assert client.post("/auth/login", data={"username": "boss", "password": PASSWORD,
                                            "csrf_token": token}).status_code == 303
    limit = app.config["MAX_CONTENT_LENGTH"]
    assert limit and limit <= 16 * 1024 * 1024
    for endpoint, url in _routes(app, ids, "POST"):
        size = LARGER_BODIES.get(endpoint, limit) + 1
        for headers in ({}, {"HX-Request": "true"}):
            response = client.post(url, data={"name": "x" * size, "seq": "1"}, headers=headers)
            assert response.status_code == 413, (endpoint, response.status_code)
    response = client.post(f"/nights/{ids['night_id']}/payments", data={"name": "x" * (limit + 1)})
    assert b"413" in response.data
    dispose(app)
