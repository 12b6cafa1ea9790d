"""The live table's context: everything ``tables/_live.html`` and the table page show.

Seats and line in words, every member's cube, the legal actions grouped the way the page shows
them, the board of the game in progress, the latest log lines and the finished games of the
history. Drawing the history is the costly part: it is remembered per process and changes only
when a game ends, is corrected or undone (``history_games_html``). Who sees which buttons follows
who runs the table and who plays at it (``_runs``, ``_me``); the views in ``chouette.web.play``
answer every command with this context.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from flask import render_template, request, url_for
from flask_babel import get_locale
from flask_login import current_user
from markupsafe import Markup
from sqlalchemy import select

from chouette import caches, push
from chouette.amounts import money_locale
from chouette.engine.position import XgidFields
from chouette.extensions import db, read_only
from chouette.models import ChouetteTable, Member, TableEvent
from chouette.services import base, commands, identity, take_back
from chouette.services.sheet import table_games
from chouette.standings import games_money, money
from chouette.table import TableError, TableState, apply_event, match_rules
from chouette.table.actions import may_consult
from chouette.table.game import Game
from chouette.web import gate, house_rules, log_lines, online_play, privacy
from chouette.web.board import board_context, legal_steps
from chouette.web.board_cubes import CubeView
from chouette.web.catalog import gettext as _
from chouette.web.htmx import is_htmx
from chouette.web.matches import match_context

RECENT = 12  # log lines shown under the table
KINDS = ("single", "gammon", "backgammon")


def _runs(table: ChouetteTable) -> bool:
    """Whether the signed-in member runs this table."""
    return current_user.is_authenticated and commands.may_run(current_user, table)


def _me(table_id: int, state: TableState) -> str | None:
    """The signed-in member's seat name at this table, if he plays here (by his id)."""
    if not current_user.is_authenticated:
        return None
    return commands.seat_name(current_user, table_id, state)


#: What a table's page derives from one state alone (its legal decisions, the latest log
#: lines, the seats in words, the shared drawing), by the state's identity: after a push,
#: every phone at the table fetches the same state, and only the first draws these. An entry
#: holds its state, so no other state can have its ``id`` while the entry lives.
PER_STATE = caches.declare(
    "live.per_state", 512,
    "(id(state), what, language) -> (state, what the page derives from that state)")
#: Each table's latest log lines said in words: (the seq they were read up to, the lines). A
#: command appends one event, so only what came after is read and said (``_recent``).
RECENT_LINES = caches.declare(
    "live.recent_lines", 512,
    "(table id, renames generation, language) -> (seq read up to, the latest log lines)")


def per_state(state: TableState, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()``, or what it gave for this very state (and language) before; made once
    however many phones ask at the same moment."""
    key = (id(state), name, str(get_locale()))
    return caches.cache(PER_STATE).get_or_make(key, lambda: (state, compute()))[1]


def _recent(table_id: int, seq: int, generation: int,
            players: tuple[str, str] | None = None) -> list[dict[str, Any]]:
    """The latest log lines up to ``seq``, newest first, each said in words, with who recorded
    them (``generation``: the club's renames, ``commands.TablePlay.generation``); ``players``:
    a match's two players, its lines said with their names (``match_players``).

    The log is only ever appended to, so the lines up to a seq never change: the ones read
    for an earlier seq are kept, and only the events after it are read and said."""
    kept = caches.cache(RECENT_LINES)
    key = (table_id, generation, str(get_locale()))
    found = kept.get(key)
    if found is not None and found[0] == seq:
        return found[1]
    since, known = (found if found is not None and found[0] <= seq else (0, []))
    query = (select(TableEvent, Member.name).outerjoin(Member, TableEvent.actor_id == Member.id)
             .where(TableEvent.table_id == table_id, TableEvent.seq <= seq, TableEvent.seq > since)
             .order_by(TableEvent.seq.desc()).limit(RECENT))
    # A renamed member: his name now.
    names = identity.relabels_of([table_id])[table_id] if generation else {}
    lines = [{"seq": e.seq, "type": e.type, "text": log_lines.describe(identity.relabel(e.as_dict(), names), players),
              "who": who, "at": e.at} for e, who in db.session.execute(query)]
    lines = (lines + known)[:RECENT]
    if found is None or found[0] <= seq:
        kept.put(key, (seq, lines))
    return lines


def match_players(state: TableState) -> tuple[str, str] | None:
    """A match's two players once seated, first (side 0) first; None at a chouette."""
    return match_rules.players(state) if state.settings.is_match else None


def note_written(played: commands.TablePlay, who: str | None) -> None:
    """Put a command's own events (``played.written``, recorded by ``who``) in its table's
    latest log lines when they follow the lines kept.

    Why: the command's answer (``play._command``) is drawn on the command's path, whose
    time the players wait for; with this it reads no log for its latest lines (the events
    it wrote are in hand). With renames in the club the names are read again (``_recent``)."""
    written = played.written
    if not written or played.generation:
        return
    kept = caches.cache(RECENT_LINES)
    key = (played.table.id, played.generation, str(get_locale()))
    found = kept.get(key)
    if found is None or found[0] != written[0].seq - 1:
        return
    players = match_players(played.state)
    lines = [{"seq": e.seq, "type": e.type, "text": log_lines.describe(e.as_dict(), players), "who": who,
              "at": e.at} for e in reversed(written)]
    kept.put(key, (written[-1].seq, (lines + found[1])[:RECENT]))


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


def _leavers(state: TableState) -> list[str]:
    """Who may leave now (the rules decide: not with a live cube in the game)."""
    allowed = []
    for name in state.seated:
        try:
            apply_event(state, {"type": "leave", "player": name})
        except TableError:
            continue
        allowed.append(name)
    return allowed


def _seat_rows(state: TableState) -> list[tuple[str, str, str]]:
    """(name, seat in words, kind) for everyone seated, box first, then the line in order."""
    rows = [(name, label, kind) for name, label, kind in (
        (state.box, _("Box"), "box"), (state.partner, _("Partner"), "partner"),
        (state.captain, _("Captain"), "captain")) if name]
    if state.game is not None and state.game.captain_left:
        # The captain dropped and left: the seat waits for the others' answers (rules 2.5).
        rows.append(("", _("Captain"), "captain-waiting"))
    rows += [(name, _("Line %(number)d", number=i), "line") for i, name in enumerate(state.line, 1)]
    game = state.game
    if game is not None and game.acting_captain != game.members[0] and not game.captain_left:
        # Who plays on for the team after the captain's drop, or after the box dropped the
        # captain's cube (the seat stays the captain's then): rules 2.4, 2.5.
        rows = [(name, (_("Acting captain") if kind == "captain" else
                        _("%(seat)s · acting captain", seat=label))
                 if name == game.acting_captain else label, kind) for name, label, kind in rows]
    rows += [(name, _("Joins after this game"), "pending") for name in state.pending_joiners]
    return rows


def seat_of(state: TableState, name: str) -> str | None:
    """Where ``name`` sits at this table, in words (box, captain, line 3, ...), or None."""
    if not state.ordered:
        return _("Waiting for the starting order") if state.is_seated(name) else None
    return next((label for who, label, _kind in _seat_rows(state) if who == name), None)


def player_tables(member: Member, nights: list[Any]) -> list[dict[str, Any]]:
    """The open tables of ``nights`` where ``member`` sits (by id): the table, its night, his
    seat and the decisions waiting for him (the home page)."""
    found = []
    for night in nights:
        if not night.is_open:
            continue
        for table in night.tables:
            if table.closed_at is not None:
                continue
            state = commands.load_play(table.id).state
            name = commands.seat_name(member, table.id, state)
            seat = seat_of(state, name) if name is not None else None
            if seat is None:
                continue
            found.append({"table": table, "night": night, "seat": seat,
                          "waiting": bool(commands.waiting_for(name, state))})
    return found


def _cube_rows(state: TableState) -> list[dict[str, Any]]:
    """Every member's cube: the game's, or before a game the team's cubes in the middle."""
    game = state.game
    if game is not None:
        # A box's double is settled once every member answered: show who already took (a
        # drop stands at once and shows on the cube; so does a beaver, the box's to answer).
        answered = {m: a for m, a in (game.box_double.answers.items() if game.box_double else ())
                    if game.cubes[m].is_live and ((offer := game.cubes[m].cube.offer) is None
                                                  or offer.kind == "double")}
        return [{"name": m, "view": CubeView.from_member_cube(game.cubes[m]),
                 "captain": m == game.acting_captain and not game.captain_left,
                 "answered": answered.get(m)}
                for m in game.members]
    return [{"name": m, "view": CubeView(m), "captain": m == state.captain, "answered": None}
            for m in state.seats.team]


def _answer_words() -> dict[str, str]:
    return {"take": _("Take"), "drop": _("Drop"), "beaver": _("Beaver"), "raccoon": _("Raccoon")}


def _actions(state: TableState, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The legal actions (``commands.candidate_decisions``), grouped the way the page shows them."""
    grouped: dict[str, Any] = {"partner": [], "draw": False, "box_cubes": [], "box_double": False,
                               "member_doubles": [], "answers": {}, "extras": [], "results": [],
                               "extra_cubes": {}}
    for event in legal:
        kind = event["type"]
        if "extra" in event:
            grouped["extra_cubes"].setdefault(event["extra"], []).append(event)
        elif kind == "partner":
            grouped["partner"].append(event)
        elif kind == "partner_draw":
            grouped["draw"] = True
        elif kind == "double" and event["by"] == "box":
            grouped["box_double"] = True
            cubes = event.get("cubes")
            if cubes and len(cubes) == 1:
                grouped["box_cubes"].append(cubes[0])
        elif kind == "double":
            grouped["member_doubles"].append(event["by"])
        elif kind in commands.ANSWERS:
            grouped["answers"].setdefault(event["cube"], []).append(kind)
        elif kind == "extra":
            grouped["extras"].append(event)
        elif kind == "result" and not state.settings.is_match:  # a match has its own form
            grouped["results"].append(event)
    return grouped


def _offer_text(offerer: str, kind: str, value: int, absent: str | None = None) -> str:
    """What waits for an answer, said to the one who must answer it (``absent``: the member
    he answers for as his proxy)."""
    if absent is not None and kind == "double":
        return _("%(name)s doubles %(member)s to %(value)d: you decide for %(member)s.",
                 name=offerer, member=absent, value=value)
    if kind == "beaver":
        return _("%(name)s beavers: the cube goes to %(value)d.", name=offerer, value=value)
    if kind == "raccoon":
        return _("%(name)s raccoons: the cube goes to %(value)d.", name=offerer, value=value)
    return _("%(name)s doubles you to %(value)d.", name=offerer, value=value)


def _answer_buttons(table_id: int, events: list[dict[str, Any]], field: str) -> list[dict[str, Any]]:
    words = _answer_words()
    return [{"url": url_for("play.answer", table_id=table_id), "label": words[e["type"]],
             "fields": {field: e[field], "answer": e["type"]}, "css": f"answer answer-{e['type']}"}
            for e in events]


def _take_back(table_id: int, state: TableState, me: str) -> list[dict[str, Any]]:
    """The viewer's own drop, the table's last event, while they may still take it back."""
    until = take_back.own_drop_until(current_user, table_id, state, me)
    if until is None:
        return []
    return [{"kind": "take-back", "title": _("Your drop"),
             "text": _("Tapped by mistake? You may take it back for a few seconds, while "
                       "nothing else happens at the table."),
             "buttons": [{"url": url_for("play.take_back", table_id=table_id),
                          "label": _("Take back my drop"), "fields": {},
                          "css": "secondary take-back"}],
             "until": until.isoformat(timespec="seconds") + "Z",
             "key": f"take-back-{len(state.effective)}"}]


def my_decision(table_id: int, state: TableState, me: str,
                waiting: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decisions waiting for ``me`` (``commands.waiting_for``), each with its sentence and
    its buttons (``tables/_my_decision.html``): one item per cube, extra cube or offer."""
    game = state.game
    items: list[dict[str, Any]] = []
    by_cube: dict[str, list[dict[str, Any]]] = {}
    by_extra: dict[str, list[dict[str, Any]]] = {}
    for event in waiting:
        if event["type"] in commands.ANSWERS and "extra" in event:
            by_extra.setdefault(event["extra"], []).append(event)
        elif event["type"] in commands.ANSWERS:
            by_cube.setdefault(event["cube"], []).append(event)
    for cube, events in by_cube.items():
        assert game is not None
        names = game.pending if cube == "team" else [cube]
        offer = game.cubes[names[0]].cube.offer
        if offer is None:
            continue
        answerer = game.cubes[names[0]].to_answer
        if answerer == "member":
            offerer = state.box or ""
        elif state.settings.is_match:
            offerer = game.acting_captain
        else:
            offerer = _("The team (%(name)s)", name=game.acting_captain) if cube == "team" else cube
        title = _("The team's cube") if cube == "team" else (
            _("Your cube") if cube == me else _("%(name)s's cube", name=cube))
        absent = cube if game.proxies.get(cube) == me else None
        if state.settings.is_match:
            title = _("The cube")
        items.append({"kind": "cube", "cube": cube, "title": title,
                      "text": _offer_text(offerer, offer.kind, offer.value, absent),
                      "buttons": _answer_buttons(table_id, events, "cube"),
                      "key": f"g{game.number}-d{game.doubles}-{cube}-{offer.kind}{offer.value}"})
    for giver, events in by_extra.items():
        assert game is not None
        extra = next(e for e in game.extras if e.giver == giver)
        offer = extra.cube.offer
        if offer is None:
            continue
        offerer = extra.taker if giver == me else giver
        items.append({"kind": "extra-cube", "cube": giver,
                      "title": _("Extra cube %(value)d from %(giver)s to %(taker)s",
                                 value=extra.value, giver=giver, taker=extra.taker),
                      "text": _offer_text(offerer, offer.kind, offer.value),
                      "buttons": _answer_buttons(table_id, events, "extra"),
                      "key": f"g{game.number}-d{game.doubles}-x{giver}-{offer.kind}{offer.value}"})
    partner_url = url_for("play.partner", table_id=table_id)
    for event in waiting:
        if event["type"] == "partner" and event["accept"]:
            items.append({"kind": "partner", "title": _("The box's partner"),
                          "text": _("You are offered the partnership with the box, %(name)s.",
                                    name=state.box),
                          "buttons": [{"url": partner_url, "label": label, "css": css,
                                       "fields": {"player": me, "answer": answer}}
                                      for answer, label, css in (
                                          ("accept", _("Accept"), "primary"),
                                          ("decline", _("Decline"), "secondary"))],
                          "key": f"p{len(state.games)}-{len(state.partner_offers)}"})
        elif event["type"] == "extra":
            assert game is not None
            items.append({"kind": "extra", "title": _("An extra cube"),
                          "text": _("%(name)s took alone: you may give %(name)s an extra cube "
                                    "(and pay one point now).", name=event["to"]),
                          "buttons": [{"url": url_for("play.extra", table_id=table_id),
                                       "label": _("Give %(name)s an extra cube", name=event["to"]),
                                       "css": "primary",
                                       "fields": {"giver": me, "taker": event["to"]}}],
                          "key": f"g{game.number}-extra-{event['to']}"})
    return items


def _board(table: ChouetteTable, state: TableState, *, runs: bool, move_value: str,
           seq: int, me: str | None = None) -> dict[str, Any] | None:
    """The board of the game in progress, when it is played on the app's board (``runs``:
    the viewer may enter the move: he runs the table, or he is the match player on roll).
    At a table that plays online, a seated player sees it from their own side, its points
    numbered as they count them."""
    game = state.game
    if game is None or game.position is None or game.on_roll is None:
        return None
    labels = {"box": state.box or _("Box"), "team": game.acting_captain}
    if state.settings.is_match:
        labels = {"box": state.box or "", "team": game.acting_captain}
    side = online_play.my_side(state, me) if state.settings.online else None
    return board_context(
        table.id, game.position, on_roll=game.on_roll, dice=game.dice,
        cubes=[CubeView.from_member_cube(game.cubes[m]) for m in game.members],
        labels=labels, legal=legal_steps(game.position, game.dice) if game.dice else None,
        bottom=side or "box", numbering="bottom" if side else "on_roll",
        interactive=runs and game.dice is not None,
        move_url=url_for("play.move", table_id=table.id, seq=seq), move_value=move_value,
        hx_target=f"#table-live-{table.id}",
    )


#: Finished games the live table shows (the latest first); ``?history=all`` shows them all.
HISTORY_SHOWN = 5
#: Drawn histories, history games and house-rules forms (a few per table and language).
HISTORY = caches.declare(
    "live.history", 2048,
    "what a drawing of the finished games, one game's rows or the house-rules form shows -> its HTML")

def _correcting(typed: dict[str, str] | None, state: TableState) -> bool:
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


def live_context(played: commands.TablePlay, *, error: str | None = None,
                 typed: dict[str, str] | None = None, move_value: str = "",
                 shared: bool = False, seated: bool = False,
                 join_question: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything ``tables/_live.html`` needs (``shared``: for ``shared_live_html``, drawn
    for every viewer of its kind, nobody's own; ``seated``: there, for the players seated
    here; ``join_question``: the Join card's "Did you mean ...?", ``play.NameQuestion``)."""
    gate.checkpoint()  # a phone's drawing lets its process's commands go first
    table, state = played.table, played.state
    night = table.night
    runs = _runs(table) and table.is_open
    points, cents = money(state)
    me = None if shared else _me(table.id, state)
    if me is not None:
        privacy.note_played(current_user, night)  # seated here: he plays this night
    show_money = privacy.may_see_night_money(current_user, night)
    game = state.game
    members: Sequence[str] = ()
    if runs:  # the Join card's list, read with the table (``commands.load_play(names=True)``)
        members = (played.member_names if played.member_names is not None else
                   identity.split_names(db.session.scalar(select(identity.active_names_column(
                       db.session.get_bind().dialect.name)))))
    last_order = next((e for e in reversed(state.effective) if e.get("type") == "order_roll"), None)
    # The live table shows the latest games; the whole history is one click away (a night's
    # sixty games redrawn after every command would cost most of the command's time).
    full_history = request.args.get("history") == "all"
    legal = (per_state(state, "legal", lambda: commands.candidate_decisions(state))
             if (runs or me or seated) and table.is_open else [])
    # A player's own decisions: the buttons he sees (the organizer sees them all), and the
    # ones that wait for him stand at the top of the table (tables/_my_decision.html).
    mine = commands.decisions_of(me, state, legal)
    waiting = [e for e in mine if e["type"] in commands.WAITING_KINDS]
    decision = my_decision(table.id, state, me, waiting) if me and waiting else []
    if me and table.is_open and state.effective and state.effective[-1].get("type") == "drop":
        decision += _take_back(table.id, state, me)
    may_roll = online_play.may_roll(table, state, me)
    actions = _actions(state, legal) if legal else _actions_none()
    guests = commands.guests_of(table.id, state)  # marked on the seats and in the history
    ids = seat_ids(played)
    # A whole page: its forms carry their seq and CSRF token, and work without JavaScript.
    plain_forms = not shared and not is_htmx()
    gate.checkpoint()
    return {
        "table": table, "night": night, "state": state, "seq": played.seq, "game": game,
        "runs": runs, "me": me, "shared_drawing": shared, "plain_forms": plain_forms,
        "seat_ids": ids, "decider_ids": decider_ids(state, ids, actions["member_doubles"]) if shared else {}, "consult": may_consult(state) if state.ordered else [],
        "points": points, "cents": cents if show_money else {}, "currency": night.currency,
        "show_money": show_money,
        "actions": actions, "may_roll": may_roll,
        "match": (match_context(state, actions, mine, runs, me)
                  if state.settings.is_match else None),
        "mine": mine, "my_decision": decision,
        # The phone vibrates for a decision that waits, not for a drop it may take back.
        "decision_key": (f"{table.id}:" + "|".join(item["key"] for item in decision
                                                   if item["kind"] != "take-back")
                         if any(item["kind"] != "take-back" for item in decision) else None),
        "leavers": _leavers(state) if runs else [],
        "settings_form_html": settings_form_html(played, typed or {}) if runs else "",
        "seat_rows": per_state(state, "seats", lambda: _seat_rows(state)),
        "cube_rows": _cube_rows(state) if state.ordered else [],
        "answer_words": _answer_words(),
        "unseated": state.waiting + [p for g in state.order_groups or [] for p in g],
        "to_roll": state.waiting if state.order_groups is None
        else [p for g in state.order_groups if len(g) > 1 for p in g],
        "members": [m for m in members if m not in state.seated],
        "last_order": last_order,
        "opening_tie": _opening_tie(state),
        "undo_what": (log_lines.describe(state.effective[-1], match_players(state))
                      if runs and state.effective else None),
        "board": _board(table, state, runs=runs or may_roll, move_value=move_value,
                        seq=played.seq, me=me),
        "forced_play": commands.forced_play(state) if (runs or may_roll) and state.settings.online
        else None,
        "passed": online_play.passed(state),
        # A match lists its games in its own card (tables/_match.html).
        "history_games_html": "" if state.settings.is_match else history_games_html(
            table, state, seq=played.seq, runs=runs, typed=typed or {}, full=full_history,
            show_money=show_money, error=error, guests=guests, plain_forms=plain_forms),
        "recent": per_state(state, "recent", lambda: _recent(table.id, played.seq, played.generation,
                                                                     match_players(state))),
        # A refused correction says why inside its own form (tables/_history_game.html).
        "error": None if _correcting(typed, state) else error,
        "typed": typed or {}, "join_question": join_question, "guests": guests,
        "kinds": KINDS,
        "xgid": board_xgid(game) if game is not None else None,
    }


def _member_double(event: dict[str, Any]) -> bool:
    """A member's double of the box (``{"type": "double", "by": name}``): a decision he may
    make at any time, whose button stands in his cube's row."""
    return event.get("type") == "double" and set(event) == {"type", "by"} and event["by"] != "box"


def seat_ids(played: commands.TablePlay) -> dict[str, int]:
    """Seat name -> member id at this table as ``played`` reads it (a guest's seat is absent):
    the rows the page marks as the viewer's own (``static/js/mine.js``)."""
    table, state = played.table, played.state
    return per_state(state, f"seat-ids:{played.matched}",
                     lambda: identity.seat_members_of([table.id], through=played.seq)[table.id])


def decider_ids(state: TableState, ids: dict[str, int], doubles: Sequence[str]) -> dict[str, int]:
    """Member name -> the member id of who decides his double of the box (himself, or his
    proxy): in a shared drawing each double button shows on its decider's page only."""
    found = {}
    for name in doubles:
        decider = commands.decider(state, {"type": "double", "by": name})
        if decider in ids:
            found[name] = ids[decider]
    return found


def shared_live_html(played: commands.TablePlay, *, pushed: bool = False) -> Callable[[], str] | None:
    """How to draw the live fragment for a viewer who neither runs the table nor has a decision
    of his own now but his doubles of the box (most phones, most of the time), or None for
    anyone else.

    After a push the eight phones of a table fetch the same state: only the first draws it,
    and every viewer of that state gets the very same bytes (one drawing for the players
    seated here, one for those who watch): every member's double button, hidden, with its
    decider's member id; every seat's member id. The page's own script shows the viewer's
    buttons and marks the viewer's rows (``static/js/mine.js``); htmx sends the viewer's
    CSRF token (``hx-headers``) and the table's seq (``hx-vals``); the server authorises
    every command. A match table, a table played online (each side sees the board from its
    own side), the whole history (``?history=all``) and whole pages are always drawn.
    ``pushed``: for the viewer's push stream (``pushed_drawing``), not for a fetch.
    """
    table, state = played.table, played.state
    night = table.night
    if (not (pushed or is_htmx()) or request.args.get("history") == "all" or state.settings.is_match
            or state.settings.online):  # online: each side sees the board from its own side
        return None
    if _runs(table) and table.is_open:
        return None
    me = _me(table.id, state)
    if me is not None:
        privacy.note_played(current_user, night)  # seated here: he plays this night
    mine = commands.decisions_of(
        me, state, per_state(state, "legal", lambda: commands.candidate_decisions(state))
    ) if me and table.is_open else []
    if not all(_member_double(event) for event in mine):  # an offer to answer, an extra...
        return None
    last = state.effective[-1] if state.effective else {}
    if me is not None and last.get("type") == "drop" and last.get("cube") == me:
        return None  # their own drop, which they may take back for a few seconds (_take_back)
    show_money = privacy.may_see_night_money(current_user, night)

    seated = me is not None  # a player seated here sees what the table asks of the players

    def draw() -> str:
        return render_template("tables/_live.html", **live_context(played, shared=True, seated=seated))

    key = (f"shared:{seated}:{show_money}:{money_locale()}:{table.is_open}:{table.name}:"
           f"{night.currency}:{played.matched}")  # matched: a guest's seat claimed by a new member
    return lambda: per_state(state, key, draw)


def pushed_drawing(table_id: int) -> Callable[[str], str | None]:
    """What a table's push stream sends its viewer when the table moves (``push.Hub.stream``):
    the live fragment itself (a ``fragment`` event) when the state's shared drawing is his
    (``shared_live_html``: the same bytes as his fetch would bring), else None (the version:
    his page fetches his own drawing, with his buttons).

    Runs in a copy of the stream's request context (``streams._stream``): who is signed in is
    loaded again each time, as for a new request (signed out meanwhile, he gets the version
    only, and his fetch is refused). It takes its turn among the process's drawings and lets
    the commands go first, as a fetch does (``gate.drawing``): the first stream of a process
    draws the state, the others take that drawing made theirs."""

    def draw(_version: str) -> str | None:
        with gate.drawing():
            try:
                read_only(alone=True)  # on PostgreSQL, each statement alone: no BEGIN, no ROLLBACK
                if not current_user.is_authenticated:
                    return None
                try:
                    played = commands.load_play(table_id)
                except base.NotFound:
                    return None
                shared = shared_live_html(played, pushed=True)
                return None if shared is None else push.message("fragment", shared())
            finally:
                db.session.remove()

    return draw


def _opening_tie(state: TableState) -> dict[str, Any] | None:
    """The tied opening roll just made (the sides roll again), else None."""
    last = state.effective[-1] if state.effective else None
    game = state.game
    if (last is None or last.get("type") != "opening_roll" or game is None
            or game.position is not None or last.get("box") != last.get("team")):
        return None
    return last


def _actions_none() -> dict[str, Any]:
    return {"partner": [], "draw": False, "box_cubes": [], "box_double": False,
            "member_doubles": [], "answers": {}, "extras": [], "results": [], "extra_cubes": {}}


def page_context(played: commands.TablePlay, **live: Any) -> dict[str, Any]:
    """The table page's context: the live table, and the house-rules card when the whole page
    is drawn (an htmx answer swaps the live table only: the card would be drawn for nothing)."""
    table = played.table
    context = live_context(played, **live)
    if not is_htmx():
        context.update(house_rules.card(played.state, table.night.currency))
        context["may_run"] = _runs(table)  # closing and reopening it (tables/_seat_actions.html)
    return context


def board_xgid(game: Game) -> str | None:
    """The board's XGID with the dice rolled and the (acting) captain's cube, its value and
    who owns it, as GNU Backgammon and eXtreme Gammon read it (the side on roll at the bottom)."""
    if game.position is None:
        return None
    cube = game.cubes.get(game.acting_captain)
    on_roll = "box" if game.on_roll == "box" else "member"
    owner = cube.owner if cube is not None else None
    fields = XgidFields(
        cube_log2=(cube.value if cube is not None else 1).bit_length() - 1,
        cube_owner=0 if owner is None else 1 if owner == on_roll else -1,
        dice=f"{game.dice[0]}{game.dice[1]}" if game.dice else "00")
    return game.position.xgid(fields)
