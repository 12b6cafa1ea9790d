"""The correction form: no risky default, a cube answer turned around, a refusal said inside
the form (rules 3.2)."""

from __future__ import annotations

import re

from tests.web.test_play_pages import HTMX, Table, post, sign_in


def _form_of(html: str, game: int) -> str:
    start = re.search(rf'<details id="correct-\d+-{game}"', html).start()
    return html[start:html.index("</form>", start)]


def test_the_form_starts_on_no_choice_and_offers_the_games_answers(app, client):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "double", "by": "box", "cubes": ["C", "D"]}, {"type": "drop", "cube": "C"},
               {"type": "take", "cube": "D"}, {"type": "result", "winner": "team", "kind": "single"})
    sign_in(client, table.owner)
    form = _form_of(client.get(f"{table.url}/live", headers=HTMX).get_data(as_text=True), 1)
    options = re.findall(r'<option value="([^"]*)"', form)
    assert options[0] == "" and options[-1] == "void"
    assert "answer:1:take:C" in options and "answer:1:drop:D" in options
    assert " selected" not in form
    assert "C dropped C&#39;s cube at 2: a take instead" in form


def test_a_drop_turned_into_a_take_refolds_the_money(app, client):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "double", "by": "box", "cubes": ["C"]}, {"type": "drop", "cube": "C"},
               {"type": "result", "winner": "team", "kind": "single"})
    sign_in(client, table.owner)
    response = post(client, table, "correct",
                    {"game": "1", "fix": "answer:1:take:C", "reason": "C took"}, htmx=True)
    assert response.status_code == 200
    assert table.log()[-1] == {"type": "correct", "game": 1, "reason": "C took",
                               "answer": {"cube": "C", "value": 1, "now": "take"}}
    from tests.table.helpers import points

    assert points(table.state()) == {"A": -4, "B": 1, "C": 2, "D": 1}


def test_a_refused_correction_says_why_inside_its_form_and_writes_nothing(app, client):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "double", "by": "box", "cubes": ["C"]}, {"type": "take", "cube": "C"},
               {"type": "double", "by": "C"}, {"type": "take", "cube": "C"},
               {"type": "result", "winner": "team", "kind": "single"})
    sign_in(client, table.owner)
    before = table.log()
    response = post(client, table, "correct",
                    {"game": "1", "fix": "answer:1:drop:C", "reason": "misread"}, htmx=True)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    form = _form_of(html, 1)
    assert 'class="form-error" role="alert"' in form and "would be refused" in form
    assert "live-error" not in html  # not at the top of the page
    assert '<option value="answer:1:drop:C" selected>' in form
    assert table.log() == before


def test_no_choice_is_refused(app, client):
    table = Table(app)
    table.seat("ABCD")
    table.play({"type": "result", "winner": "team", "kind": "single"})
    sign_in(client, table.owner)
    before = table.log()
    response = post(client, table, "correct", {"game": "1", "fix": "", "reason": "x"}, htmx=True)
    assert response.status_code == 422 and "Choose what to correct." in response.get_data(as_text=True)
    assert table.log() == before
