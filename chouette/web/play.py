"""The live table: seats, line, cubes, the board, results, undo, history and corrections.

Every action is one POST carrying the ``seq`` the page was rendered at. A view parses the
form into one event of the log format, hands it to ``commands.play`` and answers with the
live fragment (htmx, ``HX-Trigger: table-changed``) or a 303 back to the table page. A page
that is out of date gets 409 and the table as it is now, but for a decision that stands on
its own (an answer, a member's double, an extra, a partnership: docs/rules.md 2.5), which is taken
while what it decides still waits; a refusal of the rules gets 422 with the reason, and what
was typed stays in the form. The context those answers are drawn with
is built in ``chouette.web.live``.

Who may: the admins, the organizer who opened the night and the one who created the table run
it (``commands.may_run``); a signed-in player seated at the table makes his own decisions from
his phone (``commands.decider``: his answers, his doubles, a partnership offered to him, an
extra he gives); everyone signed in watches.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from typing import Any

from flask import Blueprint, abort, request
from flask_login import current_user, login_required
from werkzeug.wrappers import Response as BaseResponse

from chouette.engine import Position, RulesError
from chouette.ledger import LedgerError, parse_cents
from chouette.names import display_name
from chouette.refusals import say
from chouette.services import base, commands, cube_window, near_names, tables
from chouette.table import TableError, TableState
from chouette.web import house_rules, log_lines, privacy
from chouette.web.board_svg import render_board
from chouette.web.catalog import gettext as _
from chouette.web.errors import error_page
from chouette.web.htmx import is_htmx, render_if_changed, render_page, see_other
from chouette.web.live import _me, match_players, note_written, page_context, shared_live_html
from chouette.web.matches import sheet_event

bp = Blueprint("play", __name__)

MAX_FIELD = 200  # longest text a field may carry (names, moves, ids, reasons)


class BadInput(ValueError):
    """A form that cannot be an action (garbage dice, an oversized field): 422, nothing written."""


class Refused(BadInput):
    """A refusal said to anyone who may post the form, a seated player included (a typed roll
    at a table that plays online): 422 with the reason, nothing written."""


class NameQuestion(Exception):
    """A name typed at "Join the table" close to a member's: the Join card asks "Did you mean
    ...?" before a guest is seated (``near_names.members_to_ask``); nothing is written."""

    def __init__(self, typed: str, members: list[str], guest: bool) -> None:
        super().__init__(typed)
        self.question = {"typed": typed, "members": members, "guest": guest}


# --------------------------------------------------------------------------- loading


def _load(table_id: int) -> commands.TablePlay:
    """The table and its state (404 when there is no such table); for an organizer, with the
    members' names his Join card lists, in the same query."""
    try:
        return commands.load_play(table_id, names=commands.is_organizer(current_user))
    except base.NotFound:
        abort(404)


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


def _settled(table_id: int, played: commands.TablePlay) -> commands.TablePlay:
    """An online table whose time limit ran out decides what it makes first (the unanswered
    roll, the table's rule for unanswered doubles: ``cube_window.settle``), then the command
    is judged on the table as that left it."""
    if not cube_window.overdue(played):
        return played
    with contextlib.suppress(base.ServiceError):  # written, or nothing (rolled back)
        cube_window.settle(table_id, current_user)
    return _load(table_id)


# --------------------------------------------------------------------------- the fragment


def _live_response(played: commands.TablePlay, status: int = 200, *, changed: bool = False,
                   **live: Any) -> BaseResponse:
    """The live fragment for htmx, the whole table page otherwise."""
    response = render_page("tables/show.html", "tables/_live.html", status=status,
                           **page_context(played, **live))
    if changed:
        response.headers["HX-Trigger"] = "table-changed"
    return response


# --------------------------------------------------------------------------- one command


def _command(table_id: int, build: Callable[[TableState], dict[str, Any] | list[dict[str, Any]]],
             *, player_may: bool = False, keep: tuple[str, ...] = (),
             then: Callable[[commands.TablePlay], dict[str, Any] | None] | None = None
             ) -> BaseResponse:
    """Check the role, build the event from the form (or the events an organizer's shortcut
    writes at once: ``commands.play_all``), play it, answer.

    ``player_may``: a player seated at the table may post it when it is his own decision
    (``commands.authorize`` decides); a form from him that is no decision at all is not his
    either (403, like someone else's).
    ``keep``: the fields to give back to the form when the action is refused.
    ``then``: the event that follows by itself from the table the command left, if any
    (``forced_play_after_roll``), written next as the same member's command.
    """
    played = _settled(table_id, _load(table_id))
    runs = commands.may_run(current_user, played.table)
    if not runs and (not player_may or _me(table_id, played.state) is None):
        abort(403)
    typed = {name: request.form.get(name, "")[:MAX_FIELD] for name in keep}
    move_value = typed.get("move", "")
    seq = _seq()
    if seq is None:
        return _live_response(played, 400, error=_("This page is out of date: reload it."), typed=typed)
    try:
        event = build(played.state)
    except NameQuestion as asked:
        return _live_response(played, typed=typed, join_question=asked.question)
    except (BadInput, TableError, RulesError) as refused:
        if not runs and not isinstance(refused, Refused):  # not even a decision, so not his
            return error_page(403, _("That is not your decision: players make their own "
                                     "decisions at the table, and the organizer runs it."))
        return _live_response(played, 422, error=say(refused), typed=typed, move_value=move_value)
    try:
        if isinstance(event, list):
            after = commands.play_all(table_id, seq, event, current_user, loaded=played)
        else:
            after = commands.play(table_id, seq, event, current_user, loaded=played)
        following = then(after) if then is not None else None
        if following is not None:
            after = _followed(after, following)
    except base.TableChanged as changed:
        return _live_response(_load(table_id), 409, error=str(changed))
    except commands.NotAllowed as refused:
        return error_page(403, str(refused))
    except (BadInput, TableError, RulesError, base.ServiceError) as refused:
        # Shown on the table as it is now: a decision from an older page (docs/rules.md 2.5: each
        # answer stands on its own) is refused for what changed since (the cube answered).
        shown = played if seq == played.seq else _load(table_id)
        return _live_response(shown, 422, error=say(refused), typed=typed, move_value=move_value)
    if is_htmx():  # the table as this command left it (the state is the one just written)
        note_written(after, current_user.name)
        return _live_response(after, changed=True)
    return see_other("tables.show", table_id=table_id)


def _followed(after: commands.TablePlay, event: dict[str, Any]) -> commands.TablePlay:
    """``after`` with ``event`` played on it (a command's own follow-up); the table as
    ``after`` left it if the follow-up is refused (the first command stands)."""
    try:
        played = commands.play(after.table.id, after.seq, event, current_user, loaded=after)
    except (base.ServiceError, TableError, RulesError):
        return after
    return replace(played, written=(*after.written, *played.written))


def forced_play_after_roll(after: commands.TablePlay) -> dict[str, Any] | None:
    """The move that follows a roll by itself: at a table that plays online, the one legal
    play of the player who rolled for their own side, if they asked for that on their account
    page (``Member.auto_forced_moves``)."""
    state = after.state
    if not state.settings.online or not getattr(current_user, "auto_forced_moves", False):
        return None
    if commands.match_mover(state) != _me(after.table.id, state):
        return None
    forced = commands.forced_play(state)
    return {"type": "move", "move": forced} if forced is not None else None


# --------------------------------------------------------------------------- views


@bp.get("/tables/<int:table_id>/live")
@login_required
def live(table_id: int) -> BaseResponse:
    """The live table (polled by phones: 304 while nothing changed). A GET: it reads as a
    reader from its first query (``extensions.readers_never_lock``)."""
    played = _load(table_id)
    # The ETag covers the viewer; the money he is shown may change with the club's setting.
    version = f"{table_id}:{played.seq}:{played.table.is_open}:{privacy.visibility()}"
    shared = shared_live_html(played)  # most phones: the state's one drawing, made theirs
    if shared is not None:
        return render_if_changed(version, "tables/show.html", "tables/_live.html", drawn=shared)
    return render_if_changed(version, "tables/show.html", "tables/_live.html", **page_context(played))


@bp.post("/tables/<int:table_id>/join")
@login_required
def join(table_id: int) -> BaseResponse:
    """A member or a guest sits down (with his stake when the table allows per-player stakes).

    A name close to a member's that is not his ("Ann Archr" for Ann Archer) is asked about
    first (``NameQuestion``): the organizer picks the member, or posts the name as typed in
    ``guest`` to seat a new guest. A name the table already knows (a player who left and comes
    back) is not asked about again."""
    def build(state: TableState) -> dict[str, Any]:
        guest = _field("guest")
        player = guest or _field("player")
        if not guest and display_name(player) not in state.players:
            members = near_names.members_to_ask(player)
            if members:
                raise NameQuestion(display_name(player), members, near_names.may_be_a_guest(player))
        event: dict[str, Any] = {"type": "join", "player": player}
        stake = _field("stake")
        if stake:
            try:
                event["stake_cents"] = parse_cents(stake)
            except LedgerError:
                raise BadInput(_("A stake is an amount like 2.50, not %(value)s.", value=stake[:20])) from None
        return event
    return _command(table_id, build, keep=("player", "stake", "guest"))


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
            return {"type": "order_roll", "rolls": {n[:MAX_FIELD]: _die(d) for n, d in zip(names, dice, strict=False)}}
        if how == "record":
            names = [line.strip() for line in _field("players").splitlines() if line.strip()]
            return {"type": "order", "players": names}
        raise BadInput(_("Unknown action."))
    return _command(table_id, build, keep=("players",))


@bp.post("/tables/<int:table_id>/partner")
@login_required
def partner(table_id: int) -> BaseResponse:
    """The box's partnership: accepted or declined by the player offered it, or drawn; or,
    for the organizer, "nobody accepts": every offer left declined and the partner drawn, in
    one command (``commands.nobody_accepts``)."""
    def build(state: TableState) -> dict[str, Any] | list[dict[str, Any]]:
        answer = request.form.get("answer")
        if answer == "draw":
            return commands.server_event(state, "partner_draw")
        if answer == "nobody":
            return commands.nobody_accepts(state)
        if answer not in ("accept", "decline"):
            raise BadInput(_("Unknown action."))
        return {"type": "partner", "player": _field("player"), "accept": answer == "accept"}
    return _command(table_id, build, player_may=True)


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
    return _command(table_id, build, player_may=True)


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


@bp.post("/tables/<int:table_id>/take-back")
@login_required
def take_back(table_id: int) -> BaseResponse:
    """A player takes back their own drop, the table's last event, within a few seconds
    (``services.take_back``: the server checks the drop is theirs and nothing came after)."""
    return _command(table_id, lambda state: {"type": "undo"}, player_may=True)


@bp.post("/tables/<int:table_id>/extra")
@login_required
def extra(table_id: int) -> BaseResponse:
    """A member who dropped gives the lone taker an extra cube."""
    return _command(table_id, lambda state: {"type": "extra", "from": _field("giver"),
                                             "to": _field("taker")}, player_may=True)


#: The fields of the house-rules form (tables/_settings_form.html): ``rule-<setting>``.
RULE_FIELDS = tuple(f"rule-{key}" for key in tables.TABLE_DEFAULTS)


def _typed_settings(state: TableState) -> dict[str, Any]:
    """The settings the house-rules form changes (only those that differ from the rules in
    force), each parsed as the new-table form does and checked as a table's settings."""
    typed: dict[str, Any] = {}
    for key, default in tables.TABLE_DEFAULTS.items():
        text = _field(f"rule-{key}")
        name = str(house_rules.SETTING_NAMES[key])
        if isinstance(default, bool):
            typed[key] = text in ("on", "y", "true", "1")
        elif key == "stake_cents":
            try:
                typed[key] = parse_cents(text)
            except LedgerError:
                raise BadInput(_("A stake is an amount like 2.50, not %(value)s.",
                                 value=text[:20] or "…")) from None
        elif isinstance(default, int):
            if not text.isdigit() or len(text) > 9:
                raise BadInput(_("%(setting)s is a whole number, not %(value)s.",
                                 setting=name, value=text[:20] or "…"))
            typed[key] = int(text)
        else:
            # A form drawn before the table could play online has no such field: as it is.
            typed[key] = text or (getattr(state.settings, key) if key == "play" else text)
    try:
        tables.normalize_settings(typed)
    except base.ServiceError as error:
        raise BadInput(str(error)) from None
    changes = {key: value for key, value in typed.items() if value != getattr(state.settings, key)}
    if not changes:
        raise BadInput(_("Nothing to change: these are the house rules in force."))
    return changes


@bp.post("/tables/<int:table_id>/settings")
@login_required
def settings(table_id: int) -> BaseResponse:
    """Change the house rules between games: from the next game on (docs/rules.md 2.12)."""
    return _command(table_id, lambda state: {"type": "settings", "settings": _typed_settings(state)},
                    keep=RULE_FIELDS)
def _deal_points(text: str) -> int | float | str:
    """Agreed points typed by hand (``1.5``, ``1,5``, ``2``) as a number of the log; what is
    no number is handed on as typed, for the rules to refuse with their reason."""
    try:
        value = Decimal(text.replace(",", "."))
    except InvalidOperation:
        return text
    if not value.is_finite():
        return text
    return int(value) if value == value.to_integral_value() else float(value)


@bp.post("/tables/<int:table_id>/deal")
@login_required
def deal(table_id: int) -> BaseResponse:
    """The organizer records a deal: a member's cube settled with the box for an agreed
    amount, in points or in money; with the captain, who keeps the seat (docs/rules.md 2.12)."""
    def build(state: TableState) -> dict[str, Any]:
        amount, unit = _field("amount"), _field("unit")
        if not amount:
            raise BadInput(_("Type the agreed amount."))
        event: dict[str, Any] = {"type": "deal", "cube": _field("cube"), "winner": _field("winner")}
        if unit == "money":
            try:
                event["cents"] = parse_cents(amount)
            except LedgerError:
                raise BadInput(_("An amount is like 2.50, not %(value)s.", value=amount[:20])) from None
        elif unit == "points":
            event["points"] = _deal_points(amount)
        else:
            raise BadInput(_("Unknown action."))
        seat = _field("seat")
        game = state.game
        if seat and game is not None and event["cube"] == game.seat_captain:
            event["seat"] = seat
        return event
    return _command(table_id, build, keep=("amount", "unit", "cube", "winner", "seat"))


@bp.post("/tables/<int:table_id>/proxy")
@login_required
def proxy(table_id: int) -> BaseResponse:
    """The organizer records a proxy: an absent member's cube decisions go to a teammate; a
    member may hand their own before stepping away (``commands.own_hand_over``)."""
    return _command(table_id, lambda state: {"type": "proxy", "player": _field("player"),
                                             "to": _field("to")}, keep=("player", "to"),
                    player_may=True)


@bp.post("/tables/<int:table_id>/roll")
@login_required
def roll(table_id: int) -> BaseResponse:
    """The dice: rolled by the server, or the physical dice typed (the opening roll first)."""
    def build(state: TableState) -> dict[str, Any]:
        if request.form.get("how") != "dice":
            return commands.roll_event(state)
        try:
            commands.no_typed_dice(state)
        except TableError as refused:  # said to a seated player too (not "not your decision")
            raise Refused(say(refused)) from None
        return commands.roll_event(state, (_die(_field("die1")), _die(_field("die2"))))
    # An online table's roll waits for its cube window to close (services.cube_window).
    played = _load(table_id)
    # The roller's tap on Roll is the roller's "roll" in the window: the dice come when the
    # window closes (at once if nobody else is asked). The organizer hears why the roll waits;
    # anyone else hears whose roll it is (403, from _command).
    refusal = cube_window.roll_refusal(played)
    me = _me(table_id, played.state)
    if refusal is not None and me is not None and me == commands.decider(played.state, {"type": "roll"}):
        return _roll_in_window(table_id)
    if refusal is not None and commands.may_run(current_user, played.table):
        return _live_response(played, 422, error=refusal)
    # At a match table, or one that plays online, the side on roll rolls from its own device
    # (commands.decider); a forced play then plays by itself if the roller asked for it.
    return _command(table_id, build, keep=("die1", "die2"), player_may=True,
                    then=forced_play_after_roll)


def _roll_in_window(table_id: int) -> BaseResponse:
    """The roller says "roll" in the open cube window (``cube_window.answer_roll``)."""
    try:
        outcome = cube_window.answer_roll(table_id, current_user)
    except (base.ServiceError, commands.NotAllowed) as refused:
        return _live_response(_load(table_id), 422, error=str(refused))
    after = outcome.played
    if outcome.rolled:
        following = forced_play_after_roll(after)
        if following is not None:
            after = _followed(after, following)
    if not is_htmx():
        return see_other("tables.show", table_id=table_id)
    return _live_response(_load(table_id), changed=outcome.rolled)  # the card says what waits


@bp.post("/tables/<int:table_id>/move")
@login_required
def move(table_id: int) -> BaseResponse:
    """The side on roll's move, typed or tapped on the board."""
    return _command(table_id, lambda state: {"type": "move", "move": _field("move")},
                    keep=("move",), player_may=True)


@bp.post("/tables/<int:table_id>/result")
@login_required
def result(table_id: int) -> BaseResponse:
    """A game scored on the sheet: the winner and the kind, or its final Position ID."""
    def build(state: TableState) -> dict[str, Any]:
        position_id = _field("position_id")
        if position_id:
            return {"type": "result", "position_id": position_id, "on_roll": _field("on_roll")}
        if state.settings.is_match:
            return sheet_event(state, _field("winner"), _field("kind"), _field("cube"))
        return {"type": "result", "winner": _field("winner"), "kind": _field("kind")}
    return _command(table_id, build, keep=("position_id", "on_roll", "winner", "kind", "cube"))


@bp.route("/tables/<int:table_id>/undo", methods=["GET", "POST"])
@login_required
def undo(table_id: int) -> BaseResponse:
    """Undo the last action, or the last ``count`` actions at once (the organizer's "Undo back
    to here"); without JavaScript a page asks for the confirmation first, and lists the last
    actions to undo back to."""
    if request.method == "POST":
        def build(state: TableState) -> dict[str, Any] | list[dict[str, Any]]:
            count = _undo_count(len(state.effective))
            return {"type": "undo"} if count == 1 else [{"type": "undo"}] * count
        return _command(table_id, build)
    played = _load(table_id)
    if not commands.may_run(current_user, played.table):
        abort(403)
    players = match_players(played.state)
    recent = [log_lines.describe(event, players) for event in played.state.effective[-UNDO_MOST:]][::-1]
    return render_page("tables/undo.html", "tables/_undo.html", table=played.table,
                       night=played.table.night, seq=played.seq,
                       last=recent[0] if recent else None, recent=recent)


#: The most actions one undo takes back (the organizer's "Undo back to here").
UNDO_MOST = 12


def _undo_count(effective: int) -> int:
    """How many actions the posted undo takes back: ``count``, 1 by default."""
    raw = _field("count", "1").strip()
    if not raw.isdigit() or not 1 <= int(raw) <= UNDO_MOST:
        raise BadInput(_("An undo takes back from 1 to %(most)d actions, not %(value)s.",
                         most=UNDO_MOST, value=raw[:10] or "…"))
    if int(raw) > effective:
        raise BadInput(_("Not that many actions to undo: %(count)d at most.", count=effective))
    return int(raw)


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
        elif fix.startswith("answer:"):
            _kind, before, now, cube = (fix.split(":", 3) + ["", "", ""])[:4]
            if not before.isdigit() or len(before) > 6:
                raise BadInput(_("Choose what to correct."))
            event["answer"] = {"cube": cube, "value": int(before), "now": now}
        elif not fix:
            raise BadInput(_("Choose what to correct."))
        else:
            winner, _sep, kind = fix.partition("-")
            event["result"] = {"winner": winner, "kind": kind}
        return event
    return _command(table_id, build, keep=("reason", "fix", "game"))


@bp.get("/tables/<int:table_id>/position")
@login_required
def position(table_id: int) -> BaseResponse:
    """Any Position ID (or XGID) drawn read-only: the table does not change."""
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
