"""The house rules changed between games from the table page (issue 14 item 3, docs/rules.md 2.12): the
organizer who runs the table changes them with a form; the change is one settings event of the
log, from the next game on; refused with the reason during a game; undone like any action; the
house-rules card, the score sheet and a replay of the exported log say from which game each
setting applied."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chouette.replay import summarize
from chouette.services import sheet as sheet_service
from chouette.services import table_states
from tests.web.test_play_pages import Table, post, sign_in

#: The form as the page fills it in: the table's rules in force (the defaults).
FORM = {
    "rule-cube_mode": "multi", "rule-stake_cents": "1.00", "rule-automatic_doubles": "0",
    "rule-all_but_one": "forced_drop", "rule-all_but_one_min_players": "5",
    "rule-partner_min_players": "8", "rule-partner_share_percent": "50",
    "rule-box_retention": "beat_captain", "rule-join_position": "immediate",
    "rule-consulting": "free",
}


def form(**changes: Any) -> dict[str, Any]:
    """The form with these fields changed (``jacoby="on"`` ticks a box)."""
    return {**FORM, **{f"rule-{key}": value for key, value in changes.items()}}


@pytest.fixture
def table(app) -> Table:
    played = Table(app)
    played.seat("ABC")
    played.play({"type": "result", "winner": "team", "kind": "single"})
    return played


def test_the_organizer_changes_the_house_rules_between_games(app, client, table):
    sign_in(client, table.owner)
    page = client.get(table.url).get_data(as_text=True)
    assert f'id="table-settings-{table.id}"' in page and "A change applies from game 2 on." in page
    response = post(client, table, "settings", form(stake_cents="2.50", jacoby="on",
                                                      consulting="after_cube"))
    assert response.status_code == 303
    assert table.log()[-1] == {"type": "settings", "settings": {
        "stake_cents": 250, "jacoby": True, "consulting": "after_cube"}}
    state = table.state()
    assert state.settings_for(1).stake_cents == 100 and state.settings_for(2).stake_cents == 250
    card = client.get(table.url).get_data(as_text=True)
    rules = card[card.index(f'id="rules-card-{table.id}"'):]
    assert "€2.50 a point. <small class=\"rule-since\">From game 2.</small>" in rules
    assert ("From game 2</strong>: Stake per point: €2.50 (was €1.00); Jacoby rule: on (was off); "
            "Consulting: Only after a cube is turned (was Free)") in rules
    assert "House rules changed, from the next game: Stake per point: 2.50, Jacoby rule: on" in card


def test_the_change_answers_htmx_with_the_live_table(app, client, table):
    sign_in(client, table.owner)
    response = post(client, table, "settings", form(beavers="on"), htmx=True)
    assert response.status_code == 200 and response.headers["HX-Trigger"] == "table-changed"
    assert response.get_data(as_text=True).lstrip().startswith(f'<section id="table-live-{table.id}"')
    assert table.state().settings.beavers


def test_a_settings_change_is_refused_mid_game_with_the_reason(app, client, table):
    table.play({"type": "double", "by": "box", "cubes": ["C"]})
    sign_in(client, table.owner)
    seq = table.seq()
    response = post(client, table, "settings", form(stake_cents="5"), htmx=True)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "the house rules change between games: finish game 2 first" in html.lower()
    assert "A change is made between games: finish game 2 first." in html
    # What was typed stays in the open form; nothing was written.
    assert f'id="table-settings-{table.id}" class="card live-settings" open' in html
    assert 'value="5"' in html
    assert table.seq() == seq and table.state().settings.stake_cents == 100


@pytest.mark.parametrize(("changes", "reason"), [
    ({}, "Nothing to change: these are the house rules in force."),
    ({"stake_cents": "lots"}, "A stake is an amount like 2.50, not lots."),
    ({"automatic_doubles": "x"}, "Automatic doubles is a whole number, not x."),
    ({"raccoons": "on"}, "Raccoons need beavers."),
    ({"cube_mode": "triple"}, "cube_mode cannot be triple."),
    ({"partner_share_percent": "101"}, "partner_share_percent is a whole number from 0 to 100."),
])
def test_bad_settings_are_refused_with_a_clear_message_and_change_nothing(app, client, table, changes, reason):
    sign_in(client, table.owner)
    seq = table.seq()
    response = post(client, table, "settings", form(**changes), htmx=True)
    assert response.status_code == 422
    assert reason in response.get_data(as_text=True)
    assert table.seq() == seq


def test_undo_of_a_settings_change_gives_back_the_rules_before_it(app, client, table):
    sign_in(client, table.owner)
    post(client, table, "settings", form(stake_cents="3"))
    assert table.state().settings.stake_cents == 300
    assert post(client, table, "undo").status_code == 303
    state = table.state()
    assert state.settings.stake_cents == 100 and state.settings_changes() == []
    card = client.get(table.url).get_data(as_text=True)
    assert "From game 2" not in card and "€1.00 a point." in card


def test_only_the_organizer_who_runs_the_table_changes_its_rules(app, client, table, login_as):
    seq = table.seq()
    assert post(client, table, "settings", form(jacoby="on")).status_code in (302, 303)
    assert "/auth/login" in post(client, table, "settings", form(jacoby="on")).headers["Location"]
    login_as("player")
    assert post(client, table, "settings", form(jacoby="on")).status_code == 403
    client.post("/auth/logout")
    login_as("organizer")  # another night's organizer watches, they do not run this table
    assert post(client, table, "settings", form(jacoby="on")).status_code == 403
    page = client.get(table.url).get_data(as_text=True)
    assert f'id="table-settings-{table.id}"' not in page
    assert table.seq() == seq


def test_replay_of_a_log_with_settings_events_the_card_and_the_sheet(app, client, table):
    sign_in(client, table.owner)
    post(client, table, "settings", form(stake_cents="2", jacoby="on"))
    table.play({"type": "result", "winner": "team", "kind": "gammon"})
    post(client, table, "settings", form(stake_cents="2", jacoby="on", cube_mode="single"))
    table.play({"type": "result", "winner": "box", "kind": "single"})
    log = json.loads(client.get(f"{table.url}/log.json").data)
    assert [e["settings"] for e in log["events"] if e["type"] == "settings"] == [
        {"stake_cents": 200, "jacoby": True}, {"cube_mode": "single"}]
    # The replay of the exported log: game 1 at 1.00 (A -1.00, B and C +1.00), game 2 at 2.00
    # with the Jacoby rule (C and A win a gammon, no cube turned: single, B -4.00), game 3 at
    # 2.00 with a single cube (box C wins: +4.00).
    assert summarize(log)["cents"] == {"A": -200, "B": -500, "C": 700}
    sheet = client.get(f"/nights/{table.night_id}/score-sheet").get_data(as_text=True)
    assert 'data-from-game="2"' in sheet and 'data-from-game="3"' in sheet
    assert "Stake per point: €2.00 (was €1.00); Jacoby rule: on (was off)" in sheet
    assert "Cube: Single cube (was Multi-cube)" in sheet
    card = client.get(table.url).get_data(as_text=True)
    assert "From game 3</strong>: Cube: Single cube (was Multi-cube)" in card
    # The printed card, in English and in Italian.
    printed = client.get(f"{table.url}/rules").get_data(as_text=True)
    assert "From game 2." in printed and "Dalla partita 2." in printed
    with app.app_context():
        state = table_states.load_play(table.id).state
        assert sheet_service.table_games(state)[2].rules_changed == {"cube_mode": ("multi", "single")}


def test_the_house_rules_form_is_remembered_while_the_rules_and_games_stand(app, client, table):
    """The form's fields are drawn once while the rules stand (each page gets its own seq,
    token and the game its sentence names); a change of rules draws them again, with what is
    in force; a game that ends only moves the number in its sentence."""
    import re

    from flask import template_rendered

    drawn: list[str] = []

    def note(sender, template, context, **extra):
        drawn.append(template.name)

    def settings_form() -> str:
        html = client.get(f"{table.url}/live", headers={"HX-Request": "true"}).get_data(as_text=True)
        return html[html.index(f'id="table-settings-{table.id}"'):html.index("</details>", html.index(
            f'id="table-settings-{table.id}"'))]

    from chouette import caches

    caches.clear_all(app)  # each app holds its own caches: this one drew nothing yet
    sign_in(client, table.owner)
    template_rendered.connect(note, app)
    try:
        first = settings_form()
        table.play({"type": "leave", "player": "C"})  # the log moves, the rules and games do not
        second = settings_form()
        assert drawn.count("tables/_settings_grid.html") == 1
        # The same form but for the page's seq and the token (signed with the second it was made).
        def unmarked(html: str) -> str:
            return re.sub(r'name="(seq|csrf_token)" value="[^"]*"', "", html)

        assert unmarked(first) == unmarked(second)
        assert f'name="seq" value="{table.seq()}"' in second
        assert post(client, table, "settings", form(stake_cents="2.50")).status_code == 303
        changed = settings_form()
        assert 'value="2.50"' in changed and 'value="2.50"' not in second
        assert "A change applies from game 2 on." in changed
        table.play({"type": "result", "winner": "box", "kind": "single"})
        assert "A change applies from game 3 on." in settings_form()
    finally:
        template_rendered.disconnect(note, app)
    assert drawn.count("tables/_settings_grid.html") == 2


def test_the_time_limit_of_an_online_table_is_a_house_rule(app, client, table):
    """issue 26: each decision's time limit (off by default) is a house rule changed between
    games, written to the log, printed on the card and counted down on the cube window."""
    sign_in(client, table.owner)
    seq = table.seq()
    for changes, reason in (
        ({"play": "online", "decision_seconds": "soon"},
         "Time limit per decision (seconds) is a whole number, not soon."),
        ({"play": "online", "decision_seconds": "601"}, "decision_seconds is a whole number from 0 to 600."),
        ({"play": "online", "decision_seconds": "30", "unanswered_double": "beaver"},
         "unanswered_double cannot be beaver."),
    ):
        refused = post(client, table, "settings", form(**changes), htmx=True)
        assert refused.status_code == 422 and reason in refused.get_data(as_text=True)
    assert table.seq() == seq
    page = client.get(table.url).get_data(as_text=True)
    club_card = page[page.index(f'id="rules-card-{table.id}"'):]
    assert "No time limit" in club_card and 'data-setting="unanswered_double"' not in club_card
    done = post(client, table, "settings", form(play="online", decision_seconds="45", unanswered_double="take"))
    assert done.status_code == 303
    assert table.log()[-1] == {"type": "settings", "settings": {
        "play": "online", "decision_seconds": 45, "unanswered_double": "take"}}
    card = client.get(table.url).get_data(as_text=True)
    rules = card[card.index(f'id="rules-card-{table.id}"'):]
    assert "45 seconds for each decision, shown as a countdown" in rules
    assert "Taken when its time is up." in rules
    assert ("Where the game is played: Online (was At the club); Time limit per decision (seconds): "
            "45 (was 0); A double unanswered in time is: taken (was dropped)") in rules
    # A form drawn before the clock existed (no such fields) leaves it as it is.
    assert post(client, table, "settings", {**form(play="online"), "rule-stake_cents": "2.00"}).status_code == 303
    assert table.state().settings.decision_seconds == 45
    # Game 2 is timed: the cube window counts its 45 seconds down.
    table.play({"type": "opening_roll", "box": 3, "team": 1}, {"type": "move", "move": "8/5 6/5"})
    shown = client.get(f"{table.url}/window", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Time limit: 45 s per decision (a house rule)." in shown
    assert 'data-remaining="45"' in shown or 'data-remaining="44"' in shown
