"""Match tables on the web: opening one, playing it from the organizer's tablet and the
players' phones, its refusals, its ledger, the big screen and the players' pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from chouette.engine import apply_move, legal_moves
from chouette.engine.matchid import MatchState
from chouette.extensions import db
from chouette.models import ChouetteTable, LedgerEntry, Member
from chouette.services import exports, table_states, tables
from chouette.table.match_rules import match_of
from tests.factories import gen_member, gen_night
from tests.web.test_play_pages import HTMX, sign_in


class MatchNight:
    """A night run by Olga where Ann (a member) and Bob (a member) play a match."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        with app.app_context():
            self.olga = gen_member("organizer", name="Olga")
            self.ann = gen_member("player", name="Ann")
            self.bob = gen_member("player", name="Bob")
            self.cy = gen_member("player", name="Cy")
            self.night_id = gen_night(opened_by_id=self.olga.id).id
        self.clients: dict[str, Any] = {}
        self.table_id = 0

    def client(self, who: str):
        if who not in self.clients:
            client = self.app.test_client()
            sign_in(client, getattr(self, who))
            self.clients[who] = client
        return self.clients[who]

    def open(self, **form: Any):
        data = {"name": "Final", "first": "Ann", "second": "Bob", "match_length": "3",
                "match_stake": "none", **form}
        response = self.client("olga").post(f"/nights/{self.night_id}/matches/new", data=data)
        if response.status_code == 303:
            self.table_id = int(re.search(r"/tables/(\d+)", response.headers["Location"]).group(1))
        return response

    @property
    def url(self) -> str:
        return f"/tables/{self.table_id}"

    def seq(self) -> int:
        with self.app.app_context():
            return tables.last_seq(self.table_id)

    def state(self):
        with self.app.app_context():
            return table_states.load_play(self.table_id).state

    def post(self, who: str, action: str, data: dict[str, Any], *, htmx: bool = False):
        form = {"seq": str(self.seq()), **data}
        return self.client(who).post(f"{self.url}/{action}", data=form,
                                     headers=HTMX if htmx else {})

    def play_turn(self, who: str, dice: tuple[int, int]) -> None:
        """``who`` enters their dice and the fastest legal play."""
        assert self.post(who, "roll", {"how": "dice", "die1": dice[0], "die2": dice[1]}).status_code == 303
        game = self.state().game
        if game is not None and game.dice is not None:
            self.move(who)

    def move(self, who: str) -> None:
        game = self.state().game
        plays = legal_moves(game.position, game.dice)
        best = min(plays, key=lambda m: (apply_move(game.position, m).pips()[0], str(m)))
        assert self.post(who, "move", {"move": str(best)}).status_code == 303


@pytest.fixture
def night(app) -> MatchNight:
    return MatchNight(app)


def test_an_organizer_opens_a_match_with_two_players_seated(night):
    page = night.client("olga").get(f"/nights/{night.night_id}/matches/new")
    assert page.status_code == 200 and "Holland rule" in page.get_data(as_text=True)
    assert night.open(holland="y").status_code == 303
    state = night.state()
    assert (state.box, state.captain, state.settings.match_length, state.settings.holland) == (
        "Ann", "Bob", 3, True)
    html = night.client("olga").get(night.url).get_data(as_text=True)
    assert f'id="table-match-{night.table_id}"' in html and "Match to 3" in html
    match_id = re.search(r'Match ID <input[^>]*value="([^"]+)"', html).group(1)
    assert MatchState.from_id(match_id).length == 3
    assert 'data-setting="holland"' in html  # the rules card says the match's rules


@pytest.mark.parametrize(("form", "reason"), [
    ({"match_length": "4"}, "a match is to an odd number of points, not 4"),
    ({"second": "Ann"}, "Ann is already at the table"),
    ({"match_stake": "point"}, "A match played for money needs a stake."),
])
def test_a_match_that_cannot_be_is_refused_with_the_reason_and_nothing_is_written(app, night, form, reason):
    response = night.open(**form)
    assert response.status_code == 422
    assert reason in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count(ChouetteTable.id))) == 0


def test_only_an_organizer_opens_a_match(app, night, client):
    assert client.get(f"/nights/{night.night_id}/matches/new").status_code == 302
    assert night.client("ann").post(f"/nights/{night.night_id}/matches/new",
                                    data={"first": "Ann", "second": "Bob"}).status_code == 403


def test_the_players_roll_move_double_and_answer_from_their_phones(app, night):
    night.open()
    # Either player rolls the opening; Ann wins it and plays.
    assert night.post("bob", "roll", {"how": "dice", "die1": "5", "die2": "2"}).status_code == 303
    assert night.state().game.on_roll == "box"
    night.move("ann")
    # Bob's turn: Ann may not roll for Bob, nor move; Cy, not at the table, may not.
    before = night.seq()
    assert night.post("ann", "roll", {"how": "server"}).status_code == 403
    assert night.post("cy", "roll", {"how": "server"}).status_code == 403
    assert night.seq() == before
    # Bob doubles from their phone; Ann's phone shows the decision and she takes.
    assert night.post("bob", "double", {"by": "Bob"}).status_code == 303
    live = night.client("ann").get(f"{night.url}/live", headers=HTMX).get_data(as_text=True)
    assert "Bob doubles you to 2." in live and "The cube" in live
    assert night.post("bob", "answer", {"cube": "team", "answer": "take"}).status_code == 403
    assert night.post("ann", "answer", {"cube": "team", "answer": "take"}).status_code == 303
    night.play_turn("bob", (6, 5))
    # Ann redoubles, Bob drops: Ann wins 2 of the 3 points.
    assert night.post("ann", "double", {"by": "box"}).status_code == 303
    assert night.post("bob", "answer", {"cube": "Bob", "answer": "drop"}).status_code == 303
    assert match_of(night.state()).scores == (2, 0)
    html = night.client("bob").get(night.url).get_data(as_text=True)
    assert "Crawford game: no double" in html


def test_a_double_in_the_crawford_game_is_refused_with_the_reason(night):
    night.open()
    night.play_turn("olga", (5, 2))  # the opening: Ann moves first
    night.post("bob", "double", {"by": "Bob"})
    night.post("ann", "answer", {"cube": "team", "answer": "take"})
    night.play_turn("bob", (6, 5))
    night.post("ann", "double", {"by": "box"})
    night.post("bob", "answer", {"cube": "Bob", "answer": "drop"})
    assert match_of(night.state()).scores == (2, 0) and match_of(night.state()).crawford_game
    night.play_turn("olga", (2, 5))  # Bob opens the Crawford game: then Ann is on roll
    before = night.seq()
    for htmx in (False, True):
        response = night.post("ann", "double", {"by": "box"}, htmx=htmx)
        assert response.status_code == 422
        assert "nobody may double in the Crawford game" in response.get_data(as_text=True)
    assert night.seq() == before
    live = night.client("ann").get(f"{night.url}/live", headers=HTMX).get_data(as_text=True)
    assert ">Ann doubles</button>" not in live  # no button for it either


def test_a_stake_per_match_is_booked_in_the_ledger_with_the_winning_game(app, night):
    night.open(match_length="1", match_stake="match", stake_cents="20")
    night.play_turn("olga", (5, 2))
    assert night.post("olga", "double", {"by": "Bob"}).status_code == 303
    assert night.post("olga", "answer", {"cube": "team", "answer": "drop"}).status_code == 303
    with app.app_context():
        rows = {(e.player, e.points, e.cents) for e in db.session.scalars(select(LedgerEntry))}
    assert rows == {("Ann", -1, -2000), ("Bob", 1, 2000)}
    # Undone: the reversal is booked, the ledger is back to nothing.
    assert night.post("olga", "undo", {}).status_code == 303
    with app.app_context():
        totals = db.session.execute(select(LedgerEntry.player, func.sum(LedgerEntry.cents))
                                    .group_by(LedgerEntry.player)).all()
    assert dict(totals) == {"Ann": 0, "Bob": 0}


def test_a_match_without_a_stake_writes_no_ledger_rows(app, night):
    night.open(match_length="1")
    night.play_turn("olga", (5, 2))
    night.post("olga", "double", {"by": "Bob"})
    night.post("olga", "answer", {"cube": "team", "answer": "drop"})
    assert match_of(night.state()).is_over
    with app.app_context():
        assert db.session.scalar(select(func.count(LedgerEntry.id))) == 0
    html = night.client("ann").get(night.url).get_data(as_text=True)
    assert "The match is over" in html and "Bob wins the match 1-0." in html
    assert ">Opening roll<" not in html  # no button for another game


def test_the_big_screen_shows_the_match_and_its_score(app, night, client):
    night.open(match_length="5")
    night.play_turn("olga", (5, 2))
    night.post("olga", "double", {"by": "Bob"})
    night.post("olga", "answer", {"cube": "team", "answer": "drop"})
    html = client.get("/display").get_data(as_text=True)
    block = html[html.index(f'id="display-table-{night.table_id}"'):]
    assert "Match to 5" in block
    assert re.search(r'data-player="Ann".*?dt-score[^>]*>\s*0<', block, re.DOTALL)
    assert re.search(r'data-player="Bob".*?dt-score[^>]*>\s*1<', block, re.DOTALL)


def test_the_winner_is_on_both_players_pages(app, night):
    night.open(match_length="1")
    night.play_turn("olga", (5, 2))
    night.post("olga", "double", {"by": "Bob"})
    night.post("olga", "answer", {"cube": "team", "answer": "drop"})
    for name, result, score in (("Ann", "Lost", "0-1"), ("Bob", "Won", "1-0")):
        html = night.client("olga").get(f"/players/{name}").get_data(as_text=True)
        section = html[html.index('id="player-matches"'):]
        row = re.search(r'<tr class="match-row[^"]*"[^>]*>.*?</tr>', section, re.DOTALL).group(0)
        assert result in row and score in row and "Final" in row, row


def test_a_chouette_player_still_cannot_roll_from_their_phone(app):
    from tests.web.test_phone_decisions import Phones

    phones = Phones(app, "AB")
    before = phones.table.log()
    response = phones.post("A", "roll", {"how": "server"})
    assert response.status_code == 403 and phones.table.log() == before


def test_a_match_downloads_whole_as_mat_and_sgf_to_its_players(night):
    night.open()
    night.play_turn("olga", (5, 2))
    night.post("olga", "double", {"by": "Bob"})
    night.post("olga", "answer", {"cube": "team", "answer": "drop"})
    html = night.client("bob").get(night.url).get_data(as_text=True)
    assert f'/records/tables/{night.table_id}.mat' in html
    mat = night.client("bob").get(f"/records/tables/{night.table_id}.mat")
    assert mat.status_code == 200
    text = mat.get_data(as_text=True)
    assert " 3 point match" in text and "Ann" in text and "Bob" in text and " Drops" in text
    sgf = night.client("ann").get(f"/records/tables/{night.table_id}.sgf").get_data(as_text=True)
    assert "MI[length:3]" in sgf
    assert night.client("cy").get(f"/records/tables/{night.table_id}.mat").status_code == 404


def test_a_night_with_a_match_exports_and_imports_to_the_same_ledger(app, night):
    night.open(match_stake="point", stake_cents="5")
    night.play_turn("olga", (5, 2))
    night.post("olga", "double", {"by": "Bob"})
    night.post("olga", "answer", {"cube": "team", "answer": "take"})
    night.play_turn("olga", (6, 5))
    night.post("olga", "double", {"by": "box"})
    night.post("olga", "answer", {"cube": "Bob", "answer": "drop"})
    with app.app_context():
        exported = exports.night_export(night.night_id)
        before = exports.night_ledger_totals(night.night_id)
        olga = db.session.get(Member, night.olga.id)
        imported = exports.import_night(exported, olga)
        assert exports.night_ledger_totals(imported.id) == before
        assert before["Ann"][1] == 1000
        copy = next(t for t in imported.tables)
        assert match_of(table_states.load_play(copy.id).state).scores == (2, 0)


def test_a_member_already_at_another_open_table_cannot_open_a_match_and_nothing_is_written(app, night):
    """One person, one open table: the match is refused naming the other table, no table made."""
    night.open()
    with app.app_context():
        before = db.session.scalar(select(func.count(ChouetteTable.id)))
    response = night.open()
    assert response.status_code == 422
    assert "one person plays at one open table at a time" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count(ChouetteTable.id))) == before
