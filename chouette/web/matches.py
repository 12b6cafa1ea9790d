"""Head-to-head matches (docs/rules.md 1.8): open one at a night, and what the table page shows of it.

A match table is played on the live table's board with the chouette's log (``chouette.web.play``
takes every command); this module opens one (two players, a length, the Holland rule, a stake)
and gives the live table its score, Crawford game, Match ID, cube buttons and games, and the
event of a game played on a physical board recorded on the sheet (``sheet_event``: the winner
by name, how, the cube; ``play.result`` posts it).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse
from wtforms import BooleanField, IntegerField, SelectField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from chouette.engine import Match
from chouette.extensions import db
from chouette.models import Member
from chouette.services import base, commands
from chouette.table import TableError, TableState
from chouette.table.game import BOARD
from chouette.table.match_rules import MAX_SHEET_CUBE, match_id, match_of, players
from chouette.table.settings import MAX_MATCH_LENGTH
from chouette.web.auth import role_required
from chouette.web.catalog import gettext as _
from chouette.web.forms import CentsField
from chouette.web.htmx import render_page, see_other
from chouette.web.nights import get_night

bp = Blueprint("matches", __name__)

#: The cube values the sheet's form offers.
CUBE_VALUES = [2 ** n for n in range(MAX_SHEET_CUBE.bit_length())]
KIND_WORDS = {"single": _l("single"), "gammon": _l("gammon"), "backgammon": _l("backgammon")}


class MatchForm(FlaskForm):
    """Open a match: a name, two players (members or guests), the length, the options."""

    name = StringField(_l("Table name"), validators=[InputRequired(), Length(max=60)])
    first = StringField(_l("First player"), validators=[InputRequired(), Length(max=40)])
    second = StringField(_l("Second player"), validators=[InputRequired(), Length(max=40)])
    match_length = IntegerField(_l("Match to (points)"), default=5,
                                validators=[InputRequired(), NumberRange(1, MAX_MATCH_LENGTH)])
    holland = BooleanField(_l("Holland rule (after the Crawford game the trailer may not "
                              "double before their third turn)"))
    match_stake = SelectField(_l("Money"), default="none", choices=[
        ("none", _l("No money: not in the ledger")), ("point", _l("A stake per point")),
        ("match", _l("A stake for the match"))])
    stake_cents = CentsField(_l("Stake"), validators=[Optional()])

    def settings(self) -> dict[str, Any]:
        """The match's settings as typed (``services.normalize_match_settings`` checks them)."""
        stake = self.match_stake.data or "none"
        return {"match_length": self.match_length.data, "holland": bool(self.holland.data),
                "match_stake": stake,
                "stake_cents": self.stake_cents.data if stake != "none" else 0}


@bp.route("/nights/<int:night_id>/matches/new", methods=["GET", "POST"])
@role_required("organizer")
def new(night_id: int) -> BaseResponse:
    """The new-match form; on success the match's table page, the two players seated."""
    night = get_night(night_id, for_change=True)
    form = MatchForm()
    status = 200
    if not form.is_submitted():
        form.name.data = _("Match %(number)d", number=len(night.tables) + 1)
    elif form.validate():
        try:
            table = commands.open_match(
                night.id, name=form.name.data or "", actor=current_user,
                players=[form.first.data or "", form.second.data or ""], settings=form.settings())
        except base.ServiceError as error:
            form.form_errors.append(str(error))
            status = 422
        else:
            flash(_("The match %(name)s is ready.", name=table.name), "success")
            return see_other("tables.show", table_id=table.id)
    else:
        status = 422
    members = list(db.session.scalars(
        select(Member.name).where(Member.active.is_(True)).order_by(Member.name)))
    return render_page("matches/new.html", "matches/_form.html", status=status, form=form,
                       night=night, members=members)


# --------------------------------------------------------------------------- the live table


def match_context(state: TableState, actions: dict[str, Any], mine: list[dict[str, Any]],
                  runs: bool, me: str | None) -> dict[str, Any] | None:
    """What the live table shows of a match: the score, the Crawford game, the Match ID, the
    cube and its buttons, every game (None at a chouette table)."""
    match = match_of(state)
    seated = players(state)
    if match is None or seated is None:
        return None
    first, second = seated
    game = state.game
    cube = game.cubes[second].cube if game is not None else None
    owner = None if cube is None or cube.owner is None else seated[cube.owner]
    doubles = []
    if actions["box_double"] and (runs or me == first):
        doubles.append({"by": "box", "name": first})
    for by in actions["member_doubles"]:
        if runs or me == by:
            doubles.append({"by": by, "name": by})
    answers = []
    for cube_name, kinds in actions["answers"].items():
        answerer = first if cube_name == "team" else second
        for kind in kinds:
            if runs or {"type": kind, "cube": cube_name} in mine:
                answers.append({"cube": cube_name, "answer": kind, "name": answerer})
    offer = cube.offer if cube is not None else None
    return {
        "length": match.length, "holland": match.holland_rule,
        "players": [{"name": first, "score": match.scores[0], "away": match.away(0)},
                    {"name": second, "score": match.scores[1], "away": match.away(1)}],
        "crawford": match.crawford_game, "post_crawford": match.post_crawford,
        "over": match.is_over,
        "winner": seated[match.winner] if match.winner is not None else None,
        "match_id": match_id(state),
        "cube_value": cube.value if cube is not None else 1, "cube_owner": owner,
        "offer": ({"by": seated[offer.side], "to": seated[1 - offer.side], "value": offer.value}
                  if offer is not None else None),
        "doubles": doubles, "answers": answers,
        "games": _games(state, seated),
        "stake": state.settings.match_stake, "stake_cents": state.settings.stake_cents,
        # Between games a game played on a physical board is recorded on the sheet.
        "sheet": game is None and not match.is_over,
        "cube_values": [1] if match.crawford_game else CUBE_VALUES,
        "on_board": all(record.mode == BOARD for record in state.games),
    }


def sheet_event(state: TableState, winner: str, kind: str, cube: str) -> dict[str, Any]:
    """The ``result`` event of a game recorded on the sheet, from the form: the winner by
    name, the kind, the cube value (the rules check the rest).

    Raises:
        TableError: the winner is not one of the two players, or the cube is not a number.
    """
    seated = players(state)
    if seated is None or winner not in seated:
        names = seated or ("", "")
        raise TableError("the winner is {first} or {second}", first=names[0], second=names[1])
    value = cube.strip() or "1"
    if not value.isdigit() or len(value) > 6:
        raise TableError("the cube is 1, 2, 4, 8... up to {max}, not {value!r}",
                         max=MAX_SHEET_CUBE, value=value[:10])
    return {"type": "result", "winner": "box" if winner == seated[0] else "team", "kind": kind,
            "cube": int(value)}


def _games(state: TableState, seated: tuple[str, str]) -> list[dict[str, Any]]:
    """Every finished game: its winner, how, the points, the score after it, newest first."""
    rows = []
    match = Match(state.settings.match_length, holland_rule=state.settings.holland)
    for record in state.games:
        points = record.pairs[0][1]
        side = 1 if points > 0 else 0
        was_crawford = match.crawford_game
        match = match.record_game(side, abs(points))
        how = (str(KIND_WORDS[record.kind]) if record.kind in KIND_WORDS
               else _("the double dropped"))
        rows.append({"number": record.number, "winner": seated[side], "points": abs(points),
                     "how": how, "cube": record.cubes[0].value if record.cubes else 1,
                     "score": match.scores, "crawford": was_crawford})
    return list(reversed(rows))
