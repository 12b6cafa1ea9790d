"""Each answer stands on its own (docs/rules.md 2.5): members answering the same double from pages
drawn at the same seq are all taken, on a real SQLite database through the app's pages and
through racing threads; a decision whose cube was answered already, or whose game ended, is
refused with the rules' reason in the table as it is now; the runner's dice and moves, which
depend on the exact table, are refused from a stale page as before (409)."""

from __future__ import annotations

import pytest
from flask import Flask

from chouette import caches
from chouette.engine import legal_moves
from chouette.extensions import db
from chouette.models import Member
from chouette.services import base, commands, table_states
from chouette.table import TableError
from tests.concurrency import at_once
from tests.factories import gen_member
from tests.web.test_play_pages import HTMX, Table, post, sign_in

TEAM = "BCDE"


@pytest.fixture
def table(app) -> Table:
    table = Table(app, settings={"extras": True, "beavers": True, "partner_min_players": 9})
    table.seat("A" + TEAM)  # A the box, B the captain, then C, D, E
    return table


def _phones(app: Flask, names: str) -> dict[str, object]:
    """A signed-in test client for each of these seated members (their own account)."""
    phones = {}
    for name in names:
        with app.app_context():
            member = gen_member("player", name=name)
        phone = app.test_client()
        sign_in(phone, member)
        phones[name] = phone
    return phones


def test_four_members_answering_the_same_double_from_the_same_page_are_all_taken(app, table):
    table.play({"type": "double", "by": "box", "cubes": list(TEAM)})
    seq = table.seq()  # every phone's page was drawn here
    phones = _phones(app, TEAM)
    answers = {"B": "take", "C": "drop", "D": "beaver", "E": "take"}
    for name, answer in answers.items():
        response = post(phones[name], table, "answer", {"answer": answer, "cube": name}, htmx=True, seq=seq)
        assert response.status_code == 200, response.get_data(as_text=True)
        html = response.get_data(as_text=True)
        assert "The table changed while you were deciding" not in html
        assert f'data-seq="{table.seq()}"' in html  # the answer brings the table as it is now
    assert table.log()[-4:] == [{"type": answer, "cube": name} for name, answer in answers.items()]
    game = table.state().game
    assert {name: game.cubes[name].status for name in TEAM} == {
        "B": "live", "C": "dropped", "D": "live", "E": "live"}
    assert game.cubes["D"].to_answer == "box"  # the beaver waits for the box


def test_an_answer_from_an_older_page_is_taken_in_a_process_that_never_held_that_page(app, table):
    """A cold process (another worker, a restart) reads the state the page was drawn from
    off the log to compare what the answer decides; a warm one holds it."""
    table.play({"type": "double", "by": "box", "cubes": list(TEAM)})
    seq = table.seq()
    phones = _phones(app, "CD")
    with app.app_context():
        played = table_states.load_play(table.id)
        kept = caches.cache(table_states.TABLE_STATES).get((table.id, played.generation, played.matched))
        held = next((state for at, state in kept if at == seq), None)
        db.session.commit()
    assert held is not None and held.game.box_double.cubes == list(TEAM)
    table.play({"type": "take", "cube": "B"})
    caches.clear_all(app)
    assert post(phones["C"], table, "answer", {"answer": "drop", "cube": "C"}, htmx=True, seq=seq).status_code == 200
    assert post(phones["D"], table, "answer", {"answer": "take", "cube": "D"}, htmx=True, seq=seq).status_code == 200
    assert table.log()[-3:] == [{"type": "take", "cube": "B"}, {"type": "drop", "cube": "C"},
                                {"type": "take", "cube": "D"}]


def test_members_answering_at_the_same_moment_race_and_all_are_taken(app, table):
    """Four threads, released together, each with its own session: each answer read the table
    at the same seq, and those overtaken between their read and their write judge it again."""
    table.play({"type": "double", "by": "box", "cubes": list(TEAM)})
    seq = table.seq()
    with app.app_context():
        ids = {name: gen_member("player", name=name).id for name in TEAM}
        db.session.commit()
    answers = ("take", "drop", "take", "drop")
    results = at_once(app, 4, lambda n: commands.play(
        table.id, seq, {"type": answers[n], "cube": TEAM[n]}, db.session.get(Member, ids[TEAM[n]])),
        refused=(base.TableChanged, TableError))
    assert results == ["ok"] * 4
    assert table.seq() == seq + 4
    assert sorted(e["cube"] for e in table.log()[-4:]) == list(TEAM)
    game = table.state().game
    assert {name: game.cubes[name].status for name in TEAM} == {
        "B": "live", "C": "dropped", "D": "live", "E": "dropped"}


def test_an_answer_overtaken_between_its_read_and_its_write_is_judged_again_and_taken(app, table):
    """Read at seq N; another member's answer is written meanwhile; the write at N + 1 is
    refused by the log's key, and the answer, judged again on the table now, is taken."""
    table.play({"type": "double", "by": "box", "cubes": list(TEAM)})
    seq = table.seq()
    with app.app_context():
        ids = {name: gen_member("player", name=name).id for name in "CD"}
        db.session.commit()
        read = table_states.load_play(table.id)  # the table as the command read it
        commands.play(table.id, seq, {"type": "drop", "cube": "D"}, db.session.get(Member, ids["D"]))
        db.session.commit()
        played = commands.play(table.id, seq, {"type": "take", "cube": "C"},
                               db.session.get(Member, ids["C"]), loaded=read)
        db.session.commit()
        assert played.seq == seq + 2
    assert table.log()[-2:] == [{"type": "drop", "cube": "D"}, {"type": "take", "cube": "C"}]


def test_two_taps_on_one_answer_at_the_same_moment_take_the_first_and_refuse_the_other(app, table):
    table.play({"type": "double", "by": "box", "cubes": list(TEAM)})
    seq = table.seq()
    with app.app_context():
        cy = gen_member("player", name="C").id
        db.session.commit()
    answers = ("take", "drop")
    results = at_once(app, 2, lambda n: commands.play(
        table.id, seq, {"type": answers[n], "cube": "C"}, db.session.get(Member, cy)),
        refused=(TableError,))
    assert sorted(results) == ["ok", "refused"]
    assert table.seq() == seq + 1


def test_an_answer_to_a_cube_answered_already_is_refused_with_the_reason(app, table):
    table.play({"type": "double", "by": "box", "cubes": list(TEAM)})
    seq = table.seq()
    cy = _phones(app, "C")["C"]
    assert post(cy, table, "answer", {"answer": "take", "cube": "C"}, htmx=True, seq=seq).status_code == 200
    before = table.log()
    # A second tap from the same old page (or another device of theirs): the cube was answered.
    again = post(cy, table, "answer", {"answer": "drop", "cube": "C"}, htmx=True, seq=seq)
    assert again.status_code == 422
    html = again.get_data(as_text=True)
    assert "C&#39;s cube has already been answered" in html
    assert "The table changed while you were deciding" not in html
    assert f'data-seq="{seq + 1}"' in html  # shown on the table as it is now
    assert table.log() == before
    # The same in Italian, the member's language.
    italian = cy.post(f"{table.url}/answer", data={"seq": str(seq), "answer": "drop", "cube": "C"},
                      headers={**HTMX, "Accept-Language": "it"})
    assert italian.status_code == 422 and "già" in italian.get_data(as_text=True)
    assert table.log() == before
    # Once every member answered (the box's double is settled), a cube taken or dropped says
    # so too, not that it was never doubled.
    table.play({"type": "drop", "cube": "B"}, {"type": "take", "cube": "D"}, {"type": "take", "cube": "E"})
    for answer in ("drop", "take"):
        late = post(cy, table, "answer", {"answer": answer, "cube": "C"}, htmx=True, seq=seq)
        assert late.status_code == 422
        assert "C&#39;s cube has already been answered" in late.get_data(as_text=True)
    bob = _phones(app, "B")["B"]
    late = post(bob, table, "answer", {"answer": "take", "cube": "B"}, htmx=True, seq=seq)
    assert late.status_code == 422
    assert "B&#39;s cube has already been answered" in late.get_data(as_text=True)


def test_an_answer_after_the_game_ended_is_refused_with_the_reason(app, table):
    table.play({"type": "double", "by": "box", "cubes": list(TEAM)})
    seq = table.seq()
    eve = _phones(app, "E")["E"]
    # The organizer records every drop from the sheet: no cube is live, the game is over.
    table.play(*[{"type": "drop", "cube": name} for name in TEAM])
    assert table.state().game is None
    before = table.log()
    late = post(eve, table, "answer", {"answer": "take", "cube": "E"}, htmx=True, seq=seq)
    assert late.status_code == 422
    html = late.get_data(as_text=True)
    assert "there is no double to take" in html
    assert f'data-seq="{seq + 4}"' in html
    assert table.log() == before


def test_an_answer_to_a_later_double_of_the_same_cube_is_not_taken_from_an_old_page(app, table):
    """The rules would take it, but it answers another double than the one the page showed."""
    table.play({"type": "double", "by": "box", "cubes": ["C"]})
    seq = table.seq()
    cy = _phones(app, "C")["C"]
    table.play({"type": "take", "cube": "C"}, {"type": "double", "by": "C"}, {"type": "take", "cube": "C"},
               {"type": "double", "by": "box", "cubes": ["C"]})
    before = table.log()
    stale = post(cy, table, "answer", {"answer": "take", "cube": "C"}, htmx=True, seq=seq)
    assert stale.status_code == 409
    assert "The table changed while you were deciding" in stale.get_data(as_text=True)
    assert table.log() == before


def test_members_doubles_and_extras_from_the_same_page_are_all_taken(app, table):
    seq = table.seq()
    phones = _phones(app, TEAM)
    for name in "CD":
        assert post(phones[name], table, "double", {"by": name}, htmx=True, seq=seq).status_code == 200
    assert table.state().game.member_doubles == ["C", "D"]
    # The box drops both; then doubles everyone, and E alone takes: B, C and D may give extras.
    table.play({"type": "drop", "cube": "C"}, {"type": "drop", "cube": "D"}, {"type": "result",
               "winner": "box", "kind": "single"})
    table.play({"type": "double", "by": "box", "cubes": list(TEAM)},
               *[{"type": "drop", "cube": name} for name in "BCD"], {"type": "take", "cube": "E"})
    seq = table.seq()
    for name in "BCD":
        response = post(phones[name], table, "extra", {"giver": name, "taker": "E"}, htmx=True, seq=seq)
        assert response.status_code == 200
    assert [(e.giver, e.taker) for e in table.state().game.extras] == [("B", "E"), ("C", "E"), ("D", "E")]


def test_a_partnership_answer_stands_after_a_join(app):
    table = Table(app, settings={"partner_min_players": 3})
    table.seat("ABCD")
    seq = table.seq()
    bob = _phones(app, "B")["B"]
    table.play({"type": "join", "player": "E"})  # someone sits down meanwhile
    response = post(bob, table, "partner", {"answer": "accept", "player": "B"}, htmx=True, seq=seq)
    assert response.status_code == 200
    assert table.state().partner == "B"


def test_the_runners_dice_and_moves_from_a_stale_page_are_refused_as_before(app, client, table):
    sign_in(client, table.owner)
    seq = table.seq()
    assert post(client, table, "roll", {"how": "dice", "die1": "5", "die2": "2"}, seq=seq).status_code == 303
    game = table.state().game
    move = legal_moves(game.position, game.dice)[0]
    assert post(client, table, "move", {"move": str(move)}, seq=seq + 1).status_code == 303
    before = table.log()
    for action, form, at in (("roll", {"how": "dice", "die1": "3", "die2": "1"}, seq + 1),
                             ("move", {"move": str(move)}, seq + 1),
                             ("roll", {"how": "dice", "die1": "6", "die2": "6"}, seq)):
        stale = post(client, table, action, form, htmx=True, seq=at)
        assert stale.status_code == 409, action
        assert "The table changed while you were deciding" in stale.get_data(as_text=True)
    assert table.log() == before
    # A box's double names the cubes as the page showed them: made on that exact table too.
    assert post(client, table, "double", {"by": "box", "cubes": ["C"]}, htmx=True,
                seq=seq).status_code == 409
    assert table.log() == before
