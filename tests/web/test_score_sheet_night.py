"""A score sheet that shows everything (issue 14 item 4), against a night with every kind of
event: a partner and their share, a forced drop (all but one declined), beavers and raccoons,
acting captains, a box's drop, extras with giver and taker, and a change of the house rules
between games. The printable sheet, its CSV, the table's history and the player pages agree on
it: they are drawn from one per-game model (``chouette.services.sheet``)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from markupsafe import escape

from chouette import caches
from chouette.extensions import db
from chouette.point_words import points_text
from chouette.services import exports, players, tables
from chouette.services import sheet as sheet_service
from tests.factories import gen_member, gen_night, gen_table
from tests.web.test_exports import write_log


def _join(name: str) -> dict[str, object]:
    return {"type": "join", "player": name}


def _double(by: str, *cubes: str) -> dict[str, object]:
    return {"type": "double", "by": by, **({"cubes": list(cubes)} if cubes else {})}


def _answer(kind: str, cube: str) -> dict[str, object]:
    return {"type": kind, "cube": cube}


SETTINGS = {**tables.TABLE_DEFAULTS, "beavers": True, "raccoons": True, "partner_min_players": 6}
#: Box A with C as partner. Game 1: the box doubles B D E F, all drop but F, whose take
#: becomes a drop (all but one). Game 2: D (captain) drops, E beavers, the box raccoons, E
#: plays on as captain, doubles and the box drops: E has beaten the box and F plays on as
#: acting captain; the team wins a gammon. Then E is box with F as partner, the house rules
#: change (extras on, 2.00 a point), and in game 3 A takes alone, C and D give A extras, A
#: redoubles C's, the team wins a single.
NIGHT = [
    *(_join(p) for p in "ABCDEF"), {"type": "order", "players": list("ABCDEF")},
    {"type": "partner", "player": "B", "accept": False}, {"type": "partner", "player": "C", "accept": True},
    _double("box", "B", "D", "E", "F"), _answer("drop", "B"), _answer("drop", "D"),
    _answer("drop", "E"), _answer("take", "F"),
    _double("box", "D", "E", "F", "B"), _answer("drop", "D"), _answer("beaver", "E"),
    _answer("take", "F"), _answer("take", "B"), _answer("raccoon", "E"), _answer("take", "E"),
    _double("E"), _answer("drop", "E"), {"type": "result", "winner": "team", "kind": "gammon"},
    {"type": "partner", "player": "C", "accept": False}, {"type": "partner", "player": "F", "accept": True},
    {"type": "settings", "settings": {"extras": True, "stake_cents": 200}},
    _double("box", "C", "B", "D", "A"), _answer("drop", "C"), _answer("drop", "B"),
    _answer("drop", "D"), _answer("take", "A"),
    {"type": "extra", "from": "C", "to": "A"}, {"type": "extra", "from": "D", "to": "A"},
    {"type": "double", "by": "A", "extra": "C"}, {"type": "take", "extra": "C"},
    {"type": "result", "winner": "team", "kind": "single"},
]
PLAYERS = "ABCDEF"


@pytest.fixture
def night(app):
    """NIGHT written at one table; the organizer who opened it."""
    with app.app_context():
        organizer = gen_member("organizer")
        night = gen_night(name="Everything night", opened_by_id=organizer.id)
        table = gen_table(night, name="Table 1", settings=dict(SETTINGS))
        write_log(table.id, NIGHT, organizer)
        caches.clear_all(app)
        db.session.commit()
        return {"night_id": night.id, "table_id": table.id, "organizer": organizer.username}


def _sheet(app, night) -> list[sheet_service.SheetGame]:
    with app.app_context():
        _night, sheets = exports.score_sheet(night["night_id"])
        return [row.game for row in sheets[0].rows]


def test_the_sheet_model_holds_every_kind_of_event_of_the_night(app, night):
    games = _sheet(app, night)
    assert [(g.number, g.box, g.partner, g.captains) for g in games] == [
        (1, "A", "C", ("B",)), (2, "A", "C", ("D", "E", "F")), (3, "E", "F", ("C", "A"))]
    one, two, three = games
    assert [line.kind for line in one.lines] == ["double", "drop", "drop", "drop", "take", "forced_drop"]
    assert [(c.member, c.value, c.owner, c.status) for c in two.cubes] == [
        ("D", 1, None, "dropped"), ("E", 8, "E", "won"), ("F", 2, "F", "live"), ("B", 2, "B", "live")]
    assert [line.kind for line in two.lines] == [
        "double", "drop", "beaver", "take", "take", "acting_captain", "raccoon", "take", "double",
        "drop", "acting_captain"]
    assert [(e.giver, e.taker, e.value, e.owner, e.points) for e in three.extras] == [
        ("C", "A", 4, "C", 5), ("D", "A", 2, "A", 3)]
    # The partner's share: half the box's points, the odd point to the box.
    assert [g.partner_points for g in games] == [2, -7, 0]
    assert (two.winner, two.kind, three.winner) == ("team", "gammon", "team")
    assert three.rules_changed == {"stake_cents": (100, 200), "extras": (False, True)}
    assert three.cents["A"] == 2000  # 10 points at the new 2.00 a point


def test_the_csv_says_everything_the_sheet_says(app, client, night, login_as):
    login_as("organizer")
    response = client.get(f"/nights/{night['night_id']}/score-sheet.csv")
    rows = list(csv.DictReader(io.StringIO(response.data.decode())))
    games = _sheet(app, night)
    assert [(r["captain"], r["acting_captains"]) for r in rows] == [("B", ""), ("D", "E F"), ("C", "A")]
    assert rows[1]["cubes"] == "D:1:dropped:middle E:8:won:member F:2:live:member B:2:live:member"
    assert rows[2]["extras"] == "C>A:4:live:giver D>A:2:live:taker"
    assert "F must drop too (all but one declined) and loses 1" in rows[0]["events"]
    assert "The box raccoons E to 8" in rows[1]["events"]
    assert "C gives A an extra cube and pays A 1 point" in rows[2]["events"]
    assert [r["partner_points"] for r in rows] == ["2", "-7", "0"]
    assert rows[2]["rules_changed"] == "stake_cents=200 (was 100); extras=true (was false)"
    for row, game in zip(rows, games, strict=True):
        assert row["box"] == game.box and row["partner"] == (game.partner or "")
        assert row["events"] == "; ".join(sheet_service.line_words(line) for line in game.lines)
        assert {p: row[p] for p in PLAYERS} == {p: str(game.points[p]) if p in game.points else ""
                                                for p in PLAYERS}


def test_the_printed_sheet_and_the_history_show_the_same_games(app, client, night, login_as):
    login_as("organizer")
    games = _sheet(app, night)
    sheet = client.get(f"/nights/{night['night_id']}/score-sheet").data.decode()
    history = client.get(f"/tables/{night['table_id']}?history=all").data.decode()
    for html in (sheet, history):
        assert 'data-from-game="3"' in html and "Extra cubes for a lone taker: on (was off)" in html
        for game in games:
            row = html[html.index(f'data-game="{game.number}"'):]
            row = row[:row.index("</tr>")]
            for name in game.acting_captains:
                assert f"then {name}" in row
            for cube in game.cubes:
                assert f'data-cube="{cube.member}"' in row
            for extra in game.extras:
                assert f"extra {extra.giver}→{extra.taker}" in row
            for line in game.lines:
                assert str(escape(sheet_service.line_words(line))) in row
    assert [f"Partner's share: {points_text(g.partner_points)}" in sheet for g in games] == [True] * 3


def _role(game, name: str) -> str | None:
    """A player's role in a game of the sheet, as the player page names it."""
    if name == game.box:
        return "box"
    if name == game.partner:
        return "partner"
    if name in game.captains:
        return "captain"
    return "member" if name in game.members else None


def test_player_pages_agree_with_the_sheet_and_count_acting_captaincies(app, client, night, login_as):
    login_as("organizer")
    games = _sheet(app, night)
    with app.app_context():
        histories = {name: players.player_history(name) for name in PLAYERS}
    for name, history in histories.items():
        on_sheet = {g.number: (_role(g, name), g.points.get(name, 0)) for g in games
                    if _role(g, name)}
        on_page = {line.game: (line.role, line.points) for line in history.games}
        assert on_page == on_sheet, name
        assert history.roles["captain"].games == sum(name in g.captains for g in games), name
    # Every game's starter and acting captains count: D started game 2, E and F acted in it,
    # A acted in game 3.
    assert {n: h.roles["captain"].games for n, h in histories.items()} == {
        "A": 1, "B": 1, "C": 1, "D": 1, "E": 1, "F": 1}
    page = client.get("/players/F").data.decode()
    assert re.search(r'id="seat-captain"><th scope="row">Captain</th><td class="num">1</td>', page)


def test_a_player_who_never_played_a_game_has_no_column(app, client, login_as):
    with app.app_context():
        organizer = gen_member("organizer")
        table = gen_table(gen_night(), name="Short")
        write_log(table.id, [_join("Ann"), _join("Bob"), _join("Zed"), {"type": "leave", "player": "Zed"},
                             {"type": "order", "players": ["Ann", "Bob"]},
                             {"type": "result", "winner": "box", "kind": "single"}], organizer)
        caches.clear_all(app)
        _night, sheets = exports.score_sheet(table.night_id)
    assert sheets[0].players == ["Ann", "Bob"]
