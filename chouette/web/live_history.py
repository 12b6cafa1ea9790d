"""The live table's finished games and the house-rules form, drawn apart and remembered.

A live table is drawn again after every command and every phone's fetch, but its finished
games change only when a game ends, is corrected or undone, and its house rules only between
games: their drawings are remembered in the app's cache (``HISTORY``), keyed by all they show.
"""

from __future__ import annotations

import json
from typing import Any

from flask import render_template
from flask_babel import get_locale
from markupsafe import Markup
from sqlalchemy import select

from chouette import caches
from chouette.amounts import money_locale
from chouette.extensions import db
from chouette.models import ChouetteTable, Member, TableEvent
from chouette.services import commands
from chouette.services.sheet import table_games
from chouette.standings import games_money
from chouette.table import TableState
from chouette.web import house_rules

KINDS = ("single", "gammon", "backgammon")


#: Finished games the live table shows (the latest first); ``?history=all`` shows them all.
HISTORY_SHOWN = 5
#: Drawn histories, history games and house-rules forms (a few per table and language).
HISTORY = caches.declare(
    "live.history", 2048,
    "what a drawing of the finished games, one game's rows or the house-rules form shows -> its HTML")


def _correctors(table_id: int) -> dict[int, str | None]:
    """Who made the latest correction of each game."""
    query = (select(TableEvent.payload, Member.name).outerjoin(Member, TableEvent.actor_id == Member.id)
             .where(TableEvent.table_id == table_id, TableEvent.type == "correct")
             .order_by(TableEvent.seq))
    found: dict[int, str | None] = {}
    for payload, who in db.session.execute(query):
        if isinstance(payload.get("game"), int):
            found[payload["game"]] = who
    return found


def correcting(typed: dict[str, str] | None, state: TableState) -> bool:
    """Whether a correction form of a finished game was given back (it shows its refusal)."""
    number = (typed or {}).get("game", "")
    return (not state.settings.is_match and number.isdigit() and len(number) < 7
            and max(1, len(state.games) - HISTORY_SHOWN + 1) <= int(number) <= len(state.games))


def history_games_html(table: ChouetteTable, state: TableState, *, seq: int, runs: bool,
                       typed: dict[str, str], full: bool, show_money: bool = True,
                       error: str | None = None, guests: frozenset[str] = frozenset(),
                       plain_forms: bool = False) -> Markup:
    """The finished games of the history (``tables/_history_games.html``).

    A live table is drawn again after every command and every phone's poll, but its finished
    games change only when a game ends, is corrected or undone: the drawing is remembered,
    keyed by everything it shows (the game records themselves, which are immutable, their
    money, who corrected them, the language, whether the viewer runs the table and may see
    the night's money: ``chouette.web.privacy``; the players marked as guests). Its forms
    carry neither seq nor CSRF token: htmx sends the live table's seq (``hx-vals`` on its
    root) and the session's token (``hx-headers`` on the page's body). Each game's rows are
    remembered too (``tables/_history_game.html``), keyed by that game alone: when a game
    ends, the new history draws the new game and takes the others from memory. A form given
    back with what was typed in it, and a whole page (``plain_forms``: its forms work without
    JavaScript, with their own seq and token), are drawn afresh.
    """
    shown = state.games if full else state.games[-HISTORY_SHOWN:]
    paid = {g.number: g for g in games_money(state, {r.number for r in shown})}
    correctors = _correctors(table.id) if any(r.correction for r in shown) else {}
    history_games = [g for g in table_games(state, {r.number for r in shown}) if g.final]
    context = {
        "table": table, "games_count": len(state.games),
        "history_games": history_games,
        "history_hidden": len(state.games) - len(shown), "games_money": paid,
        "correctors": correctors, "currency": table.night.currency, "runs": runs,
        "typed": typed, "kinds": KINDS, "seq": seq, "plain_forms": plain_forms,
        "show_money": show_money, "error": error if "game" in typed else None, "guests": guests,
    }
    key = None
    if "game" not in typed and not plain_forms:
        key = (table.id, tuple(shown), len(state.games),
               tuple((n, tuple(g.points.items()), tuple(g.cents.items())) for n, g in paid.items()),
               tuple(sorted(correctors.items(), key=lambda item: item[0])), table.night.currency,
               runs, show_money, str(get_locale()), money_locale(), tuple(sorted(guests)))
    html = _remembered(key)
    if html is None:
        records = {record.number: record for record in shown}
        common = (table.id, table.night.currency, runs, show_money, str(get_locale()), money_locale(),
                  tuple(sorted(guests)))
        rows = []
        for game in reversed(history_games):
            # A game's rows, remembered by the game alone: a game that ends draws its own.
            paid_game = paid.get(game.number)
            row_key = None if typed.get("game") == str(game.number) or plain_forms else (
                "game", records.get(game.number), correctors.get(game.number), *common,
                (tuple(paid_game.points.items()), tuple(paid_game.cents.items())) if paid_game else None)
            row = _remembered(row_key)
            if row is None:
                row = render_template("tables/_history_game.html", record=game, **context)
                _remember(row_key, row)
            rows.append(Markup(row))
        html = render_template("tables/_history_games.html", history_rows=rows, **context)
        _remember(key, html)
    return Markup(html)


def _remembered(key: tuple[Any, ...] | None) -> str | None:
    """A drawing of the history remembered under ``key`` (None: not remembered)."""
    return None if key is None else caches.cache(HISTORY).get(key)


def _remember(key: tuple[Any, ...] | None, html: str) -> None:
    if key is not None:
        caches.cache(HISTORY).put(key, html)


def settings_form_html(played: commands.TablePlay, typed: dict[str, str]) -> Markup:
    """The house-rules form of the organizers who run the table (``tables/_settings_form.html``).

    A plain form (the whole page comes back), with the page's seq and the session's token.
    Drawn again after every command of the organizer, its fields change only with the rules:
    they are remembered under those (and the language, ``tables/_settings_grid.html``). Fields
    given back with what was typed in them are drawn afresh."""
    table, state = played.table, played.state
    currency = table.night.currency
    key = None
    if not any(name.startswith("rule-") for name in typed):
        key = ("settings", table.id, json.dumps(state.settings.to_dict(), sort_keys=True), currency,
               str(get_locale()), money_locale())
    grid = _remembered(key)
    if grid is None:
        grid = render_template(
            "tables/_settings_grid.html", table=table, currency=currency,
            rule_fields=house_rules.form_fields(state.settings.to_dict(), typed))
        _remember(key, grid)
    # The game its sentence names: the one in progress, or the next.
    number = state.game.number if state.game is not None else len(state.games) + 1
    return Markup(render_template(
        "tables/_settings_form.html", table=table, typed=typed, in_game=state.game is not None,
        game_number=number, seq=played.seq, settings_grid=Markup(grid)))
