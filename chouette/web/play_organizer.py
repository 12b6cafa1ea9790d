"""The organizer's commands at the live table: the house rules, a deal, a result on the
sheet, undo, a correction; and any position drawn (views of ``chouette.web.play``'s blueprint).

Each builds one event (or several: "Undo back to here") from its form and hands it to
``table_commands.command``, as the players' commands in ``chouette.web.play`` do.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from flask import abort, request
from flask_login import current_user, login_required
from werkzeug.wrappers import Response as BaseResponse

from chouette.engine import Position, RulesError
from chouette.ledger import LedgerError, parse_cents
from chouette.refusals import say
from chouette.services import base, commands, tables
from chouette.table import TableState
from chouette.web import house_rules, log_lines
from chouette.web.board_svg import render_board
from chouette.web.catalog import gettext as _
from chouette.web.htmx import render_page
from chouette.web.live_derived import match_players
from chouette.web.matches import sheet_event
from chouette.web.play import bp
from chouette.web.table_commands import MAX_FIELD, BadInput, command, field, load

RULE_FIELDS = tuple(f"rule-{key}" for key in tables.TABLE_DEFAULTS)


def _typed_settings(state: TableState) -> dict[str, Any]:
    """The settings the house-rules form changes (only those that differ from the rules in
    force), each parsed as the new-table form does and checked as a table's settings."""
    typed: dict[str, Any] = {}
    for key, default in tables.TABLE_DEFAULTS.items():
        text = field(f"rule-{key}")
        name = str(house_rules.SETTING_NAMES[key])
        if not text and key in house_rules.LATER_RULES:  # a form drawn before it: as it is
            typed[key] = getattr(state.settings, key)
        elif isinstance(default, bool):
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
            typed[key] = text
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
    return command(table_id, lambda state: {"type": "settings", "settings": _typed_settings(state)},
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
        amount, unit = field("amount"), field("unit")
        if not amount:
            raise BadInput(_("Type the agreed amount."))
        event: dict[str, Any] = {"type": "deal", "cube": field("cube"), "winner": field("winner")}
        if unit == "money":
            try:
                event["cents"] = parse_cents(amount)
            except LedgerError:
                raise BadInput(_("An amount is like 2.50, not %(value)s.", value=amount[:20])) from None
        elif unit == "points":
            event["points"] = _deal_points(amount)
        else:
            raise BadInput(_("Unknown action."))
        seat = field("seat")
        game = state.game
        if seat and game is not None and event["cube"] == game.seat_captain:
            event["seat"] = seat
        return event
    return command(table_id, build, keep=("amount", "unit", "cube", "winner", "seat"))


@bp.post("/tables/<int:table_id>/result")
@login_required
def result(table_id: int) -> BaseResponse:
    """A game scored on the sheet: the winner and the kind, or its final Position ID."""
    def build(state: TableState) -> dict[str, Any]:
        position_id = field("position_id")
        if position_id:
            return {"type": "result", "position_id": position_id, "on_roll": field("on_roll")}
        if state.settings.is_match:
            return sheet_event(state, field("winner"), field("kind"), field("cube"))
        return {"type": "result", "winner": field("winner"), "kind": field("kind")}
    return command(table_id, build, keep=("position_id", "on_roll", "winner", "kind", "cube"))


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
        return command(table_id, build)
    played = load(table_id)
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
    raw = field("count", "1").strip()
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
        number = field("game")
        if not number.isdigit() or len(number) > 6:
            raise BadInput(_("Choose the game to correct."))
        event: dict[str, Any] = {"type": "correct", "game": int(number), "reason": field("reason")}
        fix = field("fix")
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
    return command(table_id, build, keep=("reason", "fix", "game"))


@bp.get("/tables/<int:table_id>/position")
@login_required
def position(table_id: int) -> BaseResponse:
    """Any Position ID (or XGID) drawn read-only: the table does not change."""
    played = load(table_id)
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
