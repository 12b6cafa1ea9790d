"""The read matrix: every GET route of the URL map x every role, with the status each gets and,
on the pages that show money, whose amounts appear. It stands beside the mutation matrix
(``test_authorization_matrix.py``): a route added to the app without a line in ``READS`` fails
here, so no new page can escape the privacy rule (``chouette.web.privacy``).

The club: night 1 has one table (opened by Owner) where Ann, Bob (guests), Cy and Dee
(members) played one game at per-player stakes, so that each one's money is a number found
nowhere else on any page: Ann +6.89, Bob -1.17, Cy -2.29, Dee -3.43. A season covers the night.
The roles: signed out; Cy, a player who played night 1; Eve, a player who did not; Owner, the
organizer who runs the night; Treasurer, another organizer (the app has no treasurer role: the
club's treasurer is an organizer); an admin.

Whose money a page shows, per role: ``-`` nobody's; ``o`` the viewer's own only (it appears
when they have money there, nobody else's does); ``a`` everyone's; ``.`` not looked at (a refusal,
a redirect, a stream, a static file). Under ``MONEY_VISIBILITY=private`` (the default) and under
``members``, with ``ANALYSIS_VISIBILITY`` (the analysis's own setting) set alike: ``403/200``
on ``/analysis/players`` is that setting's (tests/analysis/test_privacy.py sets them apart).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from chouette.extensions import db
from chouette.services import commands, ledger, seasons, tables
from tests.conftest import AuthActions, dispose, make_app
from tests.factories import gen_member, gen_night, gen_table

ROLES = ("signed out", "played", "absent", "organizer", "treasurer", "admin")

#: Each player's money on night 1, as digits that appear nowhere else (page, fragment, CSV).
AMOUNTS = {"Ann": "6.89", "Bob": "1.17", "Cy": "2.29", "Dee": "3.43"}
STAKES = {"Ann": 1000, "Bob": 117, "Cy": 229, "Dee": 343}

#: The game records (``/records/...``) hold no money, and night 1 has no board game: each
#: answers 404 to whoever is signed in (their rules are tested in tests/records).
#: rule | status per role (``in``: sent to sign in; ``403/200``: 403 under ``private``, 200
#: under ``members``) | money, private | money, members.
READS = """
/                                        | 200 200 200 200 200 200     | - - - - - - | - - - - - -
/account                                 | in  200 200 200 200 200     | . o o o o o | . o o o o o
/account/password                        | in  200 200 200 200 200     | . - - - - - | . - - - - -
/analysis/nights/<int:night_id>          | in  200 200 200 200 200     | . - - - - - | . - - - - -
/analysis/players/<path:name>            | in  403/200 403/200 200 200 200 | . . . - - - | . - - - - -
/analysis/seasons/<int:season_id>        | in  200 200 200 200 200     | . - - - - - | . - - - - -
/admin/invitations                       | in  403 403 403 403 200     | . . . . . - | . . . . . -
/admin/members                           | in  403 403 403 403 200     | . . . . . - | . . . . . -
/admin/members/<int:member_id>           | in  403 403 403 403 200     | . . . . . - | . . . . . -
/auth/login                              | 200 302 302 302 302 302     | - . . . . . | - . . . . .
/auth/reset/<token>                      | 410 410 410 410 410 410     | . . . . . . | . . . . . .
/balances                                | in  200 200 200 200 200     | . o o a a a | . a a a a a
/display                                 | 200 200 200 200 200 200     | a a a a a a | a a a a a a
/display/<int:night_id>                  | 200 200 200 200 200 200     | a a a a a a | a a a a a a
/display/<int:night_id>/stream           | 200 200 200 200 200 200     | . . . . . . | . . . . . .
/display/stream                          | 200 200 200 200 200 200     | . . . . . . | . . . . . .
/favicon.ico                             | 200 200 200 200 200 200     | . . . . . . | . . . . . .
/health                                  | 200 200 200 200 200 200     | - - - - - - | - - - - - -
/join/<token>                            | 410 410 410 410 410 410     | . . . . . . | . . . . . .
/members/password-links                  | in  403 403 200 200 200     | . . . - - - | . . . - - -
/nights/                                 | in  200 200 200 200 200     | . - - - - - | . - - - - -
/nights/<int:night_id>                   | in  200 200 200 200 200     | . - - - - - | . - - - - -
/nights/<int:night_id>/close             | in  403 403 200 403 200     | . . . - . - | . . . - . -
/nights/<int:night_id>/exports           | in  403 403 200 200 200     | . . . - - - | . . . - - -
/nights/<int:night_id>/ledger            | in  200 403/200 200 200 200 | . a . a a a | . a a a a a
/nights/<int:night_id>/ledger.csv        | in  403 403 200 200 200     | . . . a a a | . . . a a a
/nights/<int:night_id>/night.json        | in  403 403 200 200 200     | . . . - - - | . . . - - -
/nights/<int:night_id>/score-sheet       | in  403 403 200 200 200     | . . . a a a | . . . a a a
/nights/<int:night_id>/score-sheet.csv   | in  403 403 200 200 200     | . . . - - - | . . . - - -
/nights/<int:night_id>/matches/new       | in  403 403 200 200 200     | . . . - - - | . . . - - -
/nights/<int:night_id>/settle            | in  200 403/200 200 200 200 | . a . a a a | . a a a a a
/nights/<int:night_id>/stream            | in  200 200 200 200 200     | . . . . . . | . . . . . .
/nights/<int:night_id>/tables/new        | in  403 403 200 200 200     | . . . - - - | . . . - - -
/nights/import                           | in  403 403 200 200 200     | . . . - - - | . . . - - -
/nights/new                              | in  403 403 200 200 200     | . . . - - - | . . . - - -
/players/                                | in  200 200 200 200 200     | . o o a a a | . a a a a a
/players/<path:name>                     | in  200 200 200 200 200     | . o o a a a | . a a a a a
/records/nights/<int:night_id>.mat       | in  404 404 404 404 404     | . . . . . . | . . . . . .
/records/nights/<int:night_id>.sgf       | in  404 404 404 404 404     | . . . . . . | . . . . . .
/records/player.mat                      | in  404 404 404 404 404     | . . . . . . | . . . . . .
/records/player.sgf                      | in  404 404 404 404 404     | . . . . . . | . . . . . .
/records/tables/<int:table_id>.mat       | in  404 404 404 404 404     | . . . . . . | . . . . . .
/records/tables/<int:table_id>.sgf       | in  404 404 404 404 404     | . . . . . . | . . . . . .
/seasons/                                | in  200 200 200 200 200     | . - - - - - | . - - - - -
/seasons/<int:season_id>                 | in  200 200 200 200 200     | . o o a a a | . a a a a a
/seasons/<int:season_id>/payments.csv    | in  403 403 200 200 200     | . . . - - - | . . . - - -
/seasons/<int:season_id>/standings.csv   | in  403 403 200 200 200     | . . . a a a | . . . a a a
/seasons/new                             | in  403 403 200 200 200     | . . . - - - | . . . - - -
/setup                                   | 303 303 303 303 303 303     | . . . . . . | . . . . . .
/static/<path:filename>                  | 200 200 200 200 200 200     | . . . . . . | . . . . . .
/tables/<int:table_id>                   | in  200 200 200 200 200     | . a o a a a | . a a a a a
/tables/<int:table_id>/live              | in  200 200 200 200 200     | . a o a a a | . a a a a a
/tables/<int:table_id>/log.json          | in  403 403 200 200 200     | . . . - - - | . . . - - -
/tables/<int:table_id>/position          | in  200 200 200 200 200     | . - - - - - | . - - - - -
/tables/<int:table_id>/rules             | in  200 200 200 200 200     | . - - - - - | . - - - - -
/tables/<int:table_id>/social            | in  200 200 200 200 200     | . - - - - - | . - - - - -
/tables/<int:table_id>/social/stream     | in  200 200 200 200 200     | . . . . . . | . . . . . .
/tables/<int:table_id>/stream            | in  200 200 200 200 200     | . . . . . . | . . . . . .
/tables/<int:table_id>/undo              | in  403 403 200 403 200     | . . . - . - | . . . - . -
/tables/<int:table_id>/window            | in  404 404 404 404 404     | . . . . . . | . . . . . .
"""

#: More addresses of the same routes, read with the rule's line: (rule, address, whose money
#: the page is about): the settle-up with the cumulative balances; Cy's own player page.
VARIANTS = [
    ("/nights/<int:night_id>/settle", "/nights/{night_id}/settle?scope=all", set(AMOUNTS)),
    ("/players/<path:name>", "/players/Cy", {"Cy"}),
]
#: Whose money each rule's page is about (default: every player of the night).
SUBJECTS = {"/players/<path:name>": {"Dee"}}
#: Routes whose htmx fragment is something without money (the table page's: its house rules).
FRAGMENT_WITHOUT_MONEY = {"/tables/<int:table_id>"}
STREAMS = {"/display/<int:night_id>/stream", "/display/stream", "/nights/<int:night_id>/stream",
           "/tables/<int:table_id>/stream", "/tables/<int:table_id>/social/stream"}


def _table() -> dict[str, tuple[list[str], list[str], list[str]]]:
    """``READS`` parsed: rule -> (statuses, money private, money members)."""
    parsed = {}
    for line in READS.strip().splitlines():
        rule, statuses, private, members = (part.split() for part in line.split("|"))
        assert len(statuses) == len(private) == len(members) == len(ROLES), line
        parsed[rule[0]] = (statuses, private, members)
    return parsed


def _club(app: Flask) -> dict[str, Any]:
    """Night 1, its table and game, its season; the members who sign in."""
    with app.app_context():
        owner = gen_member("organizer", name="Owner")
        treasurer = gen_member("organizer", name="Treasurer")
        admin = gen_member("admin", name="Admin")
        cy = gen_member("player", name="Cy")
        dee = gen_member("player", name="Dee")
        eve = gen_member("player", name="Eve")
        night = gen_night(opened_by_id=owner.id)
        table = gen_table(night, created_by_id=owner.id,
                          settings={**tables.TABLE_DEFAULTS, "per_player_stakes": True})
        events = [{"type": "join", "player": name, "stake_cents": stake} for name, stake in STAKES.items()]
        events += [{"type": "order", "players": list(STAKES)}, {"type": "result", "winner": "box", "kind": "single"}]
        for event in events:
            commands.play(table.id, tables.last_seq(table.id), event, owner)
        assert ledger.night_balances(night.id) == {"Ann": 689, "Bob": -117, "Cy": -229, "Dee": -343}
        season = seasons.create_season(name="Season", first=night.date, last=night.date,
                                         currency=night.currency, actor=owner)
        users = {"played": cy.username, "absent": eve.username, "organizer": owner.username,
                 "treasurer": treasurer.username, "admin": admin.username}
        names = {"signed out": None, "played": "Cy", "absent": "Eve", "organizer": "Owner",
                 "treasurer": "Treasurer", "admin": "Admin"}
        values = {"night_id": night.id, "table_id": table.id, "season_id": season.id,
                  "member_id": dee.id, "name": "Dee", "filename": "css/app.css",
                  "token": "no-such-token"}
        db.session.remove()
    return {"users": users, "names": names, "values": values}


def _gets(app: Flask, values: dict[str, Any]) -> dict[str, str]:
    """Every rule of the URL map that answers GET, and its address with real arguments."""
    found = {}
    for rule in app.url_map.iter_rules():
        if "GET" in (rule.methods or ()):
            built = rule.build({name: values[name] for name in rule.arguments}, append_unknown=False)
            assert built is not None, rule.rule
            found[rule.rule] = built[1]
    return found


def _amounts(html: str, names: set[str]) -> set[str]:
    """Which of ``names``' amounts appear in ``html`` (the digits, whatever the format)."""
    return {name for name in names if re.search(rf"(?<![\d.]){re.escape(AMOUNTS[name])}(?!\d)", html)}


def _check_money(code: str, html: str, viewer: str | None, subjects: set[str]) -> str | None:
    """What is wrong with the money on a page, or None."""
    shown = _amounts(html, subjects)
    own = {viewer} & subjects
    if code == "-" and shown:
        return f"shows the money of {sorted(shown)}"
    if code == "o" and shown != own:
        return f"shows the money of {sorted(shown)}, expected only the viewer's {sorted(own)}"
    if code == "a" and shown != subjects:
        return f"shows the money of {sorted(shown)}, expected everyone's {sorted(subjects)}"
    return None


def _check_status(expected: str, response, htmx: bool) -> str | None:
    """What is wrong with a response's status, or None."""
    if expected == "in":
        if htmx:
            ok = response.status_code == 401 and "/auth/login" in response.headers.get("HX-Redirect", "")
        else:
            ok = response.status_code == 302 and "/auth/login" in response.headers.get("Location", "")
        return None if ok else f"status {response.status_code}, expected to be sent to sign in"
    if response.status_code != int(expected):
        return f"status {response.status_code}, expected {expected}"
    return None


def _read(client: FlaskClient, url: str, stream: bool, htmx: bool):
    """GET ``url`` (a stream is not read, only opened and closed)."""
    headers = {"HX-Request": "true"} if htmx else {}
    if stream:
        response = client.get(url, headers=headers, buffered=False)
        response.close()
        return response
    return client.get(url, headers=headers)


@pytest.mark.parametrize("visibility", ["private", "members"])
@pytest.mark.parametrize("role", ROLES)
def test_every_read_answers_each_role_and_shows_only_the_money_the_rule_allows(tmp_path, role, visibility):
    app = make_app(tmp_path, MONEY_VISIBILITY=visibility, ANALYSIS_VISIBILITY=visibility)
    try:
        club = _club(app)
        table = _table()
        gets = _gets(app, club["values"])
        # A route without a line in READS fails: nothing new escapes the matrix.
        assert set(gets) - set(table) == set(), f"GET routes missing from READS: {sorted(set(gets) - set(table))}"
        assert set(table) - set(gets) == set(), f"READS names routes the app lacks: {sorted(set(table) - set(gets))}"
        client = app.test_client()
        if role != "signed out":
            assert AuthActions(client).login(club["users"][role]).status_code == 303
        column = ROLES.index(role)
        viewer = club["names"][role]
        cases = [(rule, url, SUBJECTS.get(rule, set(AMOUNTS))) for rule, url in sorted(gets.items())]
        cases += [(rule, url.format(**club["values"]), subjects) for rule, url, subjects in VARIANTS]
        wrong = []
        for rule, url, subjects in cases:
            statuses, private, members = table[rule]
            expected, money = statuses[column], (private if visibility == "private" else members)[column]
            if "/" in expected:
                expected = expected.split("/")[0 if visibility == "private" else 1]
            for htmx in (False, True):
                if htmx and rule in FRAGMENT_WITHOUT_MONEY and money != ".":
                    money = "-"
                if htmx and (rule in STREAMS or expected in ("302", "303")):
                    continue  # a stream, or a redirect: nothing drawn for htmx
                response = _read(client, url, rule in STREAMS, htmx)
                assert response.status_code < 500, (url, response.status_code)
                problem = _check_status(expected, response, htmx)
                if problem is None and money != "." and response.status_code == 200:
                    problem = _check_money(money, response.get_data(as_text=True), viewer, subjects)
                if problem is not None:
                    wrong.append((url, "htmx" if htmx else "page", problem))
        assert not wrong, f"{role} ({visibility}): reads against the rule:\n" + "\n".join(map(str, wrong))
    finally:
        dispose(app)


def test_a_player_reads_their_own_money_on_their_own_page_and_balances(tmp_path):
    app = make_app(tmp_path)
    try:
        club = _club(app)
        client = app.test_client()
        assert AuthActions(client).login(club["users"]["played"]).status_code == 303
        for url in ("/players/Cy", "/balances", "/account", "/players/"):
            html = client.get(url).get_data(as_text=True)
            assert _amounts(html, set(AMOUNTS)) == {"Cy"}, url
    finally:
        dispose(app)
