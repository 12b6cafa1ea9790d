"""The house-rules card and the stakes say what is in force (issue 25 item 9): with extra
cubes on, the card does not print the all-but-one forced drop as if it stood alone (the extras
replace it on the box's first double, docs/rules.md 2.7); a single-cube table has no "same value, same
action" line (a multi-cube rule); after a stake change between games the night page and the
score sheet's header show the stake in force now, and the sheet says which games were played
at the old one."""

from __future__ import annotations

import html
import re

from tests.web.test_play_pages import Table, post, sign_in
from tests.web.test_settings_between_games import form

FORCED = "When all members but one drop the box's double, the one who took must drop too."


def _card(client, table: Table) -> str:
    page = html.unescape(client.get(f"{table.url}/rules").get_data(as_text=True))
    return page[page.index(f'id="rules-card-{table.id}'):]


def _rule(card: str, key: str) -> str | None:
    """The sentence of one setting on the card (the first, English one), None if it is not there."""
    found = re.search(rf'data-setting="{key}"><dt>[^<]*</dt><dd>([^<]*)', card)
    return found.group(1).strip() if found else None


def _head(sheet: str) -> str:
    """The first table's header on the score sheet."""
    start = sheet.index('class="sheet-head"')
    return sheet[start:sheet.index("</header>", start)]


def test_with_extras_on_the_card_says_the_extras_replace_the_forced_drop(app, client):
    table = Table(app, {"extras": True})
    sign_in(client, table.owner)
    card = _card(client, table)
    assert FORCED not in card
    assert _rule(card, "all_but_one") == (
        "Replaced by the extra cubes on the box's first double; on a later double, when all "
        "members but one drop, the one who took must drop too.")
    assert "Sostituita dai cubi extra al primo raddoppio del box" in card  # the Italian card


def test_with_extras_off_the_card_keeps_the_forced_drop(app, client):
    table = Table(app)
    sign_in(client, table.owner)
    assert _rule(_card(client, table), "all_but_one") == FORCED


def test_a_single_cube_card_has_no_same_value_same_action(app, client):
    single = Table(app, {"cube_mode": "single"})
    multi = Table(app)
    sign_in(client, single.owner)
    card = _card(client, single)
    assert "Single cube: one cube between the box and the team" in card
    assert 'data-setting="same_value_same_action"' not in card
    assert "Same value, same action" not in card and "same value" not in card.lower()
    assert _rule(_card(client, multi), "same_value_same_action") == (
        "Off: the box answers each cube on its own.")


def test_a_change_to_a_single_cube_between_games_takes_the_line_off_the_card(app, client):
    table = Table(app)
    table.seat("ABC")
    table.play({"type": "result", "winner": "team", "kind": "single"})
    sign_in(client, table.owner)
    assert 'data-setting="same_value_same_action"' in _card(client, table)
    post(client, table, "settings", form(cube_mode="single"))
    assert 'data-setting="same_value_same_action"' not in _card(client, table)


def test_after_a_stake_change_the_night_page_and_the_sheet_show_the_new_stake(app, client):
    table = Table(app)
    table.seat("ABC")
    table.play({"type": "result", "winner": "team", "kind": "single"},
               {"type": "result", "winner": "box", "kind": "single"})
    sign_in(client, table.owner)
    night = client.get(f"/nights/{table.night_id}").get_data(as_text=True)
    assert '<span class="table-stake" data-stake="100">€1.00 a point</span>' in night
    sheet = client.get(f"/nights/{table.night_id}/score-sheet").get_data(as_text=True)
    assert '<span class="sheet-stake" data-stake="100">€1.00 a point</span>' in sheet

    assert post(client, table, "settings", form(stake_cents="2.50")).status_code == 303
    night = client.get(f"/nights/{table.night_id}").get_data(as_text=True)
    assert '<span class="table-stake" data-stake="250">€2.50 a point</span>' in night
    assert "€1.00" not in night
    sheet = client.get(f"/nights/{table.night_id}/score-sheet").get_data(as_text=True)
    head = _head(sheet)
    assert '<span class="sheet-stake" data-stake="250">€2.50 a point from game 3</span>' in head
    assert '<span class="sheet-stakes-before">(€1.00 in games 1–2)</span>' in head

    # Game 3 played at 2.50, then back to 1.00 from game 4: each period on the header.
    table.play({"type": "result", "winner": "team", "kind": "single"})
    post(client, table, "settings", form(stake_cents="1.00"))
    sheet = client.get(f"/nights/{table.night_id}/score-sheet").get_data(as_text=True)
    head = _head(sheet)
    assert '<span class="sheet-stake" data-stake="100">€1.00 a point from game 4</span>' in head
    assert ('<span class="sheet-stakes-before">(€1.00 in games 1–2; €2.50 in game 3)</span>'
            in head)
    night = client.get(f"/nights/{table.night_id}").get_data(as_text=True)
    assert '<span class="table-stake" data-stake="100">€1.00 a point</span>' in night


def test_the_sheet_header_in_italian(app, client):
    table = Table(app, locale="it")
    table.seat("ABC")
    table.play({"type": "result", "winner": "team", "kind": "single"})
    sign_in(client, table.owner)
    post(client, table, "settings", form(stake_cents="2.00"))
    sheet = client.get(f"/nights/{table.night_id}/score-sheet").get_data(as_text=True)
    head = _head(sheet)
    assert "a punto dalla partita 2" in head and "nella partita 1" in head
