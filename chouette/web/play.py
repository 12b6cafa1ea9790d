"""The live table: the page itself, seats, the starting order, cubes, the dice and the moves.

Each view here builds one event from its form and hands it to ``table_commands.command``,
which plays it and answers (the command path: docs/architecture.md). The organizer's other
commands (house rules, deals, results, undo, corrections) are in ``chouette.web.play_organizer``,
on this blueprint.

Who may: the admins, the organizer who opened the night and the one who created the table run
it (``commands.may_run``); a signed-in player seated at the table makes their own decisions
from their phone (``deciders.decider``: their answers, their doubles, a partnership offered to
them, an extra they give); everyone signed in watches.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request
from flask_login import current_user, login_required
from werkzeug.wrappers import Response as BaseResponse

from chouette.ledger import LedgerError, parse_cents
from chouette.names import display_name
from chouette.refusals import say
from chouette.services import base, chance, commands, cube_window, deciders, near_names
from chouette.table import TableError, TableState
from chouette.web import privacy
from chouette.web.catalog import gettext as _
from chouette.web.htmx import is_htmx, render_if_changed, see_other
from chouette.web.live import page_context
from chouette.web.live_seats import my_seat as _me
from chouette.web.live_shared import shared_live_html
from chouette.web.table_commands import (
    MAX_FIELD,
    BadInput,
    NameQuestion,
    Refused,
    command,
    die,
    field,
    followed,
    forced_play_after_roll,
    live_response,
    load,
)

bp = Blueprint("play", __name__)

# --------------------------------------------------------------------------- views


@bp.get("/tables/<int:table_id>/live")
@login_required
def live(table_id: int) -> BaseResponse:
    """The live table (polled by phones: 304 while nothing changed). A GET: it reads as a
    reader from its first query, as every request does (``extensions.start_reading``)."""
    played = load(table_id)
    # The ETag covers the viewer; the money they are shown may change with the club's setting.
    version = f"{table_id}:{played.seq}:{played.table.is_open}:{privacy.visibility()}"
    shared = shared_live_html(played)  # most phones: the state's one drawing, made theirs
    if shared is not None:
        return render_if_changed(version, "tables/show.html", "tables/_live.html", drawn=shared)
    return render_if_changed(version, "tables/show.html", "tables/_live.html", **page_context(played))


@bp.post("/tables/<int:table_id>/join")
@login_required
def join(table_id: int) -> BaseResponse:
    """A member or a guest sits down (with their stake when the table allows per-player stakes).

    A name close to a member's that is not theirs ("Ann Archr" for Ann Archer) is asked about
    first (``NameQuestion``): the organizer picks the member, or posts the name as typed in
    ``guest`` to seat a new guest. A name the table already knows (a player who left and comes
    back) is not asked about again."""
    def build(state: TableState) -> dict[str, Any]:
        guest = field("guest")
        player = guest or field("player")
        if not guest and display_name(player) not in state.players:
            members = near_names.members_to_ask(player)
            if members:
                raise NameQuestion(display_name(player), members, near_names.may_be_a_guest(player))
        event: dict[str, Any] = {"type": "join", "player": player}
        stake = field("stake")
        if stake:
            try:
                event["stake_cents"] = parse_cents(stake)
            except LedgerError:
                raise BadInput(_("A stake is an amount like 2.50, not %(value)s.", value=stake[:20])) from None
        return event
    return command(table_id, build, keep=("player", "stake", "guest"))


@bp.post("/tables/<int:table_id>/leave")
@login_required
def leave(table_id: int) -> BaseResponse:
    """A player leaves the table (between their games)."""
    return command(table_id, lambda state: {"type": "leave", "player": field("player")})


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
            return {"type": "order_roll", "rolls": {n[:MAX_FIELD]: die(d) for n, d in zip(names, dice, strict=False)}}
        if how == "record":
            names = [line.strip() for line in field("players").splitlines() if line.strip()]
            return {"type": "order", "players": names}
        raise BadInput(_("Unknown action."))
    return command(table_id, build, keep=("players",))


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
        return {"type": "partner", "player": field("player"), "accept": answer == "accept"}
    return command(table_id, build, player_may=True)


@bp.post("/tables/<int:table_id>/double")
@login_required
def double(table_id: int) -> BaseResponse:
    """The box doubles the chosen members' cubes, or a member doubles the box."""
    def build(state: TableState) -> dict[str, Any]:
        by = field("by")
        extra = field("extra")
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
    return command(table_id, build, player_may=True)


@bp.post("/tables/<int:table_id>/answer")
@login_required
def answer(table_id: int) -> BaseResponse:
    """Take, drop, beaver or raccoon: a player may answer their own cube from their phone."""
    def build(state: TableState) -> dict[str, Any]:
        kind = request.form.get("answer")
        if kind not in deciders.ANSWERS:
            raise BadInput(_("Unknown action."))
        extra = field("extra")
        if extra:
            return {"type": kind, "extra": extra}
        return {"type": kind, "cube": field("cube")}
    return command(table_id, build, player_may=True)


@bp.post("/tables/<int:table_id>/take-back")
@login_required
def take_back(table_id: int) -> BaseResponse:
    """A player takes back their own drop, the table's last event, within a few seconds
    (``services.take_back``: the server checks the drop is theirs and nothing came after)."""
    return command(table_id, lambda state: {"type": "undo"}, player_may=True)


@bp.post("/tables/<int:table_id>/extra")
@login_required
def extra(table_id: int) -> BaseResponse:
    """A member who dropped gives the lone taker an extra cube."""
    return command(table_id, lambda state: {"type": "extra", "from": field("giver"),
                                            "to": field("taker")}, player_may=True)


#: The fields of the house-rules form (tables/_settings_form.html): ``rule-<setting>``.
@bp.post("/tables/<int:table_id>/proxy")
@login_required
def proxy(table_id: int) -> BaseResponse:
    """The organizer records a proxy: an absent member's cube decisions go to a teammate; a
    member may hand their own before stepping away (``deciders.own_hand_over``)."""
    return command(table_id, lambda state: {"type": "proxy", "player": field("player"),
                                            "to": field("to")}, keep=("player", "to"),
                   player_may=True)


@bp.post("/tables/<int:table_id>/roll")
@login_required
def roll(table_id: int) -> BaseResponse:
    """The dice: rolled by the server, or the physical dice typed (the opening roll first)."""
    def build(state: TableState) -> dict[str, Any]:
        if request.form.get("how") != "dice":
            return chance.roll_event(state)
        try:
            chance.no_typed_dice(state)
        except TableError as refused:  # said to a seated player too (not "not your decision")
            raise Refused(say(refused)) from None
        return chance.roll_event(state, (die(field("die1")), die(field("die2"))))
    # An online table's roll waits for its cube window to close (services.cube_window).
    played = load(table_id)
    # The roller's tap on Roll is the roller's "roll" in the window: the dice come when the
    # window closes (at once if nobody else is asked). The organizer hears why the roll waits;
    # anyone else hears whose roll it is (403, from _command).
    refusal = cube_window.roll_refusal(played)
    me = _me(table_id, played.state)
    if refusal is not None and me is not None and me == deciders.decider(played.state, {"type": "roll"}):
        return _roll_in_window(table_id)
    if refusal is not None and commands.may_run(current_user, played.table):
        return live_response(played, 422, error=refusal)
    # At a match table, or one that plays online, the side on roll rolls from its own device
    # (deciders.decider); a forced play then plays by itself if the roller asked for it.
    return command(table_id, build, keep=("die1", "die2"), player_may=True,
                   then=forced_play_after_roll)


def _roll_in_window(table_id: int) -> BaseResponse:
    """The roller says "roll" in the open cube window (``cube_window.answer_roll``)."""
    try:
        outcome = cube_window.answer_roll(table_id, current_user)
    except (base.ServiceError, deciders.NotAllowed) as refused:
        return live_response(load(table_id), 422, error=str(refused))
    after = outcome.played
    if outcome.rolled:
        following = forced_play_after_roll(after)
        if following is not None:
            after = followed(after, following)
    if not is_htmx():
        return see_other("tables.show", table_id=table_id)
    return live_response(after, changed=outcome.rolled)  # the card says what waits


@bp.post("/tables/<int:table_id>/move")
@login_required
def move(table_id: int) -> BaseResponse:
    """The side on roll's move, typed or tapped on the board."""
    return command(table_id, lambda state: {"type": "move", "move": field("move")},
                   keep=("move",), player_may=True)
