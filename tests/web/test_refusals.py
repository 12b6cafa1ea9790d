"""The rules' refusals in the reader's language: the live table, the board, the Position ID
form, the night import and the table settings say the rules' reason in Italian to an Italian
organizer and in English to an English one; nothing is written either way.
"""

from __future__ import annotations

import html
import io
import json
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from chouette.engine import Position, RulesError, match_move
from chouette.engine.errors import Phrase
from chouette.extensions import db
from chouette.ledger import LedgerError, parse_cents
from chouette.models import ChouetteTable, LedgerEntry, Night, TableEvent
from chouette.refusals import say
from chouette.services import base, tables
from chouette.table import LogError, TableError, fold
from tests.factories import PASSWORD
from tests.web.test_play_pages import Table as PlayTable

HTMX = {"HX-Request": "true"}
SAME_VALUE_SAME_ACTION_EN = (
    "same value, same action: the box answered Bruno's cube with take, "
    "so Carla's must be answered the same way"
)
SAME_VALUE_SAME_ACTION_IT = (
    "stesso valore, stessa azione: al cubo di Bruno il box ha scelto di accettare, "
    "quindi a quello di Carla deve rispondere allo stesso modo"
)


class Table(PlayTable):
    """A table run by its organizer (who reads the app in ``locale``)."""

    def __init__(self, app: Flask, locale: str | None, settings: dict[str, Any] | None = None) -> None:
        super().__init__(app, settings, locale)

    def seat(self, *names: str) -> None:
        """Seat players with names of any length, in this order (the first is the box)."""
        self.play(*[{"type": "join", "player": n} for n in names], {"type": "order", "players": list(names)})

    def written(self) -> tuple[list[dict[str, Any]], int]:
        """The log and the number of ledger rows: a refusal changes neither."""
        with self.app.app_context():
            rows = db.session.scalar(select(func.count(LedgerEntry.id))) or 0
            return tables.table_log(self.id), rows

    def sign_in(self, client) -> None:
        response = client.post("/auth/login", data={"username": self.owner.username, "password": PASSWORD})
        assert response.status_code == 303

    def post(self, client, action: str, data: dict[str, Any], *, htmx: bool):
        return client.post(f"{self.url}/{action}", data={"seq": str(self.seq()), **data},
                           headers=HTMX if htmx else {})


def text_of(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def same_value_table(app: Flask, locale: str) -> Table:
    """Bruno's and Carla's cubes doubled together; the box took Bruno's."""
    table = Table(app, locale, {"same_value_same_action": True})
    table.seat("Anna", "Bruno", "Carla", "Dario")
    table.play({"type": "double", "by": "Bruno"}, {"type": "double", "by": "Carla"},
               {"type": "take", "cube": "Bruno"})
    return table


# --------------------------------------------------------------------------- the live table


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain-form"])
def test_an_italian_organizers_illegal_answer_is_refused_in_italian_and_writes_nothing(app, client, htmx):
    table = same_value_table(app, "it")
    table.sign_in(client)
    before = table.written()
    refused = table.post(client, "answer", {"answer": "drop", "cube": "Carla"}, htmx=htmx)
    assert refused.status_code == 422
    page = text_of(refused)
    assert SAME_VALUE_SAME_ACTION_IT in page
    assert "same value" not in page
    assert table.written() == before


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain-form"])
def test_an_english_organizer_sees_the_english_sentence(app, client, htmx):
    table = same_value_table(app, "en")
    table.sign_in(client)
    before = table.written()
    refused = table.post(client, "answer", {"answer": "drop", "cube": "Carla"}, htmx=htmx)
    assert refused.status_code == 422
    assert SAME_VALUE_SAME_ACTION_EN in text_of(refused)
    assert table.written() == before


def test_a_refusal_naming_a_player_keeps_their_name_in_italian(app, client):
    table = Table(app, "it")
    table.seat("Anna", "Bruno", "Carla")
    table.sign_in(client)
    before = table.written()
    refused = table.post(client, "join", {"player": "Bruno"}, htmx=True)
    assert refused.status_code == 422
    assert "Bruno è già al tavolo" in text_of(refused)
    assert table.written() == before


def test_the_engines_cube_refusal_names_the_sides_as_players_in_italian(app, client):
    table = Table(app, "it", {"beavers": True})
    table.seat("Anna", "Bruno", "Carla")
    table.play({"type": "double", "by": "box", "cubes": ["Bruno"]}, {"type": "beaver", "cube": "Bruno"})
    table.sign_in(client)
    before = table.written()
    refused = table.post(client, "answer", {"answer": "beaver", "cube": "Bruno"}, htmx=True)
    assert refused.status_code == 422
    assert ("il box non può fare beaver: il beaver risponde solo a un raddoppio, "
            "e questo è un beaver di Bruno a 4") in text_of(refused)
    assert table.written() == before


def test_say_follows_the_requests_language(app):
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert say(TableError("{name} is not at this table", name="Zeno")) == "Zeno non è a questo tavolo"
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert say(TableError("{name} is not at this table", name="Zeno")) == "Zeno is not at this table"


# --------------------------------------------------------------------------- the board


def test_an_illegal_move_typed_on_the_board_is_refused_in_italian(app, client):
    table = Table(app, "it")
    table.seat("Anna", "Bruno", "Carla")
    table.play({"type": "opening_roll", "box": 3, "team": 1})
    table.sign_in(client)
    before = table.written()
    for headers in (HTMX, {}):
        refused = client.post(f"{table.url}/move?seq={table.seq()}", data={"move": "24/18 13/8"}, headers=headers)
        assert refused.status_code == 422
        page = text_of(refused)
        assert "24/18 13/8 non si può giocare con 3-1: " in page and "4HPwATDgc/ABMA: " not in page
        assert "la mossa copre 11 pip ma 3-1 ne dà 4" in page
        assert 'value="24/18 13/8"' in page
    assert table.written() == before


def test_move_notation_is_refused_in_italian(app, client):
    table = Table(app, "it")
    table.seat("Anna", "Bruno", "Carla")
    table.play({"type": "opening_roll", "box": 3, "team": 1})
    table.sign_in(client)
    before = table.written()
    refused = client.post(f"{table.url}/move?seq={table.seq()}", data={"move": "8/x"}, headers=HTMX)
    assert refused.status_code == 422
    assert "mossa '8/x': non si capisce '8/x'" in text_of(refused)
    assert table.written() == before


@pytest.mark.parametrize(("text", "italian"), [
    ("short", "Position ID 'short': servono 14 caratteri, ce ne sono 5"),
    ("4HPw!TDgc/ABMA", "Position ID '4HPw!TDgc/ABMA': non è base64"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1", "XGID 'XGID=-b----E-C---eE---c-e----B-:0:0:1': servono 10 campi"),
])
def test_a_malformed_position_id_is_refused_in_italian(app, client, text, italian):
    table = Table(app, "it")
    table.sign_in(client)
    for headers in (HTMX, {}):
        response = client.get(f"{table.url}/position", query_string={"position_id": text}, headers=headers)
        assert response.status_code == 422
        assert italian in text_of(response)


def test_a_malformed_final_position_is_refused_in_italian_and_writes_nothing(app, client):
    table = Table(app, "it")
    table.seat("Anna", "Bruno", "Carla")
    table.sign_in(client)
    before = table.written()
    refused = table.post(client, "result", {"position_id": "short", "on_roll": "box"}, htmx=True)
    assert refused.status_code == 422
    assert "Position ID 'short': servono 14 caratteri, ce ne sono 5" in text_of(refused)
    assert table.written() == before


# --------------------------------------------------------------------------- import and settings


def _counts(app: Flask) -> tuple[int, ...]:
    with app.app_context():
        return tuple(db.session.scalar(select(func.count(model.id))) or 0
                     for model in (Night, ChouetteTable, TableEvent, LedgerEntry))


def _export(events: list[dict[str, Any]]) -> bytes:
    night = {"name": "Venerdì", "date": "2026-11-27", "currency": "EUR"}
    return json.dumps({"night": night, "tables": [{"name": "Tavolo 1", "table": {}, "events": events}]}).encode()


def test_an_import_refused_in_italian_keeps_the_event_number(app, client, login_as):
    login_as("organizer", locale="it")
    before = _counts(app)
    events = [{"type": "join", "player": p} for p in ("Anna", "Bruno", "Carla")]
    events += [{"type": "order", "players": ["Anna", "Bruno", "Carla"]}, {"type": "join", "player": "Bruno"}]
    response = client.post("/nights/import", data={"file": (io.BytesIO(_export(events)), "night.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Tavolo 1" in text_of(response) and "evento 5 (join): Bruno è già al tavolo" in text_of(response)
    assert _counts(app) == before


def test_a_table_setting_the_rules_refuse_is_said_in_italian(app):
    with app.test_request_context(headers={"Accept-Language": "it"}), \
            pytest.raises(base.ServiceError, match="con due giocatori") as refused:
        tables.normalize_settings({**tables.TABLE_DEFAULTS, "partner_min_players": 2})
    assert "con due giocatori non resta nessuno da sorteggiare come partner del box" in str(refused.value)


# --------------------------------------------------------------------------- say()


def test_say_translates_nested_reasons_and_keeps_the_event_number(app):
    events = [{"type": "join", "player": p} for p in ("Anna", "Bruno")] + [{"type": "join", "player": "Anna"}]
    with pytest.raises(LogError, match="Anna is already at the table") as refused:
        fold({}, events)
    assert str(refused.value) == "event 3: Anna is already at the table"
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert say(refused.value) == "evento 3: Anna è già al tavolo"


def test_say_translates_the_rules_words_but_never_a_players_name(app):
    error = TableError("there is no double to {answer}", answer="take")
    named = TableError("{name} is not at this table", name="take")
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert say(error) == "non c'è nessun raddoppio da accettare"
        assert say(named) == "take non è a questo tavolo"


def test_say_falls_back_on_the_english_text_without_a_template(app):
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert say(ValueError("plain words")) == "plain words"
        assert say(base.ServiceError("già tradotto")) == "già tradotto"


def test_say_translates_engine_and_ledger_refusals(app):
    with pytest.raises(RulesError, match="illegal move") as illegal:
        match_move(Position.initial(), (3, 1), "24/18 13/8")
    with pytest.raises(LedgerError, match="not an amount") as amount:
        parse_cents("12.345")
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert say(illegal.value).startswith("24/18 13/8 non si può giocare con 3-1: ")
        assert say(amount.value) == "non è un importo con al massimo due decimali: '12.345'"


def test_a_refusal_keeps_its_english_text_template_and_params():
    error = TableError("{name} is not at this table", name="Zeno")
    assert str(error) == "Zeno is not at this table" and error.args == ("Zeno is not at this table",)
    assert error.template == "{name} is not at this table" and error.params == {"name": "Zeno"}
    assert error.phrase == Phrase("{name} is not at this table", name="Zeno")
    assert str(TableError("a plain {sentence} without parameters")) == "a plain {sentence} without parameters"


def test_say_translates_each_item_of_a_waiting_list(app):
    names = ["Anna", "Bruno", "Carla", "Dario"]
    events = [{"type": "join", "player": p} for p in names] + [
        {"type": "order", "players": names}, {"type": "double", "by": "Bruno"}, {"type": "double", "by": "Carla"},
        {"type": "double", "by": "box", "cubes": ["Dario"]}]
    with pytest.raises(LogError, match="answer the open double first") as refused:
        fold({}, events)
    assert str(refused.value) == ("event 8: answer the open double first "
                                  "(waiting: the box on Bruno's cube, the box on Carla's cube)")
    with app.test_request_context(headers={"Accept-Language": "it"}):
        assert say(refused.value) == ("evento 8: prima rispondete al raddoppio aperto "
                                      "(in attesa: il box sul cubo di Bruno, il box sul cubo di Carla)")
