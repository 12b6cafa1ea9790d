"""The live table: seats, line, cubes, the board, results, undo, history and corrections.

Every action is one POST carrying the ``seq`` the page was rendered at. A view parses the
form into one event of the log format, hands it to ``commands.play`` and answers with the
live fragment (htmx, ``HX-Trigger: table-changed``) or a 303 back to the table page. A page
that is out of date gets 409 and the table as it is now; a refusal of the rules gets 422 with
the reason, and what was typed stays in the form.

Who may: the admins, the organizer who opened the night and the one who created the table run
it (``commands.may_run``); a signed-in player answers his own cube; everyone signed in watches.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from chouette import commands, services
from chouette.amounts import money_locale
from chouette.engine import Position, RulesError
from chouette.extensions import db, read_only
from chouette.ledger import LedgerError, parse_cents
from chouette.models import ChouetteTable, Member, TableEvent
from chouette.refusals import say
from chouette.standings import games_money, money
from chouette.table import TableError, TableState, apply_event
from chouette.table.actions import legal_actions, may_consult
from chouette.web import house_rules, log_lines
from chouette.web.board_svg import CubeView, board_context, legal_steps, render_board
from chouette.web.errors import error_page
from chouette.web.htmx import is_htmx, render_if_changed, render_page, see_other

bp = Blueprint("play", __name__)

MAX_FIELD = 200  # longest text a field may carry (names, moves, ids, reasons)
RECENT = 12  # log lines shown under the table
KINDS = ("single", "gammon", "backgammon")


class BadInput(ValueError):
    """A form that cannot be an action (garbage dice, an oversized field): 422, nothing written."""


# --------------------------------------------------------------------------- loading


def _load(table_id: int) -> commands.TablePlay:
    """The table and its state (404 when there is no such table)."""
    try:
        return commands.load_play(table_id)
    except services.NotFound:
        abort(404)


def _runs(table: ChouetteTable) -> bool:
    """Whether the signed-in member runs this table."""
    return current_user.is_authenticated and commands.may_run(current_user, table)


def _me(state: TableState) -> str | None:
    """The signed-in member's seat name at this table, if he plays here."""
    if not current_user.is_authenticated:
        return None
    name = current_user.name
    return name if name in state.players else None


def _field(name: str, default: str = "") -> str:
    """A text field, stripped; an oversized one is refused."""
    value = request.form.get(name, default)
    if len(value) > MAX_FIELD:
        raise BadInput(_("That field is too long (at most %(count)d characters).", count=MAX_FIELD))
    return value.strip()


def _die(value: str) -> int:
    """A die typed by hand: a whole number from 1 to 6."""
    value = value.strip()
    if not value.isdigit() or not 1 <= int(value) <= 6:
        raise BadInput(_("A die is a number from 1 to 6, not %(value)s.", value=value[:10] or "…"))
    return int(value)


def _seq() -> int | None:
    """The seq the page was rendered at (form, or the query string of the board's form)."""
    raw = request.form.get("seq") or request.args.get("seq") or ""
    return int(raw) if raw.isdigit() and len(raw) < 10 else None


def _read_only() -> None:
    """Read the rest of the request without the write lock: loading the signed-in member
    already began a (locking) transaction, so end it first."""
    db.session.commit()
    read_only()


# --------------------------------------------------------------------------- the fragment


def _recent(table_id: int) -> list[dict[str, Any]]:
    """The latest log lines, newest first, each said in words, with who recorded them."""
    query = (select(TableEvent, Member.name).outerjoin(Member, TableEvent.actor_id == Member.id)
             .where(TableEvent.table_id == table_id).order_by(TableEvent.seq.desc()).limit(RECENT))
    return [{"seq": e.seq, "type": e.type, "text": log_lines.describe(e.as_dict()), "who": who,
             "at": e.at} for e, who in db.session.execute(query)]


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
    rows += [(name, _("Line %(number)d", number=i), "line") for i, name in enumerate(state.line, 1)]
    rows += [(name, _("Joins after this game"), "pending") for name in state.pending_joiners]
    return rows


def _cube_rows(state: TableState) -> list[dict[str, Any]]:
    """Every member's cube: the game's, or before a game the team's cubes in the middle."""
    game = state.game
    if game is not None:
        # A box's double is settled once every member answered: show who already has.
        answered = game.box_double.answers if game.box_double is not None else {}
        return [{"name": m, "view": CubeView.from_member_cube(game.cubes[m]),
                 "captain": m == game.acting_captain, "answered": answered.get(m)}
                for m in game.members]
    return [{"name": m, "view": CubeView(m), "captain": m == state.captain, "answered": None}
            for m in state.seats.team]


def _answer_words() -> dict[str, str]:
    return {"take": _("Take"), "drop": _("Drop"), "beaver": _("Beaver"), "raccoon": _("Raccoon")}


def _actions(state: TableState) -> dict[str, Any]:
    """The legal actions, grouped the way the page shows them."""
    grouped: dict[str, Any] = {"partner": [], "draw": False, "box_cubes": [], "box_double": False,
                               "member_doubles": [], "answers": {}, "extras": [], "results": []}
    for event in legal_actions(state):
        kind = event["type"]
        if kind == "partner":
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
        elif kind == "result":
            grouped["results"].append(event)
    grouped["extra_cubes"] = _extra_cube_actions(state)
    return grouped


def _extra_cube_actions(state: TableState) -> dict[str, list[dict[str, Any]]]:
    """The legal redoubles and answers on each live extra cube, per giver."""
    found: dict[str, list[dict[str, Any]]] = {}
    game = state.game
    for extra in game.extras if game is not None else []:
        candidates: list[dict[str, Any]] = [
            {"type": "double", "by": who, "extra": extra.giver} for who in (extra.taker, extra.giver)]
        candidates += [{"type": kind, "extra": extra.giver} for kind in commands.ANSWERS]
        for event in candidates:
            try:
                apply_event(state, event)
            except TableError:
                continue
            found.setdefault(extra.giver, []).append(event)
    return found


def _board(table: ChouetteTable, state: TableState, *, runs: bool, move_value: str,
           seq: int) -> dict[str, Any] | None:
    """The board of the game in progress, when it is played on the app's board."""
    game = state.game
    if game is None or game.position is None or game.on_roll is None:
        return None
    labels = {"box": state.box or _("Box"), "team": game.acting_captain}
    return board_context(
        table.id, game.position, on_roll=game.on_roll, dice=game.dice,
        cubes=[CubeView.from_member_cube(game.cubes[m]) for m in game.members],
        labels=labels, legal=legal_steps(game.position, game.dice) if game.dice else None,
        numbering="on_roll", interactive=runs and game.dice is not None,
        move_url=url_for("play.move", table_id=table.id, seq=seq), move_value=move_value,
        hx_target=f"#table-live-{table.id}",
    )


#: Finished games the live table shows (the latest first); ``?history=all`` shows them all.
HISTORY_SHOWN = 5
#: How many drawn histories each process remembers (a few per table and language).
HISTORY_CACHE_SIZE = 256
#: Markers for what differs between two pages showing the same games: put in after drawing.
SEQ_MARK, CSRF_MARK = "\x00seq\x00", "\x00csrf\x00"

_history_cache: OrderedDict[tuple[Any, ...], str] = OrderedDict()
_history_lock = threading.Lock()


def history_games_html(table: ChouetteTable, state: TableState, *, seq: int, runs: bool,
                       typed: dict[str, str], full: bool) -> Markup:
    """The finished games of the history (``tables/_history_games.html``).

    A live table is drawn again after every command and every phone's poll, but its finished
    games change only when a game ends, is corrected or undone: the drawing is remembered,
    keyed by everything it shows (the game records themselves, which are immutable, their
    money, who corrected them, the language, whether the viewer runs the table). What differs
    per page, the forms' seq and the session's CSRF token, is put in afterwards. A form given
    back with what was typed in it is drawn afresh.
    """
    shown = state.games if full else state.games[-HISTORY_SHOWN:]
    paid = {g.number: g for g in games_money(state, {r.number for r in shown})}
    correctors = _correctors(table.id) if any(r.correction for r in shown) else {}
    context = {
        "table": table, "games_count": len(state.games), "history_games": shown,
        "history_hidden": len(state.games) - len(shown), "games_money": paid,
        "correctors": correctors, "currency": table.night.currency, "runs": runs,
        "typed": typed, "kinds": KINDS, "seq_mark": SEQ_MARK, "csrf_mark": CSRF_MARK,
    }
    key = None
    if "game" not in typed:
        key = (table.id, tuple(shown), len(state.games),
               tuple((n, tuple(g.points.items()), tuple(g.cents.items())) for n, g in paid.items()),
               tuple(sorted(correctors.items(), key=lambda item: item[0])), table.night.currency,
               runs, str(get_locale()), money_locale())
    html = None
    if key is not None:
        with _history_lock:
            html = _history_cache.get(key)
            if html is not None:
                _history_cache.move_to_end(key)
    if html is None:
        html = render_template("tables/_history_games.html", **context)
        if key is not None:
            with _history_lock:
                _history_cache[key] = html
                while len(_history_cache) > HISTORY_CACHE_SIZE:
                    _history_cache.popitem(last=False)
    return Markup(html.replace(SEQ_MARK, str(seq)).replace(CSRF_MARK, generate_csrf()))


def live_context(played: commands.TablePlay, *, error: str | None = None,
                 typed: dict[str, str] | None = None, move_value: str = "") -> dict[str, Any]:
    """Everything ``tables/_live.html`` needs."""
    table, state = played.table, played.state
    night = table.night
    runs = _runs(table) and night.is_open
    points, cents = money(state)
    game = state.game
    members = []
    if runs:
        members = list(db.session.scalars(
            select(Member.name).where(Member.active.is_(True)).order_by(Member.name)))
    last_order = next((e for e in reversed(state.effective) if e.get("type") == "order_roll"), None)
    # The live table shows the latest games; the whole history is one click away (a night's
    # sixty games redrawn after every command would cost most of the command's time).
    full_history = request.args.get("history") == "all"
    return {
        "table": table, "night": night, "state": state, "seq": played.seq, "game": game,
        "runs": runs, "me": _me(state), "consult": may_consult(state) if state.ordered else [],
        "points": points, "cents": cents, "currency": night.currency,
        "actions": _actions(state) if (runs or _me(state)) and night.is_open else _actions_none(),
        "leavers": _leavers(state) if runs else [],
        "seat_rows": _seat_rows(state),
        "cube_rows": _cube_rows(state) if state.ordered else [],
        "answer_words": _answer_words(),
        "unseated": state.waiting + [p for g in state.order_groups or [] for p in g],
        "to_roll": state.waiting if state.order_groups is None
        else [p for g in state.order_groups if len(g) > 1 for p in g],
        "members": [m for m in members if m not in state.seated],
        "last_order": last_order,
        "board": _board(table, state, runs=runs, move_value=move_value, seq=played.seq),
        "history_games_html": history_games_html(table, state, seq=played.seq, runs=runs,
                                                 typed=typed or {}, full=full_history),
        "recent": _recent(table.id),
        "error": error, "typed": typed or {},
        "kinds": KINDS,
        "xgid": game.position.xgid() if game and game.position is not None else None,
    }


def _actions_none() -> dict[str, Any]:
    return {"partner": [], "draw": False, "box_cubes": [], "box_double": False,
            "member_doubles": [], "answers": {}, "extras": [], "results": [], "extra_cubes": {}}


def page_context(played: commands.TablePlay, **live: Any) -> dict[str, Any]:
    """The table page's context: the live table, and the house-rules card when the whole page
    is drawn (an htmx answer swaps the live table only: the card would be drawn for nothing)."""
    table = played.table
    context = live_context(played, **live)
    if not is_htmx():
        context["rules"] = house_rules.describe(table.settings, table.night.currency)
    return context


def _live_response(played: commands.TablePlay, status: int = 200, *, changed: bool = False,
                   **live: Any) -> BaseResponse:
    """The live fragment for htmx, the whole table page otherwise."""
    response = render_page("tables/show.html", "tables/_live.html", status=status,
                           **page_context(played, **live))
    if changed:
        response.headers["HX-Trigger"] = "table-changed"
    return response


# --------------------------------------------------------------------------- one command


def _command(table_id: int, build: Callable[[TableState], dict[str, Any]], *,
             player_may: bool = False, keep: tuple[str, ...] = ()) -> BaseResponse:
    """Check the role, build the event from the form, play it, answer.

    ``player_may``: a player may post it (his own cube; ``commands.authorize`` decides).
    ``keep``: the fields to give back to the form when the action is refused.
    """
    played = _load(table_id)
    runs = commands.may_run(current_user, played.table)
    if not runs and (not player_may or _me(played.state) is None):
        abort(403)
    typed = {name: request.form.get(name, "")[:MAX_FIELD] for name in keep}
    move_value = typed.get("move", "")
    seq = _seq()
    if seq is None:
        return _live_response(played, 400, error=_("This page is out of date: reload it."), typed=typed)
    try:
        event = build(played.state)
        after = commands.play(table_id, seq, event, current_user)
    except services.TableChanged as changed:
        db.session.rollback()
        return _live_response(_load(table_id), 409, error=str(changed))
    except commands.NotAllowed as refused:
        db.session.rollback()
        return error_page(403, str(refused))
    except (BadInput, TableError, RulesError, services.ServiceError) as refused:
        db.session.rollback()
        return _live_response(played, 422, error=say(refused), typed=typed, move_value=move_value)
    if is_htmx():  # the table as this command left it (the state is the one just written)
        return _live_response(after, changed=True)
    return see_other("tables.show", table_id=table_id)


# --------------------------------------------------------------------------- views


@bp.get("/tables/<int:table_id>/live")
@login_required
def live(table_id: int) -> BaseResponse:
    """The live table (polled by phones: 304 while nothing changed)."""
    _read_only()
    played = _load(table_id)
    version = f"{table_id}:{played.seq}:{played.table.night.is_open}"
    return render_if_changed(version, "tables/show.html", "tables/_live.html", **page_context(played))


@bp.post("/tables/<int:table_id>/join")
@login_required
def join(table_id: int) -> BaseResponse:
    """A member or a guest sits down (with his stake when the table allows per-player stakes)."""
    def build(state: TableState) -> dict[str, Any]:
        event: dict[str, Any] = {"type": "join", "player": _field("player")}
        stake = _field("stake")
        if stake:
            try:
                event["stake_cents"] = parse_cents(stake)
            except LedgerError:
                raise BadInput(_("A stake is an amount like 2.50, not %(value)s.", value=stake[:20])) from None
        return event
    return _command(table_id, build, keep=("player", "stake"))


@bp.post("/tables/<int:table_id>/leave")
@login_required
def leave(table_id: int) -> BaseResponse:
    """A player leaves the table (between his games)."""
    return _command(table_id, lambda state: {"type": "leave", "player": _field("player")})


@bp.post("/tables/<int:table_id>/order")
@login_required
def order(table_id: int) -> BaseResponse:
    """The starting order: rolled by the app, the physical dice typed, or recorded."""
    def build(state: TableState) -> dict[str, Any]:
        how = request.form.get("how")
        if how == "roll":
            return commands.server_event(state, "order_roll")
        if how == "dice":
            names, dice = request.form.getlist("player"), request.form.getlist("die")
            if len(names) != len(dice) or not names or len(names) > 100:
                raise BadInput(_("Type one die for each player."))
            return {"type": "order_roll", "rolls": {n[:MAX_FIELD]: _die(d) for n, d in zip(names, dice)}}
        if how == "record":
            names = [line.strip() for line in _field("players").splitlines() if line.strip()]
            return {"type": "order", "players": names}
        raise BadInput(_("Unknown action."))
    return _command(table_id, build, keep=("players",))


@bp.post("/tables/<int:table_id>/partner")
@login_required
def partner(table_id: int) -> BaseResponse:
    """The box's partnership: accepted or declined by the player offered it, or drawn."""
    def build(state: TableState) -> dict[str, Any]:
        answer = request.form.get("answer")
        if answer == "draw":
            return commands.server_event(state, "partner_draw")
        if answer not in ("accept", "decline"):
            raise BadInput(_("Unknown action."))
        return {"type": "partner", "player": _field("player"), "accept": answer == "accept"}
    return _command(table_id, build)


@bp.post("/tables/<int:table_id>/double")
@login_required
def double(table_id: int) -> BaseResponse:
    """The box doubles the chosen members' cubes, or a member doubles the box."""
    def build(state: TableState) -> dict[str, Any]:
        by = _field("by")
        extra = _field("extra")
        if extra:
            return {"type": "double", "by": by, "extra": extra}
        if by != "box":
            return {"type": "double", "by": by}
        cubes = [c.strip() for c in request.form.getlist("cubes")[:100]]
        if state.settings.cube_mode == "single":
            return {"type": "double", "by": "box"}
        if not cubes:
            raise BadInput(_("Tick the cubes the box doubles."))
        return {"type": "double", "by": "box", "cubes": cubes}
    return _command(table_id, build)


@bp.post("/tables/<int:table_id>/answer")
@login_required
def answer(table_id: int) -> BaseResponse:
    """Take, drop, beaver or raccoon: a player may answer his own cube from his phone."""
    def build(state: TableState) -> dict[str, Any]:
        kind = request.form.get("answer")
        if kind not in commands.ANSWERS:
            raise BadInput(_("Unknown action."))
        extra = _field("extra")
        if extra:
            return {"type": kind, "extra": extra}
        return {"type": kind, "cube": _field("cube")}
    return _command(table_id, build, player_may=True)


@bp.post("/tables/<int:table_id>/extra")
@login_required
def extra(table_id: int) -> BaseResponse:
    """A member who dropped gives the lone taker an extra cube."""
    return _command(table_id, lambda state: {"type": "extra", "from": _field("giver"),
                                             "to": _field("taker")})


@bp.post("/tables/<int:table_id>/roll")
@login_required
def roll(table_id: int) -> BaseResponse:
    """The dice: rolled by the server, or the physical dice typed (the opening roll first)."""
    def build(state: TableState) -> dict[str, Any]:
        if request.form.get("how") != "dice":
            return commands.server_event(state, "roll")
        first, second = _die(_field("die1")), _die(_field("die2"))
        game = state.game
        if game is None or game.mode is None:
            return {"type": "opening_roll", "box": first, "team": second}
        return {"type": "roll", "dice": [first, second]}
    return _command(table_id, build, keep=("die1", "die2"))


@bp.post("/tables/<int:table_id>/move")
@login_required
def move(table_id: int) -> BaseResponse:
    """The side on roll's move, typed or tapped on the board."""
    return _command(table_id, lambda state: {"type": "move", "move": _field("move")},
                    keep=("move",))


@bp.post("/tables/<int:table_id>/result")
@login_required
def result(table_id: int) -> BaseResponse:
    """A game scored on the sheet: the winner and the kind, or its final Position ID."""
    def build(state: TableState) -> dict[str, Any]:
        position_id = _field("position_id")
        if position_id:
            return {"type": "result", "position_id": position_id, "on_roll": _field("on_roll")}
        return {"type": "result", "winner": _field("winner"), "kind": _field("kind")}
    return _command(table_id, build, keep=("position_id", "on_roll"))


@bp.route("/tables/<int:table_id>/undo", methods=["GET", "POST"])
@login_required
def undo(table_id: int) -> BaseResponse:
    """Undo the last action; without JavaScript a page asks for the confirmation first."""
    if request.method == "POST":
        return _command(table_id, lambda state: {"type": "undo"})
    played = _load(table_id)
    if not commands.may_run(current_user, played.table):
        abort(403)
    last = played.state.effective[-1] if played.state.effective else None
    return render_page("tables/undo.html", "tables/_undo.html", table=played.table,
                       night=played.table.night, seq=played.seq,
                       last=log_lines.describe(last) if last is not None else None)


@bp.post("/tables/<int:table_id>/correct")
@login_required
def correct(table_id: int) -> BaseResponse:
    """Correct a finished game: void it or fix its result, with a reason."""
    def build(state: TableState) -> dict[str, Any]:
        number = _field("game")
        if not number.isdigit() or len(number) > 6:
            raise BadInput(_("Choose the game to correct."))
        event: dict[str, Any] = {"type": "correct", "game": int(number), "reason": _field("reason")}
        fix = _field("fix")
        if fix == "void":
            event["void"] = True
        else:
            winner, _sep, kind = fix.partition("-")
            event["result"] = {"winner": winner, "kind": kind}
        return event
    return _command(table_id, build, keep=("reason", "fix", "game"))


@bp.get("/tables/<int:table_id>/position")
@login_required
def position(table_id: int) -> BaseResponse:
    """Any Position ID (or XGID) drawn read-only: the table does not change."""
    _read_only()
    played = _load(table_id)
    text = request.args.get("position_id", "").strip()
    on_roll = request.args.get("on_roll", "box")
    on_roll = on_roll if on_roll in ("box", "team") else "box"
    error, svg, shown = None, None, None
    status = 200
    if text:
        try:
            if len(text) > 80:
                raise BadInput(_("A Position ID has 14 characters; an XGID starts with XGID=."))
            shown = Position.from_xgid(text) if text.upper().startswith("XGID=") else Position.from_id(text)
            svg = render_board(shown, on_roll=on_roll, dice=None, rail=False,
                               labels={"box": _("Box"), "team": _("Team")})
        except (BadInput, RulesError, ValueError) as refused:
            error, status = say(refused), 422
    return render_page("tables/position.html", "tables/_position.html", status=status,
                       table=played.table, night=played.table.night, text=text[:MAX_FIELD],
                       on_roll=on_roll, error=error, svg=svg, shown=shown)

