"""The cube window's card and routes at an online table (``chouette.web.cube_window``): each
player's buttons, the roll refused while the window is open, the countdown's "time up",
the time limit (a house rule), the box's one-screen answer, and bad input refused with nothing changed.
"""

from __future__ import annotations

from flask import Flask

from chouette.extensions import db
from chouette.models import TurnWindow
from tests.web.test_cube_window_rules import ONLINE, backdate, board_game
from tests.web.test_phone_decisions import Phones
from tests.web.test_play_pages import HTMX, post, sign_in


def card(phones: Phones, name: str) -> str:
    response = phones.phone(name).get(f"{phones.table.url}/window", headers=HTMX)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def runner(phones: Phones):
    client = phones.app.test_client()
    sign_in(client, phones.table.owner)
    return client


def row(app: Flask, table_id: int) -> TurnWindow | None:
    with app.app_context():
        found = db.session.get(TurnWindow, table_id)
        if found is not None:
            db.session.expunge(found)
        return found


def test_the_table_page_shows_the_window_only_online(app: Flask) -> None:
    club = Phones(app, "ABCD")
    board_game(club)
    assert 'class="card cube-window"' not in club.phone("B").get(club.table.url).get_data(as_text=True)
    assert club.phone("B").get(f"{club.table.url}/window").status_code == 404
    online = Phones(app, "EFGH", **ONLINE)
    board_game(online)
    page = online.phone("F").get(online.table.url).get_data(as_text=True)
    assert 'class="card cube-window"' in page and "Double or roll" in page


def test_the_captain_is_asked_and_the_crew_is_on_auto_roll(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    captain = card(phones, "B")
    # The captain rolls with the board's Roll button (play.roll), not a second one on the card.
    assert ">Double</button>" in captain and ">Roll</button>" not in captain
    assert "Your auto-roll is off" in captain
    crew = card(phones, "C")
    assert ">Double</button>" not in crew and "Hold the roll" in crew
    assert "Your auto-roll is on" in crew
    assert "Waiting for: B." in crew


def test_the_roll_waits_for_the_window_then_rolls(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    assert phones.post("C", "window/hold", {}, htmx=True).status_code == 200
    seq = phones.table.seq()
    # The organizer's roll (and anyone's) is refused while the window is open.
    refused = post(runner(phones), phones.table, "roll", {}, htmx=True)
    assert refused.status_code == 422
    assert "The cube window is open: the roll waits for B, C to say double or roll." in refused.get_data(as_text=True)
    answered = phones.post("B", "window/roll", {}, htmx=True)
    assert answered.status_code == 200
    assert "Your roll waits for C to say double or roll." in answered.get_data(as_text=True)
    assert phones.table.seq() == seq
    closing = phones.post("C", "window/roll", {}, htmx=True)
    assert closing.status_code == 200 and closing.headers.get("HX-Trigger") == "table-changed"
    assert phones.table.seq() == seq + 1 and phones.table.log()[-1]["type"] == "roll"


def test_a_player_answers_nobody_elses_window(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    seq = phones.table.seq()
    assert phones.post("C", "window/roll", {"player": "B"}).status_code == 403
    refused = phones.post("A", "window/roll", {}, htmx=True)
    assert refused.status_code == 422 and "A is not asked to roll or double now." in refused.get_data(as_text=True)
    stored = row(app, phones.table.id)
    assert phones.table.seq() == seq and (stored is None or stored.answers == {})


def test_auto_roll_is_each_players_choice(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    bad = phones.post("C", "window/auto", {"auto": "maybe"}, htmx=True)
    assert bad.status_code == 422 and "Auto-roll is on or off." in bad.get_data(as_text=True)
    assert phones.post("C", "window/auto", {"auto": "off"}, htmx=True).status_code == 200
    assert row(app, phones.table.id).auto_roll == {"C": False}  # type: ignore[union-attr]
    assert "Waiting for: B, C." in card(phones, "D")


def test_the_house_rules_time_limit_counts_down_and_rolls(app: Flask) -> None:
    phones = Phones(app, "ABCD", decision_seconds=30, **ONLINE)
    board_game(phones)
    assert "Time limit: 30 s per decision (a house rule)." in runner(phones).get(
        f"{phones.table.url}/window", headers=HTMX).get_data(as_text=True)
    shown = card(phones, "B")
    assert 'data-remaining="30"' in shown or 'data-remaining="29"' in shown
    seq = phones.table.seq()
    # Too early: the countdown's post changes nothing.
    assert phones.post("C", "window/time-up", {}, htmx=True).status_code == 200
    assert phones.table.seq() == seq
    backdate(app, phones, 31)
    assert phones.post("C", "window/time-up", {}, htmx=True).status_code == 200
    assert phones.table.seq() == seq + 1 and phones.table.log()[-1]["type"] == "roll"


def test_a_late_answer_finds_the_tables_rule_applied(app: Flask) -> None:
    phones = Phones(app, "ABCD", decision_seconds=20, **ONLINE)
    board_game(phones, box_first=False)
    phones.table.play({"type": "double", "by": "box", "cubes": ["B", "C"]})
    backdate(app, phones, 21)
    # C takes too late: the command first applies the rule (both unanswered cubes dropped).
    late = phones.post("C", "answer", {"answer": "take", "cube": "C"}, htmx=True)
    assert late.status_code in (409, 422)
    assert phones.table.log()[-2:] == [{"type": "drop", "cube": "B"}, {"type": "drop", "cube": "C"}]


def test_the_box_answers_all_waiting_cubes_in_one_screen(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    phones.table.play({"type": "double", "by": "C"}, {"type": "double", "by": "D"})
    shown = card(phones, "A")
    assert "The box answers every cube" in shown and 'name="answer-C"' in shown and 'name="answer-D"' in shown
    seq = phones.table.seq()
    missing = phones.post("A", "answer-all", {"answer-C": "take"}, htmx=True)
    assert missing.status_code == 422 and "Choose an answer for every cube: D." in missing.get_data(as_text=True)
    assert phones.table.seq() == seq
    assert phones.post("B", "answer-all", {"answer-C": "take", "answer-D": "drop"}).status_code == 403
    done = phones.post("A", "answer-all", {"answer-C": "take", "answer-D": "drop"})
    assert done.status_code == 303
    assert phones.table.log()[-2:] == [{"type": "take", "cube": "C"}, {"type": "drop", "cube": "D"}]


def test_the_box_chooses_the_cubes_to_double_or_rolls(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones, box_first=False)
    shown = card(phones, "A")
    assert "The box's turn: before the box rolls." in shown
    for name in "BCD":
        assert f'name="cubes" value="{name}"' in shown
    assert "Waiting for: A." in card(phones, "C")
    done = phones.post("A", "double", {"by": "box", "cubes": ["B", "D"]})
    assert done.status_code == 303
    assert phones.table.log()[-1] == {"type": "double", "by": "box", "cubes": ["B", "D"]}
    assert "Take or drop" in card(phones, "B")


def test_an_overdue_move_alerts_the_runner_and_is_never_made(app: Flask) -> None:
    phones = Phones(app, "ABCD", decision_seconds=20, **ONLINE)
    board_game(phones)
    phones.table.play({"type": "roll", "dice": [6, 5]})
    organizer = runner(phones)
    backdate(app, phones, 21)
    seq = phones.table.seq()
    assert phones.post("C", "window/time-up", {}, htmx=True).status_code == 200
    shown = organizer.get(f"{phones.table.url}/window", headers=HTMX).get_data(as_text=True)
    assert "Time is up for this move. A move is never made for a player" in shown
    assert phones.table.seq() == seq


def test_the_window_speaks_italian(app: Flask) -> None:
    phones = Phones(app, "ABCD", **ONLINE)
    board_game(phones)
    with app.app_context():
        from chouette.models import Member

        owner = db.session.get(Member, phones.table.owner.id)
        assert owner is not None
        owner.locale = "it"
        db.session.commit()
    organizer = runner(phones)
    shown = organizer.get(f"{phones.table.url}/window", headers=HTMX).get_data(as_text=True)
    assert "Raddoppia o tira" in shown and "Turno della squadra: prima che il capitano tiri." in shown
    assert "Si aspetta: B." in shown and "Limite di tempo: nessuno (una regola della casa)." in shown
    refused = post(organizer, phones.table, "roll", {}, htmx=True)
    assert "La finestra del cubo è aperta: il tiro aspetta che B dica raddoppia o tira." in refused.get_data(as_text=True)


def test_the_tables_version_moves_with_the_windows_answers(app: Flask) -> None:
    """The card rides the table's push stream: a "roll" or a hold is no event of the log, and
    the table's version (what the stream says) moves with it all the same; the card carries
    the version it shows, the live table the same version without the window's part."""
    from chouette import push

    def version(table_id: int) -> str:
        with app.app_context():
            return push.table_version(table_id)

    club = Phones(app, "ABCD")
    board_game(club)
    assert "~" not in version(club.table.id)
    phones = Phones(app, "EFGH", **ONLINE)
    board_game(phones)
    seq = phones.table.seq()
    before = version(phones.table.id)
    assert phones.post("G", "window/hold", {}, htmx=True).status_code == 200
    held = version(phones.table.id)
    assert held != before and held.startswith(f"{seq}-1~")
    assert f'data-version="{held}"' in card(phones, "F")
    assert phones.post("G", "window/roll", {}, htmx=True).status_code == 200
    assert version(phones.table.id) not in (before, held) and phones.table.seq() == seq
    live = phones.live("F")
    assert f'data-version="{seq}-1"' in live
