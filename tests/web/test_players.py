"""The player page: results, seats, cube decisions and how they ended, the balance chart
(SVG drawn on the server), for members and guests; signed-in members only."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from sqlalchemy import select

from chouette import caches
from chouette.extensions import db
from chouette.models import Member
from chouette.services import players
from chouette.services.facts import table_facts
from chouette.table import fold
from chouette.web.charts import ChartPoint, balance_chart
from tests.factories import gen_member, gen_night, gen_table
from tests.web.test_exports import KNOWN, KNOWN_TOTALS, play_log

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def known(app):
    """KNOWN played at one table of a night; Bob is also a member of the club."""
    with app.app_context():
        organizer = gen_member("organizer")
        gen_member("player", name="Bob", username="bob")
        table = gen_table(gen_night(name="Friday"), name="Table 1")
        play_log(table.id, KNOWN, organizer)
        caches.clear_all(app)
        db.session.commit()
        return table.id


def seats_of(records) -> dict[str, dict[int, tuple[str, int, bool]]]:
    """Every player's seat, result and voided mark per finished game, from the fold's records."""
    seats: dict[str, dict[int, tuple[str, int, bool]]] = {}
    for record in records:
        pairs = dict(record.pairs)
        for cube in record.cubes:
            member = cube.member
            # who started it and each acting captain
            seat = ("captain" if member in record.captains else "member", pairs.get(member, 0))
            seats.setdefault(member, {})[record.number] = (*seat, record.voided)
        for player in (record.box, record.partner):
            if player:
                seats.setdefault(player, {})[record.number] = (
                    "box" if player == record.box else "partner", record.box_side_points,
                    record.voided)
    return seats


def _chart(html: str) -> ET.Element:
    match = re.search(r'<svg id="balance-chart".*?</svg>', html, re.DOTALL)
    assert match, "no chart on the page"
    return ET.fromstring(match.group(0))


def test_history_counts_seats_and_results_for_a_known_night(app, known):
    with app.app_context():
        bob = players.player_history("Bob")
        ann = players.player_history("Ann")
        cy = players.player_history("Cy")
    assert [(r, t.games, t.won, t.lost) for r, t in bob.roles.items()] == [
        ("box", 2, 2, 0), ("partner", 0, 0, 0), ("captain", 1, 1, 0), ("member", 0, 0, 0)]
    assert [(r, t.games, t.won, t.lost) for r, t in ann.roles.items()] == [
        ("box", 1, 0, 1), ("partner", 0, 0, 0), ("captain", 1, 0, 1), ("member", 1, 0, 1)]
    assert [(r, t.games, t.won, t.lost) for r, t in cy.roles.items()] == [
        ("box", 0, 0, 0), ("partner", 0, 0, 0), ("captain", 1, 0, 1), ("member", 2, 0, 2)]
    for name, history in (("Ann", ann), ("Bob", bob), ("Cy", cy)):
        assert (history.points, history.cents) == (KNOWN_TOTALS[name][0], {"EUR": KNOWN_TOTALS[name][1]})
        assert len(history.games) == 3 and history.games[-1].balance == KNOWN_TOTALS[name][1]


def test_history_names_each_decision_and_how_it_ended(app, known):
    with app.app_context():
        bob = players.player_history("Bob")
        cy = players.player_history("Cy")
        ann = players.player_history("Ann")
    take = bob.decisions["take"]
    # Bob took the box's double as a member (won 2) and, as the box, took Ann's (won 4).
    assert (take.count, take.won, take.lost, take.points, take.cents) == (2, 2, 0, 6, {"EUR": 600})
    assert bob.decisions_as["take"] == {"member": 1, "box": 1}
    drop = cy.decisions["drop"]
    assert (drop.count, drop.points, drop.cents) == (1, -1, {"EUR": -100})
    assert all(t.count == 0 for t in ann.decisions.values())


def test_decisions_of_a_beaver_answered_by_the_box():
    log = KNOWN[:4] + [
        {"type": "double", "by": "box", "cubes": ["Bob"]},
        {"type": "beaver", "cube": "Bob"},
        {"type": "take", "cube": "Bob"},
        {"type": "result", "winner": "box", "kind": "single"},
    ]
    facts = table_facts({"beavers": True}, log)
    assert [(d.player, d.answer, d.role, d.value, d.points, d.outcome) for d in facts.decisions] == [
        ("Bob", "beaver", "member", 2, -4, "lost"), ("Ann", "take", "box", 4, 4, "won")]


def test_undone_answers_do_not_count_and_voided_games_end_as_the_fold_says():
    log = KNOWN + [
        {"type": "correct", "game": 3, "reason": "wrong result", "void": True},
        {"type": "double", "by": "box", "cubes": ["Cy"]}, {"type": "take", "cube": "Cy"},
        {"type": "undo"},
        {"type": "drop", "cube": "Cy"},
    ]
    facts = table_facts({}, log)
    assert facts.seats == seats_of(fold({}, log).games)
    assert all(voided == (number == 3) for games in facts.seats.values()
               for number, (_seat, _result, voided) in games.items())
    assert [(d.player, d.answer, d.role, d.game, d.outcome) for d in facts.decisions] == [
        ("Bob", "take", "member", 1, "won"), ("Cy", "drop", "member", 1, "lost"),
        ("Bob", "take", "box", 2, "won"), ("Cy", "drop", "member", 4, "open")]


def test_a_voided_game_counts_no_seat_and_no_decision(app, known):
    with app.app_context():
        organizer = gen_member("organizer")
        play_log(known, [{"type": "correct", "game": 2, "reason": "wrong result", "void": True}],
                 organizer)
        db.session.commit()
        bob = players.player_history("Bob")
    assert bob.voided == 1
    assert bob.decisions["take"].count == 1 and bob.decisions_as["take"] == {"member": 1}


def test_player_page_shows_seats_decisions_nights_and_money(app, client, known, auth):
    auth.login("bob")  # the member Bob, signed in: their own page: their money too (chouette.web.privacy)
    response = client.get("/players/Bob")
    assert response.status_code == 200
    html = response.data.decode()
    assert "<!doctype html>" in html and 'id="player-page"' in html
    assert re.search(r'id="seat-box"><th scope="row">Box</th><td class="num">2</td><td class="num">2</td><td class="num">0</td>', html)
    assert re.search(r'id="seat-captain"><th scope="row">Captain</th><td class="num">1</td><td class="num">1</td>', html)
    assert re.search(r'id="decision-take">.*?<td class="num">2</td>\s*<td class="num">2</td>\s*<td class="num">0</td>', html, re.DOTALL)
    assert "Friday" in html and "€10.00" in html and "member" in html
    assert "/players/Bob" in client.get("/players/").data.decode()


def test_a_guest_has_a_page_too(app, client, known, login_as):
    login_as("organizer")
    html = client.get("/players/Cy").data.decode()
    assert "guest" in html and "-€4.00" in html


def test_the_chart_is_well_formed_svg_with_one_point_per_game(app, client, known, login_as):
    login_as("organizer")
    svg = _chart(client.get("/players/Ann").data.decode())
    assert svg.get("role") == "img" and svg.get("data-games") == "3"
    assert svg.find(f"{SVG}title").text == "Balance of Ann, game by game"
    assert "3 games" in svg.find(f"{SVG}desc").text
    points = svg.find(f"{SVG}polyline").get("points").split()
    assert len(points) == 3
    assert len(svg.findall(f"{SVG}circle")) == 3
    assert svg.find(f"{SVG}line[@class='chart-zero']") is not None
    # Ann's balance only falls: each point lies lower on the chart than the one before.
    heights = [float(p.split(",")[1]) for p in points]
    assert heights == sorted(heights)


def test_balance_chart_escapes_its_texts_and_draws_a_line_of_a_thousand_games():
    points = [ChartPoint((i % 7 - 3) * 100 * i, f"<game {i}>") for i in range(1000)]
    svg = balance_chart(points, title="<script>alert(1)</script>", description="Zoë & co",
                        money=lambda c: f"{c / 100:.2f}", marks=[(0, "<n1>"), (500, "n2")])
    root = ET.fromstring(str(svg))
    assert root.find(f"{SVG}title").text == "<script>alert(1)</script>"
    assert "<script>" not in str(svg)
    assert len(root.find(f"{SVG}polyline").get("points").split()) == 1000
    assert not root.findall(f"{SVG}circle")  # too many games for a dot each
    empty = ET.fromstring(str(balance_chart([], title="t", description="d", money=str)))
    assert empty.find(f"{SVG}polyline") is None


def test_names_with_markup_are_escaped_on_the_page_and_in_the_chart(app, client, login_as):
    with app.app_context():
        organizer = gen_member("organizer")
        table = gen_table(gen_night(), name="T")
        names = ["<b>Zoë</b>", "Bob", "Cy"]
        play_log(table.id, [{"type": "join", "player": n} for n in names]
                 + [{"type": "order", "players": names},
                    {"type": "result", "winner": "box", "kind": "single"}], organizer)
        db.session.commit()
    login_as("organizer")
    response = client.get("/players/%3Cb%3EZo%C3%AB%3C/b%3E")
    assert response.status_code == 200
    html = response.data.decode()
    assert "<b>Zoë</b>" not in html and "&lt;b&gt;Zoë&lt;/b&gt;" in html
    assert _chart(html).find(f"{SVG}title").text == "Balance of <b>Zoë</b>, game by game"


def test_player_page_fragment_for_htmx(app, client, known, login_as, htmx):
    login_as("player")
    response = client.get("/players/Bob", headers=htmx)
    assert response.status_code == 200
    assert response.data.decode().lstrip().startswith('<section id="player-page"')
    assert "HX-Request" in response.headers["Vary"]
    listing = client.get("/players/", headers=htmx)
    assert listing.data.decode().lstrip().startswith('<section id="player-list"')


@pytest.mark.parametrize("url", ["/players/", "/players/Bob"])
def test_player_pages_signed_out_go_to_sign_in(client, known, url, htmx):
    response = client.get(url)
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]
    response = client.get(url, headers=htmx)
    assert response.status_code == 401 and "/auth/login" in response.headers["HX-Redirect"]


@pytest.mark.parametrize("role", ["player", "organizer", "admin"])
def test_every_signed_in_member_sees_player_pages(client, known, login_as, role):
    login_as(role)
    assert client.get("/players/Bob").status_code == 200
    assert client.get("/players/").status_code == 200


def test_an_unknown_player_is_404(client, known, login_as, htmx):
    login_as("player")
    assert client.get("/players/Nobody").status_code == 404
    assert client.get("/players/Nobody", headers=htmx).status_code == 404


def test_the_page_follows_the_log_after_a_new_game(app, client, known, auth):
    auth.login("bob")
    assert _chart(client.get("/players/Bob").data.decode()).get("data-games") == "3"
    with app.app_context():
        organizer = gen_member("organizer")
        play_log(known, [{"type": "result", "winner": "team", "kind": "gammon"}], organizer)
        db.session.commit()
    html = client.get("/players/Bob").data.decode()
    assert _chart(html).get("data-games") == "4"


def test_the_player_page_speaks_italian(app, client, known, auth):
    with app.app_context():
        bob = db.session.scalar(select(Member).where(Member.username == "bob"))
        bob.locale = "it"
        db.session.commit()
    auth.login("bob")
    html = client.get("/players/Bob").data.decode()
    assert "Decisioni sul cubo" in html and "Saldo di Bob, partita per partita" in html


@pytest.mark.parametrize("seed", range(6))
def test_facts_fold_like_the_rules_and_note_every_answer(seed):
    import random

    from chouette.table.simulate import random_night
    from chouette.table.state import effective_events

    rng = random.Random(seed)
    settings = {"beavers": True, "raccoons": True, "cube_mode": "single" if seed % 3 == 2 else "multi",
                "extras": seed % 2 == 1}
    _state, events = random_night(settings, ["Ann", "Bob", "Cy", "Dee", "Eve"], 8, rng.choice,
                                  lambda: rng.randint(1, 6), board=seed % 3 == 0)
    facts = table_facts(settings, events)
    assert facts.seats == seats_of(fold(settings, events).games)
    answers = [events[i] for i in effective_events(events)
               if events[i]["type"] in ("take", "drop", "beaver", "raccoon")]
    assert len(facts.decisions) == len(answers)
    for decision in facts.decisions:
        assert decision.outcome in ("won", "lost", "even", "open")
        assert (decision.points > 0) == (decision.outcome == "won")
