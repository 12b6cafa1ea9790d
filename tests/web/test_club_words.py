"""Small things a club notices (issue 14, item 6): the tied opening roll, the undo that names
its action, refusals in a club's words, one name for the cube in the middle, money on the
players' list in the club's format, roles and labels in Italian, the single cube's panel, and
no score-sheet column for a player who never played."""

from __future__ import annotations

import html as html_text
import re
import string

from babel.messages.pofile import read_po

from chouette.refusals import CLUB_WORDS, say
from chouette.services import exports, money, tables
from chouette.table import TableError, apply_event
from tests.conftest import make_app
from tests.factories import PASSWORD, gen_member
from tests.services.test_money_services import play_night
from tests.web.test_i18n import PO
from tests.web.test_play_pages import HTMX, Table, post, sign_in


def _alert(html: str) -> str:
    """The text of the page's refusal."""
    found = re.search(r'role="alert">(.*?)<', html, re.DOTALL)
    assert found, html[-2000:]
    return html_text.unescape(found.group(1))


def _placeholders(text: str) -> set[str]:
    return {name for _literal, name, _spec, _conv in string.Formatter().parse(text) if name}


# --------------------------------------------------------------------------- the table


def test_a_tied_opening_roll_says_tie_roll_again(app, client):
    table = Table(app)
    table.seat("ABCD")
    sign_in(client, table.owner)
    table.play({"type": "opening_roll", "box": 3, "team": 3})
    html = client.get(f"{table.url}/live", headers=HTMX).get_data(as_text=True)
    assert "Opening roll: box 3, team 3. Tie: roll again." in html
    assert "Opening roll: box 3, team 3, tie: roll again" in html  # the table's log says it too
    table.play({"type": "opening_roll", "box": 5, "team": 2})
    html = client.get(f"{table.url}/live", headers=HTMX).get_data(as_text=True)
    assert "Tie: roll again." not in html and "Opening roll: box 5, team 2" in html


def test_the_undo_confirmation_names_the_action_it_will_undo(app, client):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "double", "by": "box", "cubes": ["B"]})
    sign_in(client, table.owner)
    html = client.get(f"{table.url}/live", headers=HTMX).get_data(as_text=True)
    assert 'hx-confirm="Undo the last action: The box doubles B?"' in html
    page = client.get(f"{table.url}/undo").get_data(as_text=True)
    assert "Undo the last action: The box doubles B?" in page


def test_an_illegal_move_is_refused_in_a_clubs_words_without_the_position_id(app, client):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "opening_roll", "box": 3, "team": 1})
    sign_in(client, table.owner)
    refused = post(client, table, "move", {"move": "24/18 13/8"}, htmx=True)
    assert refused.status_code == 422
    alert = _alert(refused.get_data(as_text=True))
    assert alert.startswith("24/18 13/8 cannot be played with 3-1: ")
    assert "position" not in alert and "4HPwATDgc/ABMA" not in alert


def test_a_final_position_that_is_not_finished_is_refused_without_its_id(app, client):
    table = Table(app)
    table.seat("ABCD")
    sign_in(client, table.owner)
    refused = post(client, table, "result", {"position_id": "4HPwATDgc/ABMA", "on_roll": "box"}, htmx=True)
    assert refused.status_code == 422
    assert _alert(refused.get_data(as_text=True)) == "the game in that position is not finished"


def test_a_refused_correction_names_no_event_number(app):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "result", "winner": "box", "kind": "single"},
               {"type": "double", "by": "box", "cubes": ["B"]})
    state = table.state()
    try:
        apply_event(state, {"type": "correct", "game": 1, "reason": "typo",
                            "result": {"winner": "team", "kind": "single"}})
    except TableError as error:
        assert re.search(r"event \d+ \(double\)", str(error))  # the log's own message keeps it
        with app.test_request_context():
            words = say(error)
    else:
        raise AssertionError("the correction was not refused")
    assert words.startswith("with this correction a later action of the table would be refused: ")
    assert "event" not in words and "double)" not in words


def test_every_refusal_in_a_clubs_words_keeps_to_its_rules_parameters_and_is_in_italian():
    catalog = read_po(PO.open("rb"))
    italian = {m.id: m.string for m in catalog if isinstance(m.id, str) and m.string}
    for template, club in CLUB_WORDS.items():
        assert _placeholders(club.template) <= _placeholders(template), template
        assert "position_id" not in _placeholders(club.template) and "index" not in _placeholders(club.template)
        assert club.template in italian, club.template
        assert _placeholders(italian[club.template]) == _placeholders(club.template)


def test_the_single_cube_panel_is_titled_for_one_cube(app, client):
    single = Table(app, settings={"cube_mode": "single"})
    single.seat("ABCD")
    sign_in(client, single.owner)
    html = client.get(f"{single.url}/live", headers=HTMX).get_data(as_text=True)
    assert re.search(r"<h2>The cube <small", html) and "<h2>Cubes" not in html
    multi = Table(app)
    multi.seat("ABCD")
    html = client.get(f"{multi.url}/live", headers=HTMX).get_data(as_text=True)
    assert re.search(r"<h2>Cubes <small", html)


# --------------------------------------------------------------------------- the pages


def test_the_cube_is_in_the_middle_never_centred(app, client, login_as):
    login_as("organizer")
    with app.app_context():
        ids = play_night(gen_member("organizer"))
    html = client.get(f"/nights/{ids['night']}/ledger").get_data(as_text=True)
    assert "cube 1, in the middle" in html  # Ann2's cube, never turned
    assert "centred" not in html.lower() and "centered" not in html.lower()


def test_money_on_the_players_list_is_in_the_clubs_money_format(tmp_path):
    app = make_app(tmp_path, MONEY_LOCALE="it_IT")
    client = app.test_client()
    with app.app_context():
        organizer = gen_member("organizer")
        play_night(organizer)
        username = organizer.username
    client.post("/auth/login", data={"username": username, "password": PASSWORD})
    listing = client.get("/players/").get_data(as_text=True)
    row = listing[listing.index('href="/players/Gus"'):]
    row = row[:row.index("</tr>")]
    assert re.search(r'<span class="amount pos">\+1,00\xa0€</span>', row), row


def test_roles_are_translated_on_the_account_page(app, client, login_as):
    login_as("organizer", locale="it")
    html = client.get("/account").get_data(as_text=True)
    assert "Organizzatore" in html and "· organizer" not in html


def test_italian_pages_leave_no_english_label(app, client):
    with app.app_context():
        organizer = gen_member("organizer", name="Olga", locale="it")
        ids = play_night(organizer)
        plan = money.night_settle_up(ids["night"])
        money.record_payment(ids["night"], payer=plan.transfers[0].payer, payee=plan.transfers[0].payee,
                                cents=100, method="cash", actor=organizer)
        username = organizer.username
    client.post("/auth/login", data={"username": username, "password": PASSWORD})
    assert "Benvenuto, Olga." in client.get("/").get_data(as_text=True)  # the welcome in their language
    catalog = read_po(PO.open("rb"))
    # Every English label the catalog translates differently (names, numbers, words that are
    # the same in both languages aside).
    english = {m.id for m in catalog if isinstance(m.id, str) and m.string and m.string != m.id
               and "%" not in m.id and "{" not in m.id and len(m.id) > 3}
    night, (first, second) = ids["night"], ids["tables"]
    urls = ["/", f"/nights/{night}", f"/tables/{first}", f"/tables/{second}", f"/tables/{first}/undo",
            f"/nights/{night}/ledger", f"/nights/{night}/settle?scope=all", f"/nights/{night}/settle?leaver=Ann",
            "/players/", "/players/Ann", "/balances", "/account", "/display", "/seasons/", "/nights/new"]
    left = {}
    for url in urls:
        page = client.get(url).get_data(as_text=True)
        page = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", " ", page)
        shown = re.findall(r'(?:title|aria-label|placeholder|hx-confirm|alt)="([^"]*)"', page)
        shown += re.sub(r"(?s)<[^>]+>", "\n", page).split("\n")
        found = sorted({html_text.unescape(text).strip() for text in shown} & english)
        if found:
            left[url] = found
    assert not left, f"English left on Italian pages: {left}"


# --------------------------------------------------------------------------- the score sheet


def test_a_player_who_never_played_a_game_leaves_no_column_on_the_score_sheet(app):
    table = Table(app)
    table.play(*({"type": "join", "player": name} for name in ("A", "B", "C", "Zed")),
               {"type": "leave", "player": "Zed"},
               {"type": "order", "players": ["A", "B", "C"]},
               {"type": "result", "winner": "box", "kind": "single"})
    with app.app_context():
        assert "Zed" in table.state().players
        sheet = exports.table_sheet(tables.get_table(table.id))
        assert sheet.players == ["A", "B", "C"]
        header = exports.score_sheet_csv(table.night_id).splitlines()[0]
    columns = header.split(",")
    assert "Zed" not in columns and columns[columns.index("A"):columns.index("A") + 3] == ["A", "B", "C"]
